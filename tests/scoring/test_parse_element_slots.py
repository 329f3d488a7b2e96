"""Regression (misread figure): a number field of an element template is read by the one number reader.

``_element_spec._render_slot`` used to strip every non-digit from a figure it could not read, so that
``1,5`` became 15 and ``2 to 1`` became 21. It now reads the figure with
:func:`ipb.engine.numbers.read_number` (strict: a figure in one field has no convention around it)
and refuses what that cannot read.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse._element_spec import _render_slot


@pytest.mark.parametrize(
    ("raw", "unit", "rendered"),
    [
        ("12", None, "12"),
        ("1,234", None, "1234"),
        ("-5", None, "-5"),
        ("\u22125", None, "-5"),
        ("2 to 1", "multiple", "2x"),
        ("4.5 to 1", "multiple", "4.5x"),
        ("3:1", "multiple", "3x"),
        ("12 times", "multiple", "12x"),
        ("10x", "multiple", "10x"),
    ],
    ids=["plain", "thousands", "minus", "unicode-minus", "two-to-one", "decimal-to-one", "colon", "times", "x"],
)
def test_a_number_field_is_read_by_the_one_number_reader(raw: str, unit: str | None, rendered: str) -> None:
    assert _render_slot(raw, "number", unit, ()) == rendered


@pytest.mark.parametrize("raw", ["1,5", "3:2", "1-2", "abc", "-", "2 to 1.5"],
                         ids=["lone-comma", "ratio-not-to-one", "range", "words", "dash", "to-a-decimal"])
def test_a_figure_the_number_reader_refuses_is_not_read(raw: str) -> None:
    assert _render_slot(raw, "number", None, ()) is None


@pytest.mark.parametrize(("raw", "rendered"), [("1.5bn", "$1.5B"), ("7.5m", "$7.5M"), ("20B", "$20B")],
                         ids=["bn", "m", "B"])
def test_money_written_with_a_scale_and_no_currency_keeps_its_scale(raw: str, rendered: str) -> None:
    # stripping non-digits read "1.5bn" as $1.5, a billion times too small
    assert _render_slot(raw, "number", "money", ()) == rendered
