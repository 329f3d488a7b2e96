"""Defaults that work on every card: applicable operators only, --mix proportions, flip/isolate from anchors."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from ipb.engine.execute import execute
from ipb.engine.registry import compiled_card
from ipb.engine.scenario import facts_from_mapping
from ipb.errors import PerturbError
from ipb.perturb import Job, build_frame, generate, parse_recipes
from ipb.perturb.generation import DEFAULT_OPERATORS, _weighted_shares, default_recipes, parse_mix
from perturb_support import BUFFETT, BUFFETT_BASE, CARD_IDS, SCENARIOS


def first_base(card_id: str) -> str:
    paths = sorted((SCENARIOS / card_id).glob("*.yaml"))
    return str(next((p for p in paths if p.name.endswith("base.yaml")), paths[0]))


# --------------------------------------------------------------------------- defaults


def test_default_recipes_skip_what_does_not_apply_and_say_why():
    # Owner-earnings DCF: no sector input or sector metric, no regime gate (read off the card by hand)
    recipes, notes = default_recipes(build_frame(["buffett_owner_earnings_dcf"]))
    assert [r.text for r in recipes] == ["metric", "flip", "isolate"]
    assert [n.split(":")[0] for n in notes] == ["skipped sector", "skipped temporal"]
    assert "no regime gate" in notes[1]
    recipes, notes = default_recipes(build_frame([BUFFETT]))
    assert [r.text for r in recipes] == list(DEFAULT_OPERATORS) and notes == []


@pytest.mark.parametrize("card_id", CARD_IDS)
def test_every_bundled_card_makes_items_with_no_ops(card_id):
    """The issue's bar at a smaller N: every bundled card, its first scenario as base, default operators."""
    result = generate(Job((card_id,), first_base(card_id), 0), 150)
    assert len(result.lines) == 150 and len(set(result.lines)) == 150
    used = {json.loads(line)["manifest"]["recipe"] for line in result.lines}
    assert used <= set(DEFAULT_OPERATORS)
    # a note skips an operator, or says what sector substitution moves on a card with no sector input, or (s60setting,
    # s58user F-C13) that it only renames the industry on a card whose sector input is all a sector move changes
    assert all(n.startswith("skipped ") or n.startswith(f"sector: card {card_id} has no sector input")
               or n.startswith(f"sector: card {card_id} has no input with a sector profile") for n in result.notes)
    # issue 18: every item changes a fact some gate, computed value or constraint reads, and no two items
    # share their facts (a relabelled base, or a repeat under another context label, is no item)
    relevant = set(build_frame([card_id]).relevant)
    items = [json.loads(line) for line in result.lines]
    for item in items:
        assert {c["input"] for c in item["manifest"]["changes"]} & relevant, item["manifest"]["changes"]
    assert len({json.dumps(item["scenario"]["facts"], sort_keys=True) for item in items}) == 150


def test_explicit_ops_that_cannot_apply_still_fail():
    with pytest.raises(PerturbError) as err:
        generate(Job(("buffett_owner_earnings_dcf",), first_base("buffett_owner_earnings_dcf"), 0,
                     parse_recipes("temporal")), 5)
    assert err.value.rule == "not-applicable"


# --------------------------------------------------------------------------- --mix


def test_weighted_shares_are_largest_remainders():
    assert _weighted_shares(1000, [0.4, 0.2, 0.4]) == [400, 200, 400]
    assert _weighted_shares(10, [1 / 3, 1 / 3, 1 / 3]) == [4, 3, 3]  # ties go to the earlier recipe
    assert _weighted_shares(5, [0.0, 1.0]) == [0, 5]


@pytest.mark.parametrize("spec, words", [
    ("metric", "RECIPE=WEIGHT"),
    ("metric=abc", "non-negative number"),
    ("metric=-1", "non-negative number"),
    ("metric=0,flip=0", "add up to 0"),
    ("metric=1,metric=2", "twice"),
    ("metrc=1", "did you mean"),
])
def test_bad_mix_is_refused(spec, words):
    with pytest.raises(PerturbError) as err:
        parse_mix(spec)
    text = err.value.message + (f" did you mean {err.value.suggestion!r}" if err.value.suggestion else "")
    assert words in text


@pytest.mark.parametrize("spec, want", [
    ("metric=1e308,flip=1e308", (0.5, 0.5)),   # the sum overflowed to inf: both shares were 0 (s32break)
    ("metric=1e308,flip=5e307", (0.666666666667, 0.333333333333)),
    ("metric=4e-320,flip=1e-320", (0.8, 0.2)),  # subnormal weights keep their proportion
])
def test_mix_weights_near_the_float_limits_keep_their_proportions(spec, want):
    assert parse_mix(spec)[1] == want


def test_mix_gives_the_proportions_and_reports_a_shortfall_per_recipe():
    recipes, weights = parse_mix("metric=3,isolate=1")
    result = generate(Job((BUFFETT,), str(BUFFETT_BASE), 1, recipes, weights=weights), 40)
    assert [(r.recipe, r.share, r.items) for r in result.recipes] == [("metric", 30, 30), ("isolate", 10, 10)]
    # temporal has 5 regimes for this base (subscription software exists from 1999), two of which (2002 and 2017,
    # both an NBER expansion: the 2001 recession ended in November 2001) set the base's own facts and are no item:
    # its shortfall is reported
    recipes, weights = parse_mix("temporal=0.5,metric=0.5")
    result = generate(Job((BUFFETT,), str(BUFFETT_BASE), 1, recipes, weights=weights), 40)
    temporal, metric = result.recipes
    assert (temporal.share, temporal.items, metric.items) == (20, 3, 37)
    assert "temporal: 3 items (share 20" in result.summary() and "17 fewer than its share" in result.summary()


# --------------------------------------------------------------------------- flip and isolate from anchors


def _outcome(card_id: str, facts: dict) -> str:
    compiled = compiled_card(card_id)
    return execute(compiled, facts_from_mapping(compiled.card, facts)).outcome


def test_flip_items_sit_on_a_boundary_even_where_the_base_has_none():
    """Klarman's base is killed by a bool (value rests on growth): no number flips it, anchors do."""
    card = "klarman_deep_value_identification"
    base = str(SCENARIOS / card / "decline_growth_valuation.yaml")
    result = generate(Job((card,), base, 3, parse_recipes("flip")), 40)
    assert len(result.lines) == 40
    for line in result.lines:
        item = json.loads(line)
        (op,) = item["manifest"]["operators"]
        d = op["details"]
        facts = dict(item["scenario"]["facts"])
        at = _outcome(card, facts)
        short = _outcome(card, {**facts, d["input"]: d["one_step_short"]})
        assert at == item["investment_verdict"] and at != short, d
        assert d["anchor"], "each item after the first searches from a neighbour of the base"


def _profile(compiled, facts: dict) -> list[str]:
    trace = execute(compiled, facts_from_mapping(compiled.card, facts), diagnostic=True)
    return [(g.diagnostic_verdict or g.verdict).value for g in trace.gates]


def test_isolate_items_change_exactly_one_gate_from_their_anchor():
    card = "graham_net_net_screen"
    compiled = compiled_card(card)
    gate_ids = [g.id for g in compiled.card.gates]
    result = generate(Job((card,), first_base(card), 2, parse_recipes("isolate")), 30)
    assert len(result.lines) == 30
    for line in result.lines:
        item = json.loads(line)
        d = item["manifest"]["operators"][0]["details"]
        after = dict(item["scenario"]["facts"])
        before = {k: v for k, v in after.items() if k != d["input"]}
        if d["from"] is not None:
            before[d["input"]] = d["from"]
        diff = [g for g, a, b in zip(gate_ids, _profile(compiled, before), _profile(compiled, after)) if a != b]
        assert diff == [d["gate"]], d


# --------------------------------------------------------------------------- the CLI


def test_cli_without_ops_uses_what_applies_and_says_what_it_skipped(tmp_path):
    from typer.testing import CliRunner

    from ipb.cli import app

    card = "buffett_owner_earnings_dcf"
    out = tmp_path / "items.jsonl"
    args = ["perturb", "-c", card, "-b", first_base(card), "--n", "60", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "note: skipped sector" in result.output and "note: skipped temporal" in result.output
    assert len(out.read_text().splitlines()) == 60
    result = CliRunner().invoke(app, args[:-2] + ["--mix", "metric=1,isolate=1", "--out", str(tmp_path / "m.jsonl")])
    assert result.exit_code == 0 and "metric: 30 items (share 30" in result.output
    result = CliRunner().invoke(app, args + ["--ops", "metric", "--mix", "metric=1"])
    assert result.exit_code == 1 and "not both" in result.output
