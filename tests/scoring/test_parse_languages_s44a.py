"""Gates and verdicts in Russian, Polish, Czech, Turkish, Greek and Dutch (issue 13, stop 44, group A).

What is tested: the vocabulary blocks of ``grammar/languages.yaml`` for Czech, Greek and Dutch (new), the gate terms
(``grammar/gate_terms.yaml``) and appraisals (``grammar/appraisals_foreign.yaml``) of all six languages, their
translations sidecar names, and the inflection rule (:mod:`ipb.scoring.parse._inflection`): a name or term read in the
case endings the language's ``inflection`` block gives it, and never inside a word that is not one of its forms.

Every answer and clause is written for these tests (no corpus text), and each expected reading is worked by hand against
the card named beside it.
"""

from __future__ import annotations

import re

import pytest

from ipb.engine.translations import OPTIONAL_LANGUAGES, gate_names, load_gate_names
from ipb.scoring import verdict_words as vw
from ipb.scoring._foreign_verdicts import fold_dotted_i
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._foreign_appraisals import foreign_appraisals
from ipb.scoring.parse._foreign_names import foreign_literal, foreign_name_pattern
from ipb.scoring.parse._foreign_terms import term_languages
from ipb.scoring.parse._inflection import Inflection, declined, inflection

P, R, I = vw.PROCEED, vw.REJECT, vw.INCONCLUSIVE
BUYBACK = "buffett_share_repurchase"  # 1 funds beyond needs, 2 below intrinsic value, 3 published price limit, 4 purpose
SEVEN = "graham_seven_tests_defensive"  # 1 size, 2 financial condition, 3 stability, 4 dividends, 5 growth, 6 P/E, 7 P/B
LYNCH = "lynch_six_category_framework"  # 1 category, 2 price versus growth, 3 balance sheet, 4 category story check

#: The review bar: a reading the parser is not sure of carries less.
REVIEW_BAR = 0.7


def _reads(name: str, language: str, text: str) -> bool:
    pattern = re.compile("(?i)" + foreign_name_pattern(name, [language]))
    return pattern.fullmatch(fold_dotted_i(text)) is not None


# -- the inflection rule ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "language", "forms", "not_forms"), [
    # Polish: neuter -ie noun, genitive / instrumental / locative plural; "zadłużeniowy" is an adjective, no case form
    ("zadłużenie", "pl", ["zadłużenia", "zadłużeniem", "zadłużeniu", "zadłużeniach"], ["zadłużeniowy"]),
    # a short masculine noun: genitive plural, instrumental plural; "zyskowny" (profitable) is another word
    ("zysk", "pl", ["zysku", "zysków", "zyskami"], ["zyskowny"]),
    # Turkish: the final "ç" softens to "c" before a vowel ("borcu", its debt); "borçlu" (indebted) is an adjective
    ("borç", "tr", ["borcu", "borçları", "borçların", "BORÇ"], ["borçlu", "borçsuz"]),
    # "kâr" (profit) is often written "kar"; the accusative "kârı", the genitive "karın"
    ("kâr", "tr", ["kar", "kârı", "karın"], ["karlı"]),
    # Czech: "rozvaha" (balance sheet), "v rozvaze" (h -> z), "rozvahy", "rozvahou"
    ("rozvaha", "cs", ["rozvaze", "rozvahy", "rozvahou"], ["rozvahový"]),
    # Greek: the accent moves as the noun declines ("μέρισμα", "μερίσματος"); capitals carry no accent
    ("μέρισμα", "el", ["μερίσματος", "μερίσματα", "ΜΕΡΙΣΜΑ"], ["μερισματική"]),
    ("χρέος", "el", ["χρέους", "χρεών"], ["χρεοκοπία"]),
    # Russian: the instrumental "долгом" (four letters less one, plus two, did not reach it), "ё" written "е"
    ("долг", "ru", ["долгом", "долги", "долгу"], ["долгосрочный"]),
    ("заёмные средства", "ru", ["заемных средств", "заёмными средствами"], []),
])
def test_a_name_reads_in_its_case_forms_and_not_inside_other_words(name: str, language: str, forms: list[str],
                                                                   not_forms: list[str]) -> None:
    assert inflection(language) is not None
    assert [f for f in forms if not _reads(name, language, f)] == []
    assert [f for f in not_forms if _reads(name, language, f)] == []


def test_a_name_of_a_language_without_an_inflection_block_keeps_the_old_rule() -> None:
    # Dutch compounds and plurals are read by the plural endings every one-word Latin name takes; no block of its own
    assert inflection("nl") is None
    assert _reads("schuld", "nl", "schulden") and not _reads("schuld", "nl", "schuldig")
    # and a Polish name read without its language gets no case endings: the rule follows the column it is written in
    assert not re.fullmatch("(?i)" + foreign_name_pattern("zadłużenie"), "zadłużeniem")


def test_the_literal_of_a_declined_name_starts_every_form() -> None:
    # the scan looks for the literal before trying the pattern: it must open "borcu" as well as "borç"
    assert foreign_literal("borç", ["tr"]) == "bor"
    assert foreign_literal("zadłużenie", ["pl"]) == "zadłużeni"
    # a folded letter ends it: "μέρισμα" and "μερίσματος" share only "μ"
    assert foreign_literal("μέρισμα", ["el"]) == "μ"


def test_declined_takes_whole_endings_and_a_stem_of_three_letters_at_least() -> None:
    rule = Inflection({"drop": ["a"], "endings": ["y", "ou"]})
    assert re.fullmatch("(?i)" + (declined("kava", [rule]) or ""), "kavou")
    assert declined("ab", [rule]) is None  # too short to decline
    assert declined("P/E", [rule]) is None  # no word


def test_gate_terms_carry_their_columns() -> None:
    languages = term_languages()
    assert languages["zadłużenie"] == ("pl",)
    assert languages["borç"] == ("tr",)
    assert "el" in languages["χρέος"] and "nl" in languages["schuldpositie"]


# -- sidecar names ------------------------------------------------------------------------------------------------------

def test_czech_greek_and_dutch_are_sidecar_languages() -> None:
    assert {"cs", "el", "nl"} <= set(OPTIONAL_LANGUAGES)
    text = "version: 1\ncard: c\ngates:\n  g:\n    cs: [rozvaha]\n    el: [ισολογισμός]\n    nl: [balans]\n"
    assert load_gate_names(text).names["g"] == {"cs": ("rozvaha",), "el": ("ισολογισμός",), "nl": ("balans",)}


def test_every_bundled_gate_has_names_in_the_six_languages() -> None:
    from ipb.engine.card import load_card
    from ipb.engine.registry import bundled_card_paths

    for path in bundled_card_paths():
        card = load_card(path)
        names = gate_names(card)
        assert set(names) == {g.id for g in card.gates}, card.id


# -- whole answers, one per language ---------------------------------------------------------------------------------

#: Gate 3 first, then 1, 4 and 2, so that a reading by position would put the verdicts on the wrong gates.
BUYBACK_ANSWERS = {
    "cs": ("Analýza zpětného odkupu\n\n"
           "- Zveřejněný cenový limit zpětného odkupu: splněno. Nabízená cena je pod stropem.\n"
           "- Přebytečné prostředky: splněno. Hotovosti zbývá dost na provoz.\n"
           "- Účel odkupu: nesplněno. Odkup má jen podepřít kurz.\n"
           "- Cena pod vnitřní hodnotou: nedostatek dat.\n"),
    "el": ("Ανάλυση επαναγοράς\n\n"
           "- Ανώτατη τιμή επαναγοράς: πληρούται. Η προσφερόμενη τιμή είναι κάτω από το όριο.\n"
           "- Πλεονάζοντα κεφάλαια: πληρούται. Τα ταμειακά διαθέσιμα αρκούν για τη λειτουργία.\n"
           "- Σκοπός της επαναγοράς: δεν πληρούται. Η επαναγορά γίνεται για να στηριχθεί η τιμή.\n"
           "- Τιμή κάτω από την εσωτερική αξία: ελλιπή δεδομένα.\n"),
    "nl": ("Analyse van de inkoop\n\n"
           "- Prijsgrens voor inkoop: voldaan. De geboden prijs ligt onder het plafond.\n"
           "- Overtollige middelen: voldaan. Er blijft genoeg kas over voor de bedrijfsvoering.\n"
           "- Doel van de inkoop: niet voldaan. De inkoop dient alleen om de koers te steunen.\n"
           "- Prijs onder de intrinsieke waarde: onvoldoende gegevens.\n"),
    "pl": ("Analiza skupu akcji\n\n"
           "- Maksymalna cena skupu: spełnione. Oferowana cena jest poniżej limitu.\n"
           "- Nadwyżka środków: spełnione. Gotówki wystarczy na potrzeby biznesu.\n"
           "- Cel skupu: niespełnione. Skup ma tylko podtrzymać kurs.\n"
           "- Cena poniżej wartości wewnętrznej: brak danych.\n"),
    "tr": ("Geri alım analizi\n\n"
           "- Azami geri alım fiyatı: karşılanıyor. Teklif fiyatı sınırın altında.\n"
           "- İhtiyaç fazlası fonlar: karşılanıyor. Nakit işletmenin ihtiyaçlarına yetiyor.\n"
           "- Geri alımın amacı: karşılanmıyor. Geri alım yalnızca fiyatı desteklemek için.\n"
           "- İçsel değerin altında fiyat: belirsiz.\n"),
}
WANT = [(3, P), (1, P), (4, R), (2, I)]


@pytest.mark.parametrize("language", list(BUYBACK_ANSWERS))
def test_an_answer_reads_gate_by_gate_by_its_sidecar_names(language: str) -> None:
    parsed = parse_response(BUYBACK_ANSWERS[language], BUYBACK, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == WANT
    assert {g.how for g in parsed.gates} == {"translation"}


def test_a_declined_sidecar_name_names_its_gate() -> None:
    # Polish: "historii dywidend" is the genitive of the sidecar name "historia dywidend" (gate 4)
    text = ("Ocena historii dywidend: spełnione, spółka płaci dywidendę od 30 lat.\n"
            "Stabilność zysków: niespełnione, strata w 2020.\n")
    parsed = parse_response(text, SEVEN, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(4, P), (3, R)]


def test_a_greek_name_reads_with_its_accent_moved() -> None:
    # "ιστορικού μερισμάτων": the genitive of "ιστορικό μερισμάτων" (gate 4), accent on another syllable
    text = "Έλεγχος του ιστορικού μερισμάτων: πληρούται.\nΣταθερότητα κερδών: δεν πληρούται.\n"
    parsed = parse_response(text, SEVEN, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(4, P), (3, R)]


# -- verdict words of the new blocks --------------------------------------------------------------------------------

@pytest.mark.parametrize(("answer", "want"), [
    # Czech: "není splněno" (is not met) negated by "není"; "nesplňuje" carries its own negation
    ("Stabilita zisků: není splněno.\nHistorie dividend: splňuje.\n", [(3, R), (4, P)]),
    ("Stabilita zisků: nesplňuje.\nHistorie dividend: nejasné.\n", [(3, R), (4, I)]),
    # Greek: "δεν ικανοποιείται" negated; "ικανοποιείται" plain
    ("Σταθερότητα κερδών: δεν ικανοποιείται.\nΙστορικό μερισμάτων: ικανοποιείται.\n", [(3, R), (4, P)]),
    # Dutch: "voldoet niet" with the negator after the verb; "geslaagd" plain
    ("Winststabiliteit: het bedrijf voldoet niet, verlies in 2020.\nDividendhistorie: geslaagd.\n", [(3, R), (4, P)]),
])
def test_gate_verdicts_in_the_new_languages(answer: str, want: list[tuple[int, str]]) -> None:
    parsed = parse_response(answer, SEVEN, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == want


def test_a_dutch_falling_price_is_no_failed_gate() -> None:
    # "gezakt" (failed an exam) is also a price that fell: left out, so this gate is read without a verdict of it
    parsed = parse_response("Winststabiliteit: de koers is gezakt.\n", SEVEN, embedder=False)
    assert all(g.verdict != R or g.confidence < REVIEW_BAR for g in parsed.gates if g.gate == 3)


# -- gate terms and appraisals --------------------------------------------------------------------------------------

def test_a_declined_term_names_its_gate_under_the_review_bar() -> None:
    # Lynch's card, gate 3 (balance sheet strength): "zadłużenia" is the genitive of the term "zadłużenie"; by term
    # only, the reading stays under the review bar
    text = ("Kategoria\nSpółka rośnie o 4 % rocznie: stalwart. Spełnione.\n\n"
            "Poziom zadłużenia\nDług netto to czterokrotność EBITDA. Niespełnione.\n")
    parsed = parse_response(text, LYNCH, embedder=False)
    read = {g.gate: (g.verdict, g.confidence) for g in parsed.gates}
    assert read[3][0] == R and read[3][1] < REVIEW_BAR
    assert read[1][0] == P


def _said(clause: str) -> list[tuple[str, str]]:
    low = fold_dotted_i(clause).lower()
    return [(low[a:b], v) for a, b, v in foreign_appraisals(low, 0, len(low), False)]


@pytest.mark.parametrize(("clause", "said"), [
    ("баланс устойчивый", [("устойчивый", P)]),
    ("оценка не привлекательная", [("привлекательная", R)]),
    ("bilans jest solidny", [("solidny", P)]),
    ("akcje są zbyt drogie", [("zbyt drogie", R)]),
    ("droga do zysku jest długa", []),  # "droga" (road) is no appraisal
    ("rozvaha je zdravá", [("zdravá", P)]),
    ("valuace není atraktivní", [("atraktivní", R)]),
    # Turkish denies after the adjective: "sağlam değil" (not sound) is one REJECT, never the PROCEED "sağlam" in it
    ("bilanço sağlam", [("sağlam", P)]),
    ("bilanço sağlam değil", [("sağlam değil", R)]),
    ("hisse pahalı değil", [("pahali değil", P)]),  # read as folded: dotless ı as i
    ("SAĞLIKLI bir yapı", [("sağlikli", P)]),  # folded as the answer is: dotless ı
    ("ο ισολογισμός είναι υγιής", [("υγιής", P)]),
    ("η μετοχή είναι υπερτιμημένη", [("υπερτιμημένη", R)]),
    ("de balans is solide", [("solide", P)]),
    ("het aandeel is te duur", [("te duur", R)]),
    ("de duur van de lening", []),  # "duur" (duration) is no appraisal
])
def test_appraisal_words_of_the_six_languages(clause: str, said: list[tuple[str, str]]) -> None:
    assert _said(clause) == said
