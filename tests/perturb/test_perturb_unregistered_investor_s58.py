"""Regression (condition B recorded for an investor it cannot be produced for): s57 new user C4, branch s58fill.

Items of a card whose investor is not in frameworks/investors.yaml carry ``conditions.B``, and ``ipb perturb`` said
nothing; ``ipb respond --conditions B`` then refused every item ("investor ... is not in the registry"). The run's
summary now notes it when the items are made: one note per such card, naming the investor and the way out
(``ipb respond --investors FILE``). A registered investor's run has no such note. Fails before the change: no note.
"""

from __future__ import annotations

from typer.testing import CliRunner

from ipb.cli import app
from ipb.perturb import Job, generate
from perturb_support import BUFFETT, BUFFETT_BASE, CARDS, FIXTURES

NEFF = CARDS / "neff_new_user.yaml"  # investor: John Neff, not in the bundled registry
NEFF_BASE = FIXTURES / "neff_new_user_base.yaml"


def _unregistered(notes: list[str]) -> list[str]:
    return [n for n in notes if "is not in the investor registry" in n]


def test_an_unregistered_investors_run_says_condition_b_cannot_be_produced():
    result = generate(Job((str(NEFF),), str(NEFF_BASE), 1, ()), 8)
    assert len(result.lines) == 8
    assert all('"B":{"investors":["John Neff"]' in line for line in result.lines)  # recorded on every item
    [note] = _unregistered(result.notes)
    assert note.startswith("investor 'John Neff' (card neff_total_return_screen) is not in the investor registry")
    assert "`ipb respond --conditions B` refuses these items" in note and "--investors FILE" in note
    assert f"note: {note}" in result.summary()


def test_a_registered_investors_run_has_no_such_note():
    result = generate(Job((BUFFETT,), str(BUFFETT_BASE), 1, ()), 8)
    assert _unregistered(result.notes) == []


def test_the_cli_prints_the_note_and_succeeds(tmp_path):
    out = tmp_path / "items.jsonl"
    made = CliRunner().invoke(app, ["perturb", "--card", str(NEFF), "--base", str(NEFF_BASE), "--n", "8", "--seed", "1",
                                    "--out", str(out)])
    assert made.exit_code == 0, made.output
    assert len(out.read_text().splitlines()) == 8
    assert "note: investor 'John Neff' (card neff_total_return_screen) is not in the investor registry" in \
        " ".join(made.output.split())
