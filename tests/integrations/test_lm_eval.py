"""lm-evaluation-harness, for real: its dummy model runs the task ipb writes; ipb scores its samples."""

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
from ipb.integrations.lm_eval import process_results
from ipb.scoring.adapters import read_responses

runner = CliRunner()


def _lm_eval() -> list[str]:
    pytest.importorskip("lm_eval", reason="lm-eval not installed (pip install 'ipb[lmeval]')")
    exe = shutil.which("lm_eval", path=str(Path(sys.executable).parent)) or shutil.which("lm_eval")
    return [exe] if exe else [sys.executable, "-m", "lm_eval"]


@pytest.fixture(scope="module")
def task_dir(items_file, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("lm_eval") / "task"
    result = runner.invoke(app, ["lm-eval-task", str(items_file), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_the_task_folder_holds_one_document_per_item(task_dir, items):
    docs = [json.loads(line) for line in (task_dir / "ipb_l7.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [d["item_id"] for d in docs] == [item["id"] for item in items]
    assert all(d["condition"] == "A" and d["target"] == item["investment_verdict"] for d, item in zip(docs, items))
    assert all(item["question"] in d["prompt"] for d, item in zip(docs, items))
    assert "process_results: !function ipb_hooks.process_results" in (task_dir / "ipb_l7.yaml").read_text()


def test_process_results_scores_a_gold_answer_one_and_an_unreadable_one_zero(task_dir, items, gold_answers):
    doc = json.loads((task_dir / "ipb_l7.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert process_results(doc, [gold_answers[doc["item_id"]]]) == {"verdict_acc": 1.0, "gra": 1.0, "ogrs": 1.0}
    assert process_results(doc, ["lol"]) == {"verdict_acc": 0.0, "gra": 0.0, "ogrs": 0.0}


def test_lm_eval_dummy_model_runs_the_task_and_ipb_scores_its_samples(task_dir, items_file, tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "HF_HOME": str(tmp_path / "hf")}
    proc = subprocess.run([*_lm_eval(), "--model", "dummy", "--include_path", str(task_dir), "--tasks", "ipb_l7",
                           "--log_samples", "--output_path", str(tmp_path / "out")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (results_file,) = (tmp_path / "out").rglob("results_*.json")
    results = json.loads(results_file.read_text(encoding="utf-8"))["results"]["ipb_l7"]
    # The dummy model answers "lol": unreadable, so every metric is 0 and counted, not left out.
    assert {k: results[k] for k in ("verdict_acc,none", "gra,none", "ogrs,none")} == \
        {"verdict_acc,none": 0.0, "gra,none": 0.0, "ogrs,none": 0.0}
    assert results["sample_len"] == 3
    (samples,) = (tmp_path / "out").rglob("samples_ipb_l7_*.jsonl")
    records = list(read_responses(samples))
    assert {r.data["model"] for r in records} == {"dummy"}
    assert {r.data["task"] for r in records} == {"ipb_l7"}
    assert {r.data["response"] for r in records} == {"lol"}
    result = runner.invoke(app, ["score", "--items", str(items_file), "--responses", str(samples),
                                 "--out", str(tmp_path / "scored"), "--no-embeddings", "--no-progress",
                                 "--resamples", "100"])
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "scored" / "summary.json").read_text(encoding="utf-8"))
    assert summary["counts"]["records"] == 3 and summary["counts"]["scored"] == 0


def test_the_default_task_name_follows_the_items_layer(items_file, tmp_path):
    """s43user: a file of L8 items made the task ``ipb_l7``; now L8 items are ``ipb_l8`` and a mix is ``ipb``."""
    lines = items_file.read_text(encoding="utf-8").splitlines()
    as_l8 = [json.dumps({**json.loads(line), "layer": "L8"}) for line in lines]
    for name, body in (("ipb_l7", lines), ("ipb_l8", as_l8), ("ipb", [as_l8[0], *lines[1:]])):
        file = tmp_path / f"{name}-items.jsonl"
        file.write_text("".join(line + "\n" for line in body), encoding="utf-8")
        for copies in items_file.parent.glob("ipb-cards"):
            if not (tmp_path / "ipb-cards").exists():
                shutil.copytree(copies, tmp_path / "ipb-cards")
        out = tmp_path / f"{name}-task"
        result = runner.invoke(app, ["lm-eval-task", str(file), "--out", str(out)])
        assert result.exit_code == 0, result.output
        assert sorted(p.name for p in out.glob("*.yaml")) == [f"{name}.yaml"], name
        assert f"--tasks {name} " in result.output
