"""Ctrl-C on ``ipb respond`` while a request is in flight ends the run at once and says what it kept (s50break).

Before, the worker threads (not daemons) were joined at exit, so an interrupted run waited for each slow request,
up to ``--timeout``, and printed nothing (the tester's run took 36.8 s to end). Now the console process prints one
line and exits with 130 as soon as the records already answered are closed in the file.
"""

from __future__ import annotations

import json
import signal
import time

from respond_support import respond_process
from test_respond_cli import respond_args


def test_ctrl_c_with_a_slow_request_in_flight_ends_at_once(server, tmp_path):
    out = tmp_path / "r.jsonl"
    args = respond_args(server, out, tmp_path, "--conditions", "A,C", "--concurrency", "1", "--no-cache",
                        "--timeout", "100")
    try:
        with respond_process(args, out, records=2, within_s=60, then="interrupted") as proc:
            server.slow_s = 60.0  # every request from now on hangs for a minute (the run's timeout is 100 s)
            time.sleep(1.0)  # the next request is now waiting on the server
            proc.send_signal(signal.SIGINT)
            started = time.monotonic()
            code = proc.wait(timeout=30)
            waited = time.monotonic() - started
    finally:
        server.slow_s = 0.0
    stderr = proc.stderr.read().decode()
    assert code == 130, stderr
    assert waited < 20, f"Ctrl-C took {waited:.1f} s: it waited for the request in flight"
    assert f"interrupted: the records answered so far are kept in {out}" in stderr
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert 2 <= len(records) < 8  # the answered ones, each whole


def test_ctrl_c_before_any_answer_leaves_no_empty_file(server, tmp_path):
    # s65 new user F8: Ctrl-C while the first request hung left a 0-byte responses file, which `ipb score` then
    # refused as empty; now nothing is written and the message says so
    out = tmp_path / "r.jsonl"
    args = respond_args(server, out, tmp_path, "--conditions", "A", "--concurrency", "1", "--no-cache",
                        "--timeout", "100")
    server.slow_s = 60.0  # the first request hangs for a minute (the run's timeout is 100 s)
    try:
        with respond_process(args, out, records=0, within_s=60, then="interrupted") as proc:
            deadline = time.monotonic() + 30
            while not server.requests and time.monotonic() < deadline:
                time.sleep(0.05)  # the first request is now waiting on the server
            assert server.requests, "no request reached the server"
            proc.send_signal(signal.SIGINT)
            code = proc.wait(timeout=30)
    finally:
        server.slow_s = 0.0
    stderr = proc.stderr.read().decode()
    assert code == 130, stderr
    assert f"interrupted before any request was answered: nothing was written to {out}" in stderr
    assert not out.exists()
