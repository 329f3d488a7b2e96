"""Appraisals in other languages and closing marks, read in a gate's own section (issue 13; paper §7.5).

Wild analyses in other languages judge a criterion the way English ones do, in everyday words after its facts
("Base retenue : correcte.", "Bilanz: solide", "Segnale presente.", "負債は健全"), or close a list row with a mark
("2)財務状態 流動比率は2.4倍 ... 〇", "ここは×と言わざるを得ない"). The lexicon is ``grammar/appraisals_foreign.yaml``
(schema ``grammar/appraisals_foreign.schema.json``), shipped with the package and read through
:mod:`importlib.resources`: per language, entries of words with a polarity (PROCEED or REJECT) and a condition
(``always``, or ``watch``: only for a gate that watches for a warning sign, where "present" means the sign is there),
the language's words for "without", and (unspaced scripts) the endings that deny a word after it; and the marks that
stand for a verdict at the end of a row.

:mod:`._section_reading` calls :func:`foreign_appraisals` on each clause of a gate's section, beside the English
lexicon (:mod:`._appraisal_words`), so a verdict read here is hedged as every section reading is (confidence at most
``SECTION_CONFIDENCE``, 0.55, under the 0.7 review bar) and must agree with every other reading of the section.

Negation: a negator of ``grammar/languages.yaml`` (any language's ``negators``: "nicht", "pas", "não", "non") or a
``without`` word ("sans", "sem", "ohne") among the three words before a spaced-script word flips it ("n'est pas
chère" PROCEED, "sem nenhuma premissa heroica" PROCEED); in an unspaced script a prefix negator touching it (不, 没,
:func:`ipb.scoring._foreign_verdicts.negated_by_prefix`) or a ``negated_after`` ending right after it ("割安ではない",
"비싸지 않다") does. A file that breaks the schema raises :class:`ipb.errors.LoadError` with the file, line and column.
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
from ipb.engine._yaml import load_yaml

from ipb.errors import ErrorGroup, LoadError
from ipb.scoring._foreign_verdicts import NEGATORS, bounded, fold_dotted_i, negated_by_prefix, unspaced

__all__ = ["ForeignLexicon", "foreign_appraisals", "in_english", "load_foreign_lexicon", "mark_verdicts"]

_FILE = "appraisals_foreign.yaml"
PROCEED, REJECT, INCONCLUSIVE = "PROCEED", "REJECT", "INCONCLUSIVE"
#: How many words before a spaced-script appraisal a negator may stand ("n'est vraiment pas chère").
NEGATOR_REACH = 3
#: How many words before a spaced-script appraisal a word opening a cause may stand ("gracias a unas cuentas sólidas").
CAUSE_REACH = 4


@dataclass(frozen=True)
class ForeignLexicon:
    """The compiled lexicon: ``regex`` has one named group ``a<i>`` per entry ``entries[i]`` (verdict, when), longest
    words first; ``without`` the words that deny a spaced word after them; ``after`` the pattern of the endings that
    deny an unspaced word before them; ``contrast`` the pattern of the words that weigh what follows them; ``marks``
    mark -> verdict; ``cause`` the words that open a cause, which an appraisal after them serves (not read)."""

    regex: re.Pattern[str]
    entries: tuple[tuple[str, str], ...]
    without: frozenset[str]
    after: re.Pattern[str]
    contrast: re.Pattern[str]
    marks: dict[str, str]
    cause: frozenset[str] = frozenset()


@lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    text = resources.files("ipb.grammar").joinpath("appraisals_foreign.schema.json").read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def load_foreign_lexicon(text: str, file: str = "<string>") -> ForeignLexicon:
    """The compiled lexicon of a file in ``grammar/appraisals_foreign.yaml`` format.

    Raises
    ------
    LoadError
        The text is not strict YAML or breaks the schema; every problem is reported (an :class:`ipb.errors.ErrorGroup`
        when there are several), each with the file, line and column.

    Examples
    --------
    >>> lex = load_foreign_lexicon("version: 1\\nlanguages:\\n  fr:\\n    name: French\\n    appraisals:\\n"
    ...                            "      - {about: sound, verdict: PROCEED, words: [solide]}\\n")
    >>> lex.regex.search("Bilan : solide.").group(0)
    'solide'
    """
    doc = load_yaml(text, file)
    errors = _schema_errors(doc, jsonschema.Draft202012Validator(_schema()), "a foreign appraisal")
    if errors:
        raise errors[0] if len(errors) == 1 else ErrorGroup(errors)
    entries: list[tuple[str, str]] = []
    groups: list[str] = []
    without: set[str] = set()
    after: set[str] = set()
    contrast: set[str] = set()
    cause: set[str] = set()
    for language in doc.data["languages"].values():
        cause.update(w.lower() for w in language.get("cause", []))
        without.update(w.lower() for w in language.get("without", []))
        contrast.update(bounded(w.lower()) for w in language.get("contrast", []))
        after.update(language.get("negated_after", []))
        for item in language["appraisals"]:
            words = sorted({w.lower() for w in item["words"]}, key=len, reverse=True)
            groups.append(f"(?P<a{len(entries)}>{'|'.join(bounded(w) for w in words)})")
            entries.append((item["verdict"], item.get("when", "always")))
    # at one place the longest word wins ("trop cher" over "cher", "不合理" over "合理"): the alternation is tried in
    # order, so each group's words are sorted longest first and a word never starts inside a longer one of an earlier
    # group that matched there (finditer moves past a match)
    regex = re.compile("(?i)" + "|".join(groups)) if groups else re.compile(r"(?!)")
    ending = "|".join(map(re.escape, sorted(after, key=len, reverse=True)))
    marks = {m: verdict for verdict, items in (doc.data.get("marks") or {}).items() for m in items}
    contrasts = "|".join(sorted(contrast, key=len, reverse=True))
    return ForeignLexicon(regex, tuple(entries), frozenset(without), re.compile(ending) if ending else re.compile(r"(?!)"),
                          re.compile("(?i)" + contrasts) if contrasts else re.compile(r"(?!)"), marks, frozenset(cause))


@lru_cache(maxsize=1)
def shipped() -> ForeignLexicon:
    """The lexicon shipped as ``grammar/appraisals_foreign.yaml`` (read once)."""
    text = resources.files("ipb.grammar").joinpath(_FILE).read_text(encoding="utf-8")
    # folded as the answer is (Turkish dotless "ı" as "i"; no other language writes the two letters)
    return load_foreign_lexicon(fold_dotted_i(text), f"ipb/grammar/{_FILE}")


_WORD = re.compile(r"[^\W\d_][\w'\u2019-]*")
#: What ends the clause before an appraisal for its negators: a stop or a comma ("ni cher, ni ..." keeps its own).
_STOP = re.compile(r"[.;:!?,\n\u3002\uff0c\u3001]")


def _words_before(text: str, start: int, s: int, reach: int = NEGATOR_REACH) -> list[str]:
    """The last ``reach`` words (lower case) of the clause before ``s`` (not before ``start``)."""
    before = text[max(start, s - 60) : s]
    stop = None
    for stop in _STOP.finditer(before):
        pass
    if stop is not None:
        before = before[stop.end() :]
    return [w.lower() for w in _WORD.findall(before)][-reach:]


def _negated(text: str, start: int, s: int, e: int, word: str, lex: ForeignLexicon) -> bool:
    """Whether the appraisal ``text[s:e]`` is denied (module docstring)."""
    if unspaced(word):
        return negated_by_prefix(text[start:s]) or lex.after.match(text, e) is not None
    return any(w in NEGATORS or w in lex.without for w in _words_before(text, start, s))


def _a_cause(text: str, start: int, s: int, word: str, lex: ForeignLexicon) -> bool:
    """Whether the spaced appraisal at ``s`` stands in a cause ("durch schwache Zahlen", "à cause de la dette
    excessive"): one of the words of :attr:`ForeignLexicon.cause` among the :data:`CAUSE_REACH` before it in its
    clause."""
    return not unspaced(word) and any(w in lex.cause for w in _words_before(text, start, s, CAUSE_REACH))


def _flip(verdict: str) -> str:
    return REJECT if verdict == PROCEED else PROCEED


#: English words that make up a good share of any English text: an answer in English is not read for the spaced words
#: of other languages, some of which are English words too ("correct": "no drift to correct"; "acceptable", "solid").
_ENGLISH = frozenset("the and is are was were of to with this that it we i for but not be has have at on".split())
#: The share of an answer's words that are :data:`_ENGLISH` above which it is read as written in English.
ENGLISH_SHARE = 0.06


def in_english(text: str) -> bool:
    """Whether ``text`` (lower case) is written in English: at least :data:`ENGLISH_SHARE` of its words are common
    English words (:data:`_ENGLISH`).

    >>> in_english("nothing is outside the band, so there is no drift to correct.")
    True
    >>> in_english("base retenue : correcte. le titre n'est pas cher, mais il n'offre aucun coussin.")
    False
    """
    words = _WORD.findall(text)
    return bool(words) and sum(w in _ENGLISH for w in words) >= ENGLISH_SHARE * len(words)


def foreign_appraisals(text: str, start: int, end: int, watch: bool, lexicon: ForeignLexicon | None = None,
                       spaced: bool = True) -> list[tuple[int, int, str]]:
    """(start, end, verdict) of the appraisals of the foreign lexicon in ``text[start:end]`` (a clause), negation
    applied; entries for a gate that watches for a warning sign are read only when ``watch``; words of a spaced script
    only when ``spaced`` (the caller passes False for an answer written in English: :func:`in_english`).

    Examples
    --------
    >>> s = "Base retenue : correcte. L'action n'est pas chère."
    >>> [(s[a:b], v) for a, b, v in foreign_appraisals(s.lower(), 0, len(s), False)]
    [('correcte', 'PROCEED'), ('chère', 'PROCEED')]
    >>> s = "alto, ma non ancora da bolla: segnale assente"
    >>> [(s[a:b], v) for a, b, v in foreign_appraisals(s, 0, len(s), True)]
    [('segnale assente', 'PROCEED')]
    >>> foreign_appraisals(s, 0, len(s), False)
    []
    >>> s = "l'action n'est pas chère, mais elle n'offre pas le coussin que graham exigeait"
    >>> [(s[a:b], v) for a, b, v in foreign_appraisals(s, 0, len(s), False)]
    [('coussin', 'REJECT')]
    >>> s = "der kurs fällt seit monaten durch schwache zahlen. die bilanz bleibt solide."
    >>> [(s[a:b], v) for a, b, v in foreign_appraisals(s, 0, len(s), False)]
    [('solide', 'PROCEED')]
    >>> s = "株価は割安ではない。財務は健全。"
    >>> [(s[a:b], v) for a, b, v in foreign_appraisals(s, 0, len(s), False)]
    [('割安', 'REJECT'), ('健全', 'PROCEED')]
    """
    lex = lexicon if lexicon is not None else shipped()
    out: list[tuple[int, int, str]] = []
    for m in lex.regex.finditer(text, start, end):
        name = m.lastgroup
        assert name is not None
        verdict, when = lex.entries[int(name[1:])]
        if when == "watch" and not watch or not spaced and not unspaced(m.group(0)):
            continue
        if _a_cause(text, start, m.start(), m.group(0), lex):
            continue
        if _negated(text, start, m.start(), m.end(), m.group(0), lex):
            verdict = _flip(verdict)
        out.append((m.start(), m.end(), verdict))
    return _after_contrast(text, out, lex)


def _after_contrast(text: str, said: list[tuple[int, int, str]], lex: ForeignLexicon) -> list[tuple[int, int, str]]:
    """``said`` less the appraisals before the last contrast word that stands between two opposite ones ("pas chère,
    mais ... n'offre pas le coussin": the later one is the writer's); without one, two opposite appraisals stay (the
    section then reads no verdict: a mixed view)."""
    if len({v for _, _, v in said}) < 2:
        return said
    last = said[-1]
    before = max(e for _, e, v in said if v != last[2])
    cut = None
    for cut in lex.contrast.finditer(text, before, last[0]):
        pass
    return said if cut is None else [x for x in said if x[0] >= cut.end()]


#: Kanji numerals: a mark between them is a digit (〇 in "二〇二四年").
_NUMERALS = "零〇一二三四五六七八九十百千万"


def mark_verdicts(text: str, start: int, end: int, lexicon: ForeignLexicon | None = None) -> list[tuple[int, int, str]]:
    """(start, end, verdict) of the closing marks in ``text[start:end]``: a mark of the lexicon's ``marks`` that ends its
    line, row or sentence ("... 〇", "| × |", "〇。") or is quoted ("ここは×と言わざるを得ない"), with no letter or digit
    touching it before ("12.8×1.62", "3 × 5", "x×y" and the kanji zero of "二〇二四" are no marks).

    >>> s = "2)財務状態 流動比率は2.4倍。〇\\n5)利益の成長 ここは×と言わざるを得ない。PER 12.8×1.62=20.7"
    >>> [(s[a:b], v) for a, b, v in mark_verdicts(s, 0, len(s))]
    [('〇', 'PROCEED'), ('×', 'REJECT')]
    """
    lex = lexicon if lexicon is not None else shipped()
    out: list[tuple[int, int, str]] = []
    for i in range(start, end):
        verdict = lex.marks.get(text[i])
        if verdict is None:
            continue
        j = i - 1
        while j >= start and text[j] in " \t":
            j -= 1
        if j >= 0 and (text[j].isascii() and text[j].isalnum() or text[j] in _NUMERALS or text[j].isdigit()):
            continue
        k = i + 1
        while k < len(text) and text[k] in " \t*_":
            k += 1
        if k >= len(text) or text[k] in "\n\u3002.|)\uff09;\uff1b" or text[k] == "\u3068":
            out.append((i, i + 1, verdict))
    return out
