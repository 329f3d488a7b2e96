"""The appraisal lexicon: words a writer closes a criterion with in prose, read from data (issue 13; paper §7.5).

The lexicon is ``grammar/appraisals.yaml`` (schema ``grammar/appraisals.schema.json``), shipped with the package and
read through :mod:`importlib.resources`: common entries for every card, and a card's own entries under ``cards``
(card id -> entries of plain phrases), tried before the common ones. :mod:`._prose` reads a clause's appraisal with
:func:`lexicon_for`. Each entry has a polarity (PROCEED or REJECT; HIGH or LOW: read with the gate's direction) and
a condition (``always``; ``monotone``: only for a gate whose card declares one direction; ``watch``: only for a gate
with a ``reject`` test and no ``proceed`` test, one that watches for a warning sign, where "flagged" means the sign is
there). A file that breaks the schema, or a pattern that is not a valid regular expression, raises
:class:`ipb.errors.LoadError` with the file, line and column.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import jsonschema
from ipb.engine._json import _schema_errors
from ipb.engine._yaml import YamlDoc, load_yaml

from ipb.errors import ErrorGroup, IpbError, LoadError

__all__ = ["ALWAYS", "HIGH", "LOW", "MONOTONE", "WATCH", "Appraisal", "Lexicon", "lexicon_for", "load_lexicon"]

#: Verdicts read with the gate's direction: the value is high (the direction a rising value moves toward) or low.
HIGH, LOW = "HIGH", "LOW"
#: When an entry is read: always; only for a gate with one declared direction; only for a gate that watches for a sign.
ALWAYS, MONOTONE, WATCH = "always", "monotone", "watch"
#: The most alternatives the lexicon may hold in all (a bound on the compiled pattern; the shipped file has about 140).
MAX_ALTERNATIVES = 2000

_FILE = "appraisals.yaml"


@dataclass(frozen=True)
class Appraisal:
    """One lexicon entry: what it appraises, its polarity (PROCEED, REJECT, HIGH, LOW) and when it is read."""

    about: str
    verdict: str
    when: str = ALWAYS


@dataclass(frozen=True)
class Lexicon:
    """The compiled lexicon for one card: ``regex`` has one named group ``a<i>`` per entry ``entries[i]``, word
    boundaries at both ends, case-insensitive."""

    regex: re.Pattern[str]
    entries: tuple[Appraisal, ...]

    def entry(self, match: re.Match[str]) -> Appraisal:
        """The entry a match of :attr:`regex` came from."""
        name = match.lastgroup
        assert name is not None
        return self.entries[int(name[1:])]


@dataclass(frozen=True)
class _Entry:
    appraisal: Appraisal
    alternatives: tuple[str, ...]


def _phrase_pattern(phrase: str) -> str:
    r"""A plain phrase as a pattern: a space matches any run of spaces, a hyphen a hyphen or spaces.

    >>> print(_phrase_pattern("well-covered  dividend"))
    well[\s-]+covered\s+dividend
    """
    out: list[str] = []
    for part in re.split(r"([ -]+)", phrase.strip().lower()):
        if not part:
            continue
        if not part.strip(" -"):
            out.append(r"[\s-]+" if "-" in part else r"\s+")
        else:
            out.append(re.escape(part))
    return "".join(out)


@lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    text = resources.files("ipb.grammar").joinpath("appraisals.schema.json").read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def _entries(doc: YamlDoc, path: tuple[Any, ...], raw: list[dict[str, Any]], errors: list[IpbError]) -> list[_Entry]:
    out: list[_Entry] = []
    for i, item in enumerate(raw):
        alternatives: list[str] = []
        for j, pattern in enumerate(item.get("patterns", [])):
            where = path + (i, "patterns", j)
            if "(?P" in pattern or re.search(r"\(\?[aiLmsux]", pattern):
                message = "a pattern may not name groups or set flags (the reader names each entry's group)"
            else:
                try:
                    re.compile(f"(?i)(?<![\\w-])(?:{pattern})(?![\\w-])")
                    alternatives.append(pattern)
                    continue
                except re.error as exc:
                    message = f"not a valid regular expression: {exc}"
            line, column = doc.locate(where)
            errors.append(LoadError(f"{message} (at {'/'.join(map(str, where))})", rule="appraisal-pattern", name=pattern)
                          .with_location(doc.file, line, column, doc.source_line(line)))
        alternatives += [_phrase_pattern(p) for p in item.get("phrases", [])]
        out.append(_Entry(Appraisal(item["about"], item["verdict"], item.get("when", ALWAYS)), tuple(alternatives)))
    return out


def load_lexicon(text: str, file: str = "<string>") -> tuple[list[_Entry], dict[str, list[_Entry]]]:
    """The common entries and each card's entries of an appraisal file (``grammar/appraisals.yaml`` format).

    Raises
    ------
    LoadError
        The text is not strict YAML, breaks the schema, or holds a pattern that does not compile (or names a group, or
        sets a flag); every problem is reported (an :class:`ipb.errors.ErrorGroup` when there are several), each with
        the file, line and column.
    """
    doc = load_yaml(text, file)
    # the one schema-error formatter of every file kind: located, an unknown field at its key with "did you mean"
    errors: list[IpbError] = _schema_errors(doc, jsonschema.Draft202012Validator(_schema()), "an appraisal")
    if errors:
        raise errors[0] if len(errors) == 1 else ErrorGroup(errors)
    common = _entries(doc, ("appraisals",), doc.data["appraisals"], errors)
    cards = {card: _entries(doc, ("cards", card), items, errors) for card, items in (doc.data.get("cards") or {}).items()}
    if sum(len(e.alternatives) for e in common) + sum(len(e.alternatives) for es in cards.values() for e in es) > MAX_ALTERNATIVES:
        errors.append(LoadError(f"more than {MAX_ALTERNATIVES} patterns and phrases in all", rule="appraisal-size")
                      .with_location(doc.file, 1, 1, doc.source_line(1)))
    if errors:
        raise errors[0] if len(errors) == 1 else ErrorGroup(errors)
    return common, cards


@lru_cache(maxsize=1)
def _shipped() -> tuple[list[_Entry], dict[str, list[_Entry]]]:
    text = resources.files("ipb.grammar").joinpath(_FILE).read_text(encoding="utf-8")
    return load_lexicon(text, f"ipb/grammar/{_FILE}")


def compile_lexicon(entries: list[_Entry]) -> Lexicon:
    """One pattern of the entries' alternatives, in order (the earlier entry wins at the same place)."""
    groups = [f"(?P<a{i}>{'|'.join(e.alternatives)})" for i, e in enumerate(entries)]
    regex = re.compile(r"(?i)(?<![\w-])(?:" + "|".join(groups) + r")(?![\w-])")
    return Lexicon(regex, tuple(e.appraisal for e in entries))


@lru_cache(maxsize=256)
def lexicon_for(card_id: str) -> Lexicon:
    """The compiled lexicon for ``card_id``: its own entries (``cards`` section) before the common ones; built once.

    >>> lex = lexicon_for("munger_business_quality_price")
    >>> m = lex.regex.search("the moat is not eroding")
    >>> m.group(0), lex.entry(m).verdict
    ('eroding', 'REJECT')
    """
    common, cards = _shipped()
    return compile_lexicon([*cards.get(card_id, []), *common])
