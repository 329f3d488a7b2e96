"""s41sr: Berkshire's price and price-to-book on 12 December 2012 held to the day's record (review41 SR1, SR2).

review41 (seed 9595, base berkshire_2012_within_limit) counted 200 of 1,000 items whose price over price-to-book (the
book value per class A share they imply) lay off the $111,718 Berkshire had reported at 30 September 2012, and 120
whose price lay outside the day's trading (the 11 December close $130,831; $131,000 paid; up to about $134,200).
The two recorded-day rules now read $129,000-$135,000 for the price and $110,500-$115,100 for the implied book, and
price-to-book moves by 0.01x, so a draw at a given price finds the multiples that keep the book on record (at
$131,000: 1.14x-1.18x).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from ipb.perturb import Job, generate
from ipb.perturb.recipes import parse_recipes
from perturb_support import SCENARIOS, assert_rule_case

REPURCHASE = "buffett_share_repurchase"
PRICE = "berkshire_price_of_its_recorded_day"
BOOK = "berkshire_book_value_of_its_recorded_day"

#: BUFFETT-SR-003-9ebebca18936060b (review41 share repurchase item 3), 2012-12-12.
_SR_9EBE = {"cash_and_equivalents": "$42.3B", "decision_date": "2012-12-12", "intrinsic_value_per_share": "$141.806K",
            "issuer": "berkshire_hathaway", "liquidity_reserve": "$20B", "price_per_share": "$127.626K",
            "price_to_book": "1.16x", "reinvestment_needs_funded": True, "repurchase_amount": "$1.2B",
            "repurchase_purpose": "return_value_to_continuing_owners", "shareholders_informed": True}
#: The base's facts (BUFFETT-SR-003) with the day's reserve: $131,000 at 1.16x, a value of $150,000.
_BASE = {**_SR_9EBE, "cash_and_equivalents": "$45B", "intrinsic_value_per_share": "$150K",
         "price_per_share": "$131000"}

#: (rule or rules refused in card order, facts, refused)
RULE_CASES = [
    # item 3: $127,626 (2.4% under the previous close) at 1.16x, a book of $110,022 (< $110,500): both rules
    ((PRICE, BOOK), _SR_9EBE, True),
    # item 20 (6f06650a7ea156ae): $127,168 at 1.16x, a book of $109,628: both rules
    ((PRICE, BOOK), {**_BASE, "price_per_share": "$127.168K"}, True),
    # item 4 (03b2a2e54385d0ae): $132,265 at 1.2x, a book of $110,221: the book rule alone
    (BOOK, {**_BASE, "price_per_share": "$132.265K", "price_to_book": "1.2x"}, True),
    # items 13, 14, 18: $131,000 at 1.2x, a book of $109,167
    (BOOK, {**_BASE, "price_to_book": "1.2x"}, True),
    # items 15 and 19 (0bb43f989662c870, 8554b70036b2fca0): $137,759 and $135,966 at 1.2x (books $114,799 and
    # $113,305, on record): the price rule alone
    (PRICE, {**_BASE, "price_per_share": "$137.759K", "price_to_book": "1.2x"}, True),
    (PRICE, {**_BASE, "price_per_share": "$135.966K", "price_to_book": "1.2x"}, True),
    # the price band's ends: $129,000 at 1.16x (book $111,207) and $135,000 at 1.2x (book $112,500) kept;
    # $128,999 and $135,001 refused by the price rule alone
    (PRICE, {**_BASE, "price_per_share": "$129000"}, False),
    (PRICE, {**_BASE, "price_per_share": "$135000", "price_to_book": "1.2x"}, False),
    (PRICE, {**_BASE, "price_per_share": "$128999"}, True),
    (PRICE, {**_BASE, "price_per_share": "$135001", "price_to_book": "1.2x"}, True),
    # the book band at $131,000: 1.14x ($114,912) and 1.18x ($111,017) kept, 1.19x ($110,084) and 1.13x
    # ($115,929) refused (berkshire_book_value_as_last_reported leaves the day itself to this rule)
    (BOOK, {**_BASE, "price_to_book": "1.14x"}, False),
    (BOOK, {**_BASE, "price_to_book": "1.18x"}, False),
    (BOOK, {**_BASE, "price_to_book": "1.19x"}, True),
    (BOOK, {**_BASE, "price_to_book": "1.13x"}, True),
    # item 9 (749090a07f77eb21, read OK by the reviewer): $132,234 at 1.15x, a book of $114,986: kept
    (BOOK, {**_BASE, "price_per_share": "$132.234K", "price_to_book": "1.15x"}, False),
    # the top edge at 1.16x: 1.16 x $115,100 = $133,516 kept; $133,517 refused
    (BOOK, {**_BASE, "price_per_share": "$133516"}, False),
    (BOOK, {**_BASE, "price_per_share": "$133517"}, True),
    # the day after, 2012-12-13, the price band is the year's ($110K-$140K): $137,759 at 1.2x kept
    (PRICE, {**_BASE, "decision_date": "2012-12-13", "price_per_share": "$137.759K", "price_to_book": "1.2x"},
     False),
]


@pytest.mark.parametrize("rule, facts, refused", RULE_CASES,
                         ids=[f"{'+'.join(c[0]) if isinstance(c[0], tuple) else c[0]}-"
                              f"{'refused' if c[2] else 'kept'}-{i}" for i, c in enumerate(RULE_CASES)])
def test_item_against_the_recorded_day(rule, facts, refused):
    assert_rule_case(REPURCHASE, rule, facts, refused)


def _money(text: str) -> Decimal:
    text = text.lstrip("$")
    return Decimal(text[:-1]) * 1000 if text.endswith("K") else Decimal(text)


def test_items_of_the_2012_base_keep_the_days_price_and_book():
    """review41's run, 300 items at seed 9595: every dated Berkshire item has a price in $129,000-$135,000 and a
    price over price-to-book in $110,500-$115,100, and price-to-book moves (more than the base's 1.16x)."""
    base = SCENARIOS / REPURCHASE / "berkshire_2012_within_limit.yaml"
    import json
    result = generate(Job((REPURCHASE,), str(base), 9595, parse_recipes("metric,flip,isolate")), 300)
    multiples = set()
    seen = 0
    for line in result.lines:
        facts = json.loads(line)["scenario"]["facts"]
        if facts.get("issuer") != "berkshire_hathaway" or facts.get("decision_date") != "2012-12-12":
            continue
        price = _money(facts["price_per_share"])
        assert Decimal(129000) <= price <= Decimal(135000), facts
        if "price_to_book" in facts:
            multiple = Decimal(facts["price_to_book"].rstrip("x"))
            multiples.add(multiple)
            assert Decimal(110500) <= price / multiple <= Decimal(115100), facts
        seen += 1
    assert seen > 150
    assert len(multiples) >= 3
