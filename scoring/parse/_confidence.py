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
                                 name x0.85; substance phrase x0.8; embedding x0.75;
                                 by its place in a run alone at most 0.69 (:data:`PLACE_CAP`)
competitor at the same or a       x0.6 (same or higher), x0.8 (one level lower),
lower level                      x0.9 (lower still)
where the word stands            "Step N" number x0.8; its line says the evidence is
                                 assumed or missing x0.7; a mark its own cell
                                 contradicts x0.6 (:mod:`._circumstances`)
no verdict read                  0.5 x recognition (gates; x0.5 again if no reader
                                 in other words gives one: :func:`settled`);
                                 0.0 (final verdict)
========================  =====  ==================================================

The final verdict's confidence then weighs the evidence around the statement
(:meth:`_ConfidenceMixin._assessed_final`, once every gate is read; the
reading and its runner-up never change): the outcome the gate verdicts read
decide under the card's gate logic (:func:`trace_relation`) and where the
verdict's sentence stands.

==============================================  ==========================================
evidence                                        effect
==============================================  ==========================================
the gates read decide the same outcome          base by level 0.95 / 0.95 / 0.85 / 0.75
("agree": a kill, every gate PROCEED, enough    (:data:`AGREED_CONFIDENCE`)
PROCEED weight)
they decide another outcome ("conflict")        x0.7 (:data:`CONFLICT_FACTOR`)
a fail verdict, gates read all PROCEED, some    x0.85 (:data:`AGAINST_FACTOR`)
unread ("against")
no agreeing trace, the verdict's sentence       x0.8 (:data:`MIDDLE_FACTOR`)
starts inside (0.15, 0.75) of the text
the writer hedges it ("probably INVEST, though  x0.75 (:data:`HEDGED_FACTOR`, :func:`hedged_final`)
I am not sure")
==============================================  ==========================================

Set on the corpus's tuned split less the n28 batch (stop 31, 398 answers,
367 final verdicts read, 358 right): final verdicts whose trace agrees were
right 198 of 198 at every level, those whose trace decides otherwise 12 of
13, a fail verdict over gates read all PROCEED 20 of 23, one whose sentence
starts in the middle of the text with no agreeing trace 11 of 16; then
checked on n28's tuned part as a pseudo-blind set (docs/scoring.md,
"Confidence of the final verdict").

The factors were set against the labelled corpus's tuned split (stop 30,
``bench/parse_accuracy.py --confidence``): a gate recognised by fuzzy match
or by part of its name read right as often as one named outright (92 of 92,
102 of 103), one recognised by a phrase of its substance less often (141 of
153), and a gate left without a verdict is usually a verdict missed (146 of
165); those factors were 0.9, 0.85, 0.8 and a single 0.5 before.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ipb.engine._exact import as_fraction
from ipb.engine.card import Card
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._common import _Evidence
from ipb.scoring.parse._implied import implied_final
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import GateTrace, Span

#: Confidence of a reading by the level of the statement that won it.
LEVEL_CONFIDENCE = {4: 0.95, 3: 0.85, 2: 0.65, 1: 0.45, 0: 0.35}
#: Factor by how the gate was recognised.
RECOGNITION = {"name": 1.0, "alias": 1.0, "translation": 1.0, "term": 0.7, "id": 1.0, "number": 1.0, "fuzzy": 0.945, "words": 0.945, "substance": 0.75, "embedding": 0.75, "position": 0.75, "aligned": 0.7, "paraphrase": 0.6, "described": 0.6}
#: Confidence of a final verdict by its level when the gate verdicts read decide the same outcome (:func:`trace_relation`).
AGREED_CONFIDENCE = {4: 0.95, 3: 0.95, 2: 0.85, 1: 0.75, 0: 0.35}
#: Factor of a final verdict the gate verdicts read decide otherwise (a kill of another outcome; all gates PROCEED).
CONFLICT_FACTOR = 0.7
#: Factor of a fail verdict on a case whose gates read all PROCEED while some are unread.
AGAINST_FACTOR = 0.85
#: Factor of a final verdict in the middle of the text (start over length strictly inside :data:`MIDDLE`), no trace agreeing.
MIDDLE_FACTOR = 0.8
MIDDLE = (0.15, 0.75)
#: Factor of a final verdict the writer hedges in its own sentence (:func:`hedged_final`, stop 33).
HEDGED_FACTOR = 0.75
#: A reservation after the final verdict in its sentence: "though I am not sure", "I think", "(low conviction)".
_RESERVED_AFTER = re.compile(
    r"(?i)\b(?:(?:i\s*(?:'m|am)|we\s*(?:'re|are))\s+not\s+(?:sure|certain|confident)|not\s+(?:entirely\s+|fully\s+|completely\s+)?"
    r"(?:sure|certain|confident)|unsure|uncertain(?:ly)?|i\s+(?:think|guess|suppose|believe|reckon)|low(?:-|\s+)(?:conviction|confidence)"
    r"|tentative(?:ly)?|for\s+what\s+it'?s\s+worth|hard\s+to\s+say|could\s+go\s+either\s+way|on\s+balance|marginal(?:ly)?)\b")
#: The same before it in its clause: "probably INVEST", "I think INVEST", "on balance, a tentative DECLINE".
_RESERVED_BEFORE = re.compile(r"(?i)\b(?:i\s+(?:think|guess|suppose|believe|reckon)|on\s+balance|tentative(?:ly)?|for\s+now\s+maybe"
                              r"|(?:a\s+)?(?:weak|soft|low-conviction|marginal|reluctant|cautious)|reluctantly)\b[^.;:\n]{0,24}\Z")
_WORD = re.compile(r"[a-z]+")
#: At most this many readings of one gate are weighed for its confidence (a bound for pathological input).
MAX_COMPETITORS = 256
#: Confidence of a gate discussed without a verdict (times the recognition factor), before the readers in other words.
NO_VERDICT = 0.5
#: A gate still without a verdict once every reader has had its turn keeps this share of its confidence (:func:`settled`).
UNREAD_FACTOR = 0.5
#: The highest confidence of a gate met by its item's place in a run alone (how ``position``, :mod:`._positional`): under
#: the 0.7 review bar of ``ipb score --min-confidence``, whatever the level of its verdict word. A verdict cell's word
#: (level 4, 0.95) times the position factor (0.75) was 0.71, so a row of a table in another language, linked to its
#: gate by its place only, passed unreviewed (stop 48: n45's Georgian NBIM gates; stop 49).
PLACE_CAP = 0.69


def competed(confidence: float, winner: int, runner_up: int | None) -> float:
    """``confidence`` lowered by a competing reading of level ``runner_up`` against the winner's ``winner``."""
    if runner_up is None:
        return confidence
    if runner_up >= winner:
        return confidence * 0.6
    if runner_up == winner - 1:
        return confidence * 0.8
    return confidence * 0.9


def final_confidence(candidates: list[tuple[int, int, str, Span]], outcome: str, span: Span,
                     relation: str | None = None, position: float | None = None) -> tuple[float, str | None, Span | None]:
    """(confidence, runner-up outcome, its span) of the final verdict chosen among ``candidates`` (level, position, outcome, span).

    ``relation`` (:func:`trace_relation`) and ``position`` (the verdict's start over the text's length, 0-1) are the
    evidence of :func:`assessed`; None leaves the level's confidence as the statement alone gives it.

    Examples
    --------
    >>> final_confidence([(3, 10, "DECLINE", (10, 17))], "DECLINE", (10, 17))
    (0.85, None, None)
    >>> final_confidence([(3, 10, "DECLINE", (10, 17))], "DECLINE", (10, 17), "conflict", 0.9)
    (0.595, None, None)
    """
    level = max(0, min(4, max((c[0] for c in candidates if c[3] == span), default=0)))
    others = [c for c in candidates if c[2] != outcome]
    best = max(others, key=lambda c: (c[0], c[1])) if others else None
    base = (AGREED_CONFIDENCE if relation == "agree" else LEVEL_CONFIDENCE).get(level, 0.35)
    conf = assessed(competed(base, level, best[0] if best else None), relation, position)
    return round(min(1.0, max(0.0, conf)), 3), (best[2] if best else None), (best[3] if best else None)


def hedged_final(text: str, sentence: Span, span: Span) -> bool:
    """Whether the final verdict at ``span`` is hedged in its own sentence ``sentence`` (offsets into ``text``).

    A hedge word of :data:`ipb.scoring.verdict_words.HEDGES` or a modal just before it ("probably INVEST", "a likely
    DECLINE"), a word of doubt before it (:data:`_RESERVED_BEFORE`: "I think INVEST") or a reservation after it in the
    sentence (:data:`_RESERVED_AFTER`: "INVEST, though I am not sure", "DECLINE (low conviction)") or a question mark
    ending the sentence. The reading stays; its confidence is lowered by :data:`HEDGED_FACTOR`.

    Examples
    --------
    >>> t = "Final verdict: probably INVEST, though I am not sure."
    >>> hedged_final(t, (0, len(t)), (24, 30)), hedged_final("Final verdict: INVEST.", (0, 22), (15, 21))
    (True, False)
    """
    start, end = span
    before = text[max(sentence[0], start - 40) : start].lower()
    cut = max(before.rfind(":"), before.rfind(";"), before.rfind("("), before.rfind("\n"))
    words = _WORD.findall(before[cut + 1 :])[-3:]
    if not (vw.HEDGES.isdisjoint(words) and vw.MODALS.isdisjoint(words)) or _RESERVED_BEFORE.search(before[cut + 1 :]):
        return True
    after = text[end : min(sentence[1], end + 80)]
    return _RESERVED_AFTER.search(after) is not None or after.rstrip(" \t*_)\n").endswith("?")


def assessed(confidence: float, relation: str | None, position: float | None) -> float:
    """``confidence`` of a final verdict (already based on :data:`AGREED_CONFIDENCE` when the trace agrees) times the
    factors of the evidence around it: :data:`CONFLICT_FACTOR` when the gate verdicts read decide another outcome,
    :data:`AGAINST_FACTOR` when the verdict fails a case whose gates read all pass (some unread), and
    :data:`MIDDLE_FACTOR` when it stands in the middle of the text (:data:`MIDDLE`) with no agreeing trace.

    Examples
    --------
    >>> assessed(0.85, "conflict", 0.95), assessed(0.85, "against", 0.95), assessed(0.85, None, 0.5)
    (0.595, 0.7225, 0.68)
    >>> assessed(0.95, "agree", 0.5), assessed(0.85, "lean", 0.1), assessed(0.85, None, None)
    (0.95, 0.85, 0.85)
    """
    if relation == "conflict":
        confidence *= CONFLICT_FACTOR
    elif relation == "against":
        confidence *= AGAINST_FACTOR
    if relation != "agree" and position is not None and MIDDLE[0] < position < MIDDLE[1]:
        confidence *= MIDDLE_FACTOR
    return round(confidence, 6)


def trace_relation(card: Card, gates: list[GateTrace], outcome: str | None, pass_outcome: str, fail_outcome: str) -> str | None:
    """How the final verdict ``outcome`` stands to the outcome the gate verdicts read decide under the card's gate logic.

    Gates given a verdict only by the final verdict (how ``+entailed``, :mod:`._entailed`) are left out: they agree by
    construction. ``"agree"`` / ``"conflict"``: a kill (:func:`._implied.implied_final`) decides the same / another
    outcome, or every gate of the card reads PROCEED and the verdict is the pass / fail outcome; ``"lean"`` /
    ``"against"``: every gate read is PROCEED, some of the card's are unread, and the verdict is the pass / fail
    outcome; on a card that counts PROCEED weight ("3 of 5 pass"), PROCEEDs reaching the threshold decide the pass
    outcome whatever else is read; None: nothing decided (no gate verdict, an INCONCLUSIVE, a REJECT short of a kill,
    another outcome than the card's pass and fail).

    Examples
    --------
    >>> from ipb.engine.registry import compiled_card
    >>> card = compiled_card("graham_net_net_screen").card
    >>> kill = [GateTrace(2, "Losses", "REJECT", (2, 3), (2, 3), "number", (2, 3))]
    >>> trace_relation(card, kill, "DECLINE", "INVEST", "DECLINE"), trace_relation(card, kill, "INVEST", "INVEST", "DECLINE")
    ('agree', 'conflict')
    >>> one = [GateTrace(1, "Two-thirds", "PROCEED", (0, 1), (0, 1), "number", (0, 1))]
    >>> trace_relation(card, one, "INVEST", "INVEST", "DECLINE"), trace_relation(card, one, "DECLINE", "INVEST", "DECLINE")
    ('lean', 'against')
    """
    read = [g for g in gates if g.verdict is not None and not g.how.endswith("+entailed")]
    if outcome is None or not read:
        return None
    killed = implied_final(card, read)[0]
    if killed is not None:
        return "agree" if outcome == killed else "conflict"
    if outcome not in (pass_outcome, fail_outcome):
        return None
    threshold = card.threshold if card.gate_logic.startswith("weighted_threshold_") else None
    if threshold is not None and threshold.count == vw.PROCEED:  # "3 of 5 pass": enough PROCEED weight decides the pass
        weight = {g.number: as_fraction(g.weight) for g in card.gates}
        if sum((weight.get(g.gate, Fraction(0)) for g in read if g.verdict == vw.PROCEED), Fraction(0)) >= as_fraction(threshold.min_weight):
            return "agree" if outcome == pass_outcome else "conflict"
    if any(g.verdict != vw.PROCEED for g in read):
        return None
    complete = {g.number for g in card.gates} <= {g.gate for g in read}
    if outcome == pass_outcome:
        return "agree" if complete else "lean"
    return "conflict" if complete else "against"


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

    def _final_reading(self, candidates: list[tuple[int, int, str, Span]], set_aside: list[tuple[int, int, str, Span]],
                       outcome: str, span: Span) -> tuple[float, str | None, Span | None]:
        """:func:`final_confidence` of the chosen final verdict; the candidates are kept for :func:`assessed_final`."""
        self.final_candidates = (candidates, set_aside)
        conf, runner, runner_span = final_confidence(candidates + set_aside, outcome, span)
        return round(conf * self._hedge_factor(span), 3), runner, runner_span

    def _hedge_factor(self, span: Span) -> float:
        """:data:`HEDGED_FACTOR` when the final verdict at ``span`` is hedged in its sentence (:func:`hedged_final`), else 1."""
        u = self._unit_at(span[0])
        if u < 0:
            return 1.0
        unit = self.units[u]
        return HEDGED_FACTOR if hedged_final(self.masked, (unit.start, unit.end), span) else 1.0

    def _assessed_final(self, gates: list[GateTrace], outcome: str | None, span: Span | None) -> float:
        """The final verdict's confidence weighed with the evidence around it (:func:`assessed`), once the gates are read;
        its reading and runner-up stay as :meth:`_final_reading` left them, and so does every gate's confidence (a gate the
        final verdict entails keeps ENTAILED_FACTOR of the statement's confidence: :mod:`._entailed`)."""
        if outcome is None or span is None:
            return self.final_reading[0]
        candidates, set_aside = self.final_candidates
        if not any(c[3] == span for c in candidates):
            return self.final_reading[0]
        relation = trace_relation(self.card, gates, outcome, self.ix.pass_outcome, self.ix.fail_outcome)
        u = self._unit_at(span[0])  # where the verdict's sentence starts: "Verdict: DECLINE." alone is at 0
        where = (self.units[u].start if u >= 0 else span[0]) / max(1, len(self.masked))
        return round(final_confidence(candidates + set_aside, outcome, span, relation, where)[0] * self._hedge_factor(span), 3)

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
