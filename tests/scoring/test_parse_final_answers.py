"""Final verdicts stated as an answer, a result or a diagnosis (issue 13, "final-verdict-wild"; paper §7.5).

Fresh reports close in ways the older corpus rarely used: an answer to the question they open with ("So no,
not a buy."), the result of a sum on a verdict line ("4/6 traits = Buy"), a watch or a wait instead of a buy, a
pass on the company by its name ("I'd pass on Acme Tools."), "does not make the defensive list", and, on regime
cards, the diagnosis instead of the outcome's name ("the market isn't in a bubble"). Conditionals still never
count. Every text was written for these tests; every expected verdict was worked by hand against the bundled
card's outcomes.
"""

from __future__ import annotations

import pytest

from parse_support import GRAHAM_BODY, final_of as _final
from ipb.scoring.parse._closing import answer_particle_end, is_result

GRAHAM = "graham_seven_tests_defensive"  # pass INVEST, fail DECLINE
BUBBLE = "dalio_bubble_detection_gauge"  # pass NO_BUBBLE, fail BUBBLE_REDUCE_RISK
MARKS = "marks_market_cycle_positioning"  # pass ADOPT_POSTURE, fail REJECT_POSTURE; cold branch fail INCREASE_RISK

BUBBLE_BODY = (
    "Prices High Relative to Traditional Measures: the 90th percentile, flagged.\n"
    "New Buyers Entering the Market: account openings at a record, flagged.\n"
    "Broadly Bullish Sentiment: the 88th percentile, flagged.\n"
    "Purchases Financed by High Leverage: margin debt is modest, not flagged.\n\n"
)
MARKS_BODY = (
    "Take the Market's Temperature: cold. Spreads at 9%, investors fearful, capital tight.\n"
    "Position Against the Pendulum: REJECT, the proposal stays defensive in a cold market.\n\n"
)


# ---------------------------------------------------------------- an answer to the question

ANSWERS = [
    ("so-no-not-a-buy", "Is the stock a buy? Not with that balance sheet.\n\nSo no, not a buy at this price.", "DECLINE"),
    ("no-not-buying", "No, I'm not buying this one.", "DECLINE"),  # the particle does not undo "not buying"
    ("so-yes-its-a-buy", "So yes, on these numbers it's a buy.", "INVEST"),
    ("then-no-wont-buy", "Then no: we won't be buying the shares.", "DECLINE"),
    ("yes-but-conditional", "So yes, if the price halves it's a buy.", None),  # a condition, never the verdict
]


@pytest.mark.parametrize(("closing", "expected"), [c[1:] for c in ANSWERS], ids=[c[0] for c in ANSWERS])
def test_an_answer_particle_opens_the_writers_answer(closing: str, expected: str | None) -> None:
    assert _final(GRAHAM_BODY, closing, GRAHAM) == expected


def test_the_particle_must_open_its_sentence() -> None:
    text = "Is it a buy? So no, not a buy."
    assert answer_particle_end(text, 13, 27) == 19
    assert answer_particle_end("There is no, or little, debt.", 0, 20) is None  # "no" inside the sentence answers nothing
    assert answer_particle_end("No bubble here.", 0, 3) is None  # "No" without a comma is a determiner


# ---------------------------------------------------------------- the result of a sum or an arrow

RESULTS = [
    ("sum-buy", "Verdict line: Size + Stability + 6/7 tests = Buy", "INVEST"),
    ("arrow-avoid", "Two failed tests \u2192 Avoid", "DECLINE"),
    ("ascii-arrow-sell", "Checklist score 3 of 7 -> SELL.", "DECLINE"),
    ("conditional-arrow", "If the current ratio recovers above 2 -> Buy", None),
]


@pytest.mark.parametrize(("closing", "expected"), [c[1:] for c in RESULTS], ids=[c[0] for c in RESULTS])
def test_a_verdict_word_ending_a_sum_or_an_arrow_is_the_verdict(closing: str, expected: str | None) -> None:
    assert _final(GRAHAM_BODY, closing, GRAHAM) == expected


def test_a_result_must_end_its_line() -> None:
    text = "Score = Buy\nScore = buy more on dips"
    assert is_result(text, 8, 11)
    assert not is_result(text, 20, 23)  # more words follow on the line: a phrase, not a result
    assert not is_result("Buy the dip", 0, 3)


# ---------------------------------------------------------------- not buying now, said otherwise

NOT_NOW = [
    ("decision-watch", "DECISION: WATCH\nCONVICTION: HIGH", "DECLINE"),
    ("recommendation-wait", "Recommendation - wait.", "DECLINE"),
    ("watch-in-prose", "Watch the inventory line next quarter.", None),  # a bare "watch" is no rating
    ("pass-on-a-name", "I'd pass on Acme Tools.", "DECLINE"),
    ("walk-away-from-a-name", "We walk away from Northwind Foods.", "DECLINE"),
    ("avoided-chapter-11", "The company avoided Chapter 11 in 2009 and has grown since.", None),
    ("have-been-buying", "We've been buying the shares all month.", "INVEST"),
    ("not-the-defensive-list", "Acme falls one test short and does not make the defensive list this year.", "DECLINE"),
    ("makes-the-cut", "It makes the cut.", "INVEST"),
]


@pytest.mark.parametrize(("closing", "expected"), [c[1:] for c in NOT_NOW], ids=[c[0] for c in NOT_NOW])
def test_everyday_decisions_on_a_buy_card(closing: str, expected: str | None) -> None:
    assert _final(GRAHAM_BODY, closing, GRAHAM) == expected


# ---------------------------------------------------------------- regime cards: the diagnosis is the verdict

DIAGNOSES = [
    ("isnt-in-a-bubble", "By these measures the market as a whole isn't in a bubble.", "NO_BUBBLE"),
    ("is-a-bubble", "Four of the seven are lit, so by the rule it is a bubble.", "BUBBLE_REDUCE_RISK"),
    ("cutting-exposure", "I'd be cutting exposure here.", "BUBBLE_REDUCE_RISK"),
    ("conditional-bubble", "If leverage joins in, the market would be in a bubble.", None),
    ("a-bubble-not-last", "Some call it a bubble.\n\nThe aggregate reading is the 70th percentile.", None),  # not the last sentence
]


@pytest.mark.parametrize(("closing", "expected"), [c[1:] for c in DIAGNOSES], ids=[c[0] for c in DIAGNOSES])
def test_a_regime_cards_diagnosis_states_its_outcome(closing: str, expected: str | None) -> None:
    assert _final(BUBBLE_BODY, closing, BUBBLE) == expected


def test_one_word_outcome_in_the_last_sentence_still_needs_a_cue() -> None:
    # "invest" is too common a word to count in lower case without a cue, even closing the answer
    assert _final(GRAHAM_BODY, "Plenty of funds invest in utilities for the income.", GRAHAM) is None


@pytest.mark.parametrize(("closing", "expected"), [('{"decision": "BUY"}', "INCREASE_RISK"), ('{"decision": "SELL"}', "REDUCE_RISK")],
                         ids=["buy-increases-risk", "sell-reduces-risk"])
def test_buy_and_sell_move_risk_on_the_cycle_card(closing: str, expected: str) -> None:
    assert _final(MARKS_BODY, closing, MARKS) == expected


# ---------------------------------------------------------------- more words of real reports

MORE = [
    ("stay-away", GRAHAM_BODY, "I'd stay away.", GRAHAM, "DECLINE"),
    ("advice-stay-away", GRAHAM_BODY, "My advice: stay away.", GRAHAM, "DECLINE"),
    ("others-stayed-away", GRAHAM_BODY, "Investors stayed away in 2022, so the multiple compressed.", GRAHAM, None),
    ("rating-buy-below", GRAHAM_BODY, "Recommendation: Buy below $20", GRAHAM, "DECLINE"),  # a limit under today's price
    ("final-answer-no", GRAHAM_BODY, "Final answer: no.", GRAHAM, "DECLINE"),
    ("short-answer-yes", GRAHAM_BODY, "**Short answer** - yes", GRAHAM, "INVEST"),
    ("answer-no-idea", GRAHAM_BODY, "The final answer: no idea yet.", GRAHAM, None),
]


@pytest.mark.parametrize(("body", "closing", "card", "expected"), [c[1:] for c in MORE], ids=[c[0] for c in MORE])
def test_more_final_words_of_real_reports(body: str, closing: str, card: str, expected: str | None) -> None:
    assert _final(body, closing, card) == expected


REBALANCE = "dalio_all_weather_rebalancing"  # pass REBALANCE, fail HOLD
REBALANCE_BODY = (
    "Risk Drift Beyond Tolerance: PROCEED, the gap is 6 points.\n"
    "Strategic Not Tactical: PROCEED, the trade follows a correlation shift.\n\n"
)
ONCE = [
    ("label-once", "Overall: REBALANCE, once the desk confirms the cost.", "REBALANCE"),  # the verdict, and when to act
    ("status-once", "Status: REBALANCE once the quote is in.", "REBALANCE"),
    ("prose-once", "We could REBALANCE once the quote is in.", None),  # no label: a condition
    ("label-if", "Overall: REBALANCE if the desk confirms the cost.", None),  # "if" stays a condition after a label
]


@pytest.mark.parametrize(("closing", "expected"), [c[1:] for c in ONCE], ids=[c[0] for c in ONCE])
def test_once_after_a_labelled_verdict_says_when_not_whether(closing: str, expected: str | None) -> None:
    assert _final(REBALANCE_BODY, closing, REBALANCE) == expected


# ---------------------------------------------------------------- yes / no labels, questions answered at once, first-person passes

FIRST_PERSON = [
    ("decision-no", "Decision: no.", "DECLINE"),
    ("bottom-line-yes-buy", "Bottom line: yes, buy.", "INVEST"),
    ("gate-style-verdict-no", "Verdict: no.", None),  # a bare "Verdict" may be a gate's own: only final / overall count
    ("tldr-avoid", "TL;DR: avoid.", "DECLINE"),
    ("should-you-buy-no", "Should you buy? No.", "DECLINE"),
    ("buy-not-yet", "Worth buying? Not yet.", "DECLINE"),
    ("would-i-buy-yes", "Would I buy it? Yes.", "INVEST"),
    ("question-not-about-buying", "Is the debt a problem? No.", None),
    ("negated-question", "Should you avoid it? No.", None),  # a question about avoiding: its "no" is left alone
    ("passing-on-this-one", "I'm passing on this one.", "DECLINE"),
    ("ill-be-passing", "I'll be passing.", "DECLINE"),
    ("passing-the-tests", "We are passing all seven tests.", None),  # the stock passing, not the writer declining
    ("pass-from-me", "It's a pass from me.", "DECLINE"),
    ("too-rich-for-me", "Too rich for me.", "DECLINE"),
    ("be-a-buyer", "I'd be a buyer here.", "INVEST"),
    ("buyer-below-a-price", "I'd be a buyer below $20.", None),  # a limit, not a buy now
]


@pytest.mark.parametrize(("closing", "expected"), [c[1:] for c in FIRST_PERSON], ids=[c[0] for c in FIRST_PERSON])
def test_yes_no_labels_answered_questions_and_first_person_passes(closing: str, expected: str | None) -> None:
    assert _final(GRAHAM_BODY, closing, GRAHAM) == expected


WHOSE_LABEL = [  # regression (a wrong final verdict): a yes/no label is the writer's only when it opens its line or sentence
    ("committee-decision", "Committee decision: no.", "DECLINE"),
    ("bold-decision", "**Decision:** no.", "DECLINE"),
    ("mine-after-a-sentence", "That settles it. My decision: yes.", "INVEST"),
    ("someone-elses", "The previous analyst's decision: no. I have not made mine.", None),
    ("their-bottom-line", "Their bottom line: yes. I am not convinced.", None),
    ("a-past-one", "Last year's decision: no. This year it is open.", None),
    # a yes with a price limit or a condition is a buy at another price or time, not today's answer
    ("yes-only-below", "Bottom line: yes, but only below $20.", None),
    ("yes-if", "Decision: yes if the spin-off completes.", None),
    ("question-yes-below", "Would I buy it? Yes, below $20.", None),
    ("question-yes-once", "Worth buying? Yes, once the debt is refinanced.", None),
    ("yes-plain-reason", "Would I buy it? Yes, the price is fair.", "INVEST"),
]


@pytest.mark.parametrize(("closing", "expected"), [c[1:] for c in WHOSE_LABEL], ids=[c[0] for c in WHOSE_LABEL])
def test_a_yes_no_label_of_someone_else_the_past_or_a_limit_is_no_verdict(closing: str, expected: str | None) -> None:
    assert _final(GRAHAM_BODY, closing, GRAHAM) == expected


def test_a_buy_question_is_read_only_on_a_buy_card() -> None:
    # on a hold-or-divest card, "should you buy? no" says nothing about holding or divesting
    body = ("Mandate Investment Universe: PROCEED, a listed equity outside Norway.\n"
            "Product-Based Exclusion Criteria: PROCEED, no weapons, tobacco or coal exposure.\n\n")
    assert _final(body, "Should you buy more? No.", "nbim_gpfg_exclusion_screen") is None


# ---------------------------------------------------------------- a branch outcome's direction in other prepositions

MACHINE = "dalio_economic_machine_positioning"  # branch outcomes TILT_TO_..., HOLD_BALANCED_MIX
MACHINE_BODY = (
    "Growth Relative to Expectations: PROCEED, growth is beating forecasts.\n"
    "Inflation Relative to Expectations: PROCEED, inflation is below expectations.\n"
    "Growth-Inflation Quadrant: growth up, inflation down.\n\n"
)
DIRECTIONS = [
    ("toward", "Tilt toward equities and credit.", "TILT_TO_EQUITIES_AND_CREDIT"),
    ("towards", "Tilt towards nominal bonds.", "TILT_TO_NOMINAL_BONDS"),
    ("into", "Recommendation: tilt into commodities and emerging markets.", "TILT_TO_COMMODITIES_AND_EMERGING_MARKETS"),
    ("bare-tilt", "Verdict: TILT.", "TILT"),  # no direction named: the card's own pass outcome
]


@pytest.mark.parametrize(("closing", "expected"), [c[1:] for c in DIRECTIONS], ids=[c[0] for c in DIRECTIONS])
def test_a_branch_outcome_reads_with_toward_and_into(closing: str, expected: str) -> None:
    assert _final(MACHINE_BODY, closing, MACHINE) == expected
