"""``ipb respond`` says what the wait before condition B's first request is (s34user).

Condition B's embedding ranking loads all-MiniLM-L6-v2 and encodes every knowledge card before any request:
about 1 min 50 s of silence on a busy 2-core machine. ``ipb score`` and ``ipb parse`` already print a line when the
encoder loads; ``ipb respond`` now does too, for condition B with the embedding retriever only.

The notice is checked through condition B's own load path (s34read item 15: the test used to fire
``notify_model_load`` itself, so it would not see B's path stop sending it): :func:`prepare_requests` for a B
request, :meth:`KnowledgeBase.retrieve` with the default encoder, its first encode, the load. sentence-transformers
is replaced by a stand-in whose model cannot be read, so no weights are loaded and B falls back to keywords.
"""

from __future__ import annotations

import sys
import types

import pytest

from ipb.cli.commands import respond as cli_respond
from ipb.respond import RespondConfig, knowledge, load_items, prepare_requests
from ipb.scoring import _load_notice
from ipb.scoring import embeddings
from respond_support import ITEMS


@pytest.fixture
def notices(monkeypatch, tmp_path):
    """Lines the command prints, and "model read" where the stand-in encoder's model is constructed."""
    lines: list[str] = []
    monkeypatch.setattr(_load_notice, "_LOAD_NOTICES", {})
    monkeypatch.setattr(cli_respond.err, "print", lambda text, **kw: lines.append(text))

    class Unreadable:
        def __init__(self, path, device=None):
            lines.append("model read")
            raise OSError("no weights in this test")

    fake = types.ModuleType("sentence_transformers")
    fake.SentenceTransformer = Unreadable  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "sentence_transformers", fake)
    monkeypatch.setattr(embeddings, "default_model_path", lambda: str(tmp_path))
    # B's ranking as in a new process: the process-wide default encoder is cached, and a test earlier in the suite
    # may have loaded the real model through it and encoded the knowledge cards, so B would load nothing here
    # (fresh-clone CI of stop 35: no notice, no "model read"). A fresh encoder is one the cards were never encoded by.
    fresh = embeddings.CachedEncoder(embeddings.SentenceTransformerEncoder())
    monkeypatch.setattr(knowledge, "default_encoder", lambda: fresh)
    return lines


def b_requests(retriever: str, conditions=("B",)):
    config = RespondConfig(model="m", base_url="http://127.0.0.1:9/v1", conditions=conditions, retriever=retriever)
    warned: list[str] = []
    requests = prepare_requests(load_items(ITEMS)[:1], config, warn=warned.append)
    return requests, warned


def test_b_with_the_embedding_retriever_announces_the_load(notices):
    assert cli_respond._announce_encoder(("A", "B"), "embedding") is True
    assert cli_respond._announce_encoder(("A", "B"), "embedding") is True  # a second run in this process
    requests, warned = b_requests("embedding")
    line, read = notices  # said once, before the model is read
    assert read == "model read"
    assert line.startswith("ipb respond: loading the sentence encoder (all-MiniLM-L6-v2) for embedding-based matching")
    assert "encodes the knowledge cards" in line and "--retriever keyword skips both" in line
    assert len(requests) == 1 and any("ranked by keywords" in w for w in warned)  # the stand-in could not load


@pytest.mark.parametrize("conditions, retriever", [(("A", "C"), "embedding"), (("B",), "keyword")])
def test_no_notice_where_no_encoder_is_loaded_for_b(notices, conditions, retriever):
    assert cli_respond._announce_encoder(conditions, retriever) is False
    b_requests(retriever)  # B asked here (keyword ranking reads no model)
    assert notices == ([] if retriever == "keyword" else ["model read"])


def test_the_parsers_fallback_load_gets_no_condition_b_wording(notices):
    cli_respond._announce_encoder(("B",), "embedding")
    _load_notice.notify_model_load("the parser's embedding fallback (a gate label matched no gate by its words)")
    [line] = notices
    assert line.startswith("ipb respond: loading the sentence encoder") and "knowledge cards" not in line
