"""Regression (s34break): before ``streaks.began`` a dividend streak's bound was negative.

The stop-34 bound is "a streak stated in year Y is at most Y - began" (began 1944). For a scenario dated 1940 that
is -4, so a streak of 0 (no raise yet) was an anachronism: ``ipb perturb`` on a 1940 Lynch base with
``dividend_raised_years: 0`` refused it with "at most -4 years". The bound is now never below 0 years.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from ipb.engine.registry import compiled_card
from ipb.perturb.registries import bundled_regimes

LYNCH = "lynch_six_category_framework"


@pytest.mark.parametrize("year, streak, refused", [
    (1940, 0, False),  # before 1944: no raise yet holds
    (1940, 1, True),  # the bound is 0 years then
    (1944, 0, False),
    (1944, 1, True),
    (1982, 38, False),  # 1982 - 1944 = 38, as the registry's own comment works it
    (1982, 39, True),
])
def test_streak_bound_is_never_negative(year: int, streak: int, refused: bool) -> None:
    card = compiled_card(LYNCH).card
    found = bundled_regimes().anachronisms(card.inputs, {"dividend_raised_years": Decimal(streak)}, year)
    assert bool(found) is refused, found
    if refused:
        assert "at most 0 years" in found[0] or year == 1982
