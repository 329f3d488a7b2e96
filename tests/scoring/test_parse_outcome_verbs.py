"""A card outcome of a verb and its object read with the verb's plain synonyms (issue 13, final verdicts in the wild).

"Drop the hypothesis" is ABANDON_HYPOTHESIS, "keep the balanced mix" HOLD_BALANCED_MIX, "scale up" SIZE_UP: the regression
kind pinned here is a final verdict stated in the card's words with another verb, read as no final verdict at all.
Texts written for these tests; readings labelled by hand.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

REFLEX = "soros_reflexive_hypothesis_trade_construction"
SIZING = "soros_conviction_weighted_position_sizing"
MACHINE = "dalio_economic_machine_positioning"


@pytest.mark.parametrize("card, text, final", [
    (REFLEX, "Gate 1: PROCEED.\nGate 4: REJECT, the market did not confirm.\n\nDrop the hypothesis.", "ABANDON_HYPOTHESIS"),
    (REFLEX, "Gate 1: PROCEED.\nGate 4: REJECT.\n\nConclusion: scrap the hypothesis and unwind the calls.", "ABANDON_HYPOTHESIS"),
    (REFLEX, "Gate 1: PROCEED.\nGate 2: PROCEED.\nGate 3: PROCEED.\n\nDecision: open a position of 1% of NAV.", "TAKE_POSITION"),
    (SIZING, "Gate 1: PROCEED.\nGate 2: PROCEED.\n\nScale up to 8% of capital.", "SIZE_UP"),
    (MACHINE, "Gate 1: PROCEED.\nGate 5: REJECT, the tilt is too large.\n\nKeep the balanced mix.", "HOLD_BALANCED_MIX"),
])
def test_an_outcome_with_another_verb_is_the_outcome(card: str, text: str, final: str) -> None:
    assert parse_response(text, card, embedder=False).final_verdict == final


def test_a_bare_synonym_verb_is_no_outcome() -> None:
    # "keep" alone is no outcome: only the verb with the outcome's object reads as one
    parsed = parse_response("Gate 1: PROCEED.\nGate 5: REJECT.\n\nKeep an eye on credit.", MACHINE, embedder=False)
    assert parsed.final_verdict is None
