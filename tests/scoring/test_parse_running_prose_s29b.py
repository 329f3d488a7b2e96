"""Outcomes in other words and outcome labels valued in investor jargon (issue 13, the n26 shape; paper §7.5).

Real reports close a design review with "back to the drawing board" rather than REDESIGN, and mark a plan
"approved for implementation" rather than IMPLEMENT. These phrases live in the card-extendable table
:data:`ipb.scoring.verdict_words.OUTCOME_SYNONYMS` and apply only to a card that has the outcome word. Every
text was written for these tests (no corpus sentence); every expected reading was worked by hand against the
bundled card named beside it.
"""

from __future__ import annotations

import pytest

from ipb.scoring import verdict_words as vw
from tests.scoring.parse_support import GRAHAM_BODY, final_of, read_gates

GRAHAM = "graham_seven_tests_defensive"  # pass INVEST, fail DECLINE
AWC = "dalio_all_weather_portfolio_construction"  # pass IMPLEMENT, fail REDESIGN
GDP = "graham_defensive_portfolio_selection"  # pass APPROVE, fail REVISE

AWC_BODY = (
    "Four-Environment Asset Mapping: every box holds at least one asset.\n"
    "Risk Parity Balance: shares run from 22% to 28% of the risk.\n\n"
)
GDP_BODY = "The stock side holds 20 large, conservatively financed companies with long dividend records.\n\n"


# ---------------------------------------------------------------- outcomes in other words (per card)

OTHER_WORDS = [
    ("drawing-board-closing", AWC_BODY, "Frankly, the whole mix goes back to the drawing board.", AWC, "REDESIGN"),
    ("drawing-board-alone", AWC_BODY, "Back to the drawing board.", AWC, "REDESIGN"),
    ("drawing-board-revise", GDP_BODY, "My draft of the split goes back to the drawing board.", GDP, "REVISE"),
    ("approved-for-implementation", AWC_BODY, "Status: approved for implementation.", AWC, "IMPLEMENT"),
    ("cleared-for-implementation", AWC_BODY, "The committee cleared it: cleared for implementation next quarter.", AWC, "IMPLEMENT"),
    ("green-light", GDP_BODY, "Decision: given the green light.", GDP, "APPROVE"),
]


@pytest.mark.parametrize(("body", "closing", "card", "expected"), [c[1:] for c in OTHER_WORDS], ids=[c[0] for c in OTHER_WORDS])
def test_an_outcome_in_other_words_is_the_cards_outcome(body: str, closing: str, card: str, expected: str) -> None:
    assert final_of(body, closing, card) == expected


def test_a_phrase_for_an_outcome_the_card_lacks_reads_nothing() -> None:
    # GRAHAM's outcomes are INVEST / DECLINE: "back to the drawing board" is no outcome of it
    assert final_of(GRAHAM_BODY, "The analyst's model goes back to the drawing board.", GRAHAM) is None


def test_a_drawing_board_in_the_middle_of_an_argument_is_no_verdict() -> None:
    # lower case, not after a cue or the one who decides, not in the closing sentence: no outcome
    text = "Rival funds went back to the drawing board in 2019 after the same mistake. The four boxes are covered."
    assert final_of(AWC_BODY, text, AWC) != "REDESIGN"


def test_the_table_names_each_phrase_once_per_outcome() -> None:
    for outcome, phrases in vw.OUTCOME_SYNONYMS.items():
        assert len(set(phrases)) == len(phrases), outcome


# ---------------------------------------------------------------- "Verdict: Pass." on a buy decision: a decline

LABELLED_PASSES = [
    ("verdict-pass", "Verdict: Pass. The market already prices the recovery.", "DECLINE"),
    ("decision-pass-lower", "The moat is real but narrow.\n\nDecision: pass", "DECLINE"),
    ("call-pass-for-now", "Too early to tell.\n\n**Call:** Pass for now.", "DECLINE"),
    ("my-verdict-pass-mid-line", "Cash flow is lumpy. My verdict: pass.", "DECLINE"),
]


@pytest.mark.parametrize(("closing", "expected"), [c[1:] for c in LABELLED_PASSES], ids=[c[0] for c in LABELLED_PASSES])
def test_a_final_label_valued_pass_is_the_decline_on_a_buy_decision(closing: str, expected: str) -> None:
    assert final_of(GRAHAM_BODY, closing, GRAHAM) == expected


def test_a_checklist_pass_in_capitals_is_no_decline() -> None:
    # "Final verdict: PASS" in capitals is a checklist's result (all tests passed), not the investor declining
    assert final_of(GRAHAM_BODY, "Final verdict: PASS", GRAHAM) != "DECLINE"


def test_pass_beside_a_gate_is_no_decline() -> None:
    # the label names a gate, not the decision: "Pass" there is the gate's PROCEED
    assert final_of(GRAHAM_BODY, "Earnings Stability: Pass.", GRAHAM) != "DECLINE"


def test_a_labelled_pass_on_a_card_that_is_no_buy_decision_reads_nothing() -> None:
    # AWC decides IMPLEMENT / REDESIGN: "pass" is no decline of a purchase there
    assert final_of(AWC_BODY, "Verdict: Pass.", AWC) not in ("REDESIGN",)


# ---------------------------------------------------------------- a column asking for a disqualifier: its polarity decides

DISQUALIFIER_HEADERS = ["Disqualifying signal found?", "Red flags present?", "Deal-breaker found?", "Disqualifier?",
                        "Fatal flaw identified?"]


@pytest.mark.parametrize("header", DISQUALIFIER_HEADERS)
def test_a_column_asking_for_a_disqualifier_reads_no_as_proceed_and_yes_as_reject(header: str) -> None:
    # the question asks for the failure: "No" (none found) is the gate cleared, "Yes" the gate failed
    text = (f"| Test | Figure | {header} |\n|---|---|---|\n"
            "| Adequate Size of the Enterprise | revenue $9bn | No |\n"
            "| Earnings Stability | a loss in 2019 | Yes |\n")
    assert read_gates(text, GRAHAM) == [(1, "PROCEED"), (3, "REJECT")]


def test_a_column_asking_for_a_strength_keeps_yes_as_proceed() -> None:
    # "Signal found?" names no failure: the column is not read as a disqualifier question (no reading from it)
    text = ("| Test | Figure | Pass? |\n|---|---|---|\n"
            "| Adequate Size of the Enterprise | revenue $9bn | Yes |\n"
            "| Earnings Stability | a loss in 2019 | No |\n")
    assert read_gates(text, GRAHAM) == [(1, "PROCEED"), (3, "REJECT")]
