"""Labels that name several gates at once (issue 13, gate references).

**A grouped label.** "Tests 1 and 2: both PROCEED ...", "Gate 4 and gate 5:
nothing decided. PROCEED.", "Lenses 2 and 3: ...", "Net of costs and risk
budget: not meaningful": a label naming two or more gates, joined by "and",
"&", "or", commas or a range ("Criteria 5-7"), heads one section for all of
them. A reader gives each gate so named the verdicts of that section and
places it where the label stands, not where the answer names it again later
("Test 2, once more: ..."). A verdict inside the section that is tied to one
of the gates ("gate 4 passes, gate 5 fails") stays that gate's alone.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._common import _WORDS_APOS, _Anchor, _Evidence
from ipb.scoring.parse._state import _ParserState

#: What may stand between the gate references of one grouped label: "and", "&", "or", "as well as", commas, "the";
#: and "and" in the languages answers come in, between spaces ("Gate 2 \u2013 Price Versus Growth \u0456 Gate 3 \u2013 ...": Rusyn
#: and Ukrainian "\u0456", Russian "\u0438", German "und", French "et", Spanish "y", Portuguese and Italian "e", Dutch "en",
#: Norwegian and Danish "og", Swedish "och", Polish "oraz" and "i", Turkish "ve").
#: Each run of spacing is read by one possessive star (nothing after a run may open with what the run takes), so a long
#: run between two mentions costs linear time (before stop 61 the two stars split it every way: quadratic).
_JOINER = re.compile(r"(?i)[\s,/*_]*+(?:(?:and|&|or|as[ \t]+well[ \t]+as|plus)[\s*_]*+"
                     r"|(?<=\s)(?:\u0456|\u0438|\u0442\u0430|und|et|y|e|en|og|och|oraz|i|ve)(?=\s))?(?:the[ \t]++)?[\s,*_]*+")
#: What may stand between a gate's number and its name in one label: "Gate 2 \u2013 Price Versus Growth", "Gate 2: ...".
_TITLE_DASH = re.compile(r"[ \t*_]*+(?:[\u2013\u2014:]|(?<=[ \t])-[ \t])[ \t*_]*+")
#: A dash after a label's gate number that opens the gate's name (never a colon, which ends the label; never an unspaced
#: hyphen, which makes a range: "Gates 2-3").
_NAME_DASH = re.compile(r"[ \t*_]*+(?:[\u2013\u2014]|(?<=[ \t])-[ \t])")


class _GroupedLabelsMixin(_ParserState):
    """Gives a grouped label's section (:meth:`_group_of`) to every gate the label names."""

    def _group_of(self, li: int) -> tuple[int, ...]:
        """The gates line ``li``'s label names jointly, in the label's order (one gate: no group).

        The label is the line's label span, else the anchor's own mention; the
        mentions inside it must follow one another with nothing but joiners
        between them ("Gate 4 and gate 5", "Lenses 2 and 3", "Net of costs and
        risk budget"), so "Price test (see also gate 5)" is no group.
        """
        anchor = self.anchors.get(li)
        if anchor is None or anchor.gate is None:
            return ()
        umbrella = self.__dict__.get("umbrella_lines", {}).get(li)
        if umbrella and umbrella[0].gates[0] == anchor.gate:  # "Moderate Valuation (P/E & P/B)" (:meth:`_umbrella_parts`)
            return tuple(dict.fromkeys(g for m in umbrella for g in m.gates))
        line = self.lines[li]
        start, end = line.label if line.label is not None and line.label[0] <= anchor.mention[0] < line.label[1] else anchor.mention
        if line.kind == "table":  # "| Circle of Competence, Economic Moat | PROCEED |": the anchor's cell names the group
            start, end = next(((a, b) for a, b in line.cells if a <= anchor.mention[0] < b), (start, end))
        end = max(end, anchor.mention[1])
        dash = _NAME_DASH.match(self.masked, end, line.end)
        colon = self.masked.find(":", end, min(line.end, end + 90)) if dash is not None else -1
        if colon > 0:  # "Gate 2 \u2013 Price Versus Growth \u0456 Gate 3 \u2013 ...:": the label runs to its colon
            end = colon
        mentions = [m for m in self._mentions_in(start, end) if m.gates and m.invented is None and m.how != "substance"]
        mentions = [m for m in mentions if m.end <= end + 40]
        if not mentions or anchor.gate not in mentions[0].gates:
            return ()
        if len(_WORDS_APOS.findall(self.masked, line.start, mentions[0].start)) > 1:
            return ()  # the gates must open the line ("Tests 1 and 2: ..."), not stand in the middle of a sentence
        gates: list[int] = list(mentions[0].gates)
        last = mentions[0].end
        for m in mentions[1:]:
            if m.start < last:
                continue
            if set(m.gates) == set(gates[-len(m.gates):]) and _TITLE_DASH.fullmatch(self.masked, last, m.start):
                last = m.end  # "Gate 2 \u2013 Price Versus Growth": the same gate's number and then its name
                continue
            if _JOINER.fullmatch(self.masked, last, m.start) is None:
                break
            gates.extend(m.gates)
            last = m.end
        gates = list(dict.fromkeys(gates))
        return tuple(gates) if len(gates) >= 2 else ()

    def _sections(self, structural: bool) -> list[_Evidence]:  # type: ignore[override]
        evidence: list[_Evidence] = super()._sections(structural)  # type: ignore[misc]
        extra: list[_Evidence] = []
        dropped: set[int] = set()  # ids of the anchor gate's evidence handed to another gate of its group
        for li, anchor in self.anchors.items():
            group = self._group_of(li)
            if not group:
                continue
            units = self.line_units[li]
            if not units:
                continue
            section = self.units[units[0]].section
            if section < 0 or self.section_gate.get(section) != anchor.gate:
                continue
            shared = [ev for ev in evidence if ev.gate == anchor.gate and ev.section == section
                      and not ((owner := self._tight_owner(ev.hit, ev.hit.unit)) and set(owner) < set(group))]
            # a verdict the label's own paragraph states, not the conclusion after it ("... INCONCLUSIVE until ...")
            para_end = self.masked.find("\n\n", self.lines[li].start)
            para_end = len(self.masked) if para_end < 0 else para_end
            stated = [ev for ev in shared if not ev.passing and not self.units[ev.hit.unit].final
                      and ev.hit.start < para_end and self._level(ev.hit) >= vw.HEDGED]
            distinct = {ev.hit.verdict for ev in stated}
            # "Tests 3 and 4: PROCEED and REJECT respectively", "Tests 4 and 5: REJECT, PROCEED": one stated verdict per
            # gate, given out in the label's order; what else the section says (a hedge, a later aside) goes to all
            split = len(stated) == len(group) and len(distinct) >= 2
            mine = {id(ev): g for g, ev in zip(group, stated)} if split else {}
            if split:
                dropped.update(id(ev) for ev in stated if mine[id(ev)] != anchor.gate)
            elif len(distinct) >= 2:
                self.notes.append(f"grouped label at line {li + 1} states {len(stated)} verdicts for {len(group)} gates "
                                  f"({', '.join(str(g) for g in group)}): each gate was given all of them, the last one winning")
            for g in group:
                if g == anchor.gate:
                    continue
                self._join_group(g, section, anchor)
                for ev in evidence:
                    if ev.gate != anchor.gate or ev.section != section:
                        continue
                    owner = self._tight_owner(ev.hit, ev.hit.unit)
                    if owner and g not in owner:
                        continue  # "gate 4 passes": tied to one gate of the group
                    if mine.get(id(ev), g) != g:
                        continue  # another gate's share of "PROCEED and REJECT respectively"
                    extra.append(replace(ev, gate=g))
        if dropped:
            evidence = [ev for ev in evidence if id(ev) not in dropped]
        return evidence + extra

    def _join_group(self, g: int, section: int, anchor: _Anchor) -> None:
        """Gate ``g`` of a grouped label gets the label's section, and the label as its mention unless named before."""
        sections = self.gate_sections.setdefault(g, [])
        if section not in sections:
            sections.append(section)
            sections.sort(key=lambda s: self.units[self.section_first[s]].start if self.section_first.get(s, -1) >= 0 else -1)
        self.gate_mention.setdefault(g, (anchor.mention, anchor.how))
