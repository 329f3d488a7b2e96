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
    # BA3: a subscription-software business with $1.5B of revenue or more loses at most 60% of it.
    ("subscription_losses_within_the_record_for_their_size",
     {**_BASE, "net_income": "-$1.6B", "ev_to_arr": "3.5x"}, True,
     "BA3 IPB-P-011-A-c5f2fef8c7af293e: -$1.6B on $2B of revenue growing 20% at a 90% gross margin"),
    ("subscription_losses_within_the_record_for_their_size", {**_BASE, "arr": "$1.5B", "net_income": "-$950M"}, True,
     "BA3 edge: -$950M on $1.5B (63%)"),
    ("subscription_losses_within_the_record_for_their_size", {**_BASE, "arr": "$1.5B", "net_income": "-$900M"}, False,
     "BA3 edge kept: -$900M on $1.5B (60%)"),
    ("subscription_losses_within_the_record_for_their_size",
     {**_BASE, "sector": "enterprise_software", "arr": "$2.7B", "net_income": "-$1.35B", "revenue_growth": "19%",
      "gross_margin": "71%", "revenue_retention": "115%"}, False,
     "BA3 kept: Splunk, fiscal 2022, about -$1.34B on $2.67B of revenue growing 19% [M]"),
    ("subscription_losses_within_the_record_for_their_size",
     {**_BASE, "sector": "enterprise_software", "arr": "$1.4B", "net_income": "-$1.05B", "revenue_growth": "6%",
      "gross_margin": "79%", "revenue_retention": "100%"}, False,
     "BA3 kept: Nutanix, fiscal 2021, about -$1.03B on $1.39B of revenue at a 79% gross margin [M]"),
    ("subscription_losses_within_the_record_for_their_size",
     {**_BASE, "business_model": "industrial_manufacturing", "gross_margin": "40%", "net_income": "-$1.6B",
      "revenue_growth": "4%", "ev_to_arr": "1.5x"}, False,
     "BA3 kept: other business models keep the card's loss the size of revenue"),
]


@pytest.mark.parametrize("rule, facts, refused, what", RULE_CASES, ids=[c[3].split(":")[0] for c in RULE_CASES])
def test_item_against_the_rule(rule, facts, refused, what):
    assert_rule_case(BUFFETT, rule, facts, refused)


#: (name, applies, holds, least): a kind on the reviewer's 1,000-item run, read on at least ``least`` items.
RUN_KINDS = [
    ("BA1 industrial-automation software at most $10B",
     lambda f: f.get("business_model") == "subscription_software" and f.get("sector") == "industrial_automation",
     lambda f: _n(f["arr"]) <= Decimal("10E9"), 500),
    ("BA3 subscription software from $1.5B loses at most 60% of revenue",
     lambda f: f.get("business_model") == "subscription_software" and _n(f["arr"]) >= Decimal("1.5E9")
     and "net_income" in f,
     lambda f: _n(f["net_income"]) >= Decimal("-0.6") * _n(f["arr"]), 500),
]


@pytest.mark.parametrize("name, applies, holds, least", RUN_KINDS, ids=[k[0].split()[0] for k in RUN_KINDS])
def test_review_run_has_none_of_the_kind(name, applies, holds, least):
    seen = 0
    for item, f in review_run(BUFFETT, "ipb_p_011_a.yaml", 9393, 1000):
        if applies(f):
            seen += 1
            assert holds(f), (name, item["id"])
    assert seen >= least, (name, seen)
