"""s41items: rules for review40's kinds left open (seed 9494), issue 18 bar line 2.

Each kind holds an item the reviewer read (by id, with its facts) that its rule refuses, beside a real neighbour from
the record that no rule refuses (``ipb check``, ``ipb verify`` and generation read the same constraints).
"""

from __future__ import annotations

import pytest

from perturb_support import assert_rule_case

REPURCHASE = "buffett_share_repurchase"

#: BUFFETT-SR-003-ed11deb05118422d (review40 share repurchase item 12), 2012-12-12.
_BRK_ED11 = {"cash_and_equivalents": "$45B", "decision_date": "2012-12-12", "intrinsic_value_per_share": "$118.402K",
             "issuer": "berkshire_hathaway", "liquidity_reserve": "$20.22B", "price_per_share": "$131K",
             "price_to_book": "1.16x", "reinvestment_needs_funded": True, "repurchase_amount": "$1.2B",
             "repurchase_purpose": "return_value_to_continuing_owners", "shareholders_informed": False}
#: Berkshire on 15 December 2011, under the 110% limit of 26 September 2011 (book $95,453 at the end of 2010).
_BRK_2011 = {**_BRK_ED11, "decision_date": "2011-12-15", "price_per_share": "$115K", "price_to_book": "1.2x"}

#: (card, rule, facts, refused): a reviewed item refused by the rule alone, or a neighbour kept by every rule.
RULE_CASES = [
    # SR1: a value of $118,402 at $131,000 and 1.16x on 12 December 2012, the day the limit rose to 120% of book
    # (refused); the base's $150,000, 1.34x the Wall Street Journal's $111,718 of book and 1.30x the day band's top
    # $115,100 (kept: the 2016 letter's "significant discount" at 120%); the edge 1.2 x $115,100 = $138,120 (kept)
    # and $138,119 (refused).
    (REPURCHASE, "berkshire_value_at_least_its_buyback_limit", _BRK_ED11, True),
    (REPURCHASE, "berkshire_value_at_least_its_buyback_limit", {**_BRK_ED11, "intrinsic_value_per_share": "$150K"},
     False),
    (REPURCHASE, "berkshire_value_at_least_its_buyback_limit", {**_BRK_ED11, "intrinsic_value_per_share": "$138120"},
     False),
    (REPURCHASE, "berkshire_value_at_least_its_buyback_limit", {**_BRK_ED11, "intrinsic_value_per_share": "$138119"},
     True),
    # under the 110% limit: 1.1 x $95,453 = $104,998.30, so $105,000 kept and $101,000 refused
    (REPURCHASE, "berkshire_value_at_least_its_buyback_limit", {**_BRK_2011, "intrinsic_value_per_share": "$105K"},
     False),
    (REPURCHASE, "berkshire_value_at_least_its_buyback_limit", {**_BRK_2011, "intrinsic_value_per_share": "$101K"},
     True),
    # the bundled 2014 base (30 June 2014, $190,000 at 1.45x, value $230,000: 1.2 x $134,973 is $161,968) kept, and
    # $160,000 there refused
    (REPURCHASE, "berkshire_value_at_least_its_buyback_limit",
     {**_BRK_ED11, "decision_date": "2014-06-30", "price_per_share": "$190K", "price_to_book": "1.45x",
      "cash_and_equivalents": "$55B", "intrinsic_value_per_share": "$230K"}, False),
    (REPURCHASE, "berkshire_value_at_least_its_buyback_limit",
     {**_BRK_ED11, "decision_date": "2014-06-30", "price_per_share": "$190K", "price_to_book": "1.45x",
      "cash_and_equivalents": "$55B", "intrinsic_value_per_share": "$160K"}, True),
]


@pytest.mark.parametrize("card_id, rule, facts, refused", RULE_CASES,
                         ids=[f"{c[1]}-{'refused' if c[3] else 'kept'}-{i}" for i, c in enumerate(RULE_CASES)])
def test_item_against_the_rule(card_id, rule, facts, refused):
    assert_rule_case(card_id, rule, facts, refused)
