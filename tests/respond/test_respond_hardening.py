"""Model-run hardening (issue 16): content as text parts, short keys, base URLs, a total deadline per attempt."""

from __future__ import annotations

import time

import pytest

from ipb.respond.client import ChatClient, RequestFailed, RetryPolicy, Secrets, check_base_url, message_text
from ipb.respond.records import RunError
from ipb.respond.run import run_respond
from respond_support import BUFFETT_ANSWER, SECRET, read_jsonl
from test_respond_run import cfg, items  # noqa: F401 - the items fixture

ONE_TRY = RetryPolicy(retries=0, base_s=0.0, max_s=0.0)


def test_content_as_text_parts_is_read(server, items, tmp_path):
    out = tmp_path / "responses.jsonl"
    server.faults.append("parts")
    run_respond(items[:1], out, cfg(server, tmp_path, conditions=("A",)))
    (record,) = read_jsonl(out)
    assert record["status"] == "ok" and record["response"] == BUFFETT_ANSWER
    assert len(server.chat_requests(judge=False)) == 1  # read the first time: no paid retry


def test_message_text_forms():
    assert message_text(None) is None and message_text("a") == "a"
    assert message_text([{"type": "text", "text": "a"}, {"type": "refusal", "refusal": "no"}, {"text": "b"}]) == "ab"
    assert message_text([{"type": "image_url"}]) is None


def test_short_keys_do_not_rewrite_answers(server, items, tmp_path):
    out = tmp_path / "responses.jsonl"
    server.reply = lambda body: "the first gate: PROCEED\n" + BUFFETT_ANSWER
    client = ChatClient(server.url, api_key="firs", policy=ONE_TRY)
    run_respond(items[:1], out, cfg(server, tmp_path, conditions=("A",), cache_dir=None), client=client)
    (record,) = read_jsonl(out)
    assert "the first gate" in record["response"] and "[REDACTED]" not in record["response"]
    assert Secrets(["firs"]).scrub("the first") == "the first"
    assert Secrets([SECRET]).scrub(f"Bearer {SECRET}") == "Bearer [REDACTED]"


@pytest.mark.parametrize("url", ["https://user:pw@example.invalid/v1", "https://example.invalid/v1?key=abc",
                                 "https://example.invalid/v1#frag", "ftp://example.invalid/v1", "example.invalid/v1"])
def test_base_urls_with_user_info_or_query_are_refused(url):
    with pytest.raises(RunError) as info:
        check_base_url(url)
    assert "pw" not in str(info.value) and "abc" not in str(info.value)
    with pytest.raises(RunError):
        ChatClient(url, api_key=SECRET)


def test_a_trickling_server_cannot_outlast_the_deadline(server):
    server.faults.append("drip")  # ~40 bytes at 0.3 s each: 12 s if reads were the only limit
    client = ChatClient(server.url, api_key=SECRET, timeout_s=1.0, policy=ONE_TRY)
    started = time.monotonic()
    with pytest.raises(RequestFailed) as info:
        client.complete("m", [{"role": "user", "content": "hi"}], {}, "k")
    assert time.monotonic() - started < 8.0  # 1 s deadline plus slack for a loaded machine; 12 s without it
    assert info.value.kind == "timeout"
