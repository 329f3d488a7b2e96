"""Sentence spans of one line of an answer (the parser's units; scoring._text re-exports them).

Linear in the line's length: a megabyte line whose every full stop is an abbreviation ("p. 12", issue 16)
costs one pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_SENTENCE_END = re.compile(r"[.!?]{1,3}[\"'\u201d\u2019)\]*_]{0,3}(?=\s)")
#: Abbreviations that stand before a number ("No. 5", "p. 12", "pp. 3-4", "vol. 2", "ch. 7", "sec. 4", "fig. 2").
_BEFORE_NUMBER = frozenset({"no", "p", "pp", "vol", "ch", "sec", "fig"})
_NUMBER_NEXT = re.compile(r"[ \t]*[(#]?\d")
#: A lower-case word after the spacing that follows a sentence end: the sentence goes on after an ellipsis.
_LOWER_NEXT = re.compile(r"[ \t]+[a-z]")
#: A self-repair opening after an ellipsis ("INVEST... I mean DECLINE", "... Sorry, DECLINE"): the writer corrects the
#: word before the dots in the same breath, so the sentence goes on, as before a lower-case word.
_REPAIR_NEXT = re.compile(r"[ \t]+(?:I[ \t]+meant?|Sorry|Make[ \t]+that|Scratch[ \t]+that|Or[ \t]+rather|Rather)\b")
_ABBREV = frozenset(
    {"e.g", "i.e", "vs", "approx", "etc", "no", "mr", "mrs", "ms", "dr", "inc", "co", "corp", "ltd", "st", "jr", "sr", "u.s", "fig",
     "cf", "al", "est", "ca", "incl", "resp", "p", "pp", "vol", "ch", "sec", "op", "cit"}
)


def sentence_spans(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Sentence spans of ``text[start:end]`` (a single line), trimmed of spaces.

    >>> t = "Price $50B vs. value $25B. It fails! Done"
    >>> [t[s:e] for s, e in sentence_spans(t, 0, len(t))]
    ['Price $50B vs. value $25B.', 'It fails!', 'Done']
    >>> t = "Gate 1 (story broken?) is unclear. Next?"
    >>> [t[s:e] for s, e in sentence_spans(t, 0, len(t))]
    ['Gate 1 (story broken?) is unclear.', 'Next?']
    >>> t = "INVEST... no, DECLINE. Done... Next"
    >>> [t[s:e] for s, e in sentence_spans(t, 0, len(t))]
    ['INVEST... no, DECLINE.', 'Done...', 'Next']
    >>> t = "INVEST... I mean DECLINE. Done... I left"
    >>> [t[s:e] for s, e in sentence_spans(t, 0, len(t))]
    ['INVEST... I mean DECLINE.', 'Done...', 'I left']
    """
    pos = start
    # brackets opened and closed in text[pos:counted], counted forward only (linear, like ``lettered``)
    opened = closed = 0
    counted = start
    # Linear in the line: whether text[pos:m.start()] holds a letter is kept from the last sentence end tried
    # (``checked``), never re-read from ``pos``: a megabyte line of "p. 12" citations, whose every end is an
    # abbreviation, once re-read the whole line at each one (issue 16).
    lettered, checked = False, start
    for m in _SENTENCE_END.finditer(text, start, end):
        if not lettered:
            lettered = any(c.isalpha() for c in text[checked : m.start()])
            checked = m.start()
            if not lettered:
                continue  # "1." or "**2." at the start of a line ends no sentence
        if text[m.start()] in "?!" and ")" in m.group():
            opened += text.count("(", counted, m.start())
            closed += text.count(")", counted, m.start())
            counted = m.start()
            if opened > closed:
                continue  # "the first gate (story broken?) is INCONCLUSIVE": a question inside brackets ends no sentence
        if m.group().startswith("...") and (_LOWER_NEXT.match(text, m.end(), end) or _REPAIR_NEXT.match(text, m.end(), end)):
            continue  # "INVEST... no, DECLINE", "INVEST... I mean DECLINE": three dots before a lower-case word or a
            # self-repair are a pause, as "\u2026" is
        if text[m.start()] == ".":
            w = m.start()
            k = w
            # the word before the dot, at most 8 characters back: every abbreviation is shorter, so a longer word
            # (or a run of dotted letters) is no abbreviation however far it runs
            while k > pos and w - k < 8 and (text[k - 1].isalpha() or text[k - 1] == "."):
                k -= 1
            initial = w - k == 1 and text[k].isupper() and (k == pos or text[k - 1].isspace())
            # "+1.2pp." and "5p." end sentences: a unit glued to a number is no abbreviation ("pp." for pages, "p." for page);
            # "No.", "p.", "vol." abbreviate only before a number ("No. 5", "p. 12"): "The market said no. Abandon it." is two
            word = text[k:w].lower()
            glued = k > pos and text[k - 1].isdigit()
            numbered = word in _BEFORE_NUMBER and not _NUMBER_NEXT.match(text, m.end())
            if (word in _ABBREV and not glued and not numbered) or initial:
                continue
        s, e = _trim(text, pos, m.end())
        if s < e:
            yield s, e
        pos = m.end()
        lettered, checked = False, pos
        opened = closed = 0
        counted = pos
    s, e = _trim(text, pos, end)
    if s < e:
        yield s, e


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
