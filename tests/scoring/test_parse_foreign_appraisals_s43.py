"""Verdicts of found gates judged in the writer's own words in other languages, by marks, or by an instrument's answer
(issue 13; /work/notes/gv43.md, classes FA, MK and SAYS).

General mechanisms, not one phrasing each: the polarity of everyday appraisal words in the corpus's languages
(``grammar/appraisals_foreign.yaml``, with a schema), denied by the language's negators, its words for "without" or (in
an unspaced script) an ending after the word, and weighed by a contrast word; the marks a list row ends in ("〇", "×");
and an answer the writer's instrument gives ("the lens says no"). Every reading is a section reading: hedged, under the
0.7 review bar, and withheld when two readings of the section disagree.

Answers written for these tests (no corpus text); each expected verdict worked by hand against the card named beside it.
"""

from __future__ import annotations

import pytest

from ipb.errors import IpbError
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._appraisal_words import lexicon_for
from ipb.scoring.parse._foreign_appraisals import foreign_appraisals, load_foreign_lexicon, mark_verdicts
from ipb.scoring.parse._prose_vocabulary import appraisals

QUALITY = "munger_business_quality_price"  # 1 understandable, 2 return on capital, 3 advantage, 4 management, 5 price
BUBBLE = "dalio_bubble_detection_gauge"  # every gate watches for a warning sign (a reject test, no proceed test)
SEVEN = "graham_seven_tests_defensive"  # 1 size, 2 financial condition, 3 stability, 4 dividends, 5 growth, 6 P/E, 7 P/B
LENSES = "munger_opportunity_evaluation"  # 1 economics, 2 psychology, 3 mathematics, 4 inversion, 5 biology

#: The review bar: a reading the parser is not sure of carries less.
REVIEW_BAR = 0.7


def _said(clause: str, watch: bool = False) -> list[tuple[str, str]]:
    low = clause.lower()
    return [(low[a:b], v) for a, b, v in foreign_appraisals(low, 0, len(low), watch)]


@pytest.mark.parametrize(("clause", "watch", "said"), [
    # plain polarity, one word per language
    ("die bilanz ist solide", False, [("solide", vw.PROCEED)]),
    ("le multiple reste raisonnable", False, [("raisonnable", vw.PROCEED)]),
    ("la deuda es preocupante", False, [("preocupante", vw.REJECT)]),
    ("o balanço é saudável", False, [("saudável", vw.PROCEED)]),
    ("gjelden er svak dekket", False, [("svak", vw.REJECT)]),
    ("負債は健全", False, [("健全", vw.PROCEED)]),
    ("估值偏贵", False, [("偏贵", vw.REJECT)]),
    ("부채 비율은 양호", False, [("양호", vw.PROCEED)]),
    # denied by a negator of languages.yaml up to three words before, or by a word for "without"
    ("die bewertung ist nicht attraktiv", False, [("attraktiv", vw.REJECT)]),
    ("le titre n'est vraiment pas cher", False, [("cher", vw.PROCEED)]),
    ("sem nenhuma premissa heroica", False, [("heroica", vw.PROCEED)]),
    ("nessun problema", False, [("nessun problema", vw.PROCEED)]),
    # a longer word wins at one place: "trop cher" once, "不合理" never read as the 合理 inside it
    ("c'est trop cher", False, [("trop cher", vw.REJECT)]),
    ("价格不合理", False, [("不合理", vw.REJECT)]),
    # an ending after an unspaced word denies it; a prefix negator touching it too
    ("株価は割安ではない", False, [("割安", vw.REJECT)]),
    ("割高とは言えません", False, [("割高", vw.PROCEED)]),
    ("주가가 비싸지 않다", False, [("비싸", vw.PROCEED)]),
    ("财务不稳健", False, [("稳健", vw.REJECT)]),
    # a contrast word weighs the later appraisal; without one both stay (the section then reads none)
    ("pas chère, mais elle n'offre pas le coussin", False, [("coussin", vw.REJECT)]),
    ("bilanz solide, wachstum schwach", False, [("solide", vw.PROCEED), ("schwach", vw.REJECT)]),
    # a warning sign's words only for a gate that watches for one
    ("segnale presente", True, [("segnale presente", vw.REJECT)]),
    ("alto, ma non ancora da bolla: segnale assente", True, [("segnale assente", vw.PROCEED)]),
    ("segnale presente", False, []),
    # no appraisal: a word inside another word, a figure's sign, a category value
    ("la solidez del balance", False, []),
    ("el flujo es positivo", False, []),
])
def test_foreign_appraisal_polarity(clause: str, watch: bool, said: list[tuple[str, str]]) -> None:
    assert _said(clause, watch) == said


def test_an_english_answer_is_not_read_for_foreign_words_that_are_english_too() -> None:
    # "correct" is French for "sound" and an English verb: in an English answer it is the verb (regression: an English
    # rebalancing note read as PROCEED from "no drift to correct")
    text = "Prix raisonnable\nThe price is 14 times earnings. The band is where it was, so there is no drift to correct.\n"
    read = {g.gate: g.verdict for g in parse_response(text, QUALITY, embedder=False).gates}
    assert read.get(5) is None
    low = "base retenue : correcte."
    assert [v for _, _, v in foreign_appraisals(low, 0, len(low), False, spaced=False)] == []
    assert [v for _, _, v in foreign_appraisals(low, 0, len(low), False)] == [vw.PROCEED]


@pytest.mark.parametrize(("text", "marks"), [
    ("1)企業規模 売上高は約1,400億円。〇\n", ["〇"]),
    ("5)利益の成長 ここは×と言わざるを得ない。\n", ["×"]),
    ("| 配当 | 20年連続 | ○ |\n", ["○"]),
    ("7)資産 PBRは1.62倍。△\n", ["△"]),
    # a product, a kanji zero and a mark inside running text are no marks
    ("12.8×1.62=20.7\n", []),
    ("3 × 5 = 15\n", []),
    ("二〇二四年の決算\n", []),
    ("〇印の銘柄は\n", []),
])
def test_closing_marks(text: str, marks: list[str]) -> None:
    assert [text[a:b] for a, b, _ in mark_verdicts(text, 0, len(text))] == marks


def test_a_french_answer_reads_its_sections_appraisals_hedged() -> None:
    text = ("Cercle de compétence\nUne laiterie régionale : on comprend tout de suite comment elle gagne sa vie. Solide.\n\n"
            "Avantage concurrentiel durable\nDeux concurrents cassent les prix depuis un an ; les marges reculent. Fragile.\n\n"
            "Prix raisonnable\nLe titre n'est pas cher, mais il n'offre aucun coussin : 14 fois les bénéfices pour une "
            "croissance nulle.\n")
    parsed = parse_response(text, QUALITY, embedder=False)
    read = {g.gate: g for g in parsed.gates}
    assert (read[1].verdict, read[3].verdict, read[5].verdict) == (vw.PROCEED, vw.REJECT, vw.REJECT)
    assert all(read[k].how.endswith("+section") and 0.0 < read[k].confidence < REVIEW_BAR for k in (1, 3, 5))


def test_an_italian_gauge_reads_present_and_absent_signs() -> None:
    text = ("1. Prezzi elevati rispetto ai fondamentali: rapporto prezzo/utili al 90° percentile. Segnale presente.\n\n"
            "2. Acquisti a debito: il credito su margine è al 35° percentile. Nessun segnale.\n")
    parsed = parse_response(text, BUBBLE, embedder=False)
    read = {g.gate: g for g in parsed.gates}
    assert (read[1].verdict, read[5].verdict) == (vw.REJECT, vw.PROCEED)
    assert max(read[1].confidence, read[5].confidence) < REVIEW_BAR


def test_a_japanese_list_reads_its_row_marks() -> None:
    text = ("1)企業規模 売上高は約900億円。〇\n"
            "2)財務体質の強さ 流動比率は2.1倍。〇\n"
            "5)1株当たり利益の成長 十年で18%しか伸びていない。ここは×と言わざるを得ない。\n")
    parsed = parse_response(text, SEVEN, embedder=False)
    read = {g.gate: g.verdict for g in parsed.gates}
    assert read.get(2) == vw.PROCEED
    assert read.get(5) == vw.REJECT


def test_two_opposite_foreign_appraisals_with_no_contrast_read_nothing() -> None:
    text = "Prix raisonnable\nAttractif sur les bénéfices, préoccupant sur les actifs.\n"
    read = {g.gate: g.verdict for g in parse_response(text, QUALITY, embedder=False).gates}
    assert read.get(5) is None


@pytest.mark.parametrize(("section", "verdict"), [
    ("Management owns 12% and is paid on returns. The lens says yes.", vw.PROCEED),
    ("Bonus tied to revenue, not returns. The lens says no.", vw.REJECT),
    ("We read the proxy twice; the test says no.", vw.REJECT),
    # a refusal of something else, a condition: no reading
    ("The board says no to a buyback this year.", None),
    ("If rates double, the numbers say no.", None),
])
def test_an_instruments_answer_in_a_section(section: str, verdict: str | None) -> None:
    text = f"2. Psychology\n{section}\n"
    read = {g.gate: g for g in parse_response(text, LENSES, embedder=False).gates}
    assert read[2].verdict == verdict
    if verdict is not None:
        assert read[2].confidence < REVIEW_BAR


@pytest.mark.parametrize(("clause", "said"), [
    ("there is no margin here.", [("no margin", vw.REJECT)]),
    ("no margin of safety at this price", [("no margin of safety", vw.REJECT)]),
    ("no margin debt on the books", []),
    ("painful but survivable.", [("survivable", vw.PROCEED)]),
    ("a good sign.", [("a good sign", vw.PROCEED)]),
    ("a bad sign.", [("a bad sign", vw.REJECT)]),
    ("inside the rule.", [("inside the rule", vw.PROCEED)]),
    ("outside our rules.", [("outside our rules", vw.REJECT)]),
    ("we trust them.", [("we trust them", vw.PROCEED)]),
    ("we don't trust them.", [("we don't trust them", vw.REJECT)]),
])
def test_english_everyday_appraisals(clause: str, said: list[tuple[str, str]]) -> None:
    lex = lexicon_for("")
    assert [(clause[a:b], v) for a, b, v in appraisals(clause, 0, len(clause), None, lexicon=lex)] == said


@pytest.mark.parametrize(("text", "where"), [
    ("version: 1\nlanguages:\n  fr:\n    name: French\n    appraisals:\n      - {about: x, verdict: MAYBE, words: [solide]}\n", 6),
    ("version: 1\nlanguages:\n  fr:\n    name: French\n    appraisals: []\n", 5),
    ("version: 1\nlanguages:\n  french:\n    name: French\n    appraisals:\n      - {about: x, verdict: PROCEED, words: [a]}\n", 3),
])
def test_a_broken_lexicon_names_its_line(text: str, where: int) -> None:
    with pytest.raises(IpbError) as err:
        load_foreign_lexicon(text, "bad.yaml")
    assert "bad.yaml" in str(err.value)
    assert f":{where}:" in str(err.value) or f"line {where}" in str(err.value)
