"""New-user report s60 (issue 18): the findings fixed by s60nfix.

N1 (bug kind: a release silently missing an input): ``ipb join A B`` where B held no item (empty, blank lines
only, an empty pipe) wrote A's items with exit 0 and "B: kept 0"; only an all-empty join was refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app

runner = CliRunner()


def _item(ident: str, scenario: int) -> str:
    return json.dumps({"id": ident, "version": 2, "layer": "L7", "question": "q", "scenario": {"s": scenario},
                       "manifest": {"cards": []}})


def _join(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["join", *args])
    return result.exit_code, " ".join(result.output.split())


@pytest.mark.parametrize("content", ["", "\n\n", "  \n\t\n"], ids=["empty", "blank-lines", "whitespace-lines"])
@pytest.mark.parametrize("empty_first", [False, True], ids=["empty-second", "empty-first"])
def test_join_refuses_an_input_with_no_item_among_several(tmp_path, content, empty_first):
    # bug kind: a release silently missing an input (N1). Before: exit 0, "empty.jsonl: kept 0", 2 items written.
    full = tmp_path / "run1.jsonl"
    full.write_text(_item("T-00000000000000aa", 1) + "\n" + _item("T-00000000000000bb", 2) + "\n")
    empty = tmp_path / "empty.jsonl"
    empty.write_text(content)
    out = tmp_path / "rel" / "items.jsonl"
    inputs = [str(empty), str(full)] if empty_first else [str(full), str(empty)]
    code, text = _join(*inputs, "--out", str(out))
    position = 1 if empty_first else 2
    assert code == 1, text
    assert f"no items in {empty} (items file {position} of 2" in text and "nothing written" in text, text
    assert not (tmp_path / "rel").exists()


def test_join_keeps_an_input_whose_items_all_repeat_earlier_ones(tmp_path):
    # Not an empty input: a copy of a run holds items, all dropped as repeats (still exit 0, "kept 0").
    line = _item("T-00000000000000aa", 1) + "\n"
    (tmp_path / "a.jsonl").write_text(line)
    (tmp_path / "b.jsonl").write_text(line)
    out = tmp_path / "rel" / "items.jsonl"
    code, text = _join(str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), "--out", str(out))
    assert code == 0, text
    assert out.read_text() == line


def test_join_of_one_empty_input_keeps_its_message(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    code, text = _join(str(empty), "--out", str(tmp_path / "rel" / "items.jsonl"))
    assert code == 1 and f"no items in {empty}: nothing to join, nothing written" in text, text
