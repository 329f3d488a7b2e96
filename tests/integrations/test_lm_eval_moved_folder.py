"""s52newuser, finding 2: the folder ``ipb lm-eval-task`` writes works after it is moved (regression: absolute path).

The yaml recorded the documents' absolute path, so a folder copied to another machine (or only renamed) failed in
lm-eval with FileNotFoundError. Now the yaml names the documents by file name and the hooks read them from beside
themselves; the test writes the folder, moves it, deletes the original place, runs lm-eval's dummy model on the moved
folder and has ``ipb score`` read the samples.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.errors import LoadError



def _lm_eval() -> list[str]:
    pytest.importorskip("lm_eval", reason="lm-eval not installed (pip install 'ipb[lmeval]')")
    exe = shutil.which("lm_eval", path=str(Path(sys.executable).parent)) or shutil.which("lm_eval")
    return [exe] if exe else [sys.executable, "-m", "lm_eval"]

runner = CliRunner()


def test_the_yaml_names_no_absolute_path(items_file, tmp_path):
    out = tmp_path / "written"
    assert runner.invoke(app, ["lm-eval-task", str(items_file), "--out", str(out)]).exit_code == 0
    text = (out / "ipb_l7.yaml").read_text(encoding="utf-8")
    assert str(tmp_path) not in text
    assert "custom_dataset: !function ipb_hooks.load_docs" in text
    assert 'data_file: "ipb_l7.jsonl"' in text


def test_load_documents_reads_the_file_beside_the_hooks_and_refuses_a_path(items_file, tmp_path):
    from ipb.integrations.lm_eval import load_documents

    out = tmp_path / "written"
    assert runner.invoke(app, ["lm-eval-task", str(items_file), "--out", str(out)]).exit_code == 0
    docs = load_documents(out, data_file="ipb_l7.jsonl", version=1.0)
    assert docs["test"].num_rows == 3  # the fixture's three items under condition A
    for bad in ("../ipb_l7.jsonl", "missing.jsonl"):
        with pytest.raises(LoadError, match="not in the task folder"):
            load_documents(out, data_file=bad)


def test_a_moved_task_folder_runs_under_lm_eval_and_ipb_scores_it(items_file, tmp_path):
    written = tmp_path / "written"
    assert runner.invoke(app, ["lm-eval-task", str(items_file), "--out", str(written)]).exit_code == 0
    moved = tmp_path / "elsewhere" / "moved_task"
    moved.parent.mkdir()
    shutil.move(str(written), str(moved))
    assert not written.exists()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "HF_HOME": str(tmp_path / "hf")}
    proc = subprocess.run([*_lm_eval(), "--model", "dummy", "--include_path", str(moved), "--tasks", "ipb_l7",
                           "--log_samples", "--output_path", str(tmp_path / "out")],
                          cwd=tmp_path / "elsewhere", env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (results_file,) = (tmp_path / "out").rglob("results_*.json")
    results = json.loads(results_file.read_text(encoding="utf-8"))["results"]["ipb_l7"]
    assert results["sample_len"] == 3
    result = runner.invoke(app, ["score", "--items", str(items_file), "--responses", str(tmp_path / "out"),
                                 "--out", str(tmp_path / "scored"), "--no-embeddings", "--no-progress",
                                 "--resamples", "100"])
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "scored" / "summary.json").read_text(encoding="utf-8"))
    # the dummy model answers "lol" to each of the three documents: three records read, none scoreable
    assert summary["counts"]["records"] == 3 and summary["counts"]["scored"] == 0
