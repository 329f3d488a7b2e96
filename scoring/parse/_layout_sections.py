"""Sections: which gate each unit of the answer is about (paper §6.5).

Structured answers: a unit belongs to the gate whose label opened its section
(up to the next sibling label, a heading at that level or above, or the final
verdict); prose: to the gate a sentence is about (named in its first words or
holding a verdict pinned to it). Units and lines come from :mod:`._layout`.
"""

from __future__ import annotations

import re
from typing import Any

from ipb.scoring import verdict_words as vw
from ipb.scoring._text import Line, normalize
from ipb.scoring.parse._common import (
    _FIELD_LABEL,
    _FIELD_VERDICT,
    _WORDS_APOS,
    SUBJECT_WORDS,
    _Evidence,
    _final_cue_label,
)
from ipb.scoring.parse._label_names import verdict_only_label
from ipb.scoring.parse._record_lines import field_line
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import InventedGate, Span

#: A label that comes back to a gate already judged: "The worst case, once more", "Moat, second look", "Price again".
_REVISIT = re.compile(r"(?i)\b(?:once\s+more|again|second\s+look|another\s+look|revisited|revisiting|re-?check(?:ed)?|on\s+reflection)\b")

#: Words before a colon that make a sentence, not a label: six or more words with a pronoun or a copula among them.
_PROSE_BEFORE_COLON = re.compile(r"(?i)(?=(?:\W*\w+){6})(?=.*\b(?:it|is|are|was|were|we|you|they|this|that)\b)[^?\n]*")

#: What may stand before a gate's name restated as a label inside a line: spaces and emphasis marks only.
_RESTATED_LEAD = re.compile(r"[\s*_]*")
#: The colon after it ("Fair Price: PROCEED", "**Fair Price**: PROCEED").
_RESTATED_COLON = re.compile(r"[*_]*[ \t]*:")
#: What may stand before a gate's name restated as a label after a semicolon inside a sentence ("Fair Price: REJECT;
#: Fair Price: PROCEED"): the semicolon, then spaces and emphasis marks only.
_CLAUSE_LEAD = re.compile(r";[\s*_]*")


def _opening(mentions: list[Any], gate: int) -> tuple[Span, str]:
    """The span of the first of ``mentions`` (one sentence's) that names ``gate``, and how the sentence names it: the
    way of a mention by the gate's name, an alias or a number when the sentence has one, else the first mention's. The
    lexical reader opens the gate at the sentence's first word of the gate's vocabulary ("The company is large, ... so
    the size test is met"); the alias in the same sentence still names it, and its confidence is a named gate's."""
    first = next(m for m in mentions if gate in m.gates)
    named = next((m.how for m in mentions if gate in m.gates and m.how != "substance"), first.how)
    return (first.start, first.end), named


class _SectionsMixin(_ParserState):
    """Assigns every unit to a gate section (or none) and reads the sections' spans."""

    def _sections(self, structural: bool) -> list[_Evidence]:
        """Assign every unit to a gate (or none) and turn verdict words into evidence."""
        section = -1
        current: int | None = None
        current_line: Line | None = None
        final_region = False
        self.section_gate = {}
        self.section_first = {}
        self.gate_mention: dict[int, tuple[Span, str]] = {}
        self.gate_sections: dict[int, list[int]] = {}
        label_level_units: dict[int, Span] = {}
        self.clause_labels: dict[int, list[Span]] = {}
        for li, line in enumerate(self.lines):
            unit_ids = self.line_units[li]
            anchor = self.anchors.get(li)
            first_text = self.masked[self.units[unit_ids[0]].start : self.units[unit_ids[0]].end] if unit_ids else ""
            if anchor is not None and anchor.gate is None and current is not None and self._nested_under(line, current_line):
                anchor = None  # "2) Where value breaks\n   c. Class face = $800M -> ...": a sub-item of the gate's item is its detail
            if anchor is not None and (structural or anchor.gate is not None or anchor.invented is not None):
                if anchor.gate is None:
                    if li not in self.__dict__.get("covered_labels", ()) and not self._titles_gates(li):
                        # not a second label of a covered gate, nor a title over the card's gates
                        self.invented.append(InventedGate(anchor.invented or "", anchor.mention))
                    current, current_line = None, line
                    continue
                section += 1
                current, current_line = anchor.gate, line
                final_region = False
                self.section_gate[section] = current
                self.section_first[section] = unit_ids[0] if unit_ids else -1
                self.gate_mention.setdefault(current, (anchor.mention, anchor.how))
                self.gate_sections.setdefault(current, []).append(section)
                if unit_ids:
                    label_level_units[unit_ids[0]] = anchor.mention
            elif unit_ids and self._closes(line, current_line, first_text, structural):
                current, current_line = None, None
                final_region = self._is_final_line(line, first_text)
            for k, u in enumerate(unit_ids):
                unit = self.units[u]
                unit_text_final = u in self.final_units
                if unit_text_final and k == 0 and anchor is not None and anchor.gate is not None:
                    # "Council on Ethics recommendation: FAIL" names a gate; a cue after the label still counts.
                    label_end = line.label[1] if line.label is not None else anchor.mention[1]
                    unit_text_final = self.final_cue_at[u] >= max(label_end, anchor.mention[1])
                if not structural and not (anchor is not None and anchor.gate is not None and k == 0):
                    topic = self._topic(u, current)
                    if unit_text_final and topic is None:
                        current = None
                        final_region = True
                    elif topic is not None and topic != current:
                        section += 1
                        current = topic
                        final_region = False
                        self.section_gate[section] = current
                        self.section_first[section] = u
                        self.gate_sections.setdefault(current, []).append(section)
                        self.gate_mention.setdefault(current, _opening(self.unit_mentions[u], topic))
                unit.gate = current
                unit.section = section if current is not None else -1
                unit.final = final_region or unit_text_final
                if k > 0 and current is not None and not unit.final:
                    restated = self._restated_label(u, current)
                    if restated is not None:
                        label_level_units[u] = restated
                if current is not None and not unit.final and (u in label_level_units or k == 0 and anchor is not None):
                    clauses = self._clause_labels(u, current)
                    if clauses:
                        self.clause_labels[u] = clauses
        if structural:
            self._claim_unanchored(section)
        return self._evidence(structural, label_level_units)

    def _restated_label(self, u: int, gate: int) -> Span | None:
        """The span of the gate's name when sentence ``u``, not the first of its line, opens by naming its section's gate
        again as a label ("Fair Price: REJECT. Fair Price: PROCEED."): the writer states the gate's verdict a second
        time, and that statement ranks as a label's (the corpus README: of two committed statements of one gate the
        later one wins; :meth:`._verdicts._VerdictsMixin._choose`). None for anything else ("At a fair price: ...",
        a name mid-sentence, another gate's name)."""
        unit = self.units[u]
        for m in self.unit_mentions.get(u, ()):
            if m.gates != (gate,) or m.how == "number" or _RESTATED_LEAD.fullmatch(self.masked, unit.start, m.start) is None:
                continue
            if _RESTATED_COLON.match(self.masked, m.end) is not None:
                return (m.start, m.end)
        return None

    def _clause_labels(self, u: int, gate: int) -> list[Span]:
        """The spans of the gate's name restated as a label after a semicolon inside sentence ``u``, which opens under
        that gate's label ("Fair Price: REJECT; Fair Price: PROCEED"): each is a label of its own for the words after
        it, as a restated label opening the next sentence is (:meth:`_restated_label`). Empty for a name after a
        semicolon with no colon ("...; fair price aside, ...") or another gate's name."""
        unit = self.units[u]
        if ";" not in self.masked[unit.start : unit.end]:
            return []
        out = []
        for m in self.unit_mentions.get(u, ()):
            if m.gates != (gate,) or m.how == "number":
                continue
            semi = self.masked.rfind(";", unit.start, m.start)
            if semi >= 0 and _CLAUSE_LEAD.fullmatch(self.masked, semi, m.start) is not None \
                    and _RESTATED_COLON.match(self.masked, m.end) is not None:
                out.append((m.start, m.end))
        return out

    def _closes(self, line: Line, anchor_line: Line | None, first_text: str, structural: bool) -> bool:
        if self._is_final_line(line, first_text):
            return True
        if not structural or anchor_line is None:
            return False
        if line.kind == "label" and self._wrapped(line):
            return False  # "... That is not a\nreason Buffett accepts: ... REJECT.": a wrapped line, not a new label
        if line.kind == "table" and anchor_line.kind == "table":
            return True
        if line.label is None or line.kind in ("plain", "blank"):
            return line.kind == "heading"
        if field_line(self.masked, line):
            return False  # 'verdict = "REJECT"' under 'gate "economic_moat" {': a field of the record (_record_lines.py)
        label = normalize(self.masked[line.label[0] : line.label[1]])
        if (_FIELD_LABEL(label) or verdict_only_label(self.masked[line.label[0] : line.label[1]])
                or (line.kind == "label" and _PROSE_BEFORE_COLON.fullmatch(self.masked, line.label[0], line.label[1]))):
            # "- \u2192 PROCEED" under a gate's detail bullets is that gate's finding (s37invent); a sentence that runs
            # on through a colon, "Think of it as a budget test: ...", is no label (s37wild)
            return False
        if line.kind == "heading":
            return anchor_line.kind != "heading" or line.level <= anchor_line.level
        if anchor_line.kind == "heading":
            return False
        return line.block == anchor_line.block

    def _titles_gates(self, li: int) -> bool:
        """Whether the label of line ``li``, stating no verdict of its own, is a title over two or more of the card's
        gates: the labels of two gates lie in its section (up to its next sibling, or a heading at its level or above).
        "Step 5: Run the allocation agent" over the agent's four checks on a four-gate card is the writer's own step,
        no gate the card lacks (FM-1 is a criterion beside the card's, not a heading above them)."""
        line = self.lines[li]
        if any(self._level(h) >= vw.COMMITTED for u in self.line_units[li] for h in self.unit_hits.get(u, [])):
            return False
        gates: set[int] = set()
        for k in range(li + 1, len(self.lines)):
            other = self.lines[k]
            if other.block == line.block and other.kind not in ("plain", "blank", "fence") and (
                    other.kind != "label" or k in self.anchors):  # "Key components:" under a title is no sibling step
                break
            if other.kind == "heading" and (line.kind != "heading" or other.level <= line.level):
                break
            anchor = self.anchors.get(k)
            if anchor is not None and anchor.gate is not None:
                gates.add(anchor.gate)
        return len(gates) >= 2

    @staticmethod
    def _nested_under(line: Line, gate_line: Line | None) -> bool:
        """Whether list item ``line`` is indented under the list item ``gate_line`` that opened the current gate."""
        return gate_line is not None and line.kind == "list" and gate_line.kind == "list" and line.level > gate_line.level

    def _wrapped(self, line: Line) -> bool:
        """Whether ``line`` continues the line before it, hard-wrapped mid-sentence: that line is text ending without
        a stop, colon or bracket, and this one opens in lower case, with a digit or a currency sign ("68-cent price, a
        loss ...", "$92 and the price is 0.96x: REJECT")."""
        masked = self.masked
        if line.start < 2 or masked[line.start - 1] != "\n" or line.start >= len(masked):
            return False
        first = masked[line.start]
        if not (first.islower() or first.isdigit() or first in "$\u20ac\u00a3\u00a5("):
            return False
        prev = masked[masked.rfind("\n", 0, line.start - 1) + 1 : line.start - 1].rstrip()
        return bool(prev) and prev[-1] not in ".!?:;|)]*_`" and prev[-1].isalnum()

    def _is_final_line(self, line: Line, first_text: str) -> bool:
        if line.label is not None:
            label = normalize(self.masked[line.label[0] : line.label[1]])
            if (vw.FINAL_LABEL.match(label) or _final_cue_label(label)) and not _FIELD_VERDICT.match(label):
                return True
            if line.kind == "json" and line.key.replace("_", " ") in ("final verdict", "investment verdict", "overall verdict", "final decision", "recommendation", "decision"):
                return True
        return bool(first_text) and vw.FINAL_CUE.match(first_text.lstrip(" #*_>-|`\"")) is not None

    def _topic(self, u: int, current: int | None) -> int | None:
        """The gate a sentence is about: one a verdict is pinned to, one named in its first words, else ``current``'s.

        A gate named further into the sentence ("... against an intrinsic value
        of $25B") is a passing mention and does not change the subject.
        """
        mentions = [m for m in self.unit_mentions.get(u, []) if m.gates]
        if not mentions:
            return None
        for hit in self.unit_hits.get(u, []):
            owner = self._tight_owner(hit, u)
            if owner and self._level(hit) >= vw.COMMITTED:
                return owner[0]
        if current is None:
            return mentions[0].gates[0]
        if u in self.lexical_units:
            return mentions[0].gates[0]  # the sentence holds one gate's phrase and names no other gate: it is about that gate
        start = self.units[u].start
        for m in mentions:
            if len(_WORDS_APOS.findall(self.masked, start, m.start)) <= SUBJECT_WORDS:
                return m.gates[0]
        return current if any(current in m.gates for m in mentions) else None

    def _claim_unanchored(self, last_section: int) -> None:
        """In a structured answer, a sentence led by a gate that has no label of its own is that gate's."""
        anchored = {a.gate for a in self.anchors.values() if a.gate is not None}
        # a gate judged in prose before its own label ("What can go wrong? ... so PROCEED." and later "The worst case,
        # once more: ...") is first addressed there (s13f): such a line may be claimed although the gate has a label
        first_label: dict[int, int] = {}
        revisited: set[int] = set()
        for li, a in sorted(self.anchors.items()):
            if a.gate is not None and a.gate not in first_label:
                first_label[a.gate] = self.lines[li].start
                label = self.lines[li].label
                if label is not None and _REVISIT.search(self.masked, label[0], label[1]):
                    revisited.add(a.gate)  # only a label that says it comes back to the gate; a summary line stays a summary
        section = last_section
        for u, mentions in sorted(self.unit_mentions.items()):
            gates = [m for m in mentions if m.gates]
            unit_start = self.units[u].start
            if not gates or self.units[u].final or all(g in anchored and (first_label[g] <= unit_start or g not in revisited)
                                                       for m in gates for g in m.gates):
                continue
            topic = self._topic(u, self.units[u].gate)
            if topic is None or topic == self.units[u].gate:
                continue
            rest = self._rest_of_paragraph(u, topic)
            if topic in anchored and (first_label[topic] <= unit_start or topic not in revisited or not self._judged(rest)):
                continue
            if gates[0].gates[0] != topic and not any(self._level(h) >= vw.COMMITTED for h in self.unit_hits.get(u, [])):
                continue
            section += 1
            unit = self.units[u]
            unit.gate, unit.section = topic, section
            first = next(m for m in mentions if topic in m.gates)
            if first.how != "substance" and self.anchors.get(unit.line) is None:
                for v in rest:  # the sentences after a named gate in its paragraph go with it ("Bargain purchase? ... PROCEED.")
                    self.units[v].gate, self.units[v].section = topic, section
            self.section_gate[section] = topic
            self.section_first[section] = u
            self.gate_sections.setdefault(topic, []).append(section)
            self.gate_sections[topic].sort(key=lambda k: self.units[self.section_first[k]].start if self.section_first.get(k, -1) >= 0 else -1)
            self.gate_mention.setdefault(topic, _opening(mentions, topic))

    def _judged(self, units: list[int]) -> bool:
        """Whether one of ``units`` states a committed verdict."""
        return any(self._level(h) >= vw.COMMITTED for v in units for h in self.unit_hits.get(v, []))

    def _rest_of_paragraph(self, u: int, gate: int) -> list[int]:
        """``u`` and the sentences after it up to its paragraph's end, a sentence naming another gate than ``gate``, a
        labelled line or the conclusion: the prose a sentence led by a gate's name speaks for."""
        out = [u]
        line = self.units[u].line
        for v in range(u + 1, min(len(self.units), u + 40)):
            other = self.units[v]
            if any(g != gate for m in self.unit_mentions.get(v, []) for g in m.gates) or other.final or other.gate != self.units[u].gate:
                break
            if other.line != line:
                if other.line != line + 1 or self.lines[other.line].kind not in ("plain",) or other.line in self.anchors:
                    break
                line = other.line
            out.append(v)
        return out

    def _section_of(self, gate: int, u: int) -> int:
        best = -1
        start = self.units[u].start
        for s in self.gate_sections.get(gate, []):
            first = self.section_first.get(s, -1)
            if first >= 0 and self.units[first].start <= start:
                best = s
        return best if best >= 0 else -1000 - u

    def _section_units(self, gate: int) -> list[list[int]]:
        if self._sections_by_gate is None:
            by_gate: dict[int, dict[int, list[int]]] = {}
            for i, unit in enumerate(self.units):
                if unit.gate is not None and unit.section >= 0 and self.section_gate.get(unit.section) == unit.gate:
                    by_gate.setdefault(unit.gate, {}).setdefault(unit.section, []).append(i)
            self._sections_by_gate: dict[int, dict[int, list[int]]] | None = by_gate
        groups = self._sections_by_gate.get(gate, {})
        return [groups[s] for s in sorted(groups)]

    def _section_span(self, gate: int) -> Span | None:
        groups = self._section_units(gate)
        if not groups:
            return None
        first = groups[0]
        return (self.units[first[0]].start, self.units[first[-1]].end)
