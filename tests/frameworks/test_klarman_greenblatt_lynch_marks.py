"""Hand-worked traces for the Klarman, Greenblatt, Lynch and Marks cards.

Every expected verdict list, outcome and trigger below was worked out by hand
from the card's own rules (quoted in the comment above each case) and the
gate-logic semantics in the module docstring of ``engine/execute.py``; none
was copied from the engine's output. Facts are written as in a scenario file
(``"15%"``, ``"$50M"``, ``"25x"``) and converted by the card's declared types.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from ipb.engine.execute import Trace, execute
from ipb.engine.registry import bundled_card_paths, card_table, compiled_card
from ipb.engine.scenario import facts_from_mapping

P, R, I, NA = "PROCEED", "REJECT", "INCONCLUSIVE", "N/A"


def run(card_id: str, **facts: Any) -> Trace:
    compiled = compiled_card(card_id)
    return execute(compiled, facts_from_mapping(compiled.card, facts))


def kill_column(trace: Trace) -> list[str | None]:
    """The GRP's ``kill_criterion`` field gate by gate (N/A reasons included)."""
    return [entry["kill_criterion"] for entry in trace.to_grp()["gold_program"]]


def check(trace: Trace, verdicts: list[str], outcome: str, trigger: str) -> None:
    assert trace.verdicts() == verdicts
    assert (trace.outcome, trace.trigger) == (outcome, trigger)
    grp = trace.to_grp()
    assert (grp["investment_verdict"], grp["verdict_trigger"]) == (outcome, trigger)


# --------------------------------------------------------------------------- Table 5 rows

TABLE_5_ROWS = {
    # id: (investor, framework, topology, gate logic, gates, kill gates) -- paper Table 5
    "klarman_deep_value_identification": (
        "Seth Klarman", "Klarman Deep Value Identification Framework", "linear_sequential", "conjunction", 4, 2),
    "klarman_downside_first_process": (
        "Seth Klarman", "Klarman Downside-First Investment Process", "linear_sequential", "conjunction", 3, 3),
    "greenblatt_spinoff_checklist": (
        "Joel Greenblatt", "Greenblatt Spinoff Investment Checklist", "linear_sequential", "conjunction", 4, 0),
    "greenblatt_magic_formula_screen": (
        "Joel Greenblatt", "Magic Formula Stock-Screening Procedure", "linear_sequential", "conjunction", 5, 3),
    "lynch_portfolio_story_review": (
        "Peter Lynch", "Lynch Portfolio Story Review Framework", "linear_sequential", "disjunction", 4, 0),
    "lynch_six_category_framework": (
        "Peter Lynch", "Lynch Six-Category Investment Framework", "conditional_branch", "regime_dependent", 4, 0),
    "marks_distressed_debt": (
        "Howard Marks", "Marks Distressed Debt Investment Framework", "linear_sequential", "conjunction", 5, 0),
    "marks_market_cycle_positioning": (
        "Howard Marks", "Marks Market Cycle Positioning Framework", "conditional_branch", "regime_dependent", 2, 2),
    "marks_risk_return_assessment": (
        "Howard Marks", "Marks Risk-Return Assessment Framework", "parallel_threshold", "weighted_threshold_3_of_5", 5, 0),
}


@pytest.mark.parametrize("card_id", sorted(TABLE_5_ROWS))
def test_card_matches_its_table_5_row(card_id: str) -> None:
    (row,) = card_table([compiled_card(card_id).card])
    got = (row["investor"], row["name"], row["topology_type"], row["gate_logic"], row["gates"], row["kill_gates"])
    assert got == TABLE_5_ROWS[card_id]


# --------------------------------------------------------------------------- Lynch story review (disjunction)

# Trigger-card convention (paper §7.3; issue 15, defect 6): a trigger that fires is the gate's
# REJECT and gives SELL; a trigger checked and quiet is PROCEED; HOLD needs every trigger checked.
# Shared facts: a fast grower bought for 12% growth, now growing 10%, story intact, no dividend.
LYNCH_BASE = dict(
    company_category="fast_grower",
    story_intact=True,
    growth_at_purchase="12%",
    current_growth="10%",
    dividend_yield="0%",
    pe_historical_average="16x",
    gain_since_purchase="40%",
    category_exit_signal=False,
    alternative_identified=False,
)


def test_lynch_review_exactly_one_trigger_fires() -> None:
    # Gate 1: story intact and 10% >= 1/2 * 12% = 6%         -> quiet (PROCEED).
    # Gate 2: (10 + 0) / 25 = 0.4 <= 1/2, a fast grower       -> fires (REJECT).
    # The first trigger that fires gives SELL; gates 3-4 are never reached.
    trace = run("lynch_portfolio_story_review", **LYNCH_BASE, pe_ratio="25x")
    check(trace, [P, R, NA, NA], "SELL", "gate_2_trigger")
    assert kill_column(trace) == [None, None, "terminated_by_gate_2", "terminated_by_gate_2"]
    assert trace.gate("pe_far_above_growth").computed["lynch_ratio"] == Decimal("0.4")


def test_lynch_review_no_trigger_fires_holds() -> None:
    # Gate 1 quiet as above. Gate 2: 10 / 18 = 0.556 > 1/2 -> quiet.
    # Gate 3: a fast grower with no exit signal -> quiet. Gate 4: no replacement -> quiet.
    # Every trigger checked and quiet: the pass verdict HOLD, trigger no_trigger_fired.
    trace = run("lynch_portfolio_story_review", **LYNCH_BASE, pe_ratio="18x")
    check(trace, [P, P, P, P], "HOLD", "no_trigger_fired")


def test_lynch_review_unknown_story_is_inconclusive() -> None:
    # story_intact unknown: gate 1 reject = (not ?) or (10% < 6%) = ?; proceed = ? and true = ?
    # -> INCONCLUSIVE, and the chain goes on. Gates 2-4 quiet as in the HOLD case. No trigger
    # fired but one was not checked, so the card cannot say HOLD: INCONCLUSIVE, undetermined.
    facts = {k: v for k, v in LYNCH_BASE.items() if k != "story_intact"}
    trace = run("lynch_portfolio_story_review", **facts, pe_ratio="18x")
    check(trace, [I, P, P, P], "INCONCLUSIVE", "undetermined")


def test_lynch_review_stalwart_target_and_better_opportunity() -> None:
    # A stalwart up 40% at P/E 16x against a 12x norm, growing 11% and yielding 2%: gate 2 is
    # quiet ((11 + 2) / 16 = 0.8125 > 1/2) and gate 3 fires (40% >= 30% and 16x > 12x).
    stalwart = dict(LYNCH_BASE, company_category="stalwart", current_growth="11%", dividend_yield="2%",
                    pe_ratio="16x", pe_historical_average="12x")
    check(run("lynch_portfolio_story_review", **stalwart), [P, P, R, NA], "SELL", "gate_3_trigger")
    # Same stalwart up only 20%: gate 3 quiet. A replacement at 8x growing 16% has growth / P/E
    # 16 / 8 = 2 >= 2 x 0.8125 = 1.625, so gate 4 fires.
    swap = dict(stalwart, gain_since_purchase="20%", alternative_identified=True,
                alternative_pe="8x", alternative_growth="16%")
    trace = run("lynch_portfolio_story_review", **swap)
    check(trace, [P, P, P, R], "SELL", "gate_4_trigger")
    assert trace.gate("better_opportunity").computed == {"holding_ratio": Decimal("0.8125"),
                                                         "alternative_ratio": Decimal("2")}


def test_lynch_review_no_growth() -> None:
    # Story intact but growth 0% against 12% at purchase: 0% < 6%, so gate 1 fires first.
    check(run("lynch_portfolio_story_review", **dict(LYNCH_BASE, current_growth="0%"), pe_ratio="10x"),
          [R, NA, NA, NA], "SELL", "gate_1_trigger")
    # Bought with no growth and still none: gate 1 quiet (0% < 0% is false); a fast grower with
    # (0 + 0) / 10 = 0 <= 1/2 fires gate 2 (no division by the growth rate any more).
    trace = run("lynch_portfolio_story_review", **dict(LYNCH_BASE, growth_at_purchase="0%", current_growth="0%"),
                pe_ratio="10x")
    check(trace, [P, R, NA, NA], "SELL", "gate_2_trigger")
    assert trace.gate("pe_far_above_growth").computed["lynch_ratio"] == 0


def test_lynch_review_slow_grower_is_not_sold_on_pe_against_growth() -> None:
    """Regression (issue 15, defect 6): P/E 12 with 3% growth sold a slow grower with its story intact."""
    slow = dict(LYNCH_BASE, company_category="slow_grower", growth_at_purchase="3%", current_growth="3%",
                dividend_yield="5%", gain_since_purchase="15%")
    check(run("lynch_portfolio_story_review", **slow, pe_ratio="12x"), [P, P, P, P], "HOLD", "no_trigger_fired")
    # A stalwart at the same numbers is judged on (3 + 5) / 12 = 0.667 > 1/2: quiet too; without the
    # dividend 3 / 12 = 0.25 <= 1/2 fires.
    stalwart = dict(slow, company_category="stalwart")
    check(run("lynch_portfolio_story_review", **stalwart, pe_ratio="12x"), [P, P, P, P], "HOLD", "no_trigger_fired")
    check(run("lynch_portfolio_story_review", **dict(stalwart, dividend_yield="0%"), pe_ratio="12x"),
          [P, R, NA, NA], "SELL", "gate_2_trigger")


# --------------------------------------------------------------------------- Lynch six categories (regime)

SIX_BASE = dict(distressed=False, cyclical_industry=False, hidden_asset_value="$0", market_cap="$1B")


@pytest.mark.parametrize(
    "facts, regime, verdicts, outcome",
    [
        # slow grower: growth 4% < 10%; (4 + 7) / 7 = 1.571 >= 1.5 -> PROCEED; 15 >= 10 years -> PROCEED.
        (dict(earnings_growth="4%", dividend_yield="7%", pe_ratio="7x", dividend_raised_years=15),
         "slow_grower", [P, P, NA, P], "INVEST"),
        # stalwart: 10% <= 12% < 20%; (12 + 3) / 10 = 1.5 exactly -> PROCEED; 10x <= 13x -> PROCEED.
        (dict(earnings_growth="12%", dividend_yield="3%", pe_ratio="10x", pe_historical_average="13x"),
         "stalwart", [P, P, NA, P], "INVEST"),
        # fast grower: 25% >= 20%; (25 + 0) / 40 = 0.625 < 1 -> REJECT, branch stops.
        (dict(earnings_growth="25%", dividend_yield="0%", pe_ratio="40x", debt_share="10%", expansion_room=True),
         "fast_grower", [P, R, NA, NA], "DECLINE"),
        # fast grower: (22 + 0) / 14 = 1.571 -> PROCEED; debt 10% <= 25% -> PROCEED; room -> PROCEED.
        (dict(earnings_growth="22%", dividend_yield="0%", pe_ratio="14x", debt_share="10%", expansion_room=True),
         "fast_grower", [P, P, P, P], "INVEST"),
        # cyclical: debt 50% is between 25% and 80% -> INCONCLUSIVE (does not stop);
        # cycle at its peak -> REJECT.
        (dict(cyclical_industry=True, debt_share="50%", cycle_position="peak"),
         "cyclical", [P, NA, I, R], "DECLINE"),
        # turnaround: plan and cash $300M >= bank debt $200M -> PROCEED.
        (dict(distressed=True, turnaround_plan=True, cash="$300M", bank_debt="$200M"),
         "turnaround", [P, NA, NA, P], "INVEST"),
        # asset play: $900M >= $500M; debt 15% -> PROCEED; $900M - $100M = $800M >= $500M -> PROCEED.
        (dict(hidden_asset_value="$900M", market_cap="$500M", total_debt="$100M", debt_share="15%"),
         "asset_play", [P, NA, P, P], "INVEST"),
    ],
    ids=["slow_grower", "stalwart", "fast_grower_overpriced", "fast_grower", "cyclical_at_peak", "turnaround",
         "asset_play"],
)
def test_lynch_six_categories_one_branch_per_category(facts, regime, verdicts, outcome) -> None:
    trace = run("lynch_six_category_framework", **{**SIX_BASE, **facts})
    stopper = next((i + 1 for i, v in enumerate(verdicts) if v == R), None)
    trigger = f"regime_{regime}" if stopper is None else f"regime_{regime}_gate_{stopper}_reject"
    check(trace, verdicts, outcome, trigger)
    assert trace.regime == regime
    # Gates off the branch say so; none of this card's gates is a kill gate.
    kills = kill_column(trace)
    for k, v in enumerate(verdicts):
        if v == NA and (stopper is None or k + 1 < stopper):
            assert kills[k] == f"not_on_branch_{regime}"


def test_lynch_six_categories_unknown_growth_leaves_category_open() -> None:
    # Not distressed, not cyclical, no hidden assets, growth unknown: the fourth
    # rule (growth >= 20%) is unknown, so no regime is selected.
    check(run("lynch_six_category_framework", **SIX_BASE), [I, NA, NA, NA], "INCONCLUSIVE", "regime_undetermined")


# --------------------------------------------------------------------------- Marks market cycle (regime)

HOT = dict(high_yield_spread="2.7%", investor_psychology="optimistic", capital_availability="loose")
NEUTRAL = dict(high_yield_spread="4.5%", investor_psychology="balanced", capital_availability="normal")
COLD = dict(high_yield_spread="18%", investor_psychology="panicked", capital_availability="tight")


@pytest.mark.parametrize(
    "conditions, posture, regime, verdicts, outcome, trigger",
    [
        # hot: 2.7% <= 3.5% and optimistic -> first hot clause holds. Defensive fits.
        (HOT, "defensive", "hot", [P, P], "DEFENSIVE", "regime_hot"),
        # hot + aggressive: gate 2's proceed is false -> REJECT (kill) -> the hot branch's fail verdict.
        (HOT, "aggressive", "hot", [P, R], "REDUCE_RISK", "regime_hot_gate_2_reject"),
        (HOT, "balanced", "hot", [P, R], "REDUCE_RISK", "regime_hot_gate_2_reject"),
        # neutral: 4.5% is neither <= 3.5% nor >= 8%, mood balanced, capital normal:
        # every hot and cold clause is false -> the fallback regime.
        (NEUTRAL, "balanced", "neutral", [P, P], "BALANCED", "regime_neutral"),
        (NEUTRAL, "aggressive", "neutral", [P, R], "RETURN_TO_BALANCED", "regime_neutral_gate_2_reject"),
        # cold: 18% >= 8% and panicked -> first cold clause holds. Aggressive fits.
        (COLD, "aggressive", "cold", [P, P], "AGGRESSIVE", "regime_cold"),
        (COLD, "defensive", "cold", [P, R], "INCREASE_RISK", "regime_cold_gate_2_reject"),
    ],
    ids=["hot_defensive", "hot_aggressive", "hot_balanced", "neutral_balanced", "neutral_aggressive",
         "cold_aggressive", "cold_defensive"],
)
def test_marks_cycle_branch_for_each_regime(conditions, posture, regime, verdicts, outcome, trigger) -> None:
    trace = run("marks_market_cycle_positioning", thesis_basis="present_conditions", proposed_posture=posture,
                **conditions)
    check(trace, verdicts, outcome, trigger)
    assert trace.regime == regime
    assert trace.to_grp()["regime"] == regime
    expected_kill = "posture_leans_with_the_pendulum" if verdicts[1] == R else None
    assert kill_column(trace) == [None, expected_kill]


def test_marks_cycle_two_of_three_indicators_decide() -> None:
    # Spread 5% (not hot), but euphoric and loose: the third hot clause holds.
    trace = run("marks_market_cycle_positioning", thesis_basis="present_conditions", proposed_posture="defensive",
                high_yield_spread="5%", investor_psychology="euphoric", capital_availability="loose")
    assert trace.regime == "hot"
    # Only the spread known and it is 5%: hot clauses are (false and ?) or (false and ?) or (? and ?) = ?.
    trace = run("marks_market_cycle_positioning", thesis_basis="present_conditions", proposed_posture="balanced",
                high_yield_spread="5%")
    check(trace, [I, NA], "INCONCLUSIVE", "regime_undetermined")


def test_marks_cycle_forecast_kill_fires_before_classifying() -> None:
    # The classifier's own reject (thesis_basis == macro_forecast) is evaluated
    # first: REJECT with its kill, no regime, the card's fail verdict.
    trace = run("marks_market_cycle_positioning", thesis_basis="macro_forecast", proposed_posture="defensive", **COLD)
    check(trace, [R, NA], "REJECT_POSTURE", "gate_1_reject")
    assert trace.regime is None
    assert kill_column(trace) == ["positioning_rests_on_macro_forecast", "terminated_by_gate_1"]


# --------------------------------------------------------------------------- Marks risk-return (3 of 5)

# Lenses in order: price/value, premium, permanent loss, second-level thinking, pendulum.
RR_FAVOURABLE = dict(price="$70M", intrinsic_value="$100M",  # 70% <= 80% -> PROCEED
                     expected_return="12%", risk_free_rate="3%",  # premium 9% >= 5% -> PROCEED
                     permanent_loss_probability="5%",  # <= 10% -> PROCEED
                     view_vs_consensus="variant_and_supported", asset_popularity="shunned",  # PROCEED
                     market_temperature="cold")  # not hot -> PROCEED
RR_UNKNOWN_LAST_TWO = {k: v for k, v in RR_FAVOURABLE.items() if k not in ("view_vs_consensus", "market_temperature")}


@pytest.mark.parametrize(
    "overrides, verdicts, outcome, trigger",
    [
        # Three PROCEED and two unknown lenses: 3 >= 3 already -> INVEST.
        ({}, [P, P, P, I, I], "INVEST", "threshold_met_3_of_5"),
        # Two PROCEED, one REJECT (loss 30% >= 25%), two unknown: 2 < 3 but 2 + 2 >= 3 -> undecided.
        ({"permanent_loss_probability": "30%"}, [P, P, R, I, I], "INCONCLUSIVE", "threshold_undecided_2_of_5"),
        # One PROCEED (premium), two REJECT (price 110% >= 100%, loss 30%), two unknown: 1 + 2 = 3 -> undecided.
        ({"price": "$110M", "permanent_loss_probability": "30%"}, [R, P, R, I, I], "INCONCLUSIVE",
         "threshold_undecided_1_of_5"),
        # No PROCEED: price 110%, premium 1% < 2%, loss 30%, two unknown: 0 + 2 < 3 -> DECLINE.
        ({"price": "$110M", "expected_return": "4%", "permanent_loss_probability": "30%"}, [R, R, R, I, I],
         "DECLINE", "threshold_not_met_0_of_5"),
    ],
    ids=["three_known_favourable", "two_favourable", "one_favourable", "none_favourable"],
)
def test_marks_risk_return_with_two_unknown_lenses(overrides, verdicts, outcome, trigger) -> None:
    trace = run("marks_risk_return_assessment", **{**RR_UNKNOWN_LAST_TWO, **overrides})
    check(trace, verdicts, outcome, trigger)
    assert all(k is None for k in kill_column(trace))


def test_marks_risk_return_all_lenses_favourable() -> None:
    check(run("marks_risk_return_assessment", **RR_FAVOURABLE), [P, P, P, P, P], "INVEST", "threshold_met_5_of_5")


# --------------------------------------------------------------------------- boundaries of the conjunctive cards


def test_klarman_margin_of_safety_is_exact_at_two_thirds() -> None:
    base = dict(mispricing_source="spinoff", conservative_value="$300M", value_rests_on_growth=False,
                catalyst="share_repurchase", catalyst_months=12)
    # $200M = 2/3 * $300M exactly -> PROCEED; gate 4: repurchase within 24 months -> PROCEED.
    check(run("klarman_deep_value_identification", **base, market_value="$200M"), [P, P, P, P], "INVEST",
          "all_gates_cleared")
    # $201M > $200M -> REJECT with kill; gate 4 never reached.
    trace = run("klarman_deep_value_identification", **base, market_value="$201M")
    check(trace, [P, P, R, NA], "DECLINE", "gate_3_reject")
    assert kill_column(trace) == [None, None, "insufficient_margin_of_safety", "terminated_by_gate_3"]


def test_klarman_catalyst_gate_cases() -> None:
    base = dict(mispricing_source="forced_selling", conservative_value="$100M", value_rests_on_growth=False)
    # No catalyst at 60% of value: inside the 2/3 margin of safety, and Klarman does not require
    # a catalyst (issue 15, defect 7; the card used to DECLINE here) -> gate 4 PROCEEDs, INVEST.
    trace = run("klarman_deep_value_identification", **base, market_value="$60M", catalyst="none")
    check(trace, [P, P, P, P], "INVEST", "all_gates_cleared")
    # A catalyst with a timing, however distant, is assessed: PROCEED.
    check(run("klarman_deep_value_identification", **base, market_value="$60M", catalyst="asset_sale",
              catalyst_months=48), [P, P, P, P], "INVEST", "all_gates_cleared")
    # A catalyst named with no timing: INCONCLUSIVE, not decisive -> the chain still invests.
    check(run("klarman_deep_value_identification", **base, market_value="$60M", catalyst="asset_sale"),
          [P, P, P, I], "INVEST", "all_gates_cleared")
    # Nothing known about a catalyst: INCONCLUSIVE as well; the gate never rejects.
    check(run("klarman_deep_value_identification", **base, market_value="$60M"), [P, P, P, I], "INVEST",
          "all_gates_cleared")


def test_klarman_downside_first_every_gate_is_a_kill() -> None:
    # Loss (100 - 70) / 100 = 30% > 25% -> gate 1 REJECT, kill.
    trace = run("klarman_downside_first_process", purchase_price="$100M", downside_value="$70M",
                conservative_value="$200M", position_weight="5%")
    check(trace, [R, NA, NA], "DECLINE", "gate_1_reject")
    assert kill_column(trace)[0] == "downside_loss_too_large"
    # Loss 20%; price 50% of value; 10% * 20% = 2% <= 2% exactly -> INVEST.
    check(run("klarman_downside_first_process", purchase_price="$100M", downside_value="$80M",
              conservative_value="$200M", position_weight="10%"), [P, P, P], "INVEST", "all_gates_cleared")


def test_magic_formula_ratios_and_boundaries() -> None:
    facts = dict(market_cap="$50M", sector="industrials", foreign_adr=False, ebit="$15M",
                 enterprise_value="$100M", net_working_capital="$20M", net_fixed_assets="$30M",
                 combined_rank_position=30, planned_holding_months=12, portfolio_positions=20)
    # $50M >= $50M; industrials, not an ADR; EBIT > 0, EV > 0, capital $50M > 0;
    # rank 30 <= 30 (the 20-30 highest ranked); 20 positions, 11 <= 12 <= 13.  EY = 15/100 = 15%, ROC = 15/50 = 30%.
    trace = run("greenblatt_magic_formula_screen", **facts)
    check(trace, [P, P, P, P, P], "INVEST", "all_gates_cleared")
    computed = trace.gate("formula_ratios").computed
    assert (computed["earnings_yield"], computed["return_on_capital"]) == (Decimal("0.15"), Decimal("0.3"))
    # A foreign ADR is killed at gate 2 whatever its ranks.
    trace = run("greenblatt_magic_formula_screen", **{**facts, "foreign_adr": True})
    check(trace, [P, R, NA, NA, NA], "DECLINE", "gate_2_reject")
    assert kill_column(trace)[1] == "excluded_sector_or_foreign_adr"
    # Loss-making: EBIT <= 0 is a plain REJECT at gate 3 (no kill criterion).
    trace = run("greenblatt_magic_formula_screen", **{**facts, "ebit": "-$5M"})
    check(trace, [P, P, R, NA, NA], "DECLINE", "gate_3_reject")
    assert kill_column(trace)[2] is None
    # A six-month holding plan fails the holding rule (plain REJECT).
    check(run("greenblatt_magic_formula_screen", **{**facts, "planned_holding_months": 6}),
          [P, P, P, P, R], "DECLINE", "gate_5_reject")


def test_spinoff_insider_gate_three_ways() -> None:
    base = dict(relative_size="10%", index_eligible=True, insider_buying=False, ev_to_ebit="7x",
                peer_ev_to_ebit="10x", months_since_spin=6)
    # 7x <= 80% * 10x = 8x -> PROCEED at gate 3; 6 <= 36 months -> PROCEED at gate 4.
    check(run("greenblatt_spinoff_checklist", **base, insider_stake="6%"), [P, P, P, P], "INVEST", "all_gates_cleared")
    # 3% is neither >= 5% nor < 1%: INCONCLUSIVE, which does not stop the chain; the gate is
    # decisive (issue 15), so the card stays undecided.
    check(run("greenblatt_spinoff_checklist", **base, insider_stake="3%"), [P, I, P, P], "INCONCLUSIVE",
          "gate_2_inconclusive")
    # 0.5% < 1% and no buying: plain REJECT.
    check(run("greenblatt_spinoff_checklist", **base, insider_stake="0.5%"), [P, R, NA, NA], "DECLINE",
          "gate_2_reject")


def test_distressed_debt_recovery_arithmetic() -> None:
    facts = dict(spread_to_treasuries="25%", purchase_price="45%", class_face="$1B", senior_claims="$500M",
                 reorganization_value="$1.4B", stressed_value="$1B", years_to_resolution=2,
                 legal_process_risk="low")
    # base recovery = min(100%, (1.4B - 0.5B) / 1B) = 90%; bad case (1.0B - 0.5B) / 1B = 50% >= 45%;
    # return (90% / 45% - 1) / 2 = 50% >= 15%.
    trace = run("marks_distressed_debt", **facts)
    check(trace, [P, P, P, P, P], "INVEST", "all_gates_cleared")
    assert trace.gate("expected_return").computed["expected_annual_return"] == Decimal("0.5")
    # Bad case $900M: (0.9B - 0.5B) / 1B = 40% < 45% -> gate 3 REJECT.
    check(run("marks_distressed_debt", **{**facts, "stressed_value": "$900M"}), [P, P, R, NA, NA], "DECLINE",
          "gate_3_reject")


def test_klarman_conservative_valuation_elements_are_whole() -> None:
    """Gate 2 names one element for the valuation method; unquoted, YAML's flow sequence split it at the comma
    into 'valuation method (NPV' and 'liquidation or private-market)'."""
    gate = compiled_card("klarman_deep_value_identification").card.gates[1]
    assert gate.id == "conservative_valuation"
    assert gate.required_elements == ("conservative value {conservative_value}",
                                      "valuation method (NPV, liquidation or private-market)",
                                      "not reliant on growth projections")


@pytest.mark.parametrize("card_id", sorted(path.stem for path in bundled_card_paths()))
def test_no_required_element_is_split_by_a_comma(card_id: str) -> None:
    """A comma inside brackets in an unquoted flow-sequence element cuts it in two: every element's brackets balance."""
    for gate in compiled_card(card_id).card.gates:
        for element in (*gate.required_elements, *(e for es in gate.elements_by_verdict.values() for e in es)):
            assert element.count("(") == element.count(")") and element.count("[") == element.count("]"), \
                (gate.id, element)
