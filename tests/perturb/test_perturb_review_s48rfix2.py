"""s48rfix2: the kinds s47review left open, fixed by dated bounds and card rules (issue 18).

Counts over 'ipb perturb --card C --base B --n 1000 --seed 10404' before -> after (the bases s47review read) are in
/work/notes/s48rfix2.md. Each test below fails without its fix (checked by putting the previous file back).
"""

from __future__ import annotations

import datetime as dt

import pytest

import ipb
from ipb.engine.card import constraint_errors
from ipb.engine.registry import compiled_card
from perturb_support import anachronisms_of, assert_rule_case

GREENBLATT = "greenblatt_magic_formula_screen"
MARKS = "marks_distressed_debt"
LYNCH = "lynch_six_category_framework"
GRAHAM = "graham_seven_tests_defensive"

JUNE_2007 = dt.date(2007, 6, 30)


# --------------------------------------------------------------------------- GR5, GR4: a financial's price before the crunch
#
# s47review GR5 and GR4: on the 30 June 2007 base (a $3B regional bank earning $600M before tax, 5x) the metric moved
# EBIT or the market value alone, to 2.5-4x (GR5) and, for financials worth $25-220B, 19-88x (GR4). Before July 2007
# the cheapest financial worth $1B or more sold near 4.5x its pre-tax earnings (floor 3x, as outside financials); a
# financial worth $20B or
# more at most 30x (CME near 25x at $18B), one worth $50B or more at most 15x (American Express near 13x).

_BANK = {"sector": "financials", "foreign_adr": False, "planned_holding_months": 12, "portfolio_positions": 30}
_FLOOR = "market value / pre-tax earnings (EBIT) of a financial company worth $1B or more"
_LARGE = "market value / pre-tax earnings (EBIT) of a financial company worth $20B or more"
_LARGEST = "market value / pre-tax earnings (EBIT) of a financial company worth $50B or more"


@pytest.mark.parametrize("facts, bound, what", [
    ({"market_cap": "$3B", "ebit": "$1.145B", "enterprise_value": "$2.5B"}, _FLOOR,
     "s47review Greenblatt 19, IPB-GRE-MF-002-7d6fb99e20298279: $3B on $1.145B (2.62x)"),
    ({"market_cap": "$1.51B", "ebit": "$600M", "enterprise_value": "$1B"}, _FLOOR,
     "a GR5 item of the reviewer's run: $1.51B on $600M (2.52x)"),
    ({"market_cap": "$2.99B", "ebit": "$1B", "enterprise_value": "$2.5B"}, _FLOOR, "just under 3x"),
    ({"market_cap": "$87.92B", "ebit": "$4.59B", "enterprise_value": "$233.73B"}, _LARGEST,
     "s47review Greenblatt 9, IPB-GRE-MF-002-6667481914966a12: $87.92B on $4.59B (19.15x)"),
    ({"market_cap": "$50B", "ebit": "$3.3B", "enterprise_value": "$60B"}, _LARGEST, "$50B at 15.15x"),
    ({"market_cap": "$26.37B", "ebit": "$600M", "enterprise_value": "$25B"}, _LARGE,
     "a GR4 item of the reviewer's run: $26.37B on $600M (43.95x)"),
    ({"market_cap": "$20B", "ebit": "$660M", "enterprise_value": "$20B"}, _LARGE, "$20B at 30.3x"),
])
def test_a_financial_priced_outside_its_precrunch_multiples_is_an_anachronism(facts, bound, what):
    problems = anachronisms_of(GREENBLATT, {**_BANK, **facts}, JUNE_2007)
    assert any(bound in p for p in problems), (what, problems)


@pytest.mark.parametrize("facts, when, what", [
    ({"market_cap": "$3B", "ebit": "$600M", "enterprise_value": "$2.5B"}, JUNE_2007, "the base: 5x"),
    ({"market_cap": "$3B", "ebit": "$1B", "enterprise_value": "$2.5B"}, JUNE_2007, "the floor's edge: 3x"),
    ({"market_cap": "$3B", "ebit": "$980M", "enterprise_value": "$2.5B"}, JUNE_2007,
     "s47review Greenblatt 14, IPB-GRE-MF-002-138f7f9fb10594a5 (3.06x): left, as s43rfix keeps $930M (3.23x)"),
    ({"market_cap": "$900M", "ebit": "$450M", "enterprise_value": "$800M"}, JUNE_2007,
     "under $1B: a small lender is not bounded (2x)"),
    ({"market_cap": "$3B", "ebit": "$1.145B", "enterprise_value": "$2.5B"}, dt.date(2007, 9, 30),
     "after the crunch began (2.62x on 30 September 2007)"),
    ({"market_cap": "$3B", "ebit": "$1.145B", "enterprise_value": "$2.5B"}, dt.date(2003, 12, 31),
     "before 2004 (2.62x)"),
    ({"market_cap": "$18B", "ebit": "$720M", "enterprise_value": "$17B"}, JUNE_2007, "CME's size and 25x: under $20B"),
    ({"market_cap": "$20B", "ebit": "$667M", "enterprise_value": "$20B"}, JUNE_2007, "$20B at 29.99x"),
    ({"market_cap": "$72B", "ebit": "$5.5B", "enterprise_value": "$80B"}, JUNE_2007, "American Express: 13.1x"),
    ({"market_cap": "$49.9B", "ebit": "$2B", "enterprise_value": "$50B"}, JUNE_2007, "under $50B at 24.95x"),
    ({"market_cap": "$35B", "ebit": "$1.1B", "enterprise_value": "$36B"}, dt.date(2007, 12, 31),
     "CME Group at the end of 2007 (31.8x) is past the window"),
])
def test_a_financial_within_its_precrunch_multiples_is_kept(facts, when, what):
    problems = anachronisms_of(GREENBLATT, {**_BANK, **facts}, when)
    assert not any("of a financial company" in p for p in problems), (what, problems)


# --------------------------------------------------------------------------- MK6: a bankrupt carrier's reorganisation value
#
# s47review MK6: on the 30 September 2005 base (airline equipment notes, a $1B reorganisation value) the metric and flip
# operators drew $15.5-49.7B. The largest transport reorganisation of 2002-2007, Delta's, was $9.4-12B; bound $15B.

_NOTES = {"sector": "transport", "spread_to_treasuries": "18%", "purchase_price": "50%", "class_face": "$800M",
          "senior_claims": "$200M", "stressed_value": "$650M", "years_to_resolution": 1.5}
_REORG = "reorganisation value of a bankrupt transport company"


@pytest.mark.parametrize("facts, what", [
    ({"reorganization_value": "$28.25B", "stressed_value": "$23.3B", "senior_claims": "$25.48B"},
     "s47review Marks 10, IPB-MAR-DD-004-4e3d08ceb038144c: $28.25B"),
    ({"reorganization_value": "$19.24B", "class_face": "$16.77B", "purchase_price": "79%"},
     "s47review Marks 18, IPB-MAR-DD-004-06ffa4c7736cded6: $19.24B"),
    ({"reorganization_value": "$15.01B"}, "just over $15B"),
])
def test_a_transport_reorganisation_value_above_fifteen_billion_in_2005_is_an_anachronism(facts, what):
    problems = anachronisms_of(MARKS, {**_NOTES, **facts}, dt.date(2005, 9, 30))
    assert any(_REORG in p for p in problems), (what, problems)


@pytest.mark.parametrize("facts, year, what", [
    ({"reorganization_value": "$1B"}, 2005, "the base: $1B"),
    ({"reorganization_value": "$15B"}, 2005, "the edge: exactly $15B"),
    ({"reorganization_value": "$12B"}, 2007, "Delta's plan's top, 2007"),
    ({"reorganization_value": "$20B"}, 2009, "2009 is not bounded"),
    ({"reorganization_value": "$20B", "sector": "energy"}, 2005, "another sector (Calpine filed in December 2005)"),
])
def test_a_reorganisation_value_within_its_record_is_kept(facts, year, what):
    problems = anachronisms_of(MARKS, {**_NOTES, **facts}, year)
    assert not any(_REORG in p for p in problems), (what, problems)


# --------------------------------------------------------------------------- LY5: a 1979 financial's size
#
# s47review LY5: on the 30 September 1979 base (a $300M restaurant chain) the flip and metric operators gave a financial
# company $18.7-43.9B. The largest financials of 1979-82 (Citicorp, BankAmerica, American Express) were worth about
# $2-4B; the bound is $8B for 1979-1982.

_FAST = {"cyclical_industry": False, "debt_share": "10%", "distressed": False, "dividend_raised_years": "0",
         "dividend_yield": "0%", "earnings_growth": "30%", "expansion_room": True, "hidden_asset_value": "$0",
         "pe_ratio": "19.5x", "sector": "financials"}
_FINANCIAL = "market value of a financial company"


@pytest.mark.parametrize("market, year, what", [
    ("$18.68B", 1979, "s47review Lynch 17, IPB-LYN-SC-004-ce91ab769d705fa4: $18.68B"),
    ("$43.92B", 1979, "the largest LY5 financial of the reviewer's run"),
    ("$8.01B", 1982, "just over $8B in 1982"),
])
def test_a_financial_worth_over_eight_billion_in_1979_1982_is_an_anachronism(market, year, what):
    problems = anachronisms_of(LYNCH, {**_FAST, "market_cap": market}, year)
    assert any(_FINANCIAL in p for p in problems), (what, problems)


@pytest.mark.parametrize("facts, year, what", [
    ({"market_cap": "$300M"}, 1979, "the base's size"),
    ({"market_cap": "$8B"}, 1979, "the edge: exactly $8B"),
    ({"market_cap": "$12B"}, 1984, "1984 is not bounded by this table"),
    ({"market_cap": "$12B", "sector": "consumer"}, 1979, "a consumer company is the consumer table's ($18B)"),
])
def test_a_financial_within_its_years_record_is_kept(facts, year, what):
    problems = anachronisms_of(LYNCH, {**_FAST, **facts}, year)
    assert not any(_FINANCIAL in p for p in problems), (what, problems)


# --------------------------------------------------------------------------- G5: a utility's equity and its bonds
#
# s47review G5: on the 31 December 1974 electric utility ($800M of assets, $500M of bonds, $300M of equity) the isolate
# operator set equity and assets freely, to equity of 66-95% of the long-term capital. A utility with $500M or more of
# assets keeps its equity at most three times its long-term debt (75% of the two).

_G5 = "utility_equity_at_most_three_times_its_long_term_debt"
_UTIL = {"book_value_per_share": "$20", "company_type": "public_utility", "dividend_years": "40", "eps_3yr_avg": "$2.4",
         "eps_3yr_avg_ten_years_ago": "$1.7", "long_term_debt": "$500M", "price_per_share": "$18",
         "stock_equity": "$300M", "total_assets": "$800M", "years_with_earnings": "10"}


@pytest.mark.parametrize("facts, refused, what", [
    ({"current_liabilities": "$690M", "stock_equity": "$3.461B", "total_assets": "$4.7B", "years_with_earnings": "9"},
     True, "s47review Graham 15, GRAHAM-7T-004-8b6507aeb1df2bab: $3.461B beside $500M (87%)"),
    ({"stock_equity": "$565M", "long_term_debt": "$69M"}, True, "a G5 item of the run: $565M beside $69M (89%)"),
    ({"stock_equity": "$603M", "long_term_debt": "$200M", "total_assets": "$900M"}, True, "just over three times ($600M)"),
    ({"stock_equity": "$600M", "long_term_debt": "$200M", "total_assets": "$900M"}, False,
     "the edge: exactly three times (75%)"),
    ({}, False, "the base: $300M beside $500M (37.5%)"),
    ({"stock_equity": "$390M", "long_term_debt": "$159M"}, False,
     "a G5 item of the run at 71%: kept, under this line"),
    ({"stock_equity": "$400M", "long_term_debt": "$20M", "total_assets": "$450M"}, False,
     "a utility under $500M of assets is left open"),
])
def test_a_large_utilitys_equity_is_at_most_three_times_its_bonds(facts, refused, what):
    assert_rule_case(GRAHAM, _G5, {**_UTIL, **facts}, refused)


def test_an_industrials_equity_is_not_this_rules():
    facts = {**_UTIL, "company_type": "industrial", "stock_equity": "$700M", "long_term_debt": "$50M",
             "current_assets": "$400M", "current_liabilities": "$100M"}
    names = [e.name for e in constraint_errors(compiled_card(GRAHAM).card, ipb.facts(GRAHAM, facts))]
    assert _G5 not in names, names


# --------------------------------------------------------------------------- LY8: a slow grower's P/E in 1980-84
#
# s48review LY8: on the 30 June 1982 base (a $2B electric utility growing 4% at 7x) the sector and metric operators
# priced a company growing 4% a year, neither cyclical nor battered, at 15-31x, when the market sold near 7-8x. From
# 1980 through 1984 such a slow grower is priced at most 14x (regimes.yaml slow_grower_price_earnings_1980_1984).

_SLOW = {"cyclical_industry": False, "distressed": False, "dividend_raised_years": "15", "dividend_yield": "7%",
         "earnings_growth": "4%", "hidden_asset_value": "$0",
         "market_cap": "$2B", "pe_ratio": "7x", "sector": "utilities"}
_SLOW_PE = "price / earnings of a slow grower neither cyclical nor battered"
JUNE_1982 = dt.date(1982, 6, 30)


@pytest.mark.parametrize("facts, when, what", [
    ({"pe_ratio": "31x", "sector": "technology", "dividend_yield": "1.5%"}, JUNE_1982,
     "s48review Lynch 5, IPB-LYN-SC-001-9d025dcc8342fa77: technology growing 4% at 31x"),
    ({"pe_ratio": "17x", "dividend_yield": "2.5%"}, JUNE_1982, "s48review Lynch 8, IPB-LYN-SC-001-fb1d2a7691100999: a utility at 17x"),
    ({"pe_ratio": "14.5x", "earnings_growth": "6%"}, dt.date(1984, 12, 31), "just over 14x, growing 6%, end of 1984"),
    ({"pe_ratio": "15x", "earnings_growth": "-5%"}, dt.date(1980, 3, 31), "a shrinking company, not battered, 1980"),
])
def test_a_slow_grower_above_fourteen_times_in_1980_1984_is_an_anachronism(facts, when, what):
    problems = anachronisms_of(LYNCH, {**_SLOW, **facts}, when)
    assert any(_SLOW_PE in p for p in problems), (what, problems)


@pytest.mark.parametrize("facts, when, what", [
    ({}, JUNE_1982, "the base: 7x"),
    ({"pe_ratio": "14x"}, JUNE_1982, "the edge: 14x"),
    ({"pe_ratio": "20x", "earnings_growth": "6.5%"}, JUNE_1982, "growing over 6% a year"),
    ({"pe_ratio": "20x", "cyclical_industry": True}, JUNE_1982, "a cyclical at its earnings' low"),
    ({"pe_ratio": "20x", "distressed": True}, JUNE_1982, "a battered company"),
    ({"pe_ratio": "20x"}, dt.date(1985, 6, 30), "1985 is not bounded"),
    ({"pe_ratio": "20x"}, dt.date(1979, 9, 30), "1979 is not bounded by this row"),
])
def test_a_slow_grower_within_its_eras_multiple_is_kept(facts, when, what):
    problems = anachronisms_of(LYNCH, {**_SLOW, **facts}, when)
    assert not any(_SLOW_PE in p for p in problems), (what, problems)
