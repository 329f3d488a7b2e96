"""An answer with no gate read but a stated final verdict (issue 13): scored, its empty trace at its worst.

The stated verdict is readable when no gate is ("Verdict: DECLINE"); the answer is scored with an empty gate trace,
every metric but VerdictAcc at its failure value, so it never ranks above a readable answer with the same verdict and
never below one that read nothing (docs/scoring.md "An answer with no gate read").
"""

from __future__ import annotations

import pytest

from ipb.respond.synthetic import bundled_items, synthetic_responses
from ipb.scoring.composite import unread_trace_values
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.parse import parse_response
from ipb.scoring.run import ScoreOptions, score_responses
from ipb.scoring.summary import leaderboard, summarize

CARD = "buffett_acquisition_checklist"


@pytest.fixture(scope="module")
def item():
    return bundled_items([CARD])[0]


def _options(**kw):
    kw.setdefault("encoder", CachedEncoder(HashingEncoder()))
    kw.setdefault("n_resamples", 200)
    return ScoreOptions(**kw)


def _verdict_only(item):
    return f"I looked at this one carefully.\n\nVerdict: {item['grp']['investment_verdict']}\n"


def test_the_parser_keeps_a_stated_final_verdict_when_no_gate_is_recognised(item):
    parsed = parse_response(_verdict_only(item), CARD, embedder=False)
    assert parsed.status == "parse_failure" and "no gate" in parsed.reason
    assert parsed.gates == [] and parsed.final_verdict == item["grp"]["investment_verdict"]


def test_unread_trace_values_keep_only_the_final_verdict_metrics():
    values = {"gcf": 0.2, "ned": 0.4, "kendall_tau": 0.5, "nlcs": None, "verdict_acc": 1.0, "gra": 0.9}
    assert unread_trace_values(values) == {"gcf": 0.0, "ned": 1.0, "kendall_tau": -1.0, "nlcs": None,
                                           "verdict_acc": 1.0, "gra": 0.0}


def test_a_verdict_only_answer_is_scored_between_an_unreadable_and_a_readable_one(item):
    [gold] = synthetic_responses([item], corruptions=["none"])
    wrong = "Verdict: " + ("INVEST" if item["grp"]["investment_verdict"] != "INVEST" else "DECLINE") + "\n"
    responses = [dict(gold, model="readable"),
                 dict(gold, model="verdict-only", response=_verdict_only(item)),
                 dict(gold, model="wrong-verdict-only", response=wrong),
                 dict(gold, model="unreadable", response="Warren Buffett would find this one hard to judge, honestly.")]
    records = {r["model"]: r for r in score_responses([item], responses, _options())}
    only = records["verdict-only"]
    assert only["status"] == "scored"
    [target] = only["targets"]
    assert "addresses none" in target["note"] and "final verdict" in target["note"]
    m = only["metrics"]
    assert m["verdict_acc"] == 1.0 and m["gcf"] == 0.0 and m["ned"] == 1.0 and m["ogrs_k"] == 0.0
    assert m["kccs"] == 0.0 and m["gra"] == 0.0
    assert m["layer_composite"] == pytest.approx(0.20)  # L7: only the VerdictAcc weight
    assert only["flags"] and not any(only["flags"].values())
    assert records["wrong-verdict-only"]["metrics"]["layer_composite"] == 0.0
    unreadable = records["unreadable"]
    assert unreadable["status"] == "unscored" and unreadable["outcome"] == "parse_failure"
    readable = records["readable"]["metrics"]
    for name, value in m.items():
        if value is None or readable.get(name) is None:
            continue
        if name == "ned":  # lower is better
            assert value >= readable[name], name
        else:
            assert value <= readable[name], name
        owed = unreadable["owed"].get(name)
        if owed is not None:
            assert (value <= owed) if name == "ned" else (value >= owed), name
    rows = [r["model"] for r in leaderboard(summarize(list(records.values())))]
    assert rows.index("readable") < rows.index("verdict-only") < rows.index("unreadable")


def test_the_summary_counts_answers_scored_with_no_gate_read_and_its_note_says_how_they_count(item):
    """A figure shown must say how failures count (stop-30 break): a model answering "Verdict: X" to every item showed
    coverage 1.0 and no count that set it apart from a model whose every trace was read."""
    [gold] = synthetic_responses([item], corruptions=["none"])
    responses = [dict(gold, model="readable"), dict(gold, model="verdict-only", response=_verdict_only(item))]
    summary = summarize(score_responses([item], responses, _options()))
    assert summary["counts"]["scored"] == 2 and summary["counts"]["scored_trace_unread"] == 1
    groups = summary["groups"]["model"]
    assert groups["verdict-only"]["n_trace_unread"] == 1 and groups["readable"]["n_trace_unread"] == 0
    assert "no gate read" in summary["failures"]["note"] and "VerdictAcc" in summary["failures"]["note"]


def test_ipb_score_says_how_many_answers_were_scored_with_no_gate_read(tmp_path, monkeypatch):
    import json
    from pathlib import Path

    from typer.testing import CliRunner

    from ipb.cli import app

    items = Path(__file__).resolve().parents[1] / "robustness" / "data" / "item_l7.jsonl"
    item = json.loads(items.read_text(encoding="utf-8").splitlines()[0])
    responses = tmp_path / "responses.jsonl"
    responses.write_text("".join(json.dumps({"item_id": item["id"], "model": m, "condition": "A", "response": text}) + "\n"
                                 for m, text in (("a", "Final verdict: INVEST"),
                                                 ("b", "1. Net-net test: PROCEED\nFinal verdict: INVEST"))),
                         encoding="utf-8")
    monkeypatch.setenv("COLUMNS", "200")
    result = CliRunner().invoke(app, ["score", "--items", str(items), "--responses", str(responses), "--out",
                                      str(tmp_path / "out"), "--no-embeddings", "--no-progress", "--no-leaderboard"])
    assert result.exit_code == 0, result.output
    assert "scored 2 of 2 record(s) (1 with no gate read, scored on their stated final verdict only)" in result.stderr
