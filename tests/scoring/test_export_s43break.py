"""``ipb export`` never writes over the results it reads, and a results file that is not text is a located error
(break43).

- **Input overwritten** (data loss): ``ipb export DIR --out DIR/responses.jsonl`` wrote the Parquet table over the
  scored responses and exited 0; ``--out DIR/summary.json`` replaced the summary. Both are refused now, before any
  write, with the file named.
- **Traceback on a non-UTF-8 responses.jsonl**: the next export of that folder raised ``UnicodeDecodeError`` (a
  traceback); it is now a ``LoadError`` naming the file and the first bad byte.

Results folders written here by hand: one record of kind ``ipb.score.response``, as ``ipb score`` writes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.errors import LoadError
from ipb.scoring.export import write_export

RECORD = {"kind": "ipb.score.response", "record": 1, "model": "m", "condition": "A", "item_id": "I-1",
          "layer": "L1", "status": "scored", "metrics": {"basp_strict": 1.0}}


def _results(folder: Path) -> bytes:
    folder.mkdir()
    text = json.dumps(RECORD) + "\n"
    (folder / "responses.jsonl").write_text(text, encoding="utf-8")
    (folder / "summary.json").write_text("{}\n", encoding="utf-8")
    return text.encode("utf-8")


@pytest.mark.parametrize("name", ["responses.jsonl", "summary.json"])
def test_regression_data_loss_export_over_the_results_own_file_is_refused(tmp_path: Path, name: str) -> None:
    res = tmp_path / "res"
    before = _results(res)
    kept = (res / name).read_bytes()
    with pytest.raises(LoadError, match=f"results' own {name}"):
        write_export(res, res / name, format="csv")
    # the same file by another spelling of its path
    with pytest.raises(LoadError, match=f"results' own {name}"):
        write_export(res, tmp_path / "res" / ".." / "res" / name, format="csv")
    assert (res / name).read_bytes() == kept and (res / "responses.jsonl").read_bytes() == before


def test_a_table_inside_the_results_folder_is_still_written(tmp_path: Path) -> None:
    res = tmp_path / "res"
    _results(res)
    assert write_export(res, res / "table.csv", format="csv") == 1
    assert (res / "table.csv").read_text(encoding="utf-8").splitlines()[0].startswith("export_version")


def test_an_out_ending_in_a_slash_names_a_folder_and_is_refused(tmp_path: Path) -> None:
    res = tmp_path / "res"
    _results(res)
    with pytest.raises(LoadError, match="names a folder"):
        write_export(res, f"{tmp_path / 'exp'}/", format="csv")
    assert not (tmp_path / "exp").exists()


def test_regression_traceback_a_responses_file_that_is_not_text_is_a_located_error(tmp_path: Path) -> None:
    res = tmp_path / "res"
    _results(res)
    (res / "responses.jsonl").write_bytes(b"PAR1\x00\xb0\xff")  # what a Parquet table over it starts like
    result = CliRunner().invoke(app, ["export", str(res), "--out", str(tmp_path / "t.csv"), "--format", "csv"])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "not UTF-8 text (byte 5)" in result.output
    assert "responses.jsonl" in result.output
