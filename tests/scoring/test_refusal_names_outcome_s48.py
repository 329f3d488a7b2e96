"""A refusal that names the card's outcome as a verb is no verdict (s48user).

A new user's card (Einhorn's short-sale checklist, outcomes SHORT / NO_SHORT) got the refusal "As an AI language
model I am not able to recommend shorting a company." back as the final verdict SHORT: the negator stands four words
before "shorting", outside the three words the negation reads, so the answer was scored on that verdict alone and
counted in the model's coverage. The same sentence on the bundled Lynch card ("... recommend selling a stock.") read
SELL. A denied ability before a verb of advising states no verdict, like "I can't tell you to DECLINE"; a negated
recommendation ("I would not recommend selling") is still a decision (the other outcome).
"""

from __future__ import annotations

import pytest

from ipb.respond.synthetic import bundled_items, synthetic_responses
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.parse import parse_response
from ipb.scoring.run import ScoreOptions, score_responses

LYNCH = "lynch_portfolio_story_review"  # outcomes HOLD / SELL


def _final(text: str) -> str | None:
    return parse_response(text, LYNCH, embedder=False).final_verdict


@pytest.mark.parametrize("text", [
    "As an AI language model I am not able to recommend selling a stock.",
    "I am not able to recommend selling this stock.",
    "I'm not able to recommend selling the shares.",
    "I am unable to recommend selling this stock.",
    "I'm not in a position to recommend selling this stock.",
    "I am not allowed to advise selling any security.",
])
def test_a_denied_ability_to_recommend_states_no_verdict(text):
    assert _final(text) is None


@pytest.mark.parametrize("text, verdict", [
    ("I would not recommend selling this stock.", "HOLD"),  # a negated decision: the other outcome
    ("I do not recommend selling the shares.", "HOLD"),
    ("Rating: SELL.", "SELL"),
])
def test_a_negated_recommendation_is_still_a_decision(text, verdict):
    assert _final(text) == verdict


def test_the_refusal_is_unscored_and_out_of_coverage_whatever_the_gold():
    # every bundled Lynch item whose gold is SELL: before the fix the refusal was scored there with VerdictAcc 1
    items = [i for i in bundled_items([LYNCH]) if i["grp"]["investment_verdict"] == "SELL"][:1]
    assert items, "the Lynch card has a bundled item whose gold is SELL"
    [gold] = synthetic_responses(items, corruptions=["none"])
    refusal = dict(gold, model="m-refuse",
                   response="As an AI language model I am not able to recommend selling a stock.")
    options = ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=20)
    [record] = score_responses(items, [refusal], options)
    assert record["status"] == "unscored"
    assert record["reason_code"] == "refusal"
