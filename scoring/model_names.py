"""Model names that print alike: surrounding spaces, invisible characters and Latin look-alikes (s52break item 8).

A leaderboard row is one model name, so "gold", "gold " and "g\u043eld" (a Cyrillic o) were three rows that a
terminal or a report prints the same. :func:`given_model` strips the surrounding whitespace (the record keeps the
name as given in ``model_as_given``); :func:`model_name_warnings` says which records were stripped and which
remaining names differ only by invisible or look-alike characters. Those stay separate rows (two clients may
really be two models), but the summary's ``model_name_warnings`` and the terminal say so.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["given_model", "model_name_warnings", "skeleton"]

#: Letters of other scripts that print like a Latin letter in common fonts -> that letter. A small hand-made
#: table of the Cyrillic and Greek look-alikes (the ones a model name is likely to meet), not the whole of
#: Unicode's confusables data; NFKC already folds full-width forms, ligatures and mathematical letters.
_LOOKALIKE: dict[str, str] = {
    # Cyrillic small
    "\u0430": "a", "\u0441": "c", "\u0501": "d", "\u0435": "e", "\u04bb": "h", "\u0456": "i", "\u0458": "j",
    "\u043e": "o", "\u0440": "p", "\u051b": "q", "\u0455": "s", "\u0443": "y", "\u0445": "x", "\u051d": "w",
    # Cyrillic capital
    "\u0410": "A", "\u0412": "B", "\u0421": "C", "\u0415": "E", "\u041d": "H", "\u0406": "I", "\u0408": "J",
    "\u041a": "K", "\u041c": "M", "\u041e": "O", "\u0420": "P", "\u0405": "S", "\u0422": "T", "\u0425": "X",
    "\u0423": "Y",
    # Greek small and capital
    "\u03bf": "o", "\u03b1": "a", "\u03bd": "v", "\u03c1": "p", "\u03b9": "i", "\u03ba": "k", "\u03c4": "t",
    "\u0391": "A", "\u0392": "B", "\u0395": "E", "\u0396": "Z", "\u0397": "H", "\u0399": "I", "\u039a": "K",
    "\u039c": "M", "\u039d": "N", "\u039f": "O", "\u03a1": "P", "\u03a4": "T", "\u03a5": "Y", "\u03a7": "X",
    # Latin letters that read as others
    "\u0131": "i", "\u0261": "g",
}


def given_model(value: str) -> str:
    """The model name scored for ``value`` as the record gives it: surrounding whitespace removed.

    >>> given_model(" gold\\t"), given_model("gold")
    ('gold', 'gold')
    """
    return value.strip()


def skeleton(name: str) -> str:
    """What ``name`` looks like: NFKC-normalized, invisible (format, Cf) characters dropped, each look-alike letter
    of :data:`_LOOKALIKE` replaced by its Latin twin. Two names with one skeleton print alike.

    >>> skeleton("g\\u043eld") == skeleton("gold") == skeleton("go\\u200bld") == skeleton("\\uff47old")
    True
    >>> skeleton("Gold") == skeleton("gold")
    False
    """
    folded = unicodedata.normalize("NFKC", name)
    return "".join(_LOOKALIKE.get(ch, ch) for ch in folded if unicodedata.category(ch) != "Cf")


def _spelled(name: str) -> str:
    """``name`` with every non-ASCII character shown as its code point and Unicode name, so two look-alikes differ."""
    odd = [f"U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed')}" for ch in dict.fromkeys(name) if not ch.isascii()]
    return ascii(name) + (f" ({', '.join(odd)})" if odd else "")


def _record_list(places: list[str], shown: int = 5) -> str:
    more = f" and {len(places) - shown} more" if len(places) > shown else ""
    return ", ".join(places[:shown]) + more


def model_name_warnings(records: Iterable[Mapping[str, Any]]) -> list[str]:
    """Warnings about the model names of score records (or their summary views), in a fixed order.

    One per model name that some records gave with surrounding whitespace (naming those records by source and
    record number), then one per group of two or more names with one :func:`skeleton`. Empty when neither happens.

    >>> w = model_name_warnings([{"model": "gold", "model_as_given": "gold ", "source": "r.jsonl:2"},
    ...                          {"model": "g\u043eld", "source": "r.jsonl:3"}, {"model": "gold"}])
    >>> w[0]
    "the model name of 1 record(s) had surrounding spaces, removed: scored as 'gold' (r.jsonl:2)"
    >>> print(w[1].split(" print alike")[0])
    model names 'gold' and 'g\\u043eld' (U+043E CYRILLIC SMALL LETTER O)
    """
    stripped: dict[str, list[str]] = defaultdict(list)
    by_look: dict[str, set[str]] = defaultdict(set)
    for r in records:
        model = r.get("model")
        if not isinstance(model, str):
            continue
        if isinstance(r.get("model_as_given"), str):
            stripped[model].append(str(r.get("source") or f"record {r.get('record')}"))
        by_look[skeleton(model)].add(model)
    out = [f"the model name of {len(places)} record(s) had surrounding spaces, removed: scored as {ascii(model)} "
           f"({_record_list(places)})" for model, places in sorted(stripped.items())]
    for names in sorted((sorted(n) for n in by_look.values() if len(n) > 1)):
        out.append("model names " + " and ".join(_spelled(n) for n in names) + " print alike but differ (look-alike "
                   "or invisible characters): they are scored as separate leaderboard rows; fix the records if they "
                   "are one model")
    return out
