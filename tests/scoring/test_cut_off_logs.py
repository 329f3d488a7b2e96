"""A log cut off mid-write is named as such, not as "not JSON" (s44user).

A new evaluator scored the first half of an inspect_ai ``.eval`` log (a zip: the eval still running, or the file
copied too early) and was told ``half.eval is not an inspect_ai log (not JSON: 'utf-8' codec can't decode byte 0xe4
...)``: true of no ``.eval`` file, and silent on what to do. A zip whose end is missing now says it is a cut-off
archive and to give the complete log; a JSON log that stops mid-way says so too. Nothing is scored or written.
"""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from ipb.errors import IpbError
from ipb.scoring.adapters import read_inspect
from ipb.scoring.run import ScoreOptions, run_score


def _archive() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("header.json", json.dumps({"version": 2, "status": "success", "eval": {"model": "openai/m"}}))
        z.writestr("samples/X_epoch_1.json", json.dumps({"id": "X:A", "epoch": 1, "output": {"completion": "y" * 4000}}))
    return buf.getvalue()


def test_a_cut_off_eval_archive_is_named_and_nothing_is_written(tmp_path):
    whole = _archive()
    half = tmp_path / "half.eval"
    half.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(IpbError) as info:
        list(read_inspect(half))
    message = str(info.value)
    assert "cut-off or damaged inspect_ai .eval archive (a zip whose end is missing)" in message
    assert "give the complete log" in message and "not JSON" not in message
    (tmp_path / "items.jsonl").write_text("")
    with pytest.raises(IpbError, match="cut-off or damaged"):
        run_score(tmp_path / "items.jsonl", half, tmp_path / "out", ScoreOptions())
    assert not (tmp_path / "out").exists()


def test_a_json_log_that_stops_mid_way_says_so(tmp_path):
    log = json.dumps({"version": 2, "eval": {"model": "openai/m"}, "samples": [{"id": "X:A", "epoch": 1}]})
    cut = tmp_path / "half.json"
    cut.write_text(log[: len(log) - 20])
    with pytest.raises(IpbError, match="not JSON: .*the text stops mid-way: a log cut off"):
        list(read_inspect(cut))
    other = tmp_path / "bad.json"
    other.write_text("{'single': 'quotes'} and more")  # broken at the start, not cut off: no such hint
    with pytest.raises(IpbError) as info:
        list(read_inspect(other))
    assert "not JSON" in str(info.value) and "cut off" not in str(info.value)


def test_a_responses_file_whose_last_line_stops_mid_way(tmp_path):
    from ipb.scoring.adapters import read_jsonl

    whole = json.dumps({"item_id": "X", "model": "m", "condition": "A", "response": "Final verdict: INVEST"})
    path = tmp_path / "half.jsonl"
    path.write_text(whole + "\n" + whole[:75] + "\n" + '{"item_id": x}\n')
    start = whole.index('"Final') + 1  # 1-based column of the string the cut leaves open
    first, cut, broken = list(read_jsonl(path))
    assert first.data is not None
    # it read "Unterminated string starting at at column 62"
    assert str(cut.error.message) == (
        f"line 2 is not JSON: Unterminated string starting at column {start}; the line stops mid-way: a file cut off "
        "(a run still writing it, or killed mid-write?); ipb respond drops such a last line when it resumes")
    assert broken.error.message == "line 3 is not JSON: Expecting value at column 13"  # broken, not cut off
