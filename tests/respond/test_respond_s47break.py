"""A server that sends a response body without end (s47break): the read stops at a size cap.

Before, ``ipb respond`` kept every byte of such a body until the time-out of the attempt (120 s by default): one
request held 3.2 GB of memory after 30 s on this machine, so four requests in flight (the default) could fill it.
Now a body longer than ``MAX_BODY_BYTES`` ends the attempt with a ``malformed`` failure that names the cap, and it
is not retried (the same server would send the same endless body). The cap is lowered here so that the tests stay
small; each server is our own, on 127.0.0.1.
"""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

import ipb.respond.client as client_module
from ipb.respond.client import ChatClient, RequestFailed, RetryPolicy

ONE_TRY = RetryPolicy(retries=0, base_s=0.0, max_s=0.0)
TWO_TRIES = RetryPolicy(retries=1, base_s=0.0, max_s=0.0)
LIMIT = 100_000


@pytest.fixture
def serve(serve_posts) -> Any:
    """Start a server in a given mode (the shared ``serve_posts``); returns its base URL and the requests it saw."""

    def start(mode: str) -> tuple[str, list[int]]:
        seen: list[int] = []

        def answer(handler: BaseHTTPRequestHandler) -> None:
            handler.rfile.read(int(handler.headers.get("Content-Length", 0)))
            seen.append(1)
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            if mode == "endless":  # the start of a valid body, then letters until the client hangs up
                handler.end_headers()
                try:
                    handler.wfile.write(b'{"choices": [{"message": {"content": "')
                    while True:
                        handler.wfile.write(b"A" * 16384)
                except OSError:
                    return
            if mode == "huge-length":  # a stated length far above the cap, and a few bytes of it
                handler.send_header("Content-Length", str(10 ** 12))
                handler.end_headers()
                handler.wfile.write(b'{"choices": [')
                return
            if mode == "deep":
                body = b'{"choices": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
                handler.send_header("Content-Length", str(len(body)))
                handler.end_headers()
                handler.wfile.write(body)
                return
            body = json.dumps({"choices": [{"message": {"role": "assistant", "content": "Final verdict: INVEST"},
                                            "finish_reason": "stop", "index": 0}]}).encode()
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            handler.wfile.write(body)

        return serve_posts(answer), seen

    return start


def test_an_endless_body_is_cut_at_the_cap_and_not_retried(serve, monkeypatch) -> None:
    monkeypatch.setattr(client_module, "MAX_BODY_BYTES", LIMIT, raising=False)
    url, seen = serve("endless")
    client = ChatClient(url, api_key="k", timeout_s=20.0, policy=TWO_TRIES)
    with pytest.raises(RequestFailed) as info:
        client.complete("m", [{"role": "user", "content": "hi"}], {}, "k")
    # before: a time-out after 20 s (kind "timeout"), every byte kept until then, and a second attempt
    assert info.value.kind == "malformed"
    assert "longer than 100,000 bytes" in info.value.message
    assert len(seen) == 1


def test_a_stated_length_over_the_cap_is_not_read(serve, monkeypatch) -> None:
    monkeypatch.setattr(client_module, "MAX_BODY_BYTES", LIMIT, raising=False)
    url, seen = serve("huge-length")
    client = ChatClient(url, api_key="k", timeout_s=20.0, policy=ONE_TRY)
    with pytest.raises(RequestFailed) as info:
        client.complete("m", [{"role": "user", "content": "hi"}], {}, "k")
    assert info.value.kind == "malformed"
    assert "1,000,000,000,000 bytes, longer than 100,000" in info.value.message


def test_a_body_under_the_cap_is_read(serve, monkeypatch) -> None:
    monkeypatch.setattr(client_module, "MAX_BODY_BYTES", LIMIT, raising=False)
    url, _ = serve("ok")
    client = ChatClient(url, api_key="k", timeout_s=20.0, policy=ONE_TRY)
    done = client.complete("m", [{"role": "user", "content": "hi"}], {}, "k")
    assert done.text == "Final verdict: INVEST"
    assert done.finish_reason == "stop"


def test_a_body_nested_too_deep_is_malformed_not_internal(serve) -> None:
    # {"choices": [[[[...]]]]} 100,000 deep: the JSON decoder runs out of recursion; before, the record said
    # "internal: RecursionError", a kind kept for ipb's own faults
    url, _ = serve("deep")
    client = ChatClient(url, api_key="k", timeout_s=20.0, policy=ONE_TRY)
    with pytest.raises(RequestFailed) as info:
        client.complete("m", [{"role": "user", "content": "hi"}], {}, "k")
    assert info.value.kind == "malformed"
    assert "RecursionError" in info.value.message
