"""Gate names in other languages as the parser reads them (issue 13; paper §7.5): patterns for the names of a card's
translations sidecar (:mod:`ipb.engine.translations`).

The names are read as the card's English aliases are (labels, headings, table rows, mentions; never by the embedding
fallback; ``how`` "translation", confidence as an alias), with two differences of script:

* in a spaced script (Latin, Cyrillic, Devanagari) a name is found on word boundaries, and each word of six letters or
  more may end differently in its last two letters (five letters: its last one), followed by up to four more
  letters: the cheap inflection tolerance a declined or plural name needs ("запас прочности" reads "запаса
  прочности", "ventaja competitiva" reads "ventajas competitivas"). A Latin word of four letters or fewer is matched
  as written; one of another script may change its last letter ("цена", "цены"). A name of one Latin word takes
  only a plural or definite ending (:data:`_LATIN_ENDINGS`: "Sicherheitsmarge" reads "Sicherheitsmargen",
  "risikobudsjett" reads "risikobudsjettet"), since its stem could be an English word's ("liquidità" is not
  "liquidity"). A boundary counts the combining marks of Devanagari (vowel signs, virama) and Latin (U+0300-U+036F)
  as letters, which Python's ``\\b`` does not;
* in an unspaced script (CJK ideographs, kana, hangul, Thai) a name is a substring, as the verdict words of those
  scripts are (``grammar/languages.yaml``); spaces inside it may be left out;
* in a script whose languages write particles onto the next word (Hebrew, Arabic: :mod:`ipb.scoring._proclitics`),
  each word of a name may follow one ("והחוב", "والمديونية", "הערך הפנימי"); the match starts at the name.
"""

from __future__ import annotations

import os
import re
from typing import Iterable

from ipb.scoring import _foreign_verdicts as _fv
from ipb.scoring import _proclitics
from ipb.scoring._foreign_verdicts import fold_dotted_i, unspaced
from ipb.scoring.parse._inflection import declined, folded, inflection, stems

__all__ = ["TRANSLATION", "foreign_name_pattern", "foreign_literal", "foreign_literals", "name_key"]

#: How a gate named by a name of its card's sidecar is recognised (``GateTrace.how``): as an alias is, with the same
#: confidence, but told apart where it matters that the parser reads only part of the answer's language
#: (:mod:`._positional`).
TRANSLATION = "translation"

#: One letter of a word, combining marks included (Latin combining diacritics, the Indic signs from Devanagari through
#: Sinhala; not a danda), as the verdict words read them (:data:`ipb.scoring._foreign_verdicts.MARK`).
_LETTER = rf"(?:[^\W\d_]|{_fv.MARK})"
_BEFORE = rf"(?<![^\W_])(?<!{_fv.MARK})"
_AFTER = rf"(?![^\W_])(?!{_fv.MARK})"


def name_key(name: str) -> str:
    """A name as the index keys it: lower case, single spaces.

    >>> name_key("  Margen de   Seguridad ")
    'margen de seguridad'
    """
    return " ".join(fold_dotted_i(name).lower().split())  # Turkish İ / ı as the answer is folded


#: Endings a one-word Latin-script name may take: plurals and the Scandinavian definite article.
_LATIN_ENDINGS = r"(?:s|es|n|en|e|er|r|et|ne|ene|erne|ta|te)?"


def _latin(word: str) -> bool:
    return all(ord(ch) < 0x250 for ch in word)


def _stem(word: str) -> tuple[str, int]:
    """(the part of ``word`` matched as written, how many letters may follow it): a word of six characters or more
    loses two, one of five loses one, one of four outside the Latin script loses one (and takes two), a shorter one
    or one holding a digit keeps all (and takes none).

    >>> _stem("прочности"), _stem("marge"), _stem("biên"), _stem("цена")
    (('прочнос', 4), ('marg', 3), ('biên', 0), ('цен', 2))
    """
    if any(ch.isdigit() for ch in word) or not any(ch.isalpha() for ch in word):
        return word, 0
    if len(word) >= 6:
        return word[:-2], 4
    if len(word) == 5:
        return word[:-1], 3
    if len(word) == 4 and not _latin(word):
        return word[:-1], 2  # a short Cyrillic or Devanagari noun declines too: "цена", "цены", "цену"
    return word, 0


def foreign_literal(name: str, languages: Iterable[str] = ()) -> str:
    """The lower-case text every match of the name starts with (the scan looks for it before trying the pattern);
    ``languages`` as :func:`foreign_name_pattern`'s, whose declined stems and folded letters shorten it.

    >>> foreign_literal("Запас прочности"), foreign_literal("安全 边际")
    ('запа', '安全')
    """
    key = name_key(name)
    if unspaced(key):
        return key.split()[0]
    if " " not in key and _latin(key):
        literal = key
    else:
        literal = _stem(key.split()[0])[0]
    rules = [r for r in (inflection(code) for code in languages) if r is not None]
    if rules and declined(key.split()[0], rules):
        first = key.split()[0]
        literal = os.path.commonprefix([literal, *(s for r in rules for s in stems(first, r))])
        marked = [k for k, ch in enumerate(literal) if any(ch in r.fold for r in rules)]
        literal = literal[: marked[0]] if marked else literal
    return literal or key[:1]


def foreign_literals(name: str, languages: Iterable[str] = ()) -> tuple[str, ...]:
    """The literals the scan looks for ``name`` by: :func:`foreign_literal`, or, where a fold of its languages cuts that
    under three letters (Greek folds every accented vowel: "διαθέσιμα" starts "δ"), every spelling of the first word's
    first three letters with its folded letters (at most 32; else the short literal).

    The scan finds a literal under three letters only where a word is that short (its word-prefix index holds three
    letters), so a short literal would miss the name; three letters in every spelling do not.

    >>> from ipb.scoring.parse._inflection import Inflection
    >>> sorted(foreign_literals("χρέος", ()))
    ['χρέος']
    """
    literal = foreign_literal(name, languages)
    key = name_key(name)
    first = key.split()[0] if key else ""
    rules = [r for r in (inflection(code) for code in languages) if r is not None]
    if len(literal) >= 3 or not rules or len(first) < 4 or unspaced(key):
        return (literal,)
    spellings = [""]
    for ch in first[:3]:
        group = {ch} | {g for r in rules for g in r.fold.get(ch, "")}
        spellings = [s + g for s in spellings for g in sorted(group)]
        if len(spellings) > 32:
            return (literal,)
    return tuple(spellings)


def foreign_name_pattern(name: str, languages: Iterable[str] = ()) -> str:
    """A regular expression (case-insensitive when compiled with ``(?i)``) that finds ``name`` in an answer;
    ``languages``: the codes the name is written in (a sidecar's or ``grammar/gate_terms.yaml``'s column), whose
    ``inflection`` blocks (:mod:`._inflection`) let each word of it take that language's endings too.

    >>> p = re.compile("(?i)" + foreign_name_pattern("запас прочности"))
    >>> [m.group(0) for m in p.finditer("Запаса прочности нет; запасной план")]
    ['Запаса прочности']
    >>> bool(re.search(foreign_name_pattern("安全边际"), "本公司的安全边际不足"))
    True
    >>> bool(re.search(foreign_name_pattern("सुरक्षा मार्जिन"), "सुरक्षा मार्जिन: विफल"))
    True
    >>> bool(re.search(foreign_name_pattern("मूल्य"), "मूल्यांकन"))
    False
    >>> [bool(re.search(foreign_name_pattern("liquidità"), t)) for t in ("la liquidità", "liquidity")]
    [True, False]
    >>> [m.group(0) for m in re.finditer(foreign_name_pattern("ערך פנימי"), "הערך הפנימי גבוה; ערך פנימי")]
    ['ערך הפנימי', 'ערך פנימי']
    >>> [bool(re.search(foreign_name_pattern("مديونية"), t)) for t in ("والمديونية مرتفعة", "امديونية")]
    [True, False]
    """
    words = name_key(name).split()
    if unspaced(name_key(name)):
        return r"\s*".join(re.escape(w) for w in words)
    rules = [r for r in (inflection(code) for code in languages) if r is not None]
    if len(words) == 1 and _latin(words[0]):
        plain = folded(words[0], rules) + _LATIN_ENDINGS
        other = declined(words[0], rules)
        return _BEFORE + (f"(?:{plain}|{other})" if other else plain) + _AFTER
    parts = []
    for i, word in enumerate(words):
        stem, tail = _stem(word)
        plain = folded(stem, rules) + (f"{_LETTER}{{0,{tail}}}" if tail else "")
        other = declined(word, rules)
        parts.append((_proclitics.optional(word) if i else "") + (f"(?:{plain}|{other})" if other else plain))
    before = _proclitics.edge(words[0]) if _proclitics.attaches(words[0]) else _BEFORE
    return before + r"[ \t\u00a0]+".join(parts) + _AFTER
