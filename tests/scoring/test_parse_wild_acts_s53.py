"""Final verdicts stated as the writer's acts and as the case called a buy by name (s53wild, issue 13 "final verdicts in
the wild"; paper §7.5).

Kinds of final verdict the wild analyses of corpus half (b) state and the parser missed, each a rule a careful reader
states (:mod:`ipb.scoring.parse._decided`, :mod:`ipb.scoring.parse._final_words`):

* the decider, a first act and "and" / "but", then the refused one: "I am keeping what I own and not adding at this
  price" declines to buy more (was read only with the decider right before "not adding");
* money kept out of the case: "no new money goes into it", "we are not putting fresh money into the shares";
* a draft or plan returned for the card's outcome: "the draft goes back for redesign", "goes back to be redesigned",
  "was sent back for redesign" (the lower-case outcome word after it is the decision, as after "the deal is");
* the case called a buy by its name: "By the checklist, Harlow Foods is a buy." (as "this is a buy").

Conditions ("If ...") and other people's sayings stay no verdict. Every text here is written for this file; each
expected reading is worked by hand in its comment.
"""

from __future__ import annotations

import pytest

from ipb.engine.registry import compiled_card
from ipb.scoring.parse import parse_response

#: munger_business_quality_price: outcomes INVEST (pass) / DECLINE (fail).
MUNGER = "munger_business_quality_price"
#: dalio_all_weather_portfolio_construction: outcomes IMPLEMENT (pass) / REDESIGN (fail).
ALL_WEATHER = "dalio_all_weather_portfolio_construction"
#: lynch_six_category_framework: outcomes INVEST / DECLINE.
LYNCH = "lynch_six_category_framework"


def _final(card_id: str, text: str) -> str | None:
    return parse_response(text, compiled_card(card_id).card, embedder=False).final_verdict


@pytest.mark.parametrize("text, expected", [
    # the decider opens the sentence; "and not adding" refuses more shares: the fail outcome
    ("Quillon is a fine business. I am keeping what I own and not adding at this price.", "DECLINE"),
    ("We hold the shares we have but are not adding at these levels.", "DECLINE"),
    # no decider: an analyst's coverage, not the writer's money
    ("The analyst is keeping the rating and not adding coverage.", None),
])
def test_a_refused_act_after_the_deciders_first_act(text, expected):
    assert _final(MUNGER, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Conclusion: Quillon stays in the book, but no new money goes into it this year.", "DECLINE"),
    ("We are not putting fresh money into the shares.", "DECLINE"),
    # a condition: no decision today
    ("If the price falls, no new money goes into it.", None),
])
def test_money_kept_out_of_the_case_is_the_fail_outcome(text, expected):
    assert _final(MUNGER, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Two of the three legs work, so the Brisk draft goes back for redesign.", "REDESIGN"),
    ("The Brisk draft goes back to be redesigned, with a smaller levered sleeve.", "REDESIGN"),  # the inflected outcome
    ("The draft was sent back for redesign.", "REDESIGN"),
    ("The draft went back to the committee for redesign.", "REDESIGN"),
    # a condition, and a return dated in the past, decide nothing today
    ("If the carry turns negative, the draft goes back for redesign.", None),
    ("The old plan was sent back to be redesigned in 2019.", None),
])
def test_a_draft_returned_for_the_outcome_is_the_decision(text, expected):
    assert _final(ALL_WEATHER, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("By the checklist, Harlow Foods is a buy.", "INVEST"),
    ("Harlow Foods is a buy.", "INVEST"),
    # another person's saying, a condition, a compound noun: no verdict
    ("Everyone says Harlow Foods is a buy.", None),
    ("If the price halves, Harlow Foods is a buy.", None),
    ("What Harlow Foods is a buy signal for, nobody knows.", None),
])
def test_the_case_called_a_buy_by_name(text, expected):
    assert _final(LYNCH, text) == expected
