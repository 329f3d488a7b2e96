"""The result of a computation a text works through, against the gate's own bar (issue 13, figures in prose; paper §7.5).

Reports, calculators and forum replies state a computed gate as its working: "Owner earnings = 120 + 35 - 30 = 125",
"212.4m - 71.9m = 140.5m", "V = 3.200 x (8,5 + 2 x 6) x 4,4 / 3,9 = 74.010 VND", "Owner's Earnings = -41.5 + 63.2 - 96.0
= -74.3". The figure after the last equals sign is the computed quantity, and a reader who knows the card's test on it
(``owner_earnings_value > 0``, ``intrinsic_value <= 0`` rejects) reads the gate's verdict from it: a worked
computation of the gate's own quantity is the gate applied, not a bare fact (the corpus labels a screener's formula
gate by its computed value and leaves a formula's inputs alone).

:func:`computed_result` reads that figure: the first number after the clause's last ``=`` (or ``≈``), at most four
words after it ("= owner earnings 125", "= about 2,146"), with a minus, a typographic minus or accounting brackets as
its sign. For a bar against zero (a sign test) any number counts whatever its unit or scale ("44.0亿元", "-74.3",
"140.5m"); for another bar the number must be of the bar's kind (money, a percentage, a multiple), read by the one
number reader (:func:`ipb.engine.numbers.scan_numbers`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from ipb.engine.numbers import scan_numbers
from ipb.scoring.parse._thresholds import Bar

__all__ = ["computed_result"]

#: The last equals sign of a clause and what follows it up to the result's first digit: at most four words (letters
#: only: "owner earnings", "about", "roughly"), a sign, a currency mark. Each word and each run of spacing is read by
#: one possessive repeat (s54redos: four stars over one run of spaces after "= roughly" made a failed match cost the
#: run's length to the fourth power; the matches are the same).
_RESULT = re.compile(r"(?:=|\u2248)[ \t]*+(?:[^\W\d_][\w'&/.-]*+[ \t]++){0,4}?[ \t]*+(?P<sign>[-\u2212\u2013(])?[ \t]*+"
                     r"(?:[$\u20ac\u00a3\u00a5]|usd|eur|vnd|rmb|cny)?[ \t]*+(?P<num>\d)", re.IGNORECASE)
_KINDS = {"money": "money", "percent": "ratio", "multiple": "multiple"}


def computed_result(text: str, start: int, end: int, bars: Sequence[Bar], *,
                    decimal_comma: bool | None = None) -> tuple[int, int, str] | None:
    """(start, end, verdict) of the result of the computation worked in ``text[start:end]`` (one clause) against
    ``bars`` (the gate's, :func:`._thresholds.gate_bars`), else None: no equals sign, no number after the last one, a
    number of another kind than a non-zero bar's, or a value in the band between two bars.

    >>> bar = (Bar("owner_earnings_value", ">", Decimal(0), "money", "PROCEED"),)
    >>> t = "owner earnings = net income 120 + d&a 35 - capex 30 = owner earnings 125"
    >>> computed_result(t, 0, len(t), bar)[2]
    'PROCEED'
    >>> t = "owner's earnings = -41.5 + 63.2 - 96.0 = \u221274.3"
    >>> computed_result(t, 0, len(t), bar)[2]
    'REJECT'
    >>> computed_result("owner earnings of 125", 0, 21, bar) is None
    True
    """
    cut = max(text.rfind("=", start, end), text.rfind("\u2248", start, end))
    if cut < 0:
        return None
    m = _RESULT.match(text, cut, end)
    if m is None:
        return None
    at = m.start("num")
    number = next(iter(scan_numbers(text, at, end, decimal_comma=decimal_comma)), None)
    if number is None or number.span[0] != at:
        return None
    value = Decimal(number.value)
    sign = m.group("sign")
    if sign is not None and value > 0:
        if sign == "(" and ")" not in text[number.span[1] : number.span[1] + 3]:
            return None  # "= (8.5 + 2g)": a bracket opening a formula, not an accounting negative
        value = -value
    zero = all(b.value == 0 for b in bars)
    if not zero:
        if _KINDS.get(number.kind) != bars[0].unit:
            return None
    for bar in bars:
        got = bar.verdict(value)
        if len(bars) == 1 or got == bar.holds:
            return m.start("num") if sign is None else m.start("sign"), number.span[1], got
    return None
