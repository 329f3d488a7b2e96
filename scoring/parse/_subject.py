"""Whose verdict a sentence gives when its subject names a test: "so the improvement test fails" speaks for the
gate the words "improvement test" name, not for the gate the paragraph happens to be about (issue 13, gate
references; new user 2 finding 5).

A careful reader takes the verdict word's grammatical subject first. When the subject is "the <words> test"
(check, criterion, screen, hurdle, filter, rule) and its words belong to another gate's name or aliases, the
verdict goes to that gate; where several gates share the words ("improving return on assets",
"improving liquidity"), the sentence's other words decide ("last year's return on assets was 25% ... so the
improvement test fails" is the return-on-assets one); where they still tie, the verdict goes to no gate.
"""

from __future__ import annotations

import re

from ipb.scoring._text import content_stems
from ipb.scoring.parse._common import _Evidence, _Mention, _mention_order
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import Span

#: "the improvement test fails", "the leverage check is clearly a REJECT": the subject's words before the verdict word.
_TEST_SUBJECT = re.compile(
    r"\bthe[ \t]+(?P<words>[a-z][a-z'/-]*(?:[ \t]+[a-z][a-z'/-]*){0,2}?)[ \t]+(?:test|check|criterion|screen|hurdle|filter|rule)"
    r"[ \t]+(?:(?:is|was|also|clearly|therefore|thus|then|plainly|simply|a|an)[ \t]+)*\Z"
)


def _share(a: set[str], b: set[str]) -> int:
    """How many stems of ``a`` match one of ``b`` (equal, or one a prefix of the other of at least 5 letters)."""
    return sum(1 for x in a if any(x == y or (min(len(x), len(y)) >= 5 and (x.startswith(y) or y.startswith(x))) for y in b))


class _SubjectMixin(_ParserState):
    """Moves a verdict whose subject names another gate's test to that gate (or to none)."""

    def _evidence(self, structural: bool, label_units: dict[int, Span]) -> list[_Evidence]:  # type: ignore[override]
        return self._by_subject(super()._evidence(structural, label_units))  # type: ignore[misc]

    def _gate_stems(self) -> dict[int, set[str]]:
        cached = getattr(self, "_subject_gate_stems", None)
        if cached is None:
            cached = {}
            for gate in self.card.gates:
                cached[gate.number] = set(content_stems(" ".join([gate.name, *gate.aliases])))
            self._subject_gate_stems: dict[int, set[str]] | None = cached
        return cached

    def _by_subject(self, evidence: list[_Evidence]) -> list[_Evidence]:
        """``evidence`` with each verdict whose subject names another gate's test given to that gate, or dropped
        when the subject names no single gate; the others unchanged."""
        out: list[_Evidence] = []
        for ev in evidence:
            hit = ev.hit
            unit = self.units[hit.unit]
            m = _TEST_SUBJECT.search(self.low, max(unit.start, hit.start - 70), hit.start)
            if m is None:
                out.append(ev)
                continue
            subject = set(content_stems(m.group("words")))
            stems = self._gate_stems()
            if not subject or _share(subject, stems.get(ev.gate, set())):
                out.append(ev)
                continue
            candidates = [g for g, s in stems.items() if _share(subject, s)]
            if not candidates:
                out.append(ev)  # words of no gate ("the durability test"): a paraphrase of the gate being discussed
                continue
            context = set(content_stems(self.low[unit.start : unit.end]))
            scored = sorted(((_share(stems[g], context), g) for g in candidates), reverse=True)
            if len(scored) > 1 and scored[0][0] == scored[1][0]:
                continue  # the words fit two gates equally: no gate takes the verdict
            gate = scored[0][1]
            out.append(_Evidence(gate, hit, self._section_of(gate, hit.unit), passing=ev.passing))
            self.mentions.append(_Mention(m.start("words"), m.end(), (gate,), "words", unit=hit.unit))
            self.mentions.sort(key=_mention_order)
        return out
