"""s40buff: general rules for the Buffett acquisition checklist's kinds of review 39 (seed 9393), issue 18 bar line 2.

Each kind holds a reviewed item (by id and facts) that its rule refuses beside a real neighbour that the rule keeps,
and the reviewer's own 1,000-item run (``ipb perturb --card buffett_acquisition_checklist --base
frameworks/scenarios/buffett_acquisition_checklist/ipb_p_011_a.yaml --n 1000 --seed 9393``) free of the kind. Real
figures are rounded to the card's steps; [M] marks a figure recalled, not looked up.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from perturb_support import BUFFETT, assert_rule_case, review_run

#: The reviewed base, ipb_p_011_a.yaml (dated 2024-06-30).
_BASE = {"business_model": "subscription_software", "sector": "industrial_automation", "gross_margin": "90%",
         "revenue_retention": "95%", "revenue_growth": "20%", "net_income": "$0", "arr": "$2B", "ev_to_arr": "7x",
         "macro_regime": "expansion"}


def _n(value) -> Decimal:
    return Decimal(str(value))


#: (rule, facts, refused, what): a reviewed item the rule refuses (it alone), or a real neighbour every rule keeps.
RULE_CASES = [
    # BA1: subscription-software revenue within its largest vendors ($10B selling to industrial automation, $45B in
    # any industry).
    ("subscription_revenue_within_its_largest_vendors",
     {**_BASE, "arr": "$35.6B", "revenue_growth": "6%", "net_income": "$4.6B"}, True,
     "BA1 IPB-P-011-A-0859854b6bb27324: $35.6B of industrial-automation software growing 6%"),
    ("subscription_revenue_within_its_largest_vendors", {**_BASE, "arr": "$10.1B"}, True,
     "BA1 edge: $10.1B of industrial-automation software"),
    ("subscription_revenue_within_its_largest_vendors",
     {**_BASE, "arr": "$6.1B", "revenue_growth": "12%", "gross_margin": "92%", "net_income": "$1.1B", "ev_to_arr": "9x"},
     False, "BA1 kept: Autodesk, fiscal 2025, about $6.1B of revenue growing 12% at a 92% gross margin [M]"),
    ("subscription_revenue_within_its_largest_vendors", {**_BASE, "arr": "$10B"}, False,
     "BA1 edge kept: $10B of industrial-automation software"),
    ("subscription_revenue_within_its_largest_vendors",
     {**_BASE, "sector": "enterprise_software", "arr": "$37.9B", "revenue_growth": "9%", "gross_margin": "77%",
      "revenue_retention": "100%", "net_income": "$4B", "ev_to_arr": "8x"}, False,
     "BA1 kept: Salesforce, fiscal 2025, about $37.9B of revenue growing 9% at a 77% gross margin [M]"),
    ("subscription_revenue_within_its_largest_vendors",
     {**_BASE, "sector": "enterprise_software", "arr": "$45.1B", "revenue_growth": "9%", "net_income": "$4B"}, True,
     "BA1 edge: $45.1B of enterprise software, above the largest vendor's"),
    ("subscription_revenue_within_its_largest_vendors",
     {**_BASE, "business_model": "industrial_manufacturing", "arr": "$35.6B", "gross_margin": "40%",
      "revenue_growth": "6%", "net_income": "$3B", "ev_to_arr": "2.5x"}, False,
     "BA1 kept: an industrial manufacturer of Siemens' or ABB's size (other business models keep the card's $50B)"),
]


@pytest.mark.parametrize("rule, facts, refused, what", RULE_CASES, ids=[c[3].split(":")[0] for c in RULE_CASES])
def test_item_against_the_rule(rule, facts, refused, what):
    assert_rule_case(BUFFETT, rule, facts, refused)


#: (name, applies, holds, least): a kind on the reviewer's 1,000-item run, read on at least ``least`` items.
RUN_KINDS = [
    ("BA1 industrial-automation software at most $10B",
     lambda f: f.get("business_model") == "subscription_software" and f.get("sector") == "industrial_automation",
     lambda f: _n(f["arr"]) <= Decimal("10E9"), 500),
]


@pytest.mark.parametrize("name, applies, holds, least", RUN_KINDS, ids=[k[0].split()[0] for k in RUN_KINDS])
def test_review_run_has_none_of_the_kind(name, applies, holds, least):
    seen = 0
    for item, f in review_run(BUFFETT, "ipb_p_011_a.yaml", 9393, 1000):
        if applies(f):
            seen += 1
            assert holds(f), (name, item["id"])
    assert seen >= least, (name, seen)
