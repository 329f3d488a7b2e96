"""New-user report s58 (issue 18), the ``ipb perturb`` run findings fixed by s59userA.

F-C8 (bug kind: a mix shortfall that cannot be made fatal, and warnings about exactly what was asked): a card with
no regime gate under ``--mix temporal=0.5,metric=0.5`` made no temporal item and exited 0; ``--mix flip=0.9,metric=0.1``
warned "flip made 900 of 1000 items (90%)" and ``--n 1`` warned "never produced: PASS" and "evenness 0.00".
F-C9 (bug kind: a silent long run): nothing was printed for 25 minutes, nor when ``timeout`` stopped a run.
F-C10 (bug kind: a leftover temporary file): a SIGKILLed run's ``.items.jsonl.XXXX.tmp`` stayed beside the items.
F-C12 (bug kind: an unversioned output with local paths): ``--report`` had no version, no schema and carried
"/work/.../frameworks/sectors.yaml".
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from ipb._files import clean_stale
from ipb.cli import app
from ipb.perturb._progress import RunProgress
from ipb.perturb.runs import Generation, RecipeReport

ROOT = Path(__file__).resolve().parents[2]
CARD = "graham_seven_tests_defensive"  # no regime gate: temporal cannot apply to it
BASE = ROOT / "frameworks" / "scenarios" / CARD / "seasoned_industrial_passes.yaml"
runner = CliRunner()
#: The ``ipb`` console script's entry point, as ``python -c`` runs it (SIGTERM handled as the installed script does).
MAIN = "from ipb.cli._app import main; main()"


def _perturb(out: Path, *extra: str):
    return runner.invoke(app, ["perturb", "--card", CARD, "--base", str(BASE), "--seed", "3", "--out", str(out),
                               *extra])


# ---------------------------------------------------------------- F-C8: mix shortfalls


def test_strict_mix_exits_1_naming_each_recipe_and_leaves_the_old_outputs(tmp_path):
    out, report = tmp_path / "items.jsonl", tmp_path / "report.json"
    out.write_text("old items\n")
    report.write_text("old report\n")
    args = ("--n", "20", "--mix", "temporal=0.5,metric=0.5", "--report", str(report))
    strict = _perturb(out, *args, "--strict-mix")
    assert strict.exit_code == 1, strict.output
    text = " ".join(strict.output.split())
    assert "--strict-mix: the mix was not met (temporal asked 10, made 0 (short; not applicable: card " \
           "graham_seven_tests_defensive has no regime gate" in text
    assert "; metric asked 10, made 20); no items file written" in text
    # nothing is put in place: the old files keep their bytes, and no temporary file is left
    assert out.read_text() == "old items\n" and report.read_text() == "old report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["items.jsonl", "report.json"]
    # without the flag the same run writes its items and says the shortfall as a warning, exit 0
    plain = _perturb(out, *args)
    assert plain.exit_code == 0, plain.output
    assert "WARNING: metric made 20 of 20 items (100%); short of their shares: temporal 0 of 10 (exhausted)" \
        in plain.output
    assert len(out.read_text().splitlines()) == 20


def test_a_met_mix_is_no_warning_and_no_strict_mix_error():
    # --mix flip=0.9,metric=0.1 with N=1000: shares 900 and 100, both made: exactly what was asked
    met = Generation([], 1000, [RecipeReport("flip", 900, items=900), RecipeReport("metric", 100, items=100)],
                     {"BUY": 500, "PASS": 500}, False, ["BUY", "PASS"], written=1000)
    assert met.dominant() is None
    assert met.strict_mix_error() is None and met.mix_shortfalls() == []
    assert "WARNING" not in met.summary()
    # metric one short (99 of 100), flip made it up: a warning, and --strict-mix's message with both counts
    short = Generation([], 1000, [RecipeReport("flip", 900, items=901), RecipeReport("metric", 100, items=99,
                                                                                       exhausted=True)],
                       {"BUY": 500, "PASS": 500}, False, ["BUY", "PASS"], written=1000)
    assert short.dominant() == ("WARNING: flip made 901 of 1000 items (90%); short of their shares: "
                                "metric 99 of 100 (exhausted)")
    assert short.strict_mix_error() == ("--strict-mix: the mix was not met (flip asked 900, made 901; metric asked "
                                        "100, made 99 (short; exhausted)); no items file written: --out (and "
                                        "--report) left as they were")


def test_one_item_is_not_called_uneven():
    # --n 1 on a card with two verdicts: one verdict is missing by construction, not by a failed run
    one = Generation([], 1, [RecipeReport("metric", 1, items=1), RecipeReport("flip", 0)], {"BUY": 1}, False,
                     ["BUY", "PASS"], written=1)
    text = one.summary()
    assert text.splitlines()[0] == ("1 of 1 items; verdicts: BUY 1 (evenness not measured: 1 item(s) for the "
                                    "card's 2 verdicts)")
    assert "never produced" not in text and "evenness 0.00" not in text and "WARNING" not in text
    # two items that could have shown both verdicts and did not: still said
    two = Generation([], 2, [RecipeReport("metric", 2, items=2)], {"BUY": 2}, False, ["BUY", "PASS"], written=2)
    assert "(evenness 0.00)" in two.summary() and "never produced: PASS" in two.summary()


# ---------------------------------------------------------------- F-C9: progress and the stop message


def test_progress_lines_every_ten_seconds_or_tenth_by_hand():
    ticks = iter(range(10_000))  # the clock: 0 at the start, then one second per item
    buf = io.StringIO()
    progress = RunProgress(1000, buf, clock=lambda: float(next(ticks)))
    assert list(progress.wrap(str(i) for i in range(100))) == [str(i) for i in range(100)]
    lines = buf.getvalue().splitlines()
    # items 10, 20, ... 90 at 10 s each, 100 at a tenth of N (100 s) too
    assert len(lines) == 10
    assert lines[0] == "perturb: 10 of 1,000 items made (1%), 10 s"
    # 100 of 1,000 in 100 s: 900 more at that rate is 900 s = 15 min
    assert lines[-1] == "perturb: 100 of 1,000 items made (10%), 1 min 40 s; about 15 min 0 s left at this rate"
    silent = RunProgress(1000, None)
    assert list(silent.wrap(["a", "b"])) == ["a", "b"] and silent.made == 2


def test_progress_goes_to_stderr_only_and_the_items_keep_their_bytes(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-c", MAIN, "perturb", "--card", CARD, "--base", str(BASE), "--n", "30", "--seed",
           "5"]
    quiet = subprocess.run(cmd + ["--out", str(tmp_path / "a.jsonl")], capture_output=True, text=True, env=env,
                           timeout=300)
    loud = subprocess.run(cmd + ["--out", str(tmp_path / "b.jsonl"), "--progress"], capture_output=True, text=True,
                          env=env, timeout=300)
    assert quiet.returncode == loud.returncode == 0, loud.stderr
    assert "perturb: " not in quiet.stderr  # stderr is no terminal here: no progress unless asked
    shown = [line for line in loud.stderr.splitlines() if line.startswith("perturb: ")]
    assert shown[0].startswith("perturb: 3 of 30 items made (10%)") and shown[-1].startswith(
        "perturb: 30 of 30 items made (100%)")
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert quiet.stdout == loud.stdout


def _start_long_run(out: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-c", MAIN, "perturb", "--card", CARD,
                             "--base", str(BASE), "--n", "20000", "--seed", "1", "--out", str(out), "--progress"],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)


def _wait_for_progress(proc: subprocess.Popen[str]) -> None:
    assert proc.stderr is not None
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if line.startswith("perturb: "):
            return
        if not line and proc.poll() is not None:
            break
    proc.kill()
    pytest.fail("the run printed no progress line")


def test_sigterm_says_the_run_stopped_and_leaves_nothing(tmp_path):
    out = tmp_path / "items.jsonl"
    out.write_text("an earlier run's items\n")
    proc = _start_long_run(out)
    _wait_for_progress(proc)
    proc.send_signal(signal.SIGTERM)
    _, rest = proc.communicate(timeout=120)
    assert proc.returncode == 143
    last = rest.strip().splitlines()[-1]
    assert last.startswith("perturb stopped by SIGTERM after ")
    assert last.endswith(f"items made: no items file written ({out} kept as it was); its temporary files are "
                         "removed")
    assert [p.name for p in tmp_path.iterdir()] == ["items.jsonl"]
    assert out.read_text() == "an earlier run's items\n"


# ---------------------------------------------------------------- F-C10: a killed run's temporary file


def test_a_sigkilled_runs_temporary_file_is_removed_and_reported_by_the_next_run(tmp_path):
    out = tmp_path / "items.jsonl"
    proc = _start_long_run(out)
    _wait_for_progress(proc)
    proc.kill()  # SIGKILL: no clean-up can run
    proc.communicate(timeout=60)
    left = [p.name for p in tmp_path.iterdir() if p.name.startswith(".items.jsonl.") and p.name.endswith(".tmp")]
    assert len(left) == 1 and (tmp_path / left[0]).stat().st_size > 0
    # files that only look alike stay: another output's temporary file, and a plain file of the user's
    (tmp_path / ".other.jsonl.abcd1234.tmp").write_text("x")
    (tmp_path / "items.jsonl.tmp").write_text("y")
    result = _perturb(out, "--n", "5")  # at once: the killed file is seconds old
    assert result.exit_code == 0, result.output
    assert f"removed 1 temporary file(s) of {out} left by an interrupted run: {left[0]}" in " ".join(
        result.output.split())
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.jsonl.abcd1234.tmp", "ipb-cards", "items.jsonl",
                                                          "items.jsonl.tmp"]


def test_clean_stale_keeps_a_temporary_file_newer_than_the_run(tmp_path):
    target = tmp_path / "items.jsonl"
    old, new = tmp_path / ".items.jsonl.aaaa1111.tmp", tmp_path / ".items.jsonl.bbbb2222.tmp"
    old.write_text("old")
    new.write_text("new")
    start = time.time()
    os.utime(old, (start - 2, start - 2))
    os.utime(new, (start + 2, start + 2))
    assert clean_stale(target) == []  # the default grace: both younger than 5 s
    assert clean_stale(target, now=start, unlocked_after=0.0) == [old.name]
    assert new.exists() and not old.exists()


# ---------------------------------------------------------------- F-C12: the report's version, schema and paths


def test_the_report_has_a_version_a_listed_schema_and_no_local_path(tmp_path):
    out, report = tmp_path / "items.jsonl", tmp_path / "report.json"
    result = _perturb(out, "--n", "12", "--report", str(report))
    assert result.exit_code == 0, result.output
    listed = runner.invoke(app, ["schema", "perturb_report"])
    assert listed.exit_code == 0, listed.output
    schema = json.loads(listed.output)
    jsonschema.Draft202012Validator.check_schema(schema)
    doc = json.loads(report.read_text())
    assert doc["version"] == 1 and doc["kind"] == "ipb.perturb.report"
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(doc)) == []
    text = report.read_text()
    assert str(ROOT) not in text and str(tmp_path) not in text
    # Graham's card has no sector input to move: the note names the bundled registry by its package path
    assert any("frameworks/sectors.yaml" in note for note in doc["notes"]), doc["notes"]
    # an old report (no version) and one with a wrong count are refused
    validator = jsonschema.Draft202012Validator(schema)
    assert not validator.is_valid({k: v for k, v in doc.items() if k != "version"})
    assert not validator.is_valid({**doc, "written": -1})
