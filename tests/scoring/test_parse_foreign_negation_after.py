"""Negators after the verb and four more languages, gate level (issue 13; paper §7.3 gate terms, §7.5 parsing).

Short answers written for these tests (never corpus text) on the Buffett buyback card (1 funds beyond needs, 2 below
intrinsic value, 3 published price limit, 4 purpose):

* German, Norwegian, Danish, Swedish and Turkish put the negator after the verb, an object or subject between
  ("erfüllt das Kriterium nicht", "oppfyller selskapet ikke kravet"): ``negators_after`` of ``grammar/languages.yaml``;
  "nicht nur" (not only), a joining word ("und", "men") or a comma before the negator leave the verb unnegated;
* Polish, Turkish, Indonesian and Arabic: gate nouns with numbers, verdict words for fail / not applicable / open / met,
  ordinals and "last" next to a gate noun;
* everyday words added this stop (es "no pasa", fr "rejet", "pas clair") and the guards that keep an idiom out ("no pasa
  nada": nothing happens; Polish "przechodzi do": moves on to).
"""

from __future__ import annotations

import pytest

from ipb.scoring import _foreign_verdicts as fv
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response

BUYBACK = "buffett_share_repurchase"
P, R, I, NA = vw.PROCEED, vw.REJECT, vw.INCONCLUSIVE, vw.NOT_REACHED


def _read(text: str) -> list[tuple[int, str | None]]:
    parsed = parse_response(text, BUYBACK, embedder=False)
    assert parsed.invented_gates == []
    return [(g.gate, g.verdict) for g in parsed.gates]


#: One gate each: the verb, words of its clause, then the negator; the last line is met (no negator in its clause).
AFTER = {
    "de": "Kriterium 1: Die Firma erfüllt das Kriterium nicht.\nKriterium 4: Das Unternehmen erfüllt es.\n",
    "de-inverted": "Kriterium 1: Erfüllt ist es damit nicht.\nKriterium 4: erfüllt.\n",
    "nb": "Kriterium 1: Dermed oppfyller selskapet ikke kravet.\nKriterium 4: Selskapet oppfyller kravet.\n",
    "da": "Kriterium 1: Derfor opfylder selskabet ikke kravet.\nKriterium 4: Selskabet opfylder kravet.\n",
    "sv": "Kriterium 1: Därmed uppfyller bolaget inte kravet.\nKriterium 4: Bolaget uppfyller kravet.\n",
    "tr": "Kriter 1: Nakit durumu uygun değil.\nKriter 4: Amaç uygun.\n",
}


@pytest.mark.parametrize("case", sorted(AFTER))
def test_a_negator_after_the_verb_negates_it(case: str) -> None:
    assert _read(AFTER[case]) == [(1, R), (4, P)]


#: The negator is no negation of the verb: "not only" ("nicht nur"), or it stands in another clause (after "und", "men",
#: "aber" or a comma), or it follows four words on.
NOT_NEGATED = [
    "Kriterium 2: Das Unternehmen erfüllt es nicht nur formal.\n",
    "Kriterium 2: Der Preis passt und die Marge ist nicht hoch.\n",
    "Kriterium 2: Der Preis passt, aber die Marge ist nicht hoch.\n",
    "Kriterium 2: Der Abschlag erfüllt die Vorgabe des Vorstands beim Kurs nicht ganz genau.\n",
    "Kriterium 2: Selskapet oppfyller kravet, men marginen er ikke stor.\n",
    "Kriterium 2: Bolaget uppfyller kravet och skulden är inte hög.\n",
]


@pytest.mark.parametrize("text", NOT_NEGATED)
def test_a_negator_outside_the_verbs_clause_leaves_it_met(text: str) -> None:
    assert _read(text) == [(2, P)]


def test_the_trailing_negator_pattern_stops_at_three_words() -> None:
    # matched at the end of the verdict word in the lower-cased text
    assert fv.TRAILING_NEGATOR.match(" das kriterium nicht") is not None
    assert fv.TRAILING_NEGATOR.match(" die vorgabe des vorstands nicht") is None
    assert fv.TRAILING_NEGATOR.match(" nicht nur formal") is None
    assert fv.TRAILING_NEGATOR.match(", nicht") is None
    assert fv.TRAILING_NEGATOR.match(" the test not") is None  # English is not read here ("not" is no negator after)


#: Gate 1 fails, 2 does not apply, 3 is open, 4 is met, in four languages the parser read nothing of before.
NEW_LANGUAGES = {
    "pl": "Kryterium 1: niespełnione.\nKryterium 2: nie dotyczy.\nKryterium 3: brak danych.\nKryterium 4: spełnione.\n",
    "tr": "Kriter 1: karşılanmıyor.\nKriter 2: uygulanamaz.\nKriter 3: belirsiz.\nKriter 4: karşılanıyor.\n",
    "id": "Kriteria 1: tidak terpenuhi.\nKriteria 2: tidak berlaku.\nKriteria 3: belum jelas.\nKriteria 4: terpenuhi.\n",
    "ar": "المعيار 1: غير مستوفى.\nالمعيار 2: لا ينطبق.\nالمعيار 3: غير واضح.\nالمعيار 4: مستوفى.\n",
}


@pytest.mark.parametrize("language", sorted(NEW_LANGUAGES))
def test_gate_verdicts_in_four_more_languages(language: str) -> None:
    assert _read(NEW_LANGUAGES[language]) == [(1, R), (2, NA), (3, I), (4, P)]


#: The second gate by its ordinal (fails), the last by the word for "last" (met).
NEW_ORDINALS = {
    "pl": "Drugie kryterium nie jest spełnione. Ostatni krok: spełniony.\n",
    "tr": "ikinci kriter uygun değil. Son adım: karşılanıyor.\n",
    "id": "Kriteria kedua tidak terpenuhi. Langkah terakhir: terpenuhi.\n",
    "ar": "المعيار الثاني غير مستوفى. الخطوة الأخيرة: مستوفى.\n",
}


@pytest.mark.parametrize("language", sorted(NEW_ORDINALS))
def test_ordinals_in_four_more_languages(language: str) -> None:
    assert _read(NEW_ORDINALS[language]) == [(2, R), (4, P)]


def test_the_new_languages_are_listed() -> None:
    assert {"Polish", "Turkish", "Indonesian", "Arabic"} <= set(fv.LANGUAGES)


#: Everyday fail / met / open words added this stop, one gate each, and idioms their guards keep out.
EVERYDAY = [
    ("Criterio 2: No pasa.\n", [(2, R)]),
    ("Criterio 2: cumple, no pasa nada.\n", [(2, P)]),
    ("Critère 2 : rejet.\n", [(2, R)]),
    ("Critère 2 : pas clair.\n", [(2, I)]),
    ("Critère 2 : impossible à dire.\n", [(2, I)]),
    ("Kryterium 2: przechodzi.\n", [(2, P)]),
    ("Kryterium 2: spółka przechodzi do kolejnej fazy.\n", [(2, None)]),
]


@pytest.mark.parametrize(("text", "want"), EVERYDAY)
def test_everyday_words_and_their_guards(text: str, want: list[tuple[int, str | None]]) -> None:
    assert _read(text) == want
