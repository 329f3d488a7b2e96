"""Regression (card errors pointing at the wrong constraint, a did-you-mean naming the same word).

Found by the s29break18 review (issue 18): two constraints that derive inputs from each other (d1 derives
liquidity from bond_spread, d2 bond_spread from liquidity) gave two errors both placed at the first
constraint's line, and ``derive: diluted`` on a bool input said "which is not a numeric input (did you mean
'diluted'?)", suggesting the very name written. Each error now points at its own constraint's ``value``, and a
derived input that exists but is not numeric is named with its type and no suggestion.
"""

from __future__ import annotations

import pytest

from ipb.errors import ErrorGroup
from test_perturb_constraints import CARD, card


def _errors(block: str):
    with pytest.raises(ErrorGroup) as err:
        card(block)
    return err.value.errors


def _line_of(text: str) -> int:
    source = CARD.replace("@BLOCK@\n", BLOCK)
    return next(i for i, t in enumerate(source.splitlines(), 1) if text in t)


BLOCK = ("  - id: d1\n    derive: c\n    value: '1 - b'\n"
         "  - id: d2\n    derive: b\n    value: '1 - c'\n")


def test_each_derived_from_derived_error_points_at_its_own_constraint():
    errors = _errors(BLOCK)
    where = {e.name: e.line for e in errors}
    assert where == {"d1": _line_of("value: '1 - b'"), "d2": _line_of("value: '1 - c'")}, \
        [e.render() for e in errors]


def test_deriving_an_input_that_is_not_numeric_names_its_type_without_a_did_you_mean():
    (error,) = _errors("  - {id: x, derive: mood, value: '1 - a'}\n")
    assert "derives 'mood', which is not a numeric input (it is a category input;" in error.message
    assert error.suggestion is None


def test_deriving_an_unknown_input_suggests_a_numeric_one():
    (error,) = _errors("  - {id: x, derive: aa, value: '1 - b'}\n")
    assert "derives 'aa', which is not a numeric input (no input has that name)" in error.message
    assert error.suggestion == "a"
