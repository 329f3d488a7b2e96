"""Items a run asked and got no answer to count against coverage (s44user).

An evaluator's fake server failed on 7 of one model's 10 items (``ipb respond`` wrote ``status: error`` records, read
by ``ipb score`` as unscored ``sample_error``). The run errors stay out of the means (no answer is no wrong answer,
docs/model-runs.md), but coverage, "the share scored", left them out of its denominator as well: the model showed
coverage 100.0% and, tied on the composite of its 3 answers, ranked first above a model that answered all 10; the line
under the board said "0 refusal(s), 0 parse failure(s)". Coverage is now scored over asked (3 / 10 = 0.3), the tie goes
to the model that answered, and the line names the unanswered items.
"""

from __future__ import annotations

import json

from rich.console import Console

from ipb.cli.commands.score import print_leaderboard
from ipb.respond.synthetic import bundled_items, synthetic_responses
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.run import ScoreOptions, run_score
from ipb.scoring.summary import leaderboard


def _score(tmp_path, failures="count"):
    items = bundled_items(["graham_net_net_screen"])[:4]
    records = []
    for k, item in enumerate(items):
        [gold] = synthetic_responses([item], corruptions=["none"])
        records.append(dict(gold, model="complete"))
        if k == 0:  # flaky: right on its one answer, a server error on the other three items
            records.append(dict(gold, model="flaky"))
        else:
            records.append(dict(gold, model="flaky", status="error", response=None,
                                error="server: HTTP 500: Error code: 500 (after 3 attempts)"))
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (tmp_path / "i.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))
    return run_score(tmp_path / "i.jsonl", tmp_path / "r.jsonl", tmp_path / failures,
                     ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=200, failures=failures))


def test_run_errors_lower_coverage_and_lose_the_tie(tmp_path):
    summary = _score(tmp_path).summary
    flaky = summary["groups"]["model"]["flaky"]
    assert (flaky["n"], flaky["n_scored"], flaky["n_run_errors"]) == (4, 1, 3)
    assert flaky["coverage"] == 0.25  # 1 scored of 4 asked; was 1.0 (1 / (1 + 0 failures))
    assert summary["groups"]["model"]["complete"]["coverage"] == 1.0
    assert (summary["counts"]["run_errors"], summary["counts"]["coverage"]) == (3, 0.625)  # 5 scored of 8 asked
    # not in the means: flaky's composite is its one right answer's, equal to complete's ...
    rows = leaderboard(summary)
    assert rows[0]["layer_composite"]["mean"] == rows[1]["layer_composite"]["mean"]
    assert flaky["metrics"]["layer_composite"]["n"] == 1
    # ... and the tie goes by coverage to the model that answered every item (was: flaky first)
    assert [(r["model"], r["n_run_errors"]) for r in rows] == [("complete", 0), ("flaky", 3)]
    assert summary["by_model_layer"]["flaky"]["L7"]["coverage"] == 0.25
    # its three run errors were asked: they are not items it has no record for as well (stop 48: they were, so the
    # rank read mean * 1/4 * 1/4 and, once unanswered items counted in coverage, coverage 1/16)
    assert "n_items_unanswered" not in flaky and "coverage_of_asked" not in flaky


def test_the_line_under_the_board_names_the_unanswered_items(tmp_path):
    for policy in ("count", "exclude"):
        summary = _score(tmp_path, policy).summary
        assert summary["groups"]["model"]["flaky"]["coverage"] == 0.25
        console = Console(record=True, width=400)
        print_leaderboard(summary, console)
        text = " ".join(console.export_text().split())
        assert ("flaky 0 refusal(s), 0 parse failure(s), 3 unanswered (run errors: out of the means, against "
                "coverage; run ipb respond again to ask them)") in text
        assert "complete 0 refusal(s), 0 parse failure(s);" in text
