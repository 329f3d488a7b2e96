"""Hand-worked traces for the Buffett, Munger and Graham cards (issue 3).

Every expected verdict list, outcome and trigger below was worked out by hand
from the rules written in the card (the arithmetic is in the comments), not
copied from the engine's output. The cases the issue names for this group:
the weighted 3-of-5 Munger lenses with two unknown lenses, both when the
outcome is already decided and when it is still open; and the Graham
thresholds at their exact boundaries (two-thirds of NCAV, one-third EPS
growth, P/E 15, P/E x P/B 22.5).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from ipb.engine.execute import execute
from ipb.engine.registry import compiled_card
from ipb.engine.scenario import facts_from_mapping

P, R, I, NA = "PROCEED", "REJECT", "INCONCLUSIVE", "N/A"

# Paper Table 5: investor, framework, topology, gate logic, gates, kill gates.
TABLE_5_ROWS = {
    "buffett_owner_earnings_dcf": (
        "Warren Buffett", "Buffett Owner Earnings DCF Valuation", "linear_sequential", "conjunction", 3, 3),
    "buffett_share_repurchase": (
        "Warren Buffett", "Buffett Share Repurchase Decision Framework", "linear_sequential", "conjunction", 4, 0),
    "munger_business_quality_price": (
        "Charlie Munger", "Munger Business Quality and Price Checklist", "parallel_threshold", "conjunction", 5, 1),
    "munger_opportunity_evaluation": (
        "Charlie Munger", "Munger Multi-Lens Opportunity Evaluation", "parallel_threshold",
        "weighted_threshold_3_of_5", 5, 0),
    "graham_defensive_portfolio_selection": (
        "Benjamin Graham", "Graham Defensive Investor Portfolio Selection", "parallel_threshold", "conjunction", 7, 0),
    "graham_intrinsic_value_margin_of_safety": (
        "Benjamin Graham", "Graham Intrinsic Value and Margin of Safety", "linear_sequential", "conjunction", 4, 0),
    "graham_net_net_screen": (
        "Benjamin Graham", "Graham Net-Net Working Capital Screen", "linear_sequential", "conjunction", 2, 2),
    # Table 5 spells this name with a typographic apostrophe (U+2019).
    "graham_seven_tests_defensive": (
        "Benjamin Graham", "Graham\u2019s Seven Tests for the Defensive Investor", "parallel_threshold",
        "conjunction", 7, 7),
}


def run(card_id: str, **facts):
    compiled = compiled_card(card_id)
    return execute(compiled, facts_from_mapping(compiled.card, facts))


def decided(trace):
    return trace.verdicts(), trace.outcome, trace.trigger


@pytest.mark.parametrize("card_id", sorted(TABLE_5_ROWS))
def test_card_matches_its_table_5_row(card_id):
    card = compiled_card(card_id).card
    investor, name, topology, logic, gates, kills = TABLE_5_ROWS[card_id]
    assert (card.investor, card.name, card.topology_type, card.gate_logic) == (investor, name, topology, logic)
    assert len(card.gates) == gates
    assert sum(1 for g in card.gates if g.kill_criterion is not None) == kills


# --------------------------------------------------------------------------- Munger: weighted 3 of 5


# Lens rules (card munger_opportunity_evaluation):
#   economics   PROCEED iff return_on_capital >= 15% and advantage durable
#   psychology  PROCEED iff incentives aligned and thesis not bias-driven
#   mathematics PROCEED iff p*up + (1-p)*down >= 10%
#   history     PROCEED iff fatal_failure_scenarios == 0
#   biology     PROCEED iff adapted; REJECT iff displaced
# Threshold: count PROCEED, at least 3 of 5. With two lenses unknown the
# card is decided when the three known lenses alone reach 3 (met) or when
# even two extra PROCEEDs could not reach 3 (not met); otherwise it is open.
# History and biology are left unknown in every case.
STRONG = dict(return_on_capital="16%", competitive_advantage="durable", incentives_aligned=True,
              bias_driven_thesis=False)


def test_munger_two_unknown_lenses_already_met():
    # math: 60% x 50% + 40% x (-15%) = 30% - 6% = 24% >= 10% -> PROCEED.
    # PROCEEDs 3 (econ, psych, math) >= 3: met whatever the unknown two say.
    trace = run("munger_opportunity_evaluation", **STRONG, probability_of_success="60%",
                upside_return="50%", downside_return="-15%")
    assert decided(trace) == ([P, P, P, I, I], "INVEST", "threshold_met_3_of_5")


def test_munger_two_unknown_lenses_already_failed():
    # econ: 5% < 15% -> REJECT; psych: not aligned -> REJECT;
    # math: 30% x 200% + 70% x (-80%) = 60% - 56% = 4% < 10% -> REJECT.
    # PROCEEDs 0, open 2: 0 + 2 < 3, so the threshold cannot be met -> DECLINE.
    trace = run("munger_opportunity_evaluation", return_on_capital="5%", competitive_advantage="none",
                incentives_aligned=False, bias_driven_thesis=True, probability_of_success="30%",
                upside_return="200%", downside_return="-80%")
    assert decided(trace) == ([R, R, R, I, I], "DECLINE", "threshold_not_met_0_of_5")


def test_munger_two_unknown_lenses_still_open():
    # math: 50% x 30% + 50% x (-15%) = 15% - 7.5% = 7.5% < 10% -> REJECT.
    # PROCEEDs 2 < 3, but 2 + 2 open = 4 >= 3: the unknown lenses decide -> INCONCLUSIVE.
    trace = run("munger_opportunity_evaluation", **STRONG, probability_of_success="50%",
                upside_return="30%", downside_return="-15%")
    assert decided(trace) == ([P, P, R, I, I], "INCONCLUSIVE", "threshold_undecided_2_of_5")
    # Supplying the two missing lenses settles it either way:
    # both confirm -> 4 PROCEEDs; both disconfirm -> 2 PROCEEDs and nothing open.
    settled = run("munger_opportunity_evaluation", **STRONG, probability_of_success="50%",
                  upside_return="30%", downside_return="-15%", fatal_failure_scenarios=0,
                  adaptation_record="adapted_through_disruption")
    assert decided(settled) == ([P, P, R, P, P], "INVEST", "threshold_met_4_of_5")
    sunk = run("munger_opportunity_evaluation", **STRONG, probability_of_success="50%",
               upside_return="30%", downside_return="-15%", fatal_failure_scenarios=2,
               adaptation_record="displaced_by_change")
    assert decided(sunk) == ([P, P, R, R, R], "DECLINE", "threshold_not_met_2_of_5")


def test_munger_bias_lens_withholds_but_cannot_veto():
    # Table 5 gives this card no kill gates: a bias-driven thesis makes the
    # psychology lens REJECT, yet four other confirming lenses still clear it.
    # math: 70% x 80% + 30% x (-20%) = 56% - 6% = 50% -> PROCEED.
    trace = run("munger_opportunity_evaluation", return_on_capital="18%", competitive_advantage="durable",
                incentives_aligned=True, bias_driven_thesis=True, probability_of_success="70%",
                upside_return="80%", downside_return="-20%", fatal_failure_scenarios=0,
                adaptation_record="adapted_through_disruption")
    assert decided(trace) == ([P, R, P, P, P], "INVEST", "threshold_met_4_of_5")


# --------------------------------------------------------------------------- Munger: quality and price


def test_munger_quality_untrustworthy_management_is_the_only_kill():
    # Parallel conjunction: every gate runs. ROC 25% >= 15%, durable, understood;
    # price: 600M / 7.5B = 8% + 4% growth = 12% >= 10%. Only gate 4 rejects, with its kill.
    trace = run("munger_business_quality_price", understandable=True, return_on_capital="25%",
                competitive_advantage="durable", management_integrity="untrustworthy", incentives_aligned=False,
                owner_earnings="$600M", market_value="$7.5B", long_run_growth="4%")
    assert decided(trace) == ([P, P, P, R, P], "DECLINE", "gate_4_reject")
    assert [g.kill_triggered for g in trace.gates] == [False, False, False, True, False]


# --------------------------------------------------------------------------- Graham: net-net


@pytest.mark.parametrize(
    ("market_value", "expected"),
    [
        # NCAV = 300M - 0 - 0 = 300M; two-thirds = 200M exactly.
        ("$200M", ([P, P], "INVEST", "all_gates_cleared")),
        # One dollar more than two-thirds: the kill fires and gate 2 is never reached.
        ("$200000001", ([R, NA], "DECLINE", "gate_1_reject")),
    ],
    ids=["exactly_two_thirds", "one_dollar_above"],
)
def test_graham_net_net_two_thirds_boundary_is_exact(market_value, expected):
    trace = run("graham_net_net_screen", market_value=market_value, current_assets="$300M",
                total_liabilities="$0", preferred_stock="$0", net_income="$1M")
    assert decided(trace) == expected


def test_graham_net_net_computes_ncav_after_all_prior_claims():
    # NCAV = 45M - 12M - 3M = 30M; ceiling 20M.
    trace = run("graham_net_net_screen", market_value="$20M", current_assets="$45M",
                total_liabilities="$12M", preferred_stock="$3M", net_income="$1M")
    assert trace.gate(1).computed == {"ncav": Decimal("30e6"), "price_ceiling": Decimal("20e6")}


# --------------------------------------------------------------------------- Graham: seven tests

AT_LIMITS = dict(company_type="industrial", annual_sales="$100M", current_assets="$50M",
                 current_liabilities="$25M", long_term_debt="$25M", years_with_earnings=10, dividend_years=20,
                 eps_3yr_avg="$3.00", eps_3yr_avg_ten_years_ago="$2.25", price_per_share="$45",
                 book_value_per_share="$30")


def test_graham_seven_tests_every_limit_is_inclusive():
    # sales 100M >= 100M; 50M >= 2 x 25M and debt 25M <= 50M - 25M; 10 >= 10; 20 >= 20;
    # 3.00 >= 4/3 x 2.25 = 3.00; P/E 45/3 = 15 <= 15; P/E x P/B = 15 x 1.5 = 22.5 <= 22.5.
    trace = run("graham_seven_tests_defensive", **AT_LIMITS)
    assert decided(trace) == ([P] * 7, "INVEST", "all_gates_cleared")


@pytest.mark.parametrize(
    ("change", "verdicts", "trigger"),
    [
        # 1 cent less of current EPS: 2.99 < 3.00 fails growth; P/E 45/2.99 = 15.05 > 15 fails;
        # product 15.05 x 1.5 = 22.58 > 22.5, but P/B 45/30 = 1.5 <= 1.5 passes test 7 on its own
        # (Graham: not more than 1.5 x book, *however* a product up to 22.5; issue 15, defect 3).
        ({"eps_3yr_avg": "$2.99"}, [P, P, P, P, R, R, P], "gate_5_reject"),
        # Book value 29.99: P/B 1.5005, product 22.5075 > 22.5; only test 7 fails.
        ({"book_value_per_share": "$29.99"}, [P, P, P, P, P, P, R], "gate_7_reject"),
        # Nineteen years of dividends: only test 4 fails.
        ({"dividend_years": 19}, [P, P, P, R, P, P, P], "gate_4_reject"),
        # Long-term debt one dollar above working capital: only test 2 fails.
        ({"long_term_debt": "$25000001"}, [P, R, P, P, P, P, P], "gate_2_reject"),
    ],
    ids=["eps_below_one_third_growth", "price_to_assets_above_22_5", "nineteen_years_dividends",
         "debt_above_working_capital"],
)
def test_graham_seven_tests_one_step_past_a_limit(change, verdicts, trigger):
    trace = run("graham_seven_tests_defensive", **{**AT_LIMITS, **change})
    assert decided(trace) == (verdicts, "DECLINE", trigger)
    assert [g.kill_triggered for g in trace.gates] == [v == R for v in verdicts]


def test_graham_seven_tests_utility_uses_the_utility_tests():
    # Utility: assets 800M >= 50M; debt 500M <= 2 x 300M. Sales and current ratio are not asked.
    # Growth 2.40 >= 4/3 x 1.70 = 2.2667; P/E 18/2.40 = 7.5; P/B 0.9; product 6.75.
    trace = run("graham_seven_tests_defensive", company_type="public_utility", total_assets="$800M",
                long_term_debt="$500M", stock_equity="$300M", years_with_earnings=10, dividend_years=40,
                eps_3yr_avg="$2.40", eps_3yr_avg_ten_years_ago="$1.70", price_per_share="$18",
                book_value_per_share="$20")
    assert decided(trace) == ([P] * 7, "INVEST", "all_gates_cleared")


# --------------------------------------------------------------------------- Graham: formula value


def test_graham_formula_value_and_two_thirds_buy_limit():
    # multiplier = (8.5 + 2 x 5) x 4.4 / 8.5 = 18.5 x 0.517647... = 9.576470...
    # V = 4.00 x 9.576470 = 38.3059; buy limit = 2/3 x V = 25.537. Price 22 <= 25.54 -> INVEST.
    facts = dict(normal_eps="$4.00", eps_years_averaged=7, expected_growth="5%", historical_growth="6%",
                 aaa_yield="8.5%")
    trace = run("graham_intrinsic_value_margin_of_safety", **facts, price_per_share="$22")
    assert decided(trace) == ([P, P, P, P], "INVEST", "all_gates_cleared")
    value = trace.gate(3).computed["intrinsic_value"]
    assert abs(value - Decimal("38.3059")) < Decimal("0.0001")
    assert abs(trace.gate(4).computed["buy_limit"] - Decimal("25.5373")) < Decimal("0.0001")
    # At $26 the price is above the buy limit but below V: no margin of safety.
    trace = run("graham_intrinsic_value_margin_of_safety", **facts, price_per_share="$26")
    assert decided(trace) == ([P, P, P, R], "DECLINE", "gate_4_reject")


def test_graham_formula_with_half_the_base_yield_halves_the_multiplier():
    # AAA 8.8% = 2 x 4.4%: multiplier = (8.5 + 16) / 2 = 12.25; V = 2 x 12.25 = 24.5 exactly.
    # The ten-year record is missing, so gate 2 is undecided; the chain goes on, but a growth
    # estimate not shown conservative cannot clear (decisive, issue 15).
    trace = run("graham_intrinsic_value_margin_of_safety", normal_eps="$2.00", eps_years_averaged=6,
                expected_growth="8%", aaa_yield="8.8%", price_per_share="$16")
    assert trace.gate(3).computed["intrinsic_value"] == Decimal("24.5")
    # Buy limit 2/3 x 24.5 = 16.333; 16 <= 16.333.
    assert decided(trace) == ([P, I, P, P], "INCONCLUSIVE", "gate_2_inconclusive")


# --------------------------------------------------------------------------- Buffett: owner earnings DCF


def test_buffett_owner_earnings_and_perpetuity_value():
    # owner earnings = 1,000 + 200 - 250 - 50 = 900M.
    # rate = max(9%, 10% floor) = 10%; V = 900M x 1.05 / (10% - 5%) = 18.9B; buy limit 75% = 14.175B.
    facts = dict(net_income="$1.0B", depreciation_amortization="$200M", maintenance_capex="$250M",
                 working_capital_needs="$50M", earnings_predictable=True, owner_earnings_growth="5%",
                 long_term_treasury_yield="9%")
    trace = run("buffett_owner_earnings_dcf", **facts, market_value="$14B")
    assert decided(trace) == ([P, P, P], "INVEST", "all_gates_cleared")
    assert trace.gate(1).computed["owner_earnings_value"] == Decimal("900e6")
    assert trace.gate(2).computed == {"discount_rate": Decimal("0.10"), "intrinsic_value": Decimal("18.9e9")}
    # $14.2B is above 14.175B: the margin-of-safety kill fires.
    trace = run("buffett_owner_earnings_dcf", **facts, market_value="$14.2B")
    assert decided(trace) == ([P, P, R], "DECLINE", "gate_3_reject")
    assert trace.gate(3).kill_triggered


def test_buffett_high_treasury_yield_replaces_the_floor():
    # Treasury 12% > 10% floor: V = 900M x 1.05 / (12% - 5%) = 13.5B; limit 10.125B; $10B passes.
    trace = run("buffett_owner_earnings_dcf", net_income="$1.0B", depreciation_amortization="$200M",
                maintenance_capex="$250M", working_capital_needs="$50M", earnings_predictable=True,
                owner_earnings_growth="5%", long_term_treasury_yield="12%", market_value="$10B")
    assert trace.gate(2).computed["intrinsic_value"] == Decimal("13.5e9")
    assert decided(trace) == ([P, P, P], "INVEST", "all_gates_cleared")


def test_buffett_growth_not_below_discount_rate_is_not_estimable():
    # growth 10% >= rate max(4%, 10%) = 10%: the perpetuity has no finite value -> gate 2 kill.
    trace = run("buffett_owner_earnings_dcf", net_income="$1.0B", depreciation_amortization="$200M",
                maintenance_capex="$250M", working_capital_needs="$50M", earnings_predictable=True,
                owner_earnings_growth="10%", long_term_treasury_yield="4%", market_value="$1B")
    assert decided(trace) == ([P, R, NA], "DECLINE", "gate_2_reject")


# --------------------------------------------------------------------------- Buffett: repurchases


BERKSHIRE = dict(cash_and_equivalents="$50B", repurchase_amount="$2B", liquidity_reserve="$20B",
                 reinvestment_needs_funded=True, price_per_share="$100000", intrinsic_value_per_share="$125000",
                 issuer="berkshire_hathaway", repurchase_purpose="return_value_to_continuing_owners",
                 shareholders_informed=True)


@pytest.mark.parametrize(
    ("decision_date", "price_to_book", "gate_3"),
    [
        ("2011-10-03", "1.15x", R),   # 110% limit in force: 1.15 > 1.10
        ("2013-06-28", "1.15x", P),   # 120% limit in force: 1.15 <= 1.20
        ("2013-06-28", "1.25x", R),   # 1.25 > 1.20
        ("2019-06-28", "1.45x", P),   # book-value limit dropped on 2018-07-17
        ("2005-06-30", None, P),      # before any published limit, book value not needed
    ],
)
def test_buffett_berkshire_book_value_limit_follows_the_date(decision_date, price_to_book, gate_3):
    # Gates 1-2: cash after buyback 48B >= 20B, reinvestment funded; 100,000 <= 90% x 125,000 = 112,500.
    facts = dict(BERKSHIRE, decision_date=decision_date)
    if price_to_book is not None:
        facts["price_to_book"] = price_to_book
    trace = run("buffett_share_repurchase", **facts)
    if gate_3 == P:
        assert decided(trace) == ([P, P, P, P], "REPURCHASE", "all_gates_cleared")
    else:
        assert decided(trace) == ([P, P, R, NA], "NO_REPURCHASE", "gate_3_reject")
    assert not any(g.kill_triggered for g in trace.gates)  # Table 5: no kill gates


def test_buffett_repurchase_limit_undecided_without_book_value_in_a_limit_period():
    # 2014 is inside the 120% period, and price/book is missing: gate 3 INCONCLUSIVE, chain goes on;
    # a published limit not shown respected cannot clear (decisive, issue 15).
    trace = run("buffett_share_repurchase", **BERKSHIRE, decision_date="2014-06-30")
    assert decided(trace) == ([P, P, I, P], "INCONCLUSIVE", "gate_3_inconclusive")


# --------------------------------------------------------------------------- Graham: defensive portfolio


@pytest.mark.parametrize(("stock_allocation", "gate_2"), [("55%", P), ("56%", R), ("45%", P)])
def test_graham_portfolio_rebalancing_band_is_five_points(stock_allocation, gate_2):
    # target 50%: drift 5 points -> PROCEED (Graham's 55% example); 6 points -> REJECT.
    trace = run("graham_defensive_portfolio_selection", stock_allocation=stock_allocation,
                target_stock_allocation="50%", bond_quality="us_government", number_of_stocks=20,
                smallest_sales="$300M", lowest_equity_to_capitalization="60%", shortest_dividend_record=22,
                highest_pe_seven_year="18x", highest_pe_trailing="14x", price_level_since_1972="1x",
                holds_utilities_or_railroads=False)
    expected = [P, gate_2, P, P, P, P, P]
    assert decided(trace) == (expected, "APPROVE" if gate_2 == P else "REVISE",
                              "all_gates_cleared" if gate_2 == P else "gate_2_reject")
