"""Gate numbers written in other languages: "Puerta 2", "Schritt 4", "Critère n° 3", "第2关", "第三步", "ゲート1", "3단계"
(issue 13, gate detection; paper §7.3 gate terms, §7.5 structured response parsing).

ipb's prompts ask for "Gate N: verdict"; a model answering in the user's language numbers the gates with its own noun.
The nouns are data, the ``gate_words`` and ``gate_frames`` of ``grammar/languages.yaml``
(:data:`ipb.scoring._foreign_verdicts.GATE_NOUNS`, :data:`~ipb.scoring._foreign_verdicts.GATE_FRAMES`), so a user adds a
language by adding words:

* a **gate word** stands before its number, as "Gate" does: "Puerta 2", "Kriterium Nr. 3", "ゲート1", "게이트 3";
* a **frame** writes the number inside or before the noun: "第{n}关" reads "第2关" and "第二关", "{n}단계" reads "3단계";
* an **ordinal** (``ordinals``; or a word for "last", ``last``) next to a gate noun, before or after it, names the gate of
  that place: "el primer filtro" gate 1, "tiêu chí thứ hai" gate 2, "세 번째 기준" gate 3, "la dernière étape" the card's
  last gate (the noun may take the endings its script's names take: "Kriteriums", "критерия").

A number is digits or, in a frame or after a word of an unspaced script, Chinese numerals up to 99 ("第十二关"). Unlike
English "Gate 7" on a five-gate card (an invented gate, FM-1), a foreign number past the card's gate count is read as
no gate at all: "Paso 7" may be a step of the writer's own working, and a word list must not invent gates.
"""

from __future__ import annotations

import re
from typing import Final, Iterator

from ipb.scoring import _foreign_verdicts as _fv
from ipb.scoring._scan import LazyPattern
from ipb.scoring._text import Trigger
from ipb.scoring.parse._common import MAX_OCCURRENCES
from ipb.scoring.parse._foreign_names import foreign_name_pattern
from ipb.scoring.parse._state import _ParserState

__all__ = ["foreign_gate_numbers", "strip_foreign_number", "ideographic_number"]

_DIGITS = r"\d{1,3}"
_IDEOGRAPHS = "零〇一二两兩三四五六七八九十"
#: A number in digits or Chinese numerals ("第十二关").
_NUMBER = rf"(?P<n>{_DIGITS}|[{_IDEOGRAPHS}]{{1,3}})"
#: The number marks written between a noun and its number: "Critère n° 2", "Kriterium Nr. 3", "Paso nº 4", "Шаг № 1".
_MARK = r"(?:(?:n[º°o]|n\.[º°o]|nr\.?|no\.|#|№)[ \t]*)?"
#: What may not follow the number: more digits, a decimal, a percentage ("Schritt 4,5 %" is no gate number).
_NOT_A_FIGURE = r"(?![\d%]|[.,]\d)"
_BLANK = r"[ \t\u3000]*"


def ideographic_number(text: str) -> int | None:
    """``text`` (digits or Chinese numerals below 100) as an int; None when it is neither.

    >>> [ideographic_number(t) for t in ("3", "三", "十", "十二", "二十", "二十一", "两", "x")]
    [3, 3, 10, 12, 20, 21, 2, None]
    """
    if text.isdigit():
        return int(text)
    digit = {c: k for k, c in enumerate("零一二三四五六七八九")} | {"〇": 0, "两": 2, "兩": 2}
    if not text or any(c not in digit and c != "十" for c in text):
        return None
    if "十" not in text:
        return digit[text] if len(text) == 1 else None
    tens, _, ones = text.partition("十")
    if len(tens) > 1 or len(ones) > 1:
        return None
    return (digit[tens] if tens else 1) * 10 + (digit[ones] if ones else 0)


def _body(word: str) -> str:
    return _BLANK.join(re.escape(w) for w in word.split())


def _noun_pattern(word: str) -> re.Pattern[str]:
    number = _NUMBER if _fv.unspaced(word) else rf"(?P<n>{_DIGITS})"
    return re.compile(rf"(?i){_body(word)}{_BLANK}{_MARK}{number}{_NOT_A_FIGURE}")


def _frame_pattern(frame: str) -> tuple[str, str, re.Pattern[str]]:
    before, _, after = frame.partition("{n}")
    return before, after, re.compile(rf"(?i){_body(before)}{_BLANK}{_NUMBER}{_BLANK}{_body(after)}")


#: (literal, pattern, key): key -1 for a gate word, else the frame's index in :data:`_FRAMES`.
_FRAMES: Final = tuple(_frame_pattern(f) for f in _fv.GATE_FRAMES)
_TRIGGERS: Final[list[Trigger]] = [
    *(Trigger(w.split()[0].lower(), _noun_pattern(w), -1, word=not _fv.unspaced(w)) for w in _fv.GATE_NOUNS),
    # a frame with a head ("第{n}关") is found by its head; one that starts with the number ("{n}단계") by its tail
    *(Trigger((before or after).lower(), pattern if before else re.compile(re.escape(after)), k, word=False)
      for k, (before, after, pattern) in enumerate(_FRAMES)),
]

#: Ordinal word (lower case, no spaces) -> its place; 0 for a word meaning "last" (the card's last gate).
_ORDINAL_OF: Final[dict[str, int]] = {w.lower().replace(" ", ""): k for w, k in _fv.ORDINALS} | {
    w.lower().replace(" ", ""): 0 for w in _fv.LAST_WORDS}


def _edged(word: str) -> str:
    """``word`` as written in a pattern: on the word edges of its script when it is spaced, anywhere when it is not."""
    return _body(word) if _fv.unspaced(word) else _fv.edged(_body(word), word)


def _noun(word: str) -> str:
    """A gate noun next to an ordinal, with the endings its script's names may take ("Kriteriums", "критерия")."""
    return _body(word) if _fv.unspaced(word) else foreign_name_pattern(word)


_ORDINAL_WORDS: Final = sorted({w for w, _ in _fv.ORDINALS} | set(_fv.LAST_WORDS), key=len, reverse=True)
_ORDINAL_ANY: Final = "(?:" + "|".join(_edged(w) for w in _ORDINAL_WORDS) + ")"
_ORDINAL: Final = f"(?P<o>{_ORDINAL_ANY})"
_NOUNS: Final = "(?:" + "|".join(_noun(w) for w in sorted(_fv.GATE_NOUNS, key=len, reverse=True)) + ")"
#: Keys of the ordinal triggers: the ordinal before its noun ("el primer filtro", "세 번째 기준") or after it ("tiêu chí
#: thứ hai").
_ORDINAL_FIRST, _NOUN_FIRST = 1000, 1001
if _ORDINAL_WORDS and _fv.GATE_NOUNS:
    # each order's pattern (every ordinal beside every gate noun) compiled at its first match: most answers meet none
    _ORDINAL_THEN_NOUN = LazyPattern(rf"(?i){_ORDINAL}{_BLANK}{_NOUNS}", ("o",))
    _NOUN_THEN_ORDINAL = LazyPattern(rf"(?i){_NOUNS}{_BLANK}{_ORDINAL}", ("o",))
    _TRIGGERS.extend(Trigger(w.split()[0].lower(), _ORDINAL_THEN_NOUN, _ORDINAL_FIRST, word=not _fv.unspaced(w))
                     for w in _ORDINAL_WORDS)
    _TRIGGERS.extend(Trigger(w.split()[0].lower(), _NOUN_THEN_ORDINAL, _NOUN_FIRST, word=not _fv.unspaced(w))
                     for w in _fv.GATE_NOUNS)

#: The number right before a frame's tail ("3단계", "3 단계").
_NUMBER_BEFORE: Final = re.compile(rf"(?<!\d){_NUMBER}{_BLANK}\Z")

#: The source of a label's head that numbers it in another language ("Puerta 1 - ", "第1关 ", "ゲート2："), stripped as
#: "Gate 1 - " is; compiled at its first use (:func:`_head`): its 170,000 characters took about 0.7 s to compile, paid by
#: every process that imported the parser, as scoring/_scan.py's ``LazyPattern`` does for merged trigger alternations.
_HEAD_SOURCE: Final = (
    r"(?i)^[ \t]*(?:" + "|".join(
        [rf"{_body(w)}{_BLANK}{_MARK}(?:{_DIGITS}|[{_IDEOGRAPHS}]{{1,3}})" for w in sorted(_fv.GATE_NOUNS, key=len, reverse=True)]
        + [rf"{_body(b)}{_BLANK}(?:{_DIGITS}|[{_IDEOGRAPHS}]{{1,3}}){_BLANK}{_body(a)}" for b, a, _ in _FRAMES]
        + ([rf"{_ORDINAL_ANY}{_BLANK}{_NOUNS}", rf"{_NOUNS}{_BLANK}{_ORDINAL_ANY}"] if _ORDINAL_WORDS and _fv.GATE_NOUNS else [])
    ) + r")[ \t\u3000]*[:：.)\-\u2013\u2014]*[ \t\u3000]*"
) if _fv.GATE_NOUNS or _FRAMES else None
_HEAD: "re.Pattern[str] | None" = None


def _head() -> "re.Pattern[str] | None":
    """The compiled :data:`_HEAD_SOURCE`, compiled at the first call (None where no language names a gate noun)."""
    global _HEAD
    if _HEAD is None and _HEAD_SOURCE is not None:
        _HEAD = re.compile(_HEAD_SOURCE)
    return _HEAD


def strip_foreign_number(label: str) -> str:
    """``label`` without a gate-number head of another language ("Puerta 1 - Foso económico" -> "Foso económico").

    >>> strip_foreign_number("Puerta 1 - Foso económico"), strip_foreign_number("第2关 股息保护"), strip_foreign_number("Moat")
    ('Foso económico', '股息保护', 'Moat')
    """
    head = _head()
    return head.sub("", label, count=1) if head is not None else label


def foreign_gate_numbers(state: _ParserState) -> Iterator[tuple[int, int, int]]:
    """``(start, end, number)`` of every gate number the answer writes in another language, in scan order.

    ``start:end`` spans the noun and its number ("Puerta 2", "第2关", "3단계") or its ordinal ("el primer filtro"; "last"
    is the card's gate count); the number may lie past the card's gates (the caller reads those as no gate).
    """
    masked = state.masked
    for key, m in state._scan(_TRIGGERS, limit=MAX_OCCURRENCES):
        if key in (_ORDINAL_FIRST, _NOUN_FIRST):
            k = _ORDINAL_OF.get("".join(m.group("o").lower().split()))
            if k is not None:
                yield m.start(), m.end(), k or len(state.card.gates)
            continue
        if key < 0 or _FRAMES[key][0]:
            k = ideographic_number(m.group("n"))
            if k is not None:
                yield m.start(), m.end(), k
            continue
        head = max(0, m.start() - 8)
        before = _NUMBER_BEFORE.search(masked[head : m.start()])
        k = ideographic_number(before.group("n")) if before is not None else None
        if before is not None and k is not None and not (before.start() == 0 and head and masked[head - 1].isdigit()):
            yield head + before.start(), m.end(), k
