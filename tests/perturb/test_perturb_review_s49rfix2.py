"""s49rfix2: s49review's kinds on the cards other than the acquisition checklist and Graham's (issue 18).

Counts over 'ipb perturb --card C --base B --n 1000 --seed 10606' before -> after (the bases s49review read,
/tmp/s49review/bases.txt) are in /work/notes/s49rfix2.md. Each test below fails without its fix (checked by putting
the previous file back).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

import ipb
from ipb.engine.card import constraint_errors
from ipb.engine.execute import format_value
from ipb.engine.registry import compiled_card
from perturb_support import anachronisms_of, assert_rule_case

REPURCHASE = "buffett_share_repurchase"


# --------------------------------------------------------------------------- SR11 (wording): money in thousands
#
# s49review SR11 (78 of 1,000 items): BUFFETT-SR-005-0ec4247a9f137026's question says "The price per share is $1,107.
# The conservatively calculated intrinsic value per share is $2,399." while its gold gate 2 required "price $1.107K"
# and "intrinsic value $2.399K". An amount from $1,000 to under $1M is now written in full, as the question writes it.

_SR6 = {"cash_and_equivalents": "$3B", "decision_date": "2016-09-30", "intrinsic_value_per_share": "$2399",
        "issuer": "other_company", "price_per_share": "$1107", "repurchase_amount": "$1B",
        "repurchase_purpose": "return_value_to_continuing_owners", "shareholders_informed": True}


def test_gold_elements_write_a_share_price_in_thousands_as_the_question_does():
    gates = ipb.execute(REPURCHASE, _SR6).to_grp()["gold_program"]
    gate2 = next(g for g in gates if g["gate"] == 2)
    # 1107 / 2399 = 0.461442... (by hand: 2399 x 0.4614 = 1106.90, 2399 x 0.4615 = 1107.14)
    assert gate2["required_elements"] == ["price $1,107", "intrinsic value $2,399", "price/value 0.4614x"]
    assert gate2["verdict"] == "PROCEED"


@pytest.mark.parametrize("value, text", [
    ("1000", "$1,000"),
    ("1107", "$1,107"),
    ("-2500", "-$2,500"),
    ("324001", "$324,001"),
    ("12500.5", "$12,500.50"),
    ("118402", "$118,402"),
    ("999", "$999"),          # under $1,000: as before
    ("1000000", "$1M"),       # from $1M: as before
    ("1250000", "$1.25M"),
])
def test_money_under_a_million_is_written_in_full(value, text):
    assert format_value(Decimal(value), "money") == text

