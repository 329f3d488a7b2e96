"""Respondent runs against a local OpenAI-compatible server: retries, cache keys, resume, errors, secrets."""

from __future__ import annotations

import json
import sqlite3

import pytest

from ipb.errors import LoadError
from ipb.respond import (
    ChatClient,
    GenerationSettings,
    RequestFailed,
    RespondConfig,
    RetryPolicy,
    RunError,
    load_items,
    read_output,
    run_respond,
    validate_record,
)
from respond_support import DALIO_TEST_CARD, ITEMS, SECRET, read_jsonl

FAST = RetryPolicy(retries=4, base_s=0.001, max_s=0.005)


def cfg(server, tmp_path, **kw):
    base = dict(model="test-model", base_url=server.url, conditions=("A", "B", "C"), retriever="keyword",
                concurrency=1, timeout_s=5.0, retry=FAST, cache_dir=tmp_path / "cache",
                card_paths={"cbdc_dalio_machine": str(DALIO_TEST_CARD)})
    base.update(kw)
    return RespondConfig(**base)


@pytest.fixture(scope="module")
def items():
    return load_items(ITEMS)


def keys(records):
    return [(r["item_id"], r["condition"]) for r in records]


def expected_keys(items, conditions=("A", "B", "C")):
    return [(i.id, c) for i in items for c in conditions]


# --------------------------------------------------------------------------- the client


def client(server, retries=4, timeout=5.0):
    return ChatClient(server.url, timeout_s=timeout, concurrency=2,
                      policy=RetryPolicy(retries=retries, base_s=0.001, max_s=0.005))


def test_retries_every_transient_failure_then_succeeds(server):
    server.faults.extend(["429", "500", "503", "malformed", "html", "nochoices"])
    done = client(server, retries=6).complete("m", [{"role": "user", "content": "q"}], {"temperature": 0.0}, "k")
    assert done.attempts == 7 and done.text.startswith("1. Circle of Competence")
    assert done.usage == {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
    assert len(server.chat_requests()) == 7


def test_timeouts_are_retried(server):
    server.hang_s = 0.6
    server.faults.extend(["hang"])
    done = client(server, timeout=0.2).complete("m", [{"role": "user", "content": "q"}], {}, "k")
    assert done.attempts == 2


@pytest.mark.parametrize("fault,kind,fatal,tries", [
    ("400", "client", False, 1),
    ("401", "fatal", True, 1),
    ("empty", "empty", False, 1),
])
def test_failures_that_are_not_retried(server, fault, kind, fatal, tries):
    server.faults.extend([fault])
    with pytest.raises(RequestFailed) as err:
        client(server).complete("m", [{"role": "user", "content": "q"}], {}, "k")
    assert (err.value.kind, err.value.fatal, len(server.chat_requests())) == (kind, fatal, tries)
    assert SECRET not in err.value.describe()


def test_retries_give_up_after_the_budget(server):
    server.faults.extend(["500"] * 10)
    with pytest.raises(RequestFailed) as err:
        client(server, retries=2).complete("m", [{"role": "user", "content": "q"}], {}, "k")
    assert err.value.kind == "server" and err.value.attempts == 3 and len(server.chat_requests()) == 3
    assert "after 3 attempts" in err.value.describe()


def test_backoff_is_exponential_with_seeded_jitter():
    p = RetryPolicy(base_s=1.0, max_s=60.0, seed=3)
    delays = [p.delay(n, "key") for n in range(8)]
    assert delays == [RetryPolicy(base_s=1.0, max_s=60.0, seed=3).delay(n, "key") for n in range(8)]
    assert delays != [RetryPolicy(base_s=1.0, max_s=60.0, seed=4).delay(n, "key") for n in range(8)]
    for n, d in enumerate(delays):
        ceiling = min(60.0, 2.0 ** n)
        assert ceiling / 2 <= d < ceiling
    assert p.delay(0, "key", retry_after=5.0) == 5.0 and p.delay(0, "key", retry_after=500.0) == 60.0


def test_the_key_goes_to_the_server_in_the_authorization_header(server):
    client(server).complete("m", [{"role": "user", "content": "q"}], {}, "k")
    headers = {k.lower(): v for k, v in server.chat_requests()[0]["headers"].items()}
    assert headers["authorization"] == f"Bearer {SECRET}"


# --------------------------------------------------------------------------- runs


def test_a_run_writes_one_valid_record_per_item_and_condition(server, items, tmp_path):
    out = tmp_path / "responses.jsonl"
    result = run_respond(items, out, cfg(server, tmp_path))
    records = read_jsonl(out)
    assert keys(records) == expected_keys(items)
    assert result.ok == len(records) == 12 and result.errors == 0 and result.complete
    for r in records:
        assert validate_record(r) == []
        assert r["status"] == "ok" and r["response"].startswith("1. Circle") and r["error"] is None
        assert r["prompt_version"] == "respond-v1" and len(r["prompt_hash"]) == 64 and r["cached"] is False
        assert r["settings"]["temperature"] == 0.0 and r["settings"]["base_url"] == server.url
        assert r["usage"]["total_tokens"] == 18 and r["latency_s"] >= 0 and r["finish_reason"] == "stop"
        assert r["judgment"] is None
        # the exact messages sent are kept, for the report (issue 14 item 5)
        assert [m["role"] for m in r["messages"]] == ["system", "user"]
    sent = [req["body"]["messages"] for req in server.chat_requests()]
    assert all(r["messages"] in sent for r in records)
    assert len(server.chat_requests()) == 12
    sent = server.chat_requests()[0]["body"]
    assert sent["model"] == "test-model" and sent["temperature"] == 0.0 and sent["max_tokens"] == 4096
    assert "top_p" not in sent and "seed" not in sent  # None: not sent


def test_a_rerun_skips_completed_records(server, items, tmp_path):
    out = tmp_path / "responses.jsonl"
    run_respond(items, out, cfg(server, tmp_path, cache_dir=None))
    before = out.read_bytes()
    server.reset()
    result = run_respond(items, out, cfg(server, tmp_path, cache_dir=None))
    assert result.skipped == 12 and result.ok == 0 and server.chat_requests() == []
    assert out.read_bytes() == before


def test_the_cache_serves_identical_requests_and_misses_on_any_other_setting(server, items, tmp_path):
    run_respond(items[:1], tmp_path / "first.jsonl", cfg(server, tmp_path, conditions=("A",)))
    server.reset()
    again = run_respond(items[:1], tmp_path / "second.jsonl", cfg(server, tmp_path, conditions=("A",)))
    assert again.cached == 1 and server.chat_requests() == []
    assert read_jsonl(tmp_path / "second.jsonl")[0]["cached"] is True
    hot = run_respond(items[:1], tmp_path / "third.jsonl",
                      cfg(server, tmp_path, conditions=("A",), generation=GenerationSettings(temperature=0.7)))
    assert hot.cached == 0 and len(server.chat_requests()) == 1
    assert server.chat_requests()[0]["body"]["temperature"] == 0.7
    assert read_jsonl(tmp_path / "third.jsonl")[0]["settings"]["temperature"] == 0.7
    server.reset()
    run_respond(items[:1], tmp_path / "fourth.jsonl", cfg(server, tmp_path, conditions=("A",), cot=True))
    assert len(server.chat_requests()) == 1  # another prompt hash: another key


def test_resuming_with_other_settings_is_refused_unless_overwritten(server, items, tmp_path):
    out = tmp_path / "responses.jsonl"
    run_respond(items[:1], out, cfg(server, tmp_path, conditions=("A",)))
    hot = cfg(server, tmp_path, conditions=("A",), generation=GenerationSettings(temperature=0.7))
    with pytest.raises(RunError, match=r"temperature 0\.0, this run 0\.7"):
        run_respond(items[:1], out, hot)
    with pytest.raises(RunError, match=r"model 'test-model', this run 'other'"):
        run_respond(items[:1], out, cfg(server, tmp_path, conditions=("A",), model="other"))
    result = run_respond(items[:1], out, RespondConfig(**{**hot.__dict__, "overwrite": True}))
    assert result.ok == 1 and read_jsonl(out)[0]["settings"]["temperature"] == 0.7


def test_resume_after_a_killed_run_sends_only_what_is_missing(server, items, tmp_path):
    """Regression (partial output): a run killed mid-line leaves a cut-off last line; the next run drops it."""
    out = tmp_path / "responses.jsonl"
    run_respond(items, out, cfg(server, tmp_path, cache_dir=None))
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text("".join(lines[:5]) + lines[5][: len(lines[5]) // 2], encoding="utf-8")
    server.reset()
    result = run_respond(items, out, cfg(server, tmp_path, cache_dir=None))
    assert result.skipped == 5 and result.ok == 7 and len(server.chat_requests()) == 7
    assert result.dropped and "incomplete last line" in result.dropped[0]
    records = read_jsonl(out)
    assert keys(records) == expected_keys(items)
    assert all(validate_record(r) == [] for r in records)


def test_a_corrupt_line_in_the_middle_is_an_error_not_a_silent_drop(server, items, tmp_path):
    out = tmp_path / "responses.jsonl"
    run_respond(items[:1], out, cfg(server, tmp_path, conditions=("A", "B")))
    lines = out.read_text(encoding="utf-8").splitlines()
    out.write_text(lines[0][:40] + "\n" + lines[1] + "\n", encoding="utf-8")
    with pytest.raises(LoadError) as err:
        run_respond(items[:1], out, cfg(server, tmp_path, conditions=("A", "B")))
    assert err.value.line == 1


def test_errors_are_recorded_per_item_and_retried_by_the_next_run(server, items, tmp_path):
    out = tmp_path / "responses.jsonl"
    server.faults.extend(["500"] * 5)  # the first request exhausts its 4 retries
    result = run_respond(items[:2], out, cfg(server, tmp_path, conditions=("A",)))
    records = read_jsonl(out)
    assert keys(records) == expected_keys(items[:2], ("A",))
    failed = records[0]
    assert failed["status"] == "error" and failed["response"] is None
    assert failed["error"].startswith("server: HTTP 500") and "after 5 attempts" in failed["error"]
    assert validate_record(failed) == []
    assert result.errors == 1 and result.ok == 1 and not result.complete
    server.reset()
    second = run_respond(items[:2], out, cfg(server, tmp_path, conditions=("A",)))
    assert second.ok == 1 and second.skipped == 1 and len(server.chat_requests()) == 1
    assert [r["status"] for r in read_jsonl(out)] == ["ok", "ok"]


def test_a_401_stops_the_run_and_leaves_the_rest_for_later(server, items, tmp_path):
    out = tmp_path / "responses.jsonl"
    server.faults.extend(["401"])
    result = run_respond(items, out, cfg(server, tmp_path))
    assert result.fatal is not None and "HTTP 401" in result.fatal and SECRET not in result.fatal
    records = read_jsonl(out)
    assert len(records) == 1 and records[0]["status"] == "error" and len(server.chat_requests()) == 1
    server.reset()
    assert run_respond(items, out, cfg(server, tmp_path)).ok == 12


def test_the_api_key_is_written_only_where_the_model_quoted_it(server, items, tmp_path, capsys):
    """Issue 16: scrub where a key can appear (error bodies, terminal), never the model's answer, which is scored.

    The server echoes the key in an answer (condition A, after a 500) and quotes the Authorization header in a
    400 body (condition B). The answer is recorded and cached as written; the error and the terminal are scrubbed.
    """
    out = tmp_path / "responses.jsonl"
    server.faults.extend(["500", "echo", "400"])
    warnings: list[str] = []
    run_respond(items[:1], out, cfg(server, tmp_path, conditions=("A", "B", "C")), warn=warnings.append)
    records = read_jsonl(out)
    assert [r["status"] for r in records] == ["ok", "error", "ok"]
    assert records[0]["response"] == f"my key is {SECRET}"  # the answer as the model wrote it
    assert "Bearer [REDACTED]" in records[1]["error"]  # the error body that quoted the header
    for record in records:
        assert SECRET not in json.dumps({k: v for k, v in record.items() if k != "response"})
    with sqlite3.connect(tmp_path / "cache" / "responses.sqlite3") as db:
        dump = "\n".join(db.iterdump())
    assert dump.count(SECRET) == dump.count(f"my key is {SECRET}") >= 1  # cached as recorded, nowhere else
    assert len(warnings) == 1 and "quotes the API key" in warnings[0] and SECRET not in warnings[0]
    captured = capsys.readouterr()
    assert SECRET not in captured.out + captured.err


def test_condition_c_without_a_gold_card_is_an_error_record(server, tmp_path):
    path = tmp_path / "items.jsonl"
    path.write_text(json.dumps({"id": "Q-1", "layer": "L4", "question": "List Warren Buffett's acquisition gates."}) + "\n",
                    encoding="utf-8")
    out = tmp_path / "responses.jsonl"
    result = run_respond(load_items(path), out, cfg(server, tmp_path))
    records = read_jsonl(out)
    assert [r["status"] for r in records] == ["ok", "ok", "error"]
    assert "gold card" in records[2]["error"] and records[2]["prompt_hash"] is None
    assert result.errors == 1 and len(server.chat_requests()) == 2


def test_concurrent_runs_finish_every_record_in_item_order(server, items, tmp_path):
    server.slow_s = 0.02
    out = tmp_path / "responses.jsonl"
    result = run_respond(items, out, cfg(server, tmp_path, concurrency=6))
    assert result.ok == 12 and keys(read_jsonl(out)) == expected_keys(items)


def test_a_second_writer_of_the_same_file_is_refused(server, items, tmp_path):
    from ipb.respond.records import output_lock

    out = tmp_path / "responses.jsonl"
    with output_lock(out):
        with pytest.raises(RunError, match="another run is writing"):
            run_respond(items[:1], out, cfg(server, tmp_path, conditions=("A",)))


def test_read_output_rejects_records_of_another_format(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"version": 2, "item_id": "x"}\n', encoding="utf-8")
    with pytest.raises(LoadError, match="not a valid response record"):
        read_output(path)


# --------------------------------------------------------------------------- synthetic runs


def test_a_synthetic_run_resumes_a_cut_off_or_failed_file(items, tmp_path):
    """Regression (an existing --out replaced): run_synthetic drops a cut-off last line, redoes a failed record,
    keeps records of other keys, and writes the file once, atomically."""
    pytest.importorskip("ipb.respond.synthetic")
    from ipb.respond import run_synthetic, synthetic_records

    l7 = items[:3]
    out = tmp_path / "s.jsonl"
    first = run_synthetic(l7, out, corruptions=["none", "flip_final"], conditions="A,B")
    assert (first.total, first.ok, first.skipped, first.complete) == (12, 12, 0, True)
    lines = out.read_text(encoding="utf-8").splitlines()
    failed = {**json.loads(lines[1]), "status": "error", "response": None, "error": "server: HTTP 500"}
    out.write_text("\n".join([lines[0], json.dumps(failed), *lines[2:-1], lines[-1][:40]]), encoding="utf-8")
    again = run_synthetic(l7, out, corruptions=["none", "flip_final"], conditions="A,B")
    assert (again.ok, again.skipped) == (2, 10) and len(again.dropped) == 1 and "incomplete last line" in again.dropped[0]
    assert out.read_text(encoding="utf-8").splitlines() == lines
    # records of other keys (another corruption, asked no more) are kept after this run's
    fewer = run_synthetic(l7, out, corruptions=["none"], conditions="B")
    assert (fewer.total, fewer.ok, fewer.skipped) == (3, 0, 3)
    kept = read_output(out).records
    assert len(kept) == 12 and [r["condition"] for r in kept[:3]] == ["B", "B", "B"]
    assert {r["corruptions"][0]["name"] for r in kept[:3]} == {"none"}
    assert sorted(json.dumps(r, sort_keys=True) for r in kept) == sorted(
        json.dumps(r, sort_keys=True) for r in synthetic_records(l7, corruptions=["none", "flip_final"], conditions="A,B"))
