"""A record the run marked ``status: error`` is a run error even when it carries text (s45break 15).

A client that writes the partial text of a failed call (a time-out after the answer was half streamed) left a record
with ``status: "error"``, ``error: "timeout"`` and a response; ``ipb score`` scored that text as an ordinary answer.
Here the text is the gold answer itself, so scoring it would rank the failed call as a perfect one: a failure
rewarded. It is now an unscored ``sample_error`` like a record with no text: out of the means, against coverage.
"""

from __future__ import annotations

import json

from ipb.respond.synthetic import bundled_items, synthetic_responses
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.run import ScoreOptions, run_score


def test_an_errored_record_with_text_is_a_run_error_not_an_answer(tmp_path):
    items = bundled_items(["graham_net_net_screen"])[:2]
    records = []
    for k, item in enumerate(items):
        [gold] = synthetic_responses([item], corruptions=["none"])
        records.append(dict(gold, model="steady"))
        if k == 0:
            records.append(dict(gold, model="cut"))
        else:  # the whole gold text, but the run says the call failed
            records.append(dict(gold, model="cut", status="error", error="timeout"))
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (tmp_path / "i.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))
    result = run_score(tmp_path / "i.jsonl", tmp_path / "r.jsonl", tmp_path / "out",
                       ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=200))
    cut = result.summary["groups"]["model"]["cut"]
    assert (cut["n"], cut["n_scored"], cut["n_run_errors"]) == (2, 1, 1)  # was (2, 2, 0): the text was scored
    assert cut["coverage"] == 0.5
    assert result.summary["groups"]["model"]["steady"]["coverage"] == 1.0
    lines = [json.loads(line) for line in (tmp_path / "out" / "responses.jsonl").read_text().splitlines()]
    [errored] = [r for r in lines if r["model"] == "cut" and r["status"] != "scored"]
    assert (errored["status"], errored["reason_code"], errored["metrics"].get("layer_composite")) == (
        "unscored", "sample_error", None)
    assert "timeout" in errored["reason"] and "partial response is not scored" in errored["reason"]
