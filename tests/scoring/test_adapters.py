"""Response readers: native JSONL, inspect_ai logs (.json and .eval) and lm-evaluation-harness samples."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from ipb.errors import LoadError
from ipb.scoring.adapters import FORMATS, adapters, detect_format, read_responses, records_from
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.run import ScoreOptions, run_score
from ipb.respond.synthetic import bundled_items

FIXTURES = Path(__file__).resolve().parent / "fixtures"
INSPECT = FIXTURES / "inspect_log.json"
LM_EVAL = FIXTURES / "lm_eval_samples.jsonl"
BASE = "buffett_acquisition_checklist/ipb_p_011_base"


def _eval_archive(tmp_path: Path) -> Path:
    """The JSON fixture repacked as an inspect .eval zip (header.json plus samples/<id>_epoch_<n>.json)."""
    log = json.loads(INSPECT.read_text(encoding="utf-8"))
    path = tmp_path / "run.eval"
    with zipfile.ZipFile(path, "w") as archive:
        header = {k: v for k, v in log.items() if k != "samples"}
        archive.writestr("header.json", json.dumps(header))
        for k, sample in reversed(list(enumerate(log["samples"]))):
            archive.writestr(f"samples/{k}_epoch_{sample['epoch']}.json", json.dumps(sample))
        archive.writestr("summaries.json", "[]")
    return path


def test_the_formats_are_registered():
    assert adapters() == ["jsonl", "inspect", "lm-eval"]
    assert FORMATS == ("auto", "jsonl", "inspect", "lm-eval")


def test_inspect_json_log_gives_one_record_per_sample():
    records = list(read_responses(INSPECT))
    assert [r.number for r in records] == [1, 2, 3]
    first, second, third = records
    assert first.data["item_id"] == BASE
    # eval.model names the model as the user asked for it (provider/model); output.model is the
    # provider's own name for the response ("gpt-test-2026"), which differs per sample.
    assert first.data["model"] == "openai/gpt-test"
    assert first.data["condition"] == "C"  # the eval's metadata
    assert first.data["epoch"] == 1 and "Final verdict: DECLINE" in first.data["response"]
    assert second.data["condition"] == "A"  # the sample's metadata wins
    assert "Gate 5 passes? no." not in second.data["response"]  # reasoning parts are left out
    assert "Final verdict: INVEST" in second.data["response"]
    assert third.data is None and third.error.rule == "sample_error" and "RateLimitError" in third.error.message
    assert "samples[2]" in third.source


def test_inspect_eval_archive_reads_like_the_json_log(tmp_path):
    archive = _eval_archive(tmp_path)
    assert detect_format(archive) == "inspect"
    records = list(read_responses(archive))
    assert [r.source.split(":")[-1] for r in records] == [f"samples/{k}_epoch_1.json" for k in range(3)]
    json_records = list(read_responses(INSPECT))
    assert [r.data for r in records] == [r.data for r in json_records]


def test_lm_eval_samples():
    assert detect_format(LM_EVAL) == "lm-eval"
    first, second, third = read_responses(LM_EVAL, model="hf-model", condition="A")
    assert (first.data["item_id"], first.data["model"], first.data["condition"]) == (BASE, "hf-model", "A")
    assert second.data["item_id"].endswith("ipb_p_011_a") and second.data["condition"] == "B"  # doc fields win
    assert "Final verdict" in second.data["response"]  # filtered_resps when resps is empty
    assert third.data["item_id"] is None  # kept: the scorer reports it as a record without an item id


def test_native_jsonl_bad_lines_are_error_records(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_bytes(b'{"item_id": "x", "model": "m", "condition": "A", "response": "r"}\n\n\xff\xfe\n[1]\n{bad\n')
    assert detect_format(path) == "jsonl"
    records = list(read_responses(path, condition="B"))
    assert [r.number for r in records] == [1, 3, 4, 5]
    assert records[0].data["condition"] == "A"  # a record's own field is kept
    assert [r.error.rule for r in records[1:]] == ["encoding", "json", "json"]
    assert records[1].error.line == 3 and "not UTF-8" in records[1].error.message


def test_a_byte_order_mark_at_the_start_is_not_part_of_record_1(tmp_path):
    path = tmp_path / "r.jsonl"
    line = json.dumps({"item_id": "x", "model": "m", "condition": "A", "response": "r"}).encode()
    path.write_bytes(b"\xef\xbb\xbf" + line + b"\n" + line.replace(b'"m"', b'"n"') + b"\n")
    assert detect_format(path) == "jsonl"
    records = list(read_responses(path))
    assert [r.error for r in records] == [None, None] and [r.data["model"] for r in records] == ["m", "n"]


def test_auto_detects_a_native_file_named_json(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"item_id": "x", "model": "m", "condition": "A", "response": "r"}) + "\n")
    assert detect_format(path) == "jsonl"
    assert list(read_responses(path))[0].data["item_id"] == "x"


def test_unknown_format_and_missing_file(tmp_path):
    with pytest.raises(LoadError) as exc:
        list(read_responses(INSPECT, format="inspekt"))
    assert exc.value.suggestion == "inspect"
    with pytest.raises(LoadError, match="no such responses file"):
        list(read_responses(tmp_path / "absent.jsonl"))
    not_a_log = tmp_path / "x.json"
    not_a_log.write_text("[]")
    with pytest.raises(LoadError, match="not an inspect_ai log"):
        list(read_responses(not_a_log, format="inspect"))


def test_records_from_memory():
    records = records_from([{"item_id": "a"}, "text"])
    assert records[0].data == {"item_id": "a"} and records[1].error.rule == "json"


def test_scoring_an_inspect_log_end_to_end(tmp_path):
    items = tmp_path / "items.jsonl"
    items.write_text("".join(json.dumps(i) + "\n" for i in bundled_items(["buffett_acquisition_checklist"])))
    result = run_score(items, _eval_archive(tmp_path), tmp_path / "out",
                       ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=100))
    statuses = [(r["status"], r["reason_code"]) for r in result.records]
    assert statuses == [("scored", None), ("scored", None), ("unscored", "sample_error")]
    assert result.records[0]["metrics"]["verdict_acc"] == 1.0
    assert result.records[1]["metrics"]["verdict_acc"] == 0.0  # the flipped final verdict
    assert result.summary["deltas"]["conditions"] == ["A", "C"]
    assert result.summary["inputs"]["responses"]["format"] == "auto"
