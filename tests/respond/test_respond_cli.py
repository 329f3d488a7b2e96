"""``ipb respond`` and ``ipb judge`` on the command line: a killed run, the judge, --synthetic, --dry-run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import types

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.scoring.respond import validate_record
from ipb.scoring.respond.judge import Judge, JudgeConfig, geval, parse_judge_reply
from respond_support import DALIO_TEST_CARD, ITEMS, ROOT, SECRET, read_jsonl

runner = CliRunner()
L8_ID = "IPB-P-019-aef86f3c7343619a"


def respond_args(server, out, tmp_path, *extra):
    return ["respond", "--items", str(ITEMS), "--model", "test-model", "--base-url", server.url, "--out", str(out),
            "--retriever", "keyword", "--card", f"cbdc_dalio_machine={DALIO_TEST_CARD}", "--cache-dir",
            str(tmp_path / "cache"), "--backoff", "0.001", "--quiet", *extra]


def test_respond_command_writes_records_and_exits_0(server, tmp_path):
    out = tmp_path / "r.jsonl"
    result = runner.invoke(app, respond_args(server, out, tmp_path, "--conditions", "A,C", "--temperature", "0.2",
                                             "--max-tokens", "900", "--concurrency", "2"))
    assert result.exit_code == 0, result.output
    assert "wrote" in result.output and "8 ok, 0 error(s)" in result.output
    records = read_jsonl(out)
    assert len(records) == 8 and all(validate_record(r) == [] for r in records)
    assert {r["settings"]["temperature"] for r in records} == {0.2}
    assert {r["settings"]["max_tokens"] for r in records} == {900}
    assert SECRET not in result.output and SECRET not in out.read_text(encoding="utf-8")


def test_respond_exits_1_when_a_record_failed(server, tmp_path):
    server.faults.extend(["400"])
    out = tmp_path / "r.jsonl"
    result = runner.invoke(app, respond_args(server, out, tmp_path, "--conditions", "A", "--concurrency", "1"))
    assert result.exit_code == 1
    assert "1 error(s)" in result.output
    assert [r["status"] for r in read_jsonl(out)].count("error") == 1


def test_usage_errors(server, tmp_path):
    result = runner.invoke(app, ["respond", "--items", str(ITEMS), "--out", str(tmp_path / "r.jsonl")])
    assert result.exit_code == 1 and "--model and --base-url are required" in result.output
    result = runner.invoke(app, respond_args(server, tmp_path / "r.jsonl", tmp_path, "--conditions", "A,X"))
    assert result.exit_code == 1 and "subset of A,B,C" in result.output
    result = runner.invoke(app, respond_args(server, tmp_path / "r.jsonl", tmp_path, "--temperature", "hot"))
    assert result.exit_code == 2


def test_dry_run_prints_requests_and_sends_nothing(server, tmp_path):
    result = runner.invoke(app, ["respond", "--items", str(ITEMS), "--model", "m", "--dry-run", "--conditions", "A,B",
                                 "--retriever", "keyword", "--cot"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in result.stdout.splitlines() if x.startswith("{")]
    assert len(lines) == 8 and server.chat_requests() == []
    assert all(line["settings"]["cot"] for line in lines)
    assert lines[1]["context"]["method"] == "keyword"


def test_synthetic_dispatches_to_the_generator(monkeypatch, tmp_path):
    calls = {}

    def synthetic_responses(items, corruptions=None, seed=0):
        calls.update(n=len(items), corruptions=corruptions, seed=seed)
        for item in items:
            yield {"item_id": item["id"], "response": f"Final verdict: DECLINE ({item['id']})", "corruption": "drop_gate"}

    fake = types.ModuleType("ipb.scoring.synthetic")
    fake.synthetic_responses = synthetic_responses  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ipb.scoring.synthetic", fake)
    out = tmp_path / "synthetic.jsonl"
    result = runner.invoke(app, ["respond", "--items", str(ITEMS), "--synthetic", "--corruptions", "drop_gate,flip_verdict",
                                 "--seed", "5", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert calls == {"n": 4, "corruptions": ["drop_gate", "flip_verdict"], "seed": 5}
    records = read_jsonl(out)
    assert len(records) == 4 and all(validate_record(r) == [] for r in records)
    assert records[0]["model"] == "synthetic" and records[0]["corruption"] == "drop_gate"
    assert records[0]["settings"] == {"synthetic": True, "corruptions": ["drop_gate", "flip_verdict"], "seed": 5}


def test_synthetic_with_the_real_generator(tmp_path):
    pytest.importorskip("ipb.scoring.synthetic")
    items = tmp_path / "l7.jsonl"
    items.write_text("".join(ITEMS.read_text(encoding="utf-8").splitlines(keepends=True)[:3]), encoding="utf-8")
    out = tmp_path / "synthetic.jsonl"
    result = runner.invoke(app, ["respond", "--items", str(items), "--synthetic", "--corruptions", "none,drop_gate",
                                 "--conditions", "C", "--out", str(out)])
    assert result.exit_code == 0, result.output
    records = read_jsonl(out)
    assert len(records) == 6 and all(validate_record(r) == [] for r in records)
    assert {r["condition"] for r in records} == {"C"}
    assert [r["corruptions"][0]["name"] for r in records[:2]] == ["none", "drop_gate"]
    assert "Final verdict" in records[0]["response"]


def test_synthetic_without_the_generator_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "ipb.scoring.synthetic", None)  # import fails
    result = runner.invoke(app, ["respond", "--items", str(ITEMS), "--synthetic", "--out", str(tmp_path / "s.jsonl")])
    assert result.exit_code == 1
    assert "--synthetic needs ipb.scoring.synthetic.synthetic_responses" in result.output


# --------------------------------------------------------------------------- a real kill


def test_a_killed_run_resumes_without_corruption_or_duplicates(server, tmp_path):
    """Regression (partial output): SIGKILL in the middle of a run, then the same command again."""
    server.slow_s = 0.15
    out = tmp_path / "r.jsonl"
    args = respond_args(server, out, tmp_path, "--conditions", "A,C", "--concurrency", "1", "--no-cache")
    env = {**os.environ, "IPB_API_KEY": SECRET}
    proc = subprocess.Popen([sys.executable, "-c", "from ipb.cli import main; main()", *args], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if out.exists() and out.read_text(encoding="utf-8").count("\n") >= 3:
                break
            if proc.poll() is not None:
                pytest.fail("the run ended before it could be killed: " + proc.stderr.read().decode())
            time.sleep(0.02)
        else:
            pytest.fail("no records appeared")
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    done_before = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines() if x.strip()]
    assert 3 <= len(done_before) < 8
    sent_before = len(server.chat_requests())
    server.slow_s = 0.0
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    records = read_jsonl(out)
    assert len(records) == 8 and len({(r["item_id"], r["condition"]) for r in records}) == 8
    assert all(validate_record(r) == [] for r in records)
    resent = len(server.chat_requests()) - sent_before
    assert resent == 8 - len(done_before)  # every completed record kept, nothing asked twice after the kill


# --------------------------------------------------------------------------- the judge


def test_judge_replies_are_read_robustly():
    assert parse_judge_reply('{"score": "0.5", "reason": "x"}').score == 0.5
    assert parse_judge_reply('noise {"a": 1} then {"score": 0, "reason": "no"}').score == 0.0
    assert parse_judge_reply('{"score": true}').problem is not None
    assert parse_judge_reply("I would give it a 1.").problem is not None
    assert geval([("a", 0.5, [1.0]), ("b", 0.5, [])]) is None


def test_judge_command_scores_l8_with_retry_and_placeholders(server, tmp_path):
    responses = tmp_path / "r.jsonl"
    assert runner.invoke(app, respond_args(server, responses, tmp_path, "--conditions", "A")).exit_code == 0
    server.reset()
    # two samples per dimension, three dimensions, asked in order:
    server.judge_replies.extend([
        '{"score": 1, "reason": "all right"}',
        'Sure! {"score": 0.5, "reason": "the JSON is cut of',   # unreadable -> reinforced retry
        '```json\n{"score": 0.5, "reason": "half"}\n```',       # the retry is readable
        '{"score": 0, "reason": "wrong"}',
        '{"score": 2}',                                         # off the scale -> retry
        "still not JSON",                                       # -> placeholder, excluded
        '{"score": 1, "reason": "yes"}',
        '{"score": 1, "reason": "yes"}',
    ])
    out = tmp_path / "judged.jsonl"
    result = runner.invoke(app, ["judge", "--items", str(ITEMS), "--responses", str(responses), "--out", str(out),
                                 "--model", "judge-model", "--base-url", server.url, "--samples", "2", "--concurrency",
                                 "1", "--cache-dir", str(tmp_path / "cache"), "--backoff", "0.001", "--quiet"])
    assert result.exit_code == 0, result.output
    records = read_jsonl(out)
    assert len(records) == 4 and all(validate_record(r) == [] for r in records)
    judged = [r for r in records if r["judgment"] is not None]
    assert [r["item_id"] for r in judged] == [L8_ID]  # L7 records are not judged
    j = judged[0]["judgment"]
    dims = j["dimensions"]
    assert dims["framework_identification"]["score"] == 0.75 and dims["framework_identification"]["retried"] == 1
    assert dims["framework_application"] == {**dims["framework_application"], "score": 0.0, "valid": 1,
                                             "placeholders": 1, "retried": 1}
    assert dims["investment_action_implications"]["score"] == 1.0
    assert j["score"] == pytest.approx(0.30 * 0.75 + 0.45 * 0.0 + 0.25 * 1.0)
    assert j["status"] == "ok" and j["component"] == "geval_l8" and j["settings"]["samples"] == 2
    assert judged[0]["judge"] == {"geval_l8": j["score"]}  # what ipb score reads
    assert all("judge" not in r for r in records if r["judgment"] is None)
    assert len(server.chat_requests(judge=True)) == 8
    assert all(r["body"]["max_tokens"] == 6000 and r["body"]["temperature"] == 0.7 for r in server.chat_requests(judge=True))
    assert "test-model condition A L8: GEval 0.475" in result.output
    # a rerun keeps every judgment and asks nothing
    server.reset()
    again = runner.invoke(app, ["judge", "--items", str(ITEMS), "--responses", str(responses), "--out", str(out),
                                "--model", "judge-model", "--base-url", server.url, "--samples", "2", "--quiet",
                                "--cache-dir", str(tmp_path / "cache")])
    assert again.exit_code == 0 and server.chat_requests() == []


def test_a_dimension_with_no_readable_sample_is_unscored_not_neutral(server, tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_MAX_TOKENS", "123")
    responses = tmp_path / "r.jsonl"
    assert runner.invoke(app, respond_args(server, responses, tmp_path, "--conditions", "B")).exit_code == 0
    server.reset()
    server.judge_replies.extend(["nope", "nope again"])  # first dimension, one sample: unreadable twice
    out = tmp_path / "j.jsonl"
    result = runner.invoke(app, ["judge", "--items", str(ITEMS), "--responses", str(responses), "--out", str(out),
                                 "--model", "jm", "--base-url", server.url, "--samples", "1", "--concurrency", "1",
                                 "--no-cache", "--quiet"])
    assert result.exit_code == 0, result.output
    j = [r for r in read_jsonl(out) if r["judgment"]][0]["judgment"]
    assert j["status"] == "unscored" and j["score"] is None and "framework_identification" in j["error"]
    assert [r for r in read_jsonl(out) if r["judgment"]][0]["judge"] == {"geval_l8": None}
    assert j["dimensions"]["framework_identification"]["placeholders"] == 1
    assert {r["body"]["max_tokens"] for r in server.chat_requests(judge=True)} == {123}
    assert "0 response(s), 1 excluded" in result.output


def test_inline_judging_with_respond(server, tmp_path):
    out = tmp_path / "r.jsonl"
    result = runner.invoke(app, respond_args(server, out, tmp_path, "--conditions", "C", "--judge-model", "jm",
                                             "--judge-samples", "1"))
    assert result.exit_code == 0, result.output
    records = read_jsonl(out)
    assert [r["judgment"] is not None for r in records] == [False, False, False, True]
    assert records[-1]["judgment"]["score"] == 1.0 and "1 judged" in result.output
    assert len(server.chat_requests(judge=True)) == 3
    # asking again with another judge setting re-judges but keeps the responses
    server.reset()
    again = runner.invoke(app, respond_args(server, out, tmp_path, "--conditions", "C", "--judge-model", "jm",
                                            "--judge-samples", "2"))
    assert again.exit_code == 0, again.output
    assert server.chat_requests(judge=False) == [] and len(server.chat_requests(judge=True)) == 3  # sample 0 cached
    assert read_jsonl(out)[-1]["judgment"]["settings"]["samples"] == 2


def test_judge_refuses_to_overwrite_its_input(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text("", encoding="utf-8")
    result = runner.invoke(app, ["judge", "--items", str(ITEMS), "--responses", str(path), "--out", str(path),
                                 "--model", "jm", "--base-url", "http://127.0.0.1:9/v1"])
    assert result.exit_code == 1 and "another file" in result.output


def test_judge_config_defaults_follow_the_paper(monkeypatch):
    monkeypatch.delenv("JUDGE_MAX_TOKENS", raising=False)
    c = JudgeConfig("m", "http://127.0.0.1:9/v1")
    assert (c.samples, c.temperature, c.max_tokens, c.layers) == (20, 0.7, 6000, ("L6", "L8"))
    assert Judge.__doc__ is not None


def test_max_tokens_0_and_temperature_none_send_nothing(server, tmp_path):
    out = tmp_path / "r.jsonl"
    result = runner.invoke(app, respond_args(server, out, tmp_path, "--conditions", "A", "--max-tokens", "0",
                                             "--temperature", "none", "--extra-body", '{"max_completion_tokens": 99}'))
    assert result.exit_code == 0, result.output
    body = server.chat_requests()[0]["body"]
    assert "max_tokens" not in body and "temperature" not in body and body["max_completion_tokens"] == 99
    settings = read_jsonl(out)[0]["settings"]
    assert settings["max_tokens"] is None and settings["temperature"] is None
    assert settings["extra_body"] == {"max_completion_tokens": 99}
