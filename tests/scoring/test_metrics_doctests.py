"""The Examples blocks of the metric modules run as doctests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "ipb.scoring.registry",
    "ipb.scoring.embeddings",
    "ipb.scoring.metrics._labels",
    "ipb.scoring.metrics._case",
    "ipb.scoring.metrics._matching",
    "ipb.scoring.metrics.sequence",
    "ipb.scoring.metrics.verdict",
    "ipb.scoring.metrics.elements",
    "ipb.scoring.metrics.attribution",
    "ipb.scoring.metrics.institutional",
    "ipb.scoring.metrics.voice",
    "ipb.scoring.metrics._comparison",
    "ipb.scoring.fmdp",
    "ipb.scoring.composite",
    "ipb.scoring.bootstrap",
    "ipb.scoring.summary",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no examples"
