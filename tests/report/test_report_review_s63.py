"""The report shows ``ipb score --min-confidence`` routing wherever a model's figures are (s63 new user E1).

Before, summary.json counted the readings routed to review (``counts.review``, ``groups.model.*.n_review``) and
the HTML said nothing: no threshold, no count, no marker on a response.

Two models answer the same two Graham net-net items, scored with ``min_confidence=0.96``:

- ``good``: the synthetic faithful answer (a gate table) to both;
- ``half``: the faithful answer to the first item and "asdf qwer" (nothing read: a parse failure) to the second.

Worked by hand: the parser reads a gate table's verdict cell at confidence 0.95 and the "Final verdict:" line at
0.95 (docs/scoring.md "Confidence"), both below 0.96, so every reading of a scored answer is routed. The first item
(exactly two-thirds) and the second (liabilities undisclosed) each have two gates and a final verdict: 3 readings an
answer. ``good``: 6 readings in 2 of its 2 responses; ``half``: 3 in 1 of 2 (a parse failure routes nothing: none of
its readings is scored). Run: 9 readings in 3 responses. Every one is still scored: the means are those of a run
without the threshold.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ipb.report.data import load_results
from ipb.report.html import render_report
from ipb.respond.synthetic import bundled_items, synthetic_responses
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.run import ScoreOptions, run_score


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    tmp_path = tmp_path_factory.mktemp("review")
    items = bundled_items(["graham_net_net_screen"])[:2]
    gold = synthetic_responses(items, corruptions=["none"])
    records = [dict(g, model="good") for g in gold] + [dict(gold[0], model="half"),
                                                       dict(gold[1], model="half", response="asdf qwer")]
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (tmp_path / "i.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))
    result = run_score(tmp_path / "i.jsonl", tmp_path / "r.jsonl", tmp_path / "out",
                       ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50, min_confidence=0.96))
    return tmp_path / "out", result.summary


def test_the_summary_counts_as_worked_by_hand(scored) -> None:
    _, summary = scored  # else the page's figures below would test nothing
    assert summary["counts"]["review"] == {"min_confidence": 0.96, "readings": 9, "records": 3}
    good, half = summary["groups"]["model"]["good"], summary["groups"]["model"]["half"]
    assert (good["n_review"], good["n_review_records"]) == (6, 2)
    assert (half["n_review"], half["n_review_records"]) == (3, 1)


def test_the_leaderboard_says_the_threshold_and_each_models_count(scored) -> None:
    page = render_report(load_results(scored[0]))
    table = re.search(r'<table class="leader" id="leaderboard-table">(.*?)</table>', page, re.S)
    assert table is not None
    cells = {m: _text(c) for m, c in re.findall(r'<td class="failures" data-model="([^"]*)">(.*?)</td>',
                                                table.group(1), re.S)}
    assert cells["good"].endswith("for review (below --min-confidence 0.96): 6 reading(s) in 2 of 2 (100.0%) "
                                  "responses, still scored")
    assert cells["half"].endswith("for review (below --min-confidence 0.96): 3 reading(s) in 1 of 2 (50.0%) "
                                  "responses, still scored")
    assert "For review: the gate and final verdicts read with a confidence below --min-confidence 0.96" in page
    # the header's run counts
    assert "9 readings below --min-confidence 0.96 routed to review (still scored)" in _text(page)
    assert "3 responses holding one" in _text(page)


def test_each_routed_response_says_so_in_the_drill_down(scored) -> None:
    page = render_report(load_results(scored[0]))
    notes = re.findall(r'"review":"([^"]*)"', page)
    assert len(notes) == 3  # the 3 scored answers; the parse failure routes nothing
    assert all(n.startswith("3 reading(s) below --min-confidence routed to review, still scored as read: gate 1 ")
               for n in notes)


def test_a_run_without_the_threshold_shows_no_review(tmp_path) -> None:
    items = bundled_items(["graham_net_net_screen"])[:1]
    gold = synthetic_responses(items, corruptions=["none"])
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(dict(g, model="m")) + "\n" for g in gold))
    (tmp_path / "i.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))
    run_score(tmp_path / "i.jsonl", tmp_path / "r.jsonl", tmp_path / "out",
              ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50))
    page = render_report(load_results(tmp_path / "out"))
    assert "min-confidence" not in page and '"review":' not in page
