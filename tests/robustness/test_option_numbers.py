"""Numbers typed into command options are read like scenario facts: a guessed decimal mark is an error.

``ipb forecast interval --lower 1,5`` was read as 1.5 while ``--set x=1,5`` is refused (breaker finding).
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ipb.cli import app


@pytest.mark.parametrize("lower", ["1,5", "$20.000", "２"])
def test_a_forecast_bound_whose_decimal_mark_is_a_guess_is_refused(lower: str) -> None:
    r = CliRunner().invoke(app, ["forecast", "interval", "--lower", lower, "--upper", "3", "--observed", "2"])
    assert r.exit_code != 0
    assert "--lower" in r.output


def test_a_thousands_group_is_still_read() -> None:
    r = CliRunner().invoke(app, ["forecast", "interval", "--lower", "1,500", "--upper", "2,500", "--observed", "2000"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert (doc["lower"], doc["upper"], doc["covered"]) == (1500, 2500, True)
