"""How real reports close with their verdict (issue 13, final verdicts in the wild; read by :mod:`._final`).

Three ways of stating the final verdict that need no cue word before it:

* an answer to the question the text opens with: a sentence that opens with "yes" or "no" ("So no, not a buy on
  this basis.", "So yes, as a turnaround it's a buy.", "No, I'm not buying this one."). The words after the
  particle are the writer's answer; the particle itself negates nothing after it ("So no, I'm not buying" is not
  "not not buying");
* the result of a sum or an arrow at the end of its line ("Fast Grower + PEG 0.80 + 4/6 traits = Buy",
  "two flags -> SELL");
* a phrase of several words for an outcome ("in a bubble", "keep holding") in the answer's last sentence,
  which counts in lower case: one word ("invest", "hold") is too common to count there.
"""

from __future__ import annotations

import re

__all__ = ["answer_particle_end", "is_result", "last_sentence"]

#: A sentence opening with an answer particle, after at most a connective ("So no,", "Then yes:", "In short, no -").
_ANSWER_OPENS = re.compile(
    r"(?i)[ \t>*_#-]*(?:(?:so|then|well|thus|hence|and|in[ \t]+short|short[ \t]+answer|the[ \t]+short[ \t]+answer[ \t]+is)"
    r"[ \t]*[,:]?[ \t]+)?(?:yes|no)[ \t]*(?:[,;!:\u2014\u2013]|[ \t]-)")
#: Right before a word: a sum's equals sign or an arrow ("... = Buy", "-> SELL", "\u2192 Avoid").
_RESULT_BEFORE = re.compile(r"(?:=|\u2192|\u21d2|->|=>)[ \t]*[*_]{0,2}[ \t]*\Z")
#: Right after a word: nothing more on its line but emphasis and a full stop.
_LINE_ENDS = re.compile(r"[ \t]*[*_]{0,2}[ \t]*[.!]?[ \t]*[*_]{0,2}[ \t]*(?:\n|\Z)")


def answer_particle_end(text: str, sentence_start: int, pos: int) -> int | None:
    """Where the answer particle opening the sentence at ``sentence_start`` ends, when one opens it before ``pos``.

    >>> text = "Is it a buy? So no, not a buy."
    >>> answer_particle_end(text, 13, 27)
    19
    >>> answer_particle_end("No bubble here.", 0, 3) is None
    True
    """
    m = _ANSWER_OPENS.match(text, sentence_start, pos)
    return None if m is None else m.end()


def is_result(text: str, start: int, end: int) -> bool:
    """Whether the word at ``start:end`` is the result of a sum or an arrow ending its line ("4/6 traits = Buy").

    >>> text = "Verdict: Fast Grower + PEG 0.8 = Buy\\nnext"
    >>> is_result(text, 33, 36)
    True
    >>> is_result("= Buy more later", 2, 5)
    False
    """
    line_start = text.rfind("\n", 0, start) + 1
    return _RESULT_BEFORE.search(text, max(line_start, start - 8), start) is not None and _LINE_ENDS.match(text, end) is not None


def last_sentence(units: list, masked: str, u: int) -> bool:
    """Whether sentence ``u`` (of ``units``, objects with ``start`` and ``end``) is the last one holding any text."""
    for k in range(len(units) - 1, u, -1):
        if masked[units[k].start : units[k].end].strip(" \t\n*_#>-"):
            return False
    return True
