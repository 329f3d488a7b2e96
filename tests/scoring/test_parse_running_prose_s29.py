"""Verdicts stated in running prose with no label and no verdict word (issue 13, the n26 shape; paper §7.5).

Each test pins one general rule of how people write a verdict in news copy, forum posts, interviews and newsletters.
Every text was written for these tests (no corpus sentence); every expected reading was worked by hand against the
bundled card named beside it.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse._closing import at_another_price
from tests.scoring.parse_support import GRAHAM_BODY, final_of, gate_verdicts as _gates

GRAHAM = "graham_seven_tests_defensive"  # pass INVEST, fail DECLINE


# ---------------------------------------------------------------- final: the noun "a pass" at today's price; "passed at"

DECLINES = [
    ("pass-at-this-price", "Cheap enough? Not for me. It's a pass at this price, even though the franchise is fine."),
    ("pass-at-these-levels", "Management is candid and the record is long.\n\nIt is a pass at these levels."),
    ("pass-for-now", "We like the niche.\n\nThat's a pass for now."),
    ("passed-at-figure", "We went over the numbers again, and we passed at 118."),
    ("passed-at-price", "I looked hard, and I passed at the current price."),
]


@pytest.mark.parametrize("closing", [c[1] for c in DECLINES], ids=[c[0] for c in DECLINES])
def test_a_pass_at_todays_price_is_the_decline(closing: str) -> None:
    assert final_of(GRAHAM_BODY, closing, GRAHAM) == "DECLINE"


def test_a_gate_that_passes_is_no_decline() -> None:
    # "passed" with a percentage is a score on the tests, not a price: no decline from it
    assert final_of(GRAHAM_BODY, "On the seven tests we passed at 86% of the bar.", GRAHAM) != "DECLINE"
    assert final_of(GRAHAM_BODY, "On the seven tests we passed at 86 percent of the bar.", GRAHAM) != "DECLINE"


# ---------------------------------------------------------------- final: what the writer would do at another price

def test_a_verdict_at_another_price_never_counts() -> None:
    assert final_of(GRAHAM_BODY, "So no purchase today. At 12 we would be buyers.", GRAHAM) != "INVEST"
    assert final_of(GRAHAM_BODY, "We walked away. Below $30 I'd buy it without a second thought.", GRAHAM) != "INVEST"
    assert final_of(GRAHAM_BODY, "At a lower price we'd be buyers.", GRAHAM) is None


def test_a_verdict_at_todays_price_still_counts() -> None:
    assert final_of(GRAHAM_BODY, "At 9 times earnings I'm a buyer, and I bought today.", GRAHAM) == "INVEST"


def test_at_another_price() -> None:
    t = "Under $15 we'd add more."
    assert at_another_price(t, 0, t.index("we'd"), t.index("add") + 3)
    t = "At $15 the stock is a bargain."
    assert not at_another_price(t, 0, t.index("a bargain"), len(t))
    t = "I'd buy more at $15."
    assert not at_another_price(t, 0, t.index("buy"), t.index("buy") + 3)


def test_a_decline_at_the_price_discussed_still_counts() -> None:
    assert final_of(GRAHAM_BODY, "At $80 a share there is no margin of safety, and we would pass.", GRAHAM) == "DECLINE"


# ---------------------------------------------------------------- gates: a section's judgement in other words

MARKS_RR = "marks_risk_return_assessment"  # 1 price vs value, 2 risk premium, 3 permanent loss, 5 pendulum


ATTRIBUTIVE = [
    # an appraisal that modifies the gate's own criterion noun appraises the criterion
    ("thin-premium", "Risk premium\nBonds pay 4.0% and we expect 5.5% a year: a thin premium for the risk.", 2, "REJECT"),
    ("ample-premium", "Risk premium\nWe expect 12% a year against 4% on bills, an ample premium by any measure.", 2, "PROCEED"),
]


@pytest.mark.parametrize(("text", "gate", "verdict"), [c[1:] for c in ATTRIBUTIVE], ids=[c[0] for c in ATTRIBUTIVE])
def test_an_appraisal_of_the_gates_own_noun_is_its_verdict(text: str, gate: int, verdict: str) -> None:
    assert _gates(text, MARKS_RR).get(gate) == verdict


def test_an_appraisal_of_another_noun_stays_unread() -> None:
    # "strong" modifies "quarter", not the premium: no verdict from it
    assert _gates("Risk premium\nExpected return 7% against 4% on bills after a strong quarter.", MARKS_RR).get(2) is None


BARE_ANSWERS = [
    # the question, the facts, then the answer as a sentence of its own
    ("yes-after-facts", "- Is the premium for risk enough? We expect 11% a year; bills pay 3%. Yes.\n", 2, "PROCEED"),
    ("no-after-facts", "- Is the premium for risk enough? We expect 5% a year; bills pay 4%. No.\n", 2, "REJECT"),
]


@pytest.mark.parametrize(("text", "gate", "verdict"), [c[1:] for c in BARE_ANSWERS], ids=[c[0] for c in BARE_ANSWERS])
def test_a_bare_answer_after_the_facts_answers_the_question(text: str, gate: int, verdict: str) -> None:
    assert _gates(text, MARKS_RR).get(gate) == verdict


VALUE_SIDES = [
    # a price said to sit above or below the value the writer puts on it
    ("above-value", "Price versus value\nWe put the value at $40 a share and it trades at $47. Above value.", 1, "REJECT"),
    ("below-value", "Price versus value\nAt $21 against our $40, the shares trade well below intrinsic value.", 1, "PROCEED"),
    ("not-above", "Price versus value\nThe shares change hands at $30, and that is not above value.", 1, "PROCEED"),
]


@pytest.mark.parametrize(("text", "gate", "verdict"), [c[1:] for c in VALUE_SIDES], ids=[c[0] for c in VALUE_SIDES])
def test_a_price_above_or_below_value_is_the_price_gates_verdict(text: str, gate: int, verdict: str) -> None:
    assert _gates(text, MARKS_RR).get(gate) == verdict


def test_book_value_is_not_the_writers_value() -> None:
    from ipb.scoring.parse._prose import appraisals

    t = "the shares trade below book value"
    assert appraisals(t, 0, len(t), None) == []


# ---------------------------------------------------------------- gates: a category value said in the gate's section

SOROS = "soros_reflexive_hypothesis_trade_construction"  # 2 feedback loop: self_reinforcing / self_correcting / absent
MUNGER_OPP = "munger_opportunity_evaluation"  # 5 biology: adapted_through_disruption / untested / displaced_by_change

CATEGORY_VALUES = [
    # the value said alone after the facts, and the card's test on it
    ("hot", MARKS_RR, "The pendulum\nEvery new issue is oversubscribed and margin debt is at a record. Hot.", 5, "REJECT"),
    ("rather-than-hot", MARKS_RR, "The pendulum\nCredit desks sound calm rather than hot this spring.", 5, "PROCEED"),
    ("not-hot", MARKS_RR, "The pendulum\nThe mood among buyers is sober, not hot.", 5, "PROCEED"),
    ("self-correcting", SOROS, "The loop\nHigher prices bring new supply, which pulls prices back down. Self-correcting.", 2, "REJECT"),
    ("self-reinforcing", SOROS, "The loop\nCheap credit lifts the collateral, which frees more credit: self-reinforcing.", 2, "PROCEED"),
    ("band-value", MUNGER_OPP, "Biology lens\nFounded four years ago, it has not been tested by disruption.", 5, "INCONCLUSIVE"),
]


@pytest.mark.parametrize(("card", "text", "gate", "verdict"), [c[1:] for c in CATEGORY_VALUES], ids=[c[0] for c in CATEGORY_VALUES])
def test_a_category_value_said_in_the_section_is_read_with_the_cards_test(card: str, text: str, gate: int, verdict: str) -> None:
    assert _gates(text, card).get(gate) == verdict


def test_category_verdicts_leave_common_words_alone() -> None:
    from ipb.engine.registry import compiled_card
    from ipb.scoring.parse._thresholds import category_verdicts

    card = compiled_card("marks_distressed_debt").card  # gate 5: legal_process_risk low / moderate / high
    t = "the legal risk is high"
    assert category_verdicts(card, 5, t, 0, len(t)) == []


# ---------------------------------------------------------------- gates: a figure set against a bar with its own figure

AGAINST_BARS = [
    ("above-hurdle", MUNGER_OPP, "Mathematics lens\nAcross the three scenarios, 13% a year against our 10% hurdle.", 3, "PROCEED"),
    ("below-hurdle", MUNGER_OPP, "Mathematics lens\nThe weighted expected return is 8% vs 10% hurdle.", 3, "REJECT"),
]


@pytest.mark.parametrize(("card", "text", "gate", "verdict"), [c[1:] for c in AGAINST_BARS], ids=[c[0] for c in AGAINST_BARS])
def test_a_figure_against_a_stated_bar_is_read_with_the_bars_side(card: str, text: str, gate: int, verdict: str) -> None:
    assert _gates(text, card).get(gate) == verdict


def test_compared_verdict_against_a_bar_with_a_figure() -> None:
    from ipb.scoring.parse._stated_bars import compared_verdict

    assert compared_verdict("gross leverage 2.8x against a 2.5x limit", None) == "REJECT"
    assert compared_verdict("gross leverage 2.1x against a 2.5x limit", None) == "PROCEED"
    assert compared_verdict("a margin of 6% against a 2x limit", None) is None  # two kinds of figure
    assert compared_verdict("if leverage rose to 2.8x against a 2.5x limit", None) is None  # a condition


# ---------------------------------------------------------------- final: the outcome's object first, its verb a participle

SOROS_BODY = "Prevailing Bias: PROCEED, the market prices the peg as permanent.\n\n"


@pytest.mark.parametrize(("closing", "outcome"), [
    ("Closed the test position at a small loss. Hypothesis abandoned.", "ABANDON_HYPOTHESIS"),
    ("Hypothesis dropped; no test position.", "ABANDON_HYPOTHESIS"),
], ids=["abandoned", "dropped"])
def test_an_outcome_written_object_first_with_a_participle(closing: str, outcome: str) -> None:
    assert final_of(SOROS_BODY, closing, SOROS) == outcome


def test_participles_of_outcome_verbs() -> None:
    from ipb.scoring.parse._card import _index, _participle
    from ipb.engine.registry import compiled_card

    assert [_participle(v) for v in ("CUT", "SIZE", "CARRY")] == ["CUT", "SIZED", "CARRIED"]
    keys = _index(compiled_card(SOROS).card).outcome_of
    assert keys["HYPOTHESIS_ABANDONED"] == "ABANDON_HYPOTHESIS"
    sizing = _index(compiled_card("soros_conviction_weighted_position_sizing").card).outcome_of
    assert "SIZE_UP" in sizing and not any(k.startswith("UP_") for k in sizing)  # SIZE_UP has no object to put first


# ---------------------------------------------------------------- final: the decision stated as what the writer did

ACTS = [
    ("sold-half", "The price has run past my value.\n\nI sold half this morning.", "DECLINE"),
    ("sold-a-third", "The price has run past my value.\n\nWe sold a third yesterday.", "DECLINE"),
    ("not-adding", "The price has run past my value.\n\nI'm not adding to it.", "DECLINE"),
    ("note-subject-bought", "Three of the tests clear.\n\nStarter stake, bought.", "INVEST"),
    ("bought-comma-figure", "Three of the tests clear.\n\nBought, 2% of capital.", "INVEST"),
]


@pytest.mark.parametrize(("closing", "outcome"), [c[1:] for c in ACTS], ids=[c[0] for c in ACTS])
def test_a_decision_stated_as_an_act(closing: str, outcome: str) -> None:
    assert final_of(GRAHAM_BODY, closing, GRAHAM) == outcome


def test_a_denied_reason_is_no_decline() -> None:
    # "not buying because of X" says why the writer buys, not that they do not
    assert final_of(GRAHAM_BODY, "I'm not buying because of the story.", GRAHAM) != "DECLINE"
    assert final_of(GRAHAM_BODY, "I'm not buying.", GRAHAM) == "DECLINE"


# ---------------------------------------------------------------- final: an outcome word naming a proposal

SIZING = "soros_conviction_weighted_position_sizing"  # pass SIZE_UP, fail CUT
SIZING_BODY = "Thesis Confirmation: REJECT, the price is through the stop.\n\n"


@pytest.mark.parametrize("closing", [
    "FINAL: CUT. Close the position; the size-up request is denied.",
    "Decision: CUT. The desk's size-up proposal goes back to the analyst.",
], ids=["request", "proposal"])
def test_an_outcome_word_naming_a_proposal_is_no_verdict(closing: str) -> None:
    assert final_of(SIZING_BODY, closing, SIZING) == "CUT"
