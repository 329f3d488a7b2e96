"""The report's leaderboard breaks ties as ``ipb score`` does: coverage, then BASP-strict, then name (s34break, s43user).

s34user made the terminal leaderboard rank equal means by coverage (under ``--exclude-failures`` a model that refuses
half the items and is right on the rest ties a model right on all of them). ``ipb report`` sorted its own rows by the
composite, then by name, so the same summary put "aaa-refuser" above "zz-right" on the page. Three models answer the
same four L7 items with the same figures where they answer; the refuser declines two, the unreadable one's two other
answers are parse failures. Every expected order is worked by hand.

s43user: BASP-strict came before coverage, and it is a mean over the answered items only, so under
``--exclude-failures`` a refuser whose answered items carry a higher BASP-strict won the tie (0.305 against 0.301 on
a real run). Coverage now comes first, on the page and on the terminal.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ipb.report.data import load_results
from ipb.scoring.options import ScoreOptions
from ipb.scoring.summary import leaderboard, summarize

OWED = {"layer_composite": 0.0, "gra": 0.0, "ogrs_k": 0.0, "verdict_acc": 0.0, "ned": 1.0, "kendall_tau": -1.0}
RIGHT = {"layer_composite": 0.85, "basp_strict": 0.708, "gra": 1.0, "ogrs_k": 1.0, "verdict_acc": 1.0}
ANSWERS = {"zz-right": ["ok"] * 4, "aaa-refuser": ["ok", "refusal", "ok", "refusal"],
           "mm-unreadable": ["ok", "parse_failure", "parse_failure", "ok"]}


def _record(n: int, model: str, answer: str, right: dict[str, float] | None = None) -> dict[str, Any]:
    base = {"kind": "ipb.score.response", "version": 1, "record": n, "source": f"responses.jsonl:{n}",
            "item_id": f"G7-{n % 4}", "model": model, "condition": "A", "condition_key": "A", "layer": "L7",
            "flags": {}, "error": None}
    target = {"card": "graham_seven_tests_defensive", "investor": "Benjamin Graham", "topology": "linear_sequential",
              "flags": {}}
    if answer != "ok":
        outcome = "refusal" if answer == "refusal" else "parse_failure"
        code = outcome  # the reason codes of scoring/outcome.py (an unknown code is "unusable": not a failure)
        return dict(base, status="unscored", outcome=outcome, reason_code=code, reason="unscored", metrics={},
                    owed=dict(OWED), targets=[dict(target, status="unscored", outcome=outcome, reason_code=code,
                                                   metrics={}, owed=dict(OWED))])
    metrics = dict(right or RIGHT)
    return dict(base, status="scored", outcome="scored", reason_code=None, reason=None, metrics=metrics,
                targets=[dict(target, status="scored", outcome="scored", metrics=dict(metrics))])


def _folder(tmp: Path, failures: str) -> tuple[Path, dict[str, Any]]:
    records = [_record(k + 1, m, a) for k, (m, a) in enumerate((m, a) for m, ans in ANSWERS.items() for a in ans)]
    summary = summarize(records, options=ScoreOptions(seed=0, n_resamples=200, embeddings=False, failures=failures))
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    (tmp / "responses.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return tmp, summary


@pytest.mark.parametrize("failures, order", [
    # failures counted: 0.85 against 0.85 x 2/4 for the other two, which tie again, then coverage ties, then names
    ("count", ["zz-right", "aaa-refuser", "mm-unreadable"]),
    # failures left out: all three at 0.85 and 0.708; coverage 1.0 > 0.5 = 0.5; then names
    ("exclude", ["zz-right", "aaa-refuser", "mm-unreadable"]),
])
def test_report_and_terminal_rank_the_same_and_a_right_model_first(tmp_path: Path, failures: str, order: list[str]) -> None:
    folder, summary = _folder(tmp_path / failures, failures)
    assert [r["model"] for r in leaderboard(summary)] == order
    assert [r.model for r in load_results(folder).leaderboard] == order


@pytest.mark.parametrize("failures", ["count", "exclude"])
def test_a_refuser_whose_answers_carry_a_higher_strict_mean_ranks_below_a_right_model(tmp_path: Path,
                                                                                      failures: str) -> None:
    # the refuser answers items 1 and 3 with BASP-strict 0.80 (composite 0.85 as the right model) and declines 2 and 4.
    # exclude: composites 0.85 and 0.85; coverage 1.0 > 0.5 decides before BASP-strict 0.80 > 0.708 could.
    # count: 0.85 against 0.85 x 2/4 = 0.425.
    sharp = dict(RIGHT, basp_strict=0.80)
    records = [_record(n, "zz-right", "ok") for n in range(1, 5)]
    records += [_record(n, "aaa-sharp-refuser", a, sharp) for n, a in zip(range(5, 9), ["ok", "refusal"] * 2)]
    summary = summarize(records, options=ScoreOptions(seed=0, n_resamples=200, embeddings=False, failures=failures))
    folder = tmp_path / failures
    folder.mkdir()
    (folder / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    (folder / "responses.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert [r["model"] for r in leaderboard(summary)] == ["zz-right", "aaa-sharp-refuser"]
    assert [r.model for r in load_results(folder).leaderboard] == ["zz-right", "aaa-sharp-refuser"]


def test_an_equal_composite_is_broken_by_basp_strict_on_the_page_as_on_the_terminal(tmp_path: Path) -> None:
    # s50user: "good", "table" and "chatty" answered six Dhandho items with the same verdicts (composite 0.833,
    # coverage 15% each); the terminal ranked good, table, chatty by BASP-strict (0.694, 0.694, 0.556), the page
    # chatty, good, table: it broke the tie by the BASP-strict *conjunction rate* (0 for all three: no answer named
    # a source), then by name. Here two models, both right on four items with composite 0.85, differ only in
    # BASP-strict: 0.708 for "zz-cites" against 0.60 for "aaa-chatty", neither passing every gate; so "zz-cites" is
    # first on both.
    chatty = dict(RIGHT, basp_strict=0.60)
    records = [_record(n, "zz-cites", "ok") for n in range(1, 5)]
    records += [_record(n, "aaa-chatty", "ok", chatty) for n in range(5, 9)]
    summary = summarize(records, options=ScoreOptions(seed=0, n_resamples=200, embeddings=False, failures="count"))
    rows = {r["model"]: r for r in leaderboard(summary)}
    assert rows["zz-cites"]["basp_strict"]["mean"] == pytest.approx(0.708)
    assert rows["aaa-chatty"]["basp_strict"]["mean"] == pytest.approx(0.60)
    folder = tmp_path / "ties"
    folder.mkdir()
    (folder / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    (folder / "responses.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert [r["model"] for r in leaderboard(summary)] == ["zz-cites", "aaa-chatty"]
    assert [r.model for r in load_results(folder).leaderboard] == ["zz-cites", "aaa-chatty"]
