"""Regression tests for the stop-53 breaker's findings on damaged answer files (/work/notes/s53break.md).

Each test names the finding it pins down. The inputs are made here, small: a log nested 5,000 levels deep, an
``.eval`` archive whose header is not JSON or is a list, a member that inflates past the 64 MiB record limit (or
lies about its size), a cut-off ``.json`` log, a log of an unknown schema, a JSON Lines line longer than the limit,
a FIFO as the items file, a ``usage`` of ``Infinity``, and two perturbs to one ``--out``.
"""

from __future__ import annotations

import json
import os
import struct
import threading
import tracemalloc
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.errors import LoadError
from ipb.scoring.adapters import detect_format, read_responses
from ipb.scoring.items import load_items

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
ITEMS = ROOT / "tests" / "respond" / "data" / "items.jsonl"
MiB = 2**20
ANSWER = "Gate 1: REJECT. Market value far above two-thirds of NCAV.\nFinal verdict: DECLINE"


def _sample(sid: str, text: str = ANSWER) -> dict:
    return {"id": sid, "epoch": 1, "input": "q", "target": "",
            "output": {"model": "x", "completion": text,
                       "choices": [{"message": {"role": "assistant", "content": text}}]},
            "metadata": {"item_id": sid, "condition": "A"}}


def _header() -> dict:
    return {"version": 2, "status": "success",
            "eval": {"model": "openai/x", "task": "t", "created": "2025-01-01T00:00:00+00:00", "dataset": {},
                     "config": {}}}


def _eval(path: Path, members: dict[str, bytes], compression: int = zipfile.ZIP_STORED) -> Path:
    with zipfile.ZipFile(path, "w", compression=compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


# --------------------------------------------------------------------------- finding 1: a deeply nested .json log


def test_finding1_a_deeply_nested_json_log_gives_the_depth_error_not_a_recursion_error(tmp_path: Path) -> None:
    log = tmp_path / "deep.json"
    # the breaker's deep.json: an inspect log whose one sample's input is 5,000 nested arrays
    head = '{"version": 2, "eval": {"model": "openai/x"}, "samples": [{"id": "a", "input": '
    log.write_text(head + "[" * 5000 + "]" * 5000 + "}]}", encoding="utf-8")
    assert detect_format(log) == "inspect"  # it raised RecursionError
    with pytest.raises(LoadError) as caught:
        list(read_responses(log))
    err = caught.value
    assert "JSON nested deeper than 100 levels; ipb reads at most 100" in err.message
    # the 101st bracket: 3 in the head ("samples": [ {...), then 98 of the input's
    assert (err.file, err.line, err.column) == (str(log), 1, len(head) + 98)


def test_finding1_score_on_a_deep_log_exits_1_with_the_message(tmp_path: Path) -> None:
    log = tmp_path / "deep.json"
    log.write_text('{"version": 2, "eval": {"model": "m"}, "samples": [' + "[" * 3000 + "]" * 3000 + "]}",
                   encoding="utf-8")
    result = runner.invoke(app, ["score", "--items", str(ITEMS), "--out", str(tmp_path / "o"), "--no-embeddings",
                                 "--responses", str(log)])
    text = " ".join(result.output.split())
    assert result.exit_code == 1, result.output
    assert "nested deeper than 100 levels" in text and "Traceback" not in text
    assert not (tmp_path / "o" / "responses.jsonl").exists()


# --------------------------------------------------------------------------- finding 2: a bad .eval header


def test_finding2_an_eval_header_that_is_not_json_is_named(tmp_path: Path) -> None:
    log = _eval(tmp_path / "x.eval", {"header.json": b"{not json",
                                      "samples/a_epoch_1.json": json.dumps(_sample("a")).encode()})
    with pytest.raises(LoadError) as caught:
        list(read_responses(log))
    assert caught.value.file == f"{log}:header.json"
    assert "header.json is not a readable log header: not JSON: Expecting property name" in caught.value.message
    assert (caught.value.line, caught.value.column) == (1, 2)


def test_finding2_an_eval_header_that_is_a_list_is_refused_not_ignored(tmp_path: Path) -> None:
    log = _eval(tmp_path / "x.eval", {"header.json": b"[1]",
                                      "samples/a_epoch_1.json": json.dumps(_sample("a")).encode()})
    with pytest.raises(LoadError, match=r"header\.json is a JSON list, not an object"):
        list(read_responses(log))


# --------------------------------------------------------------------------- finding 3: zip bombs and size limits


def test_finding3_the_record_limit_is_respond_s_body_limit() -> None:
    from ipb.respond.client import MAX_BODY_BYTES
    from ipb.scoring._log_limits import MAX_RECORD_BYTES

    assert MAX_RECORD_BYTES == MAX_BODY_BYTES == 64 * MiB


def test_finding3_an_eval_member_over_64_mib_is_one_error_record_read_in_bounded_memory(tmp_path: Path) -> None:
    padded = json.dumps(_sample("big", ANSWER + " " * (65 * MiB)))  # 130 MiB of spaces: deflates to about 130 KB
    log = _eval(tmp_path / "bomb.eval", {"header.json": json.dumps(_header()).encode(),
                                         "samples/big_epoch_1.json": padded.encode(),
                                         "samples/ok_epoch_1.json": json.dumps(_sample("ok")).encode()},
                zipfile.ZIP_DEFLATED)
    del padded
    assert log.stat().st_size < 2 * MiB
    tracemalloc.start()
    try:
        records = list(read_responses(log))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 * MiB, peak  # the member is never inflated (the breaker's 1.6 GB sample took 3.3 GB)
    big, ok = records
    assert big.error is not None and big.source == f"{log}:samples/big_epoch_1.json"
    # the padded text twice (the completion and the choice's content): 130 MiB and some 400 bytes, 130 in whole MiB
    assert big.error.message == "samples/big_epoch_1.json is 130 MiB uncompressed; ipb reads log members of at most 64 MiB"
    assert ok.data is not None and ok.data["response"] == ANSWER


def _lie_about_size(path: Path, member: str, declared: int) -> None:
    """Write ``declared`` as ``member``'s uncompressed size in both its local and its central header."""
    data = bytearray(path.read_bytes())
    name = member.encode()
    local = data.index(b"PK\x03\x04")
    while data[local + 30: local + 30 + len(name)] != name:
        local = data.index(b"PK\x03\x04", local + 4)
    struct.pack_into("<I", data, local + 22, declared)
    central = data.index(b"PK\x01\x02")
    while data[central + 46: central + 46 + len(name)] != name:
        central = data.index(b"PK\x01\x02", central + 4)
    struct.pack_into("<I", data, central + 24, declared)
    path.write_bytes(bytes(data))


def test_finding3_a_member_that_lies_about_its_size_is_never_inflated(tmp_path: Path) -> None:
    body = json.dumps(_sample("liar", ANSWER + " " * (8 * MiB))).encode()  # deflates to about 8 KB
    log = _eval(tmp_path / "liar.eval", {"header.json": json.dumps(_header()).encode(),
                                         "samples/liar_epoch_1.json": body,
                                         "samples/ok_epoch_1.json": json.dumps(_sample("ok")).encode()},
                zipfile.ZIP_DEFLATED)
    compressed = zipfile.ZipFile(log).getinfo("samples/liar_epoch_1.json").compress_size
    _lie_about_size(log, "samples/liar_epoch_1.json", compressed + 100)  # it says: barely larger than its data
    tracemalloc.start()
    try:
        records = list(read_responses(log))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 6 * MiB, peak  # read up to what it declares, not its 8 MiB
    liar, ok = records
    assert liar.error is not None and "samples/liar_epoch_1.json cannot be read from the archive" in liar.error.message
    assert ok.data is not None and ok.data["response"] == ANSWER


def test_finding3_a_jsonl_line_over_64_mib_is_one_bad_record_and_the_next_line_is_read(tmp_path: Path) -> None:
    good = json.dumps({"item_id": "a", "model": "m", "condition": "A", "response": ANSWER})
    path = tmp_path / "r.jsonl"
    with open(path, "wb") as handle:
        handle.write(b'{"response": "')
        handle.seek(64 * MiB + 10)  # a sparse run of NUL bytes: the line is 64 MiB + 10 bytes long
        handle.write(b'"}\n' + good.encode() + b"\n")
    first, second = list(read_responses(path, format="jsonl"))
    assert first.error is not None and first.error.message.startswith("line 1 is longer than 64 MiB; ipb reads "
                                                                       "records of at most 64 MiB")
    assert second.number == 2 and second.data is not None and second.data["response"] == ANSWER


def test_finding3_an_items_line_over_64_mib_is_one_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "items.jsonl"
    with open(path, "wb") as handle:
        handle.write(b"{")
        handle.seek(64 * MiB + 1)
        handle.write(b"}\n")
    items = load_items(path)
    assert [e["line"] for e in items.errors] == [1]
    assert "line 1 is longer than 64 MiB" in items.errors[0]["message"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_finding3_a_fifo_as_the_items_file_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "items.jsonl"
    os.mkfifo(fifo)

    def unblock() -> None:  # a reader that blocked on the FIFO (the bug) gets an empty file after 5 s, and fails
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:  # no reader waiting: the loader did not block
            pass

    timer = threading.Timer(5.0, unblock)
    timer.daemon = True
    timer.start()
    with pytest.raises(LoadError, match="it is a FIFO; ipb reads items only from regular files"):
        load_items(fifo)
    timer.cancel()


# --------------------------------------------------------------------------- finding 6: usage of Infinity


def test_finding6_a_usage_of_infinity_keeps_the_answer_and_drops_the_usage() -> None:
    from ipb.respond.client import _extract

    message = SimpleNamespace(content="x", role="assistant")
    response = SimpleNamespace(choices=[SimpleNamespace(message=message, finish_reason="stop")],
                               usage={"prompt_tokens": float("inf")})
    assert _extract(response) == ("x", "stop", None)  # it raised OverflowError: the answer was lost
    response.usage = {"prompt_tokens": 41, "completion_tokens": float("nan"), "total_tokens": 1e300}
    assert _extract(response)[2] == {"prompt_tokens": 41, "completion_tokens": None, "total_tokens": None}


# --------------------------------------------------------------------------- finding 7: cut-off and new-schema logs


def test_finding7_a_cut_off_json_log_is_told_as_a_cut_off_log(tmp_path: Path) -> None:
    whole = json.dumps({**_header(), "samples": [_sample("a")]})
    log = tmp_path / "trunc.json"
    log.write_text(whole[:300], encoding="utf-8")
    assert detect_format(log) == "inspect"  # it was read as JSON Lines: "line 1 is not JSON ... ipb respond drops"
    with pytest.raises(LoadError) as caught:
        list(read_responses(log))
    message = caught.value.message
    assert "is not a readable inspect_ai log" in message and "a log cut off" in message
    assert "ipb respond" not in message


def test_finding7_a_log_of_an_unknown_schema_names_it(tmp_path: Path) -> None:
    log = tmp_path / "v99.json"
    sample = {"id": "a", "epoch": 1, "metadata": {"item_id": "a", "condition": "A"},
              "output": {"generations": [{"text": ANSWER}]}}
    log.write_text(json.dumps({"version": 99, "status": "success", "eval": {"model": "openai/x"},
                               "samples": [sample]}), encoding="utf-8")
    (record,) = list(read_responses(log))
    assert record.error is not None
    assert record.error.message == ("sample 'a' has no answer where ipb looks for one: its output holds 'generations', "
                                    "not 'completion' or 'choices'; the log is inspect_ai schema version 99 (ipb's "
                                    "own reader knows versions 1, 2)")


# --------------------------------------------------------------------------- finding 5: two perturbs, one --out


def test_finding5_a_second_perturb_to_a_busy_out_is_refused(tmp_path: Path) -> None:
    from ipb._files import output_lock

    out = tmp_path / "same.jsonl"
    base = ROOT / "frameworks/scenarios/buffett_acquisition_checklist/ipb_p_011_base.yaml"
    args = ["perturb", "--card", "buffett_acquisition_checklist", "--base", str(base), "--n", "2", "--seed", "1",
            "--out", str(out)]
    with output_lock(out):  # the first run, still working
        result = runner.invoke(app, args)
    text = " ".join(result.output.split())
    assert result.exit_code == 1, result.output
    assert f"--out {out} is being written by another ipb run (it holds {tmp_path / '.same.jsonl.lock'})" in text
    assert not out.exists()
    result = runner.invoke(app, args)  # once the first is done, the lock is gone and the run writes
    assert result.exit_code == 0, result.output
    assert out.exists() and not (tmp_path / ".same.jsonl.lock").exists()
