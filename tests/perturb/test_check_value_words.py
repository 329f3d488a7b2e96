"""Regression (ipb check passed a card that ipb perturb refuses): category values that read alike.

Found by the s29break18 review (issue 18): a card whose input ``business_model`` has the values ``us_gov`` and
``"US gov"`` (both shown as "US gov" in a question, so a question could not be read back to one value) was
``ok`` for ``ipb check``, which only compared the texts of ``value_labels``; ``ipb perturb`` then stopped with
an error naming no file or line. ``ipb check`` now reports it at the input's ``values`` (file:line:col), and
so does ``ipb perturb``, before any work.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app
from perturb_support import CARDS, FIXTURES

runner = CliRunner()


def _card(tmp_path: Path, values: str) -> tuple[Path, int]:
    text = (CARDS / "new_author_screen.yaml").read_text()
    text = text.replace("  bond_spread:\n", f"  kind:\n    type: category\n    values: {values}\n  bond_spread:\n")
    path = tmp_path / "card.yaml"
    path.write_text(text)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.strip().startswith("values: ") and "us_" in t)
    return path, line


def test_check_reports_two_values_that_read_alike_at_the_values(tmp_path):
    card, line = _card(tmp_path, '[us_gov, "US gov", other]')
    result = runner.invoke(app, ["check", str(card)])
    assert result.exit_code == 1, result.output
    assert f"card.yaml:{line}:" in result.output, result.output
    assert "values 'us_gov' and 'US gov' of input 'kind' both read 'US gov'" in result.output


def test_check_passes_values_that_read_differently(tmp_path):
    card, _ = _card(tmp_path, '[us_gov, "US bonds", other]')
    result = runner.invoke(app, ["check", str(card)])
    assert result.exit_code == 0, result.output


def test_perturb_refuses_them_with_the_location_before_any_work(tmp_path):
    card, line = _card(tmp_path, '[us_gov, "US gov", other]')
    out = tmp_path / "x.jsonl"
    result = runner.invoke(app, ["perturb", "-c", str(card), "-b", str(FIXTURES / "new_author_base.yaml"),
                                 "--n", "3", "--out", str(out)])
    assert result.exit_code == 1 and f"card.yaml:{line}:" in result.output, result.output
    assert not out.exists()
