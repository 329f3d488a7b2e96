"""The words of final verdicts stated in the writer's own wording, per language: the ``acts`` section of
``grammar/languages.yaml`` (issue 13, "final verdicts in the wild"; paper §7.5).

A writer closes "we own it", "idea shelved", "wir steigen ein", "nous passons notre tour", "继续观望" instead of naming
the card's outcome. Each language's block lists acts for the card's pass outcome (``enter``), its fail outcome
(``leave``), its HOLD outcome (``keep``), keeping the subject on a watch list (``watch``: the fail outcome of a decision
to act now) and decision predicates of approval and rejection (``approved``, ``rejected``). Where ``object_after`` is
true (English) an act word is a verb whose object must follow it ("hold Spinwell", "buy it"): those words form
:data:`ACTS` and :data:`PREDICATES`, read by :mod:`._acted` with their object. In the other languages each entry is a
whole phrase that states the decision itself: :data:`PHRASE_SIDES` maps each to its side, and :data:`PHRASES`
finds them.

References
----------
Paper §7.5 (structured response parsing); issue 13.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Final

from ipb.scoring import _foreign_verdicts as fv

__all__ = ["ACTS", "ANSWERS", "PREDICATES", "PHRASES", "PHRASE_SIDES", "KINDS", "load_acts", "phrase_key", "phrase_reading"]

#: The kinds of act a block lists, in file order.
KINDS: Final = ("enter", "leave", "keep", "watch", "approved", "rejected")


def load_acts(text: str, file: str = "<string>") -> dict[str, dict[str, Any]]:
    """The ``acts`` blocks of a vocabulary file (``grammar/languages.yaml`` format): language code -> block.

    Raises
    ------
    LoadError
        The text is not strict YAML or breaks the schema ``grammar/languages.schema.json``; every problem is reported
        (an :class:`ipb.errors.ErrorGroup` when there are several), each with the file, line and column.

    >>> load_acts("version: 1\\nlanguages: {de: {name: German}}\\nacts: {de: {watch: [abwarten]}}")
    {'de': {'watch': ['abwarten']}}
    """
    return fv.load_section(text, file, "acts")


@lru_cache(maxsize=1)
def _blocks() -> dict[str, dict[str, Any]]:
    return fv.bundled_section("acts")


def _words(kind: str, object_after: bool) -> tuple[str, ...]:
    return tuple(dict.fromkeys(w for b in _blocks().values() if bool(b.get("object_after")) == object_after for w in b.get(kind) or ()))


#: Act verbs whose object follows (English), by the side they take: 1 the card's pass outcome (enter or keep), 0 its
#: fail outcome (refuse or leave), "HOLD" the card's HOLD outcome (only on a card that has one).
ACTS: Final[dict[int | str, tuple[str, ...]]] = {1: _words("enter", True), 0: _words("leave", True), "HOLD": _words("keep", True)}

#: Decision predicates of the same languages (participles, also simple past of the active voice): 1 approval, 0 rejection.
PREDICATES: Final[dict[int, tuple[str, ...]]] = {1: _words("approved", True), 0: _words("rejected", True)}


def phrase_key(phrase: str) -> str:
    """A matched phrase as :data:`PHRASE_SIDES` keys it: lower case, one space between words, ``’`` as ``'``.

    >>> phrase_key("Wir  steigen\\nEIN"), phrase_key("j’achète")
    ('wir steigen ein', "j'achète")
    """
    return " ".join(phrase.lower().replace("\u2019", "'").split())


#: Whole phrases of the other languages -> their kind (:data:`KINDS`): "wir steigen ein" -> "enter", "继续观望" -> "watch".
#: A phrase listed under two kinds keeps the first.
PHRASE_SIDES: Final[dict[str, str]] = {}
for _kind in KINDS:
    for _w in _words(_kind, False):
        PHRASE_SIDES.setdefault(phrase_key(_w), _kind)



def _clitic_alternation(clitics: tuple[str, ...]) -> str:
    """Clitics as a pattern: one ending on an apostrophe touches the next word ("n'", "l'"), any other is a word."""
    return "(?:" + "|".join(re.escape(c).replace("'", "['\u2019][ \t]*") if c.endswith("'") else re.escape(c) + "[ \t]+"
                            for c in clitics) + ")"


def _clitic_variant(phrase: str, clitics: tuple[str, ...], after: tuple[str, ...], objects: tuple[str, ...] = ()) -> str | None:
    """A pattern for ``phrase`` negated around its verb, French-style, or with an object pronoun before the verb: a
    clitic negator, an object clitic or both between its first word (the subject) and the second (the verb), a negator
    optionally after the verb ("nous achetons" -> "nous n'achetons pas", "nous l'achetons", "nous ne l'achetons pas";
    "nous passons notre tour" -> "nous ne passons pas notre tour"); None for a phrase of one word.

    >>> v = _clitic_variant("nous achetons", ("ne", "n'"), ("pas",), ("l'", "les"))
    >>> [bool(re.fullmatch(v or "", t)) for t in ("nous n’achetons pas", "nous l'achetons", "nous ne les achetons pas")]
    [True, True, True]
    """
    words = phrase.split()
    if len(words) < 2:
        return None
    clitic = _clitic_alternation(clitics) if clitics else ""
    if objects:
        clitic = f"(?:{clitic}{_clitic_alternation(objects)}?|{_clitic_alternation(objects)})" if clitic else _clitic_alternation(objects)
    negator = "(?:[ \t]+(?:" + "|".join(re.escape(a) for a in after) + "))?" if after else ""
    rest = "".join("[ \t]+" + re.escape(w).replace("'", "['\u2019]") for w in words[2:])
    return (r"\b" + re.escape(words[0]) + "[ \t]+" + clitic + re.escape(words[1]).replace("'", "['\u2019]") + negator + rest
            + r"(?![^\W_])")


#: Phrases of the languages that wrap the verb in a negation (``clitic_negators``, ``negators_after``: French "nous
#: n'achetons pas", "on ne reste pas à l'écart") or put an object pronoun before it (``object_clitics``: "nous l'achetons",
#: "nous ne l'achetons pas"), as patterns.
_NEGATED_PATTERNS: list[str] = []
for _block in _blocks().values():
    _clitics = tuple(_block.get("clitic_negators") or ())
    _objects = tuple(_block.get("object_clitics") or ())
    if not _clitics and not _objects:
        continue
    for _kind in KINDS:
        for _w in _block.get(_kind) or ():
            _variant = _clitic_variant(phrase_key(_w), _clitics, tuple(_block.get("negators_after") or ()), _objects)
            if _variant is not None:
                _NEGATED_PATTERNS.append(_variant)
_NEGATED_RE: Final = re.compile("(?i:" + "|".join(_NEGATED_PATTERNS) + ")") if _NEGATED_PATTERNS else None
_CLITIC_WORDS: Final = frozenset(phrase_key(w) for b in _blocks().values() for w in (b.get("clitic_negators") or ()))
_OBJECT_WORDS: Final = frozenset(phrase_key(w) for b in _blocks().values() for w in (b.get("object_clitics") or ()))
_AFTER_WORDS: Final = frozenset(phrase_key(w) for b in _blocks().values() for w in (b.get("negators_after") or ()))

#: One pattern for every phrase (longest first, so "wir lassen die finger davon" is read whole) and, first, every form
#: negated around the verb or with an object pronoun before it ("nous n'achetons pas", "nous l'achetons" read whole),
#: searched in an answer's closing only (:mod:`._acted`).
PHRASES: Final = re.compile("(?i:" + "|".join(_NEGATED_PATTERNS + [fv.bounded(w) for w in sorted(PHRASE_SIDES, key=len, reverse=True)]) + ")")


def phrase_reading(matched: str) -> tuple[str | None, bool]:
    """(kind, negated) of a phrase :data:`PHRASES` matched: its kind from :data:`PHRASE_SIDES`, or, for a form negated
    around the verb or with an object pronoun before it, the kind of the phrase without its clitics and negators, and
    whether a negator was among them.

    >>> phrase_reading("Nous achetons"), phrase_reading("nous n’achetons pas"), phrase_reading("on ne reste pas à l'écart")
    (('enter', False), ('enter', True), ('leave', True))
    >>> phrase_reading("nous ne l'achetons pas"), phrase_reading("Nous l’achetons")
    (('enter', True), ('enter', False))
    """
    key = phrase_key(matched)
    kind = PHRASE_SIDES.get(key)
    if kind is not None or _NEGATED_RE is None or _NEGATED_RE.fullmatch(matched) is None:
        return kind, False
    head, tail = key.split()[:3], key.split()[3:]  # (the clitics stand before the verb: "à l'écart" keeps its "l'")
    head_text = " ".join(head)
    for clitic in _CLITIC_WORDS | _OBJECT_WORDS:
        if clitic.endswith("'"):  # "nous n'achetons pas" -> nous, n', achetons, pas
            head_text = re.sub(r"(?<![^\W_])" + re.escape(clitic), clitic + " ", head_text)
    words = head_text.split() + tail
    kept, k, negated = words[:1], 1, False
    while k < len(words) - 1 and (words[k] in _CLITIC_WORDS or words[k] in _OBJECT_WORDS):
        negated = negated or words[k] in _CLITIC_WORDS
        k += 1
    kept.append(words[k] if k < len(words) else "")
    k += 1
    if k < len(words) and words[k] in _AFTER_WORDS:
        negated, k = True, k + 1
    return PHRASE_SIDES.get(" ".join(kept + words[k:])), negated


#: Answer particles of the other languages ("Nein,", "Non,", "Нет,"), from each block's ``answers``: opening a sentence
#: after a question they answer it, and the words after them are the answer (:func:`._closing.answer_particle_end`).
ANSWERS: Final[tuple[str, ...]] = tuple(dict.fromkeys(phrase_key(w) for b in _blocks().values() for w in (b.get("answers") or ())))

