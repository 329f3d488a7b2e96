"""Gate names made from the table of financial terms (grammar/gate_terms.yaml; issue 13, class G-C).

Short answers written for these tests: a German review of a company by Lynch's six-category card whose sections are
headed by the key noun of each gate's metric ("Kategorie", "Wachstum", "Verschuldung") rather than by a name of the
card's translations sidecar, and the same nouns in running prose, where they name no gate. The readings by term carry
a confidence under the 0.7 review bar. The assignment of a term to a card's gates is worked by hand from the cards'
English names and aliases.
"""

from __future__ import annotations

import pytest

from ipb.engine.card import load_card
from ipb.engine.registry import bundled_card_paths
from ipb.errors import IpbError
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._foreign_terms import TERM, _bundled, at_title, load_terms, term_names

LYNCH = "lynch_six_category_framework"  # 1 category, 2 price versus growth, 3 balance sheet, 4 category story check
P, R = vw.PROCEED, vw.REJECT


def _card(card_id: str):
    path = next(p for p in bundled_card_paths() if p.stem == card_id)
    return load_card(path)


HEADED = ("Vogelsang Armaturen\n\n"
          "Kategorie\n"
          "Der Umsatz wächst um 4 % im Jahr, das Geschäft ist kaum zyklisch: ein Stalwart. Erfüllt.\n\n"
          "Verschuldung\n"
          "Die Nettoschulden liegen beim Vierfachen des EBITDA. Nicht erfüllt.\n")


def test_sections_headed_by_key_nouns_read_by_term_under_the_review_bar() -> None:
    result = parse_response(HEADED, LYNCH, embedder=False)
    assert result.status == "ok"
    read = {g.gate: (g.verdict, g.how) for g in result.gates}
    assert read == {1: (P, TERM), 3: (R, TERM)}
    assert all(g.confidence < 0.7 for g in result.gates)


def test_a_key_noun_in_running_prose_names_no_gate() -> None:
    prose = ("Vogelsang Armaturen ist ein solides Unternehmen, und die Verschuldung ist nach meinem Eindruck seit Jahren "
             "kein Thema gewesen, weil der Vorstand vorsichtig ist. Erfüllt.\n")
    # s58prose: while the answer names a gate any other way, a key noun in its prose names none; an answer that names
    # none at all is read by its prose terms as a last resort, under the review bar (scoring/parse/_prose_terms.py)
    result = parse_response("Category: a stalwart, PROCEED.\n" + prose, LYNCH, embedder=False)
    assert all(g.how != TERM for g in result.gates) if result.status == "ok" else result.status == "parse_failure"
    last = parse_response(prose, LYNCH, embedder=False)
    assert [(g.gate, g.verdict, g.how) for g in last.gates] == [(3, P, TERM)] and last.gates[0].confidence < 0.7


@pytest.mark.parametrize("text, start, end, want", [
    ("Bilanz\nNetto-Cash von 140 Mio. Euro.", 0, 6, True),                 # a heading line
    ("3. Verschuldung: 0,4 × EBITDA, unproblematisch und seit Jahren stabil, wie der Bericht zeigt.", 3, 15, True),
    ("Wir sehen, dass die Verschuldung seit fünf Jahren sinkt und die Zinsdeckung inzwischen gut ausfällt.", 20, 32, False),
    ("| 扛周期 | 去年净利润2.3亿，现金流为正 | 没问题 |", 9, 12, False),  # a later cell of a table row
])
def test_at_title(text: str, start: int, end: int, want: bool) -> None:
    assert at_title(text, start, end) is want


def test_terms_go_to_the_gate_whose_labels_use_the_concept_most() -> None:
    # Lynch: "category" is in four labels of gate 1 ("Classify the Company (Six Categories)", "stock category", "six
    # categories", "Lynch category") plus "categorise the company" and "classify" (six in all) and in four of gate 4:
    # gate 1. "debt" is in gate 3's labels only; "growth" and "P/E" in gate 2's only.
    lynch = term_names(_card(LYNCH), set())
    assert "Kategorie" in lynch[1] and "Kategorie" not in lynch.get(4, ())
    assert {"Verschuldung", "Bilanz", "負債比率"} <= set(lynch[3])
    assert {"Wachstum", "KGV", "crescita"} <= set(lynch[2])
    # Buffett's buyback: "price" is in two labels of gate 2 (its name, "price versus intrinsic value") and two of gate 3
    # (its name, "repurchase price cap"): a tie, so "Preis" names neither
    buyback = term_names(_card("buffett_share_repurchase"), set())
    assert not any("Preis" in names for names in buyback.values())
    assert "Aktionäre" in buyback[4]  # "shareholder benefit", "value for remaining shareholders"


def test_a_name_the_card_already_reads_stays_its_own() -> None:
    table = ((("debt",), ("Verschuldung", "Fremdkapital")),)
    assert term_names(_card(LYNCH), {"verschuldung"}, table) == {3: ("Fremdkapital",)}


def test_a_broken_table_is_located() -> None:
    with pytest.raises(IpbError) as caught:
        load_terms("version: 1\nterms:\n  - about: debt\n    en: [debt]\n    xx: [Schuld]\n", "terms.yaml")
    assert str(caught.value).startswith("terms.yaml:5:5: ") and "unknown field 'xx'" in str(caught.value)


def test_no_term_is_an_english_word_of_the_table() -> None:
    english = {w for words, _ in _bundled() for w in words}
    terms = {t.lower() for _, ts in _bundled() for t in ts}
    assert not english & terms


def test_docstring_examples() -> None:
    import doctest

    from ipb.scoring.parse import _foreign_terms

    result = doctest.testmod(_foreign_terms, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted >= 8


def test_terms_are_a_fallback_that_never_displaces_the_cards_own_names() -> None:
    # two of Lynch's four gates named in English: the card's names find half of its gates, so the German heading
    # "Kategorie" is not read (it would name gate 1); with one named, the fallback reads it and keeps gate 3's verdict
    two = "Price Versus Growth: PASS\nBalance Sheet Strength: PASS\n\nKategorie\nEin Stalwart. Erfüllt.\n"
    assert [(g.gate, g.verdict, g.how) for g in parse_response(two, LYNCH, embedder=False).gates] == [
        (2, P, "name"), (3, P, "name")]
    one = "Balance Sheet Strength: FAIL\n\nKategorie\nEin Stalwart. Erfüllt.\n"
    assert [(g.gate, g.verdict, g.how) for g in parse_response(one, LYNCH, embedder=False).gates] == [
        (3, R, "name"), (1, P, TERM)]
