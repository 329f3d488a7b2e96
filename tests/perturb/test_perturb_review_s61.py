"""s61review (issue 18 bar line 2): the findings of the seed-61 review fixed at their root, each reviewed item refused
with the exact rule beside a kept neighbour (worked by hand), and the questions read as the reviewer asked.

The review: /work/notes/REVIEW_s61.md (ten bundled cards and one L8 set, 20 items of 200 drawn with
``random.Random(61).sample``, ``ipb perturb --n 200 --seed 61`` with no ``--ops`` on each card's first base).

Regression kinds: a business with no owner earnings priced at hundreds of billions (Munger, F3); a category value
read without its article (Klarman, F5).
"""

from __future__ import annotations

import pytest

from ipb.perturb import build_frame
from ipb.perturb.frame import base_from_facts
from ipb.perturb.render import render_question

from perturb_support import assert_rule_case

MUNGER = "munger_business_quality_price"
KLARMAN = "klarman_deep_value_identification"

_MUN = "a_business_without_owner_earnings_is_priced_at_most_250_billion"

#: F3, MUNGER-QP-003-4938c3a912027b93 (undated, fair_business_wonderful_price base).
_M14 = {"understandable": True, "return_on_capital": "6%", "competitive_advantage": "eroding",
        "management_integrity": "trustworthy", "incentives_aligned": True, "owner_earnings": "-$810M",
        "market_value": "$476.9B", "long_run_growth": "0%"}

#: (card, rule, facts, refused, what)
RULE_CASES = [
    # F3: with owner earnings at or below zero, the price is at most $250B
    (MUNGER, _MUN, _M14, True, "the reviewed item: -$810M of owner earnings priced at $476.9B"),
    (MUNGER, _MUN, {**_M14, "market_value": "$250.1B"}, True, "$100M past the bound"),
    (MUNGER, _MUN, {**_M14, "market_value": "$250B"}, False, "the edge: $250B"),
    (MUNGER, _MUN, {**_M14, "owner_earnings": "$0", "market_value": "$251B"}, True, "nothing for the owners"),
    (MUNGER, _MUN, {**_M14, "owner_earnings": "$20B", "market_value": "$380B"}, False,
     "positive owner earnings: the price rules by multiple apply instead (19x, no growth: within 20x)"),
]


@pytest.mark.parametrize("card, rule, facts, refused, what", RULE_CASES,
                         ids=[f"{c[1][:40]}-{'refused' if c[3] else 'kept'}-{i}" for i, c in enumerate(RULE_CASES)])
def test_each_rule_refuses_its_item_and_keeps_its_neighbour(card, rule, facts, refused, what):
    assert_rule_case(card, rule, facts, refused)


# --- F5: Klarman's mispricing sources read with their article -----------------------------------------------------

@pytest.mark.parametrize("value, sentence", [
    ("spinoff", "The mispricing source is a spinoff."),
    ("institutional_constraint", "The mispricing source is an institutional constraint."),
    ("bankruptcy_or_restructuring", "The mispricing source is a bankruptcy or restructuring."),
    ("out_of_favor", "The mispricing source is the security being out of favor."),
    ("complexity_or_neglect", "The mispricing source is complexity or neglect."),  # unchanged, a mass noun
    ("forced_selling", "The mispricing source is forced selling."),
    ("none_identified", "The mispricing source is not identified."),
])
def test_klarman_mispricing_sources_read_as_english(value, sentence):
    frame = build_frame([KLARMAN])
    question = render_question(frame, base_from_facts(frame, {"mispricing_source": value}))
    assert sentence in question, question
