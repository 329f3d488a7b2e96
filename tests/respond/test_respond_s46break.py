"""Hostile tester, stop 46: a model's answer that is not valid Unicode is recorded, not a traceback; number options
that are not finite are refused before any request.

A chat server may send a lone surrogate as a JSON escape ("\\ud800"): the body is valid JSON, but the
decoded text cannot be written as UTF-8. `ipb respond` stopped with a UnicodeEncodeError traceback and left an
empty responses file.
"""

from __future__ import annotations

import json

import pytest

from ipb.cli import app
from ipb.respond.records import dumps_record, read_output
from ipb.respond.run import run_respond
from respond_support import BUFFETT_ANSWER, ITEMS
from test_respond_cli import respond_args, runner
from test_respond_run import cfg, items  # noqa: F401 - the items fixture

BROKEN = BUFFETT_ANSWER.replace("Final verdict", "\ud800Final verdict")


def test_a_record_with_a_lone_surrogate_is_one_json_line_that_reads_back_the_same():
    line = dumps_record({"response": "a\ud800b é", "item_id": "x"})
    line.encode("utf-8")  # no UnicodeEncodeError
    assert "\\ud800" in line and "é" in line  # only the surrogate is escaped
    assert json.loads(line) == {"response": "a\ud800b é", "item_id": "x"}


def test_an_answer_with_a_lone_surrogate_is_recorded_as_sent(server, items, tmp_path):
    out = tmp_path / "responses.jsonl"
    server.reply = lambda body: BROKEN
    for _ in range(2):  # the second run reads the first's cache and finds the record already written
        run_respond(items[:1], out, cfg(server, tmp_path, conditions=("A",)))
    (record,) = read_output(out).records
    assert record["status"] == "ok" and record["response"] == BROKEN
    assert len(server.chat_requests(judge=False)) == 1


def test_a_cached_answer_with_a_lone_surrogate_is_served_from_the_cache(server, items, tmp_path):
    server.reply = lambda body: BROKEN
    run_respond(items[:1], tmp_path / "first.jsonl", cfg(server, tmp_path, conditions=("A",)))
    run_respond(items[:1], tmp_path / "second.jsonl", cfg(server, tmp_path, conditions=("A",)))
    (record,) = read_output(tmp_path / "second.jsonl").records
    assert record["response"] == BROKEN and record["status"] == "ok"
    assert len(server.chat_requests(judge=False)) == 1  # the second run asked no one


# --- number options that are not finite, or a wait beyond a day: refused before any request --------------------------
# On main, `--backoff 1e308` stopped with an OverflowError traceback at the first retry (the policy's cap is
# max(60 s, --backoff)); `--timeout inf` wrote every record as "internal: OverflowError"; `--temperature nan`,
# `--top-p nan` and `--extra-body '{"x": NaN}'` failed every request as a "malformed response body" (a request body
# with NaN is not JSON), each retried.

@pytest.mark.parametrize(("args", "message"), [
    (["--backoff", "1e308"], "--backoff must be at most 86400 seconds"),
    (["--backoff", "inf"], "--backoff must be a finite number, not inf"),
    (["--timeout", "inf"], "--timeout must be a finite number, not inf"),
    (["--top-p", "nan"], "--top-p must be a finite number, not nan"),
    (["--judge-model", "j", "--judge-temperature", "inf"], "--judge-temperature must be a finite number"),
    (["--extra-body", '{"x": NaN}'], "--extra-body holds NaN, which is not a JSON number"),
    (["--temperature", "nan"], "expected a finite number or 'none'"),
])
def test_a_number_option_that_is_not_finite_is_refused_before_any_request(server, tmp_path, args, message):
    out = tmp_path / "r.jsonl"
    server.faults.extend(["500"] * 3)  # a retry would sleep the --backoff
    result = runner.invoke(app, respond_args(server, out, tmp_path, "--conditions", "A", *args))
    assert result.exit_code in (1, 2), result.output
    assert message in " ".join(result.output.split()), result.output
    assert server.chat_requests() == [] and not out.exists()


def test_the_judge_command_refuses_an_infinite_timeout(server, tmp_path):
    result = runner.invoke(app, ["judge", "--items", str(ITEMS), "--responses", str(ITEMS), "--out",
                                 str(tmp_path / "j.jsonl"), "--model", "j", "--base-url", server.url, "--timeout", "inf"])
    assert result.exit_code == 1 and "--timeout must be a finite number, not inf" in result.output
    assert server.chat_requests() == []
