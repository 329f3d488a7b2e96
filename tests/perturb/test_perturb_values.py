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


# --------------------------------------------------------------------------- the fast literal reader of ipb verify


def test_read_literal_equals_convert_fact_digit_for_digit():
    """Every literal the items write reads back to the same Decimal (same repr) as the parser gives."""
    import random as _random

    from ipb.engine.registry import bundled_card_paths, compiled_card
    from ipb.engine.scenario import convert_fact
    from ipb.perturb.values import input_grid, literal, read_literal

    rng = _random.Random(18)
    checked = 0
    for path in bundled_card_paths():
        for spec in compiled_card(path.stem).card.inputs.values():
            grid = input_grid(spec)
            if grid is None:
                continue
            for k in {0, grid.count - 1, *rng.sample(range(grid.count), min(40, grid.count))}:
                for value in (grid.value(k), -grid.value(k)):
                    text = literal(spec, value)
                    if not isinstance(text, str):
                        continue
                    fast = read_literal(spec, text)
                    slow = convert_fact(spec, text)
                    assert fast is not None and repr(fast) == repr(slow), (spec.name, text, fast, slow)
                    checked += 1
    assert checked > 2000


def test_read_literal_leaves_what_it_does_not_know_to_the_parser():
    from ipb.engine.expressions import MONEY, NUMBER, RATIO
    from ipb.engine.card import InputSpec
    from ipb.perturb.values import read_literal

    money, ratio, number = InputSpec("m", "money", MONEY), InputSpec("r", "ratio", RATIO), InputSpec("n", "number", NUMBER)
    for spec, text in ((money, "95%"), (ratio, "$5"), (ratio, "95"), (number, "3M"), (money, "2/3"), (money, "1e3"),
                       (number, "$5x"), (money, " $5")):
        assert read_literal(spec, text) is None, (spec.name, text)
