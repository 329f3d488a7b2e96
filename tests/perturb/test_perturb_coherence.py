"""Coherent operators: the sector profile moves together, dates fit the facts, L8 moves every investor."""

from __future__ import annotations

import datetime as dt
import json
import random
from collections import Counter
from decimal import Decimal

from ipb.perturb import Job, build_frame, generate, get_operator, load_base, parse_recipes
from ipb.perturb.registries import bundled_regimes
from perturb_support import BUFFETT, BUFFETT_BASE, FIXTURES

#: Which industries each business model occurs in, written out by hand (Buffett card's values).
HOMES = {
    "subscription_software": {"enterprise_software", "industrial_automation", "healthcare", "financials", "consumer"},
    "railroad": {"transport"}, "airline": {"transport"}, "utility": {"energy"},
    "banking": {"financials"}, "insurance": {"financials"},
    "consumer_brand": {"consumer"}, "retail": {"consumer"}, "speculative_biotech": {"healthcare"},
}


def test_sector_moves_the_business_model_and_never_leaves_a_software_railroad():
    result = generate(Job((BUFFETT,), str(BUFFETT_BASE), 3, parse_recipes("sector")), 150)
    moved = Counter()
    for line in result.lines:
        item = json.loads(line)
        facts = item["scenario"]["facts"]
        model, sector = facts["business_model"], facts["sector"]
        assert sector in HOMES.get(model, {sector}), (model, sector)
        d = item["manifest"]["operators"][0]["details"]
        if d["profile"]:
            moved[sector] += 1
    assert moved["transport"] > 0 and moved["financials"] > 0, moved
    assert result.recipes[0].rejected == 0, "the profile moves first, so no sector item breaks the constraint"


def test_subscription_software_is_never_dated_before_it_existed():
    result = generate(Job((BUFFETT,), str(BUFFETT_BASE), 0, parse_recipes("temporal")), 3)
    years = sorted(int(json.loads(line)["scenario"]["as_of"][:4]) for line in result.lines)
    # the five regimes of frameworks/regimes.yaml from 1999 on, less 2002 and 2017, which set the base's own facts
    # (both NBER expansions, "expansion" as the base says: they would only move the date, the base's gold, never an
    # item; issue 18)
    assert years == [2009, 2020, 2022]
    # 2002 is not refused as an anachronism (subscription software exists from 1999): it is a date-only move
    frame = build_frame([BUFFETT])
    base = load_base(BUFFETT_BASE, frame)
    step = get_operator("temporal")(frame, base, random.Random(0), "dotcom_bust_2002")
    assert str(step.scenario.as_of) == "2002-10-09" and step.scenario.facts == base.facts
    assert step.details["set"] == {"macro_regime": "expansion"}


def test_registry_anachronisms():
    frame = build_frame(["dalio_debt_supercycle_navigation"])
    regimes = bundled_regimes()
    facts = {"policy_rate": Decimal("-0.005")}
    assert regimes.anachronisms(frame.inputs, facts, 2009) == ["negative policy_rate (first seen in 2012)"]
    assert regimes.anachronisms(frame.inputs, facts, 2016) == []
    buffett = build_frame([BUFFETT])
    assert regimes.anachronisms(buffett.inputs, {"business_model": "crypto_asset"}, 2008) == [
        "business_model crypto asset (exists from 2009)"]


def test_l8_items_move_every_investors_outcome():
    cards = (BUFFETT, "marks_market_cycle_positioning", "dalio_bubble_detection_gauge")
    base = str(FIXTURES / "l8_three_investors.yaml")
    per_card = generate(Job(cards, base, 1), 200).per_card  # the default operators
    assert set(per_card) == set(cards)
    for card, counts in per_card.items():
        assert len(counts) >= 2, f"{card} gives one verdict in every item: {counts}"
    result = generate(Job(cards, base, 1, parse_recipes("metric")), 60)
    for line in result.lines:
        changed = {c["input"] for c in json.loads(line)["manifest"]["changes"]}
        assert changed & {"arr", "ev_to_arr", "revenue_growth", "revenue_retention", "gross_margin", "net_income"}
        assert changed & {"high_yield_spread"}
        assert changed & {"valuation_percentile", "discounted_growth", "sustainable_growth", "new_buyer_percentile",
                          "sentiment_percentile", "leverage_percentile", "forward_purchase_percentile",
                          "real_policy_rate"}


def test_an_item_that_changes_the_market_loses_its_historical_date():
    card = "marks_market_cycle_positioning"
    base = str(FIXTURES.parent.parent.parent / "frameworks" / "scenarios" / card / "cold_aggressive_2008.yaml")
    result = generate(Job((card,), base, 0, parse_recipes("metric")), 20)
    for line in result.lines:
        item = json.loads(line)
        assert "as_of" not in item["scenario"] and not item["question"].startswith("Decision date")
    # company facts are not history: Buffett's metric items keep their date
    kept = [json.loads(x) for x in generate(Job((BUFFETT,), str(BUFFETT_BASE), 0, parse_recipes("metric")), 20).lines]
    assert all(i["scenario"]["as_of"] == "2024-06-30" for i in kept)
    # temporal displacement dates every item, with the regime's facts
    moved = [json.loads(x) for x in generate(Job((BUFFETT,), str(BUFFETT_BASE), 0, parse_recipes("temporal")), 3).lines]
    assert all(i["question"].startswith("Decision date") for i in moved)
