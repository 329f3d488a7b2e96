"""Regression (write failures of every writing command; perturb's items and report landing together): found by the
s56 break pass, left for stop 57.

House rule: a write the operating system refuses gives one line naming the flag and the path the user gave, never a
traceback, a bare ``write error`` or a partial file. Before the fix:

- ``respond``, ``judge``, ``screen`` said ``write error: cannot write /proc/x.jsonl: ...`` (no flag); ``report`` and
  ``export`` called it a ``load error``; ``graph`` and ``schema`` said ``PATH: cannot write: ...``, ``score``
  ``PATH: write error: ...``; ``records score``, ``forecast score`` and ``depgraph run -o /proc/x.json``
  ended in a traceback;
- ``ipb perturb`` renamed ``--out`` into place before writing ``--report``, so a full disk while writing the report
  left the new items beside no report (or the old one).

``/proc`` refuses new files even to root, so those paths cannot be written whoever runs the tests; a full disk is
made by a patched ``os.fsync`` (or temporary-file writer) raising ``ENOSPC``.
"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ipb._files
from ipb.cli import app
from perturb_support import CARDS, FIXTURES, ROOT

runner = CliRunner()
ITEMS = ROOT / "tests" / "robustness" / "data" / "item_l7.jsonl"
GRAHAM = ROOT / "frameworks" / "graham_seven_tests_defensive.yaml"
ISSUE8 = ROOT / "tests" / "fixtures" / "issue8"
CARD = CARDS / "new_author_screen.yaml"
BASE = FIXTURES / "new_author_base.yaml"
FULL = "No space left on device"


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def _answers(folder: Path) -> Path:
    """One answer to the item of ITEMS."""
    item_id = json.loads(ITEMS.read_text(encoding="utf-8").splitlines()[0])["id"]
    answers = folder / "one.jsonl"
    answers.write_text(json.dumps({"item_id": item_id, "model": "m", "condition": "A",
                                   "response": "Gate 1: PROCEED. Final: INVEST."}) + "\n", encoding="utf-8")
    return answers


def _results(folder: Path) -> Path:
    """A scored results folder (one answer to the item of ITEMS), for report and export."""
    answers = _answers(folder)
    results = folder / "results"
    done = invoke("score", "-i", ITEMS, "-r", answers, "-o", results, "--no-embeddings", "--no-progress",
                  "--no-leaderboard")
    assert done.exit_code == 0, done.output
    return results


def _writers(folder: Path) -> dict[str, tuple[list[object], str]]:
    """Each writing command's arguments before its output option, and that option's name."""
    (folder / "t.csv").write_text("annual_sales,price_per_share\n500000000,120\n", encoding="utf-8")
    (folder / "r.jsonl").write_text("", encoding="utf-8")
    model = ["--model", "m", "--base-url", "http://127.0.0.1:9", "--no-cache"]
    return {
        "respond": (["respond", "-i", ITEMS, *model, "-c", "A", "-o"], "--out"),
        "respond-synthetic": (["respond", "--synthetic", "-i", ITEMS, "-o"], "--out"),
        "judge": (["judge", "-i", ITEMS, "-r", folder / "r.jsonl", *model, "-o"], "--out"),
        "screen": (["screen", GRAHAM, folder / "t.csv", "-o"], "--out"),
        "records-score": (["records", "score", ISSUE8 / "records" / "agent.jsonl", "--expert",
                           ISSUE8 / "records" / "cathie_wood.yaml", "-o"], "--output"),
        "forecast-score": (["forecast", "score", ISSUE8 / "forecast" / "msft_task.yaml",
                            ISSUE8 / "forecast" / "msft_submission.yaml", "-o"], "--output"),
        "depgraph-run": (["depgraph", "run", ISSUE8 / "depgraph" / "aep_funding.yaml",
                          ISSUE8 / "depgraph" / "aep_answer.yaml", "-o"], "--output"),
        "graph": (["graph", GRAHAM, "-f", "dot", "--out"], "--out"),
        "schema": (["schema", "--out"], "--out"),
        "score": (["score", "-i", ITEMS, "-r", _answers(folder), "--no-embeddings", "--no-progress",
                   "--no-leaderboard", "-o"], "--out"),
    }


@pytest.mark.parametrize("command", ["respond", "respond-synthetic", "judge", "screen", "records-score",
                                     "forecast-score", "depgraph-run", "report", "export", "graph", "schema",
                                     "score"])
def test_an_unwritable_output_names_the_flag_and_the_path(tmp_path: Path, monkeypatch, command: str) -> None:
    """Bug kind: message (and, for records / forecast / depgraph, a traceback; graph and schema said
    "PATH: cannot write: ...", score "PATH: write error: ..."). Fails without the fix: all twelve."""
    monkeypatch.chdir(tmp_path)
    if command in ("report", "export"):
        results = _results(tmp_path)
        args, flag = ([command, results, *(["-f", "csv"] if command == "export" else []), "--out"], "--out")
    else:
        args, flag = _writers(tmp_path)[command]
    out = "/proc/ipb-s57" + (".csv" if command in ("screen", "export") else ".html" if command == "report"
                             else ".dot" if command == "graph" else "" if command in ("schema", "score") else ".jsonl")
    result = invoke(*args, out)
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"{flag}: write error: cannot write {out}: "), result.output
    assert ".tmp" not in lines[0] and ".probe" not in lines[0] and "Traceback" not in result.output


def _disk_full(monkeypatch) -> None:
    def fsync(fd: int) -> None:
        raise OSError(errno.ENOSPC, FULL)

    monkeypatch.setattr(os, "fsync", fsync)


@pytest.mark.parametrize("command", ["screen", "respond-synthetic", "records-score"])
def test_a_full_disk_names_the_flag_and_leaves_the_old_output(tmp_path: Path, monkeypatch, command: str) -> None:
    """Bug kind: message; the old output keeps its bytes and no temporary file is left. Fails without the fix:
    all three (no flag; records score: a traceback)."""
    monkeypatch.chdir(tmp_path)
    args, flag = _writers(tmp_path)[command]
    out = tmp_path / ("out.csv" if command == "screen" else "out.json" if command == "records-score" else "o.jsonl")
    if command != "respond-synthetic":  # respond resumes an existing file: it is a new one there
        out.write_bytes(b"old bytes\n")
    listing = sorted(p.name for p in tmp_path.iterdir())
    _disk_full(monkeypatch)
    result = invoke(*args, out)
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert f"{flag}: write error: cannot write {out}: {FULL}" in result.output, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == listing
    if command != "respond-synthetic":
        assert out.read_bytes() == b"old bytes\n"


def test_perturb_keeps_the_old_items_when_the_report_cannot_be_written(tmp_path: Path, monkeypatch) -> None:
    """Bug kind: partial output. The report's write fails (a full disk) after the items are complete: the old
    --out and --report keep their bytes, nothing new but the card copies remains, and the flag is --report.
    Fails without the fix: --out had already been replaced by the new items."""
    items, report = tmp_path / "items.jsonl", tmp_path / "r.json"
    items.write_bytes(b"old items\n")
    report.write_bytes(b"old report\n")
    real = ipb._files._write_temp
    written: list[str] = []

    def write_temp(target: Path, fill):
        if target.name == report.name:
            assert items.name in written  # the items were complete when the report was begun
            raise OSError(errno.ENOSPC, FULL)
        tmp = real(target, fill)
        written.append(target.name)
        return tmp

    monkeypatch.setattr(ipb._files, "_write_temp", write_temp)
    result = invoke("perturb", "-c", CARD, "-b", BASE, "--n", 5, "--out", items, "--report", report)
    assert result.exit_code == 1, result.output
    assert f"--report: write error: cannot write {report}: {FULL}" in result.output, result.output
    assert items.read_bytes() == b"old items\n"
    assert report.read_bytes() == b"old report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ipb-cards", "items.jsonl", "r.json"]


def test_perturb_writes_items_and_report_together(tmp_path: Path) -> None:
    """The ordinary run still writes both, the report counting the items written."""
    items, report = tmp_path / "items.jsonl", tmp_path / "r.json"
    result = invoke("perturb", "-c", CARD, "-b", BASE, "--n", 5, "--out", items, "--report", report)
    assert result.exit_code == 0, result.output
    assert len(items.read_text(encoding="utf-8").splitlines()) == 5
    assert json.loads(report.read_text(encoding="utf-8"))["written"] == 5
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_a_failed_second_rename_puts_the_first_file_back(tmp_path: Path, monkeypatch) -> None:
    """Staging: when the report's rename fails, the items already renamed get their old bytes back."""
    a, b = tmp_path / "a.jsonl", tmp_path / "b.json"
    a.write_bytes(b"old a\n")
    b.write_bytes(b"old b\n")
    real = os.replace

    def replace(src, dst):
        if Path(dst) == b:
            raise OSError(errno.EROFS, "Read-only file system")
        return real(src, dst)

    from ipb._files import staged_outputs

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OSError) as caught:
        with staged_outputs() as stage:
            stage.lines(a, ["new a"])
            stage.text(b, "new b\n")
    assert caught.value.filename == str(b)
    assert (a.read_bytes(), b.read_bytes()) == (b"old a\n", b"old b\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl", "b.json"]


def test_nothing_is_renamed_before_the_block_ends(tmp_path: Path) -> None:
    from ipb._files import Staging, staged_outputs

    a = tmp_path / "a.jsonl"
    with staged_outputs() as stage:
        stage.lines(a, ["1", "2"])
        assert not a.exists()
    assert a.read_text(encoding="utf-8") == "1\n2\n"
    stage = Staging()
    stage.text(tmp_path / "b.txt", "x")
    stage.discard()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl"]


# ------------------------------------------------------------------ misleading messages (break pass, stop 56)


def test_verify_counts_a_question_edited_alone_as_the_item_disagreeing_with_itself(tmp_path: Path) -> None:
    """Bug kind: misleading count. An edit to the question alone changes condition B's hash of it; that was counted
    as a gold mismatch (the gold, executed again, matches). Fails without the fix: '1 gold mismatch(es)'."""
    items = tmp_path / "items.jsonl"
    made = invoke("perturb", "-c", CARD, "-b", BASE, "--n", 3, "--out", items)
    assert made.exit_code == 0, made.output
    lines = items.read_text(encoding="utf-8").splitlines()
    item = json.loads(lines[0])
    item["question"] += " Extra."
    lines[0] = json.dumps(item)
    items.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = invoke("verify", items)
    assert result.exit_code == 1, result.output
    assert ("verified 2 of 3 item(s): 0 gold mismatch(es), 1 disagreeing with themselves (id, question, ranges or "
            "dates)") in result.output, result.output
    assert "the question (or conditions.B) was edited after the item was made" in result.output, result.output


def test_a_base_outside_the_investors_career_gives_the_career_dates(tmp_path: Path) -> None:
    """Bug kind: message. Lynch's registry career is 1977 to 1990-05; a base dated 1990-06-30 was refused naming the
    investor only. Fails without the fix: no '(active 1977 to 1990-05)'."""
    source = ROOT / "frameworks" / "scenarios" / "lynch_six_category_framework" / "decline_fast_grower_overpriced.yaml"
    text = source.read_text(encoding="utf-8")
    assert 'as_of: "1983-06-30"' in text
    base = tmp_path / "late.yaml"
    base.write_text(text.replace('as_of: "1983-06-30"', 'as_of: "1990-06-30"'), encoding="utf-8")
    result = invoke("perturb", "-c", "lynch_six_category_framework", "-b", base, "--n", 3, "--out",
                    tmp_path / "x.jsonl")
    assert result.exit_code == 1, result.output
    assert ("lynch_six_category_framework: 1990-06-30 is outside the career of investor 'lynch' "
            "(active 1977 to 1990-05)") in result.output, result.output
    assert not (tmp_path / "x.jsonl").exists()


def test_an_open_career_reads_to_present() -> None:
    import datetime as dt

    from ipb.perturb.vintage import Window, date_problem

    window = Window("c", 1900, None, "someone", lambda day: day.year >= 1980, "1980 to present")
    assert date_problem(window, dt.date(1970, 1, 1)) == ("c: 1970-01-01 is outside the career of investor "
                                                        "'someone' (active 1980 to present)")
    assert date_problem(window, dt.date(1990, 1, 1)) is None
    from types import SimpleNamespace

    from ipb.perturb.vintage import _career

    record = SimpleNamespace(id="someone", active_start="1980", active_end=None)
    assert _career({"someone": record}, "someone") == "1980 to present"
    assert _career({"someone": record}, "nobody") is None


# ------------------------------------------------------------------ ipb verify: market-state facts of another date

DALIO = "dalio_debt_supercycle_navigation"
DOLLAR_DEBT = ROOT / "frameworks" / "scenarios" / DALIO / "dollar_debt_kill.yaml"


def _macro_only(frame, facts, set_facts):
    """``temporal``'s drop rule before s56fixdsc: macro facts the regime gives no figure for, market state kept."""
    from ipb.perturb.operators import regime_fact_inputs

    macro = regime_fact_inputs(frame)
    return [n for n in frame.inputs if n in facts and n not in set_facts and n in macro]


def _temporal_items(path: Path) -> list[dict]:
    made = invoke("perturb", "-c", DALIO, "-b", DOLLAR_DEBT, "--ops", "temporal", "--n", 3, "--seed", 5601,
                  "--out", path)
    assert made.exit_code == 0, made.output
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_verify_reports_market_state_facts_an_older_temporal_kept(tmp_path: Path, monkeypatch) -> None:
    """Bug kind: incoherent item passed. Items made with the old drop rule keep the base's market state (the base
    of 2018-08-31 states 65% of debt in dollars, 5 of 7 bubble signals, a 4% debt-growth gap) beside another
    regime's date; verify now names each fact, its value and the regime. Fails without the fix: exit 0."""
    import ipb.perturb.operators as operators

    with monkeypatch.context() as patch:
        patch.setattr(operators, "_uncovered", _macro_only)
        items = _temporal_items(tmp_path / "old.jsonl")
    base_facts = {"foreign_currency_debt_share": "65%", "bubble_signals": "5", "debt_growth_gap": "4%"}
    result = invoke("verify", tmp_path / "old.jsonl", "--format", "json")
    assert result.exit_code == 1, result.output
    checks = {c["id"]: c for c in json.loads(result.output)["problems"]}
    assert sorted(checks) == sorted(i["id"] for i in items)
    for item in items:
        regime = item["manifest"]["context"]["regime"]
        as_of = item["scenario"]["as_of"]
        kept = {n: v for n, v in item["scenario"]["facts"].items() if n in base_facts}
        assert kept == {n: v for n, v in base_facts.items() if n in kept} and kept, item["scenario"]["facts"]
        found = checks[item["id"]]["inconsistencies"]
        assert len(found) == len(kept) and checks[item["id"]]["status"] == "mismatch"
        for (name, value), sentence in zip(kept.items(), found):
            assert sentence.startswith(f"dated {as_of} by regime {regime} (") and \
                f"it states the market-state fact {name} ({value}), which that regime does not set" in sentence
    table = invoke("verify", tmp_path / "old.jsonl")
    assert f"({items[0]['id']}): mismatch: dated " in table.output, table.output
    assert "0 gold mismatch(es), 3 disagreeing with themselves" in table.output, table.output


def test_verify_passes_the_items_temporal_makes_now(tmp_path: Path) -> None:
    """No false alarm: the market-state facts of these items were dropped (or set by the regime)."""
    items = _temporal_items(tmp_path / "new.jsonl")
    assert all(i["manifest"]["context"]["regime"] for i in items)
    result = invoke("verify", tmp_path / "new.jsonl")
    assert result.exit_code == 0, result.output
    assert "verified 3 of 3 item(s)" in result.output, result.output


def test_an_item_no_regime_dates_is_not_read_for_market_state() -> None:
    from ipb.perturb.verify_market import MarketCheck

    item = {"manifest": {"context": {"regime": None}}, "scenario": {"facts": {"investor_psychology": "optimistic"}}}
    assert MarketCheck().problems(item, []) == []
