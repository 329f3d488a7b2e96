"""An outcome word put as a question and answered no is turned down, not named (s54break item 6).

"Final verdict: INVEST? Absolutely not. DECLINE." read no final verdict: with no gate read, an answer naming more than
one of the card's outcomes has its final verdict cleared (a list of outcomes is no choice), and INVEST was counted as
named. The writer asked it and said no; the correction after it, DECLINE, is the verdict. Texts written for this file.
"""

from __future__ import annotations

import pytest

from ipb.engine.registry import compiled_card
from ipb.scoring.parse import parse_response

CARD = compiled_card("graham_net_net_screen").card  # outcomes INVEST and DECLINE


@pytest.mark.parametrize("text, final", [
    ("Final verdict: INVEST? Absolutely not. DECLINE.", "DECLINE"),  # the breaker's answer
    ("Verdict: DECLINE? No. INVEST.", "INVEST"),
    ("Final verdict: **INVEST**? Nope. DECLINE.", "DECLINE"),
])
def test_a_questioned_outcome_answered_no_leaves_the_correction(text: str, final: str) -> None:
    parsed = parse_response(text, CARD, embedder=False)
    assert parsed.final_verdict == final
    assert not any("more than one of the card's outcomes named" in n for n in parsed.notes)


@pytest.mark.parametrize("text", [
    "Final verdict: INVEST? DECLINE?",  # two questions, no answer: nothing chosen
    "Final verdict: INVEST? Not sure. DECLINE.",  # "not sure" is no "no"
    "INVEST, DECLINE",  # a list of the outcomes
])
def test_without_a_no_both_outcomes_are_still_named(text: str) -> None:
    parsed = parse_response(text, CARD, embedder=False)
    assert parsed.final_verdict is None


def test_with_gates_the_reading_is_unchanged() -> None:
    text = "Gate 1: PROCEED\nFinal verdict: INVEST? Absolutely not. DECLINE."
    assert parse_response(text, CARD, embedder=False).final_verdict == "DECLINE"
