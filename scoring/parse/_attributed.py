"""Whose verdict a gate's verdict word states, and about what: the writer's judgement of this company today, or another
speaker's, another time's or another company's (issue 13, stop 40; paper §7.5: a reader credits an answer only with
what its writer commits to).

A verdict word is judged in its clause (:mod:`._verdicts`). Three shapes of clause report a verdict that is not the
writer's own reading of the case; each is read from word lists of ``grammar/languages.yaml`` (``attribution``, one block
per language), never from one phrase:

* **another speaker** (``"speaker"``): a reporting verb (``reporting``: say, argue, believe, think, ...) before the word
  in its clause whose subject is not the writer (``own``: I, we, you): "Critics say it will fail", "Many believe it
  passes", "the bears have long argued it fails"; a phrase naming another's view (``according``: "according to the
  bulls it passes"); a side's view (a ``voices`` noun before a ``views`` noun: "Bear case: it fails", "in the bears'
  view it fails"); or the same written after the word at the sentence's end: "It fails, critics say.", "'fail' says
  the bear." A subject the writer's possessive opens is the writer's (``own_possessive``: "our analysts think it
  fails"). Not a voice an ``aside`` word sets before the verb ("As Buffett would say, this passes", "despite what
  the spokesperson said, it fails"), nor the writer's own verb ("We say: pass.", "I'd say it passes"), nor a passive
  or an adjective ("as expected", "the expected return": ``determiners``), nor the case's own facts ("The question
  says the bias is unclear": ``facts``), nor a clause after the verb's own object and a comma ("Analysten erwarten 9 %,
  erreicht wurden 5 %"). A verb with no subject ("dicen que cumple") counts only before a complementiser (``that``).
* **another time** (``"time"``): a phrase of another time (``past``: back then, back in, used to, years ago) before the
  word in its sentence, the word a verb in the past tense (or right after "used to"), and no word of today (``now``)
  between: "back in 2009 this cleared comfortably". A past verb with such a phrase right after it too ("it passed
  back in 2009"). A bare year is no other time (the latest fiscal year's figures are today's case) unless the answer
  names a year at least :data:`OLD_YEARS` later. A first reading the writer revises is another time too
  (``first_look``: "FAIL at first glance, but ...", "at first glance it fails"; "was REJECT, now PROCEED").
* **another company** (``"company"``): the word's subject is a possessive of another company: an ``others`` word
  ("the competitor's passes") or a capitalised name whose possessive the paragraph sets against the answer's own
  company (``this_company``: "Coca-Cola's clears comfortably. This company's? Unclear."), unless the answer's title
  line names it (its own company); or the word stands in a
  paragraph whose lead-in line (ending in a colon) sets it on another's checklist ("For comparison, a competitor's
  checklist from another fund read:").

:mod:`._verdicts` reads such a word at the weak level (confidence 0.45, under the 0.7 review bar): it is never a
committed statement, so the writer's own later word in the section wins ("The bears say it fails; I disagree: it
passes." is PROCEED), and alone it goes to review.

>>> attributed("Critics say it will fail.", 0, 21, 25)
'speaker'
>>> attributed("'fail' says the bear.", 0, 1, 5)
'speaker'
>>> attributed("Analysts' worries aside, it passes.", 0, 28, 34) is None
True
>>> attributed("As Buffett would say, this passes.", 0, 27, 33) is None
True
>>> attributed("back in 2009 this cleared comfortably", 0, 18, 25)
'time'
"""

from __future__ import annotations

import re
from bisect import bisect_right, insort
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, Literal

from ipb.scoring import _foreign_verdicts as fv
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._others_test import others_test
from ipb.scoring.parse._voice import quoted_in_cjk_report, still_open

__all__ = ["SetApart", "capped", "KINDS", "OLD_YEARS", "Words", "attributed", "load_attribution", "other_lead_in", "quoted_speaker", "words"]

#: What a verdict word is set apart as.
SetApart = Literal["speaker", "time", "company"]
KINDS: Final = ("reporting", "own", "own_possessive", "skip", "aside", "that", "determiners", "facts", "according", "voices",
                "views", "past", "now", "first_look", "others", "this_company", "last_look")
#: A bare past year ("in 2009 it cleared") is another time only when the answer names a year this many years later.
OLD_YEARS: Final = 3
#: How far back in its sentence, and forward, a verdict word's clause is looked at (characters).
BACK, AHEAD = 160, 60


def load_attribution(text: str, file: str = "<string>") -> dict[str, dict[str, Any]]:
    """The ``attribution`` blocks of a vocabulary file (``grammar/languages.yaml`` format): language code -> block.

    Raises
    ------
    LoadError
        The text is not strict YAML or breaks the schema ``grammar/languages.schema.json``; every problem is reported
        (an :class:`ipb.errors.ErrorGroup` when there are several), each with the file, line and column.

    >>> load_attribution("version: 1\\nlanguages: {de: {name: German}}\\nattribution: {de: {own: [ich, wir]}}")
    {'de': {'own': ['ich', 'wir']}}
    """
    return fv.load_section(text, file, "attribution")


@dataclass(frozen=True)
class Words:
    """The attribution words of every language, merged: single words as sets, phrases as one pattern per kind."""

    single: dict[str, frozenset[str]]
    phrase: dict[str, re.Pattern[str] | None]


def _apostrophes(word: str) -> str:
    return word.replace("\u2019", "'")


@lru_cache(maxsize=1)
def words() -> Words:
    """The merged word lists of ``grammar/languages.yaml``'s ``attribution`` section (read once)."""
    blocks = fv.bundled_section("attribution")
    single: dict[str, frozenset[str]] = {}
    phrase: dict[str, re.Pattern[str] | None] = {}
    for kind in KINDS:
        every = [_apostrophes(w.lower()) for b in blocks.values() for w in b.get(kind) or ()]
        single[kind] = frozenset(w for w in every if " " not in w)
        many = sorted({w for w in every if " " in w}, key=len, reverse=True)
        alts = "|".join(r"[ \t]+".join(map(re.escape, w.split())) for w in many + sorted(single[kind], key=len, reverse=True))
        phrase[kind] = re.compile(rf"(?<![^\W_])(?:{alts})(?![^\W_])") if alts else None
    return Words(single, phrase)


_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")
#: Where a clause begins, looking back from a verdict word: a sentence or line end, a semicolon, a dash, a colon (not
#: one right after a reporting verb: "Critics say: it fails"), or a word that opens a clause of the writer's own.
_BOUNDARY = re.compile(r"[.;!?\n\u2014|]|:|\s[-\u2013]\s|->|\u2192|\b(?:but|however|yet|whereas|although|though|while|"
                       r"instead|disagree|aber|doch|mais|pero|sin embargo|mas|porém|ma|però)\b")
_SENTENCE_END = re.compile(r"[.;!?\n|]|\s[-\u2013\u2014]\s|\b(?:but|however|yet|whereas|although|though)\b")
_PASSIVE = frozenset({"is", "are", "was", "were", "be", "been", "being", "than", "as"})
_BE = frozenset({"is", "are", "was", "were", "am"})
_YEAR = re.compile(r"\b(?:19|20)[0-9]{2}\b")
_BARE_YEAR = re.compile(r"\b(?:in|during)\s+(?:(?:early|late|mid)[ \t-]+)?((?:19|20)[0-9]{2})\b")
_PAST_FORM = re.compile(r"(?:ed|met|held|was|were)\Z")
_PAST_AUX = frozenset({"was", "were", "had", "did"})
#: A past verdict verb's limit in time right after it: "passed until 2009", "qualified till the 2020 cut".
_UNTIL = re.compile(r"[ \t]+(?:[a-z]+ly[ \t]+)?(?:until|till|up[ \t]+to|through)[ \t]+(?:the[ \t]+|its[ \t]+|early[ \t]+|late[ \t]+|mid-?)?"
                    r"(?:(?:19|20)[0-9]{2}|recently|last|this|that|[a-z]+[ \t]+(?:19|20)[0-9]{2})")
#: The object of a past verdict verb before a time right after it: "passed it last year", "cleared the test years ago".
_OBJECT = re.compile(r"[ \t]+(?:it|them|this|that|the[ \t]+(?:test|screen|bar|hurdle|gate|check|criterion))(?=[ \t])")
_POSSESSIVE = re.compile(r"([A-Z][\w&.-]*(?:[ \t]+[A-Z][\w&.-]*){0,2})['\u2019]s\b")


def _tokens(low: str, start: int, end: int) -> list[re.Match[str]]:
    return list(_WORD.finditer(low, start, end))


def _clause_start(low: str, floor: int, start: int) -> int:
    """Where the clause of the word at ``start`` begins: after the last boundary (:data:`_BOUNDARY`) in its window."""
    cut = floor
    for m in _BOUNDARY.finditer(low, max(floor, start - BACK), start):
        if m.group() == ":":
            prior = [_apostrophes(t.group()) for t in _tokens(low, max(floor, m.start() - 30), m.start())]
            if prior and (prior[-1] in words().single["reporting"] or _voice_view(prior, len(prior) - 1)
                          or _voice_label(low, floor, m.start())):
                continue  # "Critics say: it fails", "Bear case: it fails", "Critics: it fails": the colon opens what they say
        cut = m.end()
    return cut


def _voice_view(toks: list[str], k: int) -> bool:
    """Whether ``toks[k]`` is a view noun held by a side other than the writer ("bear case", "the bulls' view",
    "consensus take"): a ``voices`` word right before it, or one word before that ("the bear camp's view")."""
    w = words()
    if toks[k].split("'")[0] not in w.single["views"]:
        return False
    return any(t in w.single["voices"] or t.split("'")[0] in w.single["voices"] for t in toks[max(0, k - 2) : k])


def _voice_label(low: str, floor: int, colon: int) -> bool:
    """Whether the text before the colon at ``colon`` is a bare side as a label: a ``voices`` word, at most a
    determiner before it, opening its line or sentence ("Critics: it fails", "The bears: fails"); not "Result:",
    not "Critics' worries aside:" (break40 item 8)."""
    window = max(floor, colon - 30)
    cut = max(low.rfind(ch, window, colon) for ch in ".;:!?\n|")
    if cut < 0 and window > floor:
        return False  # the label does not open its line or sentence within the window
    toks = [_apostrophes(t.group()) for t in _WORD.finditer(low, max(window, cut + 1), colon)]
    if not toks or len(toks) > 2 or (len(toks) == 2 and toks[0] not in words().single["determiners"]):
        return False
    return toks[-1] in words().single["voices"]


def _per_source(text: str, low: str, clause: int, start: int) -> bool:
    """Whether the clause opens on "per" + a source other than the writer and a comma before the word ("Per the bears,
    it fails", "per management, it passes"); not the writer's ("per our model"), the case's facts ("per the filing"),
    a capitalised name (the framework's investor: "Per Graham, it passes") or "earnings per share" (not the opening)."""
    found = _tokens(low, clause, start)
    if len(found) < 2 or found[0].group() != "per":
        return False
    comma = low.find(",", found[0].end(), start)
    named = [m for m in found[1:] if m.end() <= comma]
    if comma < 0 or not 1 <= len(named) <= 4 or any(text[m.start()].isupper() for m in named):
        return False
    w = words()
    return not any(_own(t) or t in w.single["own_possessive"] or _possessed(t) in w.single["facts"]
                   for t in (_apostrophes(m.group()) for m in named))


def _possessed(token: str) -> str:
    """``token`` less a possessive ending: "card's" -> "card", "filings'" -> "filings" ("per the card's 15% bar" cites the
    case's own rule, as "per the card" does: break41, a writer's 0.95 PROCEED had dropped to 0.45)."""
    return token[:-2] if token.endswith("'s") else token.rstrip("'")


#: Subjects that open a new clause after "and" (the writer's own statement, not the reported one).
_NEW_SUBJECTS: Final = frozenset({"it", "this", "that", "the", "its", "i", "we", "our", "my"})


def _new_clause_after(found: list[re.Match[str]], toks: list[str], k: int, start: int) -> bool:
    """Whether the reporting verb ``toks[k]`` has its own object, then "and" and a new subject before the verdict word
    (break40 item 7: "Management expects 10% growth and it passes"); not "critics say that it is dear and that it
    fails" (a second complement) nor "critics say the moat is thin and fails" (no new subject)."""
    for j in range(len(toks) - 2, k + 1, -1):
        if toks[j] == "and" and toks[j + 1] in _NEW_SUBJECTS and found[j + 1].end() <= start:
            return toks[k + 1] not in words().single["that"] and j > k + 1
    return False


def _own_phrase(toks: list[str], j: int) -> bool:
    """Whether the subject ``toks[j]`` is the writer or a noun phrase the writer's possessive opens ("our team", "my
    research analysts", "unser Team"): up to three words back, no reporting verb between."""
    if _own(toks[j]):
        return True
    w = words()
    for t in reversed(toks[max(0, j - 3) : j]):
        if t in w.single["own_possessive"]:
            return True
        if t in w.single["reporting"] or t in w.single["that"]:
            return False
    return False


def _own(token: str) -> bool:
    """Whether a subject token is the writer ("i", "we", "i'd", "we've", "you")."""
    own = words().single["own"]
    token = _apostrophes(token)
    return token in own or token.split("'")[0] in own


def _speaker_before(low: str, clause: int, start: int) -> bool:
    """Whether a reporting verb with a subject other than the writer, or a phrase naming another's view, stands in
    ``low[clause:start]`` (the clause before a verdict word)."""
    w = words()
    found = _tokens(low, clause, start)
    toks = [_apostrophes(t.group()) for t in found]
    if not toks:
        return False
    according = w.phrase["according"]
    if according is not None:
        for m in according.finditer(low, clause, start):
            named = _tokens(low, m.end(), min(start, m.end() + 30))
            if not named or not _own(named[0].group()):
                return True  # "according to the bulls it passes"; not "according to us"
    colon = low.rfind(":", clause, start)
    if colon >= 0 and _voice_label(low, max(0, clause - 1), colon):
        return True  # "Critics: it fails"
    for k in range(len(toks) - 1, -1, -1):
        if _voice_view(toks, k):
            # "the bear case: it fails", "in the bears' view it fails"; not "unlike the bear case, it passes"
            return w.single["aside"].isdisjoint(toks[:k])
        verb = toks[k]
        if verb not in w.single["reporting"]:
            continue
        if not w.single["aside"].isdisjoint(toks[:k]):
            return False  # "As Buffett would say, this passes", "despite what the spokesperson said, it fails"
        comma = low.find(",", found[k].end(), start)
        if comma >= 0 and low[found[k].end() : comma].strip():
            return False  # "Analysten erwarten 9 %, erreicht wurden 5 %": the verb's own object, then another clause
        if _new_clause_after(found, toks, k, start):
            return False  # "Management expects 10% growth and it passes": the verb's object, then "and" + a new subject
        j = k - 1
        while j >= 0 and (toks[j] in w.single["skip"] or verb.endswith("ing") and toks[j] in _BE):
            j -= 1
        if j < 0:  # "dicen que cumple" (they say that): a verb alone is its own subject's; not "creo que", "+78% expected"
            return not _own(verb) and k + 1 < len(toks) and toks[k + 1] in w.single["that"]
        subject = toks[j]
        if subject in _PASSIVE or subject.endswith("ly") or subject in w.single["determiners"] or subject in w.single["facts"]:
            return False  # "as expected", "the expected return", "the question says ...": no other speaker
        return not _own_phrase(toks, j)  # not "our team argues it passes"
    return False


_TAIL_SEP = re.compile(r"[,'\"\u2019\u201d()\[\]\u2014]")


def _speaker_after(low: str, end: int, ceiling: int) -> bool:
    """Whether the sentence closes, right after the verdict word, on a reporting verb and a speaker other than the
    writer: "It fails, critics say.", "'fail' says the bear.", "PROCEED (say the bulls)"."""
    w = words()
    stop = _SENTENCE_END.search(low, end, min(ceiling, end + AHEAD))
    tail_end = stop.start() if stop is not None else min(ceiling, end + AHEAD)
    if stop is None and tail_end < ceiling:
        return False  # the sentence runs on: no closing tag
    text = low[end:tail_end].rstrip(" \t,)]'\"\u2019\u201d")
    seps = list(_TAIL_SEP.finditer(text))
    if not seps or len(_tokens(text, 0, seps[-1].start())) > 6:
        return False
    toks = [_apostrophes(t.group()) for t in _tokens(text, seps[-1].end(), len(text))]
    if not 2 <= len(toks) <= 4 or any(c.isdigit() for c in text[seps[-1].end():]):
        return False  # not "PROCEED (expected return 12%)"
    if toks[0] in w.single["reporting"]:
        return (not toks[0].endswith("ed") or toks[0] == "said") and not _own(toks[1]) and toks[1] not in w.single["facts"]  # "says the bear"
    if toks[-1] in w.single["reporting"]:
        subject = [t for t in toks[:-1] if t not in w.single["skip"]]
        return bool(subject) and not _own(subject[-1]) and subject[-1] not in _PASSIVE and subject[-1] not in w.single["facts"]
    return False


def _first_look(low: str, floor: int, start: int, end: int) -> bool:
    """Whether the verdict word is a first reading the writer revises: a ``first_look`` phrase right before it ("at
    first glance it fails", at most two words between) or right after it ("FAIL at first glance, but PASS ..."), or
    the word right after "was"/"were" with a word of today later in its sentence ("was REJECT, now PROCEED"), or the
    word right after a bare "first" with a ``last_look`` word later in its sentence ("first FAIL, finally PASS")."""
    w = words()
    first = w.phrase["first_look"]
    if first is not None:
        marks = list(first.finditer(low, max(floor, start - 60), start))
        if marks and len(_tokens(low, marks[-1].end(), start)) <= 2:
            return True
        after = first.search(low, end, end + 40)
        if after is not None and not _tokens(low, end, after.start()) and not re.search(r"[.;!?\n]", low[end : after.start()]):
            return True
    before = _tokens(low, max(floor, start - 20), start)
    if before and "first" in [t.group() for t in before[-2:]] and w.phrase["last_look"] is not None:
        stop = _SENTENCE_END.search(low, end, end + AHEAD)
        if w.phrase["last_look"].search(low, end, stop.start() if stop is not None else end + AHEAD) is not None:
            return True  # "first FAIL, finally PASS": the first of a first/finally sequence (break40 item 9)
    if before and before[-1].group() in ("was", "were") and before[-1].end() >= start - 2:
        stop = _SENTENCE_END.search(low, end, end + AHEAD)
        tail = low[end : stop.start() if stop is not None else end + AHEAD]
        return any(_apostrophes(t.group()) in w.single["now"] for t in _WORD.finditer(tail))
    return False


def _another_time(text: str, low: str, floor: int, start: int, end: int) -> bool:
    """Whether the verdict word is a past verb in a clause set in another time (module docstring), or a first reading
    the writer revises (:func:`_first_look`)."""
    w = words()
    if _first_look(low, floor, start, end):
        return True
    token = low[start:end]
    past = w.phrase["past"]
    if past is None:
        return False
    sentence = floor
    for m in _SENTENCE_END.finditer(low, max(floor, start - BACK), start):
        sentence = m.end()
    marks = list(past.finditer(low, sentence, start))
    if not marks:
        year = None
        for year in _BARE_YEAR.finditer(low, sentence, start):
            pass  # the year nearest the word: "grew in 2019, and in 2023 the test passed" is 2023's
        later = 0 if year is None else max((int(y) for y in _YEAR.findall(text, max(0, start - 5000), start + 5000)), default=0)
        if year is not None and later - int(year.group(1)) >= OLD_YEARS:
            marks = [year]
    if marks:
        mark = marks[-1]
        between = [_apostrophes(t.group()) for t in _tokens(low, mark.end(), start)]
        if any(t in w.single["now"] for t in between) or (w.phrase["now"] is not None and w.phrase["now"].search(low, mark.end(), start)):
            return False  # "back then it failed, but today it passes": the clause turns to today
        if mark.group().split()[-1] in ("to",) or mark.group() in w.single["past"] and len(between) <= 1:
            return True  # "it used to pass", "solía cumplir"
        return _PAST_FORM.search(token) is not None or any(t in _PAST_AUX for t in between)
    obj = _OBJECT.match(low, end)  # "we passed it last year": the verb's object, then the time (break43 #12 left)
    after = past.match(low, (obj.end() if obj is not None else end) + 1) if low[end : end + 1] == " " else None
    if _PAST_FORM.search(token) is not None and _UNTIL.match(low, end):
        return True  # "it passed until 2009", "cleared until the dividend cut": a result that held until a time now gone
    return after is not None and _PAST_FORM.search(token) is not None  # "it passed back in 2009"


def _in_title(text: str, name: str, before: int) -> bool:
    """Whether ``name`` (a capitalised name) stands in the answer's first non-blank line, its title or heading, and
    that line ends before offset ``before`` (the name's use as a possessive): the company the answer is about, never
    another one set against it.

    >>> t = "## Apple (AAPL): the checklist\\n\\nApple's moat passes."
    >>> _in_title(t, "Apple", t.rindex("Apple"))
    True
    >>> t = "Apple's moat passes. This company's? Unclear."
    >>> _in_title(t, "Apple", 0)
    False
    """
    m = re.search(r"\S[^\n]*", text[:before])
    if m is None or "\n" not in text[m.end() : before + 1]:
        return False
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", m.group()) is not None


#: Words before an ``others`` word that make it a comparison of the case's own company ("dividend record versus peers").
_COMPARED: Final = frozenset({"vs", "versus", "against", "than", "to", "with", "relative", "compared", "over", "beats",
                              "beat", "outpaces", "trails", "lags"})


#: A sentence end before a label on its line.
_LABEL_START = re.compile(r"[.!?;][ \t]+")


def _label_of_another(low: str, start: int) -> bool:
    """Whether the verdict word at ``start`` is the value of a line label that names another company: "Dividend history
    of the competitor: pass.", "Rival's balance sheet: strong". Not a comparison of the case's own company
    ("Dividend record versus peers: pass")."""
    window = max(0, start - _LONG_LINE)
    newline = low.rfind("\n", window, start)
    if newline < 0 and window > 0:
        return _long_line_label(low, start)
    return _label_names_another(low, newline + 1, low.find(":", newline + 1, start))


#: How far back a verdict word's line start is looked for before the line counts as long (characters).
_LONG_LINE: Final = 4096
#: The text whose long lines were read last, their starts (sorted) and, per start, (line end, first colon, whether the
#: label before that colon names another company): a long line is read once, not once per verdict word on it.
_long_lines: tuple[str, list[int], dict[int, tuple[int, int, bool]]] = ("", [], {})


def _long_line_label(low: str, start: int) -> bool:
    """:func:`_label_of_another` for a verdict word more than :data:`_LONG_LINE` characters into its line. The answer
    depends only on the line's first colon (before the word or not) and its label, so it is worked out once per line:
    scanning back to the line's start and forward to its colon for each word made a 1 MB line of prose quadratic
    (bench/parse.py). Same answers as the plain scan."""
    global _long_lines
    memo = _long_lines
    if memo[0] is not low:
        memo = _long_lines = (low, [], {})
    _, starts, read = memo
    k = bisect_right(starts, start) - 1
    if k >= 0 and start <= read[starts[k]][0]:
        line = starts[k]
    else:
        line = low.rfind("\n", 0, start) + 1
        end = low.find("\n", start)
        end = len(low) if end < 0 else end
        colon = low.find(":", line, end)
        read[line] = (end, colon, colon >= 0 and _label_names_another(low, line, colon))
        insort(starts, line)
    _, colon, named = read[line]
    return 0 <= colon < start and named


def _label_names_another(low: str, line: int, colon: int) -> bool:
    """Whether the label from ``line`` (a line's start) to ``colon`` (its first colon; -1: none) names another company
    (:func:`_label_of_another`)."""
    if colon < 0:
        return False
    for m in _LABEL_START.finditer(low, line, colon):
        line = m.end()  # the label opens its sentence: "Rivals undercut it by 20%. Moat: REJECT." is the moat's label
    if colon - line > 60:
        return False
    others = words().phrase["others"]
    if others is None:
        return False
    for m in others.finditer(low, line, colon):
        before = _tokens(low, max(line, m.start() - 30), m.start())
        near = [_apostrophes(t.group()) for t in before[-3:]]
        if m.group().startswith(("for comparison", "by comparison", "unlike")) or _COMPARED.isdisjoint(near):
            return True
    return False


def _another_company(text: str, low: str, floor: int, start: int) -> bool:
    """Whether the verdict word's subject is another company's possessive (module docstring), or its line's label names
    another company (:func:`_label_of_another`)."""
    w = words()
    if _label_of_another(low, start):
        return True
    clause = _clause_start(low, floor, start)
    toks = _tokens(low, clause, start)[-4:]
    if any(_apostrophes(t.group()) in w.single["others"] and "'" in _apostrophes(t.group()) for t in toks):
        return True  # "the competitor's clears", "a rival's passes"
    subject = [t for t in (_apostrophes(m.group()) for m in toks) if t not in w.single["determiners"] and t not in w.single["skip"]]
    if len(subject) == 1 and subject[0] in w.single["others"] and subject[0] not in ("unlike",):
        return True  # "the competitor fails", "Der Konkurrent fällt durch": another company is the verb's subject
    if not toks:
        return False
    name = None
    for m in _POSSESSIVE.finditer(text, max(clause, toks[0].start() - 40), start):
        name = m
    if name is None or _in_title(text, name.group(1), name.start()):
        return False  # "# Apple: Buffett's checklist ... Apple's moat passes. This company ...": the answer's own company
    para_start = max(low.rfind("\n\n", max(0, start - 2000), start) + 1, start - 2000, 0)
    para_end = low.find("\n\n", start, start + 2000)
    para_end = min(len(low), start + 2000) if para_end < 0 else para_end
    own = w.phrase["this_company"]
    return own is not None and any(not (clause <= m.start() < start) for m in own.finditer(low, para_start, para_end))


#: A standard a verdict is measured against, named as someone's: "clears the fund's bar", "beats the bank's 8% hurdle".
_BAR_NOUNS = r"(?:bar|hurdle|threshold|cut-?off|minimum|standard|benchmark|requirement)s?"
_POSSESSED_BAR = re.compile(r"\b([a-z]+)['\u2019]s[ \t]+(?:own[ \t]+)?(?:[\w.%-]+[ \t]+){0,2}?" + _BAR_NOUNS + r"\b")
_OWN_BAR = re.compile(r"\b(?:my|our)[ \t]+(?:own[ \t]+)?(?:[\w.%-]+[ \t]+){0,2}?" + _BAR_NOUNS + r"\b")
#: Possessors whose bar is the card's own: "passes the card's bar", "clears the framework's threshold".
_CARD_OWNERS = frozenset({"card", "framework", "checklist", "gate", "test", "rule", "screen", "model", "investor"})


def _others_bar(text: str, low: str, end: int, ceiling: int) -> bool:
    """Whether the verdict word is measured, right after it in its sentence, against a bar the answer sets apart from
    the writer's own (issue 13, break42 #21): "My bar is 15%; the fund's bar is 8%. ROIC was 12%, which clears the
    fund's bar" is the fund's pass, not the writer's. Only when the answer also states a bar of the writer's ("my bar",
    "our hurdle") and the possessor is a lower-case common noun: a name ("Munger's bar") may be the card's investor,
    and "the card's bar" is the card's.

    >>> t = "My bar is 15%. ROIC 12% clears the fund's bar."
    >>> _others_bar(t, t.lower(), t.index("clears") + 6, len(t)), _others_bar(t, t.lower(), 0, 0)
    (True, False)
    """
    stop = _SENTENCE_END.search(low, end, min(ceiling, end + AHEAD))
    tail_end = stop.start() if stop is not None else min(ceiling, end + AHEAD)
    m = _POSSESSED_BAR.search(low, end, tail_end)
    if m is None or m.group(1) in _CARD_OWNERS or not text[m.start(1)].islower() or _own(m.group(1)):
        return False
    return _OWN_BAR.search(low) is not None


def other_lead_in(low: str, pos: int) -> bool:
    """Whether the paragraph holding ``pos`` opens with a lead-in line (ending in a colon, the word not on it) that sets
    what follows on another company or another's checklist ("For comparison, a competitor's checklist read:").

    >>> t = "For comparison, a rival fund's checklist read:\\nEconomic Moat: strong."
    >>> other_lead_in(t.lower(), t.index("strong"))
    True
    >>> t = "Our checklist:\\nEconomic Moat: strong."
    >>> other_lead_in(t.lower(), t.index("strong"))
    False
    """
    para = low.rfind("\n\n", max(0, pos - 4000), pos)
    head_start = para + 2 if para >= 0 else 0
    head_end = low.find("\n", head_start, pos)
    if head_end < 0 or pos - head_start > 4000:
        return False
    head = low[head_start:head_end].rstrip(" \t*_")
    if not head.endswith(":") or len(head) > 200:
        return False
    w = words()
    others = w.phrase["others"]
    if others is not None and others.search(head) is not None:
        return True
    return _speaker_before(low, _clause_start(low, head_start, head_end - 1), len(head) + head_start - 1)


#: Quotation marks, opener -> closer: straight and curly English, German low-high („...“ and ‚...‘), guillemets both
#: ways (« » French, Italian; » « German), CJK corner brackets. A straight single quote is left out (an apostrophe).
_QUOTES: Final = {'"': '"', "\u201c": "\u201d", "\u201e": "\u201c\u201d", "\u201a": "\u2018\u2019", "\u00ab": "\u00bb",
                  "\u00bb": "\u00ab", "\u300c": "\u300d", "\u300e": "\u300f"}


def _open_quote(low: str, floor: int, start: int) -> int:
    """Where the quotation that is still open at ``start`` opens in ``low[floor:start]``, or -1 (none is open).

    >>> _open_quote('the analyst writes: \u201evaluation: passed', 0, 34)
    20
    >>> _open_quote('she said "no" and it passes', 0, 21)
    -1
    """
    return still_open(low, _QUOTES, floor, start)[0]


def quoted_speaker(low: str, floor: int, start: int) -> bool:
    """Whether the verdict word at ``start`` stands inside a quotation that another speaker's clause introduces: the
    analyst writes: "Valuation: passed", der Analyst schreibt: „Bewertung: bestanden“, l'analista scrive: «superato».
    A quoted label's own colon ("Valuation:") opens no clause of the writer's: the quotation is the speaker's whole."""
    quote = _open_quote(low, floor, start)
    return quote > floor and _speaker_before(low, _clause_start(low, floor, quote), quote)


def attributed(text: str, floor: int, start: int, end: int, ceiling: int | None = None, low: str | None = None) -> SetApart | None:
    """Whether the verdict word ``text[start:end]`` (in the sentence or unit ``text[floor:ceiling]``) is another
    speaker's, another time's or another company's, and which; None when it is the writer's own reading.

    Parameters
    ----------
    text
        The answer (any case; lower-cased here for the word lists).
    floor, ceiling
        Offsets bounding the verdict word's sentence (its unit); ``ceiling`` defaults to the text's end.
    start, end
        The verdict word's span.
    low
        ``text.lower()`` where the caller has it (same length: the parser's lower-cased text).

    References
    ----------
    Paper §7.5 (structured response parsing); issue 13 (stop 40).

    >>> attributed("The bears say it fails; I disagree: it passes.", 0, 39, 45) is None
    True
    >>> attributed("We say: pass.", 0, 8, 12) is None
    True
    >>> attributed("It fails, critics say.", 0, 3, 8)
    'speaker'
    """
    low = text.lower() if low is None else low
    ceiling = len(text) if ceiling is None else ceiling
    clause = _clause_start(low, floor, start)
    if _speaker_before(low, clause, start) or _per_source(text, low, clause, start) or _speaker_after(low, end, ceiling) \
            or quoted_in_cjk_report(text, floor, start, end):
        return "speaker"  # "Critics say it fails"; アナリストは「合格」と言う (another's word quoted)
    if _another_time(text, low, floor, start, end):
        return "time"
    if _others_bar(text, low, end, ceiling):
        return "speaker"  # "which clears the fund's bar" beside the writer's own bar: another party's verdict
    if _another_company(text, low, floor, start) or other_lead_in(low, start):
        return "company"
    if quoted_speaker(low, floor, start):
        return "speaker"  # 'The analyst writes: "Valuation: passed"': a quotation another speaker's clause opens
    return None


def capped(level: int, state: Any, unit: Any, start: int, end: int) -> int:
    """``level`` (:mod:`ipb.scoring.verdict_words` strength) of the verdict word ``state.masked[start:end]`` in ``unit``,
    capped at the weak level when the word is another speaker's, time's or company's (:func:`attributed`), or its object
    is another party's test (:func:`._others_test.others_test`: "passes Lynch's PEG test")."""
    if level <= vw.WEAK:
        return level
    if attributed(state.masked, unit.start, start, end, unit.end, state.low) is None \
            and not others_test(state.masked, unit.start, end, unit.end, state.card.investor):
        return level  # "passes Lynch's PEG test": another party's test, not the gate's (_others_test.py)
    return vw.WEAK
