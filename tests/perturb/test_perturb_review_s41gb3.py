"""s41gb3: review40 GB3 (review41 GB1), a large consumer-staples company's EBIT yield against its day (issue 18).

Seed 9494 (``ipb perturb --card greenblatt_magic_formula_screen --base .../decline_outside_top_group.yaml --n 1000``):
385 of 1,000 items dated 30 September 2008 gave a company worth $10B or more outside energy an EBIT yield of 16% or
more (EV/EBIT 6.25x or less), 291 of them consumer staples, 310 of them the INVEST flips. regimes.yaml's multiples
now take a first day as well as a first year (``"2008-10-06"``), read against the scenario's day, and the floor
``large_staples_enterprise_value_to_ebit`` holds for consumer staples worth $10B or more only: 6.5x from July 2008,
5x from the crash week of 6 October 2008, the card's own 2x from 2010. The cheapest large staples company found,
Reynolds American, near 7.2x on 30 September 2008 and 5.5x on 23 February 2009 (figures in regimes.yaml: EPS and
share price checked, debt, cash and operating income recalled [M]), stays allowed; so does Dell (technology, near
3.4x its operating profit in February 2009, test_perturb_review_s41).
"""

from __future__ import annotations

import datetime as dt

import pytest

import ipb
from ipb.engine.registry import compiled_card
from ipb.perturb.frame import build_frame
from ipb.perturb.registries import bundled_regimes

from perturb_support import review_run

GREENBLATT = "greenblatt_magic_formula_screen"
_BASE = {"market_cap": "$20B", "sector": "consumer_staples", "foreign_adr": False, "ebit": "$1.5B",
         "enterprise_value": "$30B", "net_working_capital": "$500M", "net_fixed_assets": "$2B",
         "combined_rank_position": "967", "planned_holding_months": "12", "portfolio_positions": "25"}
_WHAT = "enterprise value / EBIT of a consumer-staples company worth $10B or more"
_SEP30, _FEB23 = dt.date(2008, 9, 30), dt.date(2009, 2, 23)


def _found(when: int | dt.date, **facts: str) -> list[str]:
    frame = build_frame([compiled_card(GREENBLATT)])
    return bundled_regimes().anachronisms(frame.inputs, ipb.facts(GREENBLATT, {**_BASE, **facts}), when)


@pytest.mark.parametrize("when, facts, message", [
    # the review's kind: a $20B staples company at EBIT $5.1B on $30B, 30/5.1 = 5.88x (a 17% yield), refused
    (_SEP30, {"ebit": "$5.1B"}, f"enterprise_value / ebit 5.88x (below the lowest {_WHAT} of its era about 2008, 6.5x)"),
    # the edge: 13/2 = 6.5x kept, 12.9/2 = 6.45x refused
    (_SEP30, {"ebit": "$2B", "enterprise_value": "$13B", "market_cap": "$12B"}, None),
    (_SEP30, {"ebit": "$2B", "enterprise_value": "$12.9B", "market_cap": "$12B"},
     f"enterprise_value / ebit 6.45x (below the lowest {_WHAT} of its era about 2008, 6.5x)"),
    # Reynolds American on 30 September 2008: $14.2B, EV $16.5B, EBIT $2.3B, 7.17x (kept)
    (_SEP30, {"market_cap": "$14.2B", "enterprise_value": "$16.5B", "ebit": "$2.3B"}, None),
    # Reynolds American on 23 February 2009: $10.3B, EV $12.6B, EBIT $2.3B, 5.48x (kept under the crash floor)
    (_FEB23, {"market_cap": "$10.3B", "enterprise_value": "$12.6B", "ebit": "$2.3B"}, None),
    # the same day, 4.5x refused: 12.6/2.8 = 4.5
    (_FEB23, {"market_cap": "$10.3B", "enterprise_value": "$12.6B", "ebit": "$2.8B"},
     f"enterprise_value / ebit 4.5x (below the lowest {_WHAT} of its era about 2009, 5x)"),
    # Dell, technology, 6 February 2009: $18.4B, EV $11B, EBIT $3.2B, 3.44x (no technology floor)
    (dt.date(2009, 2, 6), {"sector": "technology", "market_cap": "$18.4B", "enterprise_value": "$11B",
                           "ebit": "$3.2B"}, None),
    # the review's item at $9B (below the $10B the floor holds from), before July 2008, in 2010, or asked by year
    (_SEP30, {"ebit": "$5.1B", "market_cap": "$9B", "enterprise_value": "$13.5B"}, None),
    (dt.date(2008, 6, 30), {"ebit": "$5.1B"}, None),
    (dt.date(2010, 6, 30), {"ebit": "$5.1B"}, None),
    (2008, {"ebit": "$5.1B"}, None),
], ids=["review-5.88x", "edge-6.5x", "edge-6.45x", "reynolds-sep08", "reynolds-feb09", "feb09-4.5x", "dell",
        "under-10B", "before-july08", "2010", "by-year"])
def test_large_staples_floor_by_day(when, facts, message):
    assert _found(when, **facts) == ([message] if message else [])


def test_review_run_has_no_large_staples_below_the_floor():
    """Seed 9494, 200 items: no consumer-staples company worth $10B or more below 6.5x EBIT on 30 September 2008,
    and the base's own kind (staples worth $10B or more) still made."""
    seen = 0
    for item, f in review_run(GREENBLATT, "decline_outside_top_group.yaml", 9494, 200):
        if f["sector"] == "consumer_staples" and f["market_cap"] >= 10 ** 10:
            seen += 1
            assert f["enterprise_value"] >= f["ebit"] * 13 / 2, item["id"]
    assert seen >= 100, seen


def test_a_dated_multiples_row_out_of_order_or_not_a_day_is_a_located_error(tmp_path):
    """A day row must be a real day (2008-02-30 is not) and follow the row before it, a year row counting from its
    1st of January (2008-10-06 then 2008 is out of order); each error names its line and column."""
    from ipb.errors import IpbError
    from ipb.perturb.registries import load_regimes

    text = ("version: 1\ninputs: [macro_regime]\nfacts:\n  inflation_rate: {type: ratio}\nregimes:\n"
            "  - {id: r, name: R, labels: [x], known_from: \"2009-01-01\", as_of: \"2009-03-09\"}\n"
            "multiples:\n  - id: ev\n    what: EV / EBIT\n    of: [enterprise_value, ebit]\n    least:\n"
            "      - [\"2008-10-06\", 5]\n      - [2008, 6]\n      - [\"2008-02-30\", 4]\n")
    path = tmp_path / "regimes.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(IpbError) as err:
        load_regimes(path)
    found = [(e.message, e.line, e.column) for e in getattr(err.value, "errors", [err.value])]
    assert any("year 2008 does not follow 2008-10-06" in m and line == 13 for m, line, _ in found), found
    assert any("'2008-02-30' is not a real date" in m and line == 14 for m, line, _ in found), found


def test_a_flip_to_invest_moves_a_large_staples_company_out_of_its_sector():
    """Seed 9494, 200 items: the INVEST side of the review base is out of reach for a consumer-staples company worth
    $10B or more on 30 September 2008 (the card's place model needs an EBIT yield near 17.5% for the top 30, the
    floor allows 15.4%), so each flip to INVEST there moved the sector (recorded in its anchor) or the size; the run
    keeps at least a fifth of INVEST items (test_perturb_review_greenblatt's verdict mix)."""
    invest = moved = 0
    for item, f in review_run(GREENBLATT, "decline_outside_top_group.yaml", 9494, 200):
        if item["investment_verdict"] != "INVEST":
            continue
        invest += 1
        assert f["sector"] != "consumer_staples" or f["market_cap"] < 10 ** 10, item["id"]
        (op,) = item["manifest"]["operators"]
        if op["name"] == "flip" and "sector" in op["details"]["anchor"]:
            moved += 1
    assert invest >= 40 and moved >= invest // 2, (invest, moved)
