"""An LLM extractor whose server cannot be reached stops asking after the first answer (s48break, "Found and left" 1).

Before: ``ipb score --extractor llm`` with nothing listening at ``--llm-base-url`` retried every answer with
back-off (six answers took 4 min 49 s) and printed no word of it. Now the first answer's failure, after the
client's retries, stops the extractor: later answers are filed as extractor failures without a request
(``llm extractor: not asked: ...``; counted as parse failures, never dropped), and ``ipb score`` prints one line
saying so. A 401/403/404 (``fatal``) stops it the same way; a bad reply or a rate limit concerns one answer only.
The servers are our own, on 127.0.0.1.
"""

from __future__ import annotations

import functools
import json
import socket

import pytest
from respond_support import BUFFETT_ANSWER, read_jsonl
from typer.testing import CliRunner

import ipb.respond.extract as extract_module
from ipb.cli import app
from ipb.engine.registry import compiled_card
from ipb.respond.client import ChatClient, RetryPolicy
from ipb.respond.extract import ExtractorConfig, LLMExtractor

BUFFETT = compiled_card("buffett_acquisition_checklist").card
GOOD = {"gates": [{"gate": 1, "verdict": "PROCEED", "quote": None}], "final_verdict": "DECLINE", "final_quote": None,
        "invented_gates": []}


class CountingClient(ChatClient):
    """A :class:`ChatClient` that counts the requests it is asked to make (before its own retries)."""

    asked = 0

    def complete(self, *args, **kwargs):
        CountingClient.asked += 1
        return super().complete(*args, **kwargs)


def _closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, read, released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _extractor(url: str) -> LLMExtractor:
    client = CountingClient(url, timeout_s=5, policy=RetryPolicy(retries=1), sleep=lambda s: None)
    return LLMExtractor(ExtractorConfig(model="reader-1", base_url=url), client=client, cache=None)


def test_after_a_connection_failure_no_later_answer_is_sent() -> None:
    CountingClient.asked = 0
    extractor = _extractor(f"http://127.0.0.1:{_closed_port()}/v1")
    reasons = [extractor(BUFFETT_ANSWER, BUFFETT).reason for _ in range(5)]
    assert CountingClient.asked == 1 and extractor.skipped == 4
    assert reasons[0].startswith("llm extractor: request failed (connection): ")
    unasked = "llm extractor: not asked: an earlier answer's request failed (connection): "
    assert all(r.startswith(unasked) for r in reasons[1:])
    # an empty answer is not the server's fault and is not counted as skipped
    assert extractor("   ", BUFFETT).reason == "empty response" and extractor.skipped == 4


def test_a_refused_key_stops_it_and_a_bad_reply_does_not(server) -> None:
    CountingClient.asked = 0
    server.faults.append("401")
    extractor = _extractor(server.url)
    first, second = extractor(BUFFETT_ANSWER, BUFFETT), extractor(BUFFETT_ANSWER, BUFFETT)
    assert first.reason.startswith("llm extractor: request failed (fatal): ")
    assert second.reason.startswith("llm extractor: not asked: ") and len(server.chat_requests()) == 1
    server.reset()
    replies = iter(["not JSON at all", json.dumps(GOOD)])
    server.reply = lambda body: next(replies)
    extractor = _extractor(server.url)
    bad, good = extractor(BUFFETT_ANSWER, BUFFETT), extractor(BUFFETT_ANSWER, BUFFETT)
    assert bad.reason.startswith("llm extractor: unreadable reply: ") and extractor.stopped is None
    assert good.ok and [g.gate for g in good.gates] == [1] and len(server.chat_requests()) == 2


def test_ipb_score_says_once_that_the_extractor_stopped(tmp_path, monkeypatch) -> None:
    CountingClient.asked = 0
    monkeypatch.setattr(extract_module, "ChatClient",
                        functools.partial(CountingClient, policy=RetryPolicy(retries=1), sleep=lambda s: None))
    runner = CliRunner()
    out = tmp_path / "bundled.jsonl"
    made = runner.invoke(app, ["respond", "--synthetic", "--bundled", "--corruptions", "none", "--out", str(out)])
    assert made.exit_code == 0, made.output
    records = read_jsonl(out)
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    scored = runner.invoke(app, ["score", "--items", str(tmp_path / "bundled.items.jsonl"), "--responses", str(out),
                                 "--out", str(tmp_path / "scored"), "--no-embeddings", "--resamples", "20",
                                 "--extractor", "llm", "--llm-model", "reader-1", "--llm-base-url", url, "--no-cache"])
    assert scored.exit_code == 0, scored.output
    assert CountingClient.asked == 1
    lines = [x for x in scored.output.splitlines() if "stopped asking" in x]
    assert len(lines) == 1
    assert lines[0].startswith(f"ipb score: the LLM extractor stopped asking {url}: an earlier answer's request failed "
                               "(connection): ")
    assert lines[0].endswith(f"; {len(records) - 1} later answer(s) were not sent and are filed as extractor failures "
                             "(counted as parse failures, never dropped)")
    summary = json.loads((tmp_path / "scored" / "summary.json").read_text(encoding="utf-8"))
    assert summary["counts"]["parse_failures"] == len(records)
