"""s56rweak: the weak (implausible) kinds s56review and s55review left open (issue 18 bar: no fact contradicts another
or its date), on CPPIB, Graham's intrinsic value and net-net cards, PIF and Marks's distressed debt.

Each fixed kind has rule cases worked by hand (a review item's facts refused, its neighbour kept) and a run of the
review's own (``ipb perturb --card C --base B --n 1000 --seed S``, the base and seed the review read) asserting the
kind's count is 0, with a floor showing the run still states what the rule reads. Each run test fails on the card
(or regimes.yaml) before its fix: the counts before are in the comments (checked by putting the old file back). Two
kinds are kept by decision, not fixed (Graham net-net P/E under 3 in 1975; Marks's price under the bad-case
recovery): their tests pin what the decision keeps, so that a later rule that removes it fails here.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from perturb_support import anachronisms_of, assert_rule_case, review_run

CPPIB = "cppib_total_portfolio_active_strategy"
GRAHAM_IV = "graham_intrinsic_value_margin_of_safety"
NET_NET = "graham_net_net_screen"
PIF = "pif_dual_kill_investment_screen"
MARKS_DD = "marks_distressed_debt"


def _residual(f):
    return f["strategy_return"] - f["benchmark_return"] - f["factor_return"]


# --------------------------------------------------------------------------- CPPIB: the residual alpha's standard error
#
# s56review (gate3_alpha_eaten_by_fees, seed 11313): #221 a 17% residual alpha at t 2.2, a standard error of 7.7% a
# year; 212 of 1,000 items above 5% (the review counted 213). s55review (k2_factor_substitutable, seed 11212): 710
# above 3.5%, a -30% residual at t -0.3. Before the fix the same runs also gave 79 and 52 items under 0.25% (a
# 0.25% residual at t 9.6).
_SE = "the_residual_alphas_standard_error_is_a_quarter_point_to_3_5_points"
_SIGN = "the_t_statistic_has_the_sign_of_the_residual_alpha"


@pytest.mark.parametrize("strategy, benchmark, factor, t, broken", [
    ("26%", "6%", "3%", "2.2", (_SE,)),        # #221: 17% / 2.2 = 7.7%
    ("9%", "6%", "1.5%", "2.2", ()),           # the base: 1.5% / 2.2 = 0.68%
    ("13.5%", "6%", "0%", "2.2", ()),          # 7.5% <= 3.5% x 2.2 = 7.7% (3.41%)
    ("13.5%", "6%", "0%", "2.1", (_SE,)),      # 7.5% > 3.5% x 2.1 = 7.35% (3.57%)
    ("-23%", "7%", "0%", "-0.3", (_SE,)),      # the s55review kind: -30% at t -0.3
    ("6%", "7%", "0%", "-0.3", ()),            # -1% at t -0.3: 3.33%
    ("7.25%", "7%", "0%", "9.6", (_SE,)),      # 0.25% at t 9.6: 0.026%
    ("9.5%", "7%", "0%", "9.6", ()),           # 2.5% at t 9.6: 0.26%
    ("7%", "7%", "0%", "0", ()),               # no residual, t 0 (the sign rule's case)
    ("9%", "6%", "1.5%", "-2.2", (_SIGN,)),    # opposite signs: the sign rule's alone
    ("9%", "6%", "3%", "0.5", (_SIGN,)),       # a 0% residual with t 0.5: the sign rule's alone
])
def test_cppib_residual_alpha_standard_error_band(strategy, benchmark, factor, t, broken):
    facts = {"strategy_return": strategy, "benchmark_return": benchmark, "factor_return": factor,
             "alpha_t_stat": t, "active_cost": "1%", "passive_cost": "0.1%"}
    assert_rule_case(CPPIB, broken or _SE, facts, bool(broken))


@pytest.mark.parametrize("base, seed", [
    ("gate3_alpha_eaten_by_fees.yaml", 11313),   # s56review's run; before: 300 above 3.5% (212 above 5%), 79 under
                                                 # 0.25%
    ("k2_factor_substitutable.yaml", 11212),     # s55review's run; before: 710 above 3.5%, 52 under 0.25%
])
def test_cppib_items_imply_a_standard_error_of_a_quarter_point_to_3_5_points(base, seed):
    run = review_run(CPPIB, base, seed)
    stated = [(item, f) for item, f in run
              if all(f.get(k) is not None for k in ("strategy_return", "benchmark_return", "factor_return",
                                                     "alpha_t_stat")) and f["alpha_t_stat"] != 0]
    assert len(stated) >= 800, len(stated)
    low, high = Decimal("0.0025"), Decimal("0.035")
    out = [item["id"] for item, f in stated
           if not low * abs(f["alpha_t_stat"]) <= abs(_residual(f)) <= high * abs(f["alpha_t_stat"])]
    assert out == []
    # not vacuous: the band is crossed on both sides of the significance line, and wide standard errors remain
    assert sum(1 for _, f in stated if f["alpha_t_stat"] >= 2) >= 200
    assert sum(1 for _, f in stated if 0 < f["alpha_t_stat"] < 2) >= 20
    assert sum(1 for _, f in stated if abs(_residual(f)) > Decimal("0.025") * abs(f["alpha_t_stat"])) >= 30
    assert {item["investment_verdict"] for item, _ in run} == {"ALLOCATE_ACTIVE", "REDIRECT_TO_PASSIVE"}


# ------------------------------------------------------------------------ Graham intrinsic value: the price's ceiling
#
# s56review (growth_beyond_formula, 29 December 1972, seed 11313): #144 $94.75 on a normal EPS of $1.50 at 0.5%
# growth, about 11 times its formula value; 141 of 1,000 items above four times it. And 37 dated items above 100
# times normal EPS (#345 $242.75, #928 $256.25 on $1.50): regimes.yaml's price_to_normal_earnings now has a ceiling
# from 1962.
_CEILING = "price_at_most_four_times_the_formula_value"
_FLOOR = "price_at_least_a_quarter_of_the_formula_value"
_SHRINK = "a_grower_is_not_forecast_to_shrink"


@pytest.mark.parametrize("eps, growth, aaa, price, broken", [
    ("$1.50", "0.5%", "7.2%", "$94.75", (_CEILING,)),   # #144: 4 x 1.50 x 9.5 x 4.4/7.2 = $34.83
    ("$1.50", "0.5%", "7.2%", "$34.75", ()),
    ("$1.50", "0.5%", "7.2%", "$35", (_CEILING,)),
    ("$1.50", "25%", "7.2%", "$60", ()),                # the base: $53.63, 112%
    # growth under 0 read as 0: 4 x 8.5 x 4.4/7.2 = $20.78; since s65review a forecast below 0 beside the row's 28%
    # past growth also breaks a_grower_is_not_forecast_to_shrink (a record of 10% or more), in card order
    ("$1", "-3%", "7.2%", "$20", (_SHRINK,)),
    ("$1", "-3%", "7.2%", "$21", (_CEILING, _SHRINK)),
    # no formula value, no ceiling; since s63cards (s63 review R6) the row's 28% past growth beside a loss breaks
    # a_loss_has_no_positive_past_growth, and since s65review its 5% forecast a_loss_has_no_positive_expected_growth
    ("-$0.50", "5%", "7.2%", "$150", ("a_loss_has_no_positive_past_growth", "a_loss_has_no_positive_expected_growth")),
    ("$8.60", "18.5%", "8.5%", "$30", (_FLOOR,)),       # s54rfix's floor case is still the floor's alone
])
def test_graham_price_at_most_four_times_the_formula_value(eps, growth, aaa, price, broken):
    facts = {"normal_eps": eps, "eps_years_averaged": "7", "expected_growth": growth, "historical_growth": "28%",
             "aaa_yield": aaa, "price_per_share": price}
    assert_rule_case(GRAHAM_IV, broken or _CEILING, facts, bool(broken))


def test_graham_1972_price_at_most_100_times_normal_eps():
    facts = {"normal_eps": "$1.50", "eps_years_averaged": "5", "expected_growth": "25%", "historical_growth": "28%",
             "aaa_yield": "7.2%"}
    over = anachronisms_of(GRAHAM_IV, {**facts, "price_per_share": "$242.75"}, dt.date(1972, 12, 29))   # #345, 162x
    assert over == ["price_per_share / normal_eps 161.83x (above the highest price / normal (several-year average) "
                    "earnings of its era about 1972, 100x)"]
    assert anachronisms_of(GRAHAM_IV, {**facts, "price_per_share": "$150"}, dt.date(1972, 12, 29)) == []       # 100x
    assert anachronisms_of(GRAHAM_IV, {**facts, "price_per_share": "$150.25"}, dt.date(1962, 6, 29)) != []
    assert anachronisms_of(GRAHAM_IV, {**facts, "price_per_share": "$242.75"}, 1961) == []  # before the card's era
    assert anachronisms_of(GRAHAM_IV, {**facts, "price_per_share": "$45"}, dt.date(1974, 12, 31)) == []        # 30x
    assert anachronisms_of(GRAHAM_IV, {**facts, "price_per_share": "$45.25"}, dt.date(1974, 12, 31)) != []


def test_graham_items_price_within_four_times_the_formula_value_and_100x_in_1972():
    run = review_run(GRAHAM_IV, "growth_beyond_formula.yaml", 11313)

    def value(f):
        growth = max(f["expected_growth"], Decimal(0))
        return f["normal_eps"] * (Decimal("8.5") + 200 * growth) * Decimal("0.044") / f["aaa_yield"]

    stated = [(item, f) for item, f in run if all(f.get(k) is not None for k in
                                                  ("normal_eps", "expected_growth", "aaa_yield", "price_per_share"))
              and f["normal_eps"] > 0]
    assert len(stated) >= 700, len(stated)
    assert [item["id"] for item, f in stated if f["price_per_share"] > 4 * value(f)] == []          # was 141
    dated = [(item, f) for item, f in stated if item["manifest"]["context"]["as_of"]]
    assert len(dated) >= 150, len(dated)
    assert [item["id"] for item, f in dated if f["price_per_share"] > 100 * f["normal_eps"]] == []  # was 37
    # not vacuous: dear prices remain, dated and undated
    assert sum(1 for _, f in stated if f["price_per_share"] > 2 * value(f)) >= 20
    assert sum(1 for _, f in dated if f["price_per_share"] > 50 * f["normal_eps"]) >= 10


# --------------------------------------------------------------------------- Graham net-net: liabilities and earnings
#
# s56review (losses_dissipate_assets, 30 June 1975, seed 11313): #132 all liabilities of $60M against $962M of current
# assets; 165 of 1,000 items under a tenth of $100M or more of current assets (187 at any size). Kept by decision:
# 70 items priced under three times a positive net income (#221 $180M on $81M), see the card's note on
# earnings_within_price.
_TENTH = "liabilities_at_least_a_tenth_of_current_assets"


@pytest.mark.parametrize("current, liabilities, broken", [
    ("$962M", "$60M", (_TENTH,)),      # #132: 6%
    ("$962M", "$97M", ()),             # 10.1%
    ("$40M", "$3M", (_TENTH,)),        # small companies too: 7.5%
    ("$40M", "$4M", ()),               # a tenth
    ("$40M", "$18M", ()),              # the base: 45%
])
def test_graham_net_net_liabilities_at_least_a_tenth_of_current_assets(current, liabilities, broken):
    # a market value within price_at_least_a_quarter_of_ncav (4 x $250M >= $902M; 4 x $10M >= $37M)
    facts = {"market_value": "$250M" if current == "$962M" else "$10M", "current_assets": current,
             "total_liabilities": liabilities, "preferred_stock": "$0", "net_income": "-$4M"}
    assert_rule_case(NET_NET, broken or _TENTH, facts, bool(broken))


def test_graham_net_net_items_state_liabilities_of_a_tenth_or_more_and_keep_low_multiples():
    run = review_run(NET_NET, "losses_dissipate_assets.yaml", 11313)
    stated = [(item, f) for item, f in run
              if f.get("current_assets") is not None and f.get("total_liabilities") is not None]
    assert len(stated) >= 900, len(stated)
    assert [item["id"] for item, f in stated if 10 * f["total_liabilities"] < f["current_assets"]] == []  # was 187
    assert sum(1 for _, f in stated if f["current_assets"] >= Decimal("1e8")) >= 100    # large balance sheets remain
    # the decision: a P/E of 2-3 on a positive net income stays possible (the card's floor is 2)
    earning = [f for _, f in run if f.get("net_income") is not None and f["net_income"] > 0]
    low = [f for f in earning if f["market_value"] < 3 * f["net_income"]]
    assert len(low) >= 20, len(low)
    assert all(f["market_value"] >= 2 * f["net_income"] for f in earning)


# ------------------------------------------------------------------- PIF: a giga-project is no established holding
#
# s56review (invest_ev_manufacturing, 30 June 2022, seed 11313): 8 of 1,000 items put an investment serving the
# giga-project objective in PIF's Saudi Equity Holdings portfolio (#89's neighbours). Wording: 18 items read "The
# investment would belong to no PIF portfolio whose policy covers it. Does the portfolio's investment policy permit the
# asset, within its risk tolerance? No." (a portfolio the sentence before says there is not).
_HOLDING = "a_giga_project_is_not_an_established_holding"


@pytest.mark.parametrize("pool, link, refused", [
    ("saudi_equity_holdings", "giga_project", True),
    ("saudi_equity_holdings", "diversified_asset_growth", False),
    ("saudi_real_estate_and_infrastructure", "giga_project", False),
    ("saudi_sector_development", "giga_project", False),   # a sector company may build for one
    ("saudi_giga_projects", "giga_project", False),
])
def test_pif_giga_project_is_not_an_established_holding(pool, link, refused):
    facts = {"pool": pool, "permitted_by_portfolio_policy": True, "projected_irr": "11%", "hurdle_irr": "11%",
             "vision_2030_link": link}
    assert_rule_case(PIF, _HOLDING, facts, refused)


def test_pif_items_keep_giga_projects_out_of_equity_holdings_and_name_no_missing_portfolio():
    run = review_run(PIF, "invest_ev_manufacturing.yaml", 11313)
    assert [item["id"] for item, f in run
            if f.get("pool") == "saudi_equity_holdings" and f.get("vision_2030_link") == "giga_project"] == []  # was 8
    assert sum(1 for _, f in run if f.get("pool") == "saudi_equity_holdings") >= 30
    assert sum(1 for _, f in run if f.get("vision_2030_link") == "giga_project") >= 30
    # wording (was 18): no item asks about "the portfolio" after saying there is none; the question is still asked
    none = [item for item, f in run if f.get("pool") == "none" and f.get("permitted_by_portfolio_policy") is not None]
    assert len(none) >= 5, len(none)
    assert [item["id"] for item, _ in run if "the portfolio's investment policy" in item["question"]] == []
    assert all("Does a PIF portfolio's investment policy permit the asset, within that portfolio's risk tolerance? "
               "No." in item["question"] for item in none)


# --------------------------------------------------------------------------- Marks distressed debt: under the bad case
#
# s55review (decline_bad_case_loses_money, seed 11212): 428 of 1,000 items price the class below its bad-case
# recovery (#478 12% against 20%, #189 27% against 31%). Kept by decision (the card's note above
# price_at_least_three_fifths_of_the_bad_case): it is gate 3's buy condition, and the gap is bounded. The run test pins
# both: such items stay (a rule that removed them would take the card's INVEST path), within the two bounds.


def _bad_case_recovery(f):
    recovered = (f["stressed_value"] - f["senior_claims"]) / f["class_face"]
    return min(Decimal(1), max(Decimal(0), recovered))


def test_marks_items_below_the_bad_case_stay_within_its_bounds():
    run = review_run(MARKS_DD, "decline_bad_case_loses_money.yaml", 11212)
    keys = ("purchase_price", "stressed_value", "senior_claims", "class_face", "legal_process_risk")
    stated = [(item, f) for item, f in run if all(f.get(k) is not None for k in keys)]
    assert len(stated) >= 900, len(stated)
    under = [(item, f) for item, f in stated if f["purchase_price"] < _bad_case_recovery(f)]
    assert len(under) >= 300, len(under)                                                    # 428
    assert sum(1 for item, _ in under if item["investment_verdict"] == "INVEST") >= 250      # 353
    ordinary = [f for _, f in under if f["legal_process_risk"] != "high"]
    assert len(ordinary) >= 250, len(ordinary)
    assert all(f["purchase_price"] >= Decimal("0.6") * _bad_case_recovery(f) for f in ordinary)
    assert all(f["purchase_price"] >= Decimal("0.7") or f["purchase_price"] + Decimal("0.3") >= _bad_case_recovery(f)
               for f in ordinary)
