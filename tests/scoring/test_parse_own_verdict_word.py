"""A card outcome spelled as a gate-verdict word (outcome ``PASS``): the final verdict is the card's word (stop 32).

Regression (misread final verdict): a new user's card with outcomes INVEST / PASS (Pabrai's "pass" is a
decline) had "Final verdict: PASS" read as INVEST (the gate word PASS is PROCEED, mapped to the pass
outcome) and a JSON ``"final_verdict": "PASS"`` read as no verdict at all, so a right answer scored 0 on
VerdictAcc and ranked below a wrong one. Every answer here is written for this test; the expected
readings are what a careful human reader takes from the text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ipb.engine.card import load_card
from ipb.scoring.parse import parse_response

CARDS = Path(__file__).parent / "cards"


@pytest.fixture(scope="module")
def card():
    return load_card(CARDS / "pass_outcome_checklist.yaml")


def _parsed(text: str, card):
    return parse_response(text, card, embedder=False)


@pytest.mark.parametrize("text, final", [
    ("Gate 1 Existing Business: REJECT, only 2 years of history.\nGate 2 Margin of Safety: N/A.\n\nFinal verdict: PASS\n",
     "PASS"),
    ("The business has run for just 2 years, so Existing Business is a REJECT and the analysis stops; Margin of "
     "Safety is never reached (N/A).\n\nFinal verdict: PASS. A two-year-old business is a venture, not an existing "
     "business.\n", "PASS"),
    ('```json\n{"gates": [{"gate": 1, "name": "Existing Business", "verdict": "PROCEED"}, {"gate": 2, "name": '
     '"Margin of Safety", "verdict": "REJECT"}], "final_verdict": "PASS"}\n```\n', "PASS"),
    ("Gate 1 Existing Business: PROCEED, 25 years.\nGate 2 Margin of Safety: PROCEED, $400M against $1B.\n\n"
     "Final verdict: INVEST\n", "INVEST"),
], ids=["label-after-reject", "label-in-prose", "json-field", "invest-unchanged"])
def test_the_cards_own_pass_outcome_is_read_as_the_decline(card, text, final):
    assert _parsed(text, card).final_verdict == final


def test_a_gate_row_saying_pass_stays_that_gates_proceed(card):
    parsed = _parsed("1. Existing Business: PASS (25 years)\n2. Margin of Safety: PASS ($400M vs $1B)\n\n"
                     "Final verdict: INVEST\n", card)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (2, "PROCEED")]
    assert parsed.final_verdict == "INVEST"


def test_the_outcomes_listed_as_a_choice_state_none(card):
    parsed = _parsed("Gate 1 Existing Business: PROCEED.\n\nFinal verdict: INVEST or PASS, depending on the price.\n", card)
    assert parsed.final_verdict is None
