"""s42rfixN: review42's kinds R1 (Buffett acquisition checklist: new customers' share of growth at scale) and R16
(Marks distressed debt: an impaired class trades at a distressed spread).

review42 (/work/notes/review42.md, seed 9696) read price_equals_value, the card's last base in ls order; its items
4, 5, 9, 10, 13, 14 and 15 were subscription software at $5B growing 25-60% while existing customers paid 82-95%
of last year: 37-65 points of growth from new customers in one year. The rule
new_customers_supply_a_bounded_share_of_growth_at_scale bounds growth minus (retention - 100%) at 35 points once
last year's revenue (revenue / (1 + growth)) is $2B or more. The neighbours are the record at that size [M: the
companies' annual reports, recalled, rounded]: Zoom fiscal 2022 ($4.1B, up about 54%, a net dollar expansion near
130% for customers of more than 10 employees: about 24 points), Snowflake fiscal 2024 ($2.8B, up 36%, 131%
retention: the card's range stops at 130%), CrowdStrike fiscal 2024 ($3.06B, up 36%, near 119%) and Datadog 2024
($2.68B, up 26%, near 115%). Zoom fiscal 2021 reached $2.65B by growing 326% from $0.62B, so a small last year is
not bounded (the card's growth range stops at 60%).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from perturb_support import BUFFETT, assert_relation_on_run, assert_rule_case

_R1 = "new_customers_supply_a_bounded_share_of_growth_at_scale"
#: The Buffett review base, price_equals_value (30 June 2024), as its items state it.
_BASE = {"business_model": "subscription_software", "sector": "enterprise_software", "gross_margin": "90%",
         "revenue_retention": "95%", "revenue_growth": "25%", "net_income": "$0", "arr": "$5B", "ev_to_arr": "5x",
         "macro_regime": "expansion"}

#: (facts, refused, what): a reviewed item (refused by the rule alone) or a neighbour (kept by every rule).
RULE_CASES = [
    ({"arr": "$5.3B", "ev_to_arr": "26.5x", "macro_regime": "pandemic_shock", "revenue_growth": "60%"}, True,
     "review42 Buffett 4, IPB-P-011-E-247531e64f6ede3e: 60% at 95% retention on $5.3B (65 points)"),
    ({"management_record": "self_serving", "net_income": "$1.45B", "revenue_retention": "88%"}, True,
     "review42 Buffett 5, IPB-P-011-E-db6ec28cc5592391: 25% at 88% (37 points)"),
    ({"gross_margin": "84%", "management_record": "mixed", "revenue_retention": "86%"}, True,
     "review42 Buffett 9, IPB-P-011-E-94ecbd6117f5e030: 25% at 86% (39 points)"),
    ({"ev_to_arr": "4.5x", "macro_regime": "high_inflation", "management_record": "candid_owner_oriented",
      "revenue_growth": "39%"}, True,
     "review42 Buffett 10, IPB-P-011-E-4a6d81e31bf3d74f: 39% at 95% (44 points)"),
    ({"ev_to_arr": "22x", "macro_regime": "high_inflation", "management_record": "self_serving",
      "revenue_retention": "82%"}, True,
     "review42 Buffett 13, IPB-P-011-E-7f807b6a25519ea9: 25% at 82% (43 points)"),
    ({"ev_to_arr": "9.5x", "net_income": "-$1.9B", "revenue_growth": "41%"}, True,
     "review42 Buffett 14, IPB-P-011-E-3f2cf1afca0c3482: 41% at 95% (46 points)"),
    ({"gross_margin": "59%", "management_record": "candid_owner_oriented", "revenue_growth": "49%"}, True,
     "review42 Buffett 15, IPB-P-011-E-1501402fc3f5e937: 49% at 95% (54 points)"),
    ({}, False, "the base itself: 25% at 95% (30 points)"),
    ({"revenue_retention": "90%"}, False, "the edge: 25% at 90% (35 points)"),
    ({"revenue_retention": "89%"}, True, "just past the edge: 25% at 89% (36 points)"),
    ({"arr": "$4.1B", "revenue_growth": "54%", "revenue_retention": "130%", "ev_to_arr": "10x"}, False,
     "Zoom fiscal 2022: $4.1B up 54% near 130% (24 points)"),
    ({"arr": "$2.8B", "revenue_growth": "36%", "revenue_retention": "130%", "ev_to_arr": "15x"}, False,
     "Snowflake fiscal 2024: $2.8B up 36% at 131% (130% here: 6 points)"),
    ({"arr": "$3.1B", "revenue_growth": "36%", "revenue_retention": "119%", "ev_to_arr": "15x"}, False,
     "CrowdStrike fiscal 2024: $3.06B up 36% near 119% (17 points)"),
    ({"arr": "$2.7B", "revenue_growth": "26%", "revenue_retention": "115%", "ev_to_arr": "12x"}, False,
     "Datadog 2024: $2.68B up 26% near 115% (11 points)"),
    ({"arr": "$2.6B", "revenue_growth": "60%", "revenue_retention": "95%", "ev_to_arr": "10x"}, False,
     "last year $1.63B: not bounded (Zoom fiscal 2021 grew 326% to $2.65B)"),
    ({"arr": "$2.5B", "revenue_growth": "40%", "revenue_retention": "95%", "ev_to_arr": "10x"}, False,
     "last year $1.79B, 45 points: not bounded"),
    ({"arr": "$2.8B", "revenue_growth": "40%", "revenue_retention": "95%", "ev_to_arr": "10x"}, True,
     "last year exactly $2B, 45 points: bounded"),
    ({"business_model": "consumer_brand", "sector": "consumer", "gross_margin": "60%", "revenue_growth": "41%",
      "ev_to_arr": "4x"}, False, "another business model: not bounded"),
]


@pytest.mark.parametrize("facts, refused, what", RULE_CASES,
                         ids=[f"{'refused' if c[1] else 'kept'}-{i}" for i, c in enumerate(RULE_CASES)])
def test_item_against_the_rule(facts, refused, what):
    assert_rule_case(BUFFETT, _R1, {**_BASE, **facts}, refused)


def _bounded(f) -> bool:
    return f.get("business_model") == "subscription_software" and all(
        k in f for k in ("arr", "revenue_growth", "revenue_retention")) and Decimal(str(f["arr"])) >= (
        Decimal(2_000_000_000) * (1 + Decimal(str(f["revenue_growth"]))))


def _within(f) -> bool:
    return Decimal(str(f["revenue_growth"])) - (Decimal(str(f["revenue_retention"])) - 1) <= Decimal("0.35")


@pytest.mark.parametrize("base, seed, least", [("price_equals_value.yaml", 9696, 700),
                                               ("ipb_p_011_a.yaml", 9595, 180)])
def test_review_runs_have_no_new_customer_growth_beyond_the_bound(base, seed, least):
    """review42's run (seed 9696, last base: 107 of 1,000 items before) and review41's (seed 9595, first base):
    no subscription-software item with $2B or more of last year's revenue has more than 35 points of growth from
    new customers, read on enough items that the check cannot pass by reading none."""
    assert_relation_on_run(BUFFETT, base, seed, "R1", _bounded, _within, least)


MARKS = "marks_distressed_debt"
_M16 = "an_impaired_class_trades_at_a_distressed_spread"
#: review42 Marks 11, MARKS-DD-009-84eb3a5e08b94ec6 (on invest_moderate_process_risk), as it states its facts.
_M11 = {"class_face": "$1.69B", "legal_process_risk": "moderate", "purchase_price": "76%",
        "reorganization_value": "$1.4B", "sector": "media", "senior_claims": "$500M", "spread_to_treasuries": "7.25%",
        "stressed_value": "$1B", "years_to_resolution": "0.75"}
#: decline_bad_case_loses_money (a retailer, 31 December 2008), the card's first base, as it states its facts.
_RETAILER = {"sector": "retail", "spread_to_treasuries": "22%", "purchase_price": "45%", "class_face": "$1B",
             "senior_claims": "$500M", "reorganization_value": "$1.3B", "stressed_value": "$700M",
             "years_to_resolution": "2", "legal_process_risk": "low"}

MARKS_CASES = [
    (_M11, True, "review42 Marks 11: 7.25% at 76 while the base case pays the class 53% (the $1.4B covers $1.99B of "
                 "the $2.19B at and ahead of it)"),
    ({**_M11, "reorganization_value": "$2.18B"}, True, "just short of cover: $10M under the $2.19B of claims"),
    ({**_M11, "reorganization_value": "$2.19B"}, False,
     "the edge: the base case covers the class exactly, so 7.25% is ordinary high yield (gate 1 rejects it)"),
    ({**_M11, "spread_to_treasuries": "10%"}, False, "the same impaired class at the 1,000 bp distress line"),
    (_RETAILER, False, "the first base: 80% base-case recovery at 45 cents and 2,200 bp (December 2008)"),
    ({**_RETAILER, "purchase_price": "85%", "spread_to_treasuries": "11%"}, False,
     "the index on 23 March 2020: near 85 cents at about 1,100 bp, here an impaired class"),
    ({**_RETAILER, "purchase_price": "85%", "spread_to_treasuries": "9.5%"}, True,
     "the same at 950 bp: below the distress line with the class impaired"),
    ({**_RETAILER, "purchase_price": "65%", "spread_to_treasuries": "7%"}, True,
     "s39rules' edge of the price-spread band (65 cents at 7%) on this impaired class: now refused (the index near "
     "60 cents stood at about 2,000 bp in December 2008); test_perturb_review_s39rules keeps the edge on a covered class"),
]


@pytest.mark.parametrize("facts, refused, what", MARKS_CASES,
                         ids=[f"marks-{'refused' if c[1] else 'kept'}-{i}" for i, c in enumerate(MARKS_CASES)])
def test_marks_item_against_the_rule(facts, refused, what):
    assert_rule_case(MARKS, _M16, facts, refused)


def _impaired(f) -> bool:
    return f["reorganization_value"] < f["senior_claims"] + f["class_face"]


@pytest.mark.parametrize("base, seed, least", [("invest_moderate_process_risk.yaml", 9696, 600),
                                               ("decline_bad_case_loses_money.yaml", 9595, 500)])
def test_marks_review_runs_price_impaired_classes_as_distressed(base, seed, least):
    """review42's run (40 of 1,000 below 10% with the class impaired before) and review41's first base (62 before):
    every impaired class trades at 1,000 bp or more, read on enough items that the check cannot pass by reading
    none."""
    assert_relation_on_run(MARKS, base, seed, "R16", _impaired,
                           lambda f: f["spread_to_treasuries"] >= Decimal("0.10"), least)
