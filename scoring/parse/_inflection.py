"""Case and number endings of a gate name in a language that inflects it (issue 13, gate references; paper §7.5).

A translations sidecar (:mod:`ipb.engine.translations`) and ``grammar/gate_terms.yaml`` give a gate's names in their
dictionary form ("zadłużenie", "borç", "μέρισμα", "rozvaha"); a writer declines them: "poziom zadłużenia", "borcu
yüksek", "του μερίσματος", "v rozvaze". :mod:`._foreign_names` reads a long word with a changed last two letters and a
one-word Latin name with a plural or definite ending only, which misses the case endings of a short Slavic noun, a
Turkish suffix chain and a Greek accent that moves. A language's ``inflection`` block in ``grammar/languages.yaml``
says how its words decline, as data:

* ``drop``: final letters a word loses before an ending ("zadłużenie" -> "zadłużeni-a", "μέρισμα" -> "μέρισμ-ατος");
  the longest listed one that leaves a stem of three letters or more is dropped, and the whole word is a stem too;
* ``endings``: the endings a stem takes (none is an ending too: "dźwigni" is "dźwignia" less "a");
* ``alternations``: a stem's last letter -> the letter it becomes before an ending (Turkish "borç" -> "borc-u", Czech
  "rozvaha" -> "rozvaz-e");
* ``fold``: letters written with or without a mark that the name and the answer may differ in (Greek "ά" and "α": the
  accent moves as a word declines, "περιθώριο" -> "περιθωρίου"; Turkish "â" and "a": "kâr" is written "kar").

A name whose language has a block is matched as :mod:`._foreign_names` matches it *or* with each of its words of three
letters or more declined so; boundaries stay as there, so a name never matches inside a longer word that is not its
inflection ("borç" does not read "borçlu", whose "lu" is no listed ending).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Iterable, Mapping

from ipb.scoring._foreign_verdicts import bundled_section

__all__ = ["Inflection", "inflection", "declined", "folded", "stems"]

#: The shortest stem a word is declined from: shorter ones would read unrelated words.
_MIN_STEM = 3


class Inflection:
    """One language's inflection block, read: ``drop`` (longest first), ``endings`` (longest first), ``alternations``
    and ``fold`` (letter -> the letters it stands for, itself included)."""

    def __init__(self, block: Mapping[str, Any]) -> None:
        self.drop: tuple[str, ...] = tuple(sorted(block.get("drop", ()), key=len, reverse=True))
        self.endings: tuple[str, ...] = tuple(sorted(block.get("endings", ()), key=len, reverse=True))
        self.alternations: dict[str, str] = dict(block.get("alternations", {}))
        groups: dict[str, set[str]] = {}
        for marked, plain in block.get("fold", {}).items():
            group = groups.get(plain, {plain}) | groups.get(marked, {marked})
            for letter in group:
                groups[letter] = group
        self.fold: dict[str, str] = {k: "".join(sorted(v)) for k, v in groups.items()}


@lru_cache(maxsize=None)
def inflection(language: str) -> Inflection | None:
    """The bundled ``inflection`` block of ``language`` (``grammar/languages.yaml``), or None where it has none."""
    block = bundled_section("languages").get(language, {}).get("inflection")
    return Inflection(block) if block else None


def folded(text: str, rules: Iterable[Inflection]) -> str:
    """``text`` escaped for a regular expression, each letter that a rule's ``fold`` names matching its whole group.

    >>> folded("χρέος", [Inflection({"fold": {"έ": "ε"}})])
    'χρ[έε]ος'
    """
    groups: dict[str, str] = {}
    for rule in rules:
        for letter, group in rule.fold.items():
            groups[letter] = "".join(sorted(set(groups.get(letter, "")) | set(group)))
    return "".join(f"[{re.escape(groups[ch])}]" if ch in groups else re.escape(ch) for ch in text)


def stems(word: str, rule: Inflection) -> list[str]:
    """The stems ``rule`` declines ``word`` from: the word, less its longest ``drop`` ending, and each with its last letter
    alternated."""
    stems = [word]
    for ending in rule.drop:
        if word.endswith(ending) and len(word) - len(ending) >= _MIN_STEM:
            stems.append(word[: -len(ending)])
            break
    for stem in list(stems):
        alternate = rule.alternations.get(stem[-1])
        if alternate is not None:
            stems.append(stem[:-1] + alternate)
    return list(dict.fromkeys(stems))


def declined(word: str, rules: Iterable[Inflection]) -> str | None:
    """A regular expression (no boundaries, case-insensitive use) for ``word`` in the declined forms ``rules`` allow,
    or None where they allow none (a word shorter than three letters, or one holding no letter or a digit).

    >>> pl = Inflection({"drop": ["a", "e"], "endings": ["a", "u", "em", "ach"]})
    >>> p = re.compile("(?i)" + declined("zadłużenie", [pl]))
    >>> [bool(p.fullmatch(w)) for w in ("zadłużenie", "zadłużenia", "zadłużeniem", "zadłużeniach", "zadłużeniowy")]
    [True, True, True, True, False]
    >>> tr = Inflection({"endings": ["u", "ları"], "alternations": {"ç": "c"}})
    >>> p = re.compile("(?i)" + declined("borç", [tr]))
    >>> [bool(p.fullmatch(w)) for w in ("borç", "borcu", "borçları", "borçlu")]
    [True, True, True, False]
    """
    rules = list(rules)
    if len(word) < _MIN_STEM or any(ch.isdigit() for ch in word) or not word.isalpha():
        return None
    options = []
    for rule in rules:
        if not rule.endings:
            continue
        bases = "|".join(folded(s, rules) for s in stems(word, rule))
        endings = "|".join(folded(e, rules) for e in rule.endings)
        options.append(f"(?:{bases})(?:{endings})?")
    return "|".join(options) or None
