"""Every command stopped by Ctrl-C or SIGTERM says so in one line and exits 128 + n, never with a traceback.

s63 new user B1: ``timeout -s INT 8|20|40 ipb score ...`` printed a 50-line traceback ending in
``KeyboardInterrupt`` (``ipb score`` runs on the fast path, outside typer, which turns a Ctrl-C into a silent exit 130).
B2: Ctrl-C in ``ipb respond``'s start-up, before its first request, exited 130 with no word at all. ``ipb perturb`` and
``ipb join`` already said ``... stopped by SIGINT (Ctrl-C) after N s: no items file written``; now
:func:`ipb.cli._app.main` says the same for every other command (:func:`ipb.cli._stops.said_at_top`).

Each child process stalls in a named step (the step replaced by a function that writes ``STALLED`` and sleeps), so
the signal lands at a known place whatever the machine's speed.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Replaces ``MODULE.NAME`` by a function that says STALLED and sleeps a minute, then runs the console entry point.
CHILD = """
import importlib, sys, time
module, name = sys.argv.pop(1).rsplit(".", 1)
def stall(*args, **kwargs):
    sys.stderr.write("STALLED\\n"); sys.stderr.flush(); time.sleep(60)
setattr(importlib.import_module(module), name, stall)
sys.argv[0] = "ipb"
from ipb.cli import main
main()
"""


def _stopped(where: str, args: list[str], signum: int, cwd: Path) -> tuple[int, str]:
    """Run ``ipb ARGS`` with ``where`` stalled, send ``signum`` once it stalls: (exit status, stderr after STALLED)."""
    proc = subprocess.Popen([sys.executable, "-c", CHILD, where, *args], cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline().decode()  # blocks until the child stalls (or ends)
        assert line == "STALLED\n", line + proc.stderr.read().decode()
        time.sleep(0.2)
        proc.send_signal(signum)
        code = proc.wait(timeout=60)
        return code, proc.stderr.read().decode()
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.fixture
def scored_inputs(tmp_path: Path) -> tuple[Path, Path]:
    from ipb.respond.synthetic import bundled_items

    item = bundled_items(["buffett_acquisition_checklist"])[0]
    (tmp_path / "items.jsonl").write_text(json.dumps(item) + "\n", encoding="utf-8")
    (tmp_path / "r.jsonl").write_text(json.dumps({"item_id": item["id"], "condition": "A", "model": "m",
                                                   "response": "Final verdict: INVEST"}) + "\n", encoding="utf-8")
    return tmp_path / "items.jsonl", tmp_path / "r.jsonl"


@pytest.mark.parametrize("signum, status, said", [(signal.SIGINT, 130, "SIGINT (Ctrl-C)"),
                                                   (signal.SIGTERM, 143, "SIGTERM")])
def test_score_stopped_while_scoring_says_one_line_and_writes_nothing(tmp_path, scored_inputs, signum, status, said):
    items, responses = scored_inputs
    out = tmp_path / "results"
    code, err = _stopped("ipb.scoring.run.score_records",
                         ["score", "--items", str(items), "--responses", str(responses), "--out", str(out),
                          "--no-embeddings"], signum, tmp_path)
    assert code == status, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err  # one line, no more
    assert lines[0].startswith(f"score stopped by {said} after ")
    assert lines[0].endswith(f" s: no results written ({out} not made)")
    assert not out.exists()


def test_score_stopped_during_start_up_says_one_line(tmp_path, scored_inputs):
    items, responses = scored_inputs  # the fast path's import of the command module (seconds for the parser)
    code, err = _stopped("ipb.cli._app.fast_invocation",
                         ["score", "--items", str(items), "--responses", str(responses), "--out", "res"],
                         signal.SIGINT, tmp_path)
    assert code == 130, err
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("score stopped by SIGINT (Ctrl-C) after ")
    assert lines[0].endswith(" s: no results written (res not made)")


def test_report_stopped_says_one_line_and_keeps_the_old_file(tmp_path):
    (tmp_path / "report.html").write_text("old", encoding="utf-8")
    code, err = _stopped("ipb.report.html.write_report", ["report", str(tmp_path)], signal.SIGINT, tmp_path)
    assert code == 130, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("report stopped by SIGINT (Ctrl-C) after "), err
    assert lines[0].endswith(" s: no report written (report.html kept as it was)")
    assert (tmp_path / "report.html").read_text(encoding="utf-8") == "old"


def test_respond_stopped_during_start_up_is_no_longer_silent(tmp_path, scored_inputs):
    items, _ = scored_inputs  # B2: typer turned this Ctrl-C into exit 130 with an empty stderr
    out = tmp_path / "resp.jsonl"
    code, err = _stopped("ipb.cli.commands.respond._check_writable",
                         ["respond", "--items", str(items), "--out", str(out), "--model", "m",
                          "--base-url", "http://127.0.0.1:9/v1", "--conditions", "A"], signal.SIGINT, tmp_path)
    assert code == 130, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("respond stopped by SIGINT (Ctrl-C) during start-up after ")
    assert lines[0].endswith(f" s: no request sent, no record written ({out} not made)")
    assert not out.exists()
