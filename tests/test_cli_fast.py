"""The console script's fast path for ``ipb run`` (issue 17, item 7): same output as typer, no pydantic."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.cli._app import fast_invocation

ROOT = Path(__file__).resolve().parents[1]
BASE = str(ROOT / "frameworks" / "scenarios" / "buffett_acquisition_checklist" / "ipb_p_011_base.yaml")
CARD = "buffett_acquisition_checklist"

SAME = [
    ["run", CARD, BASE],
    ["run", CARD, BASE, "-f", "json"],
    ["run", CARD, BASE, "--format=json", "--set", "ev_to_arr=3x", "--set", "revenue_growth=15%"],
    ["run", CARD, "--diagnostic", BASE, "--format", "json"],
    ["run", CARD],
    ["run", "no_such_card", BASE],
    ["run", CARD, BASE, "--set", "ev_to_arr=lots"],
]


@pytest.mark.parametrize("argv", SAME, ids=["table", "json", "set", "diagnostic", "no-scenario", "unknown-card",
                                             "bad-value"])
def test_the_fast_path_prints_what_typer_prints(argv, capsys):
    expected = CliRunner().invoke(app, argv)
    call = fast_invocation(argv)
    assert call is not None
    code = 0
    try:
        call()
    except SystemExit as exc:
        code = exc.code or 0
    captured = capsys.readouterr()
    assert code == expected.exit_code
    assert captured.out + captured.err == expected.output


@pytest.mark.parametrize("argv", [
    ["run", "--help"], ["run"], ["run", CARD, BASE, "--format", "yaml"], ["run", CARD, BASE, "--nope"],
    ["run", CARD, BASE, "extra"], ["run", CARD, BASE, "-f"], ["check", CARD], ["run", CARD, BASE, "--diagnostic=yes"],
], ids=["help", "missing-card", "bad-choice", "unknown-option", "extra-argument", "missing-value", "other-command",
        "flag-value"])
def test_anything_unusual_is_left_to_typer(argv):
    assert fast_invocation(argv) is None


def test_ipb_run_through_the_console_script_imports_no_pydantic():
    code = ("import sys; from ipb.cli import main\n"
            f"sys.argv = ['ipb', 'run', {CARD!r}, {BASE!r}]\n"
            "main()\n"
            "print('PYDANTIC' if 'pydantic' in sys.modules else 'NO-PYDANTIC')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "Final verdict: DECLINE" in out and out.strip().endswith("NO-PYDANTIC")
