"""Revenue, balance sheet and earnings figures fit their date (issue 18, stop 31; bug kind: a company larger
than its era allows).

Stop 30 bounded a company's market value by year (``sizes.largest``); revenue, total assets, cash
and earnings were not bounded, so a temporal displacement moved a railroad with $5B of annual
revenue to 1932 (the largest American company then sold about $1B) and ``ipb verify`` passed an
item dated June 1995 with $18B of owner earnings (no US company earned half that before 2000; since
stop 32 the 1995 bound is $18B, near three times the largest net income, so the tests use $19B).
``frameworks/regimes.yaml`` now lists ``sizes.figures``: per figure, the inputs it covers (names,
or a label/description that starts with the figure's noun phrase) and the largest US company's
figure by year, rounded up (sources in the file's comment). A figure above its year's bound is an
anachronism like a market value above its bound.
"""

from __future__ import annotations

import json
import random
from decimal import Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.expressions import MONEY
from ipb.engine.card import InputSpec
from ipb.engine.registry import bundled_card_paths, compiled_card
from ipb.errors import IpbError, PerturbError
from ipb.perturb import verify_items, write_lines
from ipb.perturb.frame import build_frame, load_base
from ipb.perturb.items import build_item
from ipb.perturb.operators import Step, get_operator
from ipb.perturb.registries import load_regimes

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
SCEN = ROOT / "frameworks" / "scenarios"
BUFFETT = "buffett_acquisition_checklist"
MUNGER = "munger_business_quality_price"
B = Decimal(10) ** 9


def _figure(figure_id: str):
    return next(f for f in load_regimes().figures if f.id == figure_id)


def test_the_figure_tables_read_as_documented():
    # every company's figures, then those bound to a kind of company (``when``; s43items: review42 R12 and R10)
    # s45items: debt, bounded by the largest balance sheet (the assets rows), so the sector shares reach it too
    assert [f.id for f in load_regimes().figures if not f.when] == ["revenue", "cash", "assets", "net_earnings",
                                                                     "earnings", "debt"]
    assert _figure("debt").largest == _figure("assets").largest
    assert [(f.id, f.when) for f in load_regimes().figures if f.when] == [
        ("consumer_market_value", (("sector", ("consumer",)),)),
        ("spinoff_market_value", (("mispricing_source", ("spinoff",)), ("sector", (
            "industrials", "consumer", "financials", "energy", "real_estate", "technology", "healthcare",
            "materials")))),
        # s43size: review43 R1 (transport at the end of 1987; subscription software in March 2009)
        ("transport_market_value", (("sector", ("transport",)),)),
        ("recurring_software_revenue", (("business_model", ("subscription_software",)),)),
        # s44rfix: review44 LYN-size-era (a battered company in 1990; a yes/no condition reads "true")
        ("distressed_market_value", (("distressed", ("true",)),)),
        ("distressed_debt_due_within_a_year", (("distressed", ("true",)),)),
        # s47rfix2: s47review K3 (a reorganised equity in 2003)
        ("reorganised_market_value", (("mispricing_source", ("bankruptcy_or_restructuring",)),)),
        # s50rfix2: s50review K7 (a neglected security in 1998)
        ("neglected_market_value", (("mispricing_source", ("complexity_or_neglect",)),)),
        # s48rfix2: s47review MK6 (a bankrupt carrier's reorganisation value, 2002-2007)
        ("transport_reorganisation_value", (("sector", ("transport",)),)),
        # s48rfix2: s47review LY5 (a financial company in 1979-1982)
        ("financial_market_value", (("sector", ("financials",)),))]
    assert _figure("consumer_market_value").bound(1984) == 28 * B  # GM near $25B at the end of 1984, rounded up
    assert _figure("spinoff_market_value").bound(1993) == 8 * B  # Dean Witter Discover near $6B in 1993
    assert _figure("cash").bound(2000) == 30 * B  # s36review2: Microsoft $23.8B at June 2000, rounded up
    assert _figure("revenue").bound(1955) == 13 * B  # General Motors, $12.4B of sales in 1955, rounded up
    assert _figure("revenue").bound(1932) == Decimal("2.5") * B  # between 1929 ($2B) and 1940 ($2.5B): the larger
    assert _figure("assets").bound(1950) == 13 * B  # AT&T, $11.6B of assets in 1950
    assert _figure("earnings").bound(1995) == 18 * B  # GE, Exxon: about $6.5B each; near 3x (oil taxes)
    assert _figure("net_earnings").bound(1995) == 9 * B  # s37fix: Royal Dutch/Shell about $6.9B, rounded up 30%
    # s37break: Fannie Mae's 2013 net income was $84.0B (10-K, a tax benefit of $45.4B): a real figure the
    # table must allow in 2013 and 2014 (the bound between two rows is the larger)
    assert _figure("net_earnings").bound(2013) >= 84 * B and _figure("net_earnings").bound(2014) >= 84 * B
    assert _figure("earnings").bound(1900) == Decimal("0.6") * B and _figure("revenue").bound(2100) == 900 * B
    for figure in load_regimes().figures:
        years = [y for y, _ in figure.largest]
        assert years == sorted(set(years)), figure.id


# input of a bundled card -> the figure that bounds it (None: not bounded by a figure table)
BUNDLED = {
    (BUFFETT, "arr"): "revenue", (BUFFETT, "net_income"): "net_earnings",
    ("graham_seven_tests_defensive", "annual_sales"): "revenue",
    ("graham_seven_tests_defensive", "total_assets"): "assets",
    ("graham_seven_tests_defensive", "current_assets"): "assets",
    ("graham_seven_tests_defensive", "current_liabilities"): None,
    ("graham_defensive_portfolio_selection", "smallest_sales"): "revenue",
    ("greenblatt_magic_formula_screen", "ebit"): "earnings",
    ("greenblatt_magic_formula_screen", "net_fixed_assets"): "assets",
    ("greenblatt_magic_formula_screen", "market_cap"): None,  # a market size: sizes.largest bounds it
    ("buffett_share_repurchase", "cash_and_equivalents"): "cash",  # s36review2: own bound
    ("buffett_share_repurchase", "liquidity_reserve"): "cash",  # named in the cash inputs
    ("buffett_share_repurchase", "repurchase_amount"): None,
    ("lynch_six_category_framework", "cash"): "cash",
    ("lynch_six_category_framework", "hidden_asset_value"): None,
    (MUNGER, "owner_earnings"): "net_earnings",  # s37fix: net figures have their own bound
    ("marks_distressed_debt", "stressed_value"): None,
    ("marks_risk_return_assessment", "price"): None,
}


@pytest.mark.parametrize("card,name", list(BUNDLED), ids=[f"{c}.{n}" for c, n in BUNDLED])
def test_each_bundled_money_input_gets_the_figure_its_description_says(card, name):
    spec = compiled_card(card).card.inputs[name]
    figure = load_regimes().money_figure(spec)
    assert (figure.id if figure else None) == BUNDLED[(card, name)], spec.description


# (name, label, description, figure) as a new author writes them: the noun phrase decides, not the name
AUTHORED = [
    ("rev_usd", "", "Annual revenue of the latest fiscal year, USD.", "revenue"),
    ("topline", "net sales", "What the company sold.", "revenue"),
    ("bs_size", "", "Total assets at the latest balance sheet.", "assets"),
    ("profit_ttm", "", "Trailing-twelve-month net income, USD.", "net_earnings"),
    ("pretax", "", "Operating income of the latest year, USD.", "earnings"),
    ("op_inc", "", "EBITDA (earnings before interest, taxes, depreciation and amortisation).", "earnings"),
    ("segment_rev", "", "Revenue of the segment being sold.", None),  # goes on: not the company's revenue
    ("buffer", "", "Cash the business must keep for its operations.", None),
    ("price_paid", "", "Market value of the stake.", None),
]


@pytest.mark.parametrize("name,label,description,want", AUTHORED, ids=[a[0] for a in AUTHORED])
def test_an_authors_money_input_is_recognised_by_its_noun_phrase(name, label, description, want):
    spec = InputSpec(name, "money", MONEY, description=description, label=label)
    figure = load_regimes().money_figure(spec)
    assert (figure.id if figure else None) == want
    assert load_regimes().is_size(spec) is (want is not None)  # what ipb perturb treats as bounded by its date


def test_temporal_refuses_an_era_whose_largest_company_sold_less(tmp_path):
    """The railroad of the FM-6 probe test has $5B of annual revenue: 1932 and 1938 are too early."""
    text = (SCEN / BUFFETT / "ipb_p_011_base.yaml").read_text(encoding="utf-8")
    assert "arr: $5B" in text
    base = tmp_path / "railroad.yaml"
    base.write_text(text.replace("business_model: subscription_software", "business_model: railroad")
                    .replace("sector: enterprise_software", "sector: transport"), encoding="utf-8")
    frame = build_frame([compiled_card(BUFFETT)], fm6_probe=True)
    scenario = load_base(base, frame)
    temporal = get_operator("temporal")
    with pytest.raises(PerturbError, match=r"too early for the scenario's facts: arr \$5B \(above the largest US "
                                           r"company's annual revenue about 1932, \$2.5B\)"):
        temporal(frame, scenario, random.Random(0), "depression_1932")
    assert temporal(frame, scenario, random.Random(0), "credit_crunch_1966").scenario.as_of.year == 1966


# The value was $60B before stop 33; Munger's card now prices a business at least 5x its positive owner earnings
# (s33review), and $60B on $19B (3.2x) broke that rule before the era bound could be read: $100B is 5.3x and 8.3x.
def _munger_base(tmp_path: Path, earnings: str, value: str = "$100B") -> Path:
    text = (SCEN / MUNGER / "fair_business_wonderful_price.yaml").read_text(encoding="utf-8")
    assert "owner_earnings: $500M" in text and "market_value: $4B" in text
    base = tmp_path / "big.yaml"
    base.write_text(text.replace("owner_earnings: $500M", f"owner_earnings: {earnings}")
                    .replace("market_value: $4B", f"market_value: {value}"), encoding="utf-8")
    return base


def test_a_base_earning_more_than_its_date_allows_is_refused(tmp_path):
    result = runner.invoke(app, ["perturb", "--card", MUNGER, "--base", str(_munger_base(tmp_path, "$19B")),
                                 "--n", "5", "--out", str(tmp_path / "x.jsonl")])
    assert result.exit_code == 1
    assert "owner_earnings $19B (above the largest US company's annual net earnings about 1995, $9B)" in result.output
    # s37fix: $12B was kept while owner earnings had the pre-tax bound ($18B); the net bound is $9B
    over = runner.invoke(app, ["perturb", "--card", MUNGER, "--base", str(_munger_base(tmp_path, "$12B")),
                               "--n", "5", "--out", str(tmp_path / "x.jsonl")])
    assert over.exit_code == 1 and "annual net earnings about 1995, $9B" in over.output
    ok = runner.invoke(app, ["perturb", "--card", MUNGER, "--base", str(_munger_base(tmp_path, "$8.5B")),
                             "--n", "5", "--out", str(tmp_path / "x.jsonl")])
    assert ok.exit_code == 0, ok.output  # below the bound: made as before


def test_verify_reports_an_item_earning_more_than_its_date_allows(tmp_path):
    """A self-consistent item (id, question and gold made by the library) dated June 1995 with $19B of owner
    earnings: ``ipb perturb`` refuses such a base and never keeps such a draw dated, so verify must not pass it."""
    frame = build_frame([compiled_card(MUNGER)])
    base = load_base(_munger_base(tmp_path, "$8.5B"), frame)
    scenario = base.with_facts(dict(base.facts, owner_earnings=19 * B))
    item = build_item(frame, base, scenario, [Step("metric", scenario, {"inputs": ["owner_earnings"]})],
                      recipe="metric", args=[None], seed=0, attempt=0)
    assert item["scenario"]["as_of"] == "1995-06-30"
    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(item)])
    check = verify_items(path)
    assert [c.record for c in check.mismatched] == [1]
    assert any("owner_earnings $19B (above the largest US company's annual net earnings about 1995, $9B)" in p
               for p in check.mismatched[0].problems), check.mismatched[0].problems


def test_every_bundled_dated_base_fits_its_years_figures():
    """No bundled base is refused by the figure bounds (ipb perturb runs on each as before)."""
    regimes = load_regimes()
    checked = 0
    for path in bundled_card_paths():
        frame = build_frame([compiled_card(str(path))])
        for file in sorted((SCEN / path.stem).glob("*.yaml")):
            try:
                base = load_base(file, frame)
            except IpbError as exc:
                assert exc.rule != "anachronism", (file, exc.message)
                continue
            if base.as_of is not None:
                named = {n: v for n, v in base.facts.items() if regimes.money_figure(frame.inputs[n]) is not None}
                checked += len(named)
                assert regimes.anachronisms(frame.inputs, named, base.as_of.year) == [], file
    assert checked >= 40  # dated bases' revenue, asset and earnings facts


def test_a_bad_figures_entry_in_a_users_regimes_file_is_a_located_error(tmp_path):
    head = ("version: 1\ninputs: [macro_regime]\nfacts:\n  inflation_rate: {type: ratio}\nregimes:\n"
            "  - {id: r, name: R, labels: [x], known_from: \"2009-01-01\", as_of: \"2009-03-09\"}\n"
            "sizes:\n  inputs: [market_value]\n  largest:\n    - [1995, $130B]\n  figures:\n"
            "    - id: revenue\n      what: annual revenue\n      inputs: [revenue]\n      phrases: [revenue]\n"
            "      largest:\n        - [1990, $130B]\n        - [1995, $0]\n")
    path = tmp_path / "regimes.yaml"
    path.write_text(head, encoding="utf-8")
    with pytest.raises(IpbError) as err:
        load_regimes(path)
    errors = getattr(err.value, "errors", [err.value])
    hit = [e for e in errors if "sizes.figures.0.largest: the bound for 1995 is $0; a company's annual revenue is "
           "above $0" in e.message]
    assert hit and hit[0].line == 18, [(e.message, e.line) for e in errors]


# (figure, year, a real US company's published figure that year) -- each was above its bound before stop 32
# (bug kind: a real company refused as an anachronism); sources in frameworks/regimes.yaml and notes/s32era.md.
REAL_FIGURES = [
    ("revenue", 2000, Decimal("232.7")),  # Exxon Mobil, total revenues and other income (bound was $220B)
    ("revenue", 2026, Decimal("742.7")),  # Amazon, twelve months to March 2026 (last bound was $720B)
    ("revenue", 2025, Decimal("716.9")),  # Amazon, 2025 net sales (under the old $720B by $3.1B only)
    ("assets", 2015, Decimal("3221")),  # Fannie Mae, trusts consolidated since 2010 (bound was $2.6T)
    ("assets", 2020, Decimal("3986")),  # Fannie Mae (bound was $3.7T)
    ("assets", 2021, Decimal("4229")),  # Fannie Mae (bound was $4.1T)
    ("assets", 2025, Decimal("4424.9")),  # JPMorgan Chase, 2025-12-31
]


@pytest.mark.parametrize("figure_id,year,billions", REAL_FIGURES, ids=lambda v: str(v))
def test_a_real_companys_published_figure_is_within_its_years_bound(figure_id, year, billions):
    assert billions * B <= _figure(figure_id).bound(year)


def test_the_bounds_still_refuse_an_order_of_magnitude_too_large():
    assert _figure("revenue").bound(1955) < 20 * B < _figure("revenue").bound(2000)
    assert _figure("assets").bound(2015) < 10 ** 13  # $10T of assets in 2015: no US company held half of it
    assert _figure("earnings").bound(1995) < 19 * B
