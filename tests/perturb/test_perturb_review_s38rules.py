"""Regression (implausible kinds): the frequent I kinds of the s37review2 read (issue 18, bar line 2; seed 9191).

The read (``/work/notes/s37review2.md``, "Proposed rules" and "Beyond the sample") counted, over 200 items of each
card's file, kinds a careful reviewer reads as implausible. Each is closed by a general rule of card data:

1. soros_reflexive_hypothesis_trade_construction (57 of 200): "have market action and events borne the hypothesis
   out? Yes" beside a bias that is unclear or a loop that is absent or self-correcting. The market's test is the
   price move, so the question now asks whether prices and events moved the way the trade bet.
2. dalio_debt_supercycle_navigation (40): "printing money" with the policy rate at 2.25-3%.
   ``printing_starts_at_the_floor``: printing comes with a policy rate of 1% or less.
3. greenblatt_magic_formula_screen (46): net cash (market cap less EV) two to six times the operating capital of an
   industrial. ``net_cash_within_the_operating_capital`` (technology, healthcare, communication exempt).
4. marks_distressed_debt (19): a "conservative" base-case value at 2x or more of every claim at and ahead of the
   class. ``a_conservative_value_leaves_the_debt_at_risk``.

Each rule refuses the review's item and keeps a neighbour at its worked bound; each case fails on 8bc784a (the
rule ids are absent there, and the old Soros question said "borne the hypothesis out").
"""

from __future__ import annotations

import json

import pytest

from ipb.perturb import Job, generate
from ipb.perturb.recipes import parse_recipes
from perturb_support import SCENARIOS, assert_rule_case

SOROS = "soros_reflexive_hypothesis_trade_construction"
DALIO = "dalio_debt_supercycle_navigation"
GREENBLATT = "greenblatt_magic_formula_screen"
MARKS = "marks_distressed_debt"

# review #129 #116 kind: a contraction (real -2%, nominal +1%: 3% inflation) and a 3% policy rate; the older
# printing_is_not_tight_policy allowed printing there (3% is not a point above inflation)
_CONTRACTION = {"policy_rate": "3%", "real_gdp_growth": "-2%", "nominal_gdp_growth": "1%", "long_bond_yield": "4%",
                "yield_curve_slope": "1%", "foreign_currency_debt_share": "20%", "debt_growth_gap": "1%",
                "bubble_signals": 1}
# the review's base (invest_midcap_industrial, 2006) with #130's market cap: net cash $940M on $240M of capital
_MIDCAP = {"market_cap": "$1.94B", "sector": "industrials", "foreign_adr": False, "ebit": "$230M",
           "enterprise_value": "$1B", "net_working_capital": "$90M", "net_fixed_assets": "$150M",
           "combined_rank_position": 12, "planned_holding_months": 12, "portfolio_positions": 25}
# the review's base (invest_moderate_process_risk): $1.5B of claims at and ahead of the class
_MAR_BAD = "the_bad_case_is_at_least_two_fifths_of_the_conservative_value"
_DISTRESSED = {"sector": "media", "spread_to_treasuries": "25%", "purchase_price": "45%", "class_face": "$1B",
               "senior_claims": "$500M", "reorganization_value": "$1.4B", "stressed_value": "$1B",
               "years_to_resolution": 2, "legal_process_risk": "moderate"}

CASES = [
    # Dalio: printing at 3% refused; at 1% kept, 1.25% (the next step) refused; easing at 3% kept
    (DALIO, "printing_starts_at_the_floor", {**_CONTRACTION, "central_bank_stance": "printing"}, True),
    (DALIO, "printing_starts_at_the_floor",
     {**_CONTRACTION, "central_bank_stance": "printing", "policy_rate": "1%", "yield_curve_slope": "3%"}, False),
    (DALIO, "printing_starts_at_the_floor",
     {**_CONTRACTION, "central_bank_stance": "printing", "policy_rate": "1.25%", "yield_curve_slope": "2.75%"}, True),
    (DALIO, "printing_starts_at_the_floor", {**_CONTRACTION, "central_bank_stance": "easing"}, False),
    # Greenblatt #130: $940M of net cash on $240M of capital refused; $240M (cap $1.24B) kept, $250M refused;
    # the same company filed under technology kept
    (GREENBLATT, "net_cash_within_the_operating_capital", _MIDCAP, True),
    (GREENBLATT, "net_cash_within_the_operating_capital", {**_MIDCAP, "market_cap": "$1.24B"}, False),
    (GREENBLATT, "net_cash_within_the_operating_capital", {**_MIDCAP, "market_cap": "$1.25B"}, True),
    (GREENBLATT, "net_cash_within_the_operating_capital", {**_MIDCAP, "sector": "technology"}, False),
    # Marks #9: a conservative value of $3.41B against $1.5B of claims refused (the older 3x rule kept it); $2.99B
    # kept, $3B (exactly twice) refused
    # s46rfix2: a $1B bad case is 29-33% of these base cases, under the two-fifths rule, which now refuses them too
    # (the $2.99B neighbour by that rule alone)
    (MARKS, ("a_conservative_value_leaves_the_debt_at_risk", _MAR_BAD), {**_DISTRESSED, "reorganization_value": "$3.41B"},
     True),
    (MARKS, _MAR_BAD, {**_DISTRESSED, "reorganization_value": "$2.99B"}, True),
    (MARKS, ("a_conservative_value_leaves_the_debt_at_risk", _MAR_BAD), {**_DISTRESSED, "reorganization_value": "$3B"},
     True),
]


@pytest.mark.parametrize("card, rule, facts, refused", CASES,
                         ids=[f"{c[1]}-{'refused' if c[3] else 'kept'}-{i}" for i, c in enumerate(CASES)])
def test_each_rule_refuses_its_item_and_keeps_its_neighbour(card, rule, facts, refused):
    assert_rule_case(card, rule, facts, refused)


def _items(card: str, base: str, n: int = 60):
    result = generate(Job((card,), str(SCENARIOS / card / base), 9191, parse_recipes("metric,isolate,flip")), n,
                      allow_short=True)
    assert result.lines
    return [json.loads(line) for line in result.lines]


def test_soros_confirmations_are_price_moves_not_a_proved_premise():
    """Soros (the review's base, seed 9191): items whose bias is unclear or whose loop is not self-reinforcing still
    state confirmations (an unclear bias is what the test position resolves), but no question says the hypothesis
    was borne out; the confirmation sentence asks about the price move and each count is a move the trade's way."""
    items = _items(SOROS, "loss_budget_stops_loop.yaml")
    missing = [it for it in items if it["scenario"]["facts"].get("prevailing_bias") != "identified"
               or it["scenario"]["facts"].get("feedback_loop") != "self_reinforcing"]
    confirmed = [it for it in missing if it["scenario"]["facts"].get("hypothesis_confirmed") is True]
    assert confirmed, "the run must hold the kind the review read (premise missing, market confirming)"
    for it in items:
        question = it["question"]
        assert "borne the hypothesis out" not in question, it["id"]
        if "hypothesis_confirmed" in it["scenario"]["facts"]:
            answer = "Yes" if it["scenario"]["facts"]["hypothesis_confirmed"] else "No"
            assert (f"Since the test position was taken, have prices and events moved the way the trade bet? "
                    f"{answer}.") in question, it["id"]
        if "confirmation_rounds" in it["scenario"]["facts"]:
            assert "successive moves the market has made in the trade's favour is" in question, it["id"]


@pytest.mark.parametrize("card, base, kind", [
    (DALIO, "contraction_above_the_floor_defensive.yaml",
     lambda f: f.get("central_bank_stance") == "printing" and float(f["policy_rate"].rstrip("%")) > 1),
    (MARKS, "invest_moderate_process_risk.yaml",
     lambda f: _money(f["reorganization_value"]) >= 2 * (_money(f["senior_claims"]) + _money(f["class_face"]))),
    (GREENBLATT, "invest_midcap_industrial.yaml",
     lambda f: f.get("sector") not in ("technology", "healthcare", "communication")
     and 0 < _money(f["net_working_capital"]) + _money(f["net_fixed_assets"])
     < _money(f["market_cap"]) - _money(f["enterprise_value"])),
], ids=["dalio-printing", "marks-value", "greenblatt-net-cash"])
def test_the_reviews_kind_is_gone_from_its_base(card, base, kind):
    """The review's bases, seed 9191: the kind was 40 (Dalio), 19 (Marks) and 46 (Greenblatt, all sectors) of 200."""
    items = _items(card, base)
    assert len(items) >= 40
    assert [it["id"] for it in items if kind(it["scenario"]["facts"])] == []


def _money(text: str) -> float:
    text = str(text).replace("$", "").replace(",", "")
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("-")
    scale = {"K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}.get(text[-1], 1)
    return sign * float(text.rstrip("KMBT")) * scale


# Lynch (the review's base is dated 1979-09-30; 34 of 200 items at a P/E of 25x or more, #111 with a decade average
# of 43.5x): ``multiples`` in frameworks/regimes.yaml bounds a valuation multiple by era, the twin of ``sizes``.
LYNCH = "lynch_six_category_framework"


def test_a_multiple_above_its_eras_highest_is_an_anachronism():
    """1974-79: at most 30x (current and decade-average P/E); before 1974 and from 1980 not bounded here."""
    from decimal import Decimal

    from ipb.engine.registry import compiled_card
    from ipb.perturb.registries import load_regimes

    regimes = load_regimes()
    specs = compiled_card(LYNCH).card.inputs
    found = regimes.anachronisms(specs, {"pe_ratio": Decimal(40), "pe_historical_average": Decimal("43.5")}, 1979)
    assert found == ["pe_ratio 40x (above the highest price / earnings of its era about 1979, 30x)",
                     "pe_historical_average 43.5x (above the highest price / earnings of its era about 1979, 30x)"]
    assert regimes.anachronisms(specs, {"pe_ratio": Decimal(30)}, 1979) == []
    assert regimes.anachronisms(specs, {"pe_ratio": Decimal("30.5")}, 1974) != []
    # the Nifty Fifty year and the 1983 new-issue boom (the card's own 40x base of June 1983) are kept
    assert regimes.anachronisms(specs, {"pe_ratio": Decimal(60)}, 1972) == []
    assert regimes.anachronisms(specs, {"pe_ratio": Decimal(40)}, 1983) == []


def test_lynch_items_dated_1979_keep_the_eras_multiples():
    """The review's base, seed 9191: no dated item states a P/E or a decade-average P/E above 30x."""
    items = _items(LYNCH, "invest_fast_grower_room_to_expand.yaml")
    dated = [it for it in items if it["scenario"].get("as_of")]
    assert len(dated) >= 40
    high = [it["id"] for it in dated for k in ("pe_ratio", "pe_historical_average")
            if k in it["scenario"]["facts"] and float(str(it["scenario"]["facts"][k]).rstrip("x")) > 30]
    assert high == []


def test_a_multiples_row_out_of_order_is_a_located_error(tmp_path):
    from ipb.errors import IpbError
    from ipb.perturb.registries import load_regimes

    text = ("version: 1\ninputs: [macro_regime]\nfacts:\n  inflation_rate: {type: ratio}\nregimes:\n"
            "  - {id: r, name: R, labels: [x], known_from: \"2009-01-01\", as_of: \"2009-03-09\"}\n"
            "multiples:\n  - id: pe\n    what: price / earnings\n    inputs: [pe_ratio]\n    most:\n"
            "      - [1980, 1000]\n      - [1974, 30]\n      - [1990, 0]\n")
    path = tmp_path / "regimes.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(IpbError) as err:
        load_regimes(path)
    messages = [e.message for e in getattr(err.value, "errors", [err.value])]
    assert any("multiples.0.most: year 1974 does not follow 1980" in m for m in messages), messages
    assert any("multiples.0.most: the highest multiple for 1990 is 0; a multiple is above 0" in m
               for m in messages), messages
