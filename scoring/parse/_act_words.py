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
from importlib import resources
from typing import Any, Final

import jsonschema

from ipb.engine._json import _schema_errors
from ipb.engine._yaml import load_yaml
from ipb.errors import ErrorGroup, IpbError
from ipb.scoring import _foreign_verdicts as fv

__all__ = ["ACTS", "PREDICATES", "PHRASES", "PHRASE_SIDES", "KINDS", "load_acts", "phrase_key"]

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
    doc = load_yaml(text, file)
    errors: list[IpbError] = _schema_errors(doc, jsonschema.Draft202012Validator(fv._schema()), "a language vocabulary")
    if errors:
        raise errors[0] if len(errors) == 1 else ErrorGroup(errors)
    return dict(doc.data.get("acts") or {})


@lru_cache(maxsize=1)
def _blocks() -> dict[str, dict[str, Any]]:
    text = resources.files("ipb.grammar").joinpath("languages.yaml").read_text(encoding="utf-8")
    return load_acts(text, "ipb/grammar/languages.yaml")


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

#: One pattern for every phrase (longest first, so "wir lassen die finger davon" is read whole), searched in an answer's
#: closing only (:mod:`._acted`).
PHRASES: Final = re.compile("(?i:" + "|".join(fv.bounded(w) for w in sorted(PHRASE_SIDES, key=len, reverse=True)) + ")")

