"""``ipb check investors.yaml CARD`` reads the investors file given in the same call (s62 new user N14, s63join).

Bug kind: a file checked but not used. The card whose investor the investors file on the same command line defines
was still warned ``unknown-investor`` (the file was checked alone, never registered for the call).
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app
from perturb_support import NEFF_REGISTRY

runner = CliRunner()
NEFF_CARD = Path(__file__).resolve().parent / "cards" / "neff_new_user.yaml"  # investor: John Neff


def _check(*paths: Path) -> str:
    result = runner.invoke(app, ["check", *map(str, paths)])
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


def test_an_investors_file_in_the_same_call_registers_the_cards_investor(tmp_path):
    registry = tmp_path / "investors.yaml"
    registry.write_text(NEFF_REGISTRY, encoding="utf-8")
    alone = _check(NEFF_CARD)  # without the file: the warning, as before
    assert "warning: investor 'John Neff' is not in the investor registry" in alone
    text = _check(registry, NEFF_CARD)  # before: the same warning
    assert "unknown-investor" not in text and "(1 of them investors file(s), checked as such)" in text
    other = tmp_path / "my_registry.yaml"  # under another name, known by its content
    other.write_text(NEFF_REGISTRY, encoding="utf-8")
    assert "unknown-investor" not in _check(NEFF_CARD, other)
    # the call after has the registry as it was: the file served that call only
    assert "unknown-investor" in _check(NEFF_CARD)
