"""Gates given in lists a careful reader reads by position or by key (issue 13, layouts; new user 2 finding 6).

Three layouts name their gates without a gate label on each verdict:

- a bare numbered list of verdicts whose items are numbered 1..N, N the card's gate count
  ("1. PASS", "2. PASS - current ratio 2.3", ..., "7. FAIL"): item k is gate k;
- JSON keyed by gate: ``{"gate_1": "PROCEED", "gate_2": "REJECT", "final_verdict": "DECLINE"}``
  (one line or many): the value after ``"gate_k":`` is gate k's verdict;
- a verdict label before a list of named gates ("Failed: the P/E test, the dividend test and the
  size test."): each gate the list names takes the label's verdict.

Each is a small pass over what the other concerns found (lines, mentions, verdict words); it adds
gate anchors or evidence, never removes any.
"""

from __future__ import annotations

import re

from ipb.scoring._text import item_number
from ipb.scoring.parse._common import MAX_SENTENCE_HITS, _Anchor, _Evidence, _Hit
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._positional import POSITION
from ipb.scoring.parse._run_subjects import lead_in, names_no_criteria
from ipb.scoring.parse._types import GateTrace, Span
from ipb.scoring.parse._vocabulary import distinctive_vocabulary, placed_only

#: A JSON key naming a gate by number, and its value: '"gate_2": "REJECT"', '"step 3": "pass"', '"gate2": {'.
_GATE_KEY = re.compile(r'(?i)"(?:gate|step|test|criterion|check|screen)[ _-]?(\d{1,2})"[ \t]*:[ \t]*"?')
#: A verdict label opening a sentence: "Failed:", "Tests passed -", "**Rejected:**", "Not met:", "Inconclusive:".
_VERDICT_LABEL = re.compile(
    r"[ \t>*_#-]*(?:(?:tests?|gates?|criteria|checks?|screens?)[ \t]+)?"
    r"(?P<word>fail(?:s|ed)?|pass(?:es|ed)?|rejected|reject|proceed|not[ \t]+met|met|inconclusive|unclear|unknown)"
    r"(?:[ \t]+(?:tests?|gates?|criteria|checks?|screens?))?[ \t]*[*_]{0,2}[ \t]*(?::|\u2014|\u2013|[ \t]-)",
    re.IGNORECASE,
)


class _ListedGatesMixin(_ParserState):
    """Reads gates given by position in a numbered list, by JSON key, or as the items of a verdict label's list."""

    def _numbered_list_anchors(self) -> None:
        """Anchor the items of a bare numbered list of verdicts as gates 1..N, when it has exactly N items (the
        card's gate count), numbered 1..N in order, each holding a verdict word, and no item names another gate."""
        n = len(self.card.gates)
        run: list[int] = []
        level = 0
        for li, line in enumerate(self.lines):
            m = item_number(self.masked, line.start, line.end) if line.kind == "list" and line.marker == "number" else None
            if m is None:
                if line.kind == "heading" or (line.kind == "list" and line.level <= level):
                    self._anchor_run(run, n)
                    run = []
                continue
            if run and line.level > level:
                continue  # a nested item under the current one
            number = m[0]
            if run and number == len(run) + 1 and line.level == level:
                run.append(li)
                continue
            self._anchor_run(run, n)
            run, level = ([li], line.level) if number == 1 else ([], 0)
        self._anchor_run(run, n)

    def _anchor_run(self, run: list[int], n: int) -> None:
        if len(run) != n or n < 2:
            return
        if names_no_criteria(lead_in(self.masked, self.lines, run[0])):
            return  # "Risks I see:" above "1. The refinancing fails ...": the writer's own list, not the card's gates
        for k, li in enumerate(run, start=1):
            line = self.lines[li]
            anchor = self.anchors.get(li)
            if anchor is not None and anchor.gate not in (None, k):
                return  # "1. The P/E test fails": a list of named gates, read by their names
            if any(m.how not in ("number", "substance") and m.gates and k not in m.gates
                   for m in self.mentions if line.start <= m.start < line.end):
                return
            if not any(line.start <= h.start < line.end for h in self.hits):
                return  # a numbered list of reasons or facts, not of verdicts
        vocabulary = distinctive_vocabulary(self.card)
        for k, li in enumerate(run, start=1):
            if self.anchors.get(li) is None:
                line = self.lines[li]
                m = item_number(self.masked, line.start, line.end)
                if m is not None:  # a sentence of the writer's own with a mark is met by its place only (break44 #1)
                    own = self.masked[m[1][1] : line.end]
                    for h in self.hits:
                        if line.start <= h.start < line.end:
                            own = own.replace(self.masked[h.start : h.end], " ")
                    self.anchors[li] = _Anchor(k, POSITION if placed_only(own, vocabulary[k]) else "number", m[1])

    def _evidence(self, structural: bool, label_units: dict[int, Span]) -> list[_Evidence]:  # type: ignore[override]
        out = super()._evidence(structural, label_units)  # type: ignore[misc]
        return bounded_evidence(out + self._keyed_evidence() + self._label_list_evidence())

    def _gates(self, evidence: list[_Evidence]) -> list[GateTrace]:  # type: ignore[override]
        """The gate traces; a gate named by a JSON key in the sentence that also holds the final verdict
        ('{"gate_2": "REJECT", "final_verdict": "DECLINE"}' on one line) is listed like one named elsewhere."""
        keyed = {ev.hit.unit for ev in evidence if ev.label is not None and _GATE_KEY.match(self.masked, ev.label[0])}
        final = [u for u in keyed if self.units[u].final]
        for u in final:
            self.units[u].final = False
        try:
            return super()._gates(evidence)  # type: ignore[misc]
        finally:
            for u in final:
                self.units[u].final = True

    def _hit_at(self, pos: int, end: int) -> _Hit | None:
        return next((h for h in self.hits if pos <= h.start < end), None)

    def _keyed_evidence(self) -> list[_Evidence]:
        """'"gate_2": "REJECT"': the value's verdict word for gate 2 (also in a one-line object that holds the final verdict)."""
        out: list[_Evidence] = []
        n = len(self.card.gates)
        if '"' not in self.masked:
            return out
        for m in _GATE_KEY.finditer(self.masked):
            gate = int(m.group(1))
            if not 1 <= gate <= n:
                continue
            close = self.masked.find('"', m.end())
            hit = self._hit_at(m.end(), close if close >= 0 and close - m.end() <= 30 else m.end() + 1)
            if hit is None:
                continue
            out.append(_Evidence(gate, hit, self._section_of(gate, hit.unit), label=m.span()))
        return out

    def _label_list_evidence(self) -> list[_Evidence]:
        """"Failed: the P/E test, the dividend test and the size test.": the label's verdict for every gate named after it
        in its sentence."""
        out: list[_Evidence] = []
        for u, unit in enumerate(self.units):
            mentions = self.unit_mentions.get(u)
            if not mentions:
                continue
            m = _VERDICT_LABEL.match(self.masked, unit.start, unit.end)
            if m is None:
                continue
            hit = self._hit_at(m.start("word"), m.end("word"))
            if hit is None:
                continue
            gates: list[int] = []
            for mention in mentions:
                if mention.start >= m.end() and mention.how != "substance":
                    gates.extend(g for g in mention.gates if g not in gates)
            for g in gates:
                out.append(_Evidence(g, hit, self._section_of(g, u), label=(m.start(), m.end())))
        return out


def bounded_evidence(evidence: list[_Evidence]) -> list[_Evidence]:
    """``evidence`` with at most :data:`MAX_SENTENCE_HITS` pieces per gate: its first and its last half, in their order
    (a gate's verdict words are each judged in context, about a millisecond each; a gate heading over 1 MB of marks
    gathered 21,000 of them, break44 #5). A realistic answer states a gate's verdict a few times and loses nothing.

    >>> from types import SimpleNamespace as E
    >>> ev = [E(gate=1, n=k) for k in range(MAX_SENTENCE_HITS + 10)] + [E(gate=2, n=-1)]
    >>> kept = bounded_evidence(ev)
    >>> len(kept), kept[0].n, kept[MAX_SENTENCE_HITS - 1].n, kept[-1].n
    (257, 0, 265, -1)
    """
    counts: dict[int, int] = {}
    for ev in evidence:
        counts[ev.gate] = counts.get(ev.gate, 0) + 1
    if all(n <= MAX_SENTENCE_HITS for n in counts.values()):
        return evidence
    half = MAX_SENTENCE_HITS // 2
    seen: dict[int, int] = {}
    kept = []
    for ev in evidence:
        k = seen[ev.gate] = seen.get(ev.gate, 0) + 1
        if counts[ev.gate] <= MAX_SENTENCE_HITS or k <= half or k > counts[ev.gate] - half:
            kept.append(ev)
    return kept
