"""Confidence of each reading (issue 13 item 3): how sure the parser is of a gate's verdict and of the final verdict.

A reading's confidence in [0, 1] comes from how strongly its words commit
and how the gate was recognised, lowered when another reading competes (a
different verdict stated for the same gate, or a different outcome for the
final verdict); the strongest competitor is reported as the runner-up with
its span. The numbers are an ordinal scale, not calibrated probabilities:
``ipb score --min-confidence`` uses them to route readings to review.

Level of the winning statement (see :mod:`._verdicts`): 4 a label's or a
verdict field's word, or an explicit revision; 3 a committed word; 2 a
hedged one; 1 a modal one.

========================  =====  ==================================================
winning level             base   then
========================  =====  ==================================================
4 / 3 / 2 / 1             0.95 / 0.85 / 0.65 / 0.45
negated word ("does not pass")   -0.10
gate recognised by                name, alias, number x1.0; fuzzy x0.9; part of a
                                 name x0.85; substance phrase x0.8; embedding x0.75
competitor at the same or a       x0.6 (same or higher), x0.8 (one level lower),
lower level                      x0.9 (lower still)
no verdict read                  0.5 x recognition (gates; x0.5 again if no reader
                                 in other words gives one: :func:`settled`);
                                 0.0 (final verdict)
========================  =====  ==================================================

The factors were set against the labelled corpus's tuned split (stop 30,
``bench/parse_accuracy.py --confidence``): a gate recognised by fuzzy match
or by part of its name read right as often as one named outright (92 of 92,
102 of 103), one recognised by a phrase of its substance less often (141 of
153), and a gate left without a verdict is usually a verdict missed (146 of
165); those factors were 0.9, 0.85, 0.8 and a single 0.5 before.
"""

from __future__ import annotations

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._common import _Evidence
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import GateTrace, Span

#: Confidence of a reading by the level of the statement that won it.
LEVEL_CONFIDENCE = {4: 0.95, 3: 0.85, 2: 0.65, 1: 0.45, 0: 0.35}
#: Factor by how the gate was recognised.
RECOGNITION = {"name": 1.0, "alias": 1.0, "id": 1.0, "number": 1.0, "fuzzy": 0.945, "words": 0.945, "substance": 0.75, "embedding": 0.75, "paraphrase": 0.6}
#: At most this many readings of one gate are weighed for its confidence (a bound for pathological input).
MAX_COMPETITORS = 256
#: Confidence of a gate discussed without a verdict (times the recognition factor), before the readers in other words.
NO_VERDICT = 0.5
#: A gate still without a verdict once every reader has had its turn keeps this share of its confidence (:func:`settled`).
UNREAD_FACTOR = 0.5


def competed(confidence: float, winner: int, runner_up: int | None) -> float:
    """``confidence`` lowered by a competing reading of level ``runner_up`` against the winner's ``winner``."""
    if runner_up is None:
        return confidence
    if runner_up >= winner:
        return confidence * 0.6
    if runner_up == winner - 1:
        return confidence * 0.8
    return confidence * 0.9


def final_confidence(candidates: list[tuple[int, int, str, Span]], outcome: str, span: Span) -> tuple[float, str | None, Span | None]:
    """(confidence, runner-up outcome, its span) of the final verdict chosen among ``candidates`` (level, position, outcome, span)."""
    level = max((c[0] for c in candidates if c[3] == span), default=0)
    others = [c for c in candidates if c[2] != outcome]
    best = max(others, key=lambda c: (c[0], c[1])) if others else None
    base = LEVEL_CONFIDENCE.get(max(0, min(level, 4)), 0.35)
    conf = competed(base, level, best[0] if best else None)
    return round(min(1.0, max(0.0, conf)), 3), (best[2] if best else None), (best[3] if best else None)


def settled(gates: list[GateTrace]) -> list[GateTrace]:
    """``gates`` with the confidence of each one still without a verdict lowered by :data:`UNREAD_FACTOR`, in place.

    Called once every reader (section, stated bar, fact key, entailment) has
    had its turn. Measured on the corpus's tuned split (stop 30): of 165
    gates read without a verdict, 146 are labelled with one (the parser
    found the gate and missed its verdict) and 19 are labelled as discussed
    without one, so "no verdict" is the reading most often wrong and ranks
    below every reading with a verdict (0.25 for a gate named outright).

    Examples
    --------
    >>> g = [GateTrace(1, "a", None, (0, 1), (0, 1), "name", confidence=0.5),
    ...      GateTrace(2, "b", "PROCEED", (2, 3), (2, 3), "name", (2, 3), confidence=0.85)]
    >>> [t.confidence for t in settled(g)]
    [0.25, 0.85]
    """
    for trace in gates:
        if trace.verdict is None:
            trace.confidence = round(trace.confidence * UNREAD_FACTOR, 3)
    return gates


class _ConfidenceMixin(_ParserState):
    """Confidence and runner-up of each gate's verdict (the final verdict's: :func:`final_confidence`)."""

    def _gate_confidence(self, evidence: list[_Evidence], verdict: str | None, span: Span | None, how: str) -> tuple[float, str | None, Span | None]:
        recognised = RECOGNITION.get(how, 0.9)
        if verdict is None or span is None:
            return round(NO_VERDICT * recognised, 3), None, None
        if len(evidence) > MAX_COMPETITORS:  # a flood of verdict words: the winner's and the last ones are weighed
            evidence = [ev for ev in evidence if (ev.hit.start, ev.hit.end) == span] + evidence[-MAX_COMPETITORS:]
        winner = 0
        derived = False
        best: tuple[int, int, _Evidence] | None = None
        for ev in evidence:
            rank = self._rank(ev)[0]
            if rank <= 0:
                continue
            hit = ev.hit
            if (hit.start, hit.end) == span:
                if rank > winner:
                    winner, derived = rank, hit.derived
                if self._revision(hit) and self._level(hit) >= vw.COMMITTED:
                    winner = 4
            elif hit.verdict != verdict and (best is None or (rank, hit.start) > (best[0], best[1])):
                best = (rank, hit.start, ev)
        conf = LEVEL_CONFIDENCE.get(max(0, min(winner, 4)), 0.35) - (0.1 if derived else 0.0)
        conf = competed(conf, winner, best[0] if best else None) * recognised
        runner = best[2].hit if best else None
        return round(min(1.0, max(0.0, conf)), 3), (runner.verdict if runner else None), ((runner.start, runner.end) if runner else None)
