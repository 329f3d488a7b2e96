"""Wrong readings at or above the 0.7 review bar found by stop 43's breaker (break43; issue 13; paper §7.5).

- **A verdict on another party's test set against the card's** (``._others_test.others_test``, break43 #1): on
  Graham's card "Moderate Price/Earnings Ratio: it fails Lynch's PEG test but passes Graham's." read gate 6 REJECT at
  0.76 (the writer's PROCEED on Graham's test lost to the fail on Lynch's); on Munger's card "ROIC was 12%: it clears
  the bank's 8% hurdle but not my own 15% hurdle." read gate 2 PROCEED at 0.85 though 12% is under the writer's (and
  the card's) 15%. A pass/fail word whose object is another party's standard ("Lynch's PEG test", "the bank's 8%
  hurdle"), set against the card's, its investor's or the writer's own standard in the same sentence, is that party's
  verdict: read weak (0.45), so the writer's own verdict wins. A party's standard alone keeps its reading: the writer
  may follow that method ("passes Town's 15% bar" in notes on Munger via Phil Town, a corpus case) or run that fund.
- **A past verdict set in a time now gone by a relative date** (``grammar/languages.yaml`` attribution ``past``,
  break43 #12): on Munger's card "Fair Price: it passed last year. At today's 45x it does not." read gate 5 PROCEED at
  0.95, and "it passed a year ago; we were wrong." too; "back in 2019" was already another time, "last year", "a year
  ago", "last quarter", "months ago", "previously" were not. A past verb with one of them right after it is weak.
- **An ironic tag after the word** (``._verdict_clauses.IRONIC_TAIL``, break43 #4): on Munger's card "Fair Price: a
  pass, as if." read gate 5 PROCEED at 0.95 and "... Pass \u2014 yeah, right." gate 4 PROCEED at 0.85. A tag that mocks
  the word right after it (as if, yeah right, /s, "(not)") leaves it weak: the writer's meaning is not in it.

Answers written for these tests (no corpus text); each expected verdict worked by hand against the card named beside it.
"""

from __future__ import annotations

import pytest

from parse_support import gate_reading as _gate

GRAHAM = "graham_seven_tests_defensive"  # gate 6 Moderate Price/Earnings Ratio (the card's bar: 15x)
MUNGER = "munger_business_quality_price"  # gate 2 High Return on Capital (the card's bar: 15%)

#: The review bar: a reading at or above it is taken without review.
REVIEW_BAR = 0.7


def test_regression_another_partys_test_beside_the_card_investors_does_not_outweigh_the_writers_pass() -> None:
    # REJECT 0.76 before: "fails Lynch's PEG test" outweighed "passes Graham's"
    reading = _gate("Moderate Price/Earnings Ratio: it fails Lynch's PEG test but passes Graham's.\n", GRAHAM, 6)
    assert reading is not None and reading[0] == "PROCEED", reading


def test_regression_another_partys_test_beside_the_card_investors_leaves_the_writers_fail_on_top() -> None:
    # the mirror: the writer fails the card investor's test, passes a bank's; only the fail is the writer's
    reading = _gate("High Return on Capital\nROIC was 11%. It fails Munger's test but passes the bank's 8% hurdle.\n",
                    MUNGER, 2)
    assert reading is not None and reading[0] == "REJECT" and reading[1] >= REVIEW_BAR, reading


@pytest.mark.parametrize("text", [
    # 12% is under the writer's and the card's 15% (weak already through the writer's stated hurdle, break42 #21)
    "High Return on Capital\nROIC was 12%: it clears the bank's 8% hurdle but not my own 15% hurdle.\n",
    # 11% is under Munger's 15%: the pass is the bank's
    "High Return on Capital\nROIC was 11%: it clears the bank's 8% hurdle, not Munger's.\n",
])
def test_regression_a_pass_of_another_partys_hurdle_set_against_the_writers_is_not_taken(text: str) -> None:
    reading = _gate(text, MUNGER, 2)
    assert reading is None or reading[0] != "PROCEED" or reading[1] < REVIEW_BAR, reading


@pytest.mark.parametrize(("text", "card", "gate"), [
    # a party's standard alone: the writer may follow it (a corpus case's "passes Town's 15% bar") or run that fund
    ("High Return on Capital\nROIC near 19% passes Town's 15% bar comfortably.\n", MUNGER, 2),
    ("High Return on Capital\nROIC was 22%, which clears the fund's bar.\n", MUNGER, 2),
    # the card investor's own test, and a time's
    ("Moderate Price/Earnings Ratio: at 12x it passes Graham's test.\n", GRAHAM, 6),
    ("Moderate Price/Earnings Ratio: at 12x it passes this year's screen and my own 15x limit.\n", GRAHAM, 6),
])
def test_a_pass_of_the_writers_or_the_cards_standard_keeps_its_confidence(text: str, card: str, gate: int) -> None:
    reading = _gate(text, card, gate)
    assert reading is not None and reading[0] == "PROCEED" and reading[1] >= REVIEW_BAR, reading


@pytest.mark.parametrize(("text", "gate"), [
    ("Fair Price: a pass, as if.\n", 5),  # PROCEED 0.95 before
    ("Trustworthy Management with Aligned Incentives: great, another CEO who sells half his shares every year. "
     "Pass \u2014 yeah, right.\n", 4),  # PROCEED 0.85 before
    ("Fair Price: passes /s\n", 5),
])
def test_regression_an_ironic_tag_after_the_word_leaves_it_under_the_bar(text: str, gate: int) -> None:
    reading = _gate(text, MUNGER, gate)
    assert reading is None or reading[0] != "PROCEED" or reading[1] < REVIEW_BAR, reading


@pytest.mark.parametrize("text", [
    "Fair Price: passes, as if priced for a utility.\n",  # "as if" opening a clause of its own: no tag
    "Fair Price: passes, right at the edge.\n",
    "Fair Price: pass. Yeah, right at the 15x bar, but a pass.\n",
])
def test_words_of_an_ironic_tag_in_another_sense_keep_the_writers_pass(text: str) -> None:
    reading = _gate(text, MUNGER, 5)
    assert reading is not None and reading[0] == "PROCEED" and reading[1] >= REVIEW_BAR, reading


@pytest.mark.parametrize("text", [
    "Fair Price: it passed last year. At today's 45x it does not.\n",  # PROCEED 0.95 before
    "Fair Price: it passed a year ago; we were wrong.\n",  # PROCEED 0.95 before
    "Fair Price: it passed previously, at 12x earnings.\n",
])
def test_regression_a_pass_set_last_year_is_not_todays(text: str) -> None:
    reading = _gate(text, MUNGER, 5)
    assert reading is None or reading[0] != "PROCEED" or reading[1] < REVIEW_BAR, reading


def test_a_present_pass_on_last_years_figures_keeps_its_confidence() -> None:
    # the verb is present: last year's figures are the case's own (the latest fiscal year)
    reading = _gate("Fair Price: at 12x last year's earnings it passes.\n", MUNGER, 5)
    assert reading is not None and reading[0] == "PROCEED" and reading[1] >= REVIEW_BAR, reading
