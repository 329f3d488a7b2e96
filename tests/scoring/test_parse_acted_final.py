"""Final verdicts in the writer's own wording (issue 13, stop 36; paper §7.5; :mod:`ipb.scoring.parse._acted`).

Hand-written closings: an act verb whose object is the company the answer repeats ("hold Pellworth", "pass on
Quarrix", "We own it"), a decision predicate as a status label's value or after the decision's object ("Status:
approved", "idea shelved", "the programme will be wound down"), a decider's reported act ("the committee approved
the second tranche"), and "should" after its subject as a duty, not an inverted condition. Each case also has its
near miss: the act on another object, a name the answer does not repeat, the investor's name, a negation, a
condition, a fact about the company ("Dividend: suspended").
"""

from __future__ import annotations

import pytest

from parse_support import GRAHAM_BODY, final_of
from ipb.scoring.parse._acted import subject_names
from ipb.scoring.parse._final import _hypothetical

GRAHAM = "graham_seven_tests_defensive"
LYNCH = "lynch_portfolio_story_review"
ALL_WEATHER = "dalio_all_weather_portfolio_construction"

#: Graham's checks on a company the closing names again (Quarrix appears once here, inside a sentence).
QUARRIX = "We looked at Quarrix Tools for the defensive investor.\n\n" + GRAHAM_BODY
LYNCH_BODY = (
    "We reviewed Pellworth Stores, which the reader has held since 2019.\n"
    "Story Broken or Fundamentals Deteriorated: PROCEED, the store roll-out is on plan.\n"
    "P/E Far Above the Growth Rate: PROCEED, 18 times earnings for 17% growth.\n"
    "A Better Opportunity: PROCEED, nothing cheaper grows faster.\n\n"
)
ALL_WEATHER_BODY = (
    "Four-Environment Asset Mapping: PROCEED, every environment has a sleeve.\n"
    "Risk Parity Balance: PROCEED, each sleeve carries about a quarter of the risk.\n"
    "Leverage to Equalise Returns: PROCEED, 1.8x on the bond sleeves.\n\n"
)

MAGIC = "greenblatt_magic_formula_screen"
MAGIC_BODY = (
    "Market-Capitalisation Floor: PROCEED, $1.1bn.\n"
    "Earnings Yield and Return on Capital: PROCEED, 12% and 40%.\n"
    "Combined Rank in the Top Group: PROCEED, 21st of 3,000.\n\n"
)
DEFENSIVE = "graham_defensive_portfolio_selection"
DEFENSIVE_BODY = (
    "Stock-Bond Allocation Within 25% to 75%: REJECT, 85% in stocks.\n"
    "High-Grade Bond Component: PROCEED, Treasuries only.\n"
    "Long Record of Continuous Dividends: PROCEED, every holding has paid for twenty years.\n\n"
)
NBIM = "nbim_gpfg_exclusion_screen"
NBIM_BODY = (
    "Mandate Investment Universe: PROCEED, listed abroad.\n"
    "Product-Based Exclusion Criteria: REJECT, the company makes cigarettes.\n\n"
)

CLOSINGS = [
    # an act on the subject, in the closing paragraph
    ("pass-on-name", QUARRIX, "The cushion is too thin: the reader should pass on Quarrix.", GRAHAM, "DECLINE"),
    ("own-it", GRAHAM_BODY, "We own it, at 5% of the portfolio.", GRAHAM, "INVEST"),
    ("own-it-negated", GRAHAM_BODY, "We don't own it, and at this price we won't.", GRAHAM, "DECLINE"),
    ("hold-name", LYNCH_BODY, "The story is intact, so she should hold Pellworth and look again in a year.", LYNCH, "HOLD"),
    ("sell-name", LYNCH_BODY, "Time to sell Pellworth and move on.", LYNCH, "SELL"),
    ("act-on-other-object", QUARRIX, "The cushion is too thin, so the reader should avoid leverage.", GRAHAM, None),
    ("act-on-unrepeated-name", GRAHAM_BODY, "Good business; the reader might buy Nettlecombe instead.", GRAHAM, None),
    ("act-on-the-investor", QUARRIX, "Readers who buy Graham should read chapter 14 first.", GRAHAM, None),
    ("hold-on-a-buy-card", QUARRIX, "For now, hold Quarrix on the watch screen.", GRAHAM, None),
    ("act-as-a-choice", LYNCH_BODY, "She could trim Pellworth or hold it; the call can wait.", LYNCH, None),
    ("act-as-a-possibility", QUARRIX, "A braver reader might buy Quarrix anyway.", GRAHAM, None),
    ("act-conditioned", QUARRIX, "If the price halves, buy Quarrix.", GRAHAM, None),
    # decision predicates
    ("status-approved", ALL_WEATHER_BODY, "Status: approved for the model portfolio.", ALL_WEATHER, "IMPLEMENT"),
    ("status-rejected", ALL_WEATHER_BODY, "Status: rejected by the risk committee.", ALL_WEATHER, "REDESIGN"),
    ("status-not-approved", ALL_WEATHER_BODY, "Status: not approved yet.", ALL_WEATHER, "REDESIGN"),
    ("fact-label-suspended", GRAHAM_BODY, "Dividend: suspended in 2020, resumed in 2022.", GRAHAM, None),
    ("idea-shelved", GRAHAM_BODY, "Nothing in the tape agrees with me. Test over, idea shelved.", GRAHAM, "DECLINE"),
    ("wound-down", GRAHAM_BODY, "The position will be wound down over the quarter.", GRAHAM, "DECLINE"),
    ("it-should-be-paused", GRAHAM_BODY, "Revised conclusion: the plan buys above value; it should be paused.", GRAHAM, "DECLINE"),
    ("predicate-not-in-closing", "The earlier idea was shelved in 2019.\n\n" + GRAHAM_BODY, "Verdict: INVEST.", GRAHAM, "INVEST"),
    ("committee-approved", GRAHAM_BODY, "The fund's investment committee approved a second tranche on Sunday.\n\nMore soon.", GRAHAM, "INVEST"),
    ("reported-act-dated", GRAHAM_BODY, "In 2019 the committee approved a first tranche.\n\nMore soon.", GRAHAM, None),
    ("i-passed-dated", GRAHAM_BODY, "I passed on it back in 2016; the price has doubled since.", GRAHAM, None),
    ("members-backed", GRAHAM_BODY, "Committee members nonetheless backed the funding.\n\nMore soon.", GRAHAM, "INVEST"),
    # the writer's decline done ("I passed"), a pass again at this price, every step passed, "it needs revising"
    ("i-passed", GRAHAM_BODY, "So: fine company, wrong price. I passed, and I'd pass again at this price.", GRAHAM, "DECLINE"),
    ("the-company-passed", GRAHAM_BODY, "Through the slump the company passed, barely, on earnings.", GRAHAM, None),
    ("passes-every-step", MAGIC_BODY, "**Verdict**\nCalloway passes every step.", MAGIC, "INVEST"),
    ("it-needs-revising", DEFENSIVE_BODY, "As it stands, it needs revising.", DEFENSIVE, "REVISE"),
    ("shares-have-been-sold", NBIM_BODY, "The ministry confirmed that the shares have been sold.", NBIM, "DIVEST"),
    ("stated-verdict-outranks-predicate", GRAHAM_BODY, "Verdict: DECLINE. The idea is shelved until the price halves.", GRAHAM, "DECLINE"),
]


@pytest.mark.parametrize(("body", "closing", "card", "expected"), [c[1:] for c in CLOSINGS], ids=[c[0] for c in CLOSINGS])
def test_final_verdicts_in_the_writers_own_wording(body: str, closing: str, card: str, expected: str | None) -> None:
    assert final_of(body, closing, card) == expected


def test_subject_names_are_repeated_inner_capitalised_words() -> None:
    text = "Marlow Foods grew. We like Marlow and Friday trading. So: buy Marlow, says Graham; Graham agrees."
    assert subject_names(text, {"graham"}) == frozenset({"Marlow"})


@pytest.mark.parametrize(
    ("words", "text", "expected"),
    [
        (["the", "student", "should"], "the student should ", False),
        (["we", "should"], "so we should ", False),
        (["should", "the", "price", "halve", "we"], "Should the price halve, we ", True),
        (["and", "should", "it", "fall"], "and should it fall ", True),
        (["if", "it", "falls", "we"], "if it falls we ", True),
    ],
)
def test_should_is_a_condition_only_when_inverted(words: list[str], text: str, expected: bool) -> None:
    assert _hypothetical(words, text) is expected
