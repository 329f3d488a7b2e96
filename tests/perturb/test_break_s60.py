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
    assert from_fifo == list(join_module._lines(plain)) == [(1, "a"), (2, "b"), (3, "c"), (4, "d")]
    from ipb.errors import LoadError

    with pytest.raises(LoadError, match="cannot read .*: Is a directory"):
        list(join_module._lines(tmp_path))
