"""Model names reach the report's charts without their control characters (issue 16, terminal injection).

A model name with ``ESC`` in it made matplotlib warn "Glyph 27 (ESC) missing" on standard error with the raw
byte in the message, so ``ipb report`` wrote an escape sequence to the terminal.
"""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("matplotlib")

from ipb.report.data import Profile, Stat  # noqa: E402
from ipb.report.html import radar_svg  # noqa: E402


def test_a_model_name_with_escapes_draws_without_a_warning_and_shows_them_as_text() -> None:
    name = "evil\x1b[31m\x9b\u202emodel"
    profile = Profile(model=name, axes=[("KCCS", Stat(0.5)), ("IVP", Stat(None)), ("CKCA", Stat(1.0))],
                      flags=[("FM-1", "invented gate", Stat(0.25, kind="rate"))])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        svg = radar_svg(profile)
    assert not [w for w in caught if "Glyph" in str(w.message)], [str(w.message) for w in caught]
    assert "\x1b" not in svg and "\x9b" not in svg and "\u202e" not in svg
