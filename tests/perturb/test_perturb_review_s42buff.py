"""s42buff: the Buffett checklist's kinds review 41 left open (seed 9595), issue 18 bar line 2.

BA3 (29.5x revenue on 30 June 2024 with 78% retention) is an era bound of ``multiples`` in frameworks/regimes.yaml:
it refuses the reviewed items (by id and facts) and keeps the real neighbours, and the reviewer's own run (``ipb
perturb --card buffett_acquisition_checklist --base frameworks/scenarios/buffett_acquisition_checklist/ipb_p_011_a.yaml
--n 1000 --seed 9595``) holds none of the kind. BA1 and BA2 have no rule (s42buff's report): an insurer's price
drawn by a sector move does not read the card's rules (test_perturb_coherence), and the record refutes a 40% loss
bound for software (Splunk) while the manufacturers' part contradicts test_perturb_review_s40buff's kept row. Real
figures are rounded to the card's steps; [M] marks a figure recalled, not looked up.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from perturb_support import BUFFETT, anachronisms_of, assert_rule_case, review_run

#: The reviewed base, ipb_p_011_a.yaml (dated 2024-06-30).
_BASE = {"business_model": "subscription_software", "sector": "industrial_automation", "gross_margin": "90%",
         "revenue_retention": "95%", "revenue_growth": "20%", "net_income": "$0", "arr": "$2B", "ev_to_arr": "7x",
         "macro_regime": "expansion"}


# --------------------------------------------------------------------------- BA3: revenue multiple and retention

def _anachronisms(when: int | dt.date, **facts: str) -> list[str]:
    return anachronisms_of(BUFFETT, {**_BASE, **facts}, when)


_MID_2024 = dt.date(2024, 6, 30)

#: (when, facts, refused, what): the bound of 25 times the revenue multiple per unit of retention, 2024 to August.
BA3_CASES = [
    (_MID_2024, {"ev_to_arr": "29.5x", "revenue_retention": "78%", "net_income": "$100M"}, True,
     "IPB-P-011-A-14a9f294db35f29d: 29.5x with 78% retention on 30 June 2024"),
    (_MID_2024, {"ev_to_arr": "26.5x"}, True, "IPB-P-011-A-a74110f2af5369d8: 26.5x with 95% retention"),
    (_MID_2024, {"ev_to_arr": "24x"}, True, "edge: 24x at 95% (25.3 a unit)"),
    (_MID_2024, {"ev_to_arr": "23.5x"}, False, "edge kept: 23.5x at 95% (24.7 a unit)"),
    (_MID_2024, {"sector": "enterprise_software", "arr": "$2.3B", "ev_to_arr": "22.5x", "revenue_growth": "27%",
                 "gross_margin": "81%", "revenue_retention": "107%", "net_income": "$400M"}, False,
     "Palantir, 28 June 2024: about 22.5x trailing revenue growing 27% at an 81% gross margin, retention 107%+"),
    (_MID_2024, {"sector": "enterprise_software", "arr": "$3.3B", "ev_to_arr": "27x", "revenue_growth": "33%",
                 "gross_margin": "75%", "revenue_retention": "119%", "net_income": "$100M"}, False,
     "CrowdStrike, early July 2024: about 27x at about 119% retention [M]"),
    (dt.date(2024, 9, 30), {"ev_to_arr": "29.5x", "revenue_retention": "78%"}, False,
     "from September 2024 the bound is lifted (Palantir above 30x)"),
    (dt.date(2023, 6, 30), {"ev_to_arr": "29.5x", "revenue_retention": "78%"}, False, "before 2024: not bounded"),
]


@pytest.mark.parametrize("when, facts, refused, what", BA3_CASES, ids=[c[3].split(":")[0] for c in BA3_CASES])
def test_revenue_multiple_within_mid_2024s_price_of_retention(when, facts, refused, what):
    assert_rule_case(BUFFETT, (), {**_BASE, **facts}, False)  # the card's own rules keep every case
    found = _anachronisms(when, **facts)
    assert bool(found) == refused, found
    if refused:
        assert found[0].startswith("ev_to_arr / revenue_retention "), found
        assert "above the highest price (times revenue) / net revenue retention in mid-2024" in found[0], found


def _n(value) -> Decimal:
    return Decimal(str(value))


def test_review_run_has_none_of_the_kinds():
    """The reviewer's run (seed 9595): no item dated 2024 before September above 25x per unit of retention,
    read on enough items that it cannot pass by reading none."""
    seen = {"BA3": 0}
    for item, f in review_run(BUFFETT, "ipb_p_011_a.yaml", 9595, 1000):
        as_of = item["scenario"].get("as_of") or ""
        if "2024-01-01" <= as_of < "2024-09-01" and "revenue_retention" in f and "ev_to_arr" in f:
            seen["BA3"] += 1
            assert _n(f["ev_to_arr"]) <= 25 * _n(f["revenue_retention"]), item["id"]
    assert seen["BA3"] >= 500, seen
