"""Bug kind: wrong number, unlinted (branch s53lint, s53newuser finding 4).

``constants: {min_discount: 50}`` with ``proceed: discount_to_value >= min_discount`` (a ratio) compares with 5,000%:
gate 1 rejected every scenario and ``ipb check`` said nothing, while the inline ``>= 50`` warned
(``unitless-threshold``). The rule now sees through a constant read by name. The warning cases fail without the fix.
"""

from __future__ import annotations

import pytest

from ipb.engine.card import load_card_text
from tests.engine.card_support import lint_card_head

CARD = lint_card_head("s53_const", "Constant thresholds") + """\
constants:
  bound: {constant}
inputs:
  discount: {{type: ratio}}
  price: {{type: money}}
  pe: {{type: multiple}}
gates:
  - {{id: g, name: G, proceed: {criterion}, required_elements: [x]}}
"""


def _unitless(constant: str, criterion: str) -> list[str]:
    card = load_card_text(CARD.format(constant=constant, criterion=criterion), "s53_const.yaml")
    return [f"{w.line}:{w.column} {w.message}" for w in card.warnings if w.rule == "unitless-threshold"]


@pytest.mark.parametrize("constant,criterion,advice", [
    # line 17 is the gate; "  - {id: g, name: G, proceed: discount >= " is 42 characters: the threshold is at 43
    ("50", "discount >= bound", "17:43 threshold 'bound' has no unit (card constant bound is a plain number, 50) "
                                "but 'discount' is a ratio; if 50 is meant as a percentage, declare it 'bound: 50%'"),
    ("{value: 50}", "discount >= bound", "declare it 'bound: 50%'"),
    ("0.5", "discount >= bound", "declare it 'bound: 0.5%', or 'bound: 50%' if it is already the share"),
    ("15", "pe <= bound", "if 15 is meant as a multiple, declare it 'bound: 15x'"),
    ("5000000", "price <= bound", "if 5000000 is meant as money, declare it 'bound: $5000000'"),
], ids=["finding-4", "value-form", "share-written-plain", "multiple", "money"])
def test_a_plain_constant_against_a_unit_is_warned(constant, criterion, advice):
    got = _unitless(constant, criterion)
    assert len(got) == 1 and advice in got[0], got


@pytest.mark.parametrize("constant,criterion", [
    ("50%", "discount >= bound"),  # a ratio constant
    ("0", "discount >= bound"),  # zero reads the same in every unit
    ("15x", "pe <= bound"),
])
def test_a_constant_with_its_unit_or_zero_is_quiet(constant, criterion):
    assert _unitless(constant, criterion) == []


def test_the_inline_literal_still_warns_as_before():
    assert _unitless("50%", "discount >= 50") == [
        "17:43 threshold '50' has no unit but 'discount' is a ratio; write it as a percentage such as 90%"]
