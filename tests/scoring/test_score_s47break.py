"""An items or responses file given compressed (s47break): ``ipb score`` says so and writes nothing.

Before, a gzip responses file gave one "line N is not UTF-8 text" record per chunk of compressed bytes and a
results folder with 0 of 3 records scored; a gzip items file gave one "not a JSON item" line per chunk, every
answer an "unknown item id", and a results folder too. Now either is one load error that names the format and
the command that unpacks it, and no folder is written.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.respond.synthetic import bundled_items, synthetic_responses

runner = CliRunner()

PACKERS = {"gzip": (gzip.compress, "gunzip -k"), "bzip2": (bz2.compress, "bunzip2 -k"),
           "xz": (lzma.compress, "unxz -k")}


def _files(tmp_path: Path) -> tuple[bytes, bytes]:
    items = bundled_items(["graham_net_net_screen"])[:2]
    records = synthetic_responses(items, corruptions=["none"])
    return ("".join(json.dumps(i) + "\n" for i in items).encode(),
            "".join(json.dumps(r) + "\n" for r in records).encode())


@pytest.mark.parametrize("fmt", sorted(PACKERS))
@pytest.mark.parametrize("which", ["items", "responses"])
def test_a_compressed_input_is_one_clear_error(tmp_path: Path, fmt: str, which: str) -> None:
    items, responses = _files(tmp_path)
    pack, command = PACKERS[fmt]
    packed = tmp_path / f"{which}.jsonl.packed"
    packed.write_bytes(pack(items if which == "items" else responses))
    plain_items, plain_responses = tmp_path / "i.jsonl", tmp_path / "r.jsonl"
    plain_items.write_bytes(items)
    plain_responses.write_bytes(responses)
    args = ["score", "-i", str(packed if which == "items" else plain_items),
            "-r", str(packed if which == "responses" else plain_responses), "-o", str(tmp_path / "out"),
            "--no-embeddings"]
    result = runner.invoke(app, args)
    assert result.exit_code != 0
    assert f"{which} file {packed} is compressed ({fmt}), not JSON Lines text" in result.output
    assert f"({command} {packed})" in result.output
    assert "not UTF-8" not in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_the_same_files_unpacked_are_scored(tmp_path: Path) -> None:
    items, responses = _files(tmp_path)
    (tmp_path / "i.jsonl").write_bytes(items)
    (tmp_path / "r.jsonl").write_bytes(responses)
    result = runner.invoke(app, ["score", "-i", str(tmp_path / "i.jsonl"), "-r", str(tmp_path / "r.jsonl"),
                                 "-o", str(tmp_path / "out"), "--no-embeddings"])
    assert result.exit_code == 0, result.output
    assert "scored 2 of 2 record(s)" in result.output
