"""A gate's name used as a term of another gate's test, in that gate's line, is no gate of its own (issue 13; paper
§7.6 GCF, §7.15 GRA; s38user repro 2).

"Margin of Safety: PROCEED. $17.5B price against $25B intrinsic value." names the quantity ``intrinsic_value`` that
the Margin of Safety test reads (``price <= (1 - required_margin) * intrinsic_value``); it is not a step on the gate
"Intrinsic Value Estimation", whose alias "intrinsic value" it holds. A mention of gate X on a line labelled by gate Y
(X != Y), after Y's label, whose words are all words of the names Y's tests and computed values read, is dropped before
the answer is cut into sections: it neither opens a section of X nor takes Y's figures. A line labelled by X itself, or
a sentence of its own outside Y's labelled line, still names X.
"""

from __future__ import annotations

from ipb.engine.card import Card
from ipb.scoring.parse._memo import per_object
from ipb.scoring.parse._prose_vocabulary import _stems
from ipb.scoring.parse._state import _ParserState

__all__ = ["gate_test_words", "drop_test_terms"]


@per_object(bound=4096)
def gate_test_words(card: Card, gate: int) -> frozenset[str]:
    """The stems of the names gate ``gate``'s tests and computed values read ("price", "required margin",
    "intrinsic value", "premium" for Buffett's margin of safety).

    >>> from ipb.engine.registry import compiled_card
    >>> {"intrinsic", "margin", "premium", "pric"} <= gate_test_words(compiled_card("buffett_acquisition_checklist").card, 5)
    True
    """
    g = card.gates[gate - 1]
    names: set[str] = set(g.compute)
    for expr in (g.proceed, g.reject, *g.compute.values()):
        if expr is not None:
            names |= set(expr.names)
    out: set[str] = set()
    for name in names:
        out |= _stems(name.replace("_", " "))
    return frozenset(out)


def drop_test_terms(state: _ParserState) -> int:
    """Drop from ``state.mentions`` and ``state.unit_mentions`` every mention that is a term of the test of the gate
    labelling its line (module docstring); the number dropped."""
    card, gone = state.card, set()
    for m in state.mentions:
        if m.invented is not None or len(m.gates) != 1:
            continue
        u = state._unit_at(m.start)
        if u < 0:
            continue
        anchor = state.anchors.get(state.units[u].line)
        if anchor is None or anchor.gate is None or anchor.gate in m.gates or m.start < anchor.mention[1]:
            continue
        words = _stems(state.low[m.start : m.end])
        if words and words <= gate_test_words(card, anchor.gate):
            gone.add(id(m))
    if gone:
        state.mentions = [m for m in state.mentions if id(m) not in gone]
        for u, ms in list(state.unit_mentions.items()):
            if any(id(m) in gone for m in ms):
                state.unit_mentions[u] = [m for m in ms if id(m) not in gone]
    return len(gone)
