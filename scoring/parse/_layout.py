"""Layout: the answer's lines, sentences and sections.

Lines are classified (heading, list item, bold label, table row, JSON gate
object, plain) by :func:`ipb.scoring._text.split_lines`; each line becomes one
or more units (sentences, cut at :data:`MAX_UNIT` characters); each unit is
assigned to the gate whose section it sits in (structured answers: from a
gate label to the next sibling label; prose: the gate a sentence is about).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Iterable

from ipb.scoring import verdict_words as vw
from ipb.scoring._text import (
    Line,
    Trigger,
    blank_spans,
    classify_line,
    json_gate_objects,
    normalize,
    scan,
    sentence_spans,
    split_lines,
    word_prefixes,
)
from ipb.scoring.parse._common import (
    _FIELD_LABEL,
    _FIELD_VERDICT,
    _LINE_WITH_TEXT,
    _WORDS_APOS,
    MAX_LINES,
    MAX_OCCURRENCES,
    MAX_UNIT,
    MAX_CHARS,
    PREFILTER_CHARS,
    SUBJECT_WORDS,
    _Evidence,
    _final_cue_label,
    _Unit,
)
from ipb.scoring.parse._label_names import verdict_only_label
from ipb.scoring.parse._references import _JSON_GATE_KEYS
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import InventedGate, Span


def _chunks(text: str, start: int, end: int) -> Iterable[Span]:
    """``text[start:end]`` in pieces of at most :data:`MAX_UNIT` characters, cut after a space where possible."""
    while end - start > MAX_UNIT:
        cut = text.rfind(" ", start + MAX_UNIT // 2, start + MAX_UNIT)
        cut = start + MAX_UNIT if cut < 0 else cut + 1
        yield start, cut
        start = cut
    yield start, end


#: "...; Gate 4 intrinsic value ~$20B; Gate 5 PROCEED": a semicolon before a numbered gate reference ends a unit.
_GATE_CLAUSE = re.compile(r"(?i);[ \t]+(?=(?:gates?|steps?|stages?|tests?|criteri(?:on|a)|checks?)[ \t]*(?:#|no\.?)?[ \t]*\d)")


def _gate_clauses(text: str, spans: list[Span]) -> list[Span]:
    """``spans`` (sentences) cut after each semicolon that a numbered gate reference follows (paper §6.5's narrative style)."""
    out: list[Span] = []
    for start, end in spans:
        for m in _GATE_CLAUSE.finditer(text, start, end):
            out.append((start, m.start() + 1))
            start = m.end()
        out.append((start, end))
    return out


#: A label that comes back to a gate already judged: "The worst case, once more", "Moat, second look", "Price again".
_REVISIT = re.compile(r"(?i)\b(?:once\s+more|again|second\s+look|another\s+look|revisited|revisiting|re-?check(?:ed)?|on\s+reflection)\b")


class _LayoutMixin(_ParserState):
    """Splits the masked text into lines and units and assigns units to gate sections."""

    def _keep_head_and_tail_chars(self) -> None:
        """Past :data:`MAX_CHARS` characters, read the first and last half of that many and blank the middle (noted).

        Cuts fall on spacing where there is some near the bound, so no word is split.
        A bound for pathological input (5 MB of repeated years took 4 s): a real answer is far shorter.
        """
        masked = self.masked
        if len(masked) <= MAX_CHARS:
            return
        half = MAX_CHARS // 2
        start, stop = half, len(masked) - half
        space = masked.rfind(" ", half - 200, half)
        start = space + 1 if space >= 0 else start
        space = masked.find(" ", stop, stop + 200)
        stop = space if space >= 0 else stop
        self.masked: str = blank_spans(masked, [(start, stop)])
        self.folded: list[tuple[int, int, int]] = sorted([*self.folded, (start, start, stop)])
        self.blanked = stop - start
        self.notes.append(f"{len(masked)} characters, over the bound of {MAX_CHARS}: the first and last {half} were read, "
                          f"characters {start}-{stop} were not")

    def _keep_head_and_tail(self) -> None:
        """Past :data:`MAX_LINES` lines with text, read the first and last half of that many and skip the middle.

        The answer's opening (its gates) and its end (its final verdict) are
        kept; the middle is blanked like a folded loop (offsets kept) and noted.
        """
        self._keep_head_and_tail_chars()
        masked = self.masked
        if masked.count("\n") < MAX_LINES:
            return
        starts = [m.start() for m in _LINE_WITH_TEXT.finditer(masked)]
        if len(starts) <= MAX_LINES:
            return
        half = MAX_LINES // 2
        start = starts[half]
        stop = starts[len(starts) - half]
        self.masked = blank_spans(masked, [(start, stop)])
        self.folded = sorted([*self.folded, (start, start, stop)])
        first = masked.count("\n", 0, start) + 1
        last = first + masked.count("\n", start, stop) - 1
        self.notes.append(f"{len(starts)} lines with text, over the bound of {MAX_LINES}: the first and last {half} "
                          f"were read, lines {first}-{last} were not")

    # ------------------------------------------------------------------ layout

    def _layout(self) -> None:
        masked = self.masked
        self.lines = self._splice_json(split_lines(masked, self.folded))
        for li, line in enumerate(self.lines):
            ids: list[int] = []
            if line.kind in ("blank", "fence", "table_sep"):
                self.line_units.append(ids)
                continue
            if line.kind in ("table", "heading") or (line.kind == "json" and (line.end - line.body < 160 or line.key in _JSON_GATE_KEYS)):
                spans: Iterable[Span] = [(line.start, line.end)]
            elif line.kind == "json":
                # a long JSON string ("reasoning": "Circle of competence: ... passed. Moat: ...") is prose: its sentences
                found = list(sentence_spans(masked, line.body, line.end)) or [(line.body, line.end)]
                found[0] = (line.start, found[0][1])
                spans = found
            else:
                # Sentences of the text after any list marker ("1." ends no sentence); the first keeps the marker.
                found = list(sentence_spans(masked, line.body, line.end)) or [(line.body, line.end)]
                found[0] = (line.start, found[0][1])
                spans = _gate_clauses(masked, found) if ";" in masked[line.start : line.end] else found
            units, starts = self.units, self.unit_starts
            for s0, e0 in spans:
                for s, e in _chunks(masked, s0, e0) if e0 - s0 > MAX_UNIT else ((s0, e0),):
                    ids.append(len(units))
                    units.append(_Unit(s, e, li, len(ids) == 1))
                    starts.append(s)
            self.line_units.append(ids)

    def _splice_json(self, lines: list[Line]) -> list[Line]:
        """Replace the lines of JSON answers by one pseudo-line per gate object (and what lies between)."""
        masked = self.masked
        regions: list[Span] = []
        i = 0
        while i < len(lines):
            if lines[i].kind == "fence":
                j = i + 1
                while j < len(lines) and lines[j].kind != "fence":
                    j += 1
                body_end = lines[j].start if j < len(lines) else len(masked)
                regions.append((min(lines[i].end + 1, body_end), body_end))
                i = j + 1
            else:
                i += 1
        first = len(masked) - len(masked.lstrip())
        if masked[first : first + 1] in ("{", "[") and not any(s <= first < e for s, e in regions):
            regions.append((first, len(masked)))
        objects: list[Line] = []
        for start, end in regions:
            objects.extend(json_gate_objects(masked, start, end))
        if not objects:
            return lines
        objects.sort(key=lambda o: o.start)
        out: list[Line] = []
        k = 0
        for line in lines:
            pos = line.start
            while k < len(objects) and objects[k].end <= line.start:
                k += 1
            j = k
            while j < len(objects) and objects[j].start < line.end:
                obj = objects[j]
                if obj.start > pos:
                    frag = classify_line(masked, pos, obj.start, True)
                    if frag.kind != "blank":
                        out.append(frag)
                if not out or out[-1] is not obj:
                    if obj.start >= line.start:
                        out.append(obj)
                pos = max(pos, obj.end)
                j += 1
            if pos == line.start:
                out.append(line)
            elif pos < line.end:
                frag = classify_line(masked, pos, line.end, True)
                if frag.kind != "blank":
                    out.append(frag)
        return out

    def _scan(self, triggers: list[Trigger], *, limit: int = MAX_OCCURRENCES) -> list[tuple[int, re.Match[str]]]:
        if self.prefixes is None and len(self.low) - self.blanked <= PREFILTER_CHARS:
            self.prefixes: set[str] | None = word_prefixes(self.low)
        return scan(self.masked, self.low, triggers, limit=limit, cache=self.positions, prefixes=self.prefixes, truncated=self.truncated)

    def _unit_at(self, pos: int) -> int:
        i = bisect_right(self.unit_starts, pos) - 1
        if i >= 0 and self.units[i].start <= pos < self.units[i].end:
            return i
        return -1

    # ------------------------------------------------------------------ sections

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
                        first = next(m for m in self.unit_mentions[u] if topic in m.gates)
                        self.gate_mention.setdefault(current, ((first.start, first.end), first.how))
                unit.gate = current
                unit.section = section if current is not None else -1
                unit.final = final_region or unit_text_final
        if structural:
            self._claim_unanchored(section)
        return self._evidence(structural, label_level_units)

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
            first = next(m for m in mentions if topic in m.gates)
            self.gate_mention.setdefault(topic, ((first.start, first.end), first.how))

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


#: Words before a colon that make a sentence, not a label: six or more words with a pronoun or a copula among them.
_PROSE_BEFORE_COLON = re.compile(r"(?i)(?=(?:\W*\w+){6})(?=.*\b(?:it|is|are|was|were|we|you|they|this|that)\b)[^?\n]*")
#: A line that ends a sentence or opens a value: a stop, "!", "?", ":" or ";" (then closing quotes, brackets or emphasis).
_LINE_STOP = re.compile(r"[.!?:;][\"'\u201d\u2019)\]*_]*[ \t]*\Z")
#: What a hard-wrapped line may open with and still continue the sentence before it: a lower-case word, a figure, a
#: bracket, a currency sign, an approximation, a dash of an aside ("— classic forced selling").
_CONTINUES = re.compile(r"[ \t]*(?:[a-z]|\d|[($\u20ac\u00a3\u00a5~\u2248%&\u2014\u2013\"'\u201c\u2018])")
#: A capitalised word opening a line that starts a new item rather than continuing a sentence: a gate or final label.
_NEW_ITEM = re.compile(r"(?:gates?|steps?|stages?|tests?|criteri(?:on|a)|checks?|lens(?:es)?|verdict|decision|conclusion|"
                       r"recommendation|summary|overall|final|bottom[ \t]+line|result|outcome|rating|signal|action|note|answer)\b", re.IGNORECASE)
#: A word in capitals opening a line: an outcome or a verdict ("DECLINE", "PROCEED"), or an acronym heading a new item.
_CAPS_WORD = re.compile(r"[A-Z][A-Z0-9_/&-]+\b")
#: A word that cannot end a sentence: a line ending with it (or a comma) runs on into the next, whatever that opens with.
_RUNS_ON = re.compile(r"(?:,|\u2192|->|=>|=|\b(?:so|thus|hence|therefore|is|are|was|were|be|a|an|the|and|or|but|of|to|as|at|on|in|by|for|with|"
                      r"which|that|than|its|their|our|my|into|onto|from|about|like|toward|towards|become|becomes|would|will|could|should|"
                      r"not|no|be|\w+'d|\w+'ll|\w+\u2019d|\w+\u2019ll))[ \t]*\Z", re.IGNORECASE)
#: A short answer opening the line after a question: "Pass?\nYes.", "Met?\nNo, ...".
_ANSWER_AFTER = re.compile(r"[ \t]*(?:yes|no|unknown|n/?a|partly|partially|unclear)\b(?![ \t]*:)", re.IGNORECASE)
#: A hard-wrapped line is at least this long (a wrap at 72 to 80 columns leaves lines of 55 characters or more; a
#: heading, a short label line or a bare verdict is shorter).
MIN_WRAPPED_LINE = 45
_WRAPPABLE_KINDS = ("plain", "label", "list", "bold", "short")


def unwrap_hard_wrapped(text: str, folded: list[tuple[int, int, int]] | None = None) -> str:
    """``text`` with the line breaks of hard-wrapped prose read as spaces (same length, so every offset stays put).

    Answers written or pasted at 72 to 80 columns break sentences across lines: a gate's label sits on one line and
    its verdict on the next ("... the toll road is easy to understand\\n(pass), earns 17% on capital (pass)"). A reader
    sees one sentence; the parser, which reads a line as one or more sentences, would see two. A break is a wrap when
    the line before it is prose of at least :data:`MIN_WRAPPED_LINE` characters that ends no sentence (no stop, "?",
    "!", ":" or ";" at its end) and the line after it is neither a new structure (blank, heading, list item, table
    row, JSON, bold label, fenced code) nor a new item: it opens in lower case, with a figure, a bracket, a currency
    sign or a dash, or with a capitalised word whose line carries no label mark (":", " - ", "->") in its first 40
    characters and which is no gate, step or final label ("Gate 2", "Verdict") and no word in capitals ("DECLINE"),
    unless the line before ends with a comma, an arrow or a word no sentence ends with ("... so\nPROCEED again.",
    "... ->\nPROCEED"), or the break before it was a wrap too. A question's short answer wrapped onto the next line ("... Pass?\nYes.") joins it too.

    Parameters
    ----------
    text:
        The masked response.
    folded:
        Runs of lines folded as repeats (:func:`ipb.scoring._text.fold_repeated_lines`); breaks at their edges stay.

    Examples
    --------
    >>> unwrap_hard_wrapped("The toll road is easy to understand and has been for a long time, so\\nit passes.")
    'The toll road is easy to understand and has been for a long time, so it passes.'
    >>> unwrap_hard_wrapped("Gate 1: the price is fine and the business is easy to understand\\nGate 2: REJECT")
    'Gate 1: the price is fine and the business is easy to understand\\nGate 2: REJECT'
    >>> unwrap_hard_wrapped("The price is fine and the business is easy to understand here.\\nand more")
    'The price is fine and the business is easy to understand here.\\nand more'
    >>> unwrap_hard_wrapped("Normal earnings (five-year average EPS $3.10): Pass\\nGrowth estimate (7% expected, 5% record): Fail")
    'Normal earnings (five-year average EPS $3.10): Pass\\nGrowth estimate (7% expected, 5% record): Fail'
    """
    if "\n" not in text:
        return text
    edges = {e for _, start, stop in folded or () for e in (start - 1, stop - 1, stop)}
    fences = [m.start() for m in _FENCE_LINE.finditer(text)]
    out: list[str] | None = None
    joined_at = -2  # the last line break read as a wrap
    n = len(text)
    # only a line of MIN_WRAPPED_LINE characters or more, with a line of text after it, can end in a wrap
    for m in _LONG_LINE.finditer(text):
        pos, nl = m.start(), m.end()
        if nl in edges or bisect_right(fences, pos) % 2 == 1:
            continue  # a folded run's edge, or inside fenced code
        if len(text[pos:nl].strip()) < MIN_WRAPPED_LINE or classify_line(text, pos, nl).kind not in _WRAPPABLE_KINDS:
            continue
        nxt = nl + 1
        nend = text.find("\n", nxt)
        nend = n if nend < 0 else nend
        stop = _LINE_STOP.search(text, pos, nl)
        if stop is None and _RECORD_END.search(text, pos, nl) and _RECORD_END.search(text, nxt, nend):
            joins = False  # "Normal Earnings (5-yr EPS $3.10): Pass\nGrowth Estimate (7% vs 5%): Fail": two records
        elif stop is None:
            # inside a paragraph already found wrapped, a word in capitals continues it too ("... would become\nREDESIGN.")
            joins = _joins(text, nxt, nend, runs_on=_RUNS_ON.search(text, pos, nl) is not None, inside=joined_at == pos - 1)
        else:  # "... Pass?\nYes.": a question's answer wrapped onto the next line
            joins = text[stop.start()] == "?" and _ANSWER_AFTER.match(text, nxt, nend) is not None
        if joins:
            if out is None:
                out = list(text)
            out[nl] = " "
            joined_at = nl
    return text if out is None else "".join(out)


#: A line long enough to have been wrapped, with a line of text after it (the match ends at its line break).
_LONG_LINE = re.compile(rf"(?m)^[^\n]{{{MIN_WRAPPED_LINE},}}(?=\n[^\S\n]*[^\s])")
#: The end of a record line, a label with a short value after its colon: "...: Pass", "...: Fail", "...: $52.40",
#: "...: Significantly Below". Two such lines in a row are two records, never one wrapped sentence.
_RECORD_END = re.compile(r":[ \t]+[^\s:]+(?:[ \t]+[^\s:]+){0,2}[ \t]*$")
#: A line opening or closing fenced code.
_FENCE_LINE = re.compile(r"(?m)^[ \t]*(?:```|~~~)")


def _joins(text: str, start: int, end: int, *, runs_on: bool = False, inside: bool = False) -> bool:
    """Whether the line ``text[start:end]`` continues a sentence broken at the line break before it (``runs_on``: the
    line before ends with a comma or a word no sentence ends with, "so", "the", "and", "is" ...)."""
    if not text[start:end].strip():
        return False
    if classify_line(text, start, end).kind not in ("plain", "short", "label"):
        return False  # a heading, list item, table row, JSON line, bold label or status mark starts a new item
    if runs_on or _CONTINUES.match(text, start, end) is not None:
        return True
    line = text[start:end].lstrip(" \t")
    if not line[:1].isupper() or _NEW_ITEM.match(line) is not None or (_CAPS_WORD.match(line) is not None and not inside):
        return False
    return _LABEL_MARK.search(line, 0, 40) is None


#: A label's mark: "Moat: ...", "Moat - ...", "Moat -> ...".
_LABEL_MARK = re.compile(r":(?!//)|[ \t][\u2014\u2013-][ \t]|\u2192|->|=>|[ \t]\.{4,}[ \t]")
