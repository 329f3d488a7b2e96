"""Particles written onto the next word, for matching names in Hebrew and Arabic (issue 13; paper §7.5).

Hebrew writes "and", "the", "in", "to", "from", "that" and "as" as one-letter prefixes of the word they govern (ו, ה, ב,
ל, מ, ש, כ: "והחוב", and the debt); Arabic writes its article and "and", "so", "with", "for", "like" so (ال, و, ف, ب, ل,
ك: "والمديونية", and the indebtedness). A gate's name or key noun ("חוב", "مديونية") then stands inside a longer
"word", where a word boundary before it finds nothing. The particles are data: each language of
``grammar/languages.yaml`` may list its ``proclitics`` (single particles and the usual stacks of them, "וה", "وال"),
and a name whose first letter is of the same script may follow one (:func:`edge`); each later word of a name may
carry one too (:func:`optional`: "ערך פנימי" reads "הערך הפנימי", "قيمة جوهرية" reads "القيمة الجوهرية").

Only names are matched so (the translations sidecar's names and the key nouns of ``grammar/gate_terms.yaml``); the
match starts at the name, the particle is left before it. Verdict and appraisal words are not: there a particle makes
other words too often (Hebrew "ביקרה", visited, holds "יקרה", dear; "החזקה", the holding, holds "חזקה", strong).
Scripts whose languages list no particles keep their plain word boundary.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Final

from ipb.scoring._foreign_verdicts import bundled_section

__all__ = ["proclitics", "attaches", "edge", "optional"]

#: A letter boundary before a word: no letter or digit right before it.
_BOUNDARY: Final = r"(?<![^\W_])"


def _script(ch: str) -> str:
    """The script of a letter as Unicode names it ("HEBREW", "ARABIC", "LATIN"); "" for none."""
    return unicodedata.name(ch, "").split(" ")[0]


@lru_cache(maxsize=1)
def _by_script() -> dict[str, tuple[str, ...]]:
    """Script -> the proclitics of the languages written in it, longest first."""
    out: dict[str, set[str]] = {}
    for block in bundled_section("languages").values():
        for particle in block.get("proclitics") or ():
            out.setdefault(_script(particle[0]), set()).add(particle.lower())
    return {script: tuple(sorted(ps, key=lambda p: (-len(p), p))) for script, ps in out.items()}


def proclitics(word: str) -> tuple[str, ...]:
    """The particles that may be written onto ``word`` (those of its first letter's script), longest first.

    >>> proclitics("חוב")[:3], proclitics("debt")
    (('וכש', 'ושה', 'וב'), ())
    """
    first = next((ch for ch in word if ch.isalpha()), "")
    return _by_script().get(_script(first), ()) if first else ()


def attaches(word: str) -> bool:
    """Whether ``word`` may stand after a particle written onto it (:func:`proclitics`), so that its start is no word
    boundary.

    >>> attaches("מרווח ביטחון"), attaches("هامش الأمان"), attaches("Sicherheitsmarge"), attaches("सुरक्षा")
    (True, True, False, False)
    """
    return bool(proclitics(word))


def edge(word: str) -> str:
    """A lookbehind for the start of ``word``: a word boundary, or one of its particles after a word boundary.

    >>> p = re.compile(edge("חוב") + "חוב" + r"(?![^\\W_])")
    >>> [m.start() for m in p.finditer("חוב; והחוב; חובה; רחוב")]
    [0, 7]
    >>> edge("debt")
    '(?<![^\\\\W_])'
    """
    after = [rf"(?<={_BOUNDARY}{re.escape(p)})" for p in proclitics(word)]
    return f"(?:{_BOUNDARY}|{'|'.join(after)})" if after else _BOUNDARY


def optional(word: str) -> str:
    """An optional particle before a later word of a name: "" where ``word``'s script has none.

    >>> re.fullmatch(optional("جوهرية") + "جوهرية", "الجوهرية") is not None, optional("marge")
    (True, '')
    """
    ps = proclitics(word)
    return f"(?:{'|'.join(map(re.escape, ps))})?" if ps else ""
