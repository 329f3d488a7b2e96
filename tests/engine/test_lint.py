"""Lint: legal but probably unintended card text gives warnings (or errors) with file:line:col."""

from __future__ import annotations

import pytest

from ipb.engine.card import load_card_text
from ipb.errors import ErrorGroup

CARD = """\
id: lint_demo
investor: Test Investor
name: Lint demo
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: Two tests in order.
vintage: {start: 2000}
sources: [{tier: 3, document: Test interview, year: 2000}]
inputs:
  retention: {type: ratio}
  price: {type: money}
gates:
  - id: moat
    name: Moat
    aliases: [durable advantage]
    proceed: retention >= 90
    required_elements: [retention, switching costs]
    source: {tier: 1, document: Test letter, year: 2000}
  - id: price_test
    name: Price test
    aliases: [valuation]
    proceed: price <= 5000000 and price > 0
    required_elements: [price, value]
"""


def test_unitless_thresholds_and_missing_source_are_warnings():
    card = load_card_text(CARD, "lint.yaml")
    found = [(w.rule, w.line, w.column) for w in card.warnings]
    # line 16 "    proceed: retention >= 90": "retention" starts at column 14, so 90 at column 27
    # line 22 "    proceed: price <= 5000000 and price > 0": 5000000 at column 23; 0 is exempt
    # line 19 "  - id: price_test": the gate has no source
    assert found == [("unitless-threshold", 16, 27), ("no-source", 19, 9), ("unitless-threshold", 22, 23)]
    assert "write it as a percentage such as 90%" in card.warnings[0].message
    assert "write it as money such as $5B" in card.warnings[2].message


def test_a_tier_1_card_source_covers_the_gates_without_one():
    # issue 17: one "no primary source" warning per gate buried the real warnings
    text = CARD.replace("sources: [{tier: 3, document: Test interview", "sources: [{tier: 1, document: Test letter")
    assert [w.rule for w in load_card_text(text).warnings] == ["unitless-threshold", "unitless-threshold"]


def test_units_silence_the_warning():
    text = CARD.replace("retention >= 90", "retention >= 90%").replace("price <= 5000000", "price <= $5M")
    rules = [w.rule for w in load_card_text(text).warnings]
    assert rules == ["no-source"]


@pytest.mark.parametrize(
    ("old", "new", "line", "column"),
    [
        ("aliases: [valuation]", "aliases: [Durable  Advantage]", 21, 15),  # another gate's alias, case and spaces aside
        ("name: Price test", "name: moat", 20, 11),  # another gate's name
    ],
    ids=["alias-shared", "name-reused"],
)
def test_a_name_or_alias_shared_by_two_gates_is_an_error(old, new, line, column):
    with pytest.raises(ErrorGroup) as info:
        load_card_text(CARD.replace(old, new), "lint.yaml")
    (error,) = info.value.errors
    assert error.rule == "alias-clash"
    assert (error.line, error.column) == (line, column)
    assert "a name or alias must identify one gate" in error.message
