"""A figure written to fewer places than the gold's computed value matches it when it is that
value rounded to the places written (KCCS and GRA element match, paper §7.7).

s38user (stop 38): a new user's faithful Klarman answer wrote the bad-case loss 16.6667% as
"16.7%" and lost the element (KCCS 0.833 on the item), while "33.3%" for 33.3333% passed and an
answer stating no figure at all ("a bad-case loss of some size") scored 0.900: the relative
tolerance (0.1%) was all the matcher allowed. Hand-worked: 16.6667% rounded to one decimal is
16.7%, to none 17%; 16.5% is neither. A figure of one significant digit ("3%", "3x") is not taken
for a rounding: too coarse to tell 3.2% from a neighbouring figure the parser bound to the element.
"""

import pytest

from ipb.scoring.metrics import ElementMatcher
from ipb.scoring.metrics._matching import extract_quantities

M = ElementMatcher()


@pytest.mark.parametrize(
    "gold, detected, expected",
    [
        ("bad-case loss 16.6667%", "bad-case loss 16.7%", True),  # one place: 16.6667 -> 16.7
        ("bad-case loss 16.6667%", "bad-case loss 17%", True),  # no place: 16.6667 -> 17
        ("bad-case loss 16.6667%", "bad-case loss 16.67%", True),
        ("bad-case loss 16.6667%", "bad-case loss 16.5%", False),  # 16.6667 rounds to 16.7, not 16.5
        ("bad-case loss 16.6667%", "bad-case loss 16.6%", False),
        ("portfolio loss in the bad case 2.5833%", "portfolio loss in the bad case 2.58%", True),
        ("portfolio loss in the bad case 2.5833%", "portfolio loss in the bad case 2.57%", False),
        ("2.8846x premium", "2.9x premium", True),
        ("2.8846x premium", "2.8x premium", False),
        ("price $37.5B", "price $37.5B", True),
        ("price $37.5B", "price $40B", False),  # written to the unit: 40 is not 37.5 rounded
        ("intrinsic ~$13B", "intrinsic value about $13.3B", True),  # approximate gold: 10%, as before
        ("price $25B", "price $25.4B", False),  # the gold is exact: 25.4 is a different figure
        ("intrinsic value $25B", "intrinsic value $25B", True),
        ("retention >= 90%", "retention >= 95%", False),
        ("NCAV two-thirds", "NCAV 2/3", True),  # a fraction is exact, as before
        # one significant digit is no rounding: the synthetic answer's "excess return 3%" read into
        # the omitted element must not stand for 3.2% (tests/respond/test_synthetic.py)
        ("factor-explained return 3.2%", "factor-explained return 3%", False),
        ("2.8846x premium", "3x premium", False),
    ],
)
def test_rounded_figure_matches(gold, detected, expected):
    assert M.decide(gold, detected)[0] is expected


def test_quantity_records_half_a_unit_of_its_last_place():
    q = extract_quantities("16.7%, $1.25B, 17%, 2/3, 3%, 0.05")
    assert [round(x.half_unit, 12) for x in q] == [0.0005, 5e6, 0.005, 0.0, 0.0, 0.0]
