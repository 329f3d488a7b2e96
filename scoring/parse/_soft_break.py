"""A negation carried over a soft line break (issue 13, negation scope; paper §7.5; s52break #2).

A writer (or a model wrapping at a fixed width) may break a line in the middle of a sentence: "Gate 1: I would not" and,
on the next line, "PROCEED.". The line break is no clause boundary, so the "not" still negates the verdict word. A
break is soft when the line before it has words, ends without a sentence's or a clause's closing mark (``. ! ? ; :``)
and is neither a heading (``#``, or a clause in Title Case: "Gate 2 - Not Dissipated by Losses" names a gate, its "Not"
negates nothing) nor a table row (``|``), and the verdict word opens its own line with at most
emphasis before it (``**PROCEED**``). A blank line, a list item ("- PROCEED") or a heading on the verdict's line is a
boundary, and nothing is carried over it.

:func:`carried_words` gives the words the verdict word's clause had on the line before, which the callers
(:mod:`._verdicts` for gate verdicts, :mod:`._final` for the final) read for a negation as if they stood on the
verdict's own line. The callers take them only where nothing stands before the word on its own line.
"""

from __future__ import annotations

import re
from typing import Final

from ipb.scoring._clause_words import BARE_AMBIGUOUS_NEGATORS, BARE_NEGATORS
from ipb.scoring.parse._common import _WORDS_APOS

__all__ = ["carried_words"]

#: What may stand between a line's start and a verdict word that opens it: spaces and emphasis marks.
_HEAD_MARKUP: Final = re.compile(r"[ \t*_`]*")
#: The last clause boundary on the line before: a sentence's end, a semicolon or a colon.
_CLAUSE_MARK: Final = re.compile(r"[.!?;:]")
#: Characters left off a line's end before looking at its last mark: spaces, emphasis and closing quotes.
_TRAILING: Final = " \t*_`\"'\u201d\u2019"
#: Words a line cannot end a clause on, so the verdict word opening the next line continues it: negators, auxiliaries,
#: "to", "than", conjunctions, articles and subject pronouns ("I would not\nPROCEED", "rather than\nPROCEED").
_OPEN_ENDINGS: Final = BARE_NEGATORS | BARE_AMBIGUOUS_NEGATORS | frozenset(
    "not never no cannot can't won't wouldn't don't doesn't isn't shouldn't couldn't mustn't hardly neither nor to "
    "than would will should could must can may might shall do does did i we they you the a an and or but".split())
#: How far back the line before is looked at, in characters (a bound: a megabyte line is read from its last 200).
_LOOK_BACK: Final = 200


def carried_words(text: str, start: int) -> list[str]:
    """The lower-cased last words (at most 4) of the clause the line before ``start`` leaves open, or ``[]``.

    Parameters
    ----------
    text:
        The answer (masked or lower-cased; offsets are the caller's).
    start:
        The offset of a verdict word.

    Returns
    -------
    list[str]
        The words after the last ``. ! ? ; :`` of the line before, when the verdict word opens its line (only spaces and
        emphasis before it) and the break between the two lines is soft (see the module's docstring); else ``[]``.

    Examples
    --------
    >>> carried_words("Gate 1: I would not\\nPROCEED.", 20)
    ['i', 'would', 'not']
    >>> carried_words("Gate 1: I would not.\\nPROCEED.", 21), carried_words("I would not\\n\\nPROCEED.", 13)
    ([], [])
    >>> carried_words("Final verdict: DO NOT\\n- INVEST", 24)
    []
    """
    line_start = text.rfind("\n", max(0, start - _LOOK_BACK), start) + 1
    if line_start <= 0 or _HEAD_MARKUP.fullmatch(text, line_start, start) is None:
        return []
    prev_start = text.rfind("\n", max(0, line_start - 1 - _LOOK_BACK), line_start - 1) + 1
    prev = text[prev_start : line_start - 1].rstrip(_TRAILING)
    stripped = prev.lstrip(" \t>")
    if not stripped or stripped[0] in "#|" or _CLAUSE_MARK.match(prev[-1]):
        return []
    cut = max((m.end() for m in _CLAUSE_MARK.finditer(prev)), default=0)
    words = _WORDS_APOS.findall(prev, cut)
    long = [w for w in words if len(w) >= 4]
    if len(long) >= 2 and all(w[0].isupper() and any(c.islower() for c in w[1:]) for w in long):
        return []  # a title ("Gate 2 - Not Dissipated by Losses"): a gate's name, whose "Not" negates no verdict
    tail = [w.lower() for w in words][-4:]
    if not tail or tail[-1].replace("\u2019", "'") not in _OPEN_ENDINGS:
        return []  # the line ends on a word that can end a clause ("Actual: 31 years without a gap"): a field's value
    return tail
