"""Stop 46 (issue 13): answers in the twelve languages of the twentieth blind batch's wild answers that the parser had
no words for (Lithuanian, Icelandic, Croatian, Slovak, Swahili, Latvian, Estonian, Serbian, Urdu, Tagalog, Catalan,
Slovenian), and the fallback for an answer in a language with no word list at all.

Every expected value is worked by hand from the words' meaning: "įvykdyta" (LT, fulfilled) is a pass, "neatitinka"
(LT, does not meet) a fail, "trūksta duomenų" (LT, data are missing) an open gate, and so on. The texts are written for
these tests; none is a corpus case.
"""

from __future__ import annotations

import pytest

from tests.scoring.parse_support import final_of, read_gates

#: Klarman's downside-first card: gate 1 Downside Assessment, 2 Margin of Safety, 3 Position Sizing and Portfolio Risk;
#: outcomes INVEST (pass) and DECLINE (fail).
KLARMAN = "klarman_downside_first_process"

#: language -> (a pass, a fail, an open gate), each a whole verdict in that language.
VERDICTS = {
    "lt": ("sąlyga įvykdyta", "neatitinka", "trūksta duomenų"),            # fulfilled / does not meet / data missing
    "is": ("stenst", "uppfyllir ekki skilyrðið", "óljóst"),                # passes / does not meet the condition / unclear
    "hr": ("ispunjen", "nije ispunjen", "nema dovoljno podataka"),         # met / not met / not enough data
    "sr": ("испуњен", "не задовољава", "непознато"),                        # met / does not satisfy / unknown
    "sk": ("splnené", "nespĺňa", "nedá sa posúdiť"),                       # met / does not meet / cannot be judged
    "sl": ("izpolnjeno", "ni izpolnjeno", "ni dovolj podatkov"),           # met / not met / not enough data
    "lv": ("atbilst", "neatbilst", "trūkst datu"),                         # meets / does not meet / data missing
    "et": ("läbitud", "ei vasta", "otsustamata"),                          # passed / does not meet / undecided
    "sw": ("imepita", "haijapita", "haijulikani"),                         # has passed / has not passed / is unknown
    "ur": ("کامیاب", "ناکام", "غیر واضح"),                                 # successful / failed / unclear
    "tl": ("pasado", "hindi pumasa", "hindi tiyak"),                       # passed / did not pass / not certain
    "ca": ("compleix", "no compleix", "sense dades"),                      # meets / does not meet / without data
}


@pytest.mark.parametrize("language", sorted(VERDICTS))
def test_a_pass_a_fail_and_an_open_gate_in_each_new_language(language: str) -> None:
    passed, failed, unknown = VERDICTS[language]
    text = (f"Downside Assessment: {passed}.\nMargin of Safety: {failed}.\n"
            f"Position Sizing and Portfolio Risk: {unknown}.\n")
    assert read_gates(text, KLARMAN) == [(1, "PROCEED"), (2, "REJECT"), (3, "INCONCLUSIVE")]


#: A gate named by an ordinal and a gate noun of the language, with a fail: (text, the gate it names).
ORDINAL_GATES = {
    "lt": ("Antrasis kriterijus: neatitinka.", 2),          # the second criterion: does not meet
    "sk": ("Druhé kritérium: nie je splnené.", 2),          # the second criterion: is not met ("nie" apart)
    "hr": ("Drugi kriterij: nije ispunjen.", 2),
    "sr": ("Други критеријум: није испуњен.", 2),
    "sl": ("Drugi kriterij: ni izpolnjen.", 2),
    "lv": ("Otrais kritērijs: neatbilst.", 2),
    "et": ("Teine samm: ei vasta.", 2),                     # the second step: does not meet
    "sw": ("Hatua ya pili: haijapita.", 2),                 # step two (noun, linker, ordinal): has not passed
    "ur": ("دوسرا مرحلہ: ناکام", 2),                         # the second stage: failed
    "tl": ("Ikalawang hakbang: hindi pumasa.", 2),          # the second step: did not pass
    "ca": ("Segon criteri: no compleix.", 2),
    "is": ("Þriðja skref: stenst ekki.", 3),                # the third step: does not pass
}


@pytest.mark.parametrize("language", sorted(ORDINAL_GATES))
def test_an_ordinal_and_a_gate_noun_name_the_card_gate_of_that_place(language: str) -> None:
    text, gate = ORDINAL_GATES[language]
    assert read_gates(text + "\n", KLARMAN) == [(gate, "REJECT")]


def test_icelandic_ekki_after_the_verb_negates_it_past_an_adverb() -> None:
    # "the price unfortunately does not pass": "því miður" (unfortunately) stands between "stenst" and "ekki"; "því" is
    # no clause join there, so the negator after the verb still reaches it
    assert read_gates("Margin of Safety: verðið stenst því miður ekki.\n", KLARMAN) == [(2, "REJECT")]


@pytest.mark.parametrize("closing, outcome", [
    ("Galutinis sprendimas: investuoti.", "INVEST"),        # LT final decision: invest
    ("Lõplik otsus: mitte investeerida.", "DECLINE"),       # ET final decision: not to invest
    ("Konačna odluka: ne ulagati.", "DECLINE"),             # HR final decision: do not invest
    ("Decisió final: invertir.", "INVEST"),                 # CA
    ("Uamuzi wa mwisho: kuwekeza.", "INVEST"),              # SW final decision: to invest
])
def test_a_final_label_and_the_card_outcome_in_the_language(closing: str, outcome: str) -> None:
    assert final_of("Margin of Safety: PASS.\n\n", closing + "\n", KLARMAN) == outcome


@pytest.mark.parametrize("text", [
    # Spanish "si" (if) opens a clause before a pass: Swahili's "si" (is not) is left out, so it negates nothing
    "Margin of Safety: si el precio se mantiene, cumple.\n",
    # German "Ja" opening a sentence: Latvian "ja" (if) is no conditional here
    "Margin of Safety: Ja, erfüllt.\n",
])
def test_words_of_the_new_languages_that_are_other_prose_elsewhere_stay_out(text: str) -> None:
    assert read_gates(text, KLARMAN) == [(2, "PROCEED")]
