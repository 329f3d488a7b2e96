"""Breaks of stop 38's parser changes (issue 13), found by texts written for them (s38break; paper §7.5).

s38wild read the investor's or the reader's approval closing a clause ("Lynch would like that.") as a hedged PROCEED.
Said by nobody, or by the investor's adversaries, the same words are no approval: the texts below were written for these
tests, and every expected reading was worked by hand against the bundled Lynch card with the embedder off.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

LYNCH = "lynch_six_category_framework"  # 1 company category, 2 price vs growth, 3 balance sheet, 4 story check

_HEAD = ("Lynch category: stalwart, earnings up 9% a year. Pass.\n\n"
         "Price versus growth: PEG of 0.8. Pass.\n\n"
         "Balance sheet strength: debt to equity is 2.5 and rising. ")


def _gate3(closing: str) -> tuple[str | None, float]:
    result = parse_response(_HEAD + closing + "\n", LYNCH, embedder=False)
    assert result.status == "ok", result.reason
    (g,) = [g for g in result.gates if g.gate == 3]
    return g.verdict, g.confidence


@pytest.mark.parametrize("closing", [
    "Nobody would like that.",
    "No investor would like that.",
    "No sane value buyer would welcome this.",
    "Few holders would love that.",
])
def test_an_approval_that_nobody_gives_is_a_refusal_not_a_pass(closing: str) -> None:
    verdict, confidence = _gate3(closing)
    assert verdict == "REJECT"
    assert confidence < 0.9  # hedged, as the approval it negates


@pytest.mark.parametrize("closing", [
    "The short sellers would love that.",
    "Competitors would welcome this.",
    "The bears will like that.",
])
def test_the_adversaries_approval_is_bad_news_for_the_gate(closing: str) -> None:
    verdict, confidence = _gate3(closing)
    assert verdict == "REJECT"
    assert confidence < 0.9


def test_the_investors_own_approval_still_passes() -> None:
    # the control: s38wild's reading is kept
    assert _gate3("Lynch would like that.")[0] == "PROCEED"
    assert _gate3("Any investor would like that.")[0] == "PROCEED"
    assert _gate3("No doubt investors would like that.")[0] == "PROCEED"


# ---------------------------------------------------------------- "it's a strong one" said of a risk

@pytest.mark.parametrize("closing", [
    "The refinancing wall is the main risk here, and it's a strong one.",
    "The refinancing wall is a threat. It is a strong one.",
    "Rising rates are the headwind, and that's a big one.",
])
def test_a_strong_one_said_of_a_risk_is_no_pass(closing: str) -> None:
    # s38wild's empty-noun appraisal ("it's a strong one") stands for the noun before it: a strong risk is bad news
    verdict, confidence = _gate3(closing)
    assert verdict == "REJECT"
    assert confidence < 0.9


def test_a_strong_one_said_of_the_facts_still_passes() -> None:
    assert _gate3("Net cash covers the debt twice, and it's a strong position; both are strong numbers.")[0] == "PROCEED"


# ---------------------------------------------------------------- "missed its target" said of another target

@pytest.mark.parametrize("closing", [
    "Management missed its target date for the new plant, but debt to equity of 0.3 is comfortable.",
    "The company missed its target for store openings last year; debt to equity is 0.3.",
])
def test_a_missed_target_of_something_else_is_no_verdict_on_the_gate(closing: str) -> None:
    # s38wild widened "misses the bar" to "misses its target"; a target date or a target for store openings is no bar
    # of the gate (the second read REJECT at confidence 0.95)
    verdict, confidence = _gate3(closing)
    assert verdict != "REJECT" or confidence < 0.9
    assert verdict != "REJECT"


@pytest.mark.parametrize("closing", [
    "Debt to equity is 0.9 and misses our target of 0.5.",
    "Debt to equity of 0.9 misses the target I set.",
    "Debt to equity of 0.9 misses the target.",
])
def test_a_missed_target_of_the_gate_still_fails(closing: str) -> None:
    assert _gate3(closing)[0] == "REJECT"


# ---------------------------------------------------------------- a buy limit against a price given as a field (s38final)

_EN = ("Adequate Size of the Enterprise: PROCEED, revenue is about $9bn.\n"
       "Sufficiently Strong Financial Condition: PROCEED, current ratio 2.3.\n"
       "Earnings Stability: PROCEED, no loss year in the decade.\n\n")
GRAHAM = "graham_seven_tests_defensive"


@pytest.mark.parametrize(("head", "closing", "want"), [
    # a data block's "Price: $16" is today's price as much as "trades at $16": the limit of $17 is met
    ("Harlow Mills (HML)\nPrice: $16\n\n", "Conclusion: buy below $17.", "INVEST"),
    ("", "Conclusion: buy below $17. (Price: $16 at the time of writing.)", "INVEST"),
    ("Harlow Mills (HML)\n- Ticker: HML\n- **Price:** $16\n\n", "Conclusion: buy below $17.", "INVEST"),
    ("Harlow Mills (HML)\nPrice: $19\n\n", "Conclusion: buy below $17.", "DECLINE"),
    # a target or entry price is no price of today: the limit stays a condition
    ("Harlow Mills (HML)\nTarget price: $16\n\n", "Conclusion: buy below $17.", "DECLINE"),
])
def test_a_buy_limit_against_a_price_given_as_a_field(head: str, closing: str, want: str) -> None:
    result = parse_response(head + _EN + closing, GRAHAM, embedder=False)
    assert result.final_verdict == want
