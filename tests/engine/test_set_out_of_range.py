"""ipb run and ipb explain warn when a --set value lies outside its input's declared range (s46user).

A new user's ``ipb run piotroski_f_score.yaml strong.yaml --set roa=50%`` on a ``range: [-30%, 30%]`` input ran
with nothing on standard error, while ``ipb check`` warns about the same fact in a scenario file and ``ipb
perturb`` refuses it in a base. The card and base are the Templeton fixtures: debt_to_equity has range [0%, 300%].
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app

TESTS = Path(__file__).resolve().parents[1]
TEMPLETON = TESTS / "perturb" / "cards" / "templeton_new_user.yaml"
TEMPLETON_BASE = TESTS / "perturb" / "fixtures" / "templeton_new_user_base.yaml"
WARNING = ("warning: --set debt_to_equity = 350% is outside the range [0%, 300%] that card 'templeton_new_user' "
           "declares for it.")


def _invoke(command: str, value: str):
    result = CliRunner().invoke(app, [command, str(TEMPLETON), str(TEMPLETON_BASE), "--set", f"debt_to_equity={value}",
                                      "--format", "json"])
    assert result.exit_code == 0, result.output
    return result.output.replace("\n", " ")


@pytest.mark.parametrize("command", ["run", "explain"])
def test_a_set_value_outside_the_declared_range_is_named_on_stderr(command):
    assert WARNING in _invoke(command, "350%")


@pytest.mark.parametrize("command", ["run", "explain"])
def test_a_set_value_inside_the_range_gives_no_warning(command):
    # 300% is the range's upper end, inside it (the range is closed)
    assert "is outside the range" not in _invoke(command, "300%")
