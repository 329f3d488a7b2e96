"""How real reports close with their verdict (issue 13, final verdicts in the wild; read by :mod:`._final`).

Three ways of stating the final verdict that need no cue word before it:

* an answer to the question the text opens with: a sentence that opens with "yes" or "no" ("So no, not a buy on
  this basis.", "So yes, as a turnaround it's a buy.", "No, I'm not buying this one."). The words after the
  particle are the writer's answer; the particle itself negates nothing after it ("So no, I'm not buying" is not
  "not not buying");
* the result of a sum or an arrow at the end of its line ("Fast Grower + PEG 0.80 + 4/6 traits = Buy",
  "two flags -> SELL");
* a decision label whose whole value is yes or no ("Final answer: no.", "Decision: yes, buy.", "TL;DR: no"), and a
  question about buying answered at once ("Should you buy? No.", "Worth buying? Not yet.");
* a phrase of several words for an outcome ("in a bubble", "keep holding") in the answer's last sentence,
  which counts in lower case: one word ("invest", "hold") is too common to count there.
"""

from __future__ import annotations

import re

from ipb.scoring._text import Trigger

__all__ = ["ANSWER_LABEL_TRIGGERS", "QUESTION_TRIGGERS", "answer_particle_end", "buying_answer", "is_result", "last_sentence"]

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


#: A decision label whose whole value is yes or no, opening its line: "Final answer: no.", "**Short answer** - yes",
#: "Decision: no.", "Bottom line: yes, buy.", "TL;DR: no". ("Verdict" only after final / overall: a gate's own "Verdict: No"
#: is that gate's.)
ANSWER_LABEL = re.compile(
    r"(?i)(?:(?:final|overall|short)[ \t]+(?:answer|verdict|decision)|decision|bottom[ \t-]+line|tl;?[ \t]?dr)[ \t]*[*_]{0,2}[ \t]*"
    r"[:\u2014\u2013-][ \t]*[*_]{0,2}[ \t]*(?P<answer>no|yes)\b(?=[ \t*_]*(?:[.;!,]|$))", re.M)
ANSWER_LABEL_TRIGGERS = [Trigger(w, ANSWER_LABEL) for w in ("final", "overall", "short", "decision", "bottom", "tl;dr", "tldr", "tl dr")]

#: A question answered at once: "? No.", "? Yes, ...", "? Not yet." (the question itself is checked by :func:`buying_answer`).
_ANSWERED = re.compile(r"\?[ \t*_]*(?P<answer>yes|no|nope|not[ \t]+(?:yet|now|today|at[ \t]+(?:this|that|today's)[ \t]+price))\b"
                       r"(?=[ \t*_]*(?:[.;!,]|$))", re.I | re.M)
QUESTION_TRIGGERS = [Trigger("?", _ANSWERED, word=False)]
#: The question asks whether to buy (and nothing negates or conditions it).
_BUY_QUESTION = re.compile(r"(?i)\b(?:buy|invest|own|purchase|a[ \t]+buy|buying|investing)\b")
_QUESTION_SPOILERS = re.compile(r"(?i)\b(?:not|never|avoid|sell|selling|short|if|unless|when|should\s+I\s+not|n't)\b|n't\b")


def buying_answer(text: str, m: re.Match[str]) -> bool | None:
    """For a match of :data:`QUESTION_TRIGGERS`: True when the question before it asks whether to buy and is answered yes,
    False when answered no (or "not yet"), None when the question is about something else.

    >>> m = _ANSWERED.search("Should you buy? No.")
    >>> buying_answer("Should you buy? No.", m)
    False
    >>> m = _ANSWERED.search("Is the debt a problem? No.")
    >>> buying_answer("Is the debt a problem? No.", m) is None
    True
    """
    start = m.start()
    opening = max(text.rfind("\n", 0, start), text.rfind(". ", 0, start), text.rfind("? ", 0, start), text.rfind("! ", 0, start))
    question = text[max(opening + 1, start - 120) : start]
    if _BUY_QUESTION.search(question) is None or _QUESTION_SPOILERS.search(question) is not None:
        return None
    return m.group("answer").lower() == "yes"
