"""Labels of the writer's own whose value opens with a card gate's name: that gate, not an invented one (paper §7.11, FM-1).

A writer often titles a criterion in words of its own and names the card's criterion right after the colon:
"- Safety: balance sheet conservative, debt easily serviced. Clears." on a card whose gate 3 is "Balance Sheet
Strength", or "- **Rischio di perdere davvero:** probabilità di perdita permanente del 54 % ..." on a card whose gate 3
is called "probabilità di perdita" in its Italian names. The title names no gate of the card, so the label pass
(:meth:`._paraphrase._ParaphraseMixin._invented_labels`) takes it for a criterion the card lacks; a reader sees the
card's gate, named as the subject of the label's value.

:meth:`_BodyNamedMixin._body_named_labels` reads such a label as that gate when all of these hold:

- the label was taken for an invented gate (a label read as a card gate, or left unread, is not touched);
- its value, the rest of its own line, opens with a mention of one card gate (by name, alias, id, translation, a
  part of its name or a fuzzy match; not by its number, nor by its substance alone) within :data:`LEAD_WORDS` words
  of the label's end;
- every mention of a gate on the line's value names that one gate (a value naming two gates is a comparison);
- no label of the answer is read as that gate already (a second label of a covered gate stays as it was), and no
  other such label leads with the same gate (two titles over one gate: neither is read by its value).

The gate is recognised as the mention that named it was (its ``how`` and span), so its confidence factor is that
of the mention (:data:`._confidence.RECOGNITION`).

A label taken for an invented gate whose content words all lie in the names of two or more of the card's gates
("inflation" on a card with "Inflation Relative to Expectations" and "Growth-Inflation Quadrant") names the card's
criteria, not one it lacks: it keeps closing the section above it but is never reported as an invented gate
(:meth:`_BodyNamedMixin._shared_word_labels`; a word of its own, "Price momentum", keeps it invented).
"""

from __future__ import annotations

from ipb.scoring._text import Line, normalize
from ipb.scoring.parse._common import _WORDS_APOS, _Anchor, _Mention
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import Span

#: The gate's mention starts within this many words of the label's end (the value's subject, not a passing mention).
LEAD_WORDS = 2
#: How a mention may name the gate for this rule: not its number ("2"), not its substance alone (a phrase of its
#: required elements, which a value may state of any criterion).
_NAMING = frozenset({"name", "alias", "id", "translation", "words", "fuzzy"})


class _BodyNamedMixin(_ParserState):
    """Reads an invented label whose value opens with one card gate's name as that gate."""

    def _body_named_labels(self) -> None:
        """Re-anchor each label the module docstring's rules allow to the gate its value names first."""
        named = {a.gate for a in self.anchors.values() if a.gate is not None}
        found: dict[int, list[tuple[int, _Mention]]] = {}
        for li, anchor in self.anchors.items():
            if anchor.gate is not None or anchor.invented is None:
                continue
            mention = self._value_subject(self.lines[li])
            if mention is not None and mention.gates[0] not in named:
                found.setdefault(mention.gates[0], []).append((li, mention))
        for gate, labels in found.items():
            if len(labels) == 1:
                li, mention = labels[0]
                span: Span = (mention.start, mention.end)
                self.anchors[li] = _Anchor(gate, mention.how.split("+")[0], span)
        self._shared_word_labels()

    def _shared_word_labels(self) -> None:
        """Mark each invented label made only of words of two or more gates' names as no invented gate (module docstring)."""
        covered = self.__dict__.setdefault("covered_labels", set())
        for li, anchor in self.anchors.items():
            if anchor.gate is None and anchor.invented is not None and len(self._part_gates(normalize(anchor.invented))) >= 2:
                covered.add(li)

    def _value_subject(self, line: Line) -> _Mention | None:
        """The one gate mention that opens the value after ``line``'s label (None when the rules are not met)."""
        if line.label is None:
            return None
        start, end = line.label[1], line.end
        on_value = [m for m in self._mentions_in(start, end) if m.gates and m.invented is None and m.how != "number"]
        if not on_value:
            return None
        first = on_value[0]
        if first.how.split("+")[0] not in _NAMING or len(first.gates) != 1:
            return None
        if any(set(m.gates) != {first.gates[0]} for m in on_value):
            return None
        if len(_WORDS_APOS.findall(self.masked, start, first.start)) > LEAD_WORDS:
            return None
        return first
