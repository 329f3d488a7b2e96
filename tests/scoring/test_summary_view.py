"""summary_view keeps exactly what summarize reads (the Ray backend summarises views, not records; issue 20).

The oracle is :func:`summarize` on the whole records of a real run: the
summary of the views must be the same document, under both failure
policies, for a run holding every outcome (scored, parse failures,
refusals, unusable records, duplicates), every corruption, two models and
conditions A and C (so the deltas are there), and views that went through
JSON as the workers' bytes go through a data format.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from ipb.scoring.adapters import records_from
from ipb.scoring.run import ScoreOptions, item_set, score_records, scored_lines, dumps_record
from ipb.scoring.summary import summarize, summary_view


@pytest.fixture(scope="module")
def records():
    from ipb.respond.synthetic import bundled_items, synthetic_responses

    everything = bundled_items()
    items = everything[:24]
    a = items[0]
    b = next(i for i in everything if i["card"] != a["card"])
    l8 = {"id": "L8-pair", "layer": "L8", "cards": [a["card"], b["card"]],
          "golds": [{"card": a["card"], "investor": "A", "grp": a["grp"]},
                    {"card": b["card"], "investor": "B", "grp": b["grp"]}]}
    items = items + [l8]
    [only_a] = synthetic_responses([a], corruptions=["none"])
    rows = synthetic_responses([l8], seed=3, model="m1", condition="A")[:6]
    rows.append(dict(only_a, item_id="L8-pair", model="m2", condition="A",  # one target answered, one not
                     response=f"## A\n{only_a['response']}\n## B\nI have no view on this one.\n"))
    for model in ("m1", "m2"):
        for condition in ("A", "C"):
            rows += synthetic_responses(items, seed=2, model=model, condition=condition)[:40]
    rows.append(dict(rows[3]))  # a duplicate
    rows.append({"item_id": "nope", "model": "m1", "condition": "A", "response": "x"})
    rows.append({"item_id": rows[0]["item_id"], "model": "m1", "condition": "A", "response": "I cannot help with that."})
    rows.append({"item_id": rows[1]["item_id"], "model": "m2", "condition": "C", "response": ""})
    rows.append({"item_id": rows[2]["item_id"], "model": "m2", "condition": "A",
                 "response": "Buffett is a famous investor from Omaha, and this company is large."})
    return score_records(item_set(items), records_from(rows), ScoreOptions(seed=1, n_resamples=40, embeddings=False))


def test_the_run_holds_every_outcome(records):
    outcomes = Counter(r["outcome"] for r in records)
    assert {"scored", "parse_failure", "refusal", "unusable"} <= set(outcomes), outcomes
    assert any(r.get("owed") for r in records)
    assert any(len(r.get("targets") or []) > 1 for r in records)  # an L8 item: several gold cards
    assert len({json.dumps(r.get("corruptions"), sort_keys=True) for r in records}) > 3


@pytest.mark.parametrize("failures", ["count", "exclude"])
def test_the_summary_of_the_views_is_the_summary_of_the_records(records, failures):
    options = ScoreOptions(seed=5, n_resamples=60, embeddings=False, failures=failures)
    views = [json.loads(json.dumps(summary_view(r))) for r in records]
    want = summarize(records, options=options, inputs={"x": 1})
    got = summarize(views, options=options, inputs={"x": 1})
    assert json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True)
    assert want["deltas"] is not None and want["groups"]["corruption"]


def test_a_view_is_much_smaller_than_its_record(records):
    full = sum(len(dumps_record(r)) for r in records)
    small = sum(len(json.dumps(summary_view(r))) for r in records)
    assert small * 4 < full, (small, full)


def test_scored_lines_are_the_written_lines(records):
    scored = scored_lines(records)
    assert scored.lines == [dumps_record(r) for r in records]
    assert scored.views == [summary_view(r) for r in records]
