"""Misreads found by breaking stop 29's new parser rules with adversarial texts (issue 13; paper §7.5).

Each text was written for these tests (no corpus sentence); each pins a case where a new rule fired on words that do
not say what the rule reads. Expected readings were worked by hand against the bundled card named beside them.
"""

from __future__ import annotations

import pytest

from ipb.engine.numbers import scan_numbers
from tests.scoring.parse_support import GRAHAM_BODY, final_of, gate_verdicts as _gates

GRAHAM = "graham_seven_tests_defensive"  # pass INVEST, fail DECLINE
SIZING = "soros_conviction_weighted_position_sizing"  # gate 2 payoff_ratio >= 3 (a multiple)


# ---------------------------------------------------------------- numbers: "N times" counting events is no multiple

@pytest.mark.parametrize("text", [
    "the committee reran the model 5 times so far",
    "the stock doubled 3 times in a row",
    "we meet the lenders 4 times a year",
    "reported 2 times per quarter",
], ids=["so-far", "in-a-row", "a-year", "per-quarter"])
def test_a_count_of_events_is_no_multiple(text: str) -> None:
    assert [n.kind for n in scan_numbers(text)] == ["number"]


def test_a_multiple_in_words_still_reads() -> None:
    assert [(n.value, n.kind) for n in scan_numbers("interest is covered 12 times; 12 times earnings")] == [
        (12, "multiple"), (12, "multiple")]


def test_a_count_of_events_in_a_gate_section_gives_no_verdict() -> None:
    text = "Payoff asymmetry\nWe have revised the payoff model 5 times so far; upside and downside look about equal."
    assert _gates(text, SIZING).get(2) is None


# ---------------------------------------------------------------- final: "not adding" something other than the holding

@pytest.mark.parametrize("closing", [
    "I'm not adding salt to the wound; the numbers speak.",
    "Not adding more commentary here.",
    "I am not adding a forecast of my own.",
], ids=["salt", "more-commentary", "a-forecast"])
def test_not_adding_something_else_is_no_decline(closing: str) -> None:
    assert final_of(GRAHAM_BODY, closing, GRAHAM) is None


@pytest.mark.parametrize("closing", [
    "I'm not adding to it.", "Not adding.", "We are not adding more shares at this price.", "I'm not adding here.",
], ids=["to-it", "alone", "more-shares", "here"])
def test_not_adding_to_the_holding_is_still_a_decline(closing: str) -> None:
    assert final_of(GRAHAM_BODY, closing, GRAHAM) == "DECLINE"


# ---------------------------------------------------------------- final: an act dated in the past is history

@pytest.mark.parametrize("closing", [
    "Last year I sold half my Ford shares.",
    "In 2019 we sold a third of our stake; this is a new case.",
    "We bought the shares years ago.",
    "Back in 2008 we bought in at 12.",
], ids=["last-year", "in-a-year", "years-ago", "back-in"])
def test_an_act_dated_in_the_past_is_no_final_verdict(closing: str) -> None:
    assert final_of(GRAHAM_BODY, closing, GRAHAM) is None


def test_an_act_of_today_still_counts() -> None:
    assert final_of(GRAHAM_BODY, "I sold half this morning.", GRAHAM) == "DECLINE"
    assert final_of(GRAHAM_BODY, "Held it since the spring; today we bought more.", GRAHAM) == "INVEST"


# ---------------------------------------------------------------- gates: a category word on another noun is another sense

MARKS_RR = "marks_risk_return_assessment"  # gate 5 market_temperature: hot / neutral / cold


@pytest.mark.parametrize("text", [
    "The pendulum\nAI is a hot topic, but the crowd as a whole is fearful.",
    "The pendulum\nHot money is leaving the sector.",
    "The pendulum\nIt was a hot summer for ice-cream makers.",
], ids=["hot-topic", "hot-money", "hot-summer"])
def test_a_category_word_on_another_noun_gives_no_verdict(text: str) -> None:
    assert _gates(text, MARKS_RR).get(5) is None


@pytest.mark.parametrize("text", [
    "The pendulum\nA hot market, with every new issue oversubscribed.",
    "The pendulum\nMarkets are hot right now.",
], ids=["hot-market", "hot-right-now"])
def test_a_category_word_on_the_gates_own_noun_still_reads(text: str) -> None:
    assert _gates(text, MARKS_RR).get(5) == "REJECT"


# ---------------------------------------------------------------- gates: a clause dated well in the past is history

MUNGER_OPP = "munger_opportunity_evaluation"  # gate 3 mathematics lens: expected return against the hurdle


@pytest.mark.parametrize(("card", "text", "gate"), [
    (MUNGER_OPP, "Mathematics lens\nLast cycle it made 14% against our 10% hurdle; the new plan has no figures yet.", 3),
    (MARKS_RR, "Price versus value\nBack in the boom it traded well above value; the new owners have not published accounts.", 1),
    (MARKS_RR, "The pendulum\nBack in 2007 the mood was hot; nobody can say how it feels today.", 5),
], ids=["last-cycle-hurdle", "back-in-the-boom-value", "back-in-hot"])
def test_a_clause_dated_in_the_past_gives_no_verdict(card: str, text: str, gate: int) -> None:
    assert _gates(text, card).get(gate) is None


def test_a_clause_of_today_beside_history_still_reads() -> None:
    text = "Mathematics lens\nLast cycle it made 6%; this time 14% a year against our 10% hurdle."
    assert _gates(text, MUNGER_OPP).get(3) == "PROCEED"
