"""An answer whose own trace reads a kill gate REJECT and whose final verdict is INVEST is marked and counted
(s63 new user E2).

Before, such an answer (the gold gate table, then "Final verdict: INVEST") scored a composite of 0.76 with every FM
flag false and nothing anywhere said that it reasoned to the kill and then bought. The paper has no failure mode for
it: FM-3 (§9) fires on KCR_det = n̂_KC / n_KC < 0.50, the kill gates the answer detects, and this answer detects
its kill gate (KCR_det = 1); the §7.13 composite gives OGRS_k and KCCS in full and VerdictAcc 0. So the number is
kept (the paper's) and the record is flagged: ``metrics.final_contradicts_trace = 1``, the summary's
``n_final_contradicts_trace``, ``ipb score``'s line under the board, the report's failures column and drill-down.

Hand-worked, on the first two Graham net-net items (card outcomes pass INVEST / fail DECLINE; kill gates 1 and 2):
item 1's gold is gate 1 PROCEED, gate 2 PROCEED, INVEST; item 2's is gate 1 INCONCLUSIVE, gate 2 REJECT (a kill
gate), DECLINE. ``right`` answers both with the gold: nothing flagged. ``contrary`` answers item 1 with the gold
(INVEST after two PROCEEDs: no contradiction) and item 2 with the gold gates and "Final verdict: INVEST": flagged
(gate 2), VerdictAcc 0, its OGRS and KCCS the same as ``right``'s on that item. Counts: right 0 of 2, contrary 1
of 2.
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


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, list[dict]]:
    tmp_path = tmp_path_factory.mktemp("contradicts")
    items = bundled_items(["graham_net_net_screen"])[:2]
    gold = synthetic_responses(items, corruptions=["none"])
    assert gold[1]["response"].count("Final verdict: DECLINE") == 1
    contrary = dict(gold[1], model="contrary", response=gold[1]["response"].replace("Final verdict: DECLINE",
                                                                                      "Final verdict: INVEST"))
    records = [dict(g, model="right") for g in gold] + [dict(gold[0], model="contrary"), contrary]
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (tmp_path / "i.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))
    result = run_score(tmp_path / "i.jsonl", tmp_path / "r.jsonl", tmp_path / "out",
                       ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50))
    out = [json.loads(line) for line in (tmp_path / "out" / "responses.jsonl").read_text().splitlines()]
    return tmp_path / "out", result.summary, out


def test_only_the_contrary_final_is_flagged_and_its_number_is_the_papers(scored) -> None:
    _, _, records = scored
    flagged = [(r["model"], r["item_id"]) for r in records if r["metrics"].get("final_contradicts_trace")]
    items = [r["item_id"] for r in records if r["model"] == "right"]
    assert flagged == [("contrary", items[1])]
    right = next(r for r in records if r["model"] == "right" and r["item_id"] == items[1])
    wrong = next(r for r in records if r["model"] == "contrary" and r["item_id"] == items[1])
    assert wrong["metrics"]["verdict_acc"] == 0.0 and right["metrics"]["verdict_acc"] == 1.0
    for name in ("ogrs", "kccs"):
        assert wrong["metrics"].get(name) == right["metrics"].get(name)
    assert wrong["targets"][0]["metrics"]["final_contradicts_trace"] == 1.0


def test_the_summary_counts_them_per_model(scored) -> None:
    _, summary, _ = scored
    groups = summary["groups"]["model"]
    assert (groups["right"]["n_final_contradicts_trace"], groups["contrary"]["n_final_contradicts_trace"]) == (0, 1)


def test_the_report_counts_and_marks_them(scored) -> None:
    page = render_report(load_results(scored[0]))
    table = re.search(r'<table class="leader" id="leaderboard-table">(.*?)</table>', page, re.S)
    assert table is not None
    assert re.search(r"final contradicts own trace 1 of 2 \(50\.0%\)", table.group(1))
    assert table.group(1).count("final contradicts own trace") == 1  # not on the right model's row
    # s65: the note names the final the answer's own gates give (its wording changed when the flag was generalised
    # from kill gates to the card's whole gate logic, s64 new user F4)
    assert len(re.findall(r'"final_contradicts_trace":"the card\'s gate logic on this answer\'s own gate verdicts gives '
                          r'another final verdict than the one it states: on graham_net_net_screen its gate verdicts '
                          r'give DECLINE, its stated final is INVEST', page)) == 1


def test_ipb_score_says_how_many_under_the_board(scored, tmp_path) -> None:
    from typer.testing import CliRunner

    from ipb.cli import app

    folder = scored[0].parent
    result = CliRunner().invoke(app, ["score", "--items", str(folder / "i.jsonl"), "--responses",
                                      str(folder / "r.jsonl"), "--out", str(tmp_path / "o"), "--resamples", "20",
                                      "--no-embeddings"])
    assert result.exit_code == 0, result.output
    # s65: the line says the general rule (the card's gate logic on the answer's own gate verdicts), s64 new user F4
    assert ("final verdict contradicts the answer's own trace (the card's gate logic on the answer's own gate verdicts "
            "gives another final: a kill gate's REJECT then the pass verdict, a met threshold then the fail verdict), "
            "of scored answers: contrary 1 of 2 (") in " ".join(result.output.split())
