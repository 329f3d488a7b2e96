"""s45rfix: rules for s45review's kinds (issue 18: items worth publishing).

s45review (/work/notes/s45review.md, seed 10202) read 200 items, twenty from each card's fifth base, and flagged 60.
Each case below holds a reviewed item's stated facts (by id) that the new rule refuses, alone of all the card's
rules, beside neighbours at the rule's edge or from the record that no rule refuses. The numbers in each comment
are worked by hand from the facts. Sources behind each bound are in the comments above the rules in the cards.

Counts over 'ipb perturb --card C --base B --n 1000 --seed 10202' (the review's bases) with the review's counter
(/tmp/s45review/check_kinds.py, copied to /tmp/s45rfix/), before -> after, are in /work/notes/s45rfix.md.
"""

from __future__ import annotations

import pytest

from perturb_support import assert_rule_case

LYNCH = "lynch_six_category_framework"

_LYN_PB = "price_to_book_within_the_sector_when_not_battered"

#: s45review Lynch 7, IPB-LYN-SC-007-0e755e481babd6b7 (31 December 1987): $100M of debt at 54% of capital implies
#: 100 x 0.46 / 0.54 = $85.2M of book equity under a $500M market value, 5.87 times book, for a railroad.
_L7 = {"cyclical_industry": False, "debt_share": "54%", "distressed": False, "hidden_asset_value": "$50M",
       "market_cap": "$500M", "sector": "transport", "total_debt": "$100M"}

#: (card, rule, facts, refused, what)
RULE_CASES = [
    (LYNCH, _LYN_PB, _L7, True, "review Lynch 7: a railroad at 5.87 times the book its debt implies"),
    # review Lynch 18, IPB-LYN-SC-007-9b6cf33cf69aaa7a: $10M at 26% is $28.5M of book, 17.6 times
    (LYNCH, _LYN_PB, {**_L7, "debt_share": "26%", "total_debt": "$10M", "hidden_asset_value": "$520M"}, True,
     "review Lynch 18: 17.6 times book"),
    # review Lynch 14, IPB-LYN-SC-007-0cbd41a180956d76: $100M at 15% is $566.7M of book under $3.1B, 5.47 times
    (LYNCH, _LYN_PB, {**_L7, "debt_share": "15%", "market_cap": "$3.1B", "hidden_asset_value": "$4.64B"}, True,
     "review Lynch 14: a $3.1B railroad at 5.47 times book"),
    (LYNCH, _LYN_PB, {**_L7, "debt_share": "50%"}, False, "the edge: $100M at 50% is $100M of book, 5 times"),
    (LYNCH, _LYN_PB, {**_L7, "debt_share": "15%", "hidden_asset_value": "$900M"}, False,
     "the base: $566.7M of book under $500M, 0.88 times"),
    (LYNCH, _LYN_PB, {**_L7, "sector": "consumer"}, False, "a consumer brand at 5.87 times book (Coca-Cola's range)"),
    (LYNCH, _LYN_PB, {**_L7, "sector": "consumer", "debt_share": "67%"}, True,
     "a consumer brand at 10.2 times book ($100M at 67% is $49.3M)"),
    (LYNCH, _LYN_PB, {**_L7, "distressed": True}, False, "a battered company may have lost its equity"),
]


@pytest.mark.parametrize("card, rule, facts, refused, what", RULE_CASES,
                         ids=[f"{c[1]}-{'refused' if c[3] else 'kept'}-{i}" for i, c in enumerate(RULE_CASES)])
def test_each_rule_refuses_its_item_and_keeps_its_neighbour(card, rule, facts, refused, what):
    assert_rule_case(card, rule, facts, refused)
