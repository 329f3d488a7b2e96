"""Streaming and diversity: items written as made, duplicates caught before building, --min-changed, the summary."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import ipb.perturb.generation as gen
from ipb.perturb import Job, generate, parse_recipes
from ipb.perturb.generation import Candidate, Diversity, GenerationRun, write_items
from perturb_support import BUFFETT, BUFFETT_BASE


def job(ops="metric,sector,temporal,flip", seed=4, min_changed=1):
    return Job((BUFFETT,), str(BUFFETT_BASE), seed, parse_recipes(ops), min_changed=min_changed)


def test_written_file_equals_generated_lines_whatever_the_workers(tmp_path, monkeypatch):
    one = tmp_path / "one.jsonl"
    write_items(one, job(), 300)
    assert one.read_text().splitlines() == generate(job(), 300).lines
    monkeypatch.setattr(gen, "POOL_MIN", 0)  # worker processes even for a small run
    two = tmp_path / "two.jsonl"
    result = write_items(two, job(), 300, workers=2)
    assert two.read_bytes() == one.read_bytes()
    assert result.lines == [] and result.written == 300


def test_lines_come_out_before_the_run_ends():
    run = GenerationRun(job("metric"), 50)
    stream = run.lines()
    first = next(stream)
    assert json.loads(first)["version"] and run.result is None, "the first item is out before the report exists"
    assert len(list(stream)) == 49 and run.result is not None and run.result.written == 50


def test_a_failed_streamed_run_leaves_no_file(tmp_path):
    out = tmp_path / "items.jsonl"
    with pytest.raises(Exception) as err:
        write_items(out, job("temporal"), 50)
    assert "only 3 distinct items" in str(err.value)  # 5 regimes; two (2002, 2017) set the base's own facts
    assert list(tmp_path.iterdir()) == []


def test_duplicates_are_dropped_before_their_item_is_built(monkeypatch):
    built = Counter()
    real = gen.build_item

    def counting(*args, **kwargs):
        built["items"] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(gen, "build_item", counting)
    result = generate(job("temporal,metric"), 60)  # temporal repeats its 5 regimes many times
    temporal = result.recipes[0]
    assert temporal.duplicates > 0
    assert built["items"] == 60, "one item built per item written: no duplicate and no spare was built"


def test_min_changed_is_respected_and_counted():
    result = generate(job("metric,flip,isolate", min_changed=3), 120)
    for line in result.lines:
        item = json.loads(line)
        context = item["manifest"]["context"]["as_of"] != item["manifest"]["base"]["as_of"]
        assert len(item["manifest"]["changes"]) + context >= 3
    assert sum(r.too_close for r in result.recipes) > 0
    assert set(result.diversity.changed) <= {3, 4, 5, 6, 7, 8, 9, 10}


def test_diversity_distances_by_hand():
    d = Diversity(base=(0.0, "a", None), numeric=(True, False, False))
    for point, changed in (((0.5, "a", None), 1), ((0.75, "b", None), 2), ((0.5, "a", "x"), 1)):
        d.add(Candidate(0, 0, 1, "L", None, None, changed, point))
    near, base = d.distances()
    # pairs: p0-p1 = 0.25 + 1 = 1.25; p0-p2 = 1 (third field); p1-p2 = 0.25 + 1 + 1 = 2.25
    assert near == [1.0, 1.25, 1.0]
    assert base == [0.5, 1.75, 1.5]
    doc = d.to_dict()
    assert doc["facts_changed"] == {"1": 2, "2": 1} and doc["nearest_neighbour"]["min"] == 1.0


def test_the_report_carries_the_summary():
    doc = generate(job(), 80).to_dict()
    assert doc["written"] == 80 and doc["diversity"]["sample"] == 80
    assert sum(doc["diversity"]["facts_changed"].values()) == 80
    assert {"constraint_rejections", "duplicates", "attempts", "notes"} <= set(doc)
