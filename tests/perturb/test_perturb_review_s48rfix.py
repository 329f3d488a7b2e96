"""s48rfix: the acquisition checklist's kinds of stop 47's review (issue 18), left by s47rfix2 for the byte pins.

s47review (/work/notes/s47review_kinds.md) read twenty items of 'ipb perturb --card buffett_acquisition_checklist
--base .../ipb_p_011_base.yaml --n 1000 --seed 10404'. Each case holds a reviewed item's stated facts (by id) that the
new rule refuses, alone of the card's rules, beside neighbours at the rule's edge or from the record that it keeps.
The numbers in each comment are worked by hand from the facts; the sources are in the comment above the rule in the
card. Counts before -> after over those 1,000 items are in /work/notes/s48rfix.md. Each test fails without its rule
(checked by putting the previous card back).
"""

from __future__ import annotations

import pytest

import ipb
from ipb.engine.card import constraint_errors
from ipb.engine.registry import compiled_card
from perturb_support import assert_rule_case

ACQ = "buffett_acquisition_checklist"

#: The paper's A.2 base (30 June 2024): $5B of subscription revenue growing 25% at 10x, earning nothing.
_BASE = {"arr": "$5B", "business_model": "subscription_software", "ev_to_arr": "10x", "gross_margin": "90%",
         "macro_regime": "expansion", "net_income": "$0", "revenue_growth": "25%", "revenue_retention": "95%",
         "sector": "enterprise_software"}


# --------------------------------------------------------------------------- BA5: slow, profitless software at 10x
#
# s47review BA5: the metric and isolate cut the base's growth to 0-12% and kept its 10x. The rule: from $10B of
# revenue, subscription software growing 12% or less and earning 5% of its revenue or less is offered under 8x. From
# $3B it would refuse the bench flip's most fruitful anchors (the card's comment), so the reviewed $5B items stay.

_BA5 = "a_large_slow_subscription_business_earning_little_is_priced_under_eight_times_revenue"


@pytest.mark.parametrize("facts, refused, what", [
    ({"arr": "$33.5B", "gross_margin": "64%", "revenue_growth": "7%"}, True,
     "s47review 11, IPB-P-011-69f11562e217e79f: $33.5B growing 7% at 10x ($335B), no profit"),
    ({"arr": "$21.7B", "revenue_growth": "9%"}, True, "IPB-P-011-b292851c68d656a2 (the review's run): $21.7B, 9%, 10x"),
    ({"arr": "$26.7B", "revenue_growth": "1%", "ev_to_arr": "11.5x"}, True,
     "IPB-P-011-e68ec0466877e19a (the review's run): $26.7B growing 1% at 11.5x"),
    ({"arr": "$11.1B", "revenue_growth": "8%", "ev_to_arr": "9.5x"}, True,
     "IPB-P-011-aac86e0bc4d4ae2b (the review's run): $11.1B growing 8% at 9.5x"),
    ({"arr": "$10B", "ev_to_arr": "8x", "revenue_growth": "12%", "net_income": "$500M"}, True,
     "every edge at once: $10B, 8x, 12% growth, $500M = 5% of $10B"),
    ({"arr": "$9.9B", "ev_to_arr": "8x", "revenue_growth": "12%", "net_income": "$450M"}, False,
     "$0.1B under the size line ($450M is 4.5% of it)"),
    ({"arr": "$10B", "ev_to_arr": "7.5x", "revenue_growth": "12%", "net_income": "$500M"}, False, "7.5x: under 8x"),
    ({"arr": "$10B", "ev_to_arr": "8x", "revenue_growth": "13%", "net_income": "$500M"}, False, "13% growth"),
    ({"arr": "$10B", "ev_to_arr": "8x", "revenue_growth": "12%", "net_income": "$550M"}, False,
     "$550M of $10B: a 5.5% margin"),
    ({"arr": "$37.9B", "revenue_growth": "9%", "net_income": "$6.2B", "ev_to_arr": "8x"}, False,
     "Salesforce fiscal 2025: $6.2B of $37.9B is 16%, above 5%"),
    ({"arr": "$1B", "revenue_growth": "8%", "ev_to_arr": "11x"}, False,
     "Guidewire's size in fiscal 2024 ($980.5M, +8%) near 11x: below $10B, the record keeps it"),
    ({"revenue_growth": "8%"}, False,
     "s47review 9, IPB-P-011-4874a39b7de2b39d: $5B growing 8% at 10x, left (below $10B; the anchor cost)"),
    ({"management_record": "self_serving", "net_income": "-$1.75B", "revenue_growth": "10%"}, False,
     "s47review 15, IPB-P-011-9017dded4925ca9a: $5B losing 35% of it, growing 10%, at 10x: left likewise"),
    ({}, False, "the base: 25% growth at 10x"),
])
def test_large_slow_profitless_subscription_software_is_priced_under_eight_times_revenue(facts, refused, what):
    # s50rfix: a refused item with $0 of income past $10B also breaks a_large_subscription_business_earns_a_profit,
    # which comes before this rule in the card (the four reviewed items; the edges state $500M)
    also_profitless = refused and "net_income" not in facts
    rule = ("a_large_subscription_business_earns_a_profit", _BA5) if also_profitless else _BA5
    assert_rule_case(ACQ, rule, {**_BASE, **facts}, refused)


# --------------------------------------------------------------------------- Soros gate 5: accepted as never killing
#
# Since s46rfix2 the test position's stop-out loss fits the budget (the_test_position_fits_the_loss_budget) and the
# re-entry enlarges only while the next size fits, so resize_on_confirmation never REJECTs a plan the card's rules
# keep; the card's comment above the gate gives the argument (stop 48's brief, item 4). These guard the argument:
# if a rule change lets a kept plan reach the kill, the first fails and the comment is wrong.

SOROS = "soros_reflexive_hypothesis_trade_construction"
_PLAN = {"prevailing_bias": "identified", "feedback_loop": "self_reinforcing", "hypothesis_confirmed": True}


def _run(facts):
    from ipb.engine.execute import execute
    from ipb.engine.scenario import facts_from_mapping

    compiled = compiled_card(SOROS)
    return execute(compiled, facts_from_mapping(compiled.card, facts))


def test_no_plan_the_soros_rules_keep_reaches_the_resize_kill():
    card = compiled_card(SOROS).card
    kept = 0
    for initial in ("1%", "5%", "12%", "20%", "25%"):
        for stop in ("1%", "3%", "8%", "16.5%", "20%"):
            for budget in ("0.5%", "1.5%", "3%", "5%", "10%"):
                for top in ("50%", "100%", "200%"):
                    for rounds in (1, 3, 10):
                        facts = {**_PLAN, "initial_position": initial, "stop_distance": stop, "loss_budget": budget,
                                 "max_position": top, "confirmation_rounds": rounds}
                        if constraint_errors(card, ipb.facts(SOROS, facts)):
                            continue
                        kept += 1
                        assert _run(facts).verdicts()[4] != "REJECT", facts
    assert kept >= 200, kept  # the grid is not empty of kept plans (non-vacuity)


def test_the_resize_kill_still_declines_a_plan_that_breaks_its_budget():
    # s46review S5's plan, which the probe rule now refuses: 12% x 16.5% = 1.98% of the fund against a 1.5% budget.
    facts = {**_PLAN, "initial_position": "12%", "stop_distance": "16.5%", "loss_budget": "1.5%",
             "max_position": "100%", "confirmation_rounds": 3}
    names = [e.name for e in constraint_errors(compiled_card(SOROS).card, ipb.facts(SOROS, facts))]
    assert names == ["the_test_position_fits_the_loss_budget"]
    t = _run(facts)
    assert t.verdicts()[4] == "REJECT" and t.outcome == "ABANDON_HYPOTHESIS"
