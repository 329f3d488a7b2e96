"""Gate names in other languages made from a table of financial terms (issue 13, class G-C; paper §7.5).

A card's translations sidecar (:mod:`ipb.engine.translations`) gives each gate a few full names per language; a writer
in that language names a criterion by the key noun of its metric instead: "Bilanz", "Verschuldung", "indebitamento",
"負債比率", "Welche Kategorie?". ``grammar/gate_terms.yaml`` holds such nouns once per concept (English words ->
terms per language), not per card, and :func:`term_names` gives them to every card's gates:

* a concept belongs to a gate whose English labels (name and aliases; the id repeats the name) use one of its English words, whole words, a
  plural "s" allowed; its weight there is the number of labels that use it;
* a term goes to the one gate where the concepts that list it weigh most; a tie between gates names no gate (the
  term is ambiguous on that card), and a term that is already a name of the card (English or sidecar) is left to it.

Terms are matched as the sidecar's names are (:mod:`._foreign_names`) but recognised as :data:`TERM`, whose
confidence factor (:data:`._confidence.RECOGNITION`) keeps a gate named only so under the 0.7 review bar.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Any

from ipb.engine._json import load_document
from ipb.engine.card import Card
from ipb.scoring.parse._foreign_names import name_key
from ipb.scoring.parse._foreign_numbers import strip_foreign_number
from ipb.scoring.parse._term_heads import heads_label

__all__ = ["TERM", "at_title", "load_terms", "term_languages", "term_names"]

#: How a gate named by a term of ``grammar/gate_terms.yaml`` is recognised (``GateTrace.how``).
TERM = "term"

_FILE = "gate_terms.yaml"
_SCHEMA = "gate_terms.schema.json"


def load_terms(text: str, file: str) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """(English words, terms of every language) per concept of a terms file, checked against its schema.

    Raises
    ------
    LoadError
        The file is no YAML or breaks ``grammar/gate_terms.schema.json`` (located: file, line, column).

    >>> load_terms("version: 1\\nterms: [{about: debt, en: [debt], de: [Verschuldung], it: [indebitamento]}]", "<s>")
    ((('debt',), ('Verschuldung', 'indebitamento')),)
    """
    doc = load_document(file, schema=_SCHEMA, what="a gate terms table", text=text)
    out = []
    for entry in doc.data["terms"]:
        terms = [t for code, words in entry.items() if code not in ("about", "en") for t in words]
        out.append((tuple(w.lower() for w in entry["en"]), tuple(dict.fromkeys(terms))))
    return tuple(out)


@lru_cache(maxsize=1)
def _bundled() -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """The bundled table, read and checked once per process."""
    return load_terms(resources.files("ipb.grammar").joinpath(_FILE).read_text(encoding="utf-8"), f"ipb/grammar/{_FILE}")


@lru_cache(maxsize=1)
def term_languages() -> dict[str, tuple[str, ...]]:
    """Each term of the bundled table, keyed as :func:`._foreign_names.name_key` keys it -> the language columns that
    list it (the parser declines a term by those languages' ``inflection`` rules, ``grammar/languages.yaml``)."""
    doc = load_document(f"ipb/grammar/{_FILE}", schema=_SCHEMA, what="a gate terms table",
                        text=resources.files("ipb.grammar").joinpath(_FILE).read_text(encoding="utf-8"))
    out: dict[str, tuple[str, ...]] = {}
    for entry in doc.data["terms"]:
        for code, words in entry.items():
            if code not in ("about", "en"):
                for word in words:
                    key = name_key(word)
                    out[key] = tuple(dict.fromkeys((*out.get(key, ()), code)))
    return out


def _uses(label: str, word: str) -> bool:
    return re.search(rf"(?<![\w/]){re.escape(word)}s?(?![\w/])", label) is not None


def term_names(card: Card, taken: set[str], table: Any = None) -> dict[int, tuple[str, ...]]:
    """Gate number -> the terms that name it on ``card`` (rule in the module docstring); ``taken`` holds the name keys
    (:func:`._foreign_names.name_key`) the card already reads, which stay its own; ``table`` is a :func:`load_terms`
    result (default: the bundled one).

    >>> from types import SimpleNamespace as G
    >>> card = G(gates=[G(number=1, name="Classify the Company", aliases=("stock category",)),
    ...                 G(number=2, name="Category Story Check", aliases=("debt factor",))])
    >>> table = ((("category", "classify"), ("Kategorie",)), (("debt",), ("Verschuldung",)), (("stock", "story"), ("Aktie",)))
    >>> term_names(card, set(), table)  # "Aktie": one label of each gate, a tie
    {1: ('Kategorie',), 2: ('Verschuldung',)}
    >>> term_names(card, {"verschuldung"}, table)
    {1: ('Kategorie',)}
    """
    table = _bundled() if table is None else table
    labels = {g.number: [name_key(x) for x in (g.name, *g.aliases)] for g in card.gates}
    weight: dict[str, dict[int, int]] = {}
    for english, terms in table:
        for number, texts in labels.items():
            used = sum(1 for text in texts if any(_uses(text, w) for w in english))
            if used:
                for term in terms:
                    per_gate = weight.setdefault(term, {})
                    per_gate[number] = per_gate.get(number, 0) + used
    out: dict[int, list[str]] = {}
    for term, per_gate in weight.items():
        best = max(per_gate.values())
        winners = [n for n, w in per_gate.items() if w == best]
        if len(winners) == 1 and name_key(term) not in taken:
            out.setdefault(winners[0], []).append(term)
    return {n: tuple(ts) for n, ts in sorted(out.items())}


#: What a title may hold before its term: list markers, numbers, emoji, markdown and up to three words.
_WORD = re.compile(r"[^\W\d_]+")
#: A label's end: the first colon, question mark or table bar of the line.
_LABEL_END = re.compile(r"[:：|?？]")
#: A label's head numbering it in English ("Gate 9 - ", "Step 2:"); other languages' heads are
#: :func:`._foreign_numbers.strip_foreign_number`'s.
_GATE_NUMBER_HEAD = re.compile(r"(?i)[ \t>*_#-]*(?:gate|step|stage|criterion|test|check|filter)[ \t]*#?[ \t]*\d{1,2}\b")
#: A step the writer numbers before the term ("Puerta 9 - Liquidez", "第8关 现金", "Step 12: Bilanz"): the number names the
#: step (past the card's gates it is the writer's own, never a gate: FM-1), and a term after it names nothing (break41;
#: tests/scoring/test_parse_gate_words.py). A list marker ("1. Bilanz", "2) Verschuldung") is no step.
#: The number is a step's when a separator or a step word follows it ("9 -", "8关", "12:"), not a unit ("PER 24倍").
_STEP = re.compile(r"(?:[^\W\d_][ \t]*#?|第[ \t]*)[0-9]{1,2}(?=[ \t]*(?:[-\u2013\u2014:\uff1a.)\u5173\u95dc\u6761\u689d\u6b65\u9879\u9805]|\Z))")
#: The longest line read as a heading, and the furthest a label's end may stand from the line's start.
TITLE_CHARS = 60


def at_title(text: str, start: int, end: int) -> bool:
    """Whether the term at ``text[start:end]`` stands where a writer names a criterion: in a heading (a line of at most
    :data:`TITLE_CHARS` characters) or a label (the line's part before its first colon, question mark or table bar,
    within :data:`TITLE_CHARS` characters), after at most three words, and heading that label
    (:func:`._term_heads.heads_label`: not "Preis der Studie"). A term in running prose or in a table's later
    cell ("净利润" in a row headed "扛周期") names no gate: there it is a fact of another criterion.

    >>> at_title("Bilanz\\nNetto-Cash von 140 Mio.", 0, 6), at_title("Welche Kategorie?\\nx", 7, 16)
    (True, True)
    >>> text = "Der Gewinn je Aktie wächst seit Jahren um etwa 12 % pro Jahr und die Marge bleibt hoch."
    >>> at_title(text, 4, 10)
    False
    >>> at_title("Puerta 9 - Liquidez: SE SUPERA.", 12, 20), at_title("第8关 现金：通过。", 4, 6), at_title("2. Bilanz: ok", 3, 9)
    (False, False, True)
    >>> row = "| 扛周期 | 去年净利润2.3亿 | 没问题 |"
    >>> at_title(row, row.index("净利润"), row.index("净利润") + 3), at_title("| 价格 | 100亿 |", 2, 4)
    (False, True)
    >>> at_title("Puerta 9 - Liquidez: SE SUPERA.", 11, 18), at_title("Gate 9: Bilanz", 8, 14)  # the number decides
    (False, False)
    >>> at_title("Preis der Studie: kostenlos, bestanden.", 0, 5)  # a label about another thing (._term_heads)
    False
    """
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    before = text[line_start:start].lstrip(" \t|")
    if "|" in before or len(_WORD.findall(before)) > 3 or len(before) > TITLE_CHARS or _STEP.search(before):
        return False
    if _GATE_NUMBER_HEAD.match(before) or strip_foreign_number(before) != before:
        return False  # "Puerta 9 - Liquidez", "Gate 9: Liquidity": the label's number says which gate it is, or none
    label_end = _LABEL_END.search(text, end, line_end)
    if not heads_label(text, line_start, start, end, line_end if label_end is None else label_end.start()):
        return False  # "Preis der Studie:", "Categoría de riesgo del fondo:": the label is about something else
    if len(text[line_start:line_end].strip()) <= TITLE_CHARS:
        return True
    return label_end is not None and label_end.start() - line_start <= TITLE_CHARS
