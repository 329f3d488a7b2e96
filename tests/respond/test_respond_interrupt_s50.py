"""Ctrl-C on ``ipb respond`` while a request is in flight ends the run at once and says what it kept (s50break).

Before, the worker threads (not daemons) were joined at exit, so an interrupted run waited for each slow request,
up to ``--timeout``, and printed nothing (the tester's run took 36.8 s to end). Now the console process prints one
line and exits with 130 as soon as the records already answered are closed in the file.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from respond_support import ROOT, SECRET
from test_respond_cli import respond_args


def test_ctrl_c_with_a_slow_request_in_flight_ends_at_once(server, tmp_path):
    out = tmp_path / "r.jsonl"
    args = respond_args(server, out, tmp_path, "--conditions", "A,C", "--concurrency", "1", "--no-cache",
                        "--timeout", "100")
    env = {**os.environ, "IPB_API_KEY": SECRET}
    # a job started in the background by a non-interactive shell (CI runners, nohup) inherits SIGINT ignored, and
    # Python then installs no KeyboardInterrupt handler: the child gets SIGINT's default back, as a terminal gives it
    proc = subprocess.Popen([sys.executable, "-c", "from ipb.cli import main; main()", *args], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if out.exists() and out.read_text(encoding="utf-8").count("\n") >= 2:
                break
            if proc.poll() is not None:
                pytest.fail("the run ended before it could be interrupted: " + proc.stderr.read().decode())
            time.sleep(0.02)
        else:
            pytest.fail("no records appeared")
        server.slow_s = 60.0  # every request from now on hangs for a minute (the run's timeout is 100 s)
        time.sleep(1.0)  # the next request is now waiting on the server
        proc.send_signal(signal.SIGINT)
        started = time.monotonic()
        code = proc.wait(timeout=30)
        waited = time.monotonic() - started
    finally:
        server.slow_s = 0.0
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    stderr = proc.stderr.read().decode()
    assert code == 130, stderr
    assert waited < 20, f"Ctrl-C took {waited:.1f} s: it waited for the request in flight"
    assert f"interrupted: the records answered so far are kept in {out}" in stderr
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert 2 <= len(records) < 8  # the answered ones, each whole
