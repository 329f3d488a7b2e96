"""s47rfix: unrealistic perturbed items by kind (issue 18), stop 47's fixes.

Counts over 'ipb perturb --card C --base B --n 1000 --seed S' before -> after, with the checkers under /tmp/s47rfix,
are in /work/notes/s47rfix.md. Each test below fails without its fix (checked by putting the previous file back).
"""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal
from pathlib import Path

import pytest

import ipb
from ipb.engine.card import load_card_text
from ipb.errors import IpbError
from ipb.perturb.frame import build_frame, load_base
from ipb.perturb.operators import metric_substitution
from perturb_support import SCENARIOS, anachronisms_of, review_run

SOROS = "soros_reflexive_hypothesis_trade_construction"
SOROS_BASE = "hypothesis_not_confirmed_abandon.yaml"
SOROS_CARD = Path(__file__).parents[2] / "frameworks" / f"{SOROS}.yaml"


# --------------------------------------------------------------------------- Soros: the answer moves with its count
#
# The base (28 February 1994) says "No" beside 0 favourable moves, and gives ABANDON_HYPOTHESIS at gate 4. Two rules
# make the answer and the count one fact ("Yes" exactly when the count is 1 or more). Moved one at a time, a redrawn
# count was drawn back to 0 beside the "No", so only 35 of 1,000 items (seed 10303) reached TAKE_POSITION.

def _soros_base():
    frame = build_frame([SOROS])
    return frame, load_base(SCENARIOS / SOROS / SOROS_BASE, frame)


@pytest.mark.parametrize("seed", range(8))
def test_a_redrawn_count_of_favourable_moves_carries_its_answer(seed):
    frame, base = _soros_base()
    step = metric_substitution(frame, base, random.Random(seed), "confirmation_rounds")
    rounds = step.scenario.facts["confirmation_rounds"]
    assert 1 <= rounds <= 10  # the draw avoids the base's 0
    assert step.scenario.facts["hypothesis_confirmed"] is True
    assert "hypothesis_confirmed" in step.details["tied"]  # recorded as a joint move


def test_a_tied_count_takes_the_position_the_base_plan_allows():
    # The base plan: 5% test position, 30% at most, 10% stop, 2% budget. Confirmed: gate 3 5% <= 30%; gate 5
    # 5% x 10% = 0.5% <= 2%; re-entry adds 5% while the next size fits: 10% (1%), 15% (1.5%), 20% (2%), three
    # resizings at most -> TAKE_POSITION.
    frame, base = _soros_base()
    step = metric_substitution(frame, base, random.Random(3), "confirmation_rounds")
    facts = {k: v for k, v in step.scenario.facts.items()}
    assert facts["confirmation_rounds"] >= 3  # seed 3 draws a count that allows all three resizings
    trace = ipb.execute(SOROS, {k: ipb_literal(frame, k, v) for k, v in facts.items()})
    assert (trace.outcome, trace.trigger) == ("TAKE_POSITION", "all_gates_cleared")


def ipb_literal(frame, name, value):
    from ipb.perturb.values import literal
    return literal(frame.inputs[name], value)


def test_the_review_run_balances_its_outcomes():
    # seed 10303, the review's run: 965 ABANDON_HYPOTHESIS / 35 TAKE_POSITION before (35 items of 1,000 with
    # "Yes"); every item states the answer its count gives.
    run = review_run(SOROS, SOROS_BASE, 10303, 1000)
    taken = sum(item["investment_verdict"] == "TAKE_POSITION" for item, _ in run)
    for item, f in run:
        assert f["hypothesis_confirmed"] == (f["confirmation_rounds"] >= 1), item["id"]
    assert taken >= 200, taken


@pytest.mark.parametrize("edit, words", [
    ("    tie: 1\n", "tie"),
    ("    tie: yes please\n", "tie"),
])
def test_a_tie_that_is_not_true_or_false_is_refused_at_its_line(edit, words):
    text = SOROS_CARD.read_text(encoding="utf-8").replace("    tie: true\n", edit, 1)
    with pytest.raises(IpbError) as info:
        load_card_text(text, str(SOROS_CARD))
    assert words in str(info.value)
    line = text[:text.index(edit)].count("\n") + 1
    assert f":{line}:" in str(info.value)


def test_a_tie_on_a_derived_input_is_refused_at_its_line():
    # a derived input already follows its sources; 'tie' goes with 'require' only
    path = SOROS_CARD.parent / "dalio_debt_supercycle_navigation.yaml"
    anchor = "    value: long_bond_yield - policy_rate\n"
    text = path.read_text(encoding="utf-8").replace(anchor, anchor + "    tie: true\n", 1)
    with pytest.raises(IpbError) as info:
        load_card_text(text, str(path))
    message = str(info.value)
    assert "'tie' goes with 'require'" in message
    line = text[:text.index(anchor)].count("\n") + 2
    assert f":{line}:" in message


def test_the_flip_moves_the_answer_with_the_count_it_probes():
    # Before, the flip recipe made 0 items on this base: no one-input change flipped ABANDON_HYPOTHESIS (a count
    # of 1 beside "No" broke a rule). Its nearest flip is now one favourable move, with "Yes" beside it.
    run = review_run(SOROS, SOROS_BASE, 10303, 1000)
    flips = [(item, f) for item, f in run if item["manifest"]["recipe"] == "flip"]
    assert len(flips) >= 300
    for item, f in flips:
        op = item["manifest"]["operators"][-1]["details"]
        assert (op["input"], op["one_step_short"], op["boundary"]) == ("confirmation_rounds", "0", "1"), item["id"]
        assert f["hypothesis_confirmed"] is True and f["confirmation_rounds"] == 1
        # s51rfix2 (s51review S7, the lead's ruling): gate 1 is decisive, so a flip beside an unclear bias ends
        # INCONCLUSIVE; beside a named one it takes the position
        assert item["investment_verdict"] == ("INCONCLUSIVE" if f["prevailing_bias"] == "unclear" else "TAKE_POSITION")


# --------------------------------------------------------------------------- Marks MK4: half of face at 30+ points
#
# s46review MK4 (seed 10303 on decline_class_out_of_the_money, 30 September 2002): the price moved from 15 to 60-63
# cents with the base's 40-point spread kept. An 8% note with seven years left yields 18.7% at 60 cents (13-15 points
# over 2002's Treasuries); the whole high-yield index at its widest (1 December 2008) stood 18.91 points over.

MARKS = "marks_distressed_debt"
MARKS_BASE = "decline_class_out_of_the_money.yaml"
_MK_SPREAD = "half_of_face_or_more_trades_under_thirty_points"

#: s46review Marks 20, IPB-MAR-DD-002-9fa684052f39b848: subordinated telecom notes at 60% of face, 40 points over.
#: s54kind9: the item states a base case of $1.34B, so its $1.16B bad case is 86.6% of it and s53review's kind 9 rule
#: (the_bad_case_is_at_most_85_percent_of_the_conservative_value) refuses it too (test below); these cases take a
#: base case of $1.37B (84.7%) so that they test the spread rule alone, as before.
_MK20_RECORD = {"class_face": "$600M", "legal_process_risk": "moderate", "purchase_price": "60%",
                "reorganization_value": "$1.34B", "sector": "telecom", "senior_claims": "$800M",
                "spread_to_treasuries": "40%", "stressed_value": "$1.16B", "years_to_resolution": "1.5"}
_MK20 = {**_MK20_RECORD, "reorganization_value": "$1.37B"}

#: s47review Marks 1, IPB-MAR-DD-004-3f359f24c23f8799 (undated): airline equipment notes at 50% of face, 58.25 points.
_MK47_1 = {"class_face": "$1.34B", "purchase_price": "50%", "reorganization_value": "$1B", "sector": "transport",
           "senior_claims": "$200M", "spread_to_treasuries": "58.25%", "stressed_value": "$650M",
           "years_to_resolution": "1.5"}

MK4_CASES = [
    (_MK20, True, "review Marks 20: 60 cents at 40 points"),
    ({**_MK20, "purchase_price": "63%"}, True, "review Marks 3 (IPB-MAR-DD-002-9a82b0245e08d078): 63 cents at 40"),
    ({**_MK20, "spread_to_treasuries": "30%"}, True, "60 cents at 30 points: the edge is refused"),
    ({**_MK20, "spread_to_treasuries": "29.75%"}, False, "60 cents at 29.75 points"),
    ({**_MK20, "spread_to_treasuries": "14%"}, False, "60 cents at 14 points, the worked 8% seven-year note"),
    ({**_MK20, "purchase_price": "50%"}, True, "half of face at 40 points"),
    ({**_MK20, "purchase_price": "49%"}, False, "49 cents at 40 points: under half of face"),
    ({**_MK20, "purchase_price": "50%", "spread_to_treasuries": "18%"}, False,
     "inconclusive_process_risk_unassessed's 50 cents at 18 points"),
    # s47review MK4 (seed 10404 on inconclusive_process_risk_unassessed: 154 of 1,000 items, undated): airline
    # equipment notes; an 8% note at 50 cents yields 23% to seven years (18-19 points), not 58
    (_MK47_1, True, "s47review Marks 1: 50 cents at 58.25 points"),
    ({**_MK47_1, "class_face": "$800M", "purchase_price": "57%", "reorganization_value": "$1.39B",
      "spread_to_treasuries": "48.75%"}, True, "s47review Marks 16 (IPB-MAR-DD-004-df226763fbfd50a1): 57 cents at 48.75"),
    ({**_MK47_1, "spread_to_treasuries": "18%"}, False, "the base's 18 points at 50 cents"),
]


@pytest.mark.parametrize("facts, refused, what", MK4_CASES, ids=[c[2] for c in MK4_CASES])
def test_half_of_face_or_more_trades_under_thirty_points(facts, refused, what):
    from perturb_support import assert_rule_case
    assert_rule_case(MARKS, _MK_SPREAD, facts, refused)


def test_the_recorded_item_breaks_the_85_percent_rule_too():
    from perturb_support import assert_rule_case
    assert_rule_case(MARKS, ("the_bad_case_is_at_most_85_percent_of_the_conservative_value", _MK_SPREAD),
                     _MK20_RECORD, True)


def test_the_review_run_has_no_half_of_face_claim_at_thirty_points():
    # 23 of 1,000 items before the rule (38 in the review's run, before the two-fifths rule)
    run = review_run(MARKS, MARKS_BASE, 10303, 1000)
    flagged = [item["id"] for item, f in run
               if f["purchase_price"] >= Decimal("0.5") and f["spread_to_treasuries"] >= Decimal("0.3")]
    assert flagged == []
    assert sum(f["purchase_price"] >= Decimal("0.5") for _, f in run) >= 10  # read on 14 items, not vacuous


# --------------------------------------------------------------------------- Munger M4: a dated floor, 2013-2021
#
# s46review M4 (seed 10303 on management_record_missing, 31 March 2021): a durable business earning 25% or more on
# capital priced so that its owner-earnings yield plus its growth is 16% or more. Floors by growth band from 2013 to
# the end of 2021 (frameworks/regimes.yaml, durable_price_to_owner_earnings_*_2013_2021): 6x at any growth, 8x from
# 3%, 10x from 6%, 12.5x from 8%, 16x from 10%, 25x from 12%. The two lowest keep s44items' K10 cases (6.7x with no
# growth, 8.2x growing 5%), so s46review's Munger 16 (8.45x growing 5%, 16.8%) stays, by that older decision.

MUNGER = "munger_business_quality_price"
MUNGER_BASE = "management_record_missing.yaml"
_M4_DATE = dt.date(2021, 3, 31)

#: s46review Munger 9, MUNGER-QP-004-dff15dbefd76ee11: $5.14B of owner earnings at $50B (9.73x, a 10.3% yield),
#: growing 9.5%, 40% on capital: 19.8% a year.
_M9 = {"competitive_advantage": "durable", "incentives_aligned": False, "long_run_growth": "9.5%",
       "market_value": "$50B", "owner_earnings": "$5.14B", "return_on_capital": "40%", "understandable": True}

M4_CASES = [
    (_M9, _M4_DATE, ["6%", "8%"], "review Munger 9: 9.73x growing 9.5% (floors 10x and 12.5x)"),
    ({**_M9, "owner_earnings": "$9.58B", "long_run_growth": "4.5%"}, _M4_DATE, ["any", "3%"],
     "review Munger 11 (MUNGER-QP-004-d25fc8b4cc510c2e): 5.22x growing 4.5% (floors 6x and 8x)"),
    ({**_M9, "owner_earnings": "$5.92B", "long_run_growth": "5%"}, _M4_DATE, [],
     "review Munger 16 (MUNGER-QP-004-b2ed155b2e020ff3): 8.45x growing 5%, kept as s44items keeps 8.2x"),
    ({**_M9, "owner_earnings": "$6.33B", "long_run_growth": "4%"}, _M4_DATE, ["3%"], "7.90x growing 4%"),
    ({**_M9, "owner_earnings": "$5.26B", "long_run_growth": "5%"}, _M4_DATE, [],
     "Altria-like, s46review's correction: 9.51x growing 5%, 10.5% + 5% = 15.5%, kept"),
    ({**_M9, "owner_earnings": "$8.33B", "long_run_growth": "0%"}, _M4_DATE, [], "6.00x not growing: the edge, kept"),
    ({**_M9, "owner_earnings": "$8.4B", "long_run_growth": "0%"}, _M4_DATE, ["any"], "5.95x not growing"),
    ({**_M9, "owner_earnings": "$2B", "long_run_growth": "12%"}, _M4_DATE, [], "25x growing 12%: the edge, kept"),
    ({**_M9, "owner_earnings": "$2.02B", "long_run_growth": "12%"}, _M4_DATE, ["12%"], "24.75x growing 12%"),
    ({**_M9, "return_on_capital": "24%"}, _M4_DATE, [], "24% on capital: outside the bound"),
    ({**_M9, "competitive_advantage": "eroding"}, _M4_DATE, [], "not durable: outside the bound"),
    (_M9, dt.date(1982, 6, 30), [], "1982: durable businesses sold at 5-8x, not bounded"),
    (_M9, dt.date(2012, 12, 31), [], "the day before the floors"),
    (_M9, dt.date(2022, 6, 30), [], "2022: rates rose, not bounded"),
]

_BAND = {"any": "on capital of its era", "3%": "growing 3% a year", "6%": "growing 6% a year",
         "8%": "growing 8% a year", "10%": "growing 10% a year", "12%": "growing 12% a year"}


@pytest.mark.parametrize("facts, when, bands, what", M4_CASES, ids=[c[3] for c in M4_CASES])
def test_a_durable_business_of_2013_2021_is_priced_for_its_growth(facts, when, bands, what):
    found = [m for m in anachronisms_of(MUNGER, facts, when)
             if "durable business earning 25%" in m and "growing 5% a year" not in m]  # s44items keeps its own
    assert len(found) == len(bands), found
    for band in bands:
        assert any(_BAND[band] in m for m in found), (band, found)


def test_the_review_run_prices_durable_businesses_for_their_growth():
    # 40 of 1,000 items below 15% growth had a yield plus growth of 16% or more (up to 26.8%); 6 now, all within a
    # band's width of 16% (at most 17.4%). The 25 at 15-20% growth are growth alone, priced at 25x or more.
    run = review_run(MUNGER, MUNGER_BASE, 10303, 1000)
    sums = [f["owner_earnings"] / f["market_value"] + f["long_run_growth"] for _, f in run
            if f.get("competitive_advantage") == "durable" and f["return_on_capital"] >= Decimal("0.25")
            and f["long_run_growth"] < Decimal("0.15") and f["market_value"] >= Decimal("1e9")]
    assert len(sums) >= 100
    # s56rfix3: its too-hard rule refuses draws on this base (a durable advantage beside "too hard to understand"),
    # which moves the later draws; the run's highest sum is now 18.64% ($50B on $8.07B, 6.20x, growing 2.5%, dated
    # 2021-03-31), inside the card's floors (below 3% growth the floor is 6x: at most 16.7% + 2.5%). The bound keeps
    # the review's 26.8% refused and takes the width of one band more (was 18%).
    assert max(sums) < Decimal("0.19"), max(sums)


# --------------------------------------------------------------------------- Dalio D6: an emergency rate in a boom
#
# s47review D6 (seed 10404 on dollar_debt_kill, undated items): a policy rate of 40% or more beside real growth of 6% or
# more (138 of 1,000). Emergency rates came with output falling or flat; the fastest growth beside one in the card's
# vintage is Argentina 2022, 75% with real growth near 5%.

DALIO = "dalio_debt_supercycle_navigation"
DALIO_BASE = "dollar_debt_kill.yaml"
_D6_RULE = "an_emergency_rate_comes_without_a_boom"

#: s47review Dalio 19, DAL-DSC-010-ac98c9328aa11b45: 65% of the debt in dollars, a 40% rate, real growth 8%.
_D19 = {"central_bank_stance": "tightening", "foreign_currency_debt_share": "65%", "policy_rate": "40%",
        "real_gdp_growth": "8%"}

D6_CASES = [
    (_D19, True, "s47review Dalio 19: 40% and +8%"),
    ({**_D19, "bubble_signals": "4", "foreign_currency_debt_share": "45%", "policy_rate": "55.75%",
      "real_gdp_growth": "9.5%"}, True, "s47review Dalio 7 (DAL-DSC-010-12ecffe48bbffe93): 55.75% and +9.5%"),
    ({**_D19, "real_gdp_growth": "5.5%"}, True, "40% and +5.5%"),
    ({**_D19, "real_gdp_growth": "5%"}, False, "the edge: 40% and +5%, Argentina 2022"),
    ({**_D19, "policy_rate": "39.75%"}, False, "39.75% and +8%: under the rule's rate"),
    ({**_D19, "real_gdp_growth": "-2%"}, False, "the base: 40% and -2%"),
]


@pytest.mark.parametrize("facts, refused, what", D6_CASES, ids=[c[2] for c in D6_CASES])
def test_an_emergency_rate_comes_without_a_boom(facts, refused, what):
    from perturb_support import assert_rule_case
    assert_rule_case(DALIO, _D6_RULE, facts, refused)


def test_the_review_run_has_no_boom_under_an_emergency_rate():
    run = review_run(DALIO, DALIO_BASE, 10404, 1000)
    read = [(item["id"], f) for item, f in run if "policy_rate" in f and "real_gdp_growth" in f
            and f["policy_rate"] >= Decimal("0.4")]
    assert len(read) >= 100  # 138 of 1,000 items grew 6% or more under such a rate before
    assert [i for i, f in read if f["real_gdp_growth"] > Decimal("0.05")] == []
