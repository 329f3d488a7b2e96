"""inspect_ai, for real: its mock model answers the registered task; ipb scores the default log.

These tests run inspect_ai itself (``mockllm/model``), write its default ``.eval`` log
(Zstandard-compressed zip members, which Python's zipfile cannot read) and read it back
with inspect's own reader through ``ipb score``. The mock model is given outputs that carry
their token usage, so inspect never needs a tokenizer download.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

inspect_ai = pytest.importorskip("inspect_ai", reason="inspect_ai not installed (pip install 'ipb[inspect]')")

from typer.testing import CliRunner  # noqa: E402

from ipb.cli import app  # noqa: E402
from ipb.scoring.adapters import read_responses  # noqa: E402


RUNNER = """
import json, sys
import inspect_ai
from inspect_ai.model import ModelOutput, ModelUsage, get_model

task, items, answers_file = sys.argv[1:4]
if task == "direct":
    from ipb.integrations.inspect_task import investphilbench
    task = investphilbench(items=items)
outputs = []
for text in json.load(open(answers_file, encoding="utf-8")):
    out = ModelOutput.from_content(model="mockllm/model", content=text)
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    outputs.append(out)
(log,) = inspect_ai.eval(task, model=get_model("mockllm/model", custom_outputs=outputs), log_dir="logs",
                         display="none", task_args={"items": items}, max_samples=1)
assert log.status == "success", log.error
print(log.location)
"""


def _run(task: str, items_file: Path, answers: list[str], where: Path) -> Path:
    """Run inspect_ai's eval with its mock model in a fresh interpreter, from ``where``.

    A fresh interpreter started outside the repository: from its root, inspect would read
    "ipb/investphilbench" as a path (the root has an ipb/ folder) and find the build's
    egg-info before the installed distribution.
    """
    where.mkdir(parents=True, exist_ok=True)
    (where / "answers.json").write_text(json.dumps(answers), encoding="utf-8")
    (where / "run.py").write_text(RUNNER, encoding="utf-8")
    proc = subprocess.run([sys.executable, "run.py", task, str(items_file), "answers.json"], cwd=where,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    path = Path(proc.stdout.strip().splitlines()[-1].removeprefix("file://"))
    return path if path.is_absolute() else where / path


def test_registered_task_runs_and_scores_gold_answers(items_file, items, gold_answers, tmp_path):
    answers = [gold_answers[item["id"]] for item in items]
    log_path = _run("ipb/investphilbench", items_file, answers, tmp_path / "run")
    assert log_path.suffix == ".eval"
    log = inspect_ai.log.read_eval_log(str(log_path))
    assert len(log.samples) == 3
    for sample in log.samples:
        (score,) = sample.scores.values()
        assert score.value == {"verdict_acc": 1.0, "gra": 1.0, "ogrs": 1.0}
        assert score.metadata["status"] == "scored"
        assert score.metadata["parsed"]["final_verdict"] == sample.metadata["item"]["investment_verdict"]
    means = {s.name: s.metrics["mean"].value for s in log.results.scores}
    assert means == {"verdict_acc": 1.0, "gra": 1.0, "ogrs": 1.0}, [s.model_dump() for s in log.results.scores]


def test_unreadable_answers_count_as_zero(items_file, tmp_path):
    log_path = _run("ipb/investphilbench", items_file, ["I cannot help with that."] * 3, tmp_path / "run")
    log = inspect_ai.log.read_eval_log(str(log_path))
    for sample in log.samples:
        (score,) = sample.scores.values()
        assert score.value == {"verdict_acc": 0.0, "gra": 0.0, "ogrs": 0.0}
        assert score.metadata["status"] != "scored"


def test_default_eval_log_is_read_with_inspects_reader(items_file, items, gold_answers, tmp_path):
    answers = [gold_answers[item["id"]] for item in items]
    log_path = _run("direct", items_file, answers, tmp_path / "run")
    records = list(read_responses(log_path))
    assert [r.error for r in records] == [None] * 3
    assert {r.data["model"] for r in records} == {"mockllm/model"}
    assert sorted(r.data["item_id"] for r in records) == sorted(item["id"] for item in items)
    assert {r.data["condition"] for r in records} == {"A"}
    out = tmp_path / "results"
    result = CliRunner().invoke(app, ["score", "--items", str(items_file), "--responses", str(log_path),
                                      "--out", str(out), "--no-embeddings", "--no-progress", "--resamples", "200"])
    assert result.exit_code == 0, result.output
    scored = [json.loads(line) for line in (out / "responses.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["status"] for r in scored] == ["scored"] * 3
    assert all(r["metrics"]["verdict_acc"] == 1.0 and r["model"] == "mockllm/model" for r in scored)


def test_without_inspect_a_zstandard_log_is_refused_with_the_extra_named(items_file, items, gold_answers, tmp_path):
    answers = [gold_answers[item["id"]] for item in items]
    log_path = _run("ipb/investphilbench", items_file, answers, tmp_path / "run")
    # A fresh interpreter in which inspect_ai (and the zipfile patch it brings) cannot be imported.
    code = ("import sys; sys.modules['inspect_ai'] = None; sys.modules['zipfile_zstd'] = None\n"
            "from ipb.errors import LoadError\nfrom ipb.scoring.adapters import read_responses\n"
            "try:\n    list(read_responses(sys.argv[1]))\nexcept LoadError as exc:\n    print(exc.render())\n")
    proc = subprocess.run([sys.executable, "-c", code, str(log_path)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Zstandard" in proc.stdout and "pip install 'ipb[inspect]'" in proc.stdout
    assert str(log_path) in proc.stdout
