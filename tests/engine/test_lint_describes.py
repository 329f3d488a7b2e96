"""``describes: sector`` where perturbation never reads it warns (s35break; stop 35's key, docs/perturbation.md).

The key was accepted on a numeric input and on a card with a sector input, and did nothing there: sector
substitution still wrote "Sector: healthcare." beside the author's kind of business. (line, column) counted by hand.
"""

from __future__ import annotations

import pytest

from ipb.engine.card import load_card_text
from ipb.engine.lint import lint_card

HEAD = """\
id: describes
investor: Test Investor
name: Describes
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: Tests in order.
vintage: {start: 2000}
sources: [{tier: 1, document: Test letter, year: 2000}]
inputs:
"""
GATES = """\
gates:
  - {id: g, name: G, proceed: pe <= 20x and kind != "utility", required_elements: [x]}
"""


@pytest.mark.parametrize("inputs,expected", [
    # on a multiple: no value of it names a sector
    ("  pe: {type: multiple, range: [2x, 40x], describes: sector}\n"
     "  kind: {type: category, values: [financial, utility]}\n", [(10, 53, "a multiple input")]),
    # beside a sector input, which holds the sector
    ("  pe: {type: multiple, range: [2x, 40x]}\n"
     "  kind: {type: category, values: [financial, utility], describes: sector}\n"
     "  sector: {type: category, values: [banks, utilities]}\n", [(11, 67, "sector input (sector)")]),
    # the case the key is for: quiet
    ("  pe: {type: multiple, range: [2x, 40x]}\n"
     "  kind: {type: category, values: [financial, utility], describes: sector}\n", []),
])
def test_describes_sector_where_it_does_nothing(inputs: str, expected: list[tuple[int, int, str]]) -> None:
    found = [w for w in lint_card(load_card_text(HEAD + inputs + GATES, "d.yaml")) if w.rule == "describes-ignored"]
    assert [(w.line, w.column) for w in found] == [(line, col) for line, col, _ in expected]
    for w, (_, _, why) in zip(found, expected):
        assert why in str(w) and "remove the key" in str(w)
