"""Table legends: a key line that says what a table's own marks mean (issue 13, layouts in the wild; paper §7.5).

A writer who fills a table with marks of their own ("●" / "○", "ON" / "OFF", "Y" / "N") states what they mean in a key
line beside it: "Key: ● = meets the lens, ○ = does not", "(legend: ON = the warning fires, so the test fails; OFF =
PROCEED)". A careful reader reads each such cell through the key. This module finds key lines (a line that opens with,
or holds a bracket opened by, "key", "legend" or "symbols" and a colon), reads each ``mark = meaning`` pair of one to
six characters, and gives the meaning a verdict: a verdict keyword it holds (PROCEED, REJECT, INCONCLUSIVE), else a
failing word or a negation ("fails", "does not", "misses", "fires") for REJECT, a passing word ("meets", "passes",
"holds") for PROCEED, an open word ("unknown", "unclear") for INCONCLUSIVE. A table cell that holds only such a mark
then states that verdict, at the level of a verdict word in a cell, and the key line's own words are nobody's verdict.

Every pattern here is linear on long input: literal cues, bounded classes and bounded repeats, one line at a time.
"""

from __future__ import annotations

import re

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._common import _Hit
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import Span

#: A key line's cue: "Key:", "Legend:", "(legend: ...", "Symbols:" at a line's start (after list or emphasis marks) or
#: after an opening bracket.
_CUE = re.compile(r"(?im)(?:^[ \t>*_#-]{0,8}+|\()[ \t*_]{0,4}+(?:key|legend|symbols?)[ \t*_]{0,4}+:")
#: One ``mark = meaning`` pair: a mark of one to six characters (quoted or bare) and its meaning up to the next
#: separator.
_PAIR = re.compile(r"""["'\u201c\u2018`]?(?P<mark>[^\s=,;:"'\u201c\u201d\u2018\u2019`()]{1,6})["'\u201d\u2019`]?[ \t]{0,4}+"""
                   r"""(?:=|means)[ \t]{0,4}+(?P<meaning>[^,;\n()]{1,120})""")
_KEYWORD = re.compile(r"(?i)\b(?:(?P<p>proceed|pass(?:es|ed)?|meets?|met|holds?|satisf\w{0,6}|clears?|ok)|"
                      r"(?P<r>reject\w{0,2}|fail\w{0,3}|miss\w{0,3}|breach\w{0,3}|fires?|triggered|not|doesn't|no)|"
                      r"(?P<i>inconclusive|unknown|unclear|open|undecided|borderline))\b")
_LEGEND_WORD = vw.VerdictWord(r"(?!)", vw.PROCEED, (), negatable=False)


def meaning_verdict(meaning: str) -> str | None:
    """The verdict a key's meaning gives its mark, or None.

    >>> meaning_verdict("meets the lens"), meaning_verdict("does not"), meaning_verdict("the warning fires, so REJECT")
    ('PROCEED', 'REJECT', 'REJECT')
    >>> meaning_verdict("not known yet (INCONCLUSIVE)"), meaning_verdict("a note"), meaning_verdict("unknown")
    ('INCONCLUSIVE', None, 'INCONCLUSIVE')
    """
    upper = re.search(r"\b(PROCEED|REJECT|INCONCLUSIVE)\b", meaning)
    if upper is not None:
        return upper.group(1)
    found = {k for m in _KEYWORD.finditer(meaning) for k, v in m.groupdict().items() if v}
    if "i" in found:
        return vw.INCONCLUSIVE
    if "r" in found:
        return vw.REJECT  # "does not meet", "fails", "the flag fires"
    if "p" in found:
        return vw.PROCEED
    return None


def legend_marks(text: str) -> tuple[dict[str, str], list[Span]]:
    """The marks the key lines of ``text`` define, mark -> verdict, and the spans of those key lines.

    >>> legend_marks("| a | ON |\\n\\nLegend: ON = the test fails, OFF = passes")[0]
    {'ON': 'REJECT', 'OFF': 'PROCEED'}
    """
    marks: dict[str, str] = {}
    spans: list[Span] = []
    for cue in _CUE.finditer(text):
        end = text.find("\n", cue.end())
        end = len(text) if end < 0 else min(end, cue.end() + 400)
        found = False
        for pair in _PAIR.finditer(text, cue.end(), end):
            verdict = meaning_verdict(pair.group("meaning"))
            if verdict is not None:
                marks.setdefault(pair.group("mark"), verdict)
                found = True
        if found:
            spans.append((cue.start(), end))
    return marks, spans


class _LegendMixin(_ParserState):
    """Reads a table's cells through its key line (see the module doc)."""

    masked: str
    hits: list[_Hit]
    unit_hits: dict[int, list[_Hit]]

    def _find_hits(self) -> None:
        super()._find_hits()  # type: ignore[misc]
        if "=" not in self.masked or not any(line.kind == "table" for line in self.lines):
            return
        marks, spans = legend_marks(self.masked)
        if not marks:
            return
        extra: list[_Hit] = []
        for line in self.lines:
            if line.kind != "table":
                continue
            for s, e in line.cells:
                cell = self.masked[s:e].strip(" \t*_`")
                verdict = marks.get(cell)
                if verdict is None:
                    continue
                start = self.masked.index(cell, s, e)
                u = self._unit_at(start)
                if u < 0:
                    continue
                level = vw.HEDGED if verdict == vw.INCONCLUSIVE else vw.COMMITTED
                extra.append(_Hit(start, start + len(cell), _LEGEND_WORD, u, judged=True, level=level, verdict=verdict))
        if not extra:
            return
        covered = {p for h in extra for p in range(h.start, h.end)}  # a mark is at most six characters
        covered.update(p for a, b in spans for p in range(a, b))  # a key line at most 400

        def dropped(h: _Hit) -> bool:
            return h.start in covered

        self.hits = sorted([h for h in self.hits if not dropped(h)] + extra, key=lambda h: h.start)
        self.unit_hits = {}
        for h in self.hits:
            self.unit_hits.setdefault(h.unit, []).append(h)
