"""A holding put into the writer's portfolio or kept out of it, in every language of ``grammar/languages.yaml``: a
final verdict stated as an act (issue 13, "final verdicts in the wild", stop 43; paper §7.5).

Wild write-ups in any language close on what becomes of the holding rather than on a verdict word: "Ribamar entra en
la cartera modelo este mes", "kommt diese Woche ins Musterdepot", "se queda fuera de la cartera de este año",
"私の防御型ポートフォリオには入れないことにした", "我不会把它放进自己的防守组合", "Acme goes into the model portfolio". A
reader takes entering the portfolio as the pass outcome of a card that decides whether to enter a position, and
staying or going out of it as the fail outcome (also of a card whose fail outcome is to sell or divest).

The words are data, three lists of each language's ``acts`` block: ``portfolio`` (the nouns), ``into_portfolio`` (the
holding put in: "entra en", "ins", "放进", "組み入れ") and ``out_of_portfolio`` ("fuera de", "fliegt aus dem", "入れない").
One reading, the same in every language (:func:`move_at`): an act phrase and a portfolio noun in one clause, the phrase
right before the noun (at most :data:`GAP_WORDS` words between, or :data:`GAP_CHARS` characters of an unspaced script:
"entra en la cartera", "放进自己的防守组合") or right after it, as verb-final languages put it ("ポートフォリオには入れない",
"ins Musterdepot aufgenommen"). The English logic of :mod:`._acted` holds:

* **negation** turns the side over: a negator right after the phrase here, one before it (a word: "Ribamar no entra en
  la cartera"; a prefix negator of an unspaced script: 我不会把它放进) in ``consider``, as for every stated final;
* **conditions and questions** state nothing: a sentence opened by a conditional word of any language ("Si baja a 40 €,
  entra en la cartera") or closed by a question mark;
* **where**: only the answer's closing paragraph and final region are read (:meth:`._acted._ActedMixin._closing_matches`);
  :mod:`._final`'s ``consider`` still applies other voices, the past and labels, and any verdict word outranks it.

References
----------
Paper §7.5 (structured response parsing); issue 13.
"""

from __future__ import annotations

import re
from typing import Final

from ipb.scoring import _foreign_verdicts as fv
from ipb.scoring.parse._act_words import _blocks, phrase_key

__all__ = ["GAP_CHARS", "GAP_WORDS", "NOUN", "exits", "move_at"]


def _listed(key: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(phrase_key(w) for b in _blocks().values() for w in (b.get(key) or ())))


def _alternation(words: tuple[str, ...]) -> str:
    return "(?i:" + "|".join(fv.bounded(w) for w in sorted(words, key=len, reverse=True)) + ")" if words else "(?!)"


#: The portfolio nouns of every language ("cartera", "Musterdepot", "ポートフォリオ"), longest first.
NOUN: Final = re.compile(_alternation(_listed("portfolio")))
#: Act phrase -> side: 1 put into the portfolio, 0 kept or taken out (a phrase listed both ways reads out).
_SIDES: Final[dict[str, int]] = {**{w: 1 for w in _listed("into_portfolio")}, **{w: 0 for w in _listed("out_of_portfolio")}}
_ACT: Final = re.compile(_alternation(tuple(_SIDES)))
#: At most this many words between an act phrase and its noun ("entra en la cartera modelo": one, "la").
GAP_WORDS: Final = 3
#: At most this many characters of an unspaced script between them ("放进自己的防守组合": five; "ポートフォリオには入れない": two).
GAP_CHARS: Final = 8
#: Where a clause ends, in any script.
_CLAUSE_END: Final = re.compile("[.;:!?,\n\u3002\uff0c\uff1b\uff1a\uff01\uff1f\u3001\u2014\u2013]")
_SENTENCE_END: Final = re.compile("[.!?\n\u3002\uff01\uff1f]")
#: Negators of every language (``negators``) and English ones, and the Romance "no"/"non" that the shared list leaves out.
_NEGATORS: Final = fv.NEGATORS | frozenset({"not", "never", "no", "non", "ne", "n'"})
_CONDITIONALS: Final = fv.CONDITIONALS | frozenset({"if", "unless", "should", "when", "如果", "若", "もし", "만약", "ถ้า"})
_WORD: Final = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]*)?")
#: After the English holding nouns "position" and "stake" (s52parse: "we have added to the position"): what makes the noun
#: another thing's or a post ("the position of chief risk officer", "the position it held in the index") rather than the
#: analysed holding.
_NOT_A_HOLDING: Final = re.compile(r"(?i)[ \t]+(?:of|it|that|which|who|he|she|they|we|i|as)\b")


def exits(fail_outcome: str | None) -> bool:
    """Whether a card's fail outcome takes a holding out of the portfolio (SELL, DIVEST, EXIT_...), so that a holding
    put out of it states that outcome even where entering states none.

    >>> exits("DIVEST"), exits("SELL"), exits("DECLINE"), exits(None)
    (True, True, False, False)
    """
    return fail_outcome is not None and not {"SELL", "DIVEST", "EXIT", "EXCLUDE"}.isdisjoint(fail_outcome.split("_"))


def _gap_ok(gap: str) -> bool:
    """Whether the text between an act phrase and its noun is short enough: no clause end, at most :data:`GAP_WORDS`
    words, or at most :data:`GAP_CHARS` characters where it has no space (an unspaced script)."""
    if _CLAUSE_END.search(gap):
        return False
    stripped = gap.strip()
    if not stripped:
        return True
    if " " not in stripped and fv.unspaced(stripped):
        return len(stripped) <= GAP_CHARS
    return len(stripped.split()) <= GAP_WORDS


def _act_near(text: str, noun: re.Match[str]) -> re.Match[str] | None:
    """The act phrase of the noun's clause next to it: the nearest one before it, else the first one after it."""
    lo = noun.start() - 80
    for cut in _CLAUSE_END.finditer(text, max(0, lo), noun.start()):
        lo = cut.end()
    before = [m for m in _ACT.finditer(text, max(0, lo), noun.start()) if _gap_ok(text[m.end() : noun.start()])]
    if before:
        return before[-1]
    stop = _CLAUSE_END.search(text, noun.end(), noun.end() + 60)
    hi = stop.start() if stop else min(len(text), noun.end() + 60)
    for m in _ACT.finditer(text, noun.end(), hi):
        if _gap_ok(text[noun.end() : m.start()]):
            return m
        break
    return None


def _negated_after(text: str, end: int) -> bool:
    """Whether the first word after the act phrase ending at ``end`` is a negator ("kommt nicht ins ..." is listed
    whole; "entre pas dans" after a clitic): a negation before the phrase is :mod:`._final`'s ``consider``'s to apply,
    as for every stated final (a prefix negator of an unspaced script too: 我不会把它放进组合)."""
    after = _WORD.match(text, end + 1) if end < len(text) and text[end] in " \t" else None
    return after is not None and after.group().lower() in _NEGATORS


def _open(text: str, start: int) -> bool:
    """Whether the sentence holding ``start`` is a condition (opened by a conditional word of any language) or a
    question (closed by a question mark)."""
    lo = 0
    for cut in _SENTENCE_END.finditer(text, max(0, start - 300), start):
        lo = cut.end()
    head = text[lo:start].strip().lower()
    first = _WORD.match(head)
    if first is not None and first.group() in _CONDITIONALS or head.startswith(("如果", "若", "もし", "만약")):
        return True
    stop = _SENTENCE_END.search(text, start)
    return stop is not None and stop.group() in "?\uff1f"


def move_at(text: str, noun: re.Match[str]) -> tuple[int, int, int] | None:
    """``(start, end, side)`` of the holding put into (side 1) or out of (0) the portfolio that the noun match
    ``noun`` names, or None: no act phrase next to it in its clause, or its sentence a condition or a question. The
    side is the phrase's as written, turned over by a negator right after it; one before it is left to ``consider``.

    >>> t = "Conclusión: Ribamar entra en la cartera modelo este mes."
    >>> move_at(t, NOUN.search(t))[2]
    1
    >>> t = "Ribamar no entra en la cartera."
    >>> move_at(t, NOUN.search(t))[2], move_at("它放进自己的防守组合。", NOUN.search("它放进自己的防守组合。"))
    (0, (1, 10, 1))
    >>> t = "Si baja a 40 euros, entra en la cartera."
    >>> move_at(t, NOUN.search(t)) is None, move_at("La cartera sube un 5 %.", NOUN.search("La cartera sube un 5 %.")) is None
    (True, True)
    """
    if _NOT_A_HOLDING.match(text, noun.end()) is not None and noun.group().lower().endswith(("position", "stake")):
        return None  # "added to the position of chief risk officer", "leaves the position it held": not the holding
    act = _act_near(text, noun)
    if act is None or _open(text, act.start()):
        return None
    side = _SIDES.get(phrase_key(act.group()))
    if side is None:
        return None
    if _negated_after(text, act.end()):
        side = 1 - side
    return min(act.start(), noun.start()), max(act.end(), noun.end()), side
