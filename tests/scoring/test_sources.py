"""Several responses files into one run (ipb.scoring.sources): what is refused, with what message, and that nothing
is written then. Hand-written records; the real inspect_ai / lm-eval runs are in tests/integrations/test_several_logs.py.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.errors import ErrorGroup, LoadError
from ipb.scoring.adapters import InputRecord
from ipb.scoring.sources import check_across_files, read_response_files, response_files, slot_of

runner = CliRunner()


def _jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return path


def _rec(item: str, model: str = "m", condition: str = "A", response: str = "PROCEED", **more) -> dict:
    return {"item_id": item, "model": model, "condition": condition, "response": response, **more}


def _inspect_json(path: Path, model: str, samples: list[dict]) -> Path:
    path.write_text(json.dumps({"version": 2, "eval": {"model": model, "metadata": {"condition": "A"}},
                                "samples": samples}), encoding="utf-8")
    return path


# (name, files {name: rows or bytes}, message the refusal must hold); {tmp} is the test's folder
REFUSED = [
    ("empty file", {"a.jsonl": [_rec("x")], "b.jsonl": b""},
     "{tmp}/b.jsonl holds no response record (an empty file, or a log without samples)"),
    ("blank lines only", {"a.jsonl": [_rec("x")], "b.jsonl": b"\n\n  \n"},
     "{tmp}/b.jsonl holds no response record"),
    ("not JSON at all", {"a.jsonl": [_rec("x")], "b.jsonl": b"model,item\nm,x\n"},
     "{tmp}/b.jsonl is not a responses file or log ipb reads: none of its 2 record(s) is a response "
     "(record 1: line 1 is not JSON"),
    ("an items file given as responses", {"a.jsonl": [_rec("x")], "b.jsonl": [{"id": "x", "grp": {}}]},
     "none of its 1 record(s) is a response (no record has a 'response' field; record 1 has grp, id)"),
    ("a zip that is no log", {"a.jsonl": [_rec("x")], "b.eval": "zip"}, "{tmp}/b.eval holds no response record"),
    ("the same answer in two JSONL files", {"a.jsonl": [_rec("x"), _rec("y")], "b.jsonl": [_rec("z"), _rec("y", response="REJECT")]},
     "item 'y', model 'm', condition A is answered in two files: {tmp}/a.jsonl:2 (file 1, record 2) and "
     "{tmp}/b.jsonl:2 (file 2, record 2)"),
    ("the same slot under another condition label", {"a.jsonl": [_rec("x", condition="closed_book")], "b.jsonl": [_rec("x")]},
     "item 'x', model 'm', condition A is answered in two files"),
    ("the same epoch of an inspect sample and a JSONL record",
     {"a.json": "inspect", "b.jsonl": [_rec("x", epoch=1)]},
     "item 'x', model 'm', condition A, epoch 1 is answered in two files: {tmp}/a.json:samples[0] (id x, epoch 1) "
     "(file 1, record 1) and {tmp}/b.jsonl:1 (file 2, record 1)"),
]


def _write(tmp: Path, files: dict) -> list[Path]:
    out = []
    for name, content in files.items():
        path = tmp / name
        if content == "zip":
            with zipfile.ZipFile(path, "w") as z:
                z.writestr("readme.txt", "not a log")
        elif content == "inspect":
            _inspect_json(path, "m", [{"id": "x", "epoch": 1, "output": {"completion": "PROCEED"}}])
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            _jsonl(path, content)
        out.append(path)
    return out


@pytest.mark.parametrize("files, message", [(f, m) for _, f, m in REFUSED], ids=[n for n, _, _ in REFUSED])
def test_a_bad_set_of_files_is_refused_with_a_located_message_and_nothing_is_written(tmp_path, files, message):
    paths = _write(tmp_path, files)
    items = _jsonl(tmp_path / "items.jsonl", [])
    args = ["score", "--items", str(items), "--out", str(tmp_path / "out"), "--no-embeddings", "--no-progress"]
    for p in paths:
        args += ["--responses", str(p)]
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    assert message.format(tmp=tmp_path) in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()  # never a partial output folder


def test_a_file_given_twice_directly_or_through_its_folder_is_refused(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    log = _inspect_json(logs / "run.json", "m", [{"id": "x", "epoch": 1, "output": {"completion": "PROCEED"}}])
    with pytest.raises(LoadError, match=r"run.json is given twice \(--responses 1 and 2\)"):
        response_files([log, logs])


def test_a_folder_is_its_logs_at_any_depth_in_path_order_and_never_a_native_jsonl(tmp_path):
    root = tmp_path / "runs"
    (root / "b").mkdir(parents=True)
    (root / "a").mkdir()
    _inspect_json(root / "b" / "2.json", "m", [])
    (root / "a" / "9.eval").write_bytes(b"")
    _jsonl(root / "a" / "samples_ipb_l7_2026-01-01T00-00-00.jsonl", [])
    _jsonl(root / "responses.jsonl", [_rec("x")])  # a results folder's own file: not a log
    (root / "a" / "results_2026-01-01T00-00-00.json").write_text('{"results": {}}', encoding="utf-8")
    found = [p.relative_to(root).as_posix() for p in response_files([root])]
    assert found == ["a/9.eval", "a/samples_ipb_l7_2026-01-01T00-00-00.jsonl", "b/2.json"]
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(LoadError, match="holds no inspect_ai log"):
        response_files([empty])


def test_files_are_read_in_the_order_given_and_each_record_names_its_file(tmp_path):
    a = _jsonl(tmp_path / "a.jsonl", [_rec("x", model="a"), _rec("y", model="a")])
    b = _jsonl(tmp_path / "b.jsonl", [_rec("x", model="b")])
    records, files = read_response_files([b, a])
    assert [(r.file, r.number, r.source) for r in records] == [(1, 1, f"{b}:1"), (2, 1, f"{a}:1"), (2, 2, f"{a}:2")]
    assert [(f["file"], f["source"], f["format"], f["n_records"]) for f in files] == \
        [(1, str(b), "jsonl", 1), (2, str(a), "jsonl", 2)]
    one, _ = read_response_files([a])
    assert [r.file for r in one] == [None, None]  # one file: records as before, no file number
    empty = _jsonl(tmp_path / "empty.jsonl", [])
    # one empty file alone is refused too (s52user: it was an empty run, "scored 0 of 0", exit 0)
    with pytest.raises(LoadError, match="empty.jsonl holds no response record .*: nothing to score, nothing written"):
        read_response_files([empty])
    with pytest.raises(LoadError, match="empty.jsonl holds no response record"):
        read_response_files([a, empty])


def test_a_repeat_inside_one_file_and_slots_no_record_claims_are_left_to_scoring():
    inside = [InputRecord(1, "a:1", _rec("x"), file=1), InputRecord(2, "a:2", _rec("x"), file=1)]
    check_across_files(inside)  # the unscored `duplicate` record of one file, as before
    retried = [InputRecord(1, "a:1", _rec("x", response=""), file=1), InputRecord(1, "b:1", _rec("x"), file=2)]
    check_across_files(retried)  # an empty answer claims nothing: its retry in another file is scored
    other_card = [InputRecord(1, "a:1", _rec("x", card="c1"), file=1), InputRecord(1, "b:1", _rec("x", card="c2"), file=2)]
    check_across_files(other_card)  # two cards of one L8 item are two slots


def test_many_clashes_list_the_first_twenty_then_a_count_then_what_to_do():
    a = [InputRecord(n, f"a.jsonl:{n}", _rec(f"i{n}"), file=1) for n in range(1, 26)]
    b = [InputRecord(n, f"b.jsonl:{n}", _rec(f"i{n}"), file=2) for n in range(1, 26)]
    with pytest.raises(ErrorGroup) as caught:
        check_across_files(a + b)
    messages = [e.message for e in caught.value.errors]
    assert len(messages) == 22 and messages[0].startswith("item 'i1', model 'm', condition A is answered in two files")
    assert messages[20] == "... and 5 more answer(s) found in two files"
    assert messages[21].startswith("nothing was scored or written")
    assert [(e.file, e.line) for e in caught.value.errors[:2]] == [("b.jsonl", 1), ("b.jsonl", 2)]


def test_a_slot_is_item_model_condition_letter_epoch_card_and_corruptions():
    assert slot_of(_rec("x", condition="oracle", epoch=2, card="c", corruptions=[{"name": "swap"}, "drop"])) == \
        ("x", "m", "C", "2", "c", ("swap", "drop"))
    assert slot_of({"item_id": "x", "model": "m", "condition": "A"}) is None  # no response: claims nothing


def test_the_run_and_the_files_check_build_one_slot_key_twin_kind():
    # twin kind: run._begin and sources.slot_of each rebuilt the key; now both call adapters.answer_slot
    from ipb.scoring import adapters, run, sources
    assert run.answer_slot is adapters.answer_slot and sources.answer_slot is adapters.answer_slot
    # the key ignores the response (an empty one is still a repeat in a run); slot_of adds "a text claims a slot"
    assert adapters.answer_slot(_rec(7, condition="closed_book", response="", card=3, corruptions="swap")) == \
        ("7", "m", "A", "null", None, ())
    assert slot_of(_rec(7, condition="closed_book", response="")) is None
    assert adapters.answer_slot(_rec("x", model="  ")) is None and adapters.answer_slot(_rec(True)) is None


def test_a_quoted_pattern_is_its_matching_files_in_sorted_order_and_no_match_is_refused(tmp_path):
    for name in ("m2/samples_t_1.jsonl", "m1/samples_t_2.jsonl", "m1/results_2.json"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("{}\n", encoding="utf-8")
    found = response_files([f"{tmp_path}/*/samples_*.jsonl"])
    assert [p.relative_to(tmp_path).as_posix() for p in found] == ["m1/samples_t_2.jsonl", "m2/samples_t_1.jsonl"]
    with pytest.raises(LoadError, match=r"no file matches the pattern .*\*\.eval \(--responses 2\)"):
        response_files([found[0], f"{tmp_path}/*.eval"])
