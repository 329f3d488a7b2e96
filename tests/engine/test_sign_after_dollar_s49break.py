"""A sign written after the dollar sign is told where the sign goes (s48break leftover 5, s49break).

``range: [$-10M, $10M]`` was refused with "unexpected character '$'; expected ..." and a list of eleven tokens, among
them "an amount of money": true, but not what the author needed. The message now names the spelling that reads:
``-$10M``. The expected texts below are worked by hand from the input, not copied from a run.
"""

from __future__ import annotations

import pytest

from ipb.engine.card import load_card_text
from ipb.engine.expressions import MONEY, compile_expression
from ipb.errors import CompileError, IpbError

CARD = """\
id: s49_sign
investor: Test Investor
name: Sign
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: One test.
decisive_default: true
vintage: {start: 2000}
sources: [{tier: 1, document: Test letter, year: 2000}]
inputs:
  earnings: {type: money, range: [RANGE_LOW, $10M], step: $1M}
gates:
  - id: earn_gate
    name: Earnings
    proceed: earnings > $0
    required_elements: [earnings]
"""


@pytest.mark.parametrize(("written", "meant"), [
    ("$-10M", "-$10M"),
    ("$ -10M", "-$10M"),
    ("$\u22122.5B", "-$2.5B"),   # a Unicode minus
    ("$+3", "$3"),
])
def test_expression_names_the_spelling_meant(written: str, meant: str) -> None:
    with pytest.raises(CompileError) as caught:
        compile_expression(f"x > {written}", {"x": MONEY})
    assert f"a sign goes before the '$': write '{meant}'" in caught.value.message
    assert (caught.value.line, caught.value.column) == (1, 5)


def test_card_range_keeps_its_place_and_says_what_to_write() -> None:
    with pytest.raises(IpbError) as caught:
        load_card_text(CARD.replace("RANGE_LOW", "$-10M"), "sign.yaml")
    text = str(caught.value)
    assert "range must be a number, not '$-10M'" in text
    assert "write '-$10M'" in text
    assert "sign.yaml:11:35" in text  # the '[' of the range is at column 34; its first item at 35


def test_the_spelling_it_names_is_accepted() -> None:
    card = load_card_text(CARD.replace("RANGE_LOW", "-$10M"), "sign.yaml")
    assert card.id == "s49_sign"


def test_a_bare_dollar_keeps_the_expected_list() -> None:
    with pytest.raises(CompileError) as caught:
        compile_expression("x > $-", {"x": MONEY})
    assert "sign goes before" not in caught.value.message
    assert "an amount of money" in caught.value.message
