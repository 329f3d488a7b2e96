"""A new user's pass with a framework of their own (branch s40user): Philip Fisher's fifteen points cut to five
gates, taken through check -> run -> perturb -> verify -> score from the README and docs alone. Each test pins
one finding; the notes are in /work/notes/user40.md. (The two card lints it asked for, ``decisive-unstated`` and
``element-number-in-words``, are in ``tests/engine/test_author_lint.py``; the bare category value in
``tests/engine/test_card_errors.py``.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app

runner = CliRunner()
HERE = Path(__file__).resolve().parent / "fixtures" / "new_user18"
CARD = HERE / "pabrai_dhandho_checklist.yaml"
BASE = HERE / "pabrai_base.yaml"


# --- ipb check CARD SCENARIO with a card whose YAML does not parse (bug kind: an error that tells the user to do
# --- what they did; the compile-error case is tests/test_new_user18_findings.py)


@pytest.mark.parametrize("id_line", ["id: pabrai_dhandho_checklist", "id: 'pabrai_dhandho_checklist'  # the card"])
def test_check_names_the_card_whose_yaml_is_broken_beside_the_scenario(tmp_path, id_line):
    card = tmp_path / "card.yaml"
    text = CARD.read_text(encoding="utf-8").replace("id: pabrai_dhandho_checklist", id_line, 1)
    # s40user's slip: a quoted value in an unquoted flow list, `[market cap {market_cap}, ...]`
    text = text.replace('required_elements: ["market cap {market_cap}"', "required_elements: [market cap {market_cap}", 1)
    card.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["check", str(card), str(BASE)])
    assert result.exit_code == 1
    out = " ".join(result.output.split())
    assert "invalid YAML" in out
    assert f"card 'pabrai_dhandho_checklist' is {card}, checked here, which has errors" in out
    # before: "... is neither a card file nor a known card id ...; or check the card and the scenario together:
    # ipb check CARD.yaml BASE", the command the user had just run
    assert "neither a card file nor a known card id" not in out


def test_a_scenario_naming_another_card_is_still_told_the_id_is_unknown(tmp_path):
    card = tmp_path / "card.yaml"
    text = CARD.read_text(encoding="utf-8").replace("id: pabrai_dhandho_checklist", "id: some_other_card", 1)
    card.write_text(text.replace('["market cap {market_cap}"', "[market cap {market_cap}", 1), encoding="utf-8")
    out = " ".join(runner.invoke(app, ["check", str(card), str(BASE)]).output.split())
    assert "'pabrai_dhandho_checklist' is neither a card file nor a known card id" in out
