"""Regression tests for issue 18's publishing fixes of stop 60 (s60fix): the s59 join flake, NEWUSER_s59 findings
11, 13 and 14, and the check/perturb agreement on a derived input rounded by its step (NEWUSER_s58 F-W2)."""

from __future__ import annotations

import _thread
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from ipb.perturb import join as join_module
from tests.engine.card_support import screener_card_head
from tests.perturb.test_break_s59 import _item


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a FIFO")
def test_join_reading_a_quiet_fifo_runs_a_signal_that_landed_before_the_read(tmp_path, monkeypatch):
    # bug kind: lost signal (flake 0 of s60). A signal whose Python handler was pending when readline's C code
    # entered read(2) interrupted nothing: ipb join waited on the open FIFO for ever. interrupt_main trips the
    # handler exactly so (no real signal reaches the blocked read). Before the fix the read returned only when the
    # watchdog below closed the writer, 8 s later.
    monkeypatch.setattr(join_module, "SIGNAL_POLL_S", 0.05)
    fifo = tmp_path / "in.jsonl"
    os.mkfifo(fifo)
    closed = threading.Event()

    def feed() -> None:
        with open(fifo, "w", encoding="utf-8") as writer:
            writer.write(_item("T-00000000000000aa") + "\n")
            writer.flush()
            closed.wait(8)  # the watchdog: the test fails, never hangs

    class Stopped(Exception):
        pass

    def handler(signum: int, frame: object) -> None:
        raise Stopped(signum)

    old = signal.signal(signal.SIGTERM, handler)
    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    lines = join_module._lines(fifo)
    try:
        assert next(lines)[0] == 1
        threading.Timer(0.2, _thread.interrupt_main, (signal.SIGTERM,)).start()
        start = time.monotonic()
        with pytest.raises(Stopped):
            next(lines)
        assert time.monotonic() - start < 4
    finally:
        closed.set()
        lines.close()
        feeder.join(10)
        signal.signal(signal.SIGTERM, old)


def test_join_still_reads_a_fifo_and_a_file_line_for_line(tmp_path):
    # the patient reader keeps the plain reader's lines (line ends "\n", "\r\n" and a lone "\r" kept apart as
    # open(newline="") does), and a folder is still refused as before
    text = "a\nb\r\nc\rd"
    plain = tmp_path / "plain.txt"
    plain.write_bytes(text.encode())
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "wb") as writer:
            writer.write(text.encode())

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    from_fifo = list(join_module._lines(fifo))
    feeder.join(10)
    # s61nfix (N7): a line keeps its "\r" (the joined file keeps the input's line ends); only the "\n" goes
    assert from_fifo == list(join_module._lines(plain)) == [(1, "a"), (2, "b\r"), (3, "c\r"), (4, "d")]
    from ipb.errors import LoadError

    with pytest.raises(LoadError, match="cannot read .*: Is a directory"):
        list(join_module._lines(tmp_path))


DERIVED_CARD = """\
id: patient_buyer
investor: John Templeton
name: Patient Buyer
topology_type: linear_sequential
gate_logic: conjunction
decisive_default: true
topology_rationale: One requirement.
vintage: {start: 1939, end: 2008}
sources:
  - {tier: 1, document: "Templeton's Way with Money", year: 2012, after_vintage: posthumous}
outcomes: {pass: BUY, fail: PASS_OVER}
constants:
  min_years: {value: 5, description: Fewest years held.}
inputs:
  holding_months: {type: number, unit: months, label: months the buyer will hold, range: [12, 240], step: 12}
  holding_years: {type: number, unit: years, label: years the buyer will hold}
constraints:
  - {id: years_from_months, derive: holding_years, value: holding_months / 12}
gates:
  - id: patience
    name: Patience
    proceed: holding_years >= min_years
    reject: holding_years < min_years
    required_elements: ["holding {holding_years}"]
"""


def test_a_derived_input_does_not_make_inconclusive_reachable(tmp_path):
    # bug kind: false reachability (s59break B11). Before: holding_years, derived from the ranged holding_months,
    # counted as an input with no lattice, so the two-sided gate reading it was called able to be undecided:
    # card_outcomes gave INCONCLUSIVE and a run said "never produced: INCONCLUSIVE" with missing_why null.
    import json

    from typer.testing import CliRunner

    from ipb.cli import app
    from ipb.engine.card import load_card
    from ipb.engine.graph import compile_card
    from ipb.perturb.frame import card_outcomes

    card = tmp_path / "card.yaml"
    card.write_text(DERIVED_CARD, encoding="utf-8")
    assert card_outcomes(compile_card(load_card(card))) == ["BUY", "PASS_OVER"]
    base = tmp_path / "base.yaml"
    base.write_text('id: b\nlayer: L7\ncard: patient_buyer\nas_of: "1974-10-03"\nexpected: {verdict: BUY, trigger: '
                    'all_gates_cleared}\nfacts:\n  holding_months: 84\n', encoding="utf-8")
    report = tmp_path / "report.json"
    result = CliRunner().invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--n", "12", "--seed", "7",
                                      "--ops", "metric", "--out", str(tmp_path / "items.jsonl"), "--report", str(report)])
    assert result.exit_code == 0, result.output
    data = json.loads(report.read_text(encoding="utf-8"))
    assert "INCONCLUSIVE" not in data["missing"] and "INCONCLUSIVE" not in " ".join(result.output.split())
    assert data["missing_why"] is None or data["missing"]  # a why only beside a missing verdict


def test_balance_progress_says_the_pool_pass_and_estimates_from_the_items_rate():
    # bug kind: misleading estimate (s59break B13). Before: 10 s of silence while the pool was drawn, then "about
    # 1 min 37 s left" at 10% of a run whose 3,000 items took 3 s more (the pool's time counted in the rate).
    import io

    from ipb.perturb._progress import RunProgress

    now = [0.0]
    buf = io.StringIO()
    counter = RunProgress(3000, buf, clock=lambda: now[0])
    counter.balance = True

    def lines():
        now[0] = 10.0  # the pool pass
        for i in range(3000):
            now[0] += 0.001  # 3 s for the 3,000 items
            yield str(i)

    assert list(counter.wrap(lines())) == [str(i) for i in range(3000)]
    said = buf.getvalue().splitlines()
    assert said[0] == ("perturb: --balance: drawing a pool of candidates to choose the 3,000 items from; items are "
                       "counted once it is drawn")
    assert said[1] == "perturb: balance pool drawn in 10 s; writing the 3,000 items chosen"
    # at 10%: 300 items in 0.3 s, so 2,700 more take about 2.7 s
    assert said[2] == "perturb: 300 of 3,000 items made (10%), 10 s; about 2 s left at this rate"
    assert len(said) == 2 + 10


def test_progress_without_balance_says_no_pool_lines():
    import io

    from ipb.perturb._progress import RunProgress

    buf = io.StringIO()
    counter = RunProgress(10, buf, clock=lambda: 0.0)
    list(counter.wrap(str(i) for i in range(10)))
    assert "pool" not in buf.getvalue() and len(buf.getvalue().splitlines()) == 10


def test_a_far_column_puts_the_caret_at_the_end_of_the_excerpt():
    # bug kind: runaway caret (s59break B14). Before: a truncated 3,078-character line printed a caret line of 3,078
    # columns under its 200-character excerpt.
    from ipb.errors import LoadError

    error = LoadError("line 1 is not valid JSON", file="a.jsonl", line=1, column=3077, rule="json",
                      source_line="x" * 200)
    *_, excerpt, caret = error.render().splitlines()
    assert excerpt == "    " + "x" * 200
    assert caret == "    " + " " * 200 + "^ (column 3,077, past the 200 characters shown)"
    near = LoadError("bad", file="a.jsonl", line=1, column=3, source_line="abcdef").render().splitlines()
    assert near[-1] == "      ^"  # a column inside the excerpt: as before


def test_join_refuses_one_file_given_twice(tmp_path, monkeypatch):
    # bug kind: a slip reported as data (s59break B14). Before: "kept 0, dropped 200 (200 repeating an earlier
    # item's id: 200 first in A)" and exit 0, for A given as A and ./A.
    from tests.perturb.test_break_s59 import _join, _run

    items = _run(tmp_path / "a", _item("T-00000000000000aa"))
    monkeypatch.chdir(tmp_path)
    link = tmp_path / "link.jsonl"
    link.symlink_to(items)
    for again in ("./a/items.jsonl", str(link)):
        code, text = _join("a/items.jsonl", again, "--out", "out/items.jsonl")
        assert code == 1, text
        assert "(items file 2) is a/items.jsonl (items file 1) given twice: name each file once; nothing written" in text
        assert not (tmp_path / "out").exists()
    code, text = _join("a/items.jsonl", "--out", "out/items.jsonl")  # once is fine
    assert code == 0 and "kept 1" in text


ROUNDED_CARD = screener_card_head("s60_cover_screen", "Cover screen", "One test.") + """\
inputs:
  assets: {type: money, description: current assets, range: [$1B, $5B], step: $10M}
  debts: {type: money, description: current liabilities, range: [$1B, $2B], step: $10M}
  cover: {type: multiple, description: current assets over current liabilities, range: [0.5x, 5x], step: 0.1x}
constraints:
  - {id: cover_is_quotient, derive: cover, value: assets / debts}
gates:
  - id: covered
    name: Covered
    proceed: cover >= 2x
    kill_criterion: thin
    required_elements: [cover]
"""


@pytest.mark.parametrize("stated", ["2x", "1.9x"])
def test_check_and_perturb_give_one_error_for_a_derived_value_rounded_across_a_gate(tmp_path, stated):
    # bug kind: two tools disagreeing (NEWUSER_s58 F-W2's edge). $1.96B / $1B = 1.96, written at the 0.1x step as 2x,
    # which passes cover >= 2x. Before: a base stating 1.9x was told by both "the rule gives cover = 2x: state
    # that", and a base stating 2x passed ipb check (exit 0) while ipb perturb refused it.
    from typer.testing import CliRunner

    from ipb.cli import app

    run = CliRunner()
    card = tmp_path / "card.yaml"
    card.write_text(ROUNDED_CARD, encoding="utf-8")
    base = tmp_path / "base.yaml"
    base.write_text(f'id: b\nlayer: L7\ncard: s60_cover_screen\nas_of: "1985-06-30"\nfacts:\n  assets: $1.96B\n'
                    f"  debts: $1B\n  cover: {stated}\n", encoding="utf-8")
    checked = run.invoke(app, ["check", str(card), str(base)])
    made = run.invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--n", "3", "--out",
                            str(tmp_path / "items.jsonl")])
    assert checked.exit_code == 1 and made.exit_code == 1, (checked.output, made.output)

    def error(output: str) -> str:
        return next(line for line in output.splitlines() if line.startswith(f"{base}:"))

    assert error(checked.output) == error(made.output)
    said = error(checked.output)
    head = ("the base states cover as its sources' value rounded (assets, debts give 1.96)" if stated == "2x" else
            "the rule gives cover = 2x, its sources' value written at its step (assets, debts give 1.96)")
    assert said.startswith(f"{base}:8:10: load error: {head}, and the rounding decides a gate of card "
                           "s60_cover_screen the other way")
    assert "state that" not in said


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a FIFO")
def test_join_to_a_new_folder_holds_the_output_lock(tmp_path):
    # bug kind: missing lock. Before: ipb join took its lock before join_items made --out's folder, so the lock file
    # could not be made and nothing was locked: a second join to the same new --out ran beside the first.
    from tests.perturb.test_break_s59 import _join, _run, _start_join

    out = tmp_path / "new" / "items.jsonl"
    proc, writer = _start_join(tmp_path / "in.jsonl", out, _item("T-00000000000000aa"))
    try:
        assert (out.parent / ".items.jsonl.lock").is_file()
        other = _run(tmp_path / "b", _item("T-00000000000000bb"))
        code, text = _join("--no-cards", str(other), "--out", str(out))
        assert code == 1 and f"--out {out} is being written by another ipb run" in text
        assert not out.exists()
    finally:
        proc.kill()
        proc.communicate(timeout=60)
        writer.close()  # type: ignore[attr-defined]
