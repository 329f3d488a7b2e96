"""Verdicts in a table's verdict column, a verdict cell or a labelled verdict field (moved out of :mod:`._verdicts`
unchanged; issue 13, paper §7.5).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ipb.scoring import verdict_words as vw
from ipb.scoring._text import Line, normalize, table_top
from ipb.scoring.parse._common import _FIELD_VERDICT, _Hit
from ipb.scoring.parse._state import _ParserState

#: A table column that holds the gate's verdict: "Verdict", "Gate verdict", "Decision", "Outcome", "Result", "Conclusion".
_VERDICT_HEADER = re.compile(r"(?:(?:gate|final|our|my)\s+)?(?:verdict|decision|outcome|result|conclusion|call)s?")
_JSON_VERDICT_FIELD = re.compile(r'(?i)"(?:gate_)?(?:verdict|outcome|result|status|decision)"[ \t]*:[ \t]*"?[ \t]*\Z')
_JSON_VERDICT_KEYS = frozenset({"verdict", "outcome", "result", "status", "decision", "gate_verdict"})
#: A JSON object's own decision on its criterion: a verdict-like key or a pass flag, up to its value ('"result": "',
#: '"passes": '). Linear: each run of spacing is possessive and the alternatives are literal words.
_JSON_DECISION = re.compile(r'(?i)"(?:gate_)?(?:verdict|outcome|result|status|decision|pass(?:es|ed)?|meets?|met)"'
                            r'[ \t]*+:[ \t]*+"?[ \t]*+')


@lru_cache(maxsize=8192)
def _is_verdict_cell(text: str) -> bool:
    stripped = text.strip(" *_`")
    if not stripped or len(stripped.split()) > 4:
        return False
    return vw.VERDICT_PATTERN.search(stripped) is not None or vw.CONTEXT_VERDICT_PATTERN.fullmatch(stripped) is not None


class _VerdictCellsMixin(_ParserState):
    """Whether a verdict word stands in a table's verdict column, a verdict cell or a verdict field (:mod:`._verdicts`)."""

    def _verdict_column(self, li: int) -> int | None:
        """The index of the column headed "Verdict" (or Decision, Outcome, Result, Conclusion, Gate verdict) in the table
        holding line ``li``, or None; found once per table."""
        cache = self.verdict_columns
        top = table_top(self.lines, li)
        if top in cache:
            return cache[top]
        found = None
        if top + 1 < len(self.lines) and self.lines[top + 1].kind == "table_sep":
            for c, (a, b) in enumerate(self.lines[top].cells):
                if _VERDICT_HEADER.fullmatch(normalize(self.masked[a:b])):
                    found = c
        cache[top] = found
        return found

    def _field_hit(self, line: Line, hit: _Hit) -> bool:
        if _JSON_VERDICT_FIELD.search(self.masked, max(line.start, hit.start - 40), hit.start):
            return True
        if line.label is None or hit.start < line.label[1]:
            return False
        if line.kind == "json":
            return line.key in _JSON_VERDICT_KEYS
        label = normalize(self.masked[line.label[0] : line.label[1]])
        return bool(_FIELD_VERDICT.match(label)) and hit.start - line.label[1] <= 12

    def _json_decided_elsewhere(self, line: Line, hit: _Hit) -> bool:
        """Whether ``hit`` is a word of a JSON gate object's free text ("evidence", "notes", "observed") while the object
        states its own decision in a verdict field or a pass flag ('"result": "FAIL"', '"passes": false'): the decision
        is the object's verdict, and a word in its evidence ("pay passes muster, but ...") never outranks it."""
        if line.kind != "json" or line.key != "object":
            return False
        cache: dict[int, tuple[frozenset[int], bool]] = self.__dict__.setdefault("json_decisions", {})
        known = cache.get(line.start)
        if known is None:  # once per object: its decision values, and whether one of them holds a committed word
            starts: dict[int, _Hit] = self.__dict__.get("hit_starts") or {}
            if not starts:
                starts = {h.start: h for h in self.hits}
                self.__dict__["hit_starts"] = starts
            values = frozenset(m.end() for m in _JSON_DECISION.finditer(self.masked, line.start, line.end))
            decided = any(v in starts and self._level(starts[v]) >= vw.COMMITTED for v in values)  # type: ignore[attr-defined]
            known = cache[line.start] = (values, decided)
        return known[1] and hit.start not in known[0]

    def _verdict_cell(self, line: Line, hit: _Hit) -> bool:
        for s, e in line.cells:
            if s <= hit.start and hit.end <= e:
                return _is_verdict_cell(self.masked[s:e])
        return False
