"""s51break: a ``min_weight`` no set of gates can reach was checked "ok".

Munger's card (five lenses of weight 1, 3 of 5) with ``min_weight: 100`` passed ``ipb check``, and four
confirming lenses then ran to DECLINE (``threshold_not_met_4_of_5``): the card could never clear. Now a min_weight
above the sum of every gate's weight is a compile error at the min_weight.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ipb.engine.card import load_card_text
from ipb.errors import IpbError

CARD = (Path(__file__).parent / "cards" / "good" / "weighted_2_of_4.yaml").read_text(encoding="utf-8")
LINE = "threshold: {count: PROCEED, at_least: 2, min_weight: 3}"


def _with(min_weight: str) -> str:
    assert LINE in CARD
    return CARD.replace(LINE, f"threshold: {{count: PROCEED, at_least: 2, min_weight: {min_weight}}}")


def test_min_weight_above_all_the_weights_is_refused_at_its_place() -> None:
    # weights 2 + 1 + 1 + 1 = 5: 6 can never be reached, even with every gate proceeding
    with pytest.raises(IpbError) as caught:
        load_card_text(_with("6"), "w.yaml")
    text = str(caught.value)
    assert "min_weight 6 is more than the 4 gates' weights add up to (5)" in text
    line = 1 + CARD.splitlines().index(LINE)
    assert f"w.yaml:{line}:" in text


def test_min_weight_equal_to_all_the_weights_loads() -> None:
    card = load_card_text(_with("5"), "w.yaml")  # every gate proceeding reaches exactly 5
    assert card.threshold is not None and card.threshold.min_weight == 5



def test_fraction_weights_are_summed_exactly() -> None:
    """A weight or min_weight written as a fraction is a Fraction, the others Decimals: the sum is exact, as the
    executor's (the first version added Decimal to Fraction and raised TypeError on every card with a 1/3 weight).
    Weights 2 + 1 + 1 + 1 = 5: 16/3 (5.33...) can never be reached, 14/3 (4.66...) can."""
    with pytest.raises(IpbError) as caught:
        load_card_text(_with('"16/3"'), "w.yaml")
    assert "gates' weights add up to (5)" in str(caught.value)
    card = load_card_text(_with('"14/3"'), "w.yaml")
    assert card.threshold is not None
    thirds = CARD.replace("weight: 2", 'weight: "1/3"', 1)
    assert thirds != CARD
    card = load_card_text(thirds.replace(LINE, 'threshold: {count: PROCEED, at_least: 2, min_weight: "10/3"}'), "w.yaml")
    assert card.threshold is not None  # 1/3 + 1 + 1 + 1 = 10/3 exactly: reachable
    with pytest.raises(IpbError) as caught:
        load_card_text(thirds.replace(LINE, 'threshold: {count: PROCEED, at_least: 2, min_weight: "7/2"}'), "w.yaml")
    assert "add up to (3.333333333333333333333333333)" in str(caught.value)


def test_a_negative_weight_gives_its_own_error_only() -> None:
    """s64 new user F10: weight -5 gave its error ("gate weight must be positive") and also "min_weight 3 is more
    than the 4 gates' weights add up to (0)" (2 + 1 + 1 - 5 = -1 here), a sum over a weight already refused."""
    negative = CARD.replace("weight: 2", "weight: -5", 1)
    assert negative != CARD
    with pytest.raises(IpbError) as caught:
        load_card_text(negative, "w.yaml")
    text = str(caught.value)
    assert "gate weight must be positive, not -5" in text
    assert "add up to" not in text
