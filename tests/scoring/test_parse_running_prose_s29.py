"""Verdicts stated in running prose with no label and no verdict word (issue 13, the n26 shape; paper §7.5).

Each test pins one general rule of how people write a verdict in news copy, forum posts, interviews and newsletters.
Every text was written for these tests (no corpus sentence); every expected reading was worked by hand against the
bundled card named beside it.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._closing import at_another_price
from tests.scoring.parse_support import GRAHAM_BODY, final_of

GRAHAM = "graham_seven_tests_defensive"  # pass INVEST, fail DECLINE


# ---------------------------------------------------------------- final: the noun "a pass" at today's price; "passed at"

DECLINES = [
    ("pass-at-this-price", "Cheap enough? Not for me. It's a pass at this price, even though the franchise is fine."),
    ("pass-at-these-levels", "Management is candid and the record is long.\n\nIt is a pass at these levels."),
    ("pass-for-now", "We like the niche.\n\nThat's a pass for now."),
    ("passed-at-figure", "We went over the numbers again, and we passed at 118."),
    ("passed-at-price", "I looked hard, and I passed at the current price."),
]


@pytest.mark.parametrize("closing", [c[1] for c in DECLINES], ids=[c[0] for c in DECLINES])
def test_a_pass_at_todays_price_is_the_decline(closing: str) -> None:
    assert final_of(GRAHAM_BODY, closing, GRAHAM) == "DECLINE"


def test_a_gate_that_passes_is_no_decline() -> None:
    # "passed" with a percentage is a score on the tests, not a price: no decline from it
    assert final_of(GRAHAM_BODY, "On the seven tests we passed at 86% of the bar.", GRAHAM) != "DECLINE"
    assert final_of(GRAHAM_BODY, "On the seven tests we passed at 86 percent of the bar.", GRAHAM) != "DECLINE"


# ---------------------------------------------------------------- final: what the writer would do at another price

def test_a_verdict_at_another_price_never_counts() -> None:
    assert final_of(GRAHAM_BODY, "So no purchase today. At 12 we would be buyers.", GRAHAM) != "INVEST"
    assert final_of(GRAHAM_BODY, "We walked away. Below $30 I'd buy it without a second thought.", GRAHAM) != "INVEST"
    assert final_of(GRAHAM_BODY, "At a lower price we'd be buyers.", GRAHAM) is None


def test_a_verdict_at_todays_price_still_counts() -> None:
    assert final_of(GRAHAM_BODY, "At 9 times earnings I'm a buyer, and I bought today.", GRAHAM) == "INVEST"


def test_at_another_price() -> None:
    t = "Under $15 we'd add more."
    assert at_another_price(t, 0, t.index("we'd"), t.index("add") + 3)
    t = "At $15 the stock is a bargain."
    assert not at_another_price(t, 0, t.index("a bargain"), len(t))
    t = "I'd buy more at $15."
    assert not at_another_price(t, 0, t.index("buy"), t.index("buy") + 3)
