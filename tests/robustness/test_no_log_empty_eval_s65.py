"""A lone file that is no log is refused, and a 0-byte ``.eval`` is called empty (s65 new user F5, F6).

Before: ``ipb score --responses f.json`` with ``{"size": 3}`` in it wrote results with one unusable record, and the
board showed a model row "(none)" under a header "None"; a 0-byte ``.eval`` was "not JSON ...; the text stops
mid-way: a log cut off". Now both stop the run with the file named and nothing written (as README says of an empty
file or one that is no log). Real ``ipb`` subprocesses.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

IPB = str(Path(sys.executable).parent / "ipb")
CARD = "graham_net_net_screen"


def _setup(tmp_path: Path) -> None:
    from ipb.respond.synthetic import bundled_items

    items = bundled_items([CARD])[:1]
    (tmp_path / "items.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")


def _score(tmp_path: Path, responses: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([IPB, "score", "--items", "items.jsonl", "--responses", responses, "--out", "res",
                           "--no-embeddings", "--resamples", "20"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)


def test_a_lone_json_object_that_is_no_log_is_refused(tmp_path: Path) -> None:
    _setup(tmp_path)
    (tmp_path / "size.json").write_text('{"size": 3}\n', encoding="utf-8")
    done = _score(tmp_path, "size.json")
    assert done.returncode == 1
    assert done.stderr.strip() == ("size.json:1: load error: size.json is not a responses file or log ipb reads: none "
                                   "of its 1 record(s) is a response (no record has a 'response' field; record 1 "
                                   "has size)")
    assert "(none)" not in done.stdout + done.stderr and not (tmp_path / "res").exists()


def test_a_zero_byte_eval_is_empty_not_cut_off(tmp_path: Path) -> None:
    _setup(tmp_path)
    (tmp_path / "run.eval").write_bytes(b"")
    done = _score(tmp_path, "run.eval")
    assert done.returncode == 1
    assert done.stderr.strip() == ("run.eval: load error: run.eval is empty (0 bytes): no inspect_ai log in it, "
                                   "nothing to score, nothing written")
    assert "cut off" not in done.stderr and not (tmp_path / "res").exists()
