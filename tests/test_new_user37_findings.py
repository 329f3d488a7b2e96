"""Stop 37's new user (an evaluator comparing two models): the defects they found, one test each.

Texts and records here are written for these tests (notes: /work/notes/s37user.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.errors import ScoreError
from ipb.respond.knowledge import KnowledgeBase
from ipb.scoring.embeddings import HashingEncoder

runner = CliRunner()


def _jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_repeated_responses_option_reads_every_file_not_only_the_last(tmp_path):
    # two models' files: the CLI of s37user kept only the second and printed a one-model leaderboard; s37ufix refused
    # the repeat; since s38logs both files are read into one run, each record naming its file
    a = _jsonl(tmp_path / "a.jsonl", [{"item_id": "x", "model": "a", "condition": "A", "response": "PROCEED"}])
    b = _jsonl(tmp_path / "b.jsonl", [{"item_id": "x", "model": "b", "condition": "A", "response": "PROCEED"}])
    # one real item, so that item x is unknown (an empty items file stops the run since s52user)
    item = json.loads((Path(__file__).parent / "respond" / "data" / "items.jsonl").read_text().splitlines()[0])
    items = _jsonl(tmp_path / "items.jsonl", [item])
    result = runner.invoke(app, ["score", "--items", str(items), "--responses", str(a), "--responses", str(b),
                                 "--out", str(tmp_path / "out"), "--no-embeddings", "--no-progress"])
    text = result.output + (result.stderr if result.stderr_bytes is not None else "")
    assert result.exit_code == 1, text  # item x is in no items file: both records unusable, both reported
    assert "Traceback" not in text
    assert f"{a}:1: record 1: unknown_item" in text and f"{b}:1: record 1: unknown_item" in text
    records = [json.loads(line) for line in (tmp_path / "out" / "responses.jsonl").read_text().splitlines()]
    assert [(r["model"], r["file"], r["source"]) for r in records] == [("a", 1, f"{a}:1"), ("b", 2, f"{b}:1")]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert [(u["file"], u["record"], u["source"]) for u in summary["unscored"]] == [(1, 1, f"{a}:1"), (2, 1, f"{b}:1")]


def test_a_respond_error_for_an_unregistered_investor_says_respond_not_score():
    kb = KnowledgeBase.bundled()
    with pytest.raises(ScoreError) as err:  # still a ScoreError: callers that catch it keep working
        kb.retrieve("Would Geraldine Weiss buy it?", ["Geraldine Weiss"], encoder=HashingEncoder())
    assert str(err.value).startswith("respond error: investor 'Geraldine Weiss' is not in the registry")


# An L8 answer about two cards, one terse line each (the shape s37user's terse model wrote).
_L8 = ("weiss_dividend_growth_screen: Gates: 1 PROCEED; 2 PROCEED; 3 PROCEED; 4 PROCEED; 5 REJECT. Final verdict: PASS\n"
       "graham_seven_tests_defensive: Gates: 1 PROCEED; 2 REJECT; 3 PROCEED; 4 PROCEED; 5 PROCEED; 6 REJECT; "
       "7 REJECT. Final verdict: DECLINE\n")


def _read(text, card):
    from ipb.scoring.parse import parse_response

    parsed = parse_response(text, card, embedder=False)
    return parsed, {g.gate: g.verdict for g in parsed.gates}


def test_a_numbered_only_list_of_every_gate_is_read_gate_by_gate():
    # klarman_downside_first_process has 3 gates: "1 ... 3" counts them all
    parsed, read = _read("Gates: 1 PROCEED; 2 REJECT; 3 PROCEED. Final verdict: DECLINE", "klarman_downside_first_process")
    assert read == {1: "PROCEED", 2: "REJECT", 3: "PROCEED"}
    assert parsed.final_verdict == "DECLINE" and {g.how for g in parsed.gates} == {"number"}
    # one per line, "N." and "N:" forms
    _, read = _read("1. PROCEED\n2: INCONCLUSIVE\n3 - REJECT\nDecision: DECLINE", "klarman_downside_first_process")
    assert read == {1: "PROCEED", 2: "INCONCLUSIVE", 3: "REJECT"}


def test_a_count_cut_short_at_its_first_reject_is_read_and_other_counts_are_not():
    # buffett has 6 gates; the list stops at the kill gate 5, as a sequential card does
    text = "Gates: 1 PROCEED; 2 PROCEED; 3 INCONCLUSIVE; 4 PROCEED; 5 REJECT. Final verdict: DECLINE"
    _, read = _read(text, "buffett_acquisition_checklist")
    assert read == {1: "PROCEED", 2: "PROCEED", 3: "INCONCLUSIVE", 4: "PROCEED", 5: "REJECT"}
    # a count of 2 that does not stop at a REJECT is no count of buffett's 6 gates: nothing read by number
    parsed, _ = _read("My top reasons: 1 PROCEED; 2 PROCEED. Final verdict: INVEST", "buffett_acquisition_checklist")
    assert all(g.how != "number" for g in parsed.gates)
    # two complete counts (the card judged twice): neither is read by number
    twice = "Gates: 1 PROCEED; 2 REJECT; 3 PROCEED.\nOn reflection: 1 PROCEED; 2 PROCEED; 3 PROCEED."
    parsed, _ = _read(twice, "klarman_downside_first_process")
    assert all(g.how != "number" for g in parsed.gates)


def test_a_card_id_with_a_number_word_names_no_gate_and_each_card_reads_its_own_count():
    parsed, read = _read(_L8, "graham_seven_tests_defensive")
    # the "seven" of the card id is no gate 7: gate 7 is read from "7 REJECT", as written
    assert read == {1: "PROCEED", 2: "REJECT", 3: "PROCEED", 4: "PROCEED", 5: "PROCEED", 6: "REJECT", 7: "REJECT"}
    assert parsed.gates[-1].mention[0] > _L8.index("graham_seven") + len("graham_seven_tests_defensive")
    assert parsed.final_verdict == "DECLINE"
    # a number inside an identifier starts no item ("graham_7_tests 1 PROCEED" is still item 1)
    from ipb.scoring.parse._counted_list import counted_verdicts

    assert counted_verdicts("graham_7 PROCEED; v2 REJECT", 2) == []
    assert [k for k, *_ in counted_verdicts("card_7 1 PROCEED; 2 REJECT", 2)] == [1, 2]


_NO_VERDICT = ("This depends on many factors, including your risk tolerance and time horizon. The valuation looks "
               "demanding in places and reasonable in others; a careful investor would want more information before "
               "deciding.")


def test_one_answer_with_no_verdict_is_no_commitment_on_every_card():
    from ipb.respond.synthetic import bundled_items
    from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
    from ipb.scoring.run import ScoreOptions, score_responses

    cards = ["buffett_acquisition_checklist", "graham_net_net_screen", "klarman_downside_first_process"]
    items = [bundled_items([c])[0] for c in cards]
    out = score_responses(items, [{"item_id": i["id"], "model": "m", "condition": "A", "response": _NO_VERDICT}
                                  for i in items],
                          ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50))
    # was: buffett scored (gate 4 PROCEED from "reasonable"), net-net off_topic, klarman parse_failure
    assert [(r["outcome"], r["reason_code"]) for r in out] == [("refusal", "no_commitment")] * 3


def test_a_sentence_appraising_a_gate_both_ways_gives_it_no_verdict_unless_a_contrast_weighs_one():
    _, read = _read("The valuation looks rich in places and reasonable in others.", "buffett_acquisition_checklist")
    assert read == {4: None}
    _, read = _read("The valuation looks rich but reasonable overall.", "buffett_acquisition_checklist")
    assert read == {4: "PROCEED"}  # "but": the later appraisal is the writer's


def test_the_console_scripts_fast_path_reads_a_repeated_responses_too(tmp_path, capsys):
    from ipb.cli._app import fast_invocation

    a = _jsonl(tmp_path / "a.jsonl", [])
    call = fast_invocation(["score", "--items", str(a), "--responses", str(a), "--responses", str(a),
                            "--out", str(tmp_path / "out")])
    assert call is not None  # read by the fast path, not handed to typer
    with pytest.raises(SystemExit) as stop:
        call()
    # both values reach the command (the fast path once kept a list option's last value): the same file twice is refused
    assert stop.value.code == 1 and "is given twice (--responses 1 and 2)" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
