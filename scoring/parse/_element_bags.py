"""The stems and figures of one sentence, indexed for the element matcher (:mod:`._elements`; paper §6.3).

A :class:`_Bag` holds a sentence's word stems (each at its first span, and by its first five letters), the numbers
the reader found in it and its bare figures (:func:`_bare_numbers`: "Current ratio 1.3", "24 years", a count or a
multiple written with no unit). :func:`_stem_hit` says where a bag has an element's stem: the stem, a synonym, a
prefix, or the closest stem by rapidfuzz's ratio, memoised in the bag.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ipb.scoring._numbers import figure_value
from ipb.scoring._text import NumberMatch, stem
from ipb.scoring.parse._abbreviations import STEM_EXPANSIONS
from ipb.scoring.parse._types import Span
from rapidfuzz import fuzz, process

_TOKEN = re.compile(r"[^\W_]+")

_SYNONYM_WORDS: dict[str, tuple[str, ...]] = {
    "comprehensible": ("understand", "understood", "comprehend", "simpl", "predictabl"),
    "insufficiency": ("insufficient", "lack", "missing", "unavailabl", "unknown", "absent", "provid", "disclos", "no", "limit", "gap"),
    "data": ("information", "evidence", "disclosur", "detail", "record", "track"),
    "acknowledg": ("not", "no", "unknown", "missing", "absent", "lack", "flag", "note", "recogni", "admit"),
    "fcf": ("free",),
    "moat": ("advantag", "franchis"),
    "cost": ("costs",),
    "credit": ("financ", "lend", "capital"),
    "self": ("own", "internal", "itself"),
    "fund": ("financ", "fund"),
    # the noun and its verb: "Sales have grown 18% a year" states "sales growth 18%" (s52hedge; the figure is still
    # checked against the element's own, and every other word of the element must be there)
    "growth": ("grow", "grew", "grown"),
}


#: Synonyms by the stem of the element word; values are stem prefixes.
_SYNONYMS: dict[str, tuple[str, ...]] = {stem(word): alts for word, alts in _SYNONYM_WORDS.items()}


@dataclass
class _Bag:
    """The stems and numbers of one sentence, indexed for element matching."""

    exact: dict[str, Span]
    prefix5: dict[str, Span]
    numbers: list[NumberMatch]
    start: int
    text: str
    end: int = -1
    #: (stem, cutoff) -> what :func:`_stem_hit` found: a bag is read by every element of every gate it serves
    hits: dict[tuple[str, float], Span | None] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, text: str, start: int, end: int, numbers: list[NumberMatch]) -> "_Bag":
        exact: dict[str, Span] = {}
        prefix5: dict[str, Span] = {}
        for m in _TOKEN.finditer(text, start, end):
            st = stem(m.group())
            if st not in exact:
                span = exact[st] = m.span()
                if len(st) >= 5 and st[:5] not in prefix5:
                    prefix5[st[:5]] = span
                # an abbreviation holds the words it stands for ("ROCE 28%" states "return on capital employed")
                for extra in STEM_EXPANSIONS.get(st, ()):
                    exact.setdefault(extra, span)
                    if len(extra) >= 5:
                        prefix5.setdefault(extra[:5], span)
        return cls(exact, prefix5, numbers + _bare_numbers(text, start, end, numbers), start, text, end)

    @classmethod
    def merge(cls, bags: list["_Bag"]) -> "_Bag":
        exact: dict[str, Span] = {}
        prefix5: dict[str, Span] = {}
        numbers: list[NumberMatch] = []
        for b in bags:
            for k, v in b.exact.items():
                exact.setdefault(k, v)
            for k, v in b.prefix5.items():
                prefix5.setdefault(k, v)
            numbers.extend(b.numbers)
        return cls(exact, prefix5, numbers, bags[0].start if bags else 0, bags[0].text if bags else "")


#: A figure written with no unit ("Current ratio 1.3", "shortest record 24 years"): the reader's numbers need a unit, an
#: element's count or multiple may have none. Never part of a word, a date, a range or a larger number.
_BARE = re.compile(r"(?<![\w.,$\u20ac\u00a3\u00a5/\u2212-])[-\u2212]?\d{1,6}(?:\.\d{1,4})?(?![\w%$/]|[.,]\d|[ \t]?(?:%|percent\b|pct\b|bp\b|bps\b))")
#: Unit of a bare figure: read only into a field of no unit (a count) or a multiple.
BARE = "bare"


#: What a bare figure is not: a list or row number opening its line ("7. ", "| 7 |"), a gate's number ("Test 3"), a day
#: of a month ("17 July", "July 17").
_NOT_A_FIGURE_BEFORE = re.compile(
    r"(?:(?:^|\n)[ \t>*_#|-]*"
    r"|(?i:\b(?:gates?|tests?|steps?|stages?|criteri(?:on|a)|checks?|lens(?:es)?|questions?|conditions?|rules?|no\.?|#)[ \t]*"
    r"(?:\d{1,3}[ \t]*(?:,|and|&|to|-|\u2013)[ \t]*)*)"
    r"|(?i:\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?[ \t]*))\Z")
_NOT_A_FIGURE_AFTER = re.compile(r"(?i)[ \t]*(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b")


def _bare_numbers(text: str, start: int, end: int, numbers: list[NumberMatch]) -> list[NumberMatch]:
    """The bare figures of ``text[start:end]`` outside the reader's ``numbers``; four-digit years (1800-2100), list, row
    and gate numbers and days of a month are left out."""
    taken = [(n.start, n.end) for n in numbers]
    out: list[NumberMatch] = []
    for m in _BARE.finditer(text, start, end):
        if any(a < m.end() and m.start() < b for a, b in taken):
            continue
        if (_NOT_A_FIGURE_BEFORE.search(text, max(0, m.start() - 24), m.start()) is not None
                or _NOT_A_FIGURE_AFTER.match(text, m.end()) is not None):
            continue
        raw = m.group(0).replace("\u2212", "-")
        value = figure_value(raw)
        if value is None or "." not in raw and 1800 <= value <= 2100:
            continue
        out.append(NumberMatch(m.start(), m.end(), m.group(0), value, BARE))
        if len(out) >= 64:
            break
    return out


def _stem_hit(target: str, bag: _Bag, cutoff: float) -> Span | None:
    """Where ``bag`` has the stem ``target``: the stem, a synonym, one of five or more letters by its first five, one
    of four by a short suffix, every word a listed abbreviation stands for (:data:`STEM_EXPANSIONS`: "return",
    "capital", "employ" for "roce"), or (six or more letters) the closest stem by rapidfuzz's ratio at ``cutoff``;
    memoised in the bag."""
    key = (target, cutoff)
    hits = bag.hits
    if key in hits:
        return hits[key]
    span = hits[key] = _stem_hit_in(target, bag, cutoff)
    return span


def _stem_hit_in(target: str, bag: _Bag, cutoff: float) -> Span | None:
    for t in (target, *_SYNONYMS.get(target, ())):
        span = bag.exact.get(t)
        if span is not None:
            return span
        if len(t) >= 5:
            span = bag.prefix5.get(t[:5])
            if span is not None:
                return span
        elif len(t) == 4:
            for s, sp in bag.exact.items():
                if s.startswith(t) and len(s) - len(t) <= 3:
                    return sp
    # an element's abbreviation is stated by the words it stands for: "Return on capital employed ... 30%" states
    # "ROCE 30%" (s54newuser finding 6; the converse of the expansion _Bag.of gives an abbreviation in the answer)
    expansion = STEM_EXPANSIONS.get(target)
    if expansion:
        spans = [bag.exact.get(w) or (bag.prefix5.get(w[:5]) if len(w) >= 5 else None) for w in expansion]
        if all(spans):
            return min(sp for sp in spans if sp is not None)
    if len(target) >= 6 and bag.exact:
        best = process.extractOne(target, list(bag.exact), scorer=fuzz.ratio, score_cutoff=cutoff)
        if best is not None:
            return bag.exact[best[0]]
    return None
