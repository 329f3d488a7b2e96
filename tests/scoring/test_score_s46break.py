"""An empty completion recorded by ``ipb respond`` is scored as the empty answer it is (hostile tester, stop 46).

``ipb respond`` writes a completion with no text (finish_reason stop with "", or content_filter) as ``status: error``,
``error: "empty: empty completion (finish_reason=...)"``; ``ipb score`` read that as a run error, kept out of every mean,
while the same empty answer written by any other client (``"response": ""``) is a refusal in the means at 0. On two
items, one answered right and one answered with nothing, the first way showed VerdictAcc 1.0, the second 0.5: a model
whose provider filtered its hard items scored higher. Both are now the refusal ``empty_response``: (1 + 0) / 2 = 0.5.
A server error stays a run error (out of the means).
"""

from __future__ import annotations

import json

import pytest

from ipb.respond.synthetic import bundled_items, synthetic_responses
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.run import ScoreOptions, run_score


def _score(tmp_path, second: dict) -> dict:
    items = bundled_items(["graham_net_net_screen"])[:2]
    [right] = synthetic_responses([items[0]], corruptions=["none"])
    [other] = synthetic_responses([items[1]], corruptions=["none"])
    records = [right, {**other, **second}]
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (tmp_path / "i.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))
    result = run_score(tmp_path / "i.jsonl", tmp_path / "r.jsonl", tmp_path / "out",
                       ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=200))
    return result.summary


@pytest.mark.parametrize("second", [
    {"response": ""},
    {"status": "error", "response": None, "error": "empty: empty completion (finish_reason=stop)"},
    {"status": "error", "response": None, "error": "empty: empty completion (finish_reason=content_filter)"},
], ids=["empty-response", "respond-empty-stop", "respond-empty-content-filter"])
def test_an_empty_answer_counts_against_however_it_was_recorded(tmp_path, second):
    summary = _score(tmp_path, second)
    assert summary["counts"]["by_reason"] == {"empty_response": 1}
    assert summary["counts"]["refusals"] == 1 and summary["counts"]["run_errors"] == 0
    verdict_acc = summary["groups"]["overall"]["all"]["metrics"]["verdict_acc"]
    assert verdict_acc["mean"] == 0.5 and verdict_acc["n"] == 2 and verdict_acc["n_failures"] == 1


def test_a_server_error_stays_a_run_error_out_of_the_means(tmp_path):
    summary = _score(tmp_path, {"status": "error", "response": None, "error": "server: HTTP 500: Error code: 500 (after 3 attempts)"})
    assert summary["counts"]["run_errors"] == 1 and summary["counts"]["refusals"] == 0
    verdict_acc = summary["groups"]["overall"]["all"]["metrics"]["verdict_acc"]
    assert verdict_acc["mean"] == 1.0 and verdict_acc["n"] == 1
