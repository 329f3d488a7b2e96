"""Wrong readings at or above the 0.7 review bar that break43 left (issue 13, "which statement wins"; paper §7.5).

- **An elided verb taken back for the case** (``._elided``, break43 #6 and #12): on Munger's card "Fair Price: Costco
  passes easily; this company does not." read gate 5 PROCEED at 0.95 (the writer's "does not" was no verdict word),
  and "we passed it last year. At today's 45x it does not." PROCEED 0.95. A clause that is only the case's subject and
  a negated auxiliary ("this one does not", "at today's 45x it does not") repeats the verb before it, negated: REJECT
  after a pass; the pass it takes back (another company's, another time's) is read weak.
- **A verdict withdrawn in the next clause** (``._elided.withdrawn``): "we passed it last year; that call was wrong and
  we reversed it." read PROCEED 0.95. A statement the writer says was wrong is read weak.
- **A past verb, its object, then a time gone** (``._attributed``): "we passed it last year" (0.95) is history as "it
  passed last year" already was.
- **An ironic tag as a sentence of its own** (``._verdict_clauses.IRONIC_TAIL``): "Fair Price: pass. Yeah, right."
  read PROCEED 0.95; the tag right after the word was already read.
- **The writer's own "I have not checked"** (break43 #7, #8): "Morningstar says it passes. I have not checked." read
  N/A at 0.77 (the card's not-reached phrase); the writer saying they did not check is a caveat, read weak.

Answers written for these tests (no corpus text); each expected verdict worked by hand against Munger's card (gate 5 Fair
Price: a pass is a price at or under a fair multiple; the answers state the pass or fail in words).
"""

from __future__ import annotations

import pytest

from parse_support import GRAHAM_BODY, final_of, gate_reading as _gate

MUNGER = "munger_business_quality_price"  # gate 5 Fair Price
REVIEW_BAR = 0.7


@pytest.mark.parametrize("text", [
    "Fair Price: Costco passes easily; this company does not.\n",  # PROCEED 0.95 before
    "Fair Price: Costco's passes easily; this one does not.\n",  # PROCEED 0.45 before (the writer's REJECT lost)
    "Fair Price: we passed it last year. At today's 45x it does not.\n",  # PROCEED 0.95 before
    "Fair Price: it passed in the spring, but at 45x earnings it no longer does.\n",
])
def test_regression_an_elided_negated_verb_for_the_case_is_the_writers_reject(text: str) -> None:
    reading = _gate(text, MUNGER, 5)
    assert reading is not None and reading[0] == "REJECT" and reading[1] >= REVIEW_BAR, reading


@pytest.mark.parametrize("text", [
    # another company's negated clause: the case's pass stands
    "Fair Price: at 14x it passes; Costco does not.\n",
    # the verb itself negated, then "either": no elided verdict of another sense
    "Fair Price: it does not pass at 45x earnings.\n",
])
def test_a_negated_clause_of_another_subject_or_a_negated_verb_keeps_the_reading(text: str) -> None:
    reading = _gate(text, MUNGER, 5)
    expected = "PROCEED" if "14x" in text else "REJECT"
    assert reading is not None and reading[0] == expected and reading[1] >= REVIEW_BAR, reading


@pytest.mark.parametrize("text", [
    "Fair Price: we passed it last year; that call was wrong and we reversed it.\n",  # PROCEED 0.95 before
    "Fair Price: it passes. We were wrong.\n",
    "Fair Price: we passed it last year.\n",  # a past verb, its object, a time gone: 0.95 before
    "Fair Price: pass. Yeah, right.\n",  # 0.95 before
    "Fair Price: passes at 40x. As if.\n",
])
def test_regression_a_pass_withdrawn_dated_or_mocked_is_under_the_bar(text: str) -> None:
    reading = _gate(text, MUNGER, 5)
    assert reading is None or reading[0] != "PROCEED" or reading[1] < REVIEW_BAR, reading


@pytest.mark.parametrize("text", [
    "Fair Price: it passes. We were wrong about the growth rate, not the price.\n",  # "wrong about ...": not the verdict
    "Fair Price: passes at 14x. Yes, right at our limit.\n",
])
def test_a_pass_followed_by_other_remarks_keeps_its_confidence(text: str) -> None:
    reading = _gate(text, MUNGER, 5)
    assert reading is not None and reading[0] == "PROCEED" and reading[1] >= REVIEW_BAR, reading


def test_regression_the_writers_not_checked_after_anothers_pass_is_under_the_bar() -> None:
    reading = _gate("Fair Price: Morningstar says it passes. I have not checked.\n", MUNGER, 5)  # N/A 0.77 before
    assert reading is None or reading[1] < REVIEW_BAR, reading


def test_the_writers_not_checked_caveat_no_longer_outweighs_their_pass() -> None:
    # PROCEED 0.53 before: the caveat about the margins was read as the gate not reached
    reading = _gate("Fair Price: passes. I have not checked the margins.\n", MUNGER, 5)
    assert reading is not None and reading[0] == "PROCEED" and reading[1] > 0.53, reading


def test_a_gate_not_checked_without_a_first_person_subject_stays_not_reached() -> None:
    reading = _gate("Fair Price: not checked; the review stopped at the moat.\n", MUNGER, 5)
    assert reading is not None and reading[0] == "N/A" and reading[1] >= REVIEW_BAR, reading


GRAHAM = "graham_seven_tests_defensive"  # gate 6 Moderate Price/Earnings Ratio: eps_3yr_avg > $0 and pe_3yr <= 15x


def test_regression_a_pass_of_another_partys_screen_beside_a_figure_the_cards_bar_fails_is_weak() -> None:
    # PROCEED 0.95 before (break43 #2): 19x is over Graham's 15x; the pass is the bank's screen's (max 25x)
    reading = _gate("Moderate Price/Earnings Ratio: at 19x it passes the bank's screen (max 25x).\n", GRAHAM, 6)
    assert reading is None or reading[0] != "PROCEED" or reading[1] < REVIEW_BAR, reading


@pytest.mark.parametrize(("text", "card", "gate"), [
    # the figure passes the card's bar too: the party's screen agrees with the card (12x <= 15x; 19% >= Munger's 15%)
    ("Moderate Price/Earnings Ratio: at 12x it passes the bank's screen.\n", GRAHAM, 6),
    ("High Return on Capital\nROIC near 19% passes Town's 15% bar comfortably.\n", MUNGER, 2),
    # the writer's own pass at 19x is theirs to give (wrong or not, it is a committed reading of the writer)
    ("Moderate Price/Earnings Ratio: at 19x it passes.\n", GRAHAM, 6),
])
def test_a_pass_whose_figure_the_cards_bar_agrees_with_or_the_writers_own_keeps_its_confidence(text: str, card: str, gate: int) -> None:
    reading = _gate(text, card, gate)
    assert reading is not None and reading[0] == "PROCEED" and reading[1] >= REVIEW_BAR, reading


@pytest.mark.parametrize("closing", [
    "The newsletter's verdict: invest. Ours: decline.\n",  # INVEST 0.59 before (break43 #9: the writer's own final lost)
    "The newsletter's verdict: INVEST. Our verdict: DECLINE.\n",  # INVEST 0.48 before
])
def test_regression_the_writers_own_label_after_a_partys_label_is_the_final(closing: str) -> None:
    assert final_of(GRAHAM_BODY, closing, GRAHAM) == "DECLINE"


def test_a_possessors_label_alone_stays_the_writers_lens() -> None:
    # "Munger's verdict:" alone is the lens the writer speaks in (corpus convention, _label_owner)
    assert final_of(GRAHAM_BODY, "Graham's verdict: invest.\n", GRAHAM) == "INVEST"


def test_an_elided_clause_on_the_next_line_leaves_the_line_befores_pass_alone() -> None:
    # each gate on its line: gate 1's pass is its own, gate 2's "it does not" repeats the verb for gate 2 only
    text = ("Adequate Size of the Enterprise: passes, sales of $9bn.\n"
            "Sufficiently Strong Financial Condition: it does not.\n")
    first, second = _gate(text, GRAHAM, 1), _gate(text, GRAHAM, 2)
    assert first is not None and first[0] == "PROCEED" and first[1] >= REVIEW_BAR, first
    assert second is not None and second[0] == "REJECT", second
