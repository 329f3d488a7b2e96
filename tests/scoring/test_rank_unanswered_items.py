"""An item of the items file a model has no record for ranks as 0 (s47user's finding, scoring/summary.py rank_value).

s47user scored answers to 8 of a 40-item file: every model showed coverage 100%, and a model that skipped the items it
would get wrong ranked as if it had answered all. The missing items stay out of the means (nothing says they were
asked), but the board, in the terminal and in the report, multiplies the ranked composite by the share of the file's
items the model answered, and (stop 48) so does the model's coverage.
"""

from __future__ import annotations

import json

from ipb.report.data import load_results
from ipb.respond.synthetic import bundled_items, synthetic_responses
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.run import ScoreOptions, run_score
from ipb.scoring.summary import leaderboard, rank_value


def _score(tmp_path):
    items = bundled_items(["graham_net_net_screen"])[:4]
    records = []
    for k, item in enumerate(items):
        [gold] = synthetic_responses([item], corruptions=["none"])
        if k == 0:  # skipper: the gold answer to the first item, no record at all for the other three
            records.append(dict(gold, model="skipper"))
        # worker: the gold answer to three items and a refusal on the fourth
        records.append(dict(gold, model="worker") if k < 3 else
                       dict(gold, model="worker", response="I cannot give investment advice."))
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (tmp_path / "i.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))
    return run_score(tmp_path / "i.jsonl", tmp_path / "r.jsonl", tmp_path / "out",
                     ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=200))


def test_rank_value_by_hand():
    # 1 right item of 4 (3 with no record): 1.0 * 1 / 4; a run error among 5 asked: 1.0 * 1 / 5; both: 0.8 * 2/3 * 3/6
    assert rank_value(1.0, 1, 0, 3, 4) == 0.25
    assert rank_value(1.0, 1, 4) == 0.2
    assert abs(rank_value(0.8, 2, 1, 3, 6) - 0.8 * 2 / 3 * 3 / 6) < 1e-12
    assert rank_value(0.9, 4, 0, 0, 4) == 0.9 and rank_value(None, 0, 0, 3, 4) is None


def test_a_model_that_skipped_items_ranks_below_one_that_answered_them(tmp_path):
    summary = _score(tmp_path).summary
    skipper, worker = summary["groups"]["model"]["skipper"], summary["groups"]["model"]["worker"]
    assert (skipper["n_items_unanswered"], skipper["n_items"]) == (3, 4)
    assert "n_items_unanswered" not in worker and "n_items_unanswered" not in summary["groups"]["overall"]["all"]
    # the means are over the answers: the skipper's is its one gold answer; the worker's counts its refusal at 0, so
    # it is 3/4 of the skipper's. Coverage counts the skipped items (stop 48): the skipper scored its 1 asked response
    # (coverage_of_asked 1.0) and answered 1 of the 4 items, so 1.0 * 1/4; the worker, 3 scored of 4 asked, 0.75
    s_mean = skipper["metrics"]["layer_composite"]["mean"]
    w_mean = worker["metrics"]["layer_composite"]["mean"]
    assert skipper["coverage_of_asked"] == 1.0 and skipper["coverage"] == 0.25
    assert worker["coverage"] == 0.75 and "coverage_of_asked" not in worker
    assert abs(w_mean - 0.75 * s_mean) < 1e-3 and s_mean > w_mean
    # ... but the board ranks the skipper at s_mean / 4 < w_mean (before: skipper first)
    assert [r["model"] for r in leaderboard(summary)] == ["worker", "skipper"]
    report = load_results(tmp_path / "out")
    assert [r.model for r in report.leaderboard] == ["worker", "skipper"]


def test_the_report_caption_says_skipped_items_rank_as_zero(tmp_path):
    from ipb.report.html import write_report

    _score(tmp_path)
    write_report(tmp_path / "out", tmp_path / "report.html")
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    # the skipper's shown mean is the highest and it ranks last: the caption says why beside the figures
    assert "every item of the items file it has no response to counted as 0" in page
    # and its coverage cell says what the 25% is made of
    assert "3 of the items file&#x27;s 4 items have no response and count as not scored" in page or \
        "3 of the items file's 4 items have no response and count as not scored" in page


def test_the_terminal_board_shows_the_figure_each_row_is_ranked_on(tmp_path):
    import io

    from rich.console import Console

    from ipb.cli.commands.score import print_leaderboard

    summary = _score(tmp_path).summary
    out = io.StringIO()
    print_leaderboard(summary, Console(file=out, width=240, highlight=False, soft_wrap=False))
    text = out.getvalue()
    assert "ranked on" in text
    lines = {m: next(line for line in text.splitlines() if f" {m} " in line) for m in ("skipper", "worker")}
    s_mean = summary["groups"]["model"]["skipper"]["metrics"]["layer_composite"]["mean"]
    w_mean = summary["groups"]["model"]["worker"]["metrics"]["layer_composite"]["mean"]
    # by hand: the skipper's row is ranked on its mean times 1 answered item of 4; the worker's on its own mean (its
    # refusal is already in it at 0). s48user: the row showed only the mean, 0.850, and ranked on 0.425
    assert f"{s_mean / 4:.3f}" in lines["skipper"] and f"{w_mean:.3f}" in lines["worker"]
    assert text.index(" worker ") < text.index(" skipper ")
