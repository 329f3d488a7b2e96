"""Fixtures of the model-run tests: one local server per module, a clean environment."""

from __future__ import annotations

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
