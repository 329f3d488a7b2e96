"""Gate verdicts written as a bare count: "Gates: 1 PROCEED; 2 REJECT; 3 PROCEED" (issue 13, terse layouts; paper §7.5).

A terse answer may give each gate only its number and a verdict word, in one line or one per line, with no gate
name at all. A number names no gate by itself (it may be a figure, a year, a rank), so such a list is read by its
numbers only when the answer counts the card's gates: its items are numbered 1, 2, ..., N in order with nothing
else between them but separators, and N is the card's gate count, or the count stops at its first REJECT before N
(the card's sequence halted at a kill gate: "1 PROCEED; 2 PROCEED; 3 REJECT" on a four-gate card). Then item k is gate k, read with the
verdict word that follows its number. A list of another length (the five gates of another card in an L8 answer,
a list of three reasons) is left alone, as is a number inside a word or identifier ("graham_seven_tests", "Q3").

Shapes: :func:`counted_verdicts` returns ``[(gate, verdict, item span, verdict span)]``, spans are character
offsets ``(start, end)`` into the text given.
"""

from __future__ import annotations

import re

#: One item: a number not inside a word, figure or identifier, an optional ":", ".", ")" or "=", and a verdict word.
#: (The spacing after the mark is its own star only when the mark is there: two stars in a row over one run of n
#: spaces after "1" tried every split of it, n * n steps; 10,000 spaces in a table cell took 4 s.)
_ITEM = re.compile(r"(?<![\w.$%/-])(\d{1,2})[ \t]*(?:[:.)=\-\u2013\u2014][ \t]*)?[*_]{0,2}"
                   r"(PROCEED|REJECT|INCONCLUSIVE)(?![\w-])[*_]{0,2}", re.IGNORECASE)
#: What may stand between two items of one list: separators, spaces and line breaks only.
_BETWEEN = re.compile(r"[\s;,|/·\u2022-]*")

#: Confidence of a gate read by its bare number in a complete count (a clear, single-word verdict; the gate met by
#: number, not name: LEVEL_CONFIDENCE's 3 in :mod:`._confidence`).
COUNTED_CONFIDENCE = 0.85


def counted_verdicts(text: str, n_gates: int) -> list[tuple[int, str, tuple[int, int], tuple[int, int]]]:
    """The items of the one run in ``text`` numbered 1..``n_gates`` with a verdict word each; [] when there is none.

    A run must start at 1, rise by one and hold exactly ``n_gates`` items (``n_gates`` >= 2), or stop early at its
    first REJECT (:func:`_halted`; read only where no run holds all ``n_gates``). When two such runs are found (the same card judged twice) nothing is read: which one
    the writer stands by is not for a count to say.
    """
    if n_gates < 2:
        return []
    runs: list[list[re.Match[str]]] = []
    current: list[re.Match[str]] = []
    for m in _ITEM.finditer(text):
        k = int(m.group(1))
        joined = bool(current) and _BETWEEN.fullmatch(text, current[-1].end(), m.start()) is not None
        if joined and k == int(current[-1].group(1)) + 1:
            current.append(m)
            continue
        if current:
            runs.append(current)
        current = [m] if k == 1 else []
    if current:
        runs.append(current)
    complete = [r for r in runs if len(r) == n_gates] or [r for r in runs if _halted(r, n_gates)]
    if len(complete) != 1:
        return []
    return [(int(m.group(1)), m.group(2).upper(), (m.start(), m.end()), (m.start(2), m.end(2))) for m in complete[0]]


def _halted(run: list[re.Match[str]], n_gates: int) -> bool:
    """Whether ``run`` is the card's count cut short where a kill gate stopped it: 2 <= k < ``n_gates`` items whose
    one REJECT is the last ("1 PROCEED; 2 PROCEED; 3 REJECT" on a four-gate card: gate 4 was never reached)."""
    verdicts = [m.group(2).upper() for m in run]
    return 2 <= len(run) < n_gates and verdicts[-1] == "REJECT" and verdicts.count("REJECT") == 1


#: Ways of meeting a gate that a complete count outranks: a reading from other words, an embedding, a position, a
#: phrase of the gate's substance. A gate met by its name, alias or number keeps its own reading.
_WEAKER = ("paraphrase", "embedding", "position", "aligned", "substance", "described")


def with_counted(gates: list, text: str, card) -> list:
    """``gates`` (GateTrace list, gate order) with the gates of a complete count (:func:`counted_verdicts`) read in.

    Gate k of the count replaces the reading of gate k when there is none, when that reading was met only in other
    words (:data:`_WEAKER`), or when its mention lies inside the count ("Gates: 1" taken for an alias of gate 1).
    Each gate read from the count has ``how`` ``"number"``, its item as span and mention, and confidence
    :data:`COUNTED_CONFIDENCE`.
    """
    from ipb.scoring.parse._types import GateTrace

    counted = counted_verdicts(text, len(card.gates))
    if not counted:
        return gates
    first, last = counted[0][2][0], counted[-1][2][1]
    names = {g.number: g.name for g in card.gates}
    by_gate = {g.gate: g for g in gates}
    for k, verdict, span, verdict_span in counted:
        old = by_gate.get(k)
        inside = old is not None and old.mention[0] < last and old.mention[1] > first
        if old is None or inside or old.how.split("+")[0] in _WEAKER:
            by_gate[k] = GateTrace(gate=k, name=names.get(k, str(k)), verdict=verdict, span=span, mention=span,
                                   how="number", verdict_span=verdict_span, confidence=COUNTED_CONFIDENCE)
    return [by_gate[k] for k in sorted(by_gate)]
