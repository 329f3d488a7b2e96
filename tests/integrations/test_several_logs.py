"""Several logs, one leaderboard: ``ipb score --responses A --responses B`` with real inspect_ai and lm-eval runs.

inspect_ai runs its mock model twice (``mockllm/alice`` answers every item faithfully, ``mockllm/bob`` refuses
every one), each into its own default ``.eval`` log; lm-eval's dummy model (which answers "lol") writes a samples
file. ipb scores them together and the figures are worked out by hand: a faithful answer scores 1 on VerdictAcc,
a refusal or an unreadable answer 0 (failures count, the default).
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

runner = CliRunner()

RUNNER = """
import json, sys
import inspect_ai
from inspect_ai.model import ModelOutput, ModelUsage, get_model

model, items, answers_file = sys.argv[1:4]
outputs = []
for text in json.load(open(answers_file, encoding="utf-8")):
    out = ModelOutput.from_content(model=model, content=text)
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    outputs.append(out)
(log,) = inspect_ai.eval("ipb/investphilbench", model=get_model(model, custom_outputs=outputs), log_dir="logs",
                         display="none", task_args={"items": items}, max_samples=1)
assert log.status == "success", log.error
print(log.location)
"""


def _inspect_run(model: str, items_file: Path, answers: list[str], where: Path) -> Path:
    """One real inspect_ai eval of the registered task with the mock model named ``model``; its ``.eval`` log."""
    pytest.importorskip("inspect_ai", reason="inspect_ai not installed (pip install 'ipb[inspect]')")
    where.mkdir(parents=True, exist_ok=True)
    (where / "answers.json").write_text(json.dumps(answers), encoding="utf-8")
    (where / "run.py").write_text(RUNNER, encoding="utf-8")
    # a fresh interpreter outside the repository (see tests/integrations/test_inspect.py for why)
    proc = subprocess.run([sys.executable, "run.py", model, str(items_file), "answers.json"], cwd=where,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    path = Path(proc.stdout.strip().splitlines()[-1].removeprefix("file://"))
    return path if path.is_absolute() else where / path


@pytest.fixture(scope="module")
def two_logs(items_file, items, gold_answers, tmp_path_factory) -> tuple[Path, Path]:
    """alice's log (faithful answers) and bob's (refusals), each written by its own inspect_ai run."""
    root = tmp_path_factory.mktemp("two_logs")
    alice = _inspect_run("mockllm/alice", items_file, [gold_answers[i["id"]] for i in items], root / "alice")
    bob = _inspect_run("mockllm/bob", items_file, ["I cannot help with that request."] * len(items), root / "bob")
    return alice, bob


def _score(items_file: Path, responses: list[Path], out: Path, *extra: str):
    args = ["score", "--items", str(items_file), "--out", str(out), "--no-embeddings", "--no-progress",
            "--resamples", "50", *extra]
    for r in responses:
        args += ["--responses", str(r)]
    return runner.invoke(app, args)


def _records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "responses.jsonl").read_text(encoding="utf-8").splitlines()]


def _means(summary: dict, metric: str) -> dict[str, float]:
    return {m: g["metrics"][metric]["mean"] for m, g in summary["groups"]["model"].items()}


def test_two_inspect_logs_score_into_one_leaderboard_each_record_naming_its_log(two_logs, items_file, items, tmp_path):
    alice, bob = two_logs
    assert alice.suffix == bob.suffix == ".eval"
    result = _score(items_file, [alice, bob], tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "mockllm/alice" in result.output and "mockllm/bob" in result.output  # both rows of one leaderboard
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    # alice: 3 faithful answers, VerdictAcc 1 each; bob: 3 refusals, 0 each (counted)
    assert _means(summary, "verdict_acc") == {"mockllm/alice": 1.0, "mockllm/bob": 0.0}
    assert summary["counts"]["records"] == 6 and summary["counts"]["refusals"] == 3
    files = summary["inputs"]["responses"]["files"]
    assert [(f["file"], f["source"], f["format"], f["n_records"]) for f in files] == \
        [(1, str(alice), "inspect", 3), (2, str(bob), "inspect", 3)]
    records = _records(tmp_path / "out")
    assert [(r["file"], r["model"]) for r in records] == [(1, "mockllm/alice")] * 3 + [(2, "mockllm/bob")] * 3
    assert all(r["source"].startswith(f"{alice if r['file'] == 1 else bob}:samples/") for r in records)
    assert sorted(r["item_id"] for r in records[:3]) == sorted(i["id"] for i in items)

    # the report's drill-down reads each answer back from its own log
    from ipb.report.data import load_results

    data = load_results(tmp_path / "out")
    by_model = {r.model: r for r in data.responses}
    assert by_model["mockllm/bob"].text == "I cannot help with that request."
    assert by_model["mockllm/bob"].source is not None and by_model["mockllm/bob"].source.startswith(str(bob))
    assert all(r.text is not None and r.text_note is None for r in data.responses)


def test_a_folder_of_logs_is_its_logs_in_name_order_and_the_bytes_repeat(two_logs, items_file, tmp_path):
    alice, bob = two_logs
    folder = tmp_path / "logs"
    folder.mkdir()
    shutil.copy(alice, folder / "a.eval")
    shutil.copy(bob, folder / "b.eval")
    (folder / "logs.json").write_text('{"not": "a log"}', encoding="utf-8")  # not an eval log: not picked up
    first = _score(items_file, [folder], tmp_path / "one")
    assert first.exit_code == 0, first.output
    again = _score(items_file, [folder / "a.eval", folder / "b.eval"], tmp_path / "two")
    assert again.exit_code == 0, again.output
    for name in ("responses.jsonl", "summary.json"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


def test_another_file_order_changes_the_record_order_not_the_figures(two_logs, items_file, tmp_path):
    alice, bob = two_logs
    assert _score(items_file, [alice, bob], tmp_path / "ab").exit_code == 0
    assert _score(items_file, [bob, alice], tmp_path / "ba").exit_code == 0
    ab, ba = (json.loads((tmp_path / d / "summary.json").read_text(encoding="utf-8")) for d in ("ab", "ba"))
    assert ab["groups"] == ba["groups"] and ab["counts"] == ba["counts"]
    assert [r["model"] for r in _records(tmp_path / "ba")][:3] == ["mockllm/bob"] * 3


def test_the_same_log_twice_under_two_names_is_refused_naming_both_and_writes_nothing(two_logs, items_file, tmp_path):
    alice, _ = two_logs
    copy = tmp_path / "alice-again.eval"
    shutil.copy(alice, copy)
    result = _score(items_file, [alice, copy], tmp_path / "out")
    text = result.output + (result.stderr if result.stderr_bytes is not None else "")
    assert result.exit_code == 1 and "Traceback" not in text
    assert result.output.count("is answered in two files") == 3  # one per item, each naming both records
    assert f"{alice}:samples/" in text and f"{copy}:samples/" in text and "(file 1, record 1)" in text
    assert "nothing was scored or written" in text
    assert not (tmp_path / "out").exists()


def test_the_same_log_given_twice_is_refused(two_logs, items_file, tmp_path):
    alice, _ = two_logs
    result = _score(items_file, [alice, alice], tmp_path / "out")
    text = result.output + (result.stderr if result.stderr_bytes is not None else "")
    assert result.exit_code == 1 and "is given twice (--responses 1 and 2)" in text
    assert not (tmp_path / "out").exists()


def _lm_eval() -> list[str]:
    pytest.importorskip("lm_eval", reason="lm-eval not installed (pip install 'ipb[lmeval]')")
    exe = shutil.which("lm_eval", path=str(Path(sys.executable).parent)) or shutil.which("lm_eval")
    return [exe] if exe else [sys.executable, "-m", "lm_eval"]


def test_an_lm_eval_samples_file_and_a_jsonl_file_score_together(items_file, items, gold_answers, tmp_path):
    command = _lm_eval()
    task = tmp_path / "task"
    made = runner.invoke(app, ["lm-eval-task", str(items_file), "--out", str(task)])
    assert made.exit_code == 0, made.output
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "HF_HOME": str(tmp_path / "hf")}
    proc = subprocess.run([*command, "--model", "dummy", "--include_path", str(task), "--tasks", "ipb_l7",
                           "--log_samples", "--output_path", str(tmp_path / "lm")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (samples,) = (tmp_path / "lm").rglob("samples_*.jsonl")
    native = tmp_path / "alice.jsonl"
    native.write_text("".join(json.dumps({"item_id": i["id"], "model": "alice", "condition": "A",
                                          "response": gold_answers[i["id"]]}) + "\n" for i in items), encoding="utf-8")
    result = _score(items_file, [samples, native], tmp_path / "out")
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    # lm-eval's dummy model answers "lol": unreadable, 0 and counted; alice's faithful answers 1
    assert _means(summary, "verdict_acc") == {"dummy": 0.0, "alice": 1.0}
    assert summary["counts"]["parse_failures"] == 3
    assert [(f["format"], f["n_records"]) for f in summary["inputs"]["responses"]["files"]] == [("lm-eval", 3), ("jsonl", 3)]
    records = _records(tmp_path / "out")
    assert [r["source"] for r in records] == [f"{samples}:{n}" for n in (1, 2, 3)] + [f"{native}:{n}" for n in (1, 2, 3)]
    # lm-eval's --output_path folder stands for its samples file (its results_*.json is not a responses file)
    folder = _score(items_file, [tmp_path / "lm", native], tmp_path / "out2")
    assert folder.exit_code == 0, folder.output
    assert (tmp_path / "out2" / "responses.jsonl").read_bytes() == (tmp_path / "out" / "responses.jsonl").read_bytes()


def test_the_report_of_a_several_file_run_finds_moved_files_given_in_the_order_scored(items_file, items, gold_answers,
                                                                                      tmp_path):
    from ipb.report.data import load_results

    runs = tmp_path / "runs"
    runs.mkdir()
    paths = []
    for model, answer in (("alice", None), ("bob", "No opinion.")):
        path = runs / f"{model}.jsonl"
        path.write_text("".join(json.dumps({"item_id": i["id"], "model": model, "condition": "A",
                                            "response": answer or gold_answers[i["id"]]}) + "\n" for i in items),
                        encoding="utf-8")
        paths.append(path)
    assert _score(items_file, paths, tmp_path / "out").exit_code == 0
    moved = tmp_path / "elsewhere"
    runs.rename(moved)
    lost = load_results(tmp_path / "out")
    assert all(r.text is None for r in lost.responses)
    assert any(f"{runs / 'alice.jsonl'} (file 1) was not found" in n for n in lost.notes)
    found = load_results(tmp_path / "out", responses=[moved / "alice.jsonl", moved / "bob.jsonl"])
    assert [(r.model, r.text == "No opinion." if r.model == "bob" else r.text == gold_answers[r.item_id])
            for r in found.responses] == [("alice", True)] * 3 + [("bob", True)] * 3
    # a file edited after scoring matches no recorded digest: read by position, each of its texts checked against the
    # record's SHA-256 and flagged (s38break: files merely given in another order are matched by digest, see below)
    edited = moved / "bob.jsonl"
    edited.write_text(edited.read_text(encoding="utf-8").replace("No opinion.", "No view."), encoding="utf-8")
    changed = load_results(tmp_path / "out", responses=[moved / "alice.jsonl", edited])
    assert [(r.model, r.text_note is not None and "SHA-256 mismatch" in r.text_note) for r in changed.responses] == (
        [("alice", False)] * 3 + [("bob", True)] * 3)


def test_the_report_reads_each_text_from_its_own_file_when_the_files_are_given_in_another_order(items_file, items,
                                                                                                gold_answers, tmp_path):
    # s38break: given in another order than scored, the files were matched by position, so every drill-down text was
    # another model's answer (flagged as "the responses file changed after scoring", which it had not); the summary
    # records each file's SHA-256, so each given file is matched to the scored file with its digest
    from ipb.report.data import load_results

    runs = tmp_path / "runs"
    runs.mkdir()
    paths = []
    for model, answer in (("alice", None), ("bob", "No opinion.")):
        path = runs / f"{model}.jsonl"
        path.write_text("".join(json.dumps({"item_id": i["id"], "model": model, "condition": "A",
                                            "response": answer or gold_answers[i["id"]]}) + "\n" for i in items),
                        encoding="utf-8")
        paths.append(path)
    assert _score(items_file, paths, tmp_path / "out").exit_code == 0
    moved = tmp_path / "elsewhere"
    runs.rename(moved)
    swapped = load_results(tmp_path / "out", responses=[moved / "bob.jsonl", moved / "alice.jsonl"])
    assert [(r.model, r.text == ("No opinion." if r.model == "bob" else gold_answers[r.item_id]), r.text_note)
            for r in swapped.responses] == [("alice", True, None)] * 3 + [("bob", True, None)] * 3
