"""Numbers and years in free text, for the response parser and the element matcher.

Every money amount, multiple, percentage, fraction and calendar year in an
answer, with offsets into the text. The regular expressions are linear in
their input (no nested unbounded quantifiers).
"""

from __future__ import annotations

import re
from itertools import islice
from dataclasses import dataclass
from typing import Iterator

__all__ = ["NumberMatch", "find_numbers", "find_years"]

_SCALE = {"t": 10**12, "tn": 10**12, "trillion": 10**12, "b": 10**9, "bn": 10**9, "billion": 10**9, "m": 10**6, "mm": 10**6,
          "mn": 10**6, "million": 10**6, "k": 10**3, "thousand": 10**3}
_NUMBER = re.compile(
    r"(?<![\w.$])(?P<money>(?P<msign>[-\u2212\u2013][ \t]?)?(?:US|USD[ \t]?)?\$[ \t]?(?P<msign2>[-\u2212])?"
    r"(?P<mnum>\d{1,3}(?:,\d{3}){1,6}|\d{1,15})(?P<mdec>\.\d{1,8})?(?:[ \t]?(?P<mscale>trillion|billion|million|thousand|tn|bn|mm|mn|[TBMKk])\b)?)"
    r"|(?<![\w.$/])(?P<sign>[-\u2212][ \t]?)?(?P<num>\d{1,3}(?:,\d{3}){1,6}|\d{1,15})(?P<dec>\.\d{1,8})?"
    r"(?:(?P<x>[xX](?![A-Za-z0-9])|[ \t]?\u00d7)"
    r"|[ \t]?(?P<pct>%|percent\b|per[ \t]cent\b|pct\b)"
    r"|(?P<frac>/(?P<den>\d{1,4})(?![\w/.]))"
    r"|[ \t](?P<scale>trillion|billion|million)\b)"
)


@dataclass(frozen=True)
class NumberMatch:
    """A number with a unit in the response: ``unit`` is money (USD), multiple, ratio (95% is 0.95) or fraction."""

    start: int
    end: int
    text: str
    value: float
    unit: str


def _to_float(integer: str, decimals: str | None) -> float:
    return float(integer.replace(",", "") + (decimals or ""))


_NUMBER_CANDIDATE = re.compile(r"\$|\d+")
_SIGNS = "-\u2212\u2013"


def _number_matches(text: str) -> Iterator[re.Match[str]]:
    """``_NUMBER.finditer(text)``, tried only at a ``$`` or a digit (and the sign or ``US`` before it)."""
    end = 0
    for c in _NUMBER_CANDIDATE.finditer(text):
        p = c.start()
        if p < end:
            continue
        start = p
        if text[p] == "$":
            for prefix in ("USD ", "USD\t", "USD", "US"):
                if text.startswith(prefix, p - len(prefix)) and p - len(prefix) >= end:
                    start = p - len(prefix)
                    break
        if start >= end + 1 and text[start - 1] in _SIGNS:
            start -= 1
        elif start >= end + 2 and text[start - 1] in " \t" and text[start - 2] in _SIGNS:
            start -= 2
        m = _NUMBER.match(text, start)
        if m is None and start != p:
            m = _NUMBER.match(text, p)
        if m is not None:
            end = m.end()
            yield m


def find_numbers(text: str, limit: int | None = None) -> list[NumberMatch]:
    """Every money amount, multiple, percentage and fraction in ``text``, in order.

    A leading minus may be ASCII or the unicode minus (−). With ``limit``,
    at most that many (the first) are returned.

    >>> [(n.text, n.value, n.unit) for n in find_numbers("$5B ARR at 10x, 95% retention, −$2B, 2/3 of NCAV")]
    [('$5B', 5000000000.0, 'money'), ('10x', 10.0, 'multiple'), ('95%', 0.95, 'ratio'), ('−$2B', -2000000000.0, 'money'), ('2/3', 0.6667, 'fraction')]
    """
    found: list[NumberMatch] = []
    for m in _number_matches(text):
        if limit is not None and len(found) >= limit:
            break
        if m.group("money") is not None:
            value = _to_float(m.group("mnum"), m.group("mdec"))
            scale = m.group("mscale")
            if scale:
                value *= _SCALE[scale.lower()] if scale.lower() in _SCALE else 1
            if m.group("msign") or m.group("msign2"):
                value = -value
            found.append(NumberMatch(m.start(), m.end(), m.group(0), value, "money"))
            continue
        value = _to_float(m.group("num"), m.group("dec"))
        if m.group("sign"):
            value = -value
        if m.group("x") is not None:
            found.append(NumberMatch(m.start(), m.end(), m.group(0), value, "multiple"))
        elif m.group("pct") is not None:
            found.append(NumberMatch(m.start(), m.end(), m.group(0), round(value / 100, 10), "ratio"))
        elif m.group("frac") is not None:
            den = int(m.group("den"))
            if den == 0 or m.group("dec") or den > 1000:
                continue
            found.append(NumberMatch(m.start(), m.end(), m.group(0), round(value / den, 4), "fraction"))
        elif m.group("scale") is not None:
            found.append(NumberMatch(m.start(), m.end(), m.group(0), value * _SCALE[m.group("scale").lower()], "number"))
    return found


_YEAR = re.compile(r"(1[6-9]\d\d|20\d\d)(?<![\w$.,/\u2212-]\d{4})(?:s\b|(?![\w%\u00d7$]|[.,]\d))")


def find_years(text: str, limit: int | None = None) -> list[tuple[int, int, int]]:
    """Every calendar year (1600-2099) in ``text`` as (year, start, end); "1990s" counts as 1990.

    With ``limit``, at most that many (the first) are returned.

    >>> find_years("the 1986 letter, not 1990; $2000 and 2,019 are not years")
    [(1986, 4, 8), (1990, 21, 25)]
    >>> find_years("1986 1987 1988", limit=2)
    [(1986, 0, 4), (1987, 5, 9)]
    """
    matches = _YEAR.finditer(text)
    if limit is not None:
        matches = islice(matches, limit)
    return [(int(m.group(1)), m.start(1), m.end(1)) for m in matches]
