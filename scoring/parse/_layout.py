"""Layout: the answer's lines and units (paper §6.5).

Lines are classified (heading, list item, bold label, table row, JSON gate
object, plain) by :func:`ipb.scoring._text.split_lines`; each line becomes one
or more units (sentences, cut at :data:`MAX_UNIT` characters). Assigning units
to gate sections is :mod:`._layout_sections`; reading hard-wrapped lines as one
is :mod:`._unwrap` (``unwrap_hard_wrapped`` is re-exported here).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Iterable

from ipb.scoring._text import (
    Line,
    Trigger,
    blank_spans,
    classify_line,
    json_gate_objects,
    scan,
    sentence_spans,
    split_lines,
    word_prefixes,
)
from ipb.scoring.parse._common import (
    _LINE_WITH_TEXT,
    MAX_LINES,
    MAX_OCCURRENCES,
    MAX_UNIT,
    MAX_CHARS,
    PREFILTER_CHARS,
    _Unit,
)
from ipb.scoring.parse._layout_sections import _SectionsMixin
from ipb.scoring.parse._references import _JSON_GATE_KEYS
from ipb.scoring.parse._types import Span
from ipb.scoring.parse._unwrap import MIN_WRAPPED_LINE, unwrap_hard_wrapped

__all__ = ["MIN_WRAPPED_LINE", "unwrap_hard_wrapped"]


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


#: Where a plain prose sentence divides into clauses that may each take up a criterion of their own: a semicolon, a comma
#: before "but", "while", "whereas", "yet" or "although", "whereas" alone, or a dash set off by spaces.
#: A run of spacing is entered only at its first character (the look-behind): else each of its n places starts a match
#: that runs to the end of the run and gives back, n * n steps (a 20,000-space run took 39 s; the middle of a line past
#: MAX_CHARS is blanked to such a run, which made a 3 MB line take minutes).
_CLAUSE_BREAK = re.compile(r"(?i)(?:;|,[ \t]+(?=(?:but|while|whereas|yet|although|though)\b)|(?<![ \t])[ \t]+(?=whereas\b)|(?<![ \t])[ \t]+[\u2013\u2014][ \t]+|(?<![ \t])[ \t]+--?[ \t]+)[ \t]*")
#: A clause shorter than this many words stays with its sentence ("yes; it passes" is one statement).
MIN_CLAUSE_WORDS = 4
#: Longest line (characters) whose sentences are cut into clauses: a longer one is no answer's paragraph but a paste or
#: an attack, and cutting its sentences made a 3 MB line take minutes (tests/robustness/test_reproducers_io.py's 5 MB
#: of "In 1999 ..." sentences: 5 s before the clause cut, over 2 min with it).
MAX_CLAUSED_LINE = 100_000


def _prose_clauses(text: str, spans: list[Span]) -> list[Span]:
    """``spans`` (sentences of a plain prose line) cut into clauses at :data:`_CLAUSE_BREAK`, each clause of at least
    :data:`MIN_CLAUSE_WORDS` words (a shorter one stays with the clause before it), so that a sentence taking up two
    criteria ("the gross margin widened, a pass, but asset turnover slipped, so that one fails") gives each its own unit.
    """
    out: list[Span] = []
    for start, end in spans:
        cuts = [m.end() for m in _CLAUSE_BREAK.finditer(text, start, end)]
        pieces: list[Span] = []
        last_words = 0  # words of pieces[-1]: a cut ends after a non-word character, so counts add up across cuts
        at = start
        for cut in [*cuts, end]:
            if cut <= at:
                continue
            words = len(_WORD.findall(text, at, cut))
            if pieces and (words < MIN_CLAUSE_WORDS or last_words < MIN_CLAUSE_WORDS):
                pieces[-1] = (pieces[-1][0], cut)
                last_words += words
            else:
                pieces.append((at, cut))
                last_words = words
            at = cut
        out.extend(pieces or [(start, end)])
    return out


_WORD = re.compile(r"\w+")


class _LayoutMixin(_SectionsMixin):
    """Splits the masked text into lines and units; :class:`._layout_sections._SectionsMixin` assigns units to gate sections."""

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
            whole: dict[Span, Span] = {}
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
                if line.kind == "plain" and line.end - line.start <= MAX_CLAUSED_LINE:
                    # each clause remembers its sentence (the described-prose reader weighs it whole)
                    clauses: list[Span] = []
                    for sentence in spans:
                        cut = _prose_clauses(masked, [sentence])
                        clauses.extend(cut)
                        whole.update((c, sentence) for c in cut if c != sentence)
                    spans = clauses
            units, starts = self.units, self.unit_starts
            for s0, e0 in spans:
                for s, e in _chunks(masked, s0, e0) if e0 - s0 > MAX_UNIT else ((s0, e0),):
                    ids.append(len(units))
                    units.append(_Unit(s, e, li, len(ids) == 1, sentence=whole.get((s0, e0))))
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
