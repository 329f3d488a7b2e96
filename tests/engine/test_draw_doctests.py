"""The Examples blocks of :mod:`ipb.engine.draw` run as doctests."""

from __future__ import annotations

import doctest

import pytest

import ipb.engine.draw

# the examples draw with the built-in renderer (and measure text with it)
pytest.importorskip("matplotlib", reason="needs the 'plot' extra: pip install 'ipb[plot]'")


def test_draw_docstring_examples() -> None:
    result = doctest.testmod(ipb.engine.draw, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0
