"""An input says what it is a fact about: ``describes: market | company`` (stop 35, new user; docs/perturbation.md
"Dates that fit the facts").

A new user's Neff card (``cards/neff_new_user.yaml``) reads the market's P/E, earnings growth and dividend yield
beside the stock's, and the company's own ``cycle_position`` (where its earnings stand in their cycle). Before
this, the card had no way to say either: ``market_pe`` was not market state, so 1,000 items (seed 7) moved the
market's P/E to 19.5x and kept the base's date, and ``cycle_position`` was taken for the market's regime by its
name, so ``temporal`` wrote the 1966 credit crunch as the company's earnings ``peak`` (2 items) and the items that
moved the company's cycle lost their date. ``describes: market`` makes an input history at the date (an item that
moves it keeps no date); ``describes: company`` makes it never a regime input nor a macro fact.
"""

from __future__ import annotations

import json

import pytest

from ipb.engine.card import load_card_text
from ipb.errors import ErrorGroup, IpbError
from ipb.perturb import Job, generate, parse_recipes
from ipb.perturb.frame import build_frame
from ipb.perturb.operators import regime_fact_inputs, regime_inputs
from perturb_support import CARDS, FIXTURES

CARD = CARDS / "neff_new_user.yaml"
BASE = str(FIXTURES / "neff_new_user_base.yaml")


def _without_describes(tmp_path):
    text = "\n".join(line for line in CARD.read_text(encoding="utf-8").splitlines() if "describes:" not in line)
    path = tmp_path / "neff_plain.yaml"
    path.write_text(text + "\n", encoding="utf-8")
    return str(path)


def test_the_card_says_what_each_input_is_about():
    frame = build_frame([str(CARD)])
    reg = frame.regimes
    for name in ("market_pe", "market_growth", "market_yield"):
        assert frame.inputs[name].describes == "market"
        assert reg.describes_the_date(frame.inputs[name]) and reg.is_market_state(frame.inputs[name])
    cycle = frame.inputs["cycle_position"]
    assert cycle.describes == "company" and "cycle_position" in reg.inputs   # a regime input's name...
    assert not reg.describes_the_date(cycle) and not reg.is_market_state(cycle)   # ...the card overrides
    assert regime_inputs(frame) == [] and regime_fact_inputs(frame) == {}
    assert not reg.describes_the_date(frame.inputs["pe"])


def test_without_the_key_the_names_decide(tmp_path):
    frame = build_frame([_without_describes(tmp_path)])
    assert frame.inputs["cycle_position"].describes == ""
    assert regime_inputs(frame) == ["cycle_position"]                 # the company's cycle read as the regime
    assert not frame.regimes.describes_the_date(frame.inputs["market_pe"])   # the market's P/E not history


def test_temporal_no_longer_sets_the_companys_cycle(tmp_path):
    before = generate(Job((_without_describes(tmp_path),), BASE, 7), 120)
    moved = [json.loads(line) for line in before.lines if json.loads(line)["manifest"]["recipe"] == "temporal"]
    assert moved and all(i["manifest"]["operators"][0]["details"]["set"].keys() == {"cycle_position"}
                         for i in moved)
    after = generate(Job((str(CARD),), BASE, 7), 120)
    assert not [line for line in after.lines if json.loads(line)["manifest"]["recipe"] == "temporal"]
    assert "skipped temporal" in after.summary()
    assert "(cycle_position: the card's own fact, describes: company)" in after.summary()


def test_an_item_that_moves_the_market_keeps_no_date():
    result = generate(Job((str(CARD),), BASE, 7), 200)
    base = {"market_pe": "18.5x", "market_growth": "7%", "market_yield": "2.7%", "cycle_position": "mid_cycle"}
    market_moved = cycle_moved = 0
    for line in result.lines:
        item = json.loads(line)
        facts = item["scenario"]["facts"]
        moved = {n for n in base if facts.get(n) != base[n]}
        if moved & {"market_pe", "market_growth", "market_yield"}:
            market_moved += 1
            assert item["scenario"].get("as_of") is None, (moved, item["id"])
            assert "Decision date" not in item["question"]
        elif not moved - {"cycle_position"}:
            cycle_moved += "cycle_position" in moved
            # the company's own cycle and the stock's facts are no history of the day: the date stays
            assert item["scenario"].get("as_of") == "1972-12-29", (moved, item["id"])
    assert market_moved >= 20, market_moved
    assert cycle_moved >= 1, cycle_moved


def test_a_value_other_than_market_company_or_sector_is_refused_at_its_line():
    text = CARD.read_text(encoding="utf-8").replace("describes: company", "describes: industry", 1)
    with pytest.raises((ErrorGroup, IpbError)) as info:
        load_card_text(text, "neff.yaml")
    errors = info.value.errors if isinstance(info.value, ErrorGroup) else [info.value]
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "describes: industry" in t)
    assert any(e.line == line and "describes" in str(e) for e in errors), [str(e) for e in errors]


def _kind_names_the_sector(tmp_path):
    text = CARD.read_text(encoding="utf-8").replace(
        "  business_kind:\n    type: category", "  business_kind:\n    describes: sector\n    type: category", 1)
    assert "describes: sector" in text
    path = tmp_path / "neff_kind.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _sector_items(card: str) -> list[dict]:
    result = generate(Job((card,), BASE, 7, parse_recipes("sector")), 25)
    return [json.loads(line) for line in result.lines]


def test_a_kind_of_business_that_names_a_sector_keeps_the_sector(tmp_path):
    # the base's kind of business is "financial", an alias of the financials sector in frameworks/sectors.yaml
    before = _sector_items(str(CARD))
    assert {i["manifest"]["context"]["sector"] for i in before} - {"financials"}   # healthcare, retail... beside it
    after = _sector_items(_kind_names_the_sector(tmp_path))
    assert after and {i["manifest"]["context"]["sector"] for i in after} == {"financials"}
    for item in after:
        assert "Sector: banking and insurance." in item["question"]   # the financials sector's name
        assert item["scenario"]["facts"]["business_kind"] == "financial"


def test_a_kind_that_names_no_sector_leaves_every_sector_open(tmp_path):
    base = tmp_path / "base.yaml"
    base.write_text(open(BASE, encoding="utf-8").read().replace("business_kind: financial",
                                                                "business_kind: steady_grower"), encoding="utf-8")
    result = generate(Job((_kind_names_the_sector(tmp_path),), str(base), 7, parse_recipes("sector")), 25)
    sectors = {json.loads(line)["manifest"]["context"]["sector"] for line in result.lines}
    assert len(sectors) >= 3, sectors
