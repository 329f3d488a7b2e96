"""Verdict verbs that tell what someone else did, and verdict fields set inline (issue 13, paper §7.5).

"Circle of Competence: The company has rejected two takeover bids, ... Verdict: PROCEED." The first verb after
the label has a subject of its own ("the company"), so it reports an event of the case, not the writer's verdict
on the gate; the bare "PROCEED" or the inline "Verdict: PROCEED" later in the same record is the gate's verdict.
The rule only orders statements of equal strength: a narrated verb that is a gate's only statement still counts.
"""

from __future__ import annotations

import re

#: Clause boundaries a subject does not reach across: punctuation and the words that open a new clause.
_BOUNDARY = re.compile(r"[;:|()\[\]\u2014\u2013,.!?\n]|\s-\s|->|=>|\u2192"
                       r"|\b(?:but|yet|however|whereas|although|though|while|and|so|thus|hence|therefore|because|since)\b")
_WORD = re.compile(r"[a-z][a-z'\u2019]*")
#: Words that do not make a subject of their own: articles, numerals, auxiliaries, adverbs, negators.
_NOT_A_SUBJECT = frozenset(
    "a an the its their his her our my your two three four five six several many some all both each every "
    "has have had having is was were are be been being do does did will would shall should can could may might must "
    "not never no also already repeatedly previously recently just still now then clearly simply easily comfortably "
    "narrowly barely only even really truly plainly obviously arguably".split())
#: Subjects that are the gate or the writer: "it passes", "this gate fails", "which fails", "I reject it".
_GATE_OR_WRITER = frozenset(
    "it this that these which who what one i we you gate test criterion check step screen rule requirement hurdle bar "
    "condition item question gates tests criteria checks steps screens rules".split())
#: An inline verdict field in running text: "... easy to understand. Verdict: PROCEED."
INLINE_FIELD = re.compile(r"(?:^|[.!;(]\s*|\n[ \t>*_#-]*)\**(?:my\s+|gate\s+)?(?:verdict|outcome|decision|rating|call)\**"
                          r"[ \t]*[:=\u2192][ \t*_`]*\Z", re.IGNORECASE)


def narrated(low: str, floor: int, start: int) -> bool:
    """Whether the verdict verb at ``start`` of the lowered text ``low`` has a subject of its own in its clause.

    Parameters
    ----------
    low:
        The lowered answer text.
    floor:
        Offset before which the clause cannot start (the start of the sentence, or the end of the gate's label).
    start:
        Offset of the verdict word.

    Returns
    -------
    bool
        True when the words between the clause start and the verb hold a subject other than the gate or the writer
        ("The company has rejected", "Three competitors failed"); False for "it does not pass", "this gate fails",
        "which fails", "I reject" and for a verb that opens its clause.
    """
    segment = low[max(floor, start - 90) : start]
    cut = 0
    for m in _BOUNDARY.finditer(segment):
        cut = m.end()
    words = [w for w in _WORD.findall(segment, cut) if w not in _NOT_A_SUBJECT]
    if not words:
        return False
    return _GATE_OR_WRITER.isdisjoint(words)


def inline_field(text: str, line_start: int, start: int) -> bool:
    """Whether the word at ``start`` follows a verdict field label set inline in its line ("... Verdict: PROCEED")."""
    return INLINE_FIELD.search(text, max(line_start, start - 40), start) is not None
