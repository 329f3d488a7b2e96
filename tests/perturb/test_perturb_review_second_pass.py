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

import datetime as dt
import json
from decimal import Decimal
from functools import lru_cache

from ipb.engine.scenario import convert_fact
from ipb.perturb import Job, build_frame, generate
from perturb_support import SCENARIOS

SEED = 2027  # the review's seed


@lru_cache(maxsize=None)
def _run(card_id: str, base: str, n: int = 1000) -> tuple[tuple[dict, dict], ...]:
    frame = build_frame([card_id])
    result = generate(Job((card_id,), str(SCENARIOS / card_id / base), SEED), n, allow_short=True)
    out = []
    for line in result.lines:
        item = json.loads(line)
        facts = {k: convert_fact(frame.inputs[k], v) for k, v in item["scenario"]["facts"].items()}
        out.append((item, facts))
    return tuple(out)


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


def test_lynch_cash_and_debt_fit_the_market_value_and_the_debt_share():
    """The review saw $12-14B of cash in a $1.5B company in 1983 with the debt undisclosed (main: 76 of 1,000
    items), and $19B of bank debt in a $28B company whose debt is 10% of its capital (main: 43). With a debt share
    d, debt is d / (1 - d) of book equity, and book equity is at most twice the market value."""
    cash_seen = debt_seen = 0
    for item, f in _run("lynch_six_category_framework", "decline_fast_grower_overpriced.yaml"):
        cap = f["market_cap"]
        if "cash" in f and "total_debt" not in f:
            cash_seen += 1
            assert f["cash"] <= 2 * cap, item["id"]
        share = f.get("debt_share")
        for name in ("bank_debt", "total_debt"):
            if share is not None and name in f:
                debt_seen += 1
                assert f[name] * (1 - share) <= 2 * share * cap, item["id"]
    assert cash_seen >= 20 and debt_seen >= 20


def test_berkshire_keeps_its_reserve_and_no_company_holds_250_billion_in_2012():
    """Berkshire has stated a cash floor of $20B since 2011: the review saw it in December 2012 keeping a
    reserve of $1.17B (main: 129 items below $20B). "Another company" with $387B of cash on 12 December 2012
    (main: 47 items above $250B) is more than any company held then."""
    berkshire = other = 0
    for item, f in _run("buffett_share_repurchase", "berkshire_2012_within_limit.yaml"):
        assert f["decision_date"] == dt.date(2012, 12, 12)
        assert f.get("cash_and_equivalents", Decimal(0)) <= Decimal("250e9"), item["id"]
        if f["issuer"] == "berkshire_hathaway" and "liquidity_reserve" in f:
            berkshire += 1
            assert f["liquidity_reserve"] >= Decimal("20e9"), item["id"]
        elif f["issuer"] == "other_company":
            other += 1
    assert berkshire >= 200 and other >= 50


def test_marks_crisis_spreads_mean_tight_capital_and_fear_is_not_loose():
    """Leftover of the first review: "panicked" with capital "normal" at spreads of 12.75-22%. Above 12% capital
    is tight; a fearful mood never comes with loose capital (the review saw fearful and loose at 6.25%; main: 33
    items)."""
    wide = fearful = 0
    for item, f in _run("marks_market_cycle_positioning", "cold_aggressive_2008.yaml", 600):
        spread, capital, mood = (f.get(k) for k in ("high_yield_spread", "capital_availability",
                                                    "investor_psychology"))
        if spread is not None and spread > Decimal("0.12") and capital is not None:
            wide += 1
            assert capital == "tight", item["id"]
        if mood == "fearful":
            fearful += 1
            assert capital != "loose", item["id"]
    assert wide >= 20 and fearful >= 50


def test_buffett_utilities_grow_at_most_ten_percent():
    """Leftover of the first review: sector substitution to energy made the SaaS base "a utility" growing 19% a
    year (energy's range is -20% to 30%; main: 10 of 1,000 items above 10%)."""
    utilities = 0
    for item, f in _run("buffett_acquisition_checklist", "ipb_p_011_base.yaml"):
        if f.get("business_model") == "utility":
            utilities += 1
            assert f.get("revenue_growth", Decimal(0)) <= Decimal("0.10"), item["id"]
    assert utilities >= 5  # 9 of the 1,000 items are utilities


def test_greenblatt_a_top_rank_has_a_real_earnings_yield():
    """The review saw EBIT of $1.5B on an enterprise value of $417B (earnings yield 0.4%) ranked 30th of the
    combined ranking (main: 103 items ranked in the top 300 below a 5% yield)."""
    top = 0
    for item, f in _run("greenblatt_magic_formula_screen", "decline_outside_top_group.yaml"):
        rank = f.get("combined_rank_position")
        if rank is not None and rank <= 300 and "ebit" in f and "enterprise_value" in f:
            top += 1
            assert f["ebit"] >= Decimal("0.05") * f["enterprise_value"], item["id"]
    assert top >= 100


def test_marks_no_loss_is_promised_below_value():
    """The review saw a price of $110M against a value of $111M with a prospective return of -9.5% a year
    (main: 25 items at or below value promising a loss)."""
    below = 0
    for item, f in _run("marks_risk_return_assessment", "decline_loved_credit_2007.yaml"):
        price, value, ret = (f.get(k) for k in ("price", "intrinsic_value", "expected_return"))
        if None in (price, value, ret) or price > value:
            continue
        below += 1
        assert ret >= 0, item["id"]
    assert below >= 50


def test_graham_net_income_stays_within_sales():
    """The review saw EPS of $14.95 on $15.75 of book value a share and $2.99B of equity: 190M shares earning
    $2.8B on $600M of sales (main: 46 items with net income above half of sales)."""
    stated = 0
    for item, f in _run("graham_seven_tests_defensive", "dividend_record_unknown.yaml"):
        names = ("eps_3yr_avg", "stock_equity", "annual_sales", "book_value_per_share")
        if not all(k in f for k in names):
            continue
        eps, equity, sales, book = (f[k] for k in names)
        stated += 1
        assert eps * equity / book <= sales / 2, item["id"]
    assert stated >= 50
