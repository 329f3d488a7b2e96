"""Hand-worked traces for the Dalio and Soros cards (issue 3, group dalio_soros).

Every expected verdict list, outcome and trigger below was worked out by hand
from the card's written rules (the derivation is in the comment above each
case), not copied from the engine's output.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from ipb.engine.execute import execute
from ipb.engine.registry import compiled_card
from ipb.engine.scenario import facts_from_mapping

P, R, I, NA = "PROCEED", "REJECT", "INCONCLUSIVE", "N/A"


def run(card_id: str, facts: dict):
    compiled = compiled_card(card_id)
    return execute(compiled, facts_from_mapping(compiled.card, facts))


# --------------------------------------------------------------------------- catalogue rows (Table 5)


@pytest.mark.parametrize(
    "card_id, investor, name, topology, logic, gates, kills",
    [
        ("dalio_all_weather_portfolio_construction", "Ray Dalio", "All-Weather Portfolio Construction",
         "linear_sequential", "conjunction", 3, 1),
        ("dalio_all_weather_rebalancing", "Ray Dalio", "Dalio All Weather Rebalancing Framework",
         "linear_sequential", "conjunction", 3, 0),
        ("dalio_bubble_detection_gauge", "Ray Dalio", "Dalio Bubble Detection Gauge",
         "parallel_threshold", "weighted_threshold_4_of_7", 7, 7),
        ("dalio_debt_supercycle_navigation", "Ray Dalio", "Dalio Debt Supercycle Navigation Framework",
         "conditional_branch", "regime_dependent", 2, 2),
        ("dalio_economic_machine_positioning", "Ray Dalio", "Dalio Economic Machine Portfolio Positioning",
         "conditional_branch", "regime_dependent", 5, 0),
        ("soros_conviction_weighted_position_sizing", "George Soros", "Soros Conviction-Weighted Position Sizing",
         "linear_sequential", "conjunction", 4, 0),
        ("soros_reflexive_hypothesis_trade_construction", "George Soros",
         "Soros Reflexive Hypothesis Trade Construction", "linear_sequential", "conjunction", 5, 0),
    ],
)
def test_card_matches_its_table_5_row(card_id, investor, name, topology, logic, gates, kills):
    card = compiled_card(card_id).card
    assert (card.investor, card.name, card.topology_type, card.gate_logic) == (investor, name, topology, logic)
    assert len(card.gates) == gates
    assert sum(1 for g in card.gates if g.kill_criterion) == kills
    for g in card.gates:
        assert len(g.aliases) >= 3 and len(g.required_elements) >= 2 and g.source is not None


def test_career_boundaries_respected():
    # Dalio left the Bridgewater CIO role in October 2022; Soros moved to a family office in 2011.
    for card_id in ("dalio_all_weather_portfolio_construction", "dalio_all_weather_rebalancing",
                    "dalio_bubble_detection_gauge", "dalio_debt_supercycle_navigation",
                    "dalio_economic_machine_positioning"):
        assert compiled_card(card_id).card.vintage[1] <= 2022
    for card_id in ("soros_conviction_weighted_position_sizing", "soros_reflexive_hypothesis_trade_construction"):
        assert compiled_card(card_id).card.vintage[1] <= 2011


# --------------------------------------------------------------------------- bubble gauge: 4 of 7 REJECT

BUBBLE = "dalio_bubble_detection_gauge"
# Every indicator quiet: percentiles below 80%, growth gap 6% - 5% = 1% (not > 2%),
# real policy rate +1% and no asset purchases.
QUIET = {
    "valuation_percentile": "50%",
    "discounted_growth": "6%",
    "sustainable_growth": "5%",
    "new_buyer_percentile": "50%",
    "sentiment_percentile": "50%",
    "leverage_percentile": "50%",
    "forward_purchase_percentile": "50%",
    "real_policy_rate": "1%",
    "central_bank_buying_assets": False,
}


def test_bubble_gauge_at_exactly_four_signals_is_a_bubble():
    # Signals on gates 1, 2, 3, 5:
    #   g1 valuation 80% >= 80%             -> REJECT (boundary counts as present)
    #   g2 gap 8% - 5% = 3% > 2%             -> REJECT
    #   g3 new buyers 90% >= 80%             -> REJECT
    #   g4 sentiment 79% < 80%               -> PROCEED
    #   g5 leverage 85% >= 80%               -> REJECT
    #   g6 forward purchases 50%             -> PROCEED
    #   g7 real rate +1%, no QE              -> PROCEED
    # REJECT count 4 >= at_least 4 -> threshold met -> the fail outcome BUBBLE_REDUCE_RISK.
    facts = dict(QUIET, valuation_percentile="80%", discounted_growth="8%", new_buyer_percentile="90%",
                 sentiment_percentile="79%", leverage_percentile="85%")
    t = run(BUBBLE, facts)
    assert t.verdicts() == [R, R, R, P, R, P, P]
    assert (t.outcome, t.trigger) == ("BUBBLE_REDUCE_RISK", "threshold_met_4_of_7")
    assert [g.kill_triggered for g in t.gates] == [True, True, True, False, True, False, False]
    assert t.gate(1).gate.kill_criterion == "prices_high_vs_traditional_measures"


def test_bubble_gauge_at_three_signals_without_unknowns_is_no_bubble():
    # As above but leverage 79%: g5 PROCEED. REJECT count 3, no INCONCLUSIVE gate:
    # 3 + 0 < 4, the threshold cannot be reached -> pass outcome NO_BUBBLE.
    facts = dict(QUIET, valuation_percentile="80%", discounted_growth="8%", new_buyer_percentile="90%",
                 sentiment_percentile="79%", leverage_percentile="79%")
    t = run(BUBBLE, facts)
    assert t.verdicts() == [R, R, R, P, P, P, P]
    assert (t.outcome, t.trigger) == ("NO_BUBBLE", "threshold_not_met_3_of_7")


def test_bubble_gauge_at_three_signals_with_one_unknown_is_inconclusive():
    # Three signals (g1, g2, g3) and the leverage reading missing: g5 INCONCLUSIVE.
    # 3 < 4, but 3 + 1 open = 4 could still reach the threshold -> INCONCLUSIVE.
    facts = dict(QUIET, valuation_percentile="80%", discounted_growth="8%", new_buyer_percentile="90%",
                 sentiment_percentile="79%")
    del facts["leverage_percentile"]
    t = run(BUBBLE, facts)
    assert t.verdicts() == [R, R, R, P, I, P, P]
    assert (t.outcome, t.trigger) == ("INCONCLUSIVE", "threshold_undecided_3_of_7")


def test_bubble_gauge_policy_gate_follows_kleene_logic():
    # g7 rejects on "real rate < 0% or QE". Real rate +1% (false) with QE unknown -> unknown
    # -> INCONCLUSIVE; real rate -1% (true) decides it whatever QE is -> REJECT.
    quiet = dict(QUIET)
    del quiet["central_bank_buying_assets"]
    assert run(BUBBLE, quiet).verdicts()[6] == I
    assert run(BUBBLE, dict(quiet, real_policy_rate="-1%")).verdicts()[6] == R
    # Two unknown gates with 2 signals: 2 + 2 = 4 still reachable -> INCONCLUSIVE.
    facts = dict(quiet, valuation_percentile="95%", sentiment_percentile="95%")
    del facts["leverage_percentile"]
    t = run(BUBBLE, facts)
    assert t.verdicts() == [R, P, P, R, I, P, I]
    assert (t.outcome, t.trigger) == ("INCONCLUSIVE", "threshold_undecided_2_of_7")


# --------------------------------------------------------------------------- debt supercycle: one branch per regime

DEBT = "dalio_debt_supercycle_navigation"


@pytest.mark.parametrize(
    "facts, regime, outcome, trigger, verdicts",
    [
        # early: rate 4% > 0.5% floor, so neither depression nor deleveraging; neutral -> not top;
        # gap +1% > 0 but 1 signal < 4 -> not bubble; gap not < 0 -> not normalization; fallback early.
        # Gate 2 (early): nominal 8% < yield 6%? no -> PROCEED -> ADD_RISK.
        (dict(foreign_currency_debt_share="20%", policy_rate="4%", real_gdp_growth="4%", nominal_gdp_growth="8%",
              long_bond_yield="6%", debt_growth_gap="1%", yield_curve_slope="2%", central_bank_stance="neutral",
              bubble_signals=1),
         "early", "ADD_RISK", "regime_early", [P, P]),
        # early, but incomes grow more slowly (3%) than the bond yield (6%) -> gate 2 REJECT -> HOLD_NEUTRAL.
        (dict(foreign_currency_debt_share="20%", policy_rate="4%", real_gdp_growth="1%", nominal_gdp_growth="3%",
              long_bond_yield="6%", debt_growth_gap="1%", yield_curve_slope="2%", central_bank_stance="neutral",
              bubble_signals=1),
         "early", "HOLD_NEUTRAL", "regime_early_gate_2_reject", [P, R]),
        # bubble: gap 4% > 0 and 5 signals >= 4 (not top: curve +1.5% > 0). Easing -> STAY_INVESTED.
        (dict(foreign_currency_debt_share="5%", policy_rate="1%", real_gdp_growth="5%", nominal_gdp_growth="7%",
              long_bond_yield="2.5%", debt_growth_gap="4%", yield_curve_slope="1.5%", central_bank_stance="easing",
              bubble_signals=5),
         "bubble", "STAY_INVESTED", "regime_bubble", [P, P]),
        # top: tightening and curve -0.5% <= 0. Long yield 4.75% >= 2% -> bonds can hedge -> PROCEED.
        (dict(foreign_currency_debt_share="5%", policy_rate="5.25%", real_gdp_growth="2%", nominal_gdp_growth="4.5%",
              long_bond_yield="4.75%", debt_growth_gap="3%", yield_curve_slope="-0.5%",
              central_bank_stance="tightening", bubble_signals=3),
         "top", "ROTATE_TO_GOVERNMENT_BONDS", "regime_top", [P, P]),
        # top with a 1.5% long yield: 1.5% < 2% -> REJECT -> ROTATE_TO_CASH_AND_GOLD.
        (dict(foreign_currency_debt_share="5%", policy_rate="2%", real_gdp_growth="2%", nominal_gdp_growth="4%",
              long_bond_yield="1.5%", debt_growth_gap="3%", yield_curve_slope="-0.5%",
              central_bank_stance="tightening", bubble_signals=3),
         "top", "ROTATE_TO_CASH_AND_GOLD", "regime_top_gate_2_reject", [P, R]),
        # depression: rate 0.25% <= 0.5% and real growth -3% < 0. Printing -> PROCEED -> BUY_RISK_ASSETS.
        (dict(foreign_currency_debt_share="5%", policy_rate="0.25%", real_gdp_growth="-3%", nominal_gdp_growth="-2%",
              long_bond_yield="2.75%", debt_growth_gap="2%", central_bank_stance="printing", bubble_signals=0),
         "depression", "BUY_RISK_ASSETS", "regime_depression", [P, P]),
        # deleveraging: rate 0.25% at floor, growth +2% (not depression), gap -2% < 0.
        # Beautiful: nominal 4% <= yield 1.75%? no -> PROCEED -> RE_RISK_GRADUALLY.
        (dict(foreign_currency_debt_share="5%", policy_rate="0.25%", real_gdp_growth="2%", nominal_gdp_growth="4%",
              long_bond_yield="1.75%", debt_growth_gap="-2%", central_bank_stance="printing", bubble_signals=0),
         "deleveraging", "RE_RISK_GRADUALLY", "regime_deleveraging", [P, P]),
        # ugly deleveraging: nominal 1% <= yield 4% -> REJECT -> STAY_DEFENSIVE.
        (dict(foreign_currency_debt_share="10%", policy_rate="0.5%", real_gdp_growth="0.5%", nominal_gdp_growth="1%",
              long_bond_yield="4%", debt_growth_gap="-1%", central_bank_stance="easing", bubble_signals=0),
         "deleveraging", "STAY_DEFENSIVE", "regime_deleveraging_gate_2_reject", [P, R]),
        # normalization: gap -0.5% < 0, rate 0.75% > floor, growth 2.5% >= 0 (not top: neutral).
        # Gate 2: nominal 4% >= yield 2.25% and not tightening -> PROCEED -> ADD_RISK.
        (dict(foreign_currency_debt_share="5%", policy_rate="0.75%", real_gdp_growth="2.5%", nominal_gdp_growth="4%",
              long_bond_yield="2.25%", debt_growth_gap="-0.5%", yield_curve_slope="1.5%",
              central_bank_stance="neutral", bubble_signals=1),
         "normalization", "ADD_RISK", "regime_normalization", [P, P]),
        # normalization with premature tightening (curve still +1.5%, so not top) -> REJECT -> HOLD_NEUTRAL.
        (dict(foreign_currency_debt_share="5%", policy_rate="0.75%", real_gdp_growth="2.5%", nominal_gdp_growth="4%",
              long_bond_yield="2.25%", debt_growth_gap="-0.5%", yield_curve_slope="1.5%",
              central_bank_stance="tightening", bubble_signals=1),
         "normalization", "HOLD_NEUTRAL", "regime_normalization_gate_2_reject", [P, R]),
    ],
)
def test_debt_cycle_branch_per_regime(facts, regime, outcome, trigger, verdicts):
    t = run(DEBT, facts)
    assert t.regime == regime
    assert (t.outcome, t.trigger) == (outcome, trigger)
    assert t.verdicts() == verdicts
    assert t.gate(2).kill_triggered == (verdicts[1] == R)


def test_debt_cycle_foreign_currency_kill_precedes_classification():
    # 65% >= 50% of debt in a currency the country cannot print -> gate 1 REJECT (kill),
    # no regime selected, gate 2 N/A, card-level fail outcome.
    t = run(DEBT, dict(foreign_currency_debt_share="65%", policy_rate="40%", real_gdp_growth="-2%",
                       central_bank_stance="tightening"))
    assert t.verdicts() == [R, NA]
    assert (t.outcome, t.trigger, t.regime) == ("EXIT_LOCAL_CURRENCY_ASSETS", "gate_1_reject", None)
    assert t.gate(1).kill_triggered and t.gate(1).gate.kill_criterion == "debt_in_currency_it_cannot_print"


def test_debt_cycle_unknown_currency_share_leaves_gate_1_inconclusive_but_classifies():
    # The kill test (share >= 50%) is undecided -> gate 1 INCONCLUSIVE; the phase rules are all
    # decided (as in the early case above) -> regime early; gate 2: 8% < 6% false -> PROCEED.
    t = run(DEBT, dict(policy_rate="4%", real_gdp_growth="4%", nominal_gdp_growth="8%", long_bond_yield="6%",
                       debt_growth_gap="1%", yield_curve_slope="2%", central_bank_stance="neutral",
                       bubble_signals=1))
    assert t.verdicts() == [I, P]
    # The currency kill is decisive (issue 15): undecided, the phase's positioning cannot clear.
    assert (t.regime, t.outcome, t.trigger) == ("early", "INCONCLUSIVE", "regime_early_gate_1_inconclusive")


def test_debt_cycle_unknown_policy_rate_leaves_the_regime_undetermined():
    # depression rule: unknown and (1% < 0 is false) -> false; deleveraging rule: unknown and
    # (-1.5% < 0 is true) -> unknown -> the classifier stops undecided.
    t = run(DEBT, dict(foreign_currency_debt_share="15%", real_gdp_growth="1%", debt_growth_gap="-1.5%",
                       central_bank_stance="neutral", bubble_signals=0))
    assert t.verdicts() == [I, NA]
    assert (t.outcome, t.trigger) == ("INCONCLUSIVE", "regime_undetermined")


# --------------------------------------------------------------------------- economic machine: one branch per quadrant

MACHINE = "dalio_economic_machine_positioning"


@pytest.mark.parametrize(
    "growth, inflation, credit, regime, outcome",
    [
        # (expected, discounted) pairs; surprises are differences, each at least 0.5 points in size.
        (("3%", "2%"), ("1.25%", "2%"), "1%", "growth_up_inflation_down", "TILT_TO_EQUITIES_AND_CREDIT"),
        (("6%", "4.5%"), ("3.5%", "2.25%"), "2%", "growth_up_inflation_up", "TILT_TO_COMMODITIES_AND_EMERGING_MARKETS"),
        (("1.5%", "3%"), ("6%", "3.5%"), "-1%", "growth_down_inflation_up", "TILT_TO_INFLATION_LINKED_BONDS_AND_GOLD"),
        # inflation surprise exactly -0.5%: |-0.5%| >= 0.5% -> PROCEED at the boundary.
        (("1%", "2%"), ("1.25%", "1.75%"), "-0.5%", "growth_down_inflation_down", "TILT_TO_NOMINAL_BONDS"),
    ],
)
def test_economic_machine_quadrant_selects_its_tilt(growth, inflation, credit, regime, outcome):
    facts = dict(expected_growth=growth[0], discounted_growth=growth[1], expected_inflation=inflation[0],
                 discounted_inflation=inflation[1], credit_impulse=credit, favoured_risk_share="40%")
    t = run(MACHINE, facts)
    # Gates 1-3 PROCEED (material surprises, credit agrees with growth), gate 4 classifies,
    # gate 5: 40% <= 50% -> PROCEED -> the branch's pass outcome.
    assert t.verdicts() == [P, P, P, P, P]
    assert (t.regime, t.outcome, t.trigger) == (regime, outcome, f"regime_{regime}")


def test_economic_machine_credit_contradiction_holds_the_balanced_mix():
    # Growth surprise +1% but credit impulse -1%: gate 3 REJECT (plain fail, no kill criterion);
    # the prefix chain stops before the classifier -> card fail outcome HOLD_BALANCED_MIX.
    t = run(MACHINE, dict(expected_growth="3%", discounted_growth="2%", expected_inflation="1%",
                          discounted_inflation="2%", credit_impulse="-1%", favoured_risk_share="40%"))
    assert t.verdicts() == [P, P, R, NA, NA]
    assert (t.outcome, t.trigger) == ("HOLD_BALANCED_MIX", "gate_3_reject")
    assert not t.gate(3).kill_triggered


def test_economic_machine_oversized_tilt_fails_inside_the_branch():
    # Quadrant growth_up_inflation_down, favoured risk 65% > 50% -> gate 5 REJECT -> branch fail outcome.
    t = run(MACHINE, dict(expected_growth="3.5%", discounted_growth="2.25%", expected_inflation="1.5%",
                          discounted_inflation="2.25%", credit_impulse="1.5%", favoured_risk_share="65%"))
    assert t.verdicts() == [P, P, P, P, R]
    assert (t.outcome, t.trigger) == ("HOLD_BALANCED_MIX", "regime_growth_up_inflation_down_gate_5_reject")


# --------------------------------------------------------------------------- All Weather construction and rebalancing

BALANCED = dict(environments_covered=4, risk_share_rising_growth="25%", risk_share_falling_growth="25%",
                risk_share_rising_inflation="25%", risk_share_falling_inflation="25%", gross_leverage="2x",
                levered_asset_expected_return="3%", financing_rate="1%")


def test_all_weather_construction_risk_balance_band_edges():
    # 35% is the upper edge (25% + 10%): inside -> PROCEED; 15% the lower edge likewise.
    t = run("dalio_all_weather_portfolio_construction",
            dict(BALANCED, risk_share_rising_growth="35%", risk_share_falling_growth="15%",
                 risk_share_rising_inflation="25%", risk_share_falling_inflation="25%"))
    assert t.verdicts() == [P, P, P] and t.outcome == "IMPLEMENT"
    # 36% breaks the band -> gate 2 REJECT with its kill criterion; gate 3 N/A.
    t = run("dalio_all_weather_portfolio_construction",
            dict(BALANCED, risk_share_rising_growth="36%", risk_share_falling_growth="14%"))
    assert t.verdicts() == [P, R, NA]
    assert (t.outcome, t.trigger) == ("REDESIGN", "gate_2_reject")
    assert t.gate(2).kill_triggered and t.gate(2).gate.kill_criterion == "risk_concentrated_in_one_environment"


def test_all_weather_construction_unknown_share_does_not_hide_a_breach():
    # Falling-growth share unknown. Rising growth 62% > 35% makes the reject disjunction true
    # whatever the unknown share is -> REJECT (kill).
    facts = dict(BALANCED, risk_share_rising_growth="62%", risk_share_rising_inflation="18%",
                 risk_share_falling_inflation="12%")
    del facts["risk_share_falling_growth"]
    t = run("dalio_all_weather_portfolio_construction", facts)
    assert t.verdicts() == [P, R, NA] and t.trigger == "gate_2_reject"
    # Known shares all inside 15%..35% and one unknown: neither side decided -> INCONCLUSIVE,
    # which does not stop the conjunction -> gate 3 (carry 3% - 1% > 0, 2x <= 2.5x) PROCEEDs; risk
    # balance is decisive (issue 15), so the design is not implemented on an unknown share.
    facts = dict(BALANCED)
    del facts["risk_share_falling_growth"]
    t = run("dalio_all_weather_portfolio_construction", facts)
    assert t.verdicts() == [P, I, P]
    assert (t.outcome, t.trigger) == ("INCONCLUSIVE", "gate_2_inconclusive")


def test_all_weather_construction_negative_carry_is_a_plain_fail():
    # Financing 3% >= expected 3%: carry 0% is not > 0% -> gate 3 REJECT, no kill criterion.
    t = run("dalio_all_weather_portfolio_construction", dict(BALANCED, financing_rate="3%"))
    assert t.verdicts() == [P, P, R]
    assert (t.outcome, t.trigger) == ("REDESIGN", "gate_3_reject")
    assert not t.gate(3).kill_triggered


def test_all_weather_rebalancing_drift_at_the_tolerance_rebalances():
    # Largest drift |30% - 25%| = 5% >= 5% -> PROCEED; reason risk_drift -> PROCEED;
    # cost 0.25% <= 0.25% and leverage 2.5x <= 2.5x -> PROCEED -> REBALANCE.
    t = run("dalio_all_weather_rebalancing",
            dict(risk_share_rising_growth="30%", risk_share_falling_growth="20%", risk_share_rising_inflation="25%",
                 risk_share_falling_inflation="25%", rebalance_reason="risk_drift", trading_cost="0.25%",
                 post_rebalance_leverage="2.5x"))
    assert t.verdicts() == [P, P, P]
    assert (t.outcome, t.trigger) == ("REBALANCE", "all_gates_cleared")
    assert t.gate(1).computed["max_risk_drift"] == Decimal("0.05")


# --------------------------------------------------------------------------- Soros conviction-weighted sizing

CONVICTION = "soros_conviction_weighted_position_sizing"


def test_soros_sizing_survival_cap_binds():
    # Confirmed, return +5% > -8% stop -> g1 PROCEED. Payoff 40% / 8% = 5x >= 3x -> g2 PROCEED.
    # Conviction 6x >= 2x -> g3 PROCEED; conviction size 25% x 6 = 150%, survival cap 10% / 8% = 125%,
    # target = min(150%, 125%) = 125%. g4: 125% > 25% and loss 125% x 8% = 10% <= 10% -> PROCEED.
    t = run(CONVICTION, dict(thesis_status="confirmed", position_return="5%", stop_loss="8%",
                             remaining_upside="40%", test_position="25%", conviction_multiple="6x"))
    assert t.verdicts() == [P, P, P, P]
    assert (t.outcome, t.trigger) == ("SIZE_UP", "all_gates_cleared")
    assert t.gate(3).computed["target_position"] == Decimal("1.25")
    assert t.gate(4).computed["loss_if_stopped"] == Decimal("0.1")


def test_soros_sizing_stop_hit_cuts_even_if_story_confirmed():
    # Return -8% <= -8% stop -> g1 REJECT (the reject side holds) -> CUT, later gates N/A.
    t = run(CONVICTION, dict(thesis_status="confirmed", position_return="-8%", stop_loss="8%",
                             remaining_upside="40%", test_position="10%", conviction_multiple="4x"))
    assert t.verdicts() == [R, NA, NA, NA]
    assert (t.outcome, t.trigger) == ("CUT", "gate_1_reject")


def test_soros_sizing_cap_below_test_position_cuts():
    # Stop 25%: survival cap 10% / 25% = 40%; conviction size 50% x 3 = 150%; target = 40%.
    # g4: 40% > 50%? no -> REJECT -> CUT (the test position already risks more than the budget).
    t = run(CONVICTION, dict(thesis_status="confirmed", position_return="2%", stop_loss="25%",
                             remaining_upside="100%", test_position="50%", conviction_multiple="3x"))
    assert t.verdicts() == [P, P, P, R]
    assert (t.outcome, t.trigger) == ("CUT", "gate_4_reject")


# --------------------------------------------------------------------------- Soros reflexive trade: bounded re-entry

REFLEXIVE = "soros_reflexive_hypothesis_trade_construction"
PEG = dict(prevailing_bias="identified", feedback_loop="self_reinforcing", initial_position="25%",
           max_position="150%", hypothesis_confirmed=True, confirmation_rounds=5, stop_distance="3%",
           loss_budget="5%")


def test_reflexive_loop_runs_to_its_bound():
    # Pass 0: position 25% x (1+0) = 25%, loss 0.75% <= 5%; while: confirmed, 0 < 5, next 50% -> loss
    #   1.5% <= 5%, 50% <= 150% -> loop (iteration 1).
    # Pass 1: 50%; next 75% (loss 2.25%) -> loop (iteration 2).
    # Pass 2: 75%; next 100% (loss 3%) -> loop (iteration 3).
    # Pass 3: 100%, loss 3% <= 5% -> PROCEED; 3 loops = max_iterations -> leave the loop.
    # All gates PROCEED on the last pass -> TAKE_POSITION, final size 100%.
    t = run(REFLEXIVE, PEG)
    assert t.verdicts() == [P, P, P, P, P]
    assert (t.outcome, t.trigger) == ("TAKE_POSITION", "all_gates_cleared")
    assert t.iterations == 3
    assert t.gate(3).computed["position_size"] == Decimal("1")
    assert t.gate(5).computed["loss_if_stopped"] == Decimal("0.03")


def test_reflexive_hypothesis_not_confirmed_abandons():
    # g1-g3 PROCEED (test position 25% <= 150%), g4 hypothesis_confirmed false -> REJECT,
    # g5 N/A; the loop is never reached -> 0 iterations.
    t = run(REFLEXIVE, dict(PEG, hypothesis_confirmed=False, confirmation_rounds=0))
    assert t.verdicts() == [P, P, P, R, NA]
    assert (t.outcome, t.trigger) == ("ABANDON_HYPOTHESIS", "gate_4_reject")
    assert t.iterations == 0


@pytest.mark.parametrize(
    "changes, loops, size",
    [
        # No confirmation round yet: 0 < 0 is false -> no loop, position = initial 25%.
        (dict(confirmation_rounds=0), 0, "0.25"),
        # Two rounds: loops while iteration < 2 -> 2 loops, 25% x 3 = 75%.
        (dict(confirmation_rounds=2), 2, "0.75"),
        # Loss budget: initial 10%, stop 20%, budget 5%: pass 0 loss 2%, next 20% -> 4% ok -> loop;
        # pass 1 loss 4%, next 30% -> 6% > 5% -> stop after 1 loop at 20%.
        (dict(initial_position="10%", max_position="100%", stop_distance="20%", confirmation_rounds=4), 1, "0.2"),
        # Maximum position: initial 25%, cap 60%: next 50% ok -> loop; next 75% > 60% -> stop at 50%.
        (dict(max_position="60%"), 1, "0.5"),
    ],
)
def test_reflexive_loop_stops_on_each_condition(changes, loops, size):
    t = run(REFLEXIVE, dict(PEG, **changes))
    assert t.outcome == "TAKE_POSITION"
    assert t.iterations == loops
    assert t.gate(3).computed["position_size"] == Decimal(size)
