"""A gate's own noun said of the case as a predicate: "That's a moat.", "It has a real franchise.", "That's no moat." (issue 13).

A writer who states a criterion's facts often closes them by naming the criterion as something the business is or
has: "Customers never switch and prices rise every year. That's a moat." The sentence names the gate (its alias
"moat") and judges it, yet holds no verdict word and no appraisal adjective, so the gate was found without a
verdict. This module reads the frame around the gate's mention, in the mention's own sentence:

==============================================================  =======
frame (the gate's noun last, its clause closed after it)         verdict
==============================================================  =======
that / this / it / they / the business ... is / 's / has / was  PROCEED
a / an [real, genuine, clear, wide, durable ...] NOUN
the same with "no", "not a", "isn't a", "doesn't have a",       REJECT
"has no", "lacks a"
==============================================================  =======

Only a gate still without a verdict is read, and only when its mention closes its clause ("That's a moat here."
counts; "That's a moat question" or "It has a moat of sorts" does not) and its sentence asks nothing and states no
condition ("If it has a moat, ...", "Is that a moat?", "Does it have a moat." in question word order). The reading is marked ``how`` + ``+predicated``, with no
``verdict_span`` (no verdict word states it), a note, and a confidence of at most :data:`PREDICATED_CONFIDENCE`.
The patterns run on a window of at most :data:`WINDOW` characters before the mention and have no nested
repetition (linear on long inputs).
"""

from __future__ import annotations

import re
from typing import Any

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._types import GateTrace

__all__ = ["PREDICATED_CONFIDENCE", "WINDOW", "affirmed_gates", "predicated_verdict"]

#: A verdict read from the gate's noun as a predicate has at most this confidence (a plain statement, no verdict word).
PREDICATED_CONFIDENCE = 0.55
#: How far before the mention the frame is looked for.
WINDOW = 80

_SUBJECT = r"(?:that|this|it|which|they|there|(?:the|this|our)\s+(?:business|company|firm|franchise|stock|brand|group))"
_VERB = (r"(?:'s|\u2019s|\s+is|\s+was|\s+has|\s+have|\s+had|\s+enjoys|\s+owns|\s+lacks|"
         r"\s+(?:is|was)\s+not|\s+(?:isn't|isn\u2019t|wasn't|wasn\u2019t)|\s+(?:does|did)\s+not\s+have|\s+(?:doesn't|doesn\u2019t|didn't|didn\u2019t)\s+have)")
_ARTICLE = r"\s+(?:not\s+)?(?:a|an|no|any)"
_ADJECTIVES = r"(?:\s+(?:real|genuine|true|clear|wide|durable|strong|solid|proper|lasting|big|obvious|meaningful))?"
#: The frame before the mention, anchored at the window's end: "that's a real ", "it doesn't have a ", "the firm has no ".
_FRAME = re.compile(r"\b" + _SUBJECT + _VERB + _ARTICLE + _ADJECTIVES + _ADJECTIVES + r"\s+$")
#: The frame's negative words: the verb or the article denies the noun.
_DENIED = re.compile(r"\b(?:not|no|lacks|isn't|isn\u2019t|wasn't|wasn\u2019t|doesn't|doesn\u2019t|didn't|didn\u2019t)\b")
#: The mention closes its clause: end of sentence or line, a comma, a dash, optionally after "here", "there", "too".
_CLOSED = re.compile(r"[ \t]*(?:(?:here|there|too|already)[ \t]*)?(?:[.;!:,)]|\u2014|\u2013|-[ \t]|\n|$)")
#: The sentence states a condition or asks: no statement of the case.
_CONDITION = re.compile(r"\b(?:if|whether|unless|would|could|might|should)\b|\?")
#: An auxiliary right before the subject: question word order ("does it have a moat.", "is that a moat."), asked
#: even where the writer ends it with a full stop.
_INVERTED = re.compile(r"\b(?:do|does|did|is|are|was|were|has|have|had|can|will)\s+$")


def predicated_verdict(before: str, after: str) -> str | None:
    """PROCEED or REJECT when ``before`` (the sentence up to the gate's noun, lower case) ends in a predicate frame and
    ``after`` (the rest of the sentence) closes the clause right after the noun; None otherwise.

    Examples
    --------
    >>> predicated_verdict("prices rise every year. that's a ", ".")
    'PROCEED'
    >>> predicated_verdict("the firm has no ", " to speak of, sadly.") is None, predicated_verdict("it has no ", ".")
    (True, 'REJECT')
    >>> predicated_verdict("if it has a ", ", we buy."), predicated_verdict("that's a ", " question for later.")
    (None, None)
    >>> predicated_verdict("and number two, does it have a durable ", ". customers leave after a year.") is None
    True
    """
    window = before[-WINDOW:]
    frame = _FRAME.search(window)
    if frame is None or not _CLOSED.match(after) or _INVERTED.search(window, max(frame.start() - 12, 0), frame.start()):
        return None
    clause_start = max(window.rfind(". "), window.rfind("; "), window.rfind("\n"))
    if _CONDITION.search(window, max(clause_start, 0)) or _CONDITION.search(after[: max(after.find("."), 0)]):
        return None
    return vw.REJECT if _DENIED.search(frame.group()) else vw.PROCEED


def affirmed_gates(parser: Any, gates: list[GateTrace]) -> int:
    """Give each gate of ``gates`` still without a verdict the verdict its noun's predicate frame states (in place);
    returns how many were read. ``parser`` is the running parse (its lower-cased text ``low`` and sentence ``units``)."""
    low: str = parser.low
    changed = 0
    for trace in gates:
        if trace.verdict is not None:
            continue
        start, end = trace.mention
        u = parser._unit_at(start)
        if u < 0:
            continue
        unit = parser.units[u]
        verdict = predicated_verdict(low[max(unit.start, start - WINDOW) : start], low[end : unit.end])
        if verdict is None:
            continue
        trace.verdict = verdict
        trace.verdict_span = None
        trace.how = f"{trace.how}+predicated"
        trace.confidence = min(trace.confidence, PREDICATED_CONFIDENCE)
        trace.runner_up, trace.runner_up_span = None, None
        parser.notes.append(f"gate {trace.gate} read as {verdict} from its noun {parser.masked[start:end]!r} said of the case "
                            f"(characters {start}-{end}, how '+predicated')")
        changed += 1
    return changed
