"""Whether a statement is set in the past: the one reader of past times in answers (issue 13, "which statement wins").

A verdict, an act or a comparison the writer dates well in the past is the case's history, not the reading the answer
gives today ("In 2021 it was too rich for me", "In 2019 we sold a third", "Last cycle it made 14% against our 10%
hurdle"). One vocabulary of past times serves the three places that ask:

* ``"verdict"`` (:mod:`._final`, through :func:`in_the_past`): a final verdict in a sentence that *opens* with a past
  time and states it in the past tense ("In 2021 it was too rich for me", "Back then it looked cheap"), unless the
  sentence turns to today first ("In 2021 it was dear, so today it's a buy"); or a verb in the past tense with a past
  time right after it ("I passed on it in 2019", "sold out years ago"). Times: a year after in / during / since / by
  ("in March 2020", "by late 2021"), a span ago ("two years ago", "decades ago"), the last period ("last year", "last
  time", "the previous cycle"), the last episode ("during the last crisis") and the era words "at the time", "back
  then", "in the past". Spacing stays on the line.
* ``"act"`` (:mod:`._decided`, :func:`past_time`): an act of the decision ("we sold", "we exit") with a past time
  anywhere in its sentence is the holding's history ("In 2019 we sold a third", "bought years ago", "Last year I
  sold half"). The same times but for "by" (a year after "by" is as often a deadline: "we exit by 2027") and the era
  words ("in the past", "at the time" also open policies of today).
* ``"comparison"`` (:mod:`._stated_bars`, :mod:`._section_reading`, :func:`past_time`): a fact compared with a bar is
  history only when an era dates it: "back in ..." ("Back in the boom it traded above value", "Back in 2007 ..."),
  the last or previous cycle or decade, the last episode ("in the last bubble"). Not a bare year, "last year" or
  "years ago": the latest fiscal year's figures and "founded four years ago" are facts of today's case.

Every pattern is linear in its input (bounded alternatives, no nested repetition).

>>> past_time("In 2019 we sold a third.", 0, 24, "act") is not None
True
>>> past_time("We exit by 2027.", 0, 16, "act") is None
True
>>> past_time("Last cycle it made 14% against our 10% hurdle", 0, 46, "comparison") is not None
True
>>> past_time("In 2024 it made 14% against our 10% hurdle", 0, 42, "comparison") is None
True
>>> in_the_past("In 2021 it was too rich for me at 60x.", 0, 15)
True
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

__all__ = ["Reading", "READINGS", "in_the_past", "past_time"]

#: Who asks: a final verdict, an act of the decision, a fact compared with a bar.
Reading = Literal["verdict", "act", "comparison"]
READINGS: tuple[Reading, ...] = ("verdict", "act", "comparison")

_YEAR = r"(?:19|20)[0-9]{2}\b"
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]{0,6}\.?"
_FEW = r"(?:two|three|four|five|six|seven|eight|nine|ten|several|many|some|[0-9]+)"

#: Each kind of past time, with ``{s}`` for the spacing between words and ``{preps}`` for the words before a year.
_MARKERS = {
    "year": r"(?:back{s})?(?:{preps}){s}(?:(?:early|late|mid)[ \t-]+)?(?:" + _MONTH + r"{s})?" + _YEAR,
    "ago": r"(?:" + _FEW + r"{s})?(?:years|decades){s}ago\b",
    "last": r"last{s}(?:year|time)\b",
    "cycle": r"(?:last|previous|prior){s}(?:cycle|decade)\b",
    "episode": r"(?:in|during){s}the{s}(?:last|previous|prior){s}(?:cycle|boom|bubble|crisis)\b",
    "era": r"at{s}the{s}time\b|back{s}then\b|in{s}the{s}past\b",
    "back_in": r"back{s}in\b",
}
#: reading -> (kinds of past time, words before a year, spacing)
_KINDS: dict[str, tuple[tuple[str, ...], str, str]] = {
    "verdict": (("year", "ago", "last", "cycle", "episode", "era"), r"in|during|since|by", r"[ \t]+"),
    "act": (("year", "ago", "last", "cycle", "episode"), r"in|during|since", r"\s+"),
    "comparison": (("back_in", "cycle", "episode"), r"in|during", r"\s+"),
}


def _alternatives(reading: str) -> str:
    kinds, preps, spacing = _KINDS[reading]
    return "|".join(_MARKERS[k].replace("{s}", spacing).replace("{preps}", preps) for k in kinds)


@lru_cache(maxsize=None)
def _search(reading: str) -> re.Pattern[str]:
    if reading not in _KINDS:
        raise ValueError(f"unknown reading {reading!r}; one of {', '.join(READINGS)}")
    return re.compile(r"(?i)\b(?:" + _alternatives(reading) + ")")


def past_time(text: str, start: int, end: int, reading: Reading) -> re.Match[str] | None:
    """The first time in the past that ``reading`` counts in ``text[start:end]`` (the window the caller asks about: an
    act's sentence, a compared clause), else None.

    >>> past_time("Last year I sold half.", 0, 22, "act").group(0)
    'Last year'
    >>> past_time("Last year it made 14% against our 10% hurdle", 0, 44, "comparison") is None
    True
    >>> past_time("Back in the boom it traded above value", 0, 38, "comparison").group(0)
    'Back in'
    """
    return _search(reading).search(text, start, end)


#: A sentence that opens with a time in the past (after list or quote marks).
_OPENING = re.compile(r"(?i)[ \t>*_#-]*(?:" + _alternatives("verdict") + ")")
#: A verdict verb in the past tense ("passed on it", "sold", "avoided") and a past time right after it.
_PAST_WORD = re.compile(r"(?i)\b(?:\w+ed|sold|bought|took)\b")
_AFTER = re.compile(r"(?i)(?:[ \t]+(?:it|them|the[ \t]+\w+|out))?[ \t]+(?:" + _alternatives("verdict") + ")")
#: Between the past verb and the verdict: the sentence turns to today ("In 2021 it was dear, so today it's a buy").
_NOW = re.compile(r"(?i)\b(?:so|now|today|therefore|hence|but|yet|since)\b")
_PAST_VERB = re.compile(r"(?i)\b(?:was|were|had|did|seemed|looked|felt|called|said|thought)\b")


def in_the_past(text: str, sentence_start: int, pos: int, end: int | None = None) -> bool:
    """Whether the verdict at ``pos`` (ending at ``end``) is stated in a sentence (opening at ``sentence_start``) set in the
    past, or is a verb in the past tense dated right after it ("I passed on it in 2019"): the ``"verdict"`` reading.

    >>> t = "I passed on it in 2019, but now it is cheap."
    >>> in_the_past(t, 0, 2, 14)
    True

    >>> t = "In 2021 it was too rich for me at 60x."
    >>> in_the_past(t, 0, t.index("too rich"))
    True
    >>> t = "In 2024 revenue was up 9%, so it's a buy."
    >>> in_the_past(t, 0, t.index("a buy"))
    False
    """
    if end is not None and _PAST_WORD.search(text, pos, end) is not None and _AFTER.match(text, end) is not None:
        return True  # "I passed on it in 2019, but now ...": a past action dated after it
    m = _OPENING.match(text, sentence_start, pos)
    verb = None if m is None else _PAST_VERB.search(text, m.end(), pos)
    return verb is not None and _NOW.search(text, verb.end(), pos) is None
