"""Hostile tester, stop 46: a model's answer that is not valid Unicode is recorded, not a traceback.

A chat server may send a lone surrogate as a JSON escape ("\\ud800"): the body is valid JSON, but the
decoded text cannot be written as UTF-8. `ipb respond` stopped with a UnicodeEncodeError traceback and left an
empty responses file.
"""

from __future__ import annotations

import json

from ipb.respond.records import dumps_record, read_output
from ipb.respond.run import run_respond
from respond_support import BUFFETT_ANSWER
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
