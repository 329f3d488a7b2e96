"""s42buff: the Buffett checklist's kinds review 41 left open (seed 9595), issue 18 bar line 2.

BA1 (an insurer earning nothing priced at 3-4x its premiums) and BA2 (a manufacturer losing 45-50% of its revenue
while growing 20%) are card rules; BA3 (29.5x revenue on 30 June 2024 with 78% retention) is an era bound of
``multiples`` in frameworks/regimes.yaml. Each refuses a reviewed item (by id and facts) and keeps a real neighbour,
and the reviewer's own run (``ipb perturb --card buffett_acquisition_checklist --base
frameworks/scenarios/buffett_acquisition_checklist/ipb_p_011_a.yaml --n 1000 --seed 9595``) holds none of the
kind. Real figures are rounded to the card's steps; [M] marks a figure recalled, not looked up.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

import ipb
from ipb.engine.registry import compiled_card
from ipb.perturb.frame import build_frame
from ipb.perturb.registries import bundled_regimes

from perturb_support import BUFFETT, assert_rule_case, review_run

#: The reviewed base, ipb_p_011_a.yaml (dated 2024-06-30).
_BASE = {"business_model": "subscription_software", "sector": "industrial_automation", "gross_margin": "90%",
         "revenue_retention": "95%", "revenue_growth": "20%", "net_income": "$0", "arr": "$2B", "ev_to_arr": "7x",
         "macro_regime": "expansion"}
#: An insurer as a sector move writes it (no gross margin or retention: the registry's financials profile).
_INSURER = {"business_model": "insurance", "sector": "financials", "arr": "$2B", "net_income": "$0",
            "revenue_growth": "12%", "ev_to_arr": "4x", "management_record": "mixed", "macro_regime": "expansion"}
_MAKER = {**_BASE, "business_model": "industrial_manufacturing", "gross_margin": "75%", "ev_to_arr": "3.5x"}

_INSURE = "a_large_insurer_earning_nothing_is_priced_near_its_premiums"
_MAKE = "a_large_manufacturer_loses_deeply_only_while_it_grows_fast"

#: (rule, facts, refused, what): a reviewed item the rule refuses (it alone), or a neighbour every rule keeps.
RULE_CASES = [
    (_INSURE, _INSURER, True,
     "BA1 IPB-P-011-A-9456c88b7ef7b90f: an insurer with $2B of premiums and no net income offered at 4x them"),
    (_INSURE, {**_INSURER, "ev_to_arr": "3x", "revenue_growth": "4%"}, True,
     "BA1 IPB-P-011-A-f487c445ff36ea97: the same at 3x"),
    (_INSURE, {**_INSURER, "ev_to_arr": "2.5x"}, False, "BA1 edge kept: 2.5x"),
    (_INSURE, {**_INSURER, "net_income": "-$100M", "ev_to_arr": "2.5x"}, False, "BA1 edge kept: a loss at 2.5x"),
    (_INSURE, {**_INSURER, "arr": "$1.6B", "net_income": "$400M", "revenue_growth": "19%"}, False,
     "BA1 kept: Kinsale, 2024, $414.8M on about $1.6B of revenue, about 6.8x (the card's 4x here)"),
    (_INSURE, {**_INSURER, "arr": "$500M", "net_income": "-$200M", "revenue_growth": "22%"}, False,
     "BA1 kept: Lemonade, 2024, -$202M on $527M of revenue at about 5-6x (the card's 4x here; under $1B)"),
    (_INSURE, {**_INSURER, "arr": "$1B", "net_income": "-$50M", "ev_to_arr": "3x"}, True,
     "BA1 edge: $1B of premiums at a loss, 3x"),
    (_MAKE, {**_MAKER, "net_income": "-$900M", "revenue_growth": "24%"}, True,
     "BA2 IPB-P-011-A-1f492e502fe6d859: a manufacturer losing $900M on $2B while growing 24%"),
    (_MAKE, {**_MAKER, "net_income": "-$950M", "gross_margin": "67%", "ev_to_arr": "3x"}, True,
     "BA2 IPB-P-011-A-4fc06b83a71178c7: -$950M on $2B growing 20%"),
    (_MAKE, {**_MAKER, "net_income": "-$800M"}, False, "BA2 edge kept: -40% at 20% growth"),
    (_MAKE, {**_MAKER, "net_income": "-$900M", "revenue_growth": "40%", "ev_to_arr": "4x"}, False,
     "BA2 kept: a start-up manufacturer growing 40% or more (Rivian's 2022 kind) [M]"),
    (_MAKE, {**_MAKER, "arr": "$1.4B", "net_income": "-$1B"}, False,
     "BA2 kept: under $1.5B of revenue the card's loss the size of revenue holds"),
    (_MAKE, {**_BASE, "sector": "enterprise_software", "arr": "$2.7B", "net_income": "-$1.35B",
             "revenue_growth": "20%", "gross_margin": "71%", "revenue_retention": "115%"}, False,
     "BA2 kept: Splunk, fiscal 2022, $2.67B of revenue up 20% (its release), a loss near $1.34B [M]: software"),
]


@pytest.mark.parametrize("rule, facts, refused, what", RULE_CASES, ids=[c[3].split(":")[0] for c in RULE_CASES])
def test_item_against_the_rule(rule, facts, refused, what):
    assert_rule_case(BUFFETT, rule, facts, refused)


# --------------------------------------------------------------------------- BA3: revenue multiple and retention

def _anachronisms(when: int | dt.date, **facts: str) -> list[str]:
    frame = build_frame([compiled_card(BUFFETT)])
    return bundled_regimes().anachronisms(frame.inputs, ipb.facts(BUFFETT, {**_BASE, **facts}), when)


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
    """The reviewer's run (seed 9595): no large insurer earning nothing above 2.5x, no manufacturer of $1.5B or more
    losing over 40% while growing under 40%, no item dated mid-2024 above 25x per unit of retention; each kind
    read on enough items that it cannot pass by reading none."""
    seen = {"BA1": 0, "BA2": 0, "BA3": 0}
    for item, f in review_run(BUFFETT, "ipb_p_011_a.yaml", 9595, 1000):
        if f.get("business_model") == "insurance" and _n(f["arr"]) >= Decimal("1E9") and "net_income" in f:
            seen["BA1"] += 1
            assert _n(f["net_income"]) > 0 or _n(f["ev_to_arr"]) <= Decimal("2.5"), item["id"]
        if f.get("business_model") == "industrial_manufacturing" and _n(f["arr"]) >= Decimal("1.5E9"):
            seen["BA2"] += 1
            assert (_n(f["net_income"]) >= Decimal("-0.4") * _n(f["arr"])
                    or _n(f["revenue_growth"]) >= Decimal("0.4")), item["id"]
        as_of = item["scenario"].get("as_of") or ""
        if "2024-01-01" <= as_of < "2024-09-01" and "revenue_retention" in f and "ev_to_arr" in f:
            seen["BA3"] += 1
            assert _n(f["ev_to_arr"]) <= 25 * _n(f["revenue_retention"]), item["id"]
    assert seen["BA1"] >= 3 and seen["BA2"] >= 100 and seen["BA3"] >= 500, seen  # 4, 182 and 748 on this tree
