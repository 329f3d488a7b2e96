"""A card's ``question:`` field, s60 new user findings fixed by s61nfix (issue 18).

N9 (bug kind: a slot filled with a fragment): ``{framework}`` took the card's name less its investor's everywhere,
so "A fund is applying the {framework}." on the card "John Neff Screen" (investor John Neff) read "... applying the
Screen." ``{framework}`` is now the card's name as written, shortened only right after ``{investor}'s``.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from ipb.perturb import build_frame
from ipb.perturb._question_setting import question_opening
from ipb.perturb.frame import base_from_facts
from ipb.perturb.render import render_question
from tests.perturb.test_newuser_s59b import CARD

FACTS = {"pe_ratio": Decimal(10), "debt_to_equity": Decimal("0.4")}


def _neff(tmp_path: Path, setting: str, ask: str) -> Path:
    text = (CARD.replace("investor: Test Screener", "investor: John Neff")
            .replace("name: Join screen", "name: John Neff Screen")
            .replace("inputs:\n", f'question:\n  setting: "{setting}"\n  ask: "{ask}"\ninputs:\n'))
    path = tmp_path / "neff.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_framework_slot_is_the_cards_name_as_written(tmp_path):
    # Before: "A low-P/E fund is applying the Screen." and "What does the Screen say?"
    frame = build_frame([str(_neff(tmp_path, "A low-P/E fund is applying the {framework}.",
                                   "What does the {framework} say?"))])
    question = render_question(frame, base_from_facts(frame, FACTS))
    assert question.startswith("A low-P/E fund is applying the John Neff Screen.\n")
    assert "What does the John Neff Screen say? Apply John Neff's Screen to this decision." in question
    assert question_opening(frame) == "A low-P/E fund is applying the John Neff Screen."  # the round trip's reader


def test_framework_slot_after_the_investors_possessive_does_not_name_him_twice(tmp_path):
    frame = build_frame([str(_neff(tmp_path, "{investor}'s fund is applying {investor}’s {framework}.",
                                   "Does it pass {investor}'s {framework}?"))])
    question = render_question(frame, base_from_facts(frame, FACTS))
    assert question.startswith("John Neff's fund is applying John Neff’s Screen.\n")
    assert "Does it pass John Neff's Screen? Apply" in question
