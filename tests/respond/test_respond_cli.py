"""``ipb respond`` and ``ipb judge`` on the command line: a killed run, the judge, --synthetic, --dry-run."""

from __future__ import annotations

import json
import signal
import sys
import types

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.respond import load_items, validate_record
from ipb.respond.judge import Judge, JudgeConfig, geval, parse_judge_reply
from respond_support import DALIO_TEST_CARD, ITEMS, SECRET, read_jsonl, respond_process

runner = CliRunner()
L8_ID = "IPB-P-019-46e640f76f35e265"


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

    fake = types.ModuleType("ipb.respond.synthetic")
    fake.synthetic_responses = synthetic_responses  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ipb.respond.synthetic", fake)
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
    pytest.importorskip("ipb.respond.synthetic")
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
    monkeypatch.setitem(sys.modules, "ipb.respond.synthetic", None)  # import fails
    result = runner.invoke(app, ["respond", "--items", str(ITEMS), "--synthetic", "--out", str(tmp_path / "s.jsonl")])
    assert result.exit_code == 1
    assert "--synthetic needs ipb.respond.synthetic.synthetic_responses" in result.output


def _l7_items(tmp_path):
    """The first three items of ITEMS: L7 items on bundled cards (the fourth needs a test card)."""
    path = tmp_path / "l7.jsonl"
    path.write_text("".join(ITEMS.read_text(encoding="utf-8").splitlines(keepends=True)[:3]), encoding="utf-8")
    return path


def synthetic_args(items, out, *extra):
    return ["respond", "--synthetic", "--items", str(items), "--out", str(out), *extra]


def test_synthetic_writes_the_model_and_a_copy_per_condition(tmp_path):
    """Regression (options silently ignored): --model and --conditions shape every synthetic record."""
    pytest.importorskip("ipb.respond.synthetic")
    out = tmp_path / "s.jsonl"
    result = runner.invoke(app, synthetic_args(_l7_items(tmp_path), out, "--model", "mysyn", "--conditions", "A,B,C",
                                               "--corruptions", "none,drop_gate"))
    assert result.exit_code == 0, result.output
    records = read_jsonl(out)
    assert len(records) == 3 * 3 * 2 and all(validate_record(r) == [] for r in records)
    assert {r["model"] for r in records} == {"mysyn"}
    keys = [(r["item_id"], r["condition"], r["corruptions"][0]["name"]) for r in records]
    assert len(set(keys)) == len(keys)
    first = records[0]["item_id"]
    assert [k[1:] for k in keys if k[0] == first] == [("A", "none"), ("A", "drop_gate"), ("B", "none"),
                                                      ("B", "drop_gate"), ("C", "none"), ("C", "drop_gate")]
    texts = {}
    for r in records:  # the copies differ in their condition alone
        texts.setdefault((r["item_id"], r["corruptions"][0]["name"]), set()).add(r["response"])
    assert all(len(t) == 1 for t in texts.values())
    default = runner.invoke(app, synthetic_args(_l7_items(tmp_path), tmp_path / "d.jsonl", "--corruptions", "none"))
    assert default.exit_code == 0, default.output
    assert {(r["model"], r["condition"]) for r in read_jsonl(tmp_path / "d.jsonl")} == {("synthetic", "A")}


@pytest.mark.parametrize("extra, named", [
    (["--temperature", "0.3", "--cot"], ["--temperature", "--cot"]),
    (["--base-url", "http://127.0.0.1:9/v1"], ["--base-url"]),
    (["--judge-model", "jm", "--dry-run"], ["--judge-model", "--dry-run"]),
    (["--card", "x=y.yaml", "--no-cache"], ["--card", "--no-cache"]),
], ids=["sampling", "server", "judge-and-dry-run", "cards-and-cache"])
def test_synthetic_refuses_the_options_only_a_model_run_uses(tmp_path, extra, named):
    """Regression (options silently ignored): an option --synthetic cannot use is a usage error naming it."""
    out = tmp_path / "s.jsonl"
    result = runner.invoke(app, synthetic_args(_l7_items(tmp_path), out, *extra))
    assert result.exit_code == 2, result.output
    assert "--synthetic asks no server and does not use " + ", ".join(named) in result.output
    assert not out.exists()


def test_an_environment_default_is_not_an_option_given(tmp_path, monkeypatch):
    pytest.importorskip("ipb.respond.synthetic")
    monkeypatch.setenv("IPB_BASE_URL", "http://127.0.0.1:9/v1")
    result = runner.invoke(app, synthetic_args(_l7_items(tmp_path), tmp_path / "s.jsonl", "--corruptions", "none"))
    assert result.exit_code == 0, result.output


def test_synthetic_only_options_need_synthetic(tmp_path):
    out = tmp_path / "r.jsonl"
    result = runner.invoke(app, ["respond", "--items", str(ITEMS), "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
                                 "--out", str(out), "--corruptions", "none"])
    assert result.exit_code == 2 and "--corruptions needs --synthetic" in result.output
    result = runner.invoke(app, ["respond", "--bundled", "--corruptions", "none", "--out", str(out)])
    assert result.exit_code == 2 and "--corruptions and --bundled need --synthetic" in result.output
    assert not out.exists()


def test_synthetic_resumes_an_existing_out_as_a_model_run_does(tmp_path):
    """Regression (an existing --out replaced): synthetic runs keep, extend or refuse as model runs do."""
    pytest.importorskip("ipb.respond.synthetic")
    items, out = _l7_items(tmp_path), tmp_path / "s.jsonl"
    assert runner.invoke(app, synthetic_args(items, out, "--corruptions", "none")).exit_code == 0
    before = out.read_bytes()
    again = runner.invoke(app, synthetic_args(items, out, "--corruptions", "none"))
    assert again.exit_code == 0, again.output
    assert "0 ok, 0 error(s), 0 from cache, 3 kept from an earlier run" in again.output
    assert out.read_bytes() == before
    # more corruptions and conditions add their records and keep the earlier ones
    more = runner.invoke(app, synthetic_args(items, out, "--corruptions", "none,flip_final", "--conditions", "A,C"))
    assert more.exit_code == 0, more.output
    assert "9 ok, 0 error(s), 0 from cache, 3 kept from an earlier run" in more.output
    records = read_jsonl(out)
    assert len(records) == 12 and before.decode("utf-8").splitlines()[0] == json.dumps(records[0], sort_keys=True,
                                                                                       ensure_ascii=False)
    extended = out.read_bytes()
    # other settings: refused, the file left as it was
    for extra, difference in ((["--seed", "3"], "seed 0, this run 3"), (["--model", "other"], "model 'synthetic', this run 'other'")):
        refused = runner.invoke(app, synthetic_args(items, out, "--corruptions", "none", *extra))
        assert refused.exit_code == 1, refused.output
        assert difference in refused.output and "pass --overwrite" in refused.output
        assert out.read_bytes() == extended
    # --overwrite starts afresh
    fresh = runner.invoke(app, synthetic_args(items, out, "--corruptions", "none", "--seed", "3", "--overwrite"))
    assert fresh.exit_code == 0, fresh.output
    assert [r["settings"]["seed"] for r in read_jsonl(out)] == [3, 3, 3]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["l7.jsonl", "s.jsonl"]  # no temporary file, no lock file


def test_synthetic_refuses_to_mix_with_a_model_run(server, tmp_path):
    pytest.importorskip("ipb.respond.synthetic")
    items, out = _l7_items(tmp_path), tmp_path / "r.jsonl"
    made = runner.invoke(app, ["respond", "--items", str(items), "--model", "m", "--base-url", server.url, "--out",
                               str(out), "--conditions", "A", "--quiet", "--cache-dir", str(tmp_path / "cache")])
    assert made.exit_code == 0, made.output
    before = out.read_bytes()
    result = runner.invoke(app, synthetic_args(items, out, "--model", "m", "--corruptions", "none"))
    assert result.exit_code == 1 and "a model run's record, this run is synthetic" in result.output
    assert out.read_bytes() == before


def test_corruption_names_are_listed_in_the_help_and_the_unknown_name_error(tmp_path):
    """Regression (undiscoverable names): --help and the error list the registry's corruptions."""
    synthetic = pytest.importorskip("ipb.respond.synthetic")
    names = synthetic.corruption_names()
    assert len(names) > 5
    shown = runner.invoke(app, ["respond", "--help"], terminal_width=200)
    assert shown.exit_code == 0
    assert all(name in shown.output for name in names)
    out = tmp_path / "s.jsonl"
    result = runner.invoke(app, synthetic_args(_l7_items(tmp_path), out, "--corruptions", "none,drop_gat"))
    assert result.exit_code == 1
    assert "unknown corruption 'drop_gat'" in result.output and "did you mean 'drop_gate'?" in result.output
    assert "registered corruptions: " + ", ".join(names) in result.output
    assert not out.exists()
    empty = runner.invoke(app, synthetic_args(_l7_items(tmp_path), out, "--corruptions", ","))
    assert empty.exit_code == 2 and "--corruptions names no corruption" in empty.output
    assert not out.exists()


def test_bundled_writes_responses_and_their_items_for_ipb_score(tmp_path):
    synthetic = pytest.importorskip("ipb.respond.synthetic")
    out = tmp_path / "bundled.jsonl"
    result = runner.invoke(app, ["respond", "--synthetic", "--bundled", "--corruptions", "none", "--out", str(out)])
    assert result.exit_code == 0, result.output
    items_path = tmp_path / "bundled.items.jsonl"
    assert f"wrote {items_path}: " in result.output
    expected = synthetic.bundled_items()
    written = read_jsonl(items_path)
    assert written == expected and [i.id for i in load_items(items_path)] == [i["id"] for i in expected]
    records = read_jsonl(out)
    assert [r["item_id"] for r in records] == [i["id"] for i in expected]
    assert all(validate_record(r) == [] for r in records)
    scored = runner.invoke(app, ["score", "--items", str(items_path), "--responses", str(out), "--out",
                                 str(tmp_path / "scored"), "--no-embeddings", "--resamples", "20"])
    assert scored.exit_code == 0, scored.output
    both = runner.invoke(app, ["respond", "--synthetic", "--bundled", "--items", str(ITEMS), "--out", str(out)])
    assert both.exit_code == 2 and "leave out --items" in both.output
    neither = runner.invoke(app, ["respond", "--synthetic", "--out", str(out)])
    assert neither.exit_code == 2 and "--synthetic needs --items (or --bundled)" in neither.output


# --------------------------------------------------------------------------- a real kill


def test_a_killed_run_resumes_without_corruption_or_duplicates(server, tmp_path):
    """Regression (partial output): SIGKILL in the middle of a run, then the same command again."""
    server.slow_s = 0.15
    out = tmp_path / "r.jsonl"
    args = respond_args(server, out, tmp_path, "--conditions", "A,C", "--concurrency", "1", "--no-cache")
    with respond_process(args, out, records=3, within_s=90, then="killed") as proc:
        proc.send_signal(signal.SIGKILL)
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
