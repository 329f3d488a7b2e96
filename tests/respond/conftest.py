"""Fixtures of the model-run tests: one local server per module, a clean environment."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterator

import pytest

from respond_support import SECRET, FakeServer


@pytest.fixture(scope="module")
def server_module():
    pytest.importorskip("openai")
    srv = FakeServer().start()
    yield srv
    srv.stop()


@pytest.fixture()
def server(server_module):
    server_module.reset()
    yield server_module
    server_module.reset()


@pytest.fixture(autouse=True)
def _environment(monkeypatch, tmp_path):
    """A known key in the environment; no cache outside tmp_path; no proxies for 127.0.0.1."""
    for name in ("OPENAI_API_KEY", "IPB_JUDGE_API_KEY", "IPB_BASE_URL", "IPB_JUDGE_BASE_URL", "JUDGE_MAX_TOKENS",
                 "OPENAI_BASE_URL", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("IPB_API_KEY", SECRET)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("IPB_CACHE_DIR", str(tmp_path / "default-cache"))


@pytest.fixture
def serve_posts() -> Iterator[Callable[[Callable[[BaseHTTPRequestHandler], None]], str]]:
    """Start servers on 127.0.0.1 (an ephemeral port each) whose POSTs a given function answers; all shut down after.

    ``start(answer)`` returns the server's base URL (``http://127.0.0.1:PORT/v1``); ``answer(handler)`` reads the
    request from and writes the reply to ``handler``, a quiet HTTP/1.1 ``BaseHTTPRequestHandler``. For servers
    that misbehave in ways :class:`respond_support.FakeServer`'s faults do not cover (s47break, s48break).
    """
    servers: list[ThreadingHTTPServer] = []

    def start(answer: Callable[[BaseHTTPRequestHandler], None]) -> str:
        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                answer(self)

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/v1"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()
