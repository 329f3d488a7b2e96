"""A compressed response body is held to the size cap after it is decoded (s48break).

s47break capped a response body at ``MAX_BODY_BYTES``, counted on the wire. The HTTP client decodes a body sent
with ``Content-Encoding: gzip`` after that count, so a 200 KB gzip body of 200 MB of letters passed the cap: the
run held 928 MB of memory and wrote a 200 MB "ok" response record. Now the decoded bytes are counted as well, and
a coding ipb did not ask for is refused unread. The cap is lowered here so that the tests stay small; each server
is our own, on 127.0.0.1.
"""

from __future__ import annotations

import gzip
import json
import zlib
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

import ipb.respond.client as client_module
from ipb.respond.client import ChatClient, RequestFailed, RetryPolicy

ONE_TRY = RetryPolicy(retries=0, base_s=0.0, max_s=0.0)
TWO_TRIES = RetryPolicy(retries=1, base_s=0.0, max_s=0.0)
LIMIT = 100_000


def _body(content: str) -> bytes:
    return json.dumps({"choices": [{"message": {"role": "assistant", "content": content}, "finish_reason": "stop",
                                    "index": 0}]}).encode()


#: 1,000,000 letters: about 1 MB decoded, about 1 KB in gzip, far under the cap on the wire
BOMB = _body("A" * 1_000_000)
SMALL = _body("Final verdict: INVEST")


def _raw_deflate(data: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()


BODIES = {
    "gzip-bomb": ("gzip", gzip.compress(BOMB)),
    "gzip-twice-bomb": ("gzip, gzip", gzip.compress(gzip.compress(BOMB))),
    "deflate-bomb": ("deflate", zlib.compress(BOMB)),
    "raw-deflate-bomb": ("deflate", _raw_deflate(BOMB)),
    "gzip-small": ("gzip", gzip.compress(SMALL)),
    "raw-deflate-small": ("deflate", _raw_deflate(SMALL)),
    "gzip-twice-small": ("gzip, gzip", gzip.compress(gzip.compress(SMALL))),
    "br": ("br", b"\x0b\x02\x80{}\x03"),
}


@pytest.fixture
def serve(serve_posts) -> Any:
    """Start a server sending one of BODIES (the shared ``serve_posts``).

    Returns its base URL and the Accept-Encoding of each request it saw.
    """

    def start(mode: str) -> tuple[str, list[str]]:
        seen: list[str] = []
        coding, body = BODIES[mode]

        def answer(handler: BaseHTTPRequestHandler) -> None:
            handler.rfile.read(int(handler.headers.get("Content-Length", 0)))
            seen.append(handler.headers.get("Accept-Encoding", ""))
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Encoding", coding)
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            handler.wfile.write(body)

        return serve_posts(answer), seen

    return start


def test_the_bombs_are_small_on_the_wire() -> None:
    # the premise: each bomb passes the count on the wire, so only the decoded count can stop it
    for mode in ("gzip-bomb", "gzip-twice-bomb", "deflate-bomb", "raw-deflate-bomb"):
        assert len(BODIES[mode][1]) < LIMIT // 10, mode
    assert len(BOMB) > 10 * LIMIT


@pytest.mark.parametrize("mode, coding", [("gzip-bomb", "gzip"), ("gzip-twice-bomb", "gzip, gzip"),
                                          ("deflate-bomb", "deflate"), ("raw-deflate-bomb", "deflate")])
def test_a_compressed_body_over_the_cap_when_decoded_is_stopped_and_not_retried(serve, monkeypatch, mode,
                                                                                 coding) -> None:
    monkeypatch.setattr(client_module, "MAX_BODY_BYTES", LIMIT, raising=False)
    url, seen = serve(mode)
    client = ChatClient(url, api_key="k", timeout_s=20.0, policy=TWO_TRIES)
    with pytest.raises(RequestFailed) as info:
        client.complete("m", [{"role": "user", "content": "hi"}], {}, "k")
    # before: the 1 MB of letters was read as the answer (no failure at all)
    assert info.value.kind == "malformed"
    assert f"decodes (Content-Encoding: {coding}) to more than 100,000 bytes" in info.value.message
    assert len(seen) == 1


@pytest.mark.parametrize("mode", ["gzip-small", "raw-deflate-small", "gzip-twice-small"])
def test_a_compressed_body_under_the_cap_is_read(serve, monkeypatch, mode) -> None:
    monkeypatch.setattr(client_module, "MAX_BODY_BYTES", LIMIT, raising=False)
    url, seen = serve(mode)
    client = ChatClient(url, api_key="k", timeout_s=20.0, policy=ONE_TRY)
    done = client.complete("m", [{"role": "user", "content": "hi"}], {}, "k")
    assert done.text == "Final verdict: INVEST"
    assert seen == ["gzip, deflate"]


def test_a_coding_ipb_did_not_ask_for_is_refused_unread(serve) -> None:
    url, seen = serve("br")
    client = ChatClient(url, api_key="k", timeout_s=20.0, policy=TWO_TRIES)
    with pytest.raises(RequestFailed) as info:
        client.complete("m", [{"role": "user", "content": "hi"}], {}, "k")
    assert info.value.kind == "malformed"
    assert "content coding 'br', which ipb did not ask for" in info.value.message
    assert len(seen) == 1
