"""The demo card the lint doctests share: a linear conjunction, decisive by default, valid from 2000, one source.

Each lint's docstring shows a warning on a small card; only the card's inputs, constraints and gates differ, so the
nine lines of its head are written here once (the tests' own head is tests/engine/card_support.py).
"""

from __future__ import annotations

from ipb.engine.card import Card, load_card_text

__all__ = ["DEMO_HEAD", "demo_card"]

#: The head: line 1 is blank and the head takes lines 2 to 10, so a body's first line is line 11 of "demo.yaml".
DEMO_HEAD = ("\nid: demo\ninvestor: X\nname: Demo\ntopology_type: linear_sequential\ngate_logic: conjunction\n"
             "decisive_default: true\ntopology_rationale: one test\nvintage: {start: 2000}\n"
             "sources: [{tier: 1, document: D, year: 2000}]\n")


def demo_card(body: str) -> Card:
    """The demo card with ``body`` (its ``inputs:``, ``constraints:`` and ``gates:`` as YAML) after the head, loaded
    as "demo.yaml" (warnings name its lines: the body's first line is line 11).

    >>> card = demo_card('''inputs:
    ...   pe: {type: multiple}
    ... gates:
    ...   - {id: g, name: G, reject: pe > 20x, required_elements: [x]}
    ... ''')
    >>> card.id, list(card.inputs), card.gates[0].id
    ('demo', ['pe'], 'g')
    """
    return load_card_text(DEMO_HEAD + body, "demo.yaml")
