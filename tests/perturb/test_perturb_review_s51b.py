"""s51rfix2: review kinds of s51review (issue 18) taken by the second fixer, with the lead's rulings.

Items: 'ipb perturb --card C --base frameworks/scenarios/C/B --n 1000 --seed 10808' on s51review's bases; counts
before -> after are in /work/notes/s51rfix2.md. Each test below fails without its fix (checked by putting the
previous card back from git, no stash).
"""

from __future__ import annotations

from decimal import Decimal

from perturb_support import assert_rule_case, review_run

DALIO = "dalio_debt_supercycle_navigation"

# --------------------------------------------------------------------------- D12: cash and bonds beside inflation
#
# s51review D12 (28 of 1,000 items on pushing_on_a_string_inflation_hedges, seed 10808): a slump at the rate floor,
# not printing, with inflation (nominal less real growth) of 3-7%, gold "depression, HOLD_CASH_AND_BONDS" (the
# deflationary-depression play) beside a 0.7% ten-year. The lead's ruling: bound the branch's setting at 2%.

FLOOR_SLUMP = "a_deflationary_slump_at_the_rate_floor_has_low_inflation"
_SLUMP = {"bubble_signals": "2", "central_bank_stance": "neutral", "debt_growth_gap": "8%",
          "foreign_currency_debt_share": "5%", "long_bond_yield": "0.7%", "nominal_gdp_growth": "-0.5%",
          "policy_rate": "0.1%", "real_gdp_growth": "-3.5%", "yield_curve_slope": "0.6%"}


def test_a_deflationary_slump_at_the_rate_floor_has_low_inflation_cases():
    # s51review #20 DALIO-DC-013-5273de230c75093c: real -3.5%, nominal -0.5% (inflation 3%), neutral at 0.1%
    assert_rule_case(DALIO, FLOOR_SLUMP, _SLUMP, True)
    # s51review #3 DALIO-DC-013-72e347b57c8a65e9: real -9%, nominal -2% (inflation 7%), easing at -0.5%, 45% abroad
    assert_rule_case(DALIO, FLOOR_SLUMP, {**_SLUMP, "central_bank_stance": "easing", "debt_growth_gap": "5%",
                                          "foreign_currency_debt_share": "45%", "nominal_gdp_growth": "-2%",
                                          "policy_rate": "-0.5%", "real_gdp_growth": "-9%",
                                          "yield_curve_slope": "1.2%"}, True)
    # the edge: inflation of 2% (real -3.5%, nominal -1.5%) is kept
    assert_rule_case(DALIO, FLOOR_SLUMP, {**_SLUMP, "nominal_gdp_growth": "-1.5%"}, False)
    # outside the branch's setting: the central bank printing (the base itself, pushing on a string), half the debt
    # abroad (gate 1's kill), real output not falling
    assert_rule_case(DALIO, FLOOR_SLUMP, {**_SLUMP, "central_bank_stance": "printing", "nominal_gdp_growth": "-2%"},
                     False)
    assert_rule_case(DALIO, FLOOR_SLUMP, {**_SLUMP, "foreign_currency_debt_share": "50%"}, False)
    assert_rule_case(DALIO, FLOOR_SLUMP, {**_SLUMP, "real_gdp_growth": "0%", "nominal_gdp_growth": "2.5%",
                                          "debt_growth_gap": "2%"}, False)


def test_no_cash_and_bonds_gold_beside_inflation_of_three_percent():
    """A 400-item run of the review base and seed: no gold HOLD_CASH_AND_BONDS with inflation of 3% or more."""
    run = review_run(DALIO, "pushing_on_a_string_inflation_hedges.yaml", 10808, 400)
    hits = [item["id"] for item, f in run if item["investment_verdict"] == "HOLD_CASH_AND_BONDS"
            and f["nominal_gdp_growth"] - f["real_gdp_growth"] >= 0.03]
    assert hits == []


# --------------------------------------------------------------------------- S7: a trade built on an unclear bias
#
# s51review S7 (101 of 1,000 items on loss_budget_stops_loop, 30 June 2007, seed 10808): "The prevailing bias in
# participants' views is unclear", gate 1 INCONCLUSIVE, gold TAKE_POSITION (resized to 24-40% of capital). The lead
# ruled gate 1 decisive: a reflexive hypothesis starts from a bias the trader can name, so an unclear one ends the
# analysis INCONCLUSIVE (a card change that moves gold).

SOROS = "soros_reflexive_hypothesis_trade_construction"


def _soros(facts):
    from ipb.engine.execute import execute
    from ipb.engine.registry import compiled_card
    from ipb.engine.scenario import facts_from_mapping

    compiled = compiled_card(SOROS)
    return execute(compiled, facts_from_mapping(compiled.card, facts))


#: s51review #2 SOR-RHT-005-b0688c38d5cbb891: test 6%, limit 31%, stop 20%, budget 5%, five confirmations.
_S7 = {"confirmation_rounds": 5, "feedback_loop": "self_reinforcing", "hypothesis_confirmed": True,
       "initial_position": "6%", "loss_budget": "5%", "max_position": "31%", "prevailing_bias": "unclear",
       "stop_distance": "20%"}


def test_an_unclear_bias_ends_the_trade_inconclusive():
    result = _soros(_S7)
    assert result.outcome == "INCONCLUSIVE"
    assert result.trigger == "gate_1_inconclusive"
    # the later gates still read as before: the loop, the confirmation, the test position's loss (6% x 20% = 1.2%
    # of a 5% budget) and the resizing all clear
    assert result.verdicts() == ["INCONCLUSIVE", "PROCEED", "PROCEED", "PROCEED", "PROCEED"]


def test_a_named_bias_still_takes_the_position_and_an_absent_one_still_kills():
    """The same trade with the bias identified: 6% grows by 6% a confirmation while the next size's stop-out stays
    within the 5% budget (24% x 20% = 4.8%; 30% x 20% = 6% would not), so it is taken (worked by hand)."""
    named = _soros({**_S7, "prevailing_bias": "identified"})
    assert named.outcome == "TAKE_POSITION"
    assert named.env["position_size"] == Decimal("0.24") and named.env["next_position"] == Decimal("0.30")
    assert _soros({**_S7, "prevailing_bias": "absent", "feedback_loop": "absent"}).outcome != "TAKE_POSITION"


def test_no_item_takes_a_position_on_an_unclear_bias():
    """A 300-item run of the review base and seed: no gold TAKE_POSITION beside an unclear bias. An unclear bias
    ends INCONCLUSIVE unless a later gate rejects (the market has not borne the trade out: ABANDON_HYPOTHESIS, as
    a false conjunct decides a Kleene conjunction whatever the unknown one)."""
    run = review_run(SOROS, "loss_budget_stops_loop.yaml", 10808, 300)
    unclear = [item for item, f in run if f["prevailing_bias"] == "unclear"]
    assert any(item["investment_verdict"] == "INCONCLUSIVE" for item in unclear)  # non-vacuity
    assert {item["investment_verdict"] for item in unclear} <= {"INCONCLUSIVE", "ABANDON_HYPOTHESIS"}

