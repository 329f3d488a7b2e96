"""Regression (contradiction): the one kind the s37review2 read found (issue 18, bar line 2; seed 9191).

C #77 #161 #186 (``/work/notes/s37review2.md``): Berkshire at $305,000 a class A share on 2019-08-30 with a
price-to-book of 1.25x or 1.45x. The book value those imply (price / P/B: $244,000, $210,345) is not the $233,977
per A share Berkshire had last reported (30 June 2019, 10-Q filed 3 August), which gives 1.30x. The card's year
bands (10%) kept them; the rule ``berkshire_book_value_as_last_reported`` holds price / P/B within 3% of the book
value last reported before the decision wherever that figure is on record (card comment, s37fix2 block).

Each case names the one rule that refuses the facts, or none for a kept neighbour; bounds are worked at the case.
"""

from __future__ import annotations

import json

import pytest

from ipb.perturb import Job, generate
from ipb.perturb.recipes import parse_recipes
from perturb_support import SCENARIOS, assert_rule_case

REPURCHASE = "buffett_share_repurchase"
RULE = "berkshire_book_value_as_last_reported"
_AUG = {"issuer": "berkshire_hathaway", "decision_date": "2019-08-30", "price_per_share": "$305000"}

#: (facts, refused): refused True = RULE (and only it) refuses the facts; False = no rule does.
CASES = [
    # $233,977 from 2019-08-05, 3% either side rounded outwards to $100: $226,900-$241,000 a share.
    # C #77 / #161: $305,000 / 1.25 = $244,000 > $241,000, refused (year band $210K-$260K kept it)
    ({**_AUG, "price_to_book": "1.25x"}, True),
    # C #186: $305,000 / 1.45 = $210,345 < $226,900, refused (year band: $210,000 x 1.45 = $304,500 <= $305,000)
    ({**_AUG, "price_to_book": "1.45x"}, True),
    # the review's 1.35x (seven items): $305,000 / 1.35 = $225,926 < $226,900, refused
    ({**_AUG, "price_to_book": "1.35x"}, True),
    # neighbour at the reported book: $305,000 / 1.30 = $234,615 (0.3% above $233,977), kept
    ({**_AUG, "price_to_book": "1.30x"}, False),
    # the top end: $301,250 / 1.25 = $241,000 exactly, kept
    ({**_AUG, "price_per_share": "$301250", "price_to_book": "1.25x"}, False),
    # before the Q2 10-Q was read (2019-08-02) the last figure is $224,950 at 31 March 2019: $218,200-$231,700.
    # $305,000 / 1.35 = $225,926 kept there; $305,000 / 1.30 = $234,615 refused
    ({**_AUG, "decision_date": "2019-08-02", "price_to_book": "1.35x"}, False),
    ({**_AUG, "decision_date": "2019-08-02", "price_to_book": "1.30x"}, True),
    # the bundled 2012 base: $131,000 / 1.16 = $112,931 against $111,718 (30 Sep 2012), kept
    ({"issuer": "berkshire_hathaway", "decision_date": "2012-12-12", "price_per_share": "$131000",
      "price_to_book": "1.16x"}, False),
    # the bundled 2014 base: $190,000 / 1.45 = $131,034 on 2014-06-30, a window whose figure (31 March 2014) is not
    # on record here: the rule is silent, kept
    ({"issuer": "berkshire_hathaway", "decision_date": "2014-06-30", "price_per_share": "$190000",
      "price_to_book": "1.45x"}, False),
    # another company at the same date and ratio is not Berkshire's record, kept
    ({**_AUG, "issuer": "other_company", "price_per_share": "$305", "price_to_book": "1.25x"}, False),
]


@pytest.mark.parametrize("facts, refused", CASES,
                         ids=[f"{'refused' if c[1] else 'kept'}-{i}" for i, c in enumerate(CASES)])
def test_the_rule_refuses_the_review_items_and_keeps_the_neighbours(facts, refused):
    assert_rule_case(REPURCHASE, RULE, facts, refused)


def _amount(text: str) -> float:
    text = str(text).replace("$", "").replace(",", "").rstrip("x")
    scale = {"K": 1e3, "M": 1e6, "B": 1e9}.get(text[-1], 1)
    return float(text[:-1]) * scale if scale != 1 else float(text)


def test_generated_2019_items_state_a_ratio_to_the_reported_book():
    """The reviewed base (berkshire_2019_below_value), seed 9191: every Berkshire item stating both price and
    price-to-book implies a book value within 3% of $233,977 (the review's file: 27 of 36 outside), and some do."""
    base = SCENARIOS / REPURCHASE / "berkshire_2019_below_value.yaml"
    result = generate(Job((REPURCHASE,), str(base), 9191, parse_recipes("flip,isolate")), 60, allow_short=True)
    stated = 0
    for line in result.lines:
        facts = json.loads(line)["scenario"]["facts"]
        if facts.get("issuer") != "berkshire_hathaway" or facts.get("price_to_book") is None:
            continue
        stated += 1
        book = _amount(facts["price_per_share"]) / _amount(facts["price_to_book"])
        assert abs(book / 233977 - 1) <= 0.03, facts
    assert stated > 0
