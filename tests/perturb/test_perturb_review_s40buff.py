"""s40buff: general rules for the Buffett acquisition checklist's kinds of review 39 (seed 9393), issue 18 bar line 2.

Each kind holds a reviewed item (by id and facts) that its rule refuses beside a real neighbour that the rule keeps,
and the reviewer's own 1,000-item run (``ipb perturb --card buffett_acquisition_checklist --base
frameworks/scenarios/buffett_acquisition_checklist/ipb_p_011_a.yaml --n 1000 --seed 9393``) free of the kind. Real
figures are rounded to the card's steps; [M] marks a figure recalled, not looked up.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

import ipb
from ipb.engine.registry import compiled_card
from ipb.errors import IpbError
from ipb.perturb.frame import build_frame
from ipb.perturb.registries import bundled_regimes, load_regimes

from perturb_support import BUFFETT, anachronisms_of, assert_rule_case, review_run

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
    # s50rfix: the base's $0 of income past $10B also breaks a_large_subscription_business_earns_a_profit
    (("subscription_revenue_within_its_largest_vendors", "a_large_subscription_business_earns_a_profit"),
     {**_BASE, "arr": "$10.1B"}, True, "BA1 edge: $10.1B of industrial-automation software"),
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
    # BA2: an industrial manufacturer has a gross margin of at most 85%.
    ("manufacturers_keep_a_manufacturers_gross_margin",
     {**_BASE, "business_model": "industrial_manufacturing", "net_income": "-$100M", "revenue_growth": "4%",
      "ev_to_arr": "2x"}, True,
     "BA2 IPB-P-011-A-cad48258842ef6b0: an industrial manufacturer at a 90% gross margin"),
    ("manufacturers_keep_a_manufacturers_gross_margin",
     {**_BASE, "business_model": "industrial_manufacturing", "gross_margin": "86%", "revenue_growth": "4%",
      "ev_to_arr": "2x"}, True, "BA2 edge: 86%"),
    ("manufacturers_keep_a_manufacturers_gross_margin",
     {**_BASE, "business_model": "industrial_manufacturing", "arr": "$7B", "gross_margin": "83%",
      "revenue_growth": "3%", "net_income": "$2.8B", "ev_to_arr": "12x"}, False,
     "BA2 kept: Keyence, about 83% gross margin on about $7B of sales of factory sensors (gurufocus)"),
    ("manufacturers_keep_a_manufacturers_gross_margin",
     {**_BASE, "business_model": "industrial_manufacturing", "gross_margin": "85%", "revenue_growth": "4%",
      "ev_to_arr": "2x"}, False, "BA2 edge kept: 85%"),
]


@pytest.mark.parametrize("rule, facts, refused, what", RULE_CASES, ids=[c[3].split(":")[0] for c in RULE_CASES])
def test_item_against_the_rule(rule, facts, refused, what):
    assert_rule_case(BUFFETT, rule, facts, refused)


# --------------------------------------------------------------------------- BA4: the price of growth in 2024

def _anachronisms(year: int, **facts: str) -> list[str]:
    return anachronisms_of(BUFFETT, {**_BASE, **facts}, year)


#: (year, facts, refused, what): the era floor of ``multiples`` in frameworks/regimes.yaml (0.15x revenue per point
#: of growth at a 70% gross margin, 0.2x from $2B of revenue at 60%), from 2024.
BA4_CASES = [
    (2024, {"arr": "$9.9B", "gross_margin": "94%", "ev_to_arr": "3x"}, True,
     "IPB-P-011-A-b1a1c671ef9e2172: $9.9B growing 20% at 3x revenue (0.15x a point) on 30 June 2024"),
    (2024, {"gross_margin": "84%", "revenue_growth": "26%", "ev_to_arr": "3.5x"}, True,
     "IPB-P-011-A-1fbdbd0dc00445db: $2B growing 26% at 3.5x (0.13x a point)"),
    (2024, {"arr": "$7.7B", "revenue_growth": "41%", "ev_to_arr": "4.5x"}, True,
     "IPB-P-011-A-f2eae91d14147918: $7.7B growing 41% at 4.5x (0.11x a point)"),
    (2024, {"arr": "$200M", "gross_margin": "71%", "ev_to_arr": "3.5x", "net_income": "-$50M"}, False,
     "Weave, 17 May 2024: about 3.5x trailing revenue growing 20% at a 71% gross margin"),
    (2024, {"arr": "$1.3B", "gross_margin": "81%", "ev_to_arr": "3.5x"}, False,
     "BILL, 2 July 2024: about 3.6x revenue of $1.3B growing about 20%"),
    (2024, {"arr": "$200M", "gross_margin": "72%", "ev_to_arr": "3x"}, False,
     "under $2B the floor is 0.15x a point: 3x at 20% kept"),
    (2024, {"arr": "$2.5B", "gross_margin": "76%", "revenue_growth": "16%", "ev_to_arr": "4.5x"}, False,
     "Okta, 21 November 2024: about 4.6x revenue of $2.5B growing 14-16%"),
    (2024, {"sector": "enterprise_software", "arr": "$5B", "revenue_growth": "15%", "ev_to_arr": "3x"}, False,
     "the paper's Table 9 Perturbation B (ipb_p_011_b.yaml): $5B growing 15% at 3x, dated 30 June 2024"),
    (2024, {"arr": "$300M", "gross_margin": "57%", "revenue_growth": "24%", "ev_to_arr": "2.5x"}, False,
     "Olo, 19 July 2024: about 1.8x at 24% growth and a 57% gross margin (under 70%: not bounded)"),
    (2024, {"arr": "$2B", "gross_margin": "59%", "ev_to_arr": "3x"}, False,
     "a $2B vendor at a 59% gross margin: under both floors' margins"),
    (2024, {"arr": "$2B", "revenue_growth": "14%", "ev_to_arr": "2x"}, False,
     "growth under 15%: not bounded"),
    (2022, {"arr": "$200M", "gross_margin": "72%", "revenue_growth": "42%", "ev_to_arr": "4.5x",
            "revenue_retention": "119%"}, False,
     "Amplitude, December 2022: about 4.5x revenue growing 42% (before 2024: not bounded)"),
    (2025, {"arr": "$9.9B", "gross_margin": "94%", "ev_to_arr": "3x"}, True,
     "after the table's last row its floor holds: 3x at 20% for $9.9B in 2025"),
]


#: BA4 cases that a later card rule refuses too (by the case's id): the era bound is still checked on them.
_CARD_ALSO_REFUSES = {"IPB-P-011-A-f2eae91d14147918": "new_customers_supply_a_bounded_share_of_growth_at_scale"}


@pytest.mark.parametrize("year, facts, refused, what", BA4_CASES, ids=[c[3].split(":")[0] for c in BA4_CASES])
def test_subscription_price_within_the_eras_price_of_growth(year, facts, refused, what):
    # The card's own rules keep every case but one: s42rfixN's review42 R1 rule also refuses the $7.7B item growing
    # 41% at 95% retention (46 points from new customers on $5.5B of last year's revenue), and it alone.
    also = _CARD_ALSO_REFUSES.get(what.split(":")[0])
    assert_rule_case(BUFFETT, also or (), {**_BASE, **facts}, bool(also))
    found = _anachronisms(year, **facts)
    assert bool(found) == refused, found
    if refused:
        assert found[0].startswith("ev_to_arr / revenue_growth "), found
        assert "lowest price (times revenue) / revenue growth of subscription software" in found[0], found


def test_a_floor_condition_that_is_not_a_number_is_reported_at_its_position():
    from importlib import resources

    text = resources.files("ipb.frameworks").joinpath("regimes.yaml").read_text(encoding="utf-8").replace("at_least: {gross_margin: 70%,", "at_least: {gross_margin: lots,")
    with pytest.raises(IpbError) as caught:
        load_regimes(text=text)
    message = str(caught.value)
    assert "at_least: gross_margin 'lots' is not a number" in message
    line = text[:text.index("gross_margin: lots")].count("\n") + 1
    assert f":{line}:" in message, message


#: (name, applies, holds, least): a kind on the reviewer's 1,000-item run, read on at least ``least`` items.
RUN_KINDS = [
    ("BA1 industrial-automation software at most $10B",
     lambda f: f.get("business_model") == "subscription_software" and f.get("sector") == "industrial_automation",
     lambda f: _n(f["arr"]) <= Decimal("10E9"), 500),
    ("BA3 subscription software from $1.5B loses at most 60% of revenue",
     lambda f: f.get("business_model") == "subscription_software" and _n(f["arr"]) >= Decimal("1.5E9")
     and "net_income" in f,
     lambda f: _n(f["net_income"]) >= Decimal("-0.6") * _n(f["arr"]), 500),
    ("BA2 industrial manufacturers at most 85% gross margin",
     lambda f: f.get("business_model") == "industrial_manufacturing" and "gross_margin" in f,
     lambda f: _n(f["gross_margin"]) <= Decimal("0.85"), 20),
]

#: BA4 reads the date, which the typed facts do not hold: (name, applies, holds, least) over (item, facts).
_SAAS_2024 = lambda item, f: (item["scenario"].get("as_of") or "") >= "2024" and f.get("business_model") == (  # noqa: E731
    "subscription_software") and "revenue_growth" in f and _n(f["revenue_growth"]) >= Decimal("0.15")
DATED_KINDS = [
    ("BA4 at least 0.15x revenue a point of growth at a 70% gross margin, in 2024",
     lambda item, f: _SAAS_2024(item, f) and _n(f["gross_margin"]) >= Decimal("0.7"),
     lambda f: _n(f["ev_to_arr"]) >= 15 * _n(f["revenue_growth"]), 200),
    ("BA4 at least 0.2x a point from $2B of revenue at a 60% gross margin, in 2024",
     lambda item, f: _SAAS_2024(item, f) and _n(f["gross_margin"]) >= Decimal("0.6") and _n(f["arr"]) >= Decimal("2E9"),
     lambda f: _n(f["ev_to_arr"]) >= 20 * _n(f["revenue_growth"]), 200),
]


@pytest.mark.parametrize("name, applies, holds, least", RUN_KINDS, ids=[k[0].split()[0] for k in RUN_KINDS])
def test_review_run_has_none_of_the_kind(name, applies, holds, least):
    seen = 0
    for item, f in review_run(BUFFETT, "ipb_p_011_a.yaml", 9393, 1000):
        if applies(f):
            seen += 1
            assert holds(f), (name, item["id"])
    assert seen >= least, (name, seen)


@pytest.mark.parametrize("name, applies, holds, least", DATED_KINDS, ids=[k[0][:3] + str(i) for i, k in enumerate(DATED_KINDS)])
def test_review_run_has_none_of_the_dated_kind(name, applies, holds, least):
    seen = 0
    for item, f in review_run(BUFFETT, "ipb_p_011_a.yaml", 9393, 1000):
        if applies(item, f):
            seen += 1
            assert holds(f), (name, item["id"])
    assert seen >= least, (name, seen)


# --------------------------------------------------------------------------- BA6: the 2002 regime's label

@pytest.mark.parametrize("regime, label", [
    ("dotcom_bust_2002", "expansion"),  # IPB-P-011-A-9842ddde70555c9d read "recession" on 9 October 2002
    ("credit_crisis_2009", "credit_crisis"),  # neighbours keep theirs
    ("pandemic_2020", "pandemic_shock"),
    ("inflation_2022", "high_inflation"),
])
def test_regime_sets_the_nber_phase_of_its_day(regime, label):
    from ipb.perturb.operators import _regime_effect

    frame = build_frame([compiled_card(BUFFETT)])
    set_facts, _, _ = _regime_effect(frame, bundled_regimes().get(regime))
    assert set_facts["macro_regime"] == label


def test_no_card_reads_a_recession_on_9_october_2002():
    """NBER dates the recession March-November 2001: no bundled card's regime input reads "recession" there."""
    from ipb.engine.registry import bundled_card_paths
    from ipb.perturb.operators import _regime_effect

    regime = bundled_regimes().get("dotcom_bust_2002")
    read = 0
    for path in bundled_card_paths():
        frame = build_frame([compiled_card(path.stem)])
        set_facts, _, _ = _regime_effect(frame, regime)
        read += any(n in bundled_regimes().inputs for n in set_facts)
        assert "recession" not in set_facts.values(), path.stem
    assert read >= 3
