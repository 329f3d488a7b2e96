"""Whether a clause names the quantity a gate's test reads (issue 13; paper §7.5; s38user repro 1).

A figure is a gate's measured value only when it is the quantity the gate's test compares, never another figure of the
same scenario. The parser's first check is that the clause holds a word of the test's quantity (its name or input
label: :func:`._prose_vocabulary._bar_words`). A quantity's words may be shared with the card's other quantities, most
of all a computed value's with the inputs it is computed from: ``portfolio_loss = position_weight * downside_loss``
shares "portfolio" with the position weight ("share of the portfolio") and "loss" with the downside loss, so "6% of the
portfolio" or "a 30% loss" is no portfolio loss. A word of the quantity that no other input or computed value uses (its
name or label; for a computed value also its operands' descriptions) names it alone; when every word the clause holds is
shared, it must hold all the words of the quantity's name or of its label.
"""

from __future__ import annotations

from ipb.engine.card import Card
from ipb.scoring.parse._memo import per_object
from ipb.scoring.parse._prose_vocabulary import _bar_words, _stems

__all__ = ["names_quantity"]


@per_object(bound=4096)
def _shared(card: Card, name: str) -> frozenset[str]:
    """The stems of ``name``'s words (name and label) that another quantity of ``card`` also uses: the name or label of
    another input or computed value, and, when ``name`` is computed, the descriptions of the inputs it is computed from
    (the figures it is most easily confused with)."""
    other: set[str] = set()
    operands: frozenset[str] = frozenset()
    for gate in card.gates:
        for key, expr in (getattr(gate, "compute", {}) or {}).items():
            if key == name:
                operands = frozenset(getattr(expr, "names", ()) or ())
            else:
                other |= _stems(key.replace("_", " "))
    for key, spec in card.inputs.items():
        if key != name:
            other |= _stems(key.replace("_", " ")) | _stems(getattr(spec, "label", "") or "")
            if key in operands:
                other |= _stems(getattr(spec, "description", "") or "")
    return _bar_words(card, name) & frozenset(other)


def names_quantity(card: Card, name: str, text: str) -> bool:
    """Whether ``text`` (a clause, any case) names the quantity ``name`` a gate's test reads (module docstring).

    >>> from ipb.engine.registry import compiled_card
    >>> card = compiled_card("klarman_downside_first_process").card
    >>> [names_quantity(card, "portfolio_loss", t) for t in ("6% of the portfolio", "a 30% loss",
    ...                                                      "the portfolio loss in the bad case is 1.5%")]
    [False, False, True]
    """
    own = _bar_words(card, name)
    said = _stems(text.lower()) & own
    if not said:
        return False
    if said - _shared(card, name):
        return True
    spec = card.inputs.get(name)
    label = _stems(getattr(spec, "label", "") or "")
    return _stems(name.replace("_", " ")) <= said or bool(label) and label <= said
