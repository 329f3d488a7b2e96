"""s43items: the item rules stop 42 left open (issue 18 bar line 2: no fact contradicts another or its date).

review42 (/work/notes/review42.md, seed 9696) read each card's last base; these are its kinds R9, R10, R12, R20 and
R22, the Greenblatt floors of the 2008 crash outside consumer staples, the insurer that a sector move priced on its
premiums while it earned nothing (review40/41 BA1), and the Graham base priced at 20x in March 1975. Each case is a
reviewed item's facts (refused, with the exact reason) beside a real neighbour or the bound's edge (kept). Era bounds
live in frameworks/regimes.yaml (each row's record is in the comment above it); figures marked [M] there are
recalled, the others were read with the search tool. The hand-worked quotients are in the comments here.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from decimal import Decimal

import pytest

import ipb
from ipb.engine.registry import compiled_card
from ipb.engine.scenario import load_scenario
from ipb.perturb import Job, generate
from ipb.perturb.flip_era import timed_inputs
from ipb.perturb.frame import build_frame
from ipb.perturb.recipes import parse_recipes

from perturb_support import SCENARIOS, anachronisms_of, assert_rule_case

REPURCHASE = "buffett_share_repurchase"
GREENBLATT = "greenblatt_magic_formula_screen"
LYNCH = "lynch_six_category_framework"
KLARMAN = "klarman_deep_value_identification"
GRAHAM = "graham_seven_tests_defensive"
BUFFETT = "buffett_acquisition_checklist"


_GB = {"sector": "industrials", "market_cap": "$1.2B", "enterprise_value": "$1B"}
_HC = {"sector": "healthcare", "market_cap": "$20B", "enterprise_value": "$20B"}
_K = {"mispricing_source": "spinoff", "sector": "industrials"}

#: (card, facts, date, the reasons it is refused (none: kept), what).
ERA_CASES = [
    # R9: Apple held $246.1B of cash, equivalents and marketable securities at 31 December 2016, the most of anyone.
    (REPURCHASE, {"cash_and_equivalents": "$267.9B"}, 2016,
     ["cash_and_equivalents $267.9B (above the largest US company's cash and equivalents about 2016, $260B)"],
     "review42 repurchase 4, BUFFETT-SR-005-8637addfeda110d4: $267.9B on 30 September 2016"),
    (REPURCHASE, {"cash_and_equivalents": "$292.7B"}, 2016,
     ["cash_and_equivalents $292.7B (above the largest US company's cash and equivalents about 2016, $260B)"],
     "review42 repurchase 18, BUFFETT-SR-005-9e0955823320967a: $292.7B in 2016"),
    (REPURCHASE, {"cash_and_equivalents": "$246.1B"}, 2016, [], "Apple at 31 December 2016"),
    (REPURCHASE, {"cash_and_equivalents": "$268.9B"}, 2017, [], "Apple at the end of fiscal 2017 (2017: $300B)"),
    # R20: GICS Communication Services from 28 September 2018; before it, Telecommunication Services.
    (GREENBLATT, {"sector": "communication"}, dt.date(2006, 3, 31), ["sector communication (exists from 2019)"],
     "review42 Greenblatt 1, 13697b2c57f99782: a communication company on 31 March 2006"),
    (GREENBLATT, {"sector": "communication"}, dt.date(2019, 3, 29), [], "the sector in its own time"),
    # R22: EBIT $465M on an EV of $1B is 2.15x (a 46.5% EBIT yield); $330M is 3.03x, inside the 3x floor.
    (GREENBLATT, {**_GB, "ebit": "$465M"}, dt.date(2006, 3, 31),
     ["enterprise_value / ebit 2.15x (below the lowest enterprise value / EBIT of a non-financial company worth $1B "
      "or more of its era about 2006, 3x)"],  # one rule with s43rfix's scope once merged
     "review42 Greenblatt 20, 998626fbf3c011f9: $465M of EBIT on $1B in March 2006"),
    (GREENBLATT, {**_GB, "ebit": "$330M"}, dt.date(2006, 3, 31), [], "3.03x: a homebuilder at its 2006 peak"),
    (GREENBLATT, {**_GB, "ebit": "$465M"}, dt.date(2011, 12, 31), [], "2.15x after the calm market: the card's 2x "
     "(ITT Educational near 2.5x at the end of 2011)"),
    (GREENBLATT, {**_GB, "ebit": "$465M"}, dt.date(2003, 6, 30), [], "before the table's first row: not bounded"),
    # The 2008 crash outside staples: $20B / $4.5B = 4.44x, / $3.9B = 5.13x, / $5.2B = 3.85x.
    (GREENBLATT, {**_HC, "ebit": "$4.5B"}, dt.date(2008, 9, 30),
     ["enterprise_value / ebit 4.44x (below the lowest enterprise value / EBIT of a health-care or communication "
      "company worth $10B or more of its era about 2008, 5x)"],
     "a $20B health-care company at 4.44x on 30 September 2008 (UnitedHealth near 5.5x, Pfizer near 10x)"),
    (GREENBLATT, {**_HC, "ebit": "$3.9B"}, dt.date(2008, 9, 30), [], "5.13x before the crash week"),
    (GREENBLATT, {**_HC, "ebit": "$4.5B"}, dt.date(2008, 11, 20), [], "4.44x after 6 October 2008 (4x)"),
    (GREENBLATT, {**_HC, "ebit": "$5.2B"}, dt.date(2009, 3, 9),
     ["enterprise_value / ebit 3.85x (below the lowest enterprise value / EBIT of a health-care or communication "
      "company worth $10B or more of its era about 2009, 4x)"], "3.85x at the March 2009 low (UnitedHealth near 4.7x)"),
    (GREENBLATT, {**_HC, "market_cap": "$9B", "enterprise_value": "$9B", "ebit": "$2.1B"}, dt.date(2008, 9, 30), [],
     "under $10B the floor does not hold (4.29x)"),
    (GREENBLATT, {**_HC, "sector": "technology", "enterprise_value": "$17B", "ebit": "$5B"}, dt.date(2009, 3, 9), [],
     "technology is not bounded: Dell near 3.4x its operating profit in early 2009"),
    (GREENBLATT, {**_HC, "ebit": "$8B"}, dt.date(2010, 6, 30), [], "2.5x from 2010: the card's own 2x"),
    # R12: the consumer table gives 1984 the larger of its 1983 and 1985 rows, $28B (GM near $25B).
    (LYNCH, {"sector": "consumer", "market_cap": "$34.3B"}, 1984,
     ["market_cap $34.3B (above the largest market value of a consumer company about 1984, $28B)"],
     "review42 Lynch 6, 1eb7921c81787eac: a consumer company worth $34.3B at the end of 1984"),
    (LYNCH, {"sector": "consumer", "market_cap": "$25B"}, 1984, [], "General Motors at the end of 1984"),
    # s62sector (REVIEW_s61 F8): technology now has its own table, IBM aside ($13.2B in 1980-86); no technology company
    # but IBM (about $70B [M]) stood near $34.3B in 1984, so the case kept here as "the market's own bound" is refused
    (LYNCH, {"sector": "technology", "market_cap": "$34.3B"}, 1984,
     ["market_cap $34.3B (above the largest non-IBM technology company's market value about 1984, $13.2B: 12% of the "
      "largest US company's)"], "IBM's sector: the non-IBM technology bound"),
    (LYNCH, {"sector": "consumer", "market_cap": "$22.5B"}, 1976, [], "GM in 1976: before the table's rows"),
    (LYNCH, {"sector": "consumer", "market_cap": "$34.3B"}, 1992, [], "lifted from 1991"),
    # R10: a spinoff outside telephone and utility companies worth at most $8B to 1993.
    (KLARMAN, {**_K, "market_value": "$12.9B"}, 1993,
     ["market_value $12.9B (above the largest market value of a spinoff about 1993, $8B)"],
     "review42 Klarman 4, f58d10baeef9936b: an industrial spinoff worth $12.9B on 30 September 1993"),
    (KLARMAN, {**_K, "market_value": "$11B"}, 1993,
     ["market_value $11B (above the largest market value of a spinoff about 1993, $8B)"],
     "review42 Klarman 18, 37f354f9406d12c1: $11.0B"),
    (KLARMAN, {**_K, "sector": "financials", "market_value": "$6.3B"}, 1993, [],
     "review42 Klarman 14: Dean Witter Discover's size in 1993"),
    (KLARMAN, {**_K, "mispricing_source": "out_of_favor", "market_value": "$12.9B"}, 1993, [],
     "not a spinoff: the market's own bound"),
    (KLARMAN, {**_K, "market_value": "$20B"}, 1996, [], "Lucent's year: lifted"),
]


@pytest.mark.parametrize("card, facts, when, refused, what", ERA_CASES, ids=[c[4][:60] for c in ERA_CASES])
def test_each_reviewed_fact_against_its_date(card, facts, when, refused, what):
    assert anachronisms_of(card, facts, when) == refused, what


def test_a_size_figures_condition_is_read_by_generation():
    # generation asks about the timed inputs only: without the conditions' inputs a spinoff's or a consumer company's
    # table would never see its condition met (the two tables are bound by `when`)
    assert {"market_value", "mispricing_source", "sector"} <= timed_inputs(build_frame([KLARMAN]))
    assert {"market_cap", "sector"} <= timed_inputs(build_frame([LYNCH]))


def _run(card: str, base: str, recipes: str, n: int, seed: int = 9696):
    return generate(Job((card,), str(SCENARIOS / card / base), seed, parse_recipes(recipes)), n, allow_short=True)


def test_the_spinoff_review_base_makes_no_spinoff_above_its_year():
    # seed 9696 on the review base (30 September 1993), 300 items: before this stop 34 of the first 300 (107 of
    # 1,000) were a dated spinoff above $8B; the metric draws still reach sizes up to the card's $20B undated
    seen = Counter()
    for line in _run(KLARMAN, "invest_orphaned_spinoff.yaml", "metric,isolate,flip,sector", 300).lines:
        item = json.loads(line)
        facts = ipb.facts(KLARMAN, item["scenario"]["facts"])
        if facts.get("mispricing_source") == "spinoff" and item["scenario"].get("as_of"):
            seen["dated spinoff"] += 1
            assert facts["market_value"] <= Decimal("8e9"), item["id"]
    assert seen["dated spinoff"] >= 100, seen


_BA1 = "a_large_financial_earning_nothing_is_priced_near_its_revenue"
#: The Buffett review base, price_equals_value (30 June 2024), moved to financials as an insurer.
_INSURER = {"business_model": "insurance", "sector": "financials", "revenue_growth": "25%", "net_income": "$0",
            "arr": "$5B", "ev_to_arr": "3.5x", "macro_regime": "expansion"}


@pytest.mark.parametrize("facts, refused, what", [
    (_INSURER, True, "review41 BA1 kind: $5B of premiums, no net income, 3.5x"),
    ({**_INSURER, "ev_to_arr": "2.5x"}, False, "the edge, 2.5x"),
    ({**_INSURER, "business_model": "banking", "ev_to_arr": "3x"}, True, "a bank earning nothing at 3x its revenue"),
    ({**_INSURER, "net_income": "$1.3B", "ev_to_arr": "4x"}, False, "earning 26% of its revenue (Kinsale-like)"),
    ({**_INSURER, "arr": "$500M", "net_income": "-$200M", "ev_to_arr": "4x"}, False,
     "under $1B: Lemonade 2024, a $202M loss on $527M near 5-6x (the card's 4x holds)"),
])
def test_a_financial_earning_nothing_is_priced_under_its_revenue(facts, refused, what):
    assert_rule_case(BUFFETT, _BA1, facts, refused)


def test_a_sector_move_to_financials_draws_its_price_inside_the_rule():
    # the move draws the financials price (1-4x) and keeps the base's $0 of net income; before this stop 14 of
    # 1,000 items of this base were a $1B+ bank or insurer earning nothing at more than 2.5x, and with the rule but
    # without the draw inside it those moves were refused (the coherence law: no sector item breaks a constraint)
    # (a move may still be refused by an era's floor at the base's date, which the draw does not read: 1 of 300 here)
    result = _run(BUFFETT, "price_equals_value.yaml", "sector", 300)
    errors = result.recipes[0].errors
    assert all(e.startswith("breaks constraint date 2024: ") for e in errors), errors
    financials = 0
    for line in result.lines:
        facts = ipb.facts(BUFFETT, json.loads(line)["scenario"]["facts"])
        if facts["business_model"] in ("banking", "insurance") and facts["net_income"] <= 0:
            financials += 1
            assert facts["ev_to_arr"] <= Decimal("2.5"), facts
    assert financials >= 20, financials


def test_grahams_first_base_is_priced_as_its_date():
    # $40 on $2.00 of three-year EPS is 20x; the S&P 500 sold at 18.39x at the end of 1972 (118.05 / 6.42) and at
    # 11.33x at the end of 1975: 20 / 18.39 = 1.09 of the market then, against 1.77 at 31 March 1975's nearest year end
    scenario = load_scenario(SCENARIOS / GRAHAM / "dividend_record_unknown.yaml", compiled_card(GRAHAM).card)
    assert scenario.as_of == dt.date(1973, 1, 31)
    facts = scenario.facts
    assert facts["price_per_share"] / facts["eps_3yr_avg"] == 20
    # gold and gate verdicts as before the re-dating, and as the card computes them on the new date
    expected = {"verdict": "DECLINE", "trigger": "gate_6_reject",
                "verdicts": ["PROCEED", "PROCEED", "PROCEED", "INCONCLUSIVE", "PROCEED", "REJECT", "REJECT"]}
    assert scenario.expected == expected
    trace = ipb.execute(GRAHAM, facts)
    assert list(trace.verdicts()) == expected["verdicts"] and trace.outcome == "DECLINE"
    assert anachronisms_of(GRAHAM, dict(facts), scenario.as_of) == []
