"""Regression (contradictory facts): the second issue 18 bar review (s24qual) and the first review's leftovers.

The review (``/work/notes/s24qual.md``) generated 1,000 items per card with
``ipb perturb --n 1000 --seed 2027`` on the same 10 cards and bases as the
first review, and read 20 random items per card (``random.Random(24)``).
Each test below makes the same run and checks, with its own arithmetic on the
engine's reading of every item's facts, that a contradiction found there (or
left over from the first review) cannot occur any more, and that the relation
is exercised (enough items state the facts it ties). Every test failed on the
cards before the fix (counts in the note).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from perturb_support import SCENARIOS, review_run

SEED = 2027  # the review's seed


def _run(card_id: str, base: str, n: int = 1000) -> tuple[tuple[dict, dict], ...]:
    return review_run(card_id, base, SEED, n)


def test_lynch_states_room_to_expand_of_the_company_not_of_a_fast_grower():
    """Leftover of the first review: "Does a fast grower still have markets to expand into? Yes." was stated for
    a company growing -19% or 6% a year. The fact is now stated of the company; no question calls a company a
    fast grower (main: all 1,000 items did)."""
    not_fast = 0
    for item, f in _run("lynch_six_category_framework", "decline_fast_grower_overpriced.yaml"):
        assert "fast grower" not in item["question"].lower(), item["id"]
        if "expansion_room" in f and f.get("earnings_growth", Decimal(1)) < Decimal("0.20"):
            not_fast += 1
            assert "markets to expand into" in item["question"], item["id"]
    assert not_fast >= 50


D = Decimal
B = Decimal("1e9")

#: (card, base, rule name, applies(facts) -> bool, holds(facts) -> bool, least number of items it applies to).
#: Each rule is the review's own arithmetic on the engine's reading of the facts, not the card's expression.
RULES = [
    ("lynch_six_category_framework", "decline_fast_grower_overpriced.yaml", "cash within twice the market value "
     "when the debt is undisclosed ($12-14B of cash in a $1.5B company)",
     lambda f: "cash" in f and "total_debt" not in f, lambda f: f["cash"] <= 2 * f["market_cap"], 20),
    ("lynch_six_category_framework", "decline_fast_grower_overpriced.yaml", "debt within what its share of capital "
     "allows at a price-to-book of 0.5 or more ($19B of bank debt, 10% debt share, $28B company)",
     lambda f: "debt_share" in f and ("bank_debt" in f or "total_debt" in f),
     lambda f: all(f[k] * (1 - f["debt_share"]) <= 2 * f["debt_share"] * f["market_cap"]
                   for k in ("bank_debt", "total_debt") if k in f), 20),
    ("lynch_six_category_framework", "decline_fast_grower_overpriced.yaml", "no cash above $10B in 1977-1990 "
     "($18.17B on 30 June 1983)", lambda f: "cash" in f, lambda f: f["cash"] <= 10 * B, 20),
    ("lynch_six_category_framework", "decline_fast_grower_overpriced.yaml", "a business-cycle position only for a "
     "cyclical (not cyclical, industry at its trough)", lambda f: "cycle_position" in f,
     lambda f: f.get("cyclical_industry") is not False, 5),
    ("lynch_six_category_framework", "decline_fast_grower_overpriced.yaml", "a recovery plan only for a distressed "
     "company (healthy, growing 55%, plan for recovery: yes)", lambda f: "turnaround_plan" in f,
     lambda f: not (f["turnaround_plan"] and f.get("distressed") is False), 5),
    ("buffett_share_repurchase", "berkshire_2012_within_limit.yaml", "Berkshire keeps its stated $20B reserve "
     "($1.17B in December 2012)", lambda f: f["issuer"] == "berkshire_hathaway" and "liquidity_reserve" in f,
     lambda f: f["liquidity_reserve"] >= 20 * B, 200),
    ("buffett_share_repurchase", "berkshire_2012_within_limit.yaml", "no company above $250B of cash in 2012 "
     "($387B)", lambda f: "cash_and_equivalents" in f, lambda f: f["cash_and_equivalents"] <= 250 * B, 500),
    ("buffett_share_repurchase", "berkshire_2012_within_limit.yaml", "Berkshire's 2012 cash of $35-55B ($27.4B)",
     lambda f: f["issuer"] == "berkshire_hathaway" and "cash_and_equivalents" in f,
     lambda f: 35 * B <= f["cash_and_equivalents"] <= 55 * B, 200),
    ("buffett_share_repurchase", "berkshire_2012_within_limit.yaml", "Berkshire's value at most twice its price "
     "($518K at $131K)", lambda f: f["issuer"] == "berkshire_hathaway" and "intrinsic_value_per_share" in f,
     lambda f: f["intrinsic_value_per_share"] <= 2 * f["price_per_share"], 200),
    # s25cards read: Berkshire at $118K and 1.16x book (book about $102K) valued at $41.8K
    ("buffett_share_repurchase", "berkshire_2012_within_limit.yaml", "Berkshire's value at least its book "
     "($41.8K at $118K and 1.16x)", lambda f: f["issuer"] == "berkshire_hathaway" and "price_to_book" in f,
     lambda f: f["intrinsic_value_per_share"] >= f["price_per_share"] / f["price_to_book"], 200),
    ("marks_market_cycle_positioning", "cold_aggressive_2008.yaml", "a spread above 12% means tight capital "
     "(panicked, normal capital, 12.75-22%)", lambda f: f.get("high_yield_spread", 0) > D("0.12"),
     lambda f: f.get("capital_availability") in (None, "tight"), 20),
    ("marks_market_cycle_positioning", "cold_aggressive_2008.yaml", "fear is not loose capital (fearful, loose, "
     "6.25%)", lambda f: f.get("investor_psychology") == "fearful", lambda f: f.get("capital_availability") != "loose", 50),
    ("marks_market_cycle_positioning", "cold_aggressive_2008.yaml", "panic means tight capital (panicked, normal, "
     "9.75%)", lambda f: f.get("investor_psychology") == "panicked", lambda f: f.get("capital_availability") == "tight", 20),
    ("marks_market_cycle_positioning", "cold_aggressive_2008.yaml", "optimism is not tight capital (optimistic, "
     "tight, 6.75%)", lambda f: f.get("investor_psychology") == "optimistic",
     lambda f: f.get("capital_availability") != "tight", 10),
    ("marks_market_cycle_positioning", "cold_aggressive_2008.yaml", "tight capital needs a spread of 5% (4%)",
     lambda f: f.get("capital_availability") == "tight", lambda f: f.get("high_yield_spread", 1) >= D("0.05"), 50),
    ("buffett_acquisition_checklist", "ipb_p_011_base.yaml", "an energy (oil and gas) company is no utility growing "
     "more than 10% (a utility growing 19%)", lambda f: f.get("sector") == "energy",
     lambda f: f.get("business_model") != "utility" or f.get("revenue_growth", 0) <= D("0.10"), 20),
    ("greenblatt_magic_formula_screen", "decline_outside_top_group.yaml", "a top place needs an earnings yield "
     "near it (0.4% and 5% ranked 30th, 5% 186th, 0.8% 567th, a loss 1,494th)",
     lambda f: f.get("combined_rank_position", 10**6) <= 2000,
     lambda f: (f["ebit"] > 0 and not (f["combined_rank_position"] <= 100 and f["ebit"] < D("0.10") * f["enterprise_value"])
                and not (f["combined_rank_position"] <= 500 and f["ebit"] < D("0.07") * f["enterprise_value"])
                and not (f["combined_rank_position"] <= 1000 and f["ebit"] < D("0.04") * f["enterprise_value"])), 300),
    ("buffett_acquisition_checklist", "ipb_p_011_base.yaml", "revenue grows at least as much as existing "
     "customers' spending (retention 130%, growth 25%)", lambda f: "revenue_retention" in f and "revenue_growth" in f,
     lambda f: f["revenue_growth"] >= f["revenue_retention"] - 1, 500),
    ("marks_risk_return_assessment", "decline_loved_credit_2007.yaml", "no loss promised at or below value "
     "(-9.5% a year at $110M against $111M)",
     lambda f: "expected_return" in f and f["price"] <= f["intrinsic_value"], lambda f: f["expected_return"] >= 0, 50),
    ("marks_risk_return_assessment", "decline_loved_credit_2007.yaml", "a negative return means a permanent loss "
     "at least 20% likely (-7% a year, 0%)", lambda f: f.get("expected_return", 0) < 0,
     lambda f: f.get("permanent_loss_probability", 1) >= D("0.20"), 20),
    ("marks_risk_return_assessment", "decline_loved_credit_2007.yaml", "a high-yield bond 40%+ likely to lose has "
     "no positive return (6% a year at 80%)", lambda f: f.get("permanent_loss_probability", 0) >= D("0.40")
     and f.get("asset_class") in ("high_yield_bond", "bank_loan"), lambda f: f.get("expected_return", 0) <= 0,
     # 15 (was 20): since metric draws are redrawn inside the card's rules (s25cards, perturb/feasible.py) a draw
     # of 40%+ loss with a positive return no longer stays in the run as a rejection-then-other-draw sequence:
     # 19 of the 1,000 items sat in this corner, every one holding the relation.
     # 10 (was 15, s28review): the card now prices a high-yield bond within twice its value
     # (bond_or_loan_price_and_value_within_twice), which moves the run's draws: 14 items sit in the corner,
     # every one holding the relation (the assertion is unchanged).
     10),
    ("marks_risk_return_assessment", "decline_loved_credit_2007.yaml", "one high-yield bond or loan at most $25B "
     "($91B)", lambda f: f.get("asset_class") in ("high_yield_bond", "bank_loan"),
     lambda f: f["price"] <= 25 * B and f["intrinsic_value"] <= 25 * B, 500),
    ("graham_seven_tests_defensive", "dividend_record_unknown.yaml", "net income at most half of sales ($2.8B on "
     "$600M)", lambda f: all(k in f for k in ("eps_3yr_avg", "stock_equity", "annual_sales", "book_value_per_share")),
     lambda f: f["eps_3yr_avg"] * f["stock_equity"] / f["book_value_per_share"] <= f["annual_sales"] / 2, 50),
    ("graham_seven_tests_defensive", "dividend_record_unknown.yaml", "current liabilities within a year's sales "
     "($1.28B on $600M)", lambda f: "current_liabilities" in f, lambda f: f["current_liabilities"] <= f["annual_sales"], 500),
    ("graham_seven_tests_defensive", "dividend_record_unknown.yaml", "current assets within two years' sales "
     "($2.36B on $600M)", lambda f: "current_assets" in f, lambda f: f["current_assets"] <= 2 * f["annual_sales"], 500),
    ("graham_seven_tests_defensive", "dividend_record_unknown.yaml", "EPS at most half the book value a share "
     "($18.50 on $25)", lambda f: "eps_3yr_avg" in f and "book_value_per_share" in f,
     lambda f: f["eps_3yr_avg"] <= f["book_value_per_share"] / 2, 500),
    ("graham_seven_tests_defensive", "dividend_record_unknown.yaml", "sales at least 5% of total assets ($40M on "
     "$4.97B)", lambda f: "total_assets" in f, lambda f: f["annual_sales"] >= f["total_assets"] / 20, 50),
    ("graham_seven_tests_defensive", "dividend_record_unknown.yaml", "ten years of earnings average above zero "
     "(-$1.70)", lambda f: f.get("years_with_earnings") == 10, lambda f: f.get("eps_3yr_avg", 1) > 0, 200),
    # s42rfixL (review42 R5) bounds a utility's return on book at 20%, tighter than this finding's 25%, and its 1974-75
    # price-to-book and earnings-history rules leave fewer utility items: 15 of 1,000, so this row reads 2,000
    ("graham_seven_tests_defensive", "dividend_record_unknown.yaml", "a utility earns at most 25% on book ($9.30 "
     "on $25)", lambda f: f.get("company_type") == "public_utility" and "eps_3yr_avg" in f,
     lambda f: f["eps_3yr_avg"] <= f["book_value_per_share"] / 5, 20),
]


@pytest.mark.parametrize("card_id,base,name,applies,holds,least", RULES, ids=[f"{r[0]}: {r[2][:40]}" for r in RULES])
def test_review_relation_holds_on_every_item(card_id, base, name, applies, holds, least):
    """One relation per finding (the finding in the rule's name); it applies to at least ``least`` items of the
    run, so it is exercised, and it holds on each."""
    n = 600 if card_id == "marks_market_cycle_positioning" else 2000 if "utility earns" in name else 1000
    seen = 0
    for item, f in _run(card_id, base, n):
        if applies(f):
            seen += 1
            assert holds(f), (name, item["id"])
    assert seen >= least, (name, seen)


@pytest.mark.parametrize("card_id,base,absent,present", [
    ("graham_defensive_portfolio_selection", "balanced_portfolio.yaml", "ratio across the holdings",
     "ratio across the industrial holdings"),
])
def test_review_wording(card_id, base, absent, present):
    """Wording finding: "the lowest equity-to-capitalization ratio across the holdings" (the industrial ones, as its
    description says) read as a minimum above the utility holdings' own minimum. (The crypto wording finding has
    its own test below.)"""
    texts = [item["question"] for item, _ in _run(card_id, base)]
    assert not any(absent in t for t in texts)
    assert sum(present in t for t in texts) >= 5


def test_review_wording_of_a_crypto_business(tmp_path):
    """The crypto wording finding on a base that can hold it: since stop 34 a crypto-asset business is a financial
    (frameworks/sectors.yaml pairs; s33review3), so the SaaS base (enterprise software) no longer yields crypto
    items at all. The same SaaS facts filed as a crypto-asset business in financials (gate 1 rejects it)."""
    text = (SCENARIOS / "buffett_acquisition_checklist" / "ipb_p_011_base.yaml").read_text(encoding="utf-8")
    text = text.replace("business_model: subscription_software", "business_model: crypto_asset")
    text = text.replace("sector: enterprise_software", "sector: financials")
    text = text.replace("trigger: gate_5_reject", "trigger: gate_1_reject")
    base = tmp_path / "crypto_base.yaml"
    base.write_text(text, encoding="utf-8")
    texts = [item["question"] for item, _ in _run("buffett_acquisition_checklist", str(base), 200)]
    assert not any("business model is crypto asset" in t for t in texts)
    assert sum("crypto-asset trading and custody" in t for t in texts) >= 5
