"""Coherent scale between a card's money inputs, and natural Greenblatt questions (new-user report 3, findings 5-6).

The report found Greenblatt items giving a $1.2B company $24.41B of net working
capital, and questions such as "The place of the stock in the combined ranking
is 12 place." The cards' ``constraints:`` now tie each balance-sheet or
earnings figure to the price; every item a run writes must keep the ratios
below (checked here on the item's facts, independently of the card's own
constraint code), and the bundled scenarios still satisfy them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ipb.engine.card import constraint_errors
from ipb.engine.registry import compiled_card
from ipb.engine.scenario import load_scenario
from ipb.perturb import Job, build_frame, generate
from perturb_support import SCENARIOS
from test_perturb_questions import item_facts, parse_back

GREENBLATT = "greenblatt_magic_formula_screen"

#: card: (base scenario, [(what, relation on the facts)]); a relation is only checked when its facts are known.
SCALE = {
    GREENBLATT: ("invest_midcap_industrial.yaml", [
        ("net working capital + net fixed assets <= 2 x EV",
         lambda f: f["net_working_capital"] + f["net_fixed_assets"] <= 2 * f["enterprise_value"]),
        ("net working capital <= EV", lambda f: f["net_working_capital"] <= f["enterprise_value"]),
        ("net working capital >= -EV / 2", lambda f: f["net_working_capital"] >= -f["enterprise_value"] / 2),
        ("EBIT >= -EV / 2", lambda f: f["ebit"] >= -f["enterprise_value"] / 2),
    ]),
    "graham_net_net_screen": (None, [
        ("net income <= market value / 2", lambda f: f["net_income"] <= f["market_value"] / 2),
        ("liabilities <= 3 x current assets", lambda f: f["total_liabilities"] <= 3 * f["current_assets"]),
    ]),
    "munger_business_quality_price": (None, [
        ("owner earnings <= price / 3", lambda f: f["owner_earnings"] <= f["market_value"] / 3),
    ]),
    "buffett_owner_earnings_dcf": (None, [
        ("net income <= price / 3", lambda f: f["net_income"] <= f["market_value"] / 3),
        ("maintenance capex <= price", lambda f: f["maintenance_capex"] <= f["market_value"]),
    ]),
    "klarman_downside_first_process": (None, [
        ("conservative value <= 5 x price", lambda f: f["conservative_value"] <= 5 * f["purchase_price"]),
        ("price <= 5 x conservative value", lambda f: f["purchase_price"] <= 5 * f["conservative_value"]),
    ]),
    "klarman_deep_value_identification": (None, [
        ("conservative value <= 5 x price", lambda f: f["conservative_value"] <= 5 * f["market_value"]),
        ("price <= 5 x conservative value", lambda f: f["market_value"] <= 5 * f["conservative_value"]),
    ]),
    "marks_risk_return_assessment": (None, [
        ("intrinsic value <= 5 x price", lambda f: f["intrinsic_value"] <= 5 * f["price"]),
        ("price <= 5 x intrinsic value", lambda f: f["price"] <= 5 * f["intrinsic_value"]),
    ]),
    "lynch_six_category_framework": (None, [
        ("hidden assets <= 5 x market cap", lambda f: f["hidden_asset_value"] <= 5 * f["market_cap"]),
        ("cash <= 2 x market cap + debt", lambda f: f["cash"] <= 2 * f["market_cap"] + f["total_debt"]),
    ]),
}


def _base(card: str, name: str | None) -> str:
    paths = sorted((SCENARIOS / card).glob("*.yaml"))
    return str(SCENARIOS / card / name) if name else str(paths[0])


@pytest.mark.parametrize("card", sorted(SCALE))
def test_every_item_keeps_the_money_inputs_in_scale(card):
    base, relations = SCALE[card]
    frame = build_frame([card])
    result = generate(Job((card,), _base(card, base), 5), 150)
    broken: list[str] = []
    for line in result.lines:
        facts = item_facts(frame, json.loads(line))
        for what, holds in relations:
            try:
                ok = holds(facts)
            except (KeyError, TypeError):  # a fact the item leaves unknown: nothing to compare
                continue
            if not ok:
                broken.append(f"{what}: {facts}")
    assert not broken, broken[:3]


def test_the_reported_greenblatt_item_is_refused(tmp_path: Path):
    """$24.41B of net working capital for a $1.2B company (items/gb_mix.jsonl line 10) breaks the card; ranked
    12th on a 0.9% return on capital it also breaks the return-on-capital floor of the top 100 (s24green) and the
    place the card derives from the two yields (s25green; the base's working capital is now $90M)."""
    text = (SCENARIOS / GREENBLATT / "invest_midcap_industrial.yaml").read_text(encoding="utf-8")
    assert "net_working_capital: $90M" in text
    path = tmp_path / "s.yaml"
    path.write_text(text.replace("net_working_capital: $90M", "net_working_capital: $24.41B"), encoding="utf-8")
    card = compiled_card(GREENBLATT).card
    errors = constraint_errors(card, load_scenario(path, card).facts)
    assert [e.name for e in errors] == ["tangible_capital_within_scale", "top_ranks_have_a_real_return_on_capital",
                                        "combined_rank_from_the_two_yields"]


def test_bundled_scenarios_satisfy_the_new_constraints():
    for card_id in SCALE:
        card = compiled_card(card_id).card
        for path in sorted((SCENARIOS / card_id).glob("*.yaml")):
            assert constraint_errors(card, load_scenario(path, card).facts) == [], path


def test_greenblatt_questions_read_naturally():
    """Every fact sentence of 20 items, by hand: ordinal rank, labelled sector, no repeated unit."""
    frame = build_frame([GREENBLATT])
    result = generate(Job((GREENBLATT,), _base(GREENBLATT, "invest_midcap_industrial.yaml"), 3), 20)
    for line in result.lines:
        item = json.loads(line)
        question = item["question"]
        facts = item_facts(frame, item)
        assert parse_back(frame, question) == facts
        assert not re.search(r"\d place\b| months are|holding months|less excess cash", question), question
        assert "The GICS-style sector of the company is " in question
        if facts["sector"] == "financials":  # s36rules: a move to financials drops the capital and so the place
            # no place is stated (s61f6: it may now be the one input left in the "... is not disclosed." sentence)
            assert not re.search(r"place in the combined ranking is (?!not disclosed\.)", question), question
            assert "The net working capital is " not in question and "The net fixed assets are " not in question
            continue
        rank = int(facts["combined_rank_position"])
        suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
        assert f"The stock's place in the combined ranking is {rank}{suffix}." in question
        if "planned_holding_months" in facts:
            assert f"The planned holding period is {int(facts['planned_holding_months'])} months." in question
        assert "The net working capital is " in question and "The enterprise value is " in question
