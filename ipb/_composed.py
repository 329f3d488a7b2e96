"""Composed Unicode (NFC) with a map back to the text as written.

A file saved in decomposed form (NFD, as macOS file systems and some editors write it) spells "é" as "e" followed
by U+0301 COMBINING ACUTE ACCENT. Every word list, gate name and alias the project compares against is composed
(NFC), so a decomposed "Sécurité" matches nothing. :func:`compose` rewrites a text in NFC and keeps, for every
sequence it changed, where that sequence sits in both texts, so an offset into the composed text can be taken back to
the text as written (:meth:`Composed.span`, :meth:`Composed.offset`).

The text is cut into runs that NFC rewrites independently: a run is one character followed by every character that
can change under NFC beside the one before it (a mark with a nonzero combining class, a character whose NFC form
differs from itself, the second half of a canonical composition: Hangul vowel and final jamo, a few Indic vowel
signs). Outside the runs NFC changes nothing, and NFC of the whole text is the runs' NFC forms joined with the text
between them. A span taken back starts at the first character of the run it starts in and ends after the last
character of the run it ends in, so a span edge never falls inside a combining sequence.

Only canonical composition is applied, never compatibility (NFKC): NFKC would read "10²" as "102", "½" as "1⁄2" and
the ligature "ﬁ" as two letters. The parser makes its own same-length folds for the compatibility forms answers carry
(full-width ASCII letters and digits, no-break and typographic spaces: :func:`ipb.scoring._text.plain_spacing`).

This module is part of the base: the card loader (engine) and the response parser (scoring) both use it.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Composed", "compose", "nfc"]

#: Highest code point examined when the class of characters that can change under NFC is built: planes 0-2 hold
#: every character with a canonical decomposition or a nonzero combining class (planes 3-16 hold none in Unicode 15).
_LAST_EXAMINED = 0x2FFFF
#: Hangul vowel (V) and trailing consonant (T) jamo: they compose with the syllable or jamo before them by the
#: algorithm of Unicode §3.12, which the decomposition table does not list.
_HANGUL_V_T = ((0x1161, 0x1175), (0x11A8, 0x11C2))


def _ranges(codes: list[int]) -> str:
    """A regex character class body for the sorted code points ``codes`` (consecutive ones as ranges)."""
    out: list[str] = []
    k = 0
    while k < len(codes):
        j = k
        while j + 1 < len(codes) and codes[j + 1] == codes[j] + 1:
            j += 1
        first, last = re.escape(chr(codes[k])), re.escape(chr(codes[j]))
        out.append(first if j == k else f"{first}-{last}")
        k = j + 1
    return "".join(out)


@lru_cache(maxsize=1)
def _run_pattern() -> re.Pattern[str]:
    """A character followed by characters that can change under NFC beside it, or one character NFC rewrites.

    Built on first need from :mod:`unicodedata` (about 0.03 s of CPU; only a text that is not already NFC needs it), so it
    follows the Unicode version of the running Python.
    """
    followers: set[int] = set()
    rewritten: set[int] = set()
    for cp in range(_LAST_EXAMINED + 1):
        ch = chr(cp)
        if unicodedata.combining(ch):
            followers.add(cp)
        decomposition = unicodedata.decomposition(ch)
        if decomposition and not decomposition.startswith("<"):
            parts = [int(p, 16) for p in decomposition.split()]
            if len(parts) == 2:
                followers.add(parts[1])  # a second half with combining class 0 (U+0B3E, U+0CD5...) composes too
            if unicodedata.normalize("NFC", ch) != ch:
                rewritten.add(cp)
                if unicodedata.combining(chr(parts[0])) or parts[0] in followers:
                    followers.add(cp)  # rewritten into a sequence that opens with a mark (U+0344)
    for first, last in _HANGUL_V_T:
        followers.update(range(first, last + 1))
    mark = _ranges(sorted(followers))
    return re.compile(f"(?s).[{mark}]+|[{_ranges(sorted(rewritten))}]")


@dataclass(frozen=True)
class Composed:
    """A text in NFC (``text``) and the runs that differ from the text as written (``original``).

    ``runs`` holds ``(start in text, end in text, start in original, end in original)`` for every run NFC changed,
    in order. Empty when ``original`` was already NFC (then ``text is original``).
    """

    text: str
    original: str
    runs: tuple[tuple[int, int, int, int], ...] = ()

    def offset(self, at: int, *, end: bool = False) -> int:
        """Offset in ``original`` of offset ``at`` of ``text``.

        Inside a changed run, a start (``end`` false) goes to the run's first character as written and an end
        (``end`` true) to just after its last one; an end at a run's start stays before the run.

        >>> c = compose("Se\\u0301curite\\u0301 ok")
        >>> c.text, c.offset(1), c.offset(2, end=True), c.offset(2), c.offset(8, end=True), c.offset(9)
        ('Sécurité ok', 1, 3, 3, 10, 11)
        """
        if not self.runs:
            return at
        k = bisect_right(self._starts, at - 1 if end else at) - 1
        if k < 0:
            return at
        start, stop, o_start, o_stop = self.runs[k]
        if end:
            return o_stop if at <= stop else at + o_stop - stop
        return o_start if at < stop else at + o_stop - stop

    def span(self, span: tuple[int, int]) -> tuple[int, int]:
        """``span`` of ``text`` as a span of ``original`` that covers every run it touches (empty stays empty).

        >>> c = compose("Gate 1 \\u2014 Se\\u0301curite\\u0301: PASS")
        >>> s = c.text.index("Sécurité")
        >>> c.original[slice(*c.span((s, s + 8)))] == "Se\\u0301curite\\u0301"
        True
        """
        a, b = span
        if b <= a:
            at = self.offset(a)
            return (at, at)
        return (self.offset(a), self.offset(b, end=True))

    @property
    def _starts(self) -> list[int]:
        starts = self.__dict__.get("_starts_cache")
        if starts is None:
            starts = [r[0] for r in self.runs]
            object.__setattr__(self, "_starts_cache", starts)
        return starts


def compose(text: str) -> Composed:
    """``text`` in NFC with the map back to it (see the module docstring).

    Linear in ``len(text)``; a text already in NFC (checked by :func:`unicodedata.is_normalized`, in C) is returned
    as it is, with no map.

    >>> compose("cafe\\u0301").text == "café"
    True
    >>> compose("plain").runs
    ()
    >>> compose("a\\u0301o\\u0301b\\u0301").runs  # no precomposed b with an acute: that run stays as written
    ((0, 1, 0, 2), (1, 2, 2, 4))
    """
    if unicodedata.is_normalized("NFC", text):
        return Composed(text, text)
    parts: list[str] = []
    runs: list[tuple[int, int, int, int]] = []
    last = length = 0
    for m in _run_pattern().finditer(text):
        written = m.group()
        composed = unicodedata.normalize("NFC", written)
        if composed == written:
            continue
        parts.append(text[last : m.start()])
        length += m.start() - last
        runs.append((length, length + len(composed), m.start(), m.end()))
        parts.append(composed)
        length += len(composed)
        last = m.end()
    parts.append(text[last:])
    return Composed("".join(parts), text, tuple(runs))


def nfc(text: str) -> str:
    """``text`` in NFC (Unicode canonical composition), the form every name and word list is compared in.

    >>> nfc("Se\\u0301curite\\u0301") == "Sécurité"
    True
    """
    return text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)
