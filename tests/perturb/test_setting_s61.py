"""A card's ``question:`` field, s60 new user findings fixed by s61nfix (issue 18).

N9 (bug kind: a slot filled with a fragment): ``{framework}`` took the card's name less its investor's everywhere,
so "A fund is applying the {framework}." on the card "John Neff Screen" (investor John Neff) read "... applying the
Screen." ``{framework}`` is now the card's name as written, shortened only right after ``{investor}'s``.

N10 (bug kind: an error that points elsewhere): an unknown key under ``question:`` was "unknown field 'tone' in the
card", as if at the top level, and a bad slot, brace or character in a setting put the caret at the string's start.
The message now names ``question.tone``, and the caret stands under the offending character as written.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
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


#: (setting, ask, the question's first line, what the ask reads): N9. Before, the first read "A low-P/E fund is
#: applying the Screen." and "What does the Screen say?"; after ``{investor}'s`` (straight or curly apostrophe) the
#: name is shortened, so that the investor is not named twice.
SLOTS = [
    ("A low-P/E fund is applying the {framework}.", "What does the {framework} say?",
     "A low-P/E fund is applying the John Neff Screen.",
     "What does the John Neff Screen say? Apply John Neff's Screen to this decision."),
    ("{investor}'s fund is applying {investor}’s {framework}.", "Does it pass {investor}'s {framework}?",
     "John Neff's fund is applying John Neff’s Screen.", "Does it pass John Neff's Screen? Apply"),
]


@pytest.mark.parametrize("setting,ask,opening,asked", SLOTS, ids=["as-written", "after-possessive"])
def test_framework_slot_is_the_name_as_written_and_shortened_after_the_possessive(tmp_path, setting, ask, opening,
                                                                                  asked):
    frame = build_frame([str(_neff(tmp_path, setting, ask))])
    question = render_question(frame, base_from_facts(frame, FACTS))
    assert question.startswith(opening + "\n")
    assert asked in question
    assert question_opening(frame) == opening  # the round trip's reader


#: (question block put before the card's inputs: (line 12), what ipb check says at file:LINE:COL; worked by counting
#: the columns of the block as written: a double-quoted text after "  setting: " starts at column 13)
LOCATED = [
    ('question:\n  setting: "A fund decides."\n  tone: "calm"\n',
     "14:3: load error: unknown field 'tone' at question.tone of the card; expected one of: setting, ask"),
    ('question: {tone: "calm", setting: "A fund decides."}\n',
     "12:12: load error: unknown field 'tone' at question.tone of the card; expected one of: setting, ask"),
    ('question:\n  setting: "The fund {fund} is deciding."\n  ask: "Buy?"\n',
     "13:22: load error: unknown slot {fund} in question.setting"),
    ('question:\n  setting: "A fund is deciding {investor."\n  ask: "Buy?"\n',
     "13:32: load error: a brace in question.setting opens or closes no slot"),
    ('question:\n  setting: "A fund is deciding."\n  ask: "Buy it}?"\n',
     "14:15: load error: a brace in question.ask opens or closes no slot"),
    ('question:\n  setting: "A fund\\u202e decides."\n  ask: "Buy?"\n',
     "13:19: load error: question.setting holds U+202E (RIGHT-TO-LEFT OVERRIDE) at character 7"),
    ('question:\n  setting: >-\n    A fund with\n    $2B is deciding whether to buy.\n  ask: "Buy?"\n',
     "15:6: warning: question.setting states a figure ('2')"),
    ('question:\n  setting: "A fund is weighing purchase_price."\n  ask: "Buy?"\n',
     "13:32: warning: question.setting holds 'purchase_price'"),
]


@pytest.mark.parametrize("block,says", LOCATED, ids=[f"n10-{i}" for i in range(len(LOCATED))])
def test_check_points_at_the_offending_key_or_character_of_a_question_field(tmp_path, block, says):
    # Before: "unknown field 'tone' in the card"; the slot, brace, character, figure and name at column 12 or 13
    # (the string's opening quote or first character; the folded figure at line 13)
    path = tmp_path / "card.yaml"
    path.write_text(CARD.replace("inputs:\n", block + "inputs:\n"), encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(path)])
    assert f"{path}:{says}" in result.output, result.output
