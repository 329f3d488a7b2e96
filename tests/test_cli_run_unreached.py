"""Regression (values shown for a gate never reached): ``ipb run`` prints the inputs a gate read only when the
chain reached it (or ``--diagnostic`` evaluated it). A piped run of the acquisition checklist's price-equals-value
base stops at gate 5 and used to print gate 6's ``macro_regime = expansion`` and ``net_income = $0`` beside N/A."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app

BASE = Path(__file__).resolve().parents[1] / "frameworks" / "scenarios" / "buffett_acquisition_checklist" / "price_equals_value.yaml"


def _row(text: str, number: str) -> str:
    """The table lines of gate ``number`` (from its row to the next rule line)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"│ {number} │"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(("├", "└")))
    return "\n".join(lines[start:end])


def test_a_gate_never_reached_shows_no_values():
    result = CliRunner().invoke(app, ["run", "buffett_acquisition_checklist", str(BASE)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Final verdict: DECLINE" in result.output
    six, five = _row(result.output, "6"), _row(result.output, "5")
    assert "N/A" in six and "terminated_by_gate_5" in six
    assert "macro_regime" not in six and "net_income" not in six
    assert "ev_to_arr = 5x" in five and "price = $25B" in five  # the deciding gate keeps its values


def test_diagnostic_run_shows_the_values_it_evaluated():
    result = CliRunner().invoke(app, ["run", "buffett_acquisition_checklist", str(BASE), "--diagnostic"],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    six = _row(result.output, "6")
    assert "would be" in six and "macro_regime = expansion" in six and "net_income = $0" in six
