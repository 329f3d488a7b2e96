"""A required element's category field is read from the value's words (s48user).

The new user's card (tests/fixtures/new_user48, Einhorn's short-sale checklist) asks gate 4 for the element
``expected catalyst {catalyst}``, which the GRP renders ``expected catalyst capital_raise``. The perturbed question
says "The expected catalyst is capital raise.", and a faultless answer that wrote "The expected catalyst is a capital
raise" was not credited: a category field was read only verbatim (the element's words then the value, nothing
between), so KCCS was 0.933, not 1, on every item that reached gate 4. The value is now read by its words in the
element's sentence; a different value of the category is read as that value, so it is not the gold element.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ipb.scoring.parse import parse_response

CARD = Path(__file__).resolve().parents[1] / "fixtures" / "new_user48" / "einhorn_short_checklist.yaml"
GATE4 = "4. Catalyst in sight: {verdict}. The expected catalyst is {value}, an event that forces a re-mark.\n"


def _elements(text: str, gate: int = 4) -> list[str]:
    parsed = parse_response(text, str(CARD), embedder=False).to_dict()
    [read] = [g for g in parsed["gates"] if g["gate"] == gate]
    return read["elements"]


@pytest.mark.parametrize("value, rendered", [
    ("a capital raise", "expected catalyst capital_raise"),
    ("a capital-raise", "expected catalyst capital_raise"),
    ("a regulatory inquiry", "expected catalyst regulatory_inquiry"),  # another value: not the gold element
    ("none", "expected catalyst none"),
])
def test_the_category_value_is_read_by_its_words(value, rendered):
    assert rendered in _elements(GATE4.format(verdict="PROCEED", value=value))


def test_a_sentence_without_a_value_of_the_category_fills_no_field():
    text = "4. Catalyst in sight: PROCEED. The expected catalyst is near, an event that forces a re-mark.\n"
    assert _elements(text) == ["event that forces a re-mark"]


def test_the_verbatim_rendering_is_still_read():
    assert "expected catalyst capital_raise" in _elements(GATE4.format(verdict="PROCEED", value="x").replace(
        "The expected catalyst is x", "Expected catalyst capital_raise"))
