"""``ipb respond`` says what the wait before condition B's first request is (s34user).

Condition B's embedding ranking loads all-MiniLM-L6-v2 and encodes every knowledge card before any request:
about 1 min 50 s of silence on a busy 2-core machine. ``ipb score`` and ``ipb parse`` already print a line when the
encoder loads; ``ipb respond`` now does too, for condition B with the embedding retriever only.
"""

from __future__ import annotations

import pytest

from ipb.cli.commands import respond as cli_respond
from ipb.scoring import _load_notice


@pytest.fixture
def notices(monkeypatch):
    lines: list[str] = []
    monkeypatch.setattr(_load_notice, "_LOAD_NOTICES", [])
    monkeypatch.setattr(cli_respond.err, "print", lambda text, **kw: lines.append(text))
    return lines


def test_b_with_the_embedding_retriever_announces_the_load(notices):
    assert cli_respond._announce_encoder(("A", "B"), "embedding") is True
    _load_notice.notify_model_load("embedding-based matching")
    [line] = notices
    assert line.startswith("ipb respond: loading the sentence encoder (all-MiniLM-L6-v2)")
    assert "encodes the knowledge cards" in line and "--retriever keyword skips both" in line


@pytest.mark.parametrize("conditions, retriever", [(("A", "C"), "embedding"), (("B",), "keyword")])
def test_no_notice_where_no_encoder_is_loaded_for_b(notices, conditions, retriever):
    assert cli_respond._announce_encoder(conditions, retriever) is False
    _load_notice.notify_model_load("embedding-based matching")
    assert notices == []
