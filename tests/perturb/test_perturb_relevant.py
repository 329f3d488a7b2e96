"""Card-relevant facts (issue 18, new-user report 2, finding 7): an item must change what the card reads.

Regression (relabel-only items): on a card with no sector input the default
``sector`` operator wrote items whose facts were the base's plus a "Sector:
retail." line no gate reads (manifest ``changes: []``, the base's gold), and
many items shared one fact set; on the Buffett card a temporal item moved only
the date. The facts each test compares are read back from the item file with
the engine's fact reader and compared with the base file's, over the inputs
this file lists by hand as the ones the card's gates, computed value and
constraints read.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from ipb.engine._yaml import load_yaml_file
from ipb.engine.registry import compiled_card
from ipb.engine.scenario import convert_fact
from ipb.errors import PerturbError
from ipb.perturb import Job, generate, parse_recipes
from ipb.perturb.frame import build_frame
from ipb.perturb.generation import Candidate, Diversity
from perturb_support import BUFFETT, BUFFETT_BASE, CARDS, FIXTURES

CARD = str(CARDS / "fscore_new_author.yaml")
BASE = FIXTURES / "fscore_new_author_base.yaml"
#: Read by a gate (directly or through the computed roa) or by a constraint (revenue); ``exchange`` is a label.
READ = ("net_income", "operating_cash_flow", "total_assets", "revenue", "current_ratio", "current_ratio_prior",
        "shares_issued")


def _typed(facts):
    inputs = compiled_card(CARD).card.inputs
    return {k: convert_fact(inputs[k], v) for k, v in facts.items()}


def _read(facts):
    typed = _typed(facts)
    return tuple(typed.get(k) for k in READ)


BASE_FACTS = dict(load_yaml_file(BASE).data["facts"])


def _items(min_changed=1, ops="", n=150, seed=3):
    job = Job((CARD,), str(BASE), seed, parse_recipes(ops) if ops else (), min_changed=min_changed)
    result = generate(job, n)
    return result, [json.loads(line) for line in result.lines]


def test_the_relevant_inputs_are_what_gates_computed_values_and_constraints_read():
    frame = build_frame([CARD])
    assert frame.relevant == READ
    assert "exchange" not in frame.relevant and "revenue" not in frame.consumers  # revenue: a constraint only


@pytest.mark.parametrize("min_changed", [1, 2])
def test_defaults_on_a_new_authors_card_never_repeat_the_base_or_each_other(min_changed):
    result, items = _items(min_changed)
    base = _read(BASE_FACTS)
    sets = [_read(item["scenario"]["facts"]) for item in items]
    assert base not in sets, "an item with the base's card-relevant facts has the base's gold"
    assert len(set(sets)) == len(items) == 150, "two items share a fact set"
    for item, facts in zip(items, sets):
        moved = sum(a != b for a, b in zip(facts, base))
        assert moved >= min_changed, (item["id"], item["manifest"]["changes"])
    assert min(result.diversity.changed) >= min_changed and sum(result.diversity.changed.values()) == 150
    recipes = Counter(item["manifest"]["recipe"] for item in items)
    # sector moves one read fact (current_ratio): it makes items only when one changed fact is enough
    assert (recipes["sector"] > 0) == (min_changed == 1)
    assert any(note.startswith("sector: card fscore_new_author has no sector input") and "current_ratio" in note
               for note in result.notes)


def test_sector_without_a_sector_input_always_moves_current_ratio_inside_the_sector_range():
    _, items = _items(ops="sector", n=10)
    ranges = {"enterprise_software": (1, 3), "industrial_automation": (1.2, 2.5)}
    for item in items:
        facts = _typed(item["scenario"]["facts"])
        assert facts["current_ratio"] != _typed(BASE_FACTS)["current_ratio"]
        sector = item["manifest"]["context"]["sector"]
        if sector in ranges:
            lo, hi = ranges[sector]
            assert lo <= facts["current_ratio"] <= hi
        assert {c["input"] for c in item["manifest"]["changes"]} == {"current_ratio"}


def test_sector_alone_runs_out_instead_of_relabelling():
    # 12 sectors, current_ratio on a 0.1 grid inside each range: far fewer than 300 distinct values
    with pytest.raises(PerturbError) as err:
        _items(ops="sector", n=300)
    assert err.value.rule == "shortfall"


def test_buffett_temporal_never_writes_a_date_only_item():
    # two of the five regimes (2002 and 2017, both NBER expansions) set the base's own facts: they would only move
    # the date (changes: [])
    job = Job((BUFFETT,), str(BUFFETT_BASE), 0, parse_recipes("temporal"))
    result = generate(job, 3)
    assert all(json.loads(line)["manifest"]["changes"] for line in result.lines)
    with pytest.raises(PerturbError, match="only 3 distinct items"):
        generate(job, 4)


def test_the_summary_shows_a_zero_bucket():
    d = Diversity(base=(0.0,), numeric=(True,))
    for changed in (0, 2, 2):
        d.add(Candidate(0, 0, 1, "L", None, None, changed, (0.5,)))
    assert d.to_dict()["facts_changed"] == {"0": 1, "2": 2}
    assert "(facts: items): 0: 1, 2: 2" in d.summary()
