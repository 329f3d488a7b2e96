"""Verdict words in other languages than English (issue 13, verdict words; paper §7.3, §7.5).

Models answer in the user's language: a Chinese checklist marks a criterion ``不符合`` (not met), a Portuguese one
``não atende``, a French one ``ne satisfait pas``, a Russian one ``не соответствует``, a Thai one ``ไม่ผ่าน``. The
words live in the vocabulary file ``grammar/languages.yaml`` (schema ``grammar/languages.schema.json``), one block per
language (German, French, Spanish, Portuguese, Italian, Norwegian, Danish, Swedish, Vietnamese, Russian, Chinese
simplified and traditional, Japanese, Korean, Thai), shipped with the package and read through
:mod:`importlib.resources`. This module turns the file into the tables the verdict vocabulary
(:mod:`ipb.scoring.verdict_words`) adds to its English words, for the same meanings: pass / fail, met / not met,
unclear, not applicable (gate verdicts), yes / no (answers to a gate's question), buy / avoid / hold (final verdicts,
through the synonym table), decision labels ("Fazit:", "结论：", "Вывод:"), the nouns that number gates ("Puerta 2",
"第2关": :mod:`ipb.scoring.parse._foreign_numbers`) and translated card outcomes ("INVERTIR", "不投资").

**Negation** is handled as for English. A language that writes its negator as a separate word (``nicht``, ``não``,
``не``, ``pas``, ``ikke``) lists it under ``negators`` (:data:`NEGATORS`), which the parser reads before a verdict
word exactly as it reads "not" ("nicht bestanden", "não atende", "не соответствует"). Its most common negated forms
are also entries of their own (so that a table cell "KHÔNG ĐẠT" reads as one word, and French "ne ... pas", whose
"pas" follows the verb, is read at all). A language written without spaces (Chinese, Japanese, Thai; Korean particles
attach to the word) negates by a prefix (``未通过``, ``不合格``, ``미충족``, ``ไม่ผ่าน``): the negated forms are tried
first at one place, and a scan takes the leftmost match, so ``未通过`` is read before the ``通过`` inside it.

**Word boundaries.** A word of a spaced language is matched on word boundaries, as English words are; a word of an
unspaced script (:func:`unspaced`) is matched anywhere (there are no boundaries to find), so only words that are
verdicts in any context are listed for those scripts, and a word's ``guards`` name the continuations that make it
another word (Thai ``ผ่านมา``, "the past", is not ``ผ่าน``, "passed"; Japanese ``売り上げ``, "sales", is not ``売り``,
"sell").

References
----------
Paper §7.3 (gate-level terminology), §7.5 (structured response parsing).
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from importlib import resources
from typing import Any, Final

import jsonschema

from ipb.engine._json import _schema_errors
from ipb.engine._yaml import load_yaml
from ipb.errors import ErrorGroup, IpbError

__all__ = ["GATE_WORDS", "WORD_VERDICTS", "HOLD_WORDS", "OUTCOME_WORDS", "GATE_NOUNS", "GATE_FRAMES", "ORDINALS", "LAST_WORDS", "REFUSAL_WORDS", "NEGATORS", "TRAILING_NEGATOR", "FINAL_WORDS", "YES_WORDS", "NO_WORDS", "LABELS",
           "LABEL_PATTERN", "LABEL_LITERALS", "label_finder", "LANGUAGES", "prefix_negated",
           "negated_by_prefix", "caseless_unlabelled", "UNSPACED_CHARS", "unspaced", "bounded", "edged", "MARK", "MARK_END", "guard", "load_languages", "fold_dotted_i"]

_FILE = "languages.yaml"

#: Characters of scripts written without spaces between words, as the inside of a character class: kana, CJK
#: ideographs (unified, extension A, compatibility), hangul syllables, Thai, Khmer (stop 50: "មិនអាចសន្និដ្ឋានបាន",
#: cannot be concluded, is one run with no space; its vowel signs are no word characters either), Lao (stop 52, the
#: block after Thai's: "ຄຳຕັດສິນສຸດທ້າຍ", final verdict, is one run) and Burmese (stop 52: "မဝယ်ဘူး", will not buy).
UNSPACED_CHARS: Final = "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_UNSPACED = re.compile(f"[{UNSPACED_CHARS}]")


#: Turkish capital dotted I and small dotless i, folded to the letters of other languages (length kept).
_DOTTED_I: Final = str.maketrans({"\u0130": "I", "\u0131": "i"})


def fold_dotted_i(text: str) -> str:
    """``text`` with Turkish capital dotted "İ" written "I" and small dotless "ı" written "i", one character for one.

    Python lower-cases "İ" to two characters ("i" and a combining dot), which breaks both matching and every offset
    after it, and "I" to "i" where Turkish reads "ı": "KARŞILANMIYOR".lower() is "karşilanmiyor", not the listed
    "karşılanmıyor". The parser folds the answer and the vocabulary file alike, so a Turkish word matches in any casing
    ("İYİ", "iyi"; "KARŞILANMIYOR", "karşılanmıyor") and no offset moves. Other languages do not use the two letters.

    >>> fold_dotted_i("İLK KRİTER KARŞILANMIYOR"), fold_dotted_i("karşılanmıyor"), len(fold_dotted_i("İ")), fold_dotted_i("Ilık")
    ('ILK KRITER KARŞILANMIYOR', 'karşilanmiyor', 1, 'Ilik')
    """
    return text.translate(_DOTTED_I)


def unspaced(word: str) -> bool:
    """Whether ``word`` is written in a script without spaces between words (so it has no word boundaries).

    >>> unspaced("通过"), unspaced("ไม่ผ่าน"), unspaced("bestanden"), unspaced("ĐẠT"), unspaced("не")
    (True, True, False, False, False)
    """
    return _UNSPACED.search(word) is not None


#: The mark of a frame in a word list: "fällt … durch", "besteht … test", "supera … prova" (a verb and its particle or
#: object, words between).
GAP: Final = "\u2026"
#: How many words may stand between a frame's parts.
GAP_WORDS: Final = 4


def _frame(word: str) -> str:
    r"""The pattern of a frame (a word list entry holding :data:`GAP`): its parts in order, up to :data:`GAP_WORDS`
    plain words between them (no figure, no punctuation, no negator: "fällt nicht durch" is no "fällt … durch"), the
    last part closing its clause (a clause end, or a negator and then one: "besteht den Test nicht.") or followed by
    a conjunction (``clause_joins``). A German separable verb puts its subject or an adverbial between the verb and its
    particle ("Das Unternehmen fällt bei der Bewertung klar durch"), a transitive verb of passing its object between
    the verb and the test ("Die Aktie besteht den Test nicht", "L'azienda non supera la prova").

    >>> p = re.compile(_frame("fällt … durch"), re.I)
    >>> bool(p.search("Das Unternehmen fällt bei der Bewertung klar durch.")), bool(p.search("fällt nicht durch."))
    (True, False)
    >>> bool(p.search("Der Kurs fällt seit Monaten durch schwache Zahlen."))
    False
    """
    t = _tables()
    negators = "|".join(map(re.escape, sorted(t["negators"], key=len, reverse=True)))
    joins = "|".join(map(re.escape, sorted(t["clause_joins"], key=len, reverse=True)))
    gap = rf"(?:\s+(?!(?:{negators})\b)[^\W\d_]+(?:['\u2019][^\W\d_]+)?){{0,{GAP_WORDS}}}?\s+"
    body = gap.join(_body(part.strip()) for part in word.split(GAP))
    return rf"{body}\b(?=(?:\s+(?:{negators}))?\s*(?:[.,;:!?)\n\u2014]|\Z)|\s+(?:{joins})\b)"


def _body(word: str) -> str:
    """``word`` escaped, a run of blanks for each space, ``'`` matching either apostrophe; a frame (:data:`GAP`) as
    :func:`_frame` reads it."""
    if GAP in word:
        return _frame(word)
    return r"\s+".join(re.escape(w) for w in word.split()).replace("'", "['\u2019]")


def bounded(word: str) -> str:
    r"""``word`` as a regular expression: escaped, spaces matching any run of blanks, on word boundaries unless it is
    written in an unspaced script, and followed by none of its :func:`guard` continuations.

    >>> bounded("nicht erfüllt"), bounded("未通过"), bounded("n'est pas rempli")
    ('\\bnicht\\s+erfüllt\\b', '未通过', "\\bn['’]est\\s+pas\\s+rempli\\b")
    >>> bounded("ผ่าน")
    'ผ่าน(?!มา|ทาง|ไป|พ้น)'
    """
    body = _body(word)
    return body + guard(word) if unspaced(word) else edged(body, word) + guard(word)


#: Combining marks: part of a word, though Python's ``\w`` (and so ``\b``) does not count them ("नहीं", Gujarati "નથી"
#: and Telugu "లేదు" end in a vowel sign, Yoruba "kọ̀" in a tone mark). Stop 49 widened the Devanagari signs to all.
#: Written as whole blocks (their letters and digits are word characters already, so counting them changes nothing;
#: the dandas U+0964-U+0965 stay out): the exact ranges of marks made every foreign trigger's class dozens of ranges
#: long, and compiling the scan's patterns cost seconds of each first parse (13.7 s for the whole BMP's marks).
#: Stop 50 joins the Indic blocks from the Devanagari digits through Sinhala into one range (Gurmukhi "ਨਹੀਂ" ends in a
#: bindi, Kannada "ಮುಂದುವರಿಯಿರಿ" and Sinhala "නොවේ" in vowel signs; Bengali, Oriya, Tamil and Malayalam come along at no
#: cost): three ranges where there were five. The zero-width joiner Sinhala writes inside "ප්‍ර" needs none: the parser
#: reads the answer without it (ipb.scoring.parse._invisible) and :func:`_bundled` the word lists alike.
_MARKS: Final = "\u0300-\u036f\u0900-\u0963\u0966-\u0dff"
#: The class of :data:`_MARKS` as patterns write it: case-sensitive inside a case-insensitive pattern (marks have no case),
#: as Python compiles a case-insensitive class by folding each of its characters, over a thousand in the Indic range,
#: once for every word that carries the class (stop 50: the class cost a first parse half a second more than this one).
MARK: Final = f"(?-i:[{_MARKS}])"
_HAS_MARK: Final = re.compile(f"[{_MARKS}]")
_DEVANAGARI: Final = re.compile("[\u0900-\u097f]")
#: The end of a word, a combining mark counted as a letter: Gujarati "નથી" (is not) and Marathi "नाही" end in a vowel sign,
#: after which ``\b`` finds no end, so a negator written after the word (``negators_after``) was never read there.
WORD_END: Final = rf"(?![^\W_])(?!{MARK})"
#: The end of a word that closes on a combining mark ("करें", "કરો"), where ``\b`` finds none: an alternative to it.
MARK_END: Final = rf"(?<={MARK})(?![^\W_])(?!{MARK})"


def edged(body: str, word: str) -> str:
    r"""``body`` (the pattern of a spaced-script ``word``) on word boundaries: ``\b``, or for a word that holds a
    combining mark (Devanagari, Gujarati and Telugu signs; a Yoruba tone), lookarounds that count the marks as letters.

    >>> edged("nicht", "nicht")
    '\\bnicht\\b'
    >>> bool(re.search(edged("नहीं", "नहीं"), "उत्तीर्ण नहीं है")), bool(re.search(edged("पूर", "पूर"), "पूरा"))
    (True, False)
    """
    if _HAS_MARK.search(word) is None and _DEVANAGARI.search(word) is None:
        return rf"\b{body}\b"
    return rf"(?<![^\W_])(?<!{MARK}){body}(?![^\W_])(?!{MARK})"


def guard(word: str) -> str:
    """The lookahead that keeps ``word`` from matching inside another word it begins; ``""`` when it needs none.

    >>> guard("ซื้อ"), guard("bestanden"), re.search("no pasa" + guard("no pasa"), "no pasa nada") is None
    ('(?!ขาย|คืน)', '', True)
    """
    after = _tables()["guards"].get(word.lower())
    if not after:
        return ""
    if not unspaced(word):  # a spaced word's continuation is the next word: "geht nicht hervor", "no pasa nada"
        return rf"(?![ \t]+(?:{'|'.join(map(re.escape, after))})\b)"
    return f"(?!{'|'.join(map(re.escape, after))})"


@lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    return json.loads(resources.files("ipb.grammar").joinpath("languages.schema.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def load_languages(text: str, file: str = "<string>") -> dict[str, dict[str, Any]]:
    """The language blocks of a vocabulary file (``grammar/languages.yaml`` format): code -> block.

    Raises
    ------
    LoadError
        The text is not strict YAML or breaks the schema (an unknown key gets a "did you mean"); every problem is
        reported (an :class:`ipb.errors.ErrorGroup` when there are several), each with the file, line and column.
    """
    return load_section(text, file, "languages")


def load_section(text: str, file: str, section: str) -> dict[str, dict[str, Any]]:
    """One top-level section of a vocabulary file (``languages``, ``acts``, ``attribution`` ...): code -> block.

    The whole file is checked against ``grammar/languages.schema.json`` first, so a section is never read from a file
    that breaks the schema elsewhere; a section the file leaves out is empty.

    Raises
    ------
    LoadError
        As :func:`load_languages`.

    >>> load_section("version: 1\\nlanguages: {de: {name: German}}", "<string>", "acts")
    {}
    """
    doc = load_yaml(text, file)
    errors: list[IpbError] = _schema_errors(doc, jsonschema.Draft202012Validator(_schema()), "a language vocabulary")
    if errors:
        raise errors[0] if len(errors) == 1 else ErrorGroup(errors)
    return dict(doc.data.get(section) or {})


#: The zero-width joiner and non-joiner: Sinhala writes one inside "ප්‍රතික්ෂේපිත" (rejected), Persian-script and Indic
#: words carry them too. The parser reads an answer with them taken out (ipb.scoring.parse._invisible), so a listed word
#: that holds one never matched (stop 50: Sinhala "ප්‍රතික්ෂේපිතයි" was read as no verdict).
_JOINERS: Final = re.compile("[\u200c\u200d]")


@lru_cache(maxsize=1)
def _bundled() -> tuple[str, str]:
    """The bundled ``grammar/languages.yaml``, folded as answers are (dotted I, no joiners), and its name for error
    messages."""
    text = resources.files("ipb.grammar").joinpath(_FILE).read_text(encoding="utf-8")
    return fold_dotted_i(_JOINERS.sub("", text)), f"ipb/grammar/{_FILE}"


@lru_cache(maxsize=None)
def bundled_section(section: str) -> dict[str, dict[str, Any]]:
    """One section of the bundled vocabulary (:func:`load_section`), read and checked once per section per process."""
    return load_section(*_bundled(), section)


#: Table order of the gate verdicts: negated forms before plain ones, as the scan tries them at one place.
_NEGATED_ORDER = ("REJECT", "N/A", "INCONCLUSIVE")
_PLAIN_ORDER = ("REJECT", "INCONCLUSIVE", "PROCEED")


#: Greek vowels with a tonos (or tonos and dialytika), in lower case.
_TONOS_LETTER = re.compile("[\u03ac\u03ad\u03ae\u03af\u03cc\u03cd\u03ce\u0390\u03b0]")
#: The tables whose words are also listed as Greek capitals write them (verdict, answer and final words).
_CAPS_KEYS = ("negated", "plain", "answer_yes", "answer_no", "buy", "avoid", "hold")


def caps_greek(word: str) -> str:
    """``word`` as Greek capitals write it, lower-cased: without its tonos. Greek drops the accent on capitals, so
    "ΔΕΝ ΕΞΕΤΑΖΕΤΑΙ" lower-cases to "δεν εξεταζεται", which the listed "δεν εξετάζεται" does not match; a dialytika
    stays ("ΐ" -> "ϊ").

    >>> caps_greek("απορρίπτεται")
    'απορριπτεται'
    """
    decomposed = unicodedata.normalize("NFD", word)
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if c != "\u0301"))


@lru_cache(maxsize=1)
def _tables() -> dict[str, Any]:
    """Every language's words merged per table, each word once, in file order."""
    blocks = bundled_section("languages")

    def merged(key: str, sub: str | None = None) -> tuple[str, ...]:
        words = (w for b in blocks.values() for w in ((b.get(key) or {}).get(sub) or () if sub else b.get(key) or ()))
        out: list[str] = []
        for w in words:
            out += [w] + ([w.replace("'", "\u2019")] if "'" in w and key in ("buy", "avoid") else [])
            if key in _CAPS_KEYS and _TONOS_LETTER.search(w):
                out.append(caps_greek(w))  # "ΑΠΟΡΡΙΠΤΕΤΑΙ" lower-cases to "απορριπτεται", no accent (s59groups)
        return tuple(dict.fromkeys(out))

    guards: dict[str, tuple[str, ...]] = {}  # a word two languages share ("passa", pt and it) keeps both lists
    for b in blocks.values():
        for w, after in (b.get("guards") or {}).items():
            guards[w.lower()] = tuple(dict.fromkeys(guards.get(w.lower(), ()) + tuple(after)))
    return {
        "negated": {v: merged("negated", v) for v in _NEGATED_ORDER},
        "plain": {v: merged("plain", v) for v in _PLAIN_ORDER},
        "guards": guards,
        "negators": merged("negators"), "prefix_negators": merged("prefix_negators"),
        "not_only": merged("not_only"), "appearance": merged("appearance"), "negators_after": merged("negators_after"), "clause_joins": merged("clause_joins"), "yes": merged("answer_yes"), "no": merged("answer_no"),
        "buy": merged("buy"), "avoid": merged("avoid"), "hold": merged("hold"),
        "labels": tuple(dict.fromkeys(merged("labels") + merged("final_labels"))), "final_labels": merged("final_labels"), "mistakes": merged("mistakes"),
        "refusals": merged("refusals"),
        "conditionals": merged("conditionals"),
        "names": tuple(b["name"] for b in blocks.values()),
        "gate_words": merged("gate_words"), "gate_frames": merged("gate_frames"),
        "ordinals": tuple(dict.fromkeys((w, k) for b in blocks.values() for k, ws in enumerate(b.get("ordinals") or (), 1) for w in ws)),
        "last": merged("last"),
        "outcomes": {o: tuple(dict.fromkeys(w for b in blocks.values() for w in (b.get("outcomes") or {}).get(o, ())))
                     for o in dict.fromkeys(o for b in blocks.values() for o in b.get("outcomes") or {})},
    }



#: A word that is also a verb of measure in running text ("lợi nhuận đạt 3.200 tỷ": profit reached 3,200bn; "erfüllt 14 %"):
#: not a verdict when a figure follows it.
_NOT_BEFORE_FIGURE = r"(?![ \t]*[-+$\u20ac\u00a3\u00a5]?\d)"


def _entry(words: tuple[str, ...], verdict: str, negatable: bool) -> tuple[str, str, bool, tuple[str, ...]]:
    pattern = "(?i:" + "|".join(bounded(w) for w in sorted(words, key=len, reverse=True)) + ")" + _NOT_BEFORE_FIGURE
    return pattern, verdict, negatable, tuple(dict.fromkeys(w.split()[0].lower() for w in words))


#: The gate-verdict words: (regular expression, verdict, whether it may be negated again, literals it starts with).
GATE_WORDS: Final[tuple[tuple[str, str, bool, tuple[str, ...]], ...]] = tuple(
    [_entry(words, verdict, False) for verdict, words in _tables()["negated"].items() if words]
    + [_entry(words, verdict, True) for verdict, words in _tables()["plain"].items() if words]
)

#: Every word of the two tables with its verdict, for tests and documentation.
WORD_VERDICTS: Final[tuple[tuple[str, str], ...]] = tuple(
    (w, v) for table in ("negated", "plain") for v, words in _tables()[table].items() for w in words)

#: Negators written as separate words, read before a verdict word as "not" is.
NEGATORS: Final = frozenset(_tables()["negators"])

#: Conjunctions that open another clause ("und", "aber", "weil"), every language's ``clause_joins``, lower case.
CLAUSE_JOINS: Final = frozenset(w.lower() for w in _tables()["clause_joins"])

#: Words right after a negator that make it no negation ("nicht nur erfüllt", "não só atende": not only meets).
NOT_ONLY: Final = frozenset(w.lower() for w in _tables()["not_only"])

#: Words that make a pass only apparent ("solo en apariencia", "nur auf dem Papier", "表面上": in appearance, on paper).
APPEARANCE: Final[tuple[str, ...]] = tuple(dict.fromkeys(w.lower() for w in _tables()["appearance"]))

#: Negators that follow the verdict verb they negate, within its clause ("erfüllt das Kriterium nicht", "oppfyller
#: selskapet ikke kravet", "uygun değil"): after a negatable verdict word, up to three words of the same clause
#: (no punctuation, no joining word of ``clause_joins`` such as "und", "aber", "weil") and then one of them, not
#: followed by a word of ``not_only`` ("erfüllt es nicht nur formal": not only), negate it as "not" before it does.
#: Matched at the end of the verdict word in the lower-cased text.
TRAILING_NEGATOR: Final = re.compile(
    r"(?:[ \t]+(?!(?:" + "|".join(map(re.escape, _tables()["clause_joins"] + _tables()["negators_after"])) + r")" + WORD_END + r")"
    r"[\w%'\u2019" + _MARKS + r"-]+){0,3}?"
    r"[ \t]+(?:" + "|".join(map(re.escape, _tables()["negators_after"])) + r")" + WORD_END +
    r"(?![ \t]+(?:" + "|".join(map(re.escape, sorted(NOT_ONLY))) + r")\b)") if _tables()["negators_after"] else re.compile(r"(?!)")

#: Answers to a gate's question ("Erfüllt? Ja", "¿Cumple? Sí", "是否符合:是").
YES_WORDS: Final[tuple[str, ...]] = _tables()["yes"]
NO_WORDS: Final[tuple[str, ...]] = _tables()["no"]

#: Final-verdict words (key 1: the card's pass outcome, 0: its fail outcome), as :data:`ipb.scoring.verdict_words.FINAL_SYNONYMS`.
#: HOLD words are left out there too (no outcome of a buy decision); they are the card's HOLD where it has one.
FINAL_WORDS: Final[dict[str, int]] = {**{w: 1 for w in _tables()["buy"]}, **{w: 0 for w in _tables()["avoid"]}}
#: Everyday words for HOLD on a card that has it as an outcome ("halten", "conserver", "持有").
HOLD_WORDS: Final[tuple[str, ...]] = _tables()["hold"]

#: Card outcome word -> its translations ("INVEST": invertir, investir, 投资; "DECLINE": no invertir, 不投资), read as the card's
#: own outcome words (:data:`ipb.scoring.verdict_words.OUTCOME_SYNONYMS`), so only on a card that has that outcome.
OUTCOME_WORDS: Final[dict[str, tuple[str, ...]]] = _tables()["outcomes"]

#: Nouns that number a gate as "Gate 3" does ("Puerta 2", "Schritt 4", "ゲート1", "게이트 3"), and the frames that write the
#: number inside or before the noun ("第{n}关", "{n}단계"); read by :mod:`ipb.scoring.parse._foreign_numbers`.
GATE_NOUNS: Final[tuple[str, ...]] = _tables()["gate_words"]
GATE_FRAMES: Final[tuple[str, ...]] = _tables()["gate_frames"]
#: Ordinal words with their number ("primer" 1, "zweite" 2, "третий" 3, "세 번째" 3) and words for "last" ("último",
#: "dernière", "最後の"): before or after a gate noun they name the card's gate of that place ("el primer filtro", "der
#: zweite Schritt", "tiêu chí thứ hai", "la dernière étape"; :mod:`ipb.scoring.parse._foreign_numbers`).
ORDINALS: Final[tuple[tuple[str, int], ...]] = _tables()["ordinals"]
LAST_WORDS: Final[tuple[str, ...]] = _tables()["last"]

#: Decision labels read as "Decision:" or "Recommendation:" ("Fazit:", "结论：", "Вывод:").
LABELS: Final[tuple[str, ...]] = _tables()["labels"]
#: :data:`LABELS` as one alternation (spaced ones on word boundaries).


def _label_branch(word: str) -> str:
    """One label's branch of :data:`LABEL_PATTERN`."""
    return (_body(word) if unspaced(word) else edged(_body(word), word)).replace(r"\s+", r"[ \t]+")


LABEL_PATTERN: Final = "(?:" + "|".join(_label_branch(w) for w in sorted(LABELS, key=len, reverse=True)) + ")"
#: The literal each label starts with (a long text is scanned for these).
LABEL_LITERALS: Final[tuple[str, ...]] = tuple(dict.fromkeys(w.split()[0].lower() for w in LABELS))


def _label_lead(word: str) -> str | None:
    """The first character a match of ``word``'s branch consumes (both apostrophes for one that starts with one, as
    :func:`_body` reads it), when the branch opens with it after zero-width checks only; None otherwise."""
    if GAP in word or not word.split():
        return None
    first = word.split()[0][0]
    lead = "['\u2019]" if first == "'" else re.escape(first)
    branch = _label_branch(word)
    openers = ("", r"\b", rf"(?<![^\W_])(?<!{MARK})")
    return (first + "\u2019" if first == "'" else first) if any(branch.startswith(o + lead) for o in openers) else None


@lru_cache(maxsize=1)
def label_finder() -> re.Pattern[str]:
    """:data:`LABEL_PATTERN`, case-insensitive, tried only where a label can start: its ``finditer`` gives the matches
    of ``re.finditer(LABEL_PATTERN, text, re.IGNORECASE)``, and is compiled once.

    Every branch of the alternation opens with zero-width checks (``\\b`` or lookarounds, :func:`edged`) and then the
    first character of its label, so a lookahead for the labels' first characters, in the same case-insensitive
    mode, refuses no match and changes none; it spares trying the alternation's hundreds of branches at every other
    position. The plain search cost about 25 us a character on a run of spaces (0.5 s of CPU for 20,000 after "All
    six gates", most of that answer's parse; s55split); this, about 0.05 us. Should a label's branch ever open
    otherwise (a frame), the lookahead is left off.
    """
    leads = [_label_lead(w) for w in LABELS]
    if any(lead is None for lead in leads):
        return re.compile(LABEL_PATTERN, re.IGNORECASE)
    firsts = sorted({c for lead in leads if lead is not None for c in lead})
    return re.compile("(?=[" + "".join(re.escape(c) for c in firsts) + "])" + LABEL_PATTERN, re.IGNORECASE)

#: Words that judge an act wrong ("error", "Fehler", "错误"; ``mistakes``): "comprar sería un error" refuses the act.
MISTAKES: Final[tuple[str, ...]] = _tables()["mistakes"]

#: Words a model declines the task with in the other languages ("ich kann keine", "je ne peux pas", "我无法";
#: ``refusals``): a short answer with no gate read that holds one is a refusal (:func:`ipb.scoring.outcome.is_refusal`).
REFUSAL_WORDS: Final[tuple[str, ...]] = _tables()["refusals"]

#: Decision labels naming the final decision ("Decisión final", "Endgültige Entscheidung", "最终决定"; ``final_labels``): also
#: in :data:`LABELS`, and final cues, as "Final decision:" is (:data:`ipb.scoring.verdict_words.FINAL_CUE_TRIGGERS`).
FINAL_LABELS: Final[tuple[str, ...]] = _tables()["final_labels"]
#: :data:`FINAL_LABELS` followed by its colon (a label, not a mention of the decision in running text).
FINAL_LABEL_CUE: Final = re.compile("(?i)(?:" + "|".join(
    (_body(w) if unspaced(w) else edged(_body(w), w)).replace(r"\s+", r"[ \t]+") for w in sorted(FINAL_LABELS, key=len, reverse=True))
    + r")[ \t]*[*_]{0,2}[ \t]*[:\uff1a]")
#: Words for "if" that make a sentence they open a condition ("si", "wenn", "если"; ``conditionals``).
CONDITIONALS: Final = frozenset(w.lower() for w in _tables()["conditionals"])

#: The literal each final label starts with.
FINAL_LABEL_LITERALS: Final[tuple[str, ...]] = tuple(dict.fromkeys(w.split()[0].lower() for w in FINAL_LABELS))

_LABELLED: Final = re.compile("(?i)" + LABEL_PATTERN + r"[ \t]*[:\uff1a][^\n]*\Z")


def caseless_unlabelled(before: str, word: str) -> bool:
    """Whether ``word`` is written in a caseless script (投资, 투자) and no decision label of another language ("结论：",
    "결론:") opens its line within the 40 characters ``before`` it: the parser then reads it as it reads a lower-case
    outcome word (only after a cue), since it has no capitals to mark it as the verdict.

    >>> caseless_unlabelled("最终结论：", "投资"), caseless_unlabelled("결론: 대성식품 ", "매도"), caseless_unlabelled("长期", "投资")
    (False, False, True)
    >>> caseless_unlabelled("결론: 좋다.\\n가치 ", "투자"), caseless_unlabelled("", "invest")
    (True, False)
    """
    return unspaced(word) and _LABELLED.search(before[-40:]) is None


#: The languages the file holds, in its order, for documentation.
LANGUAGES: Final[tuple[str, ...]] = _tables()["names"]

#: A prefix negator of an unspaced script not starting a compound that negates nothing (``prefix_negators``, ``guards``).
_PREFIX_NEGATOR: Final = re.compile("|".join(re.escape(w) + guard(w) for w in _tables()["prefix_negators"]) or "(?!)")


def prefix_negated(run: str) -> bool:
    """Whether ``run``, a run of an unspaced script right before a verdict or final word, negates it: a prefix negator
    in its last eight characters ("我不会在这个价位" before 买入: "I would not ... buy at this price"); two there cancel
    ("我们不得不承认它" before 符合: "we have to admit it meets").

    >>> prefix_negated("我不会在这个价位"), prefix_negated("业绩不错，值得"), prefix_negated("未来三年"), prefix_negated("ไม่ควร"), prefix_negated("不得不承认它")
    (True, False, False, True, False)
    """
    if not unspaced(run):
        return False
    # two negators cancel, as "not unable to pass" does: 不得不 ("cannot not", must), 不是不 ("it is not that it does not")
    return len(_PREFIX_NEGATOR.findall(run[-8:])) % 2 == 1


_RUN_BEFORE: Final = re.compile(f"[{UNSPACED_CHARS}]+\\Z")


def negated_by_prefix(before: str) -> bool:
    """Whether the text ``before`` a verdict or final word ends in a run of an unspaced script, touching the word, that
    negates it (:func:`prefix_negated`); a space or a stop between them ("价格不便宜，通过") ends the run.

    >>> negated_by_prefix("结论：我不会买入"[:-2]), negated_by_prefix("护城河不算深，"), negated_by_prefix("not ")
    (True, False, False)
    """
    m = _RUN_BEFORE.search(before)
    return m is not None and prefix_negated(m.group())
