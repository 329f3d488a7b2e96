"""Running-prose phenomena of stop 30 (issue 13), each on short texts written for these tests.

* **The case as "one" the writer leaves or takes**: "This is one we'll skip.", "one to leave alone for now", "one I'd
  avoid" (the card's fail outcome); "one to buy", "one we'll own" (its pass outcome), never with a condition after it
  ("one to buy if it drops"). "One to X" needs no decider: it can only be a verdict.
* **Being out of what the outcome exits**: "I'd be out of local-currency assets", "pull out of", "sell out of" read as an
  EXIT_... outcome, as "get out of" does.
* **A ratio as the stated bar**: "Risk/reward 1.6 : 1, below our 2 : 1 minimum", "4:1, above the 3:1 floor".
"""

from __future__ import annotations

import pytest

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._stated_bars import compared_verdict

from tests.scoring.parse_support import gate_verdicts

SPINOFF = "greenblatt_spinoff_checklist"
DEBT = "dalio_debt_supercycle_navigation"
SIZING = "soros_conviction_weighted_position_sizing"
BODY = "The parent spun the unit off in March and the index funds must sell it.\n\n"


@pytest.mark.parametrize(("closing", "want"), [
    ("This is one we'll skip.", "DECLINE"),
    ("For a value mandate this is one to leave alone for now.", "DECLINE"),
    ("Honestly, it's one I'd avoid.", "DECLINE"),
    ("It's a name to stay away from until the lock-up ends.", "DECLINE"),
    ("This is one to buy.", "INVEST"),
    ("That's one we will own for years.", "INVEST"),
], ids=["well-skip", "leave-alone", "id-avoid", "name-to-stay-away", "one-to-buy", "we-will-own"])
def test_the_case_as_one_to_leave_or_take(closing: str, want: str | None) -> None:
    assert parse_response(BODY + closing + "\n", SPINOFF, embedder=False).final_verdict == want


def test_one_to_buy_on_a_condition_is_no_buy_today() -> None:
    # a buy only after a fall is not today's buy (as "buy below $20" is not)
    result = parse_response(BODY + "This is one to buy if it drops another 20%.\n", SPINOFF, embedder=False)
    assert result.final_verdict != "INVEST"


@pytest.mark.parametrize("closing", [
    "I would be out of local-currency assets.",
    "We'd pull out of local currency assets this quarter.",
], ids=["be-out-of", "pull-out-of"])
def test_being_out_of_what_the_outcome_exits(closing: str) -> None:
    text = "Most of the debt is owed in dollars the central bank cannot print.\n\n" + closing + "\n"
    assert parse_response(text, DEBT, embedder=False).final_verdict == "EXIT_LOCAL_CURRENCY_ASSETS"


@pytest.mark.parametrize(("text", "higher", "want"), [
    ("risk/reward 1.6 : 1, below our 2 : 1 minimum", None, vw.REJECT),
    ("payoff 4:1, above the 3:1 floor", None, vw.PROCEED),
    ("payoff 2.5 to 1, under his 3 to 1 minimum", None, vw.REJECT),
    ("payoff 2:1, not above the 3:1 floor", None, None),  # negated: no reading
], ids=["spaced-colon", "colon", "to-one", "negated"])
def test_a_ratio_as_the_stated_bar(text: str, higher: str | None, want: str | None) -> None:
    assert compared_verdict(text, higher) == want


def test_a_ratio_bar_gives_the_labelled_gate_its_verdict() -> None:
    text = ("Conviction: the thesis is intact, confirmed.\n"
            "Payoff: reward to risk 1.8 : 1, below our 3 : 1 minimum.\n"
            "Decision: CUT.\n")
    assert gate_verdicts(text, SIZING).get(2) == vw.REJECT


DCF = "buffett_owner_earnings_dcf"


@pytest.mark.parametrize(("closing", "want"), [
    ("Is Harlow a buy? Not at 2.4 billion.", "DECLINE"),
    ("Would I buy? Not at $41, no.", "DECLINE"),
    ("Should we own it? Not at 19.5.", "DECLINE"),
    ("Is the debt a problem? Not at 2 billion.", None),  # a question about something else
], ids=["billion", "dollars", "plain", "other-question"])
def test_a_buy_question_answered_not_at_a_price(closing: str, want: str | None) -> None:
    text = "Owner earnings come to 125 on our numbers, and the value to about 2,100.\n\n" + closing + "\n"
    assert parse_response(text, DCF, embedder=False).final_verdict == want


# -- a figure compared with a figure the text says is required or allowed, and the no-gate fallback reading it

@pytest.mark.parametrize(("text", "want"), [
    ("the model projects a 12 percent return, above the 8 percent it asks of such deals", vw.PROCEED),
    ("the return of 5.5 percent fell below the 7 percent the fund requires", vw.REJECT),
    ("net debt at 2.1x, under the 2.5x the lenders allow", vw.PROCEED),
    ("net debt at 2.9x, above the 2.5x the covenant permits", vw.REJECT),
    ("a 6% yield, not above the 7% we need", None),
], ids=["asks", "requires", "allow", "permits", "negated"])
def test_a_required_or_allowed_figure_is_a_bar(text: str, want: str | None) -> None:
    assert compared_verdict(text, None) == want


def test_a_news_story_that_names_no_gate_reads_its_comparison() -> None:
    # the no-gate fallback (:mod:`._described`) finds the gates by the card's words; the return clause states its verdict
    text = ("Gulf fund buys into Lisbon port operator\n\n"
            "The stake sits in the fund's international diversified portfolio, whose investment policy allows minority holdings.\n"
            "People close to the deal said the projected return is about 12 percent, above the 8 percent the fund "
            "requires of infrastructure abroad.\n"
            "The deal also supports the logistics goals of Vision 2030.\n")
    got = gate_verdicts(text, "pif_dual_kill_investment_screen")
    assert got.get(2) == vw.PROCEED


# -- percentage and basis points (scoring._numbers.find_numbers)

@pytest.mark.parametrize(("text", "value"), [
    ("a spread of 6.5 percentage points", 0.065), ("up 3pp on the year", 0.03), ("about 6.5 points over Treasuries", 0.065),
    ("a 6.5-point premium over bills", 0.065), ("650 basis points", 0.065), ("tightened by 40bps", 0.004),
], ids=["percentage-points", "pp", "points-over", "n-point-premium", "basis-points", "bps"])
def test_points_are_percentage_points(text: str, value: float) -> None:
    from ipb.scoring._text import find_numbers
    found = [(n.value, n.unit) for n in find_numbers(text)]
    assert found == [(value, "ratio")]


@pytest.mark.parametrize("text", ["the index fell 5 points yesterday", "a 300-point rally", "scored 8 points of 10"])
def test_points_of_an_index_or_a_score_are_no_percentage(text: str) -> None:
    from ipb.scoring._text import find_numbers
    assert find_numbers(text) == []


def test_a_spread_in_points_against_the_cards_bar() -> None:
    # the distressed-debt card's gate 1 wants a spread of at least 10% over Treasuries
    text = ("The bonds fell to 81 after the profit warning. At that price they yield about 6 points over Treasuries, "
            "which is stress, not distress, and holders are not forced sellers.\n\nOne to leave alone.\n")
    assert gate_verdicts(text, "marks_distressed_debt").get(1) == vw.REJECT


# -- a likelihood answering a gate's question, and a question whose verb is a fault (_section_reading.question_answer)

@pytest.mark.parametrize(("question", "answer", "want"), [
    ("Could we lose money for good here?", " Unlikely.", vw.PROCEED),
    ("Could we lose money for good here?", " Likely.", vw.REJECT),
    ("Will the borrower default?", " Doubtful.", vw.PROCEED),
    ("Is the premium for the risk enough?", " Probably.", vw.PROCEED),
    ("Is the premium for the risk enough?", " Highly unlikely.", vw.REJECT),
    ("Is the chance of a loss small?", " Yes.", vw.PROCEED),   # the noun "loss" is no fault asked about
    ("Is the premium for the risk enough?", " Ja.", vw.PROCEED),
], ids=["lose-unlikely", "lose-likely", "default-doubtful", "probably", "highly-unlikely", "noun-loss", "ja"])
def test_likelihood_answers(question: str, answer: str, want: str) -> None:
    from ipb.scoring.parse._section_reading import question_answer
    assert question_answer(question, answer, False) == want


def test_a_likelihood_sentence_after_the_facts_answers_the_section_question() -> None:
    text = ("- Is the price below value? 31 against our 47. Yes.\n"
            "- Could I lose money permanently? Net cash, no debt, a paid-up plant. Unlikely.\n")
    got = gate_verdicts(text, "marks_risk_return_assessment")
    assert vw.REJECT not in got.values() and vw.PROCEED in got.values()
