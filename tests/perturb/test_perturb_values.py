"""Exact literals: every grid value of every bundled card reads back as itself."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.engine.registry import bundled_card_paths, compiled_card
from ipb.engine.scenario import convert_fact
from ipb.errors import IpbError
from ipb.perturb.values import Grid, display, input_grid, literal


def ranged_inputs():
    found = []
    for path in bundled_card_paths():
        try:
            card = compiled_card(str(path)).card
        except IpbError:
            continue
        found += [spec for spec in card.inputs.values() if input_grid(spec) is not None]
    return found


SPECS = ranged_inputs()


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_literal_round_trips_on_every_grid(data):
    if not SPECS:
        pytest.skip("no bundled card declares a ranged input")
    spec = data.draw(st.sampled_from(SPECS))
    grid = input_grid(spec)
    value = grid.value(data.draw(st.integers(0, grid.count - 1)))
    text = literal(spec, value)
    assert isinstance(text, str) and convert_fact(spec, text) == value
    assert display(spec, value)


def test_grid_arithmetic_is_exact():
    g = Grid(Decimal("0.1"), Decimal("0.1"), Decimal("0.3"))
    assert g.count == 3 and g.value(2) == Decimal("0.3") and g.index_of(Decimal("0.3")) == 2
    assert g.clip(Decimal("0.15"), Decimal("1")) == Grid(Decimal("0.2"), Decimal("0.1"), Decimal("0.3"))
    assert g.clip(Decimal("0.35"), Decimal("1")) is None
