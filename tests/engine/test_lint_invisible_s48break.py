"""``ipb check`` warns of a name holding a character a reader does not see as it is (s47break leftover 12, s48break).

A gate named "Mo<U+202E>at" shows as "Mota" in an editor or terminal that honours the override; a zero-width space
makes "durable<U+200B>moat" look like "durablemoat". ``ipb check`` accepted both silently. Now each is an
``invisible-character`` warning at the name's line and column, with the character escaped in the message. A
zero-width joiner (needed by Persian, Indic scripts and emoji) is not warned of. The card is the test's own.
"""

from __future__ import annotations

import pytest

from ipb.engine.card import load_card_text
from ipb.engine.lint import lint_card

CARD = """\
id: s48_names
investor: Test Investor
name: {card_name}
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: Tests in order.
decisive_default: true
vintage: {{start: 2000}}
sources: [{{tier: 1, document: Test letter, year: 2000}}]
inputs:
  moat: {{type: bool}}
gates:
  - id: moat_gate
    name: {gate_name}
    aliases: [{alias}]
    proceed: moat
    required_elements: [durable advantage]
"""


def _warnings(card_name: str = "Names", gate_name: str = "Moat", alias: str = "Wide moat") -> list[str]:
    text = CARD.format(card_name=card_name, gate_name=gate_name, alias=alias)
    return [str(w) for w in lint_card(load_card_text(text, "names.yaml")) if w.rule == "invisible-character"]


@pytest.mark.parametrize("field, value, where, says", [
    ("gate_name", '"Mo\\u202eat"', "names.yaml:14:11:",
     "name of gate 'moat_gate' 'Mo\\u202eat' holds U+202E RIGHT-TO-LEFT OVERRIDE at character 3"),
    ("alias", '"durable\\u200bmoat"', "names.yaml:15:15:",
     "alias of gate 'moat_gate' 'durable\\u200bmoat' holds U+200B ZERO WIDTH SPACE at character 8"),
    ("card_name", '"\\u2066Names\\u2069"', "names.yaml:3:7:",
     "card name '\\u2066Names\\u2069' holds U+2066 LEFT-TO-RIGHT ISOLATE at character 1 (and 1 more)"),
    ("gate_name", '"Mo\\u0007at"', "names.yaml:14:11:", "holds U+0007 a control character at character 3"),
])
def test_a_name_with_an_unseen_character_is_warned_of(field: str, value: str, where: str, says: str) -> None:
    [warning] = _warnings(**{field: value})
    assert warning.startswith(where + " warning: "), warning
    assert says in warning


@pytest.mark.parametrize("field, value", [
    ("gate_name", "Moat"),
    ("gate_name", '"\\u0645\\u200c\\u0627\\u0646"'),  # a zero-width non-joiner in Persian: seen as intended
    ("alias", '"\\U0001f468\\u200d\\U0001f4bb moat"'),  # an emoji joined by U+200D
    ("card_name", "Café Coördination"),
])
def test_a_name_a_reader_sees_as_it_is_is_not_warned_of(field: str, value: str) -> None:
    assert _warnings(**{field: value}) == []
