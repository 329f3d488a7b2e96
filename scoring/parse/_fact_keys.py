"""JSON fact keys: a key that is one of the card's inputs detects the gate that reads it (issue 13, gate references).

Screeners and persona bots print the figures a criterion reads under the input's own name: ``"debt_to_equity": 0.4``,
``"Market cap": "$1.2bn"``, ``"earnings-yield": "11.8%"``. The corpus convention (``tests/scoring/corpus/README.md``)
labels a bare fact with no judgement a *discussed* gate with no verdict (``-``), so such a key detects the gate that
reads the input, with verdict None:

- **which gate**: the key, lowercased with ``_``, ``-`` and spaces read alike, is the name of an input (or a value a
  gate computes) that exactly one gate reads (:func:`input_gates`); an input two gates read names neither. A key the
  label readers already take to a gate by its name or alias words (``"market_cap"`` for a "Market-Cap Floor" gate) is
  read the same way;
- **a fact, not a judgement**: its value is a figure or a short value with no verdict word
  (:meth:`._json_answer._JsonAnswerMixin._fact_value`). A value that judges (``"0.4, comfortably low"``) makes the key
  the gate's label instead, and the gate's verdict is read in its section (:meth:`._json_answer._JsonAnswerMixin._resolve_labels`);
- **the order**: a gate the answer also judges elsewhere keeps that place (figures listed ahead of the checks object
  that judges them are no summary that fixes the order, s24break finding 4); a gate met only by its fact key takes the
  key's place among the others;
- **no verdict inferred**: its ``how`` is ``fact``, and a final verdict never entails a PROCEED for it
  (:func:`._entailed.entailed_gates`): nothing in the answer judged it.

References
----------
Paper §7.5 (SRP); issue 13 item 2 (gate references); corpus README (labelling conventions, "a bare fact").
"""

from __future__ import annotations

import re

from ipb.engine.card import Card
from ipb.scoring._text import normalize
from ipb.scoring.parse._memo import per_object
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import GateTrace
from ipb.scoring.parse._vocabulary import names_read

__all__ = ["FACT_HOW", "input_gates", "key_words"]

#: ``how`` of a gate detected only by a fact key.
FACT_HOW = "fact"
_SEPARATORS = re.compile(r"[\s_\-]+")


def key_words(key: str) -> str:
    """A key as words: lowercased, quotes dropped, ``_`` / ``-`` / spaces and a camelCase hump read as one space
    (``"Debt_to-Equity "`` and ``"debtToEquity"`` -> ``debt to equity``)."""
    return _SEPARATORS.sub(" ", _CAMEL_HUMP.sub(" ", key.strip().strip("\"'")).lower()).strip()


#: Where a camelCase key's words meet: "debtToEquity" is "debt To Equity".
_CAMEL_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")


@per_object()
def input_gates(card: Card) -> dict[str, int]:
    """The card's input names and computed value names (as :func:`key_words`) -> the one gate that reads each; a name
    read by several gates is left out (built once per card).

    >>> from ipb.engine.registry import compiled_card
    >>> table = input_gates(compiled_card("greenblatt_magic_formula_screen").card)
    >>> table["market cap"], table["sector"]
    (1, 2)
    """
    readers: dict[str, set[int]] = {}
    for g in card.gates:
        own = set(g.compute)
        for name in names_read(g):
            if name in card.inputs or name in own:
                readers.setdefault(key_words(name), set()).add(g.number)
        for name in own:
            readers.setdefault(key_words(name), set()).add(g.number)
    return {k: next(iter(v)) for k, v in readers.items() if len(v) == 1 and k}


class _FactKeysMixin(_ParserState):
    """Adds the gates a JSON answer mentions only by a fact key (:meth:`_fact_key_gates`)."""

    def _fact_key_gate(self, raw_key: str, key_start: int) -> int | None:
        """The gate a key names as an input (:func:`input_gates`), or, for a key kept out of the labels as a leading
        fact, the one gate its words name."""
        gate = input_gates(self.card).get(key_words(raw_key))
        if gate is not None:
            return gate
        if key_start in self.json_leading_facts:  # type: ignore[attr-defined]
            gates = self._part_gates(normalize(key_words(raw_key)))
            if len(gates) == 1:
                return next(iter(gates))
        return None

    def _in_fact_key(self, pos: int) -> bool:
        """Whether ``pos`` lies in a JSON key whose value states a fact (``"current_ratio": 2.6``): such a key is read by
        :meth:`_fact_key_gates`, never as a sentence that discusses its gate."""
        pairs = getattr(self, "json_pairs", None)
        if not pairs:
            return False
        return any(kspan[0] <= pos < kspan[1] and self._fact_value(val, self.masked[kspan[0] : kspan[1]].strip("\"'"))  # type: ignore[attr-defined]
                   for kspan, _, _, val in pairs.values())

    def _fact_key_gates(self, traces: list[GateTrace]) -> list[GateTrace]:
        """``traces`` and, for each gate they lack that a JSON key states a fact of, a trace with no verdict (``how``
        :data:`FACT_HOW`) at the key's place: before the first trace read from later in the text."""
        pairs = getattr(self, "json_pairs", None)
        if not pairs:
            return traces
        have = {t.gate for t in traces}
        added: dict[int, GateTrace] = {}
        for kspan, _, _, val in sorted(pairs.values(), key=lambda p: p[0][0]):
            raw = self.masked[kspan[0] : kspan[1]].strip("\"'")
            if not raw or len(raw) > 60:
                continue
            gate = self._fact_key_gate(raw, kspan[0])
            if gate is None or gate in have or gate in added:
                continue
            if not self._fact_value(val, raw) and not self._fact_value(val, "_".join(key_words(raw).split())):  # type: ignore[attr-defined]
                continue
            card_gate = self.ix.gates.get(gate)
            if card_gate is None:
                continue
            added[gate] = GateTrace(gate=gate, name=card_gate.name, verdict=None, span=(kspan[0], val.end),
                                    mention=kspan, how=FACT_HOW, confidence=0.5)
        if not added:
            return traces
        out = list(traces)
        for trace in sorted(added.values(), key=lambda t: t.mention[0]):
            at = next((i for i, t in enumerate(out) if t.how != FACT_HOW and min(t.mention[0], t.span[0]) > trace.mention[0]), len(out))
            while at < len(out) and out[at].how == FACT_HOW and out[at].mention[0] < trace.mention[0]:
                at += 1
            out.insert(at, trace)
        self.notes.append(f"{len(added)} gate(s) detected only by a JSON key stating one of their inputs, with no verdict "
                          f"(how 'fact'): {', '.join(str(g) for g in sorted(added))}")
        return out
