"""Stop 49 (issue 13): answers in the ten languages of the twenty-third blind batch that the parser had no words for
(Amharic, Yoruba, isiZulu, Telugu, Somali, Scottish Gaelic, Mongolian, Tajik, Gujarati, Hausa); a word that ends in a
combining mark (a Gujarati or Telugu vowel sign, a Yoruba tone) read on its word boundary.

Every expected value is worked by hand from the words' meaning: isiZulu "iphumelele" (it succeeded) is a pass,
"yehlulekile" (it failed) a fail, "akucaci" (it is not clear) an open gate, and so on. The texts are written for these
tests; none is a corpus case.
"""

from __future__ import annotations

import re

import pytest

from ipb.scoring import _foreign_verdicts as fv
from ipb.scoring._foreign_verdicts import NEGATORS
from ipb.scoring.outcome import reads_as_english
from tests.scoring.parse_support import final_of, klarman_three_gates, read_gates

#: Klarman's downside-first card: gate 1 Downside Assessment, 2 Margin of Safety, 3 Position Sizing and Portfolio Risk;
#: outcomes INVEST (pass) and DECLINE (fail).
KLARMAN = "klarman_downside_first_process"

#: language -> (a pass, a fail, an open gate), each a whole verdict in that language.
VERDICTS = {
    "am": ("ተሟልቷል", "አልተሟላም", "ግልጽ አይደለም"),                  # fulfilled / not fulfilled / is not clear
    "yo": ("ó yege", "kọ̀", "kò dájú"),                            # it passed / refused / not certain
    "zu": ("iphumelele", "yehlulekile", "akucaci"),                # it succeeded / it failed / it is not clear
    "te": ("నెరవేరింది", "విఫలమైంది", "అస్పష్టం"),                        # was fulfilled / failed / unclear
    "so": ("wuu gudbay", "kuma gudbin", "lama garanayo"),          # it passed / did not pass / it is not known
    "gd": ("soirbheachail", "dh'fhàillig", "mì-chinnteach"),       # successful / failed / uncertain
    "mn": ("тэнцсэн", "тэнцээгүй", "тодорхойгүй"),                 # passed / did not pass / unclear
    "tg": ("гузашт", "нагузашт", "номаълум"),                      # passed / did not pass / unknown
    "gu": ("સંતોષકારક", "નિષ્ફળ", "અસ્પષ્ટ"),                         # satisfactory / failed / unclear
    "ha": ("ya wuce", "bai wuce ba", "ba a sani ba"),              # it passed / it did not pass / it is not known
}


@pytest.mark.parametrize("language", sorted(VERDICTS))
def test_a_pass_a_fail_and_an_open_gate_in_each_new_language(language: str) -> None:
    assert klarman_three_gates(*VERDICTS[language]) == [(1, "PROCEED"), (2, "REJECT"), (3, "INCONCLUSIVE")]


#: A negator written after a pass word: the pass reads as a fail.
@pytest.mark.parametrize("negated", [
    "સંતોષકારક નથી",           # GU satisfactory + "નથી" (is not): both end in a vowel sign
    "నెరవేరింది కాదు",          # TE was fulfilled + "కాదు" (is not)
    "хангалттай биш",          # MN sufficient + "биш" (is not)
    "кофӣ аст нест",            # TG "кофӣ аст" (is sufficient) + "нест" (is not)
])
def test_a_negator_after_the_word_turns_a_pass_into_a_fail(negated: str) -> None:
    assert read_gates(f"Margin of Safety: {negated}.\n", KLARMAN) == [(2, "REJECT")]


def test_a_word_ending_in_a_combining_mark_is_read_on_its_boundary_and_not_inside_a_longer_word() -> None:
    # "kọ̀" (refused) ends in U+0300 and "નથી" in a vowel sign: \b finds no end after either
    assert re.search(fv.bounded("kọ̀"), "Ẹnubodè 1: kọ̀.") is not None
    assert re.search(fv.edged("નથી", "નથી"), "લાગુ પડતું નથી.") is not None
    # "kọ̀" is no part of "kọ̀ọ̀kan" (each), nor "નથી" of a word it begins
    assert re.search(fv.bounded("kọ̀"), "àyíká kọ̀ọ̀kan") is None
    assert re.search(fv.edged("નથી", "નથી"), "નથીજ") is None


@pytest.mark.parametrize("closing, outcome", [
    ("Isinqumo sokugcina: tshala imali.", "INVEST"),             # ZU final decision: invest money
    ("Go'aanka kama dambaysta ah: ha maalgelin.", "DECLINE"),    # SO final decision: do not invest
    ("Эцсийн шийдвэр: хөрөнгө оруулахгүй.", "DECLINE"),          # MN final decision: will not invest
    ("Қарори ниҳоӣ: сармоягузорӣ кардан.", "INVEST"),            # TG final decision: to invest
    ("અંતિમ નિર્ણય: રોકાણ કરો.", "INVEST"),                        # GU final decision: invest
    ("తుది నిర్ణయం: పెట్టుబడి పెట్టవద్దు.", "DECLINE"),              # TE final decision: do not invest
])
def test_a_final_label_and_the_card_outcome_in_the_language(closing: str, outcome: str) -> None:
    assert final_of("Margin of Safety: PASS.\n\n", closing + "\n", KLARMAN) == outcome


def test_words_that_are_other_prose_elsewhere_are_no_negators_nor_buys() -> None:
    # Somali "ma" is Italian "but", "aan" Dutch "on"; Gaelic "cha" is the Swahili linker, "chan" a surname, "nach"
    # German; Hausa "ba" is Vietnamese "three"; Tajik "на" is Russian "on"
    assert not {"ma", "aan", "cha", "chan", "nach", "ba", "bai", "на"} & {w.lower() for w in NEGATORS}
    # Hausa "saya" (buy) alone is Malay and Indonesian "I"; "bí" (Yoruba "if") is also "how"
    assert "saya" not in {w.lower() for w in fv.FINAL_WORDS} and "mu saya" in fv.FINAL_WORDS
    assert "bí" not in fv.CONDITIONALS and "uma" not in fv.CONDITIONALS
    # a Swahili ordinal with its linker "cha" before a pass stays a pass
    assert read_gates("Kigezo cha pili: imepita.\n", KLARMAN) == [(2, "PROCEED")]


def test_latin_script_prose_of_the_new_languages_does_not_read_as_english() -> None:
    assert not reads_as_english("Shirkadda waa mid yar, laakiin qiimaha iyo hantida waxay muujinayaan faa'iido.")
    assert not reads_as_english("Kodwa inkampani incane futhi inzuzo yayo iyehla ngoba izindleko ziyakhula.")
    assert not reads_as_english("Kuma wannan kamfani yana da bashi mai yawa, amma suna samun riba domin kasuwa.")
    assert reads_as_english("The company is small, but the price and the assets show value.")


# -- a gate met by its place alone reads under the 0.7 review bar, whatever the level of its verdict word

ZULU_TABLE = """| # | Isihloko | Isinqumo |
|---|---|---|
| 1 | {one} | QHUBEKA |
| 2 | {two} | QHUBEKA |
| 3 | {three} | KWENQATSHWA |
"""


def test_rows_read_by_their_place_alone_stay_under_the_review_bar() -> None:
    from ipb.scoring.parse import parse_response
    # the writer's own isiZulu titles (the risk of loss, a very low price, the size of the position) name no gate:
    # row k is gate k by its place; the verdict cells say continue, continue, rejected. A verdict cell's word is the
    # strongest level (0.95), and the place factor 0.75 made 0.71: over the bar, with nothing naming the gate
    text = ZULU_TABLE.format(one="Ingozi yokulahlekelwa", two="Intengo ephansi kakhulu", three="Usayizi wesikhundla")
    gates = parse_response(text, KLARMAN, embedder=False).gates
    assert [(g.gate, g.verdict, g.how) for g in gates] == [(1, "PROCEED", "position"), (2, "PROCEED", "position"),
                                                           (3, "REJECT", "position")]
    assert all(g.confidence < 0.7 for g in gates)
    # the same rows titled with the card's names are read by name, over the bar
    named = ZULU_TABLE.format(one="Downside Assessment", two="Margin of Safety", three="Position Sizing and Portfolio Risk")
    gates = parse_response(named, KLARMAN, embedder=False).gates
    assert [(g.gate, g.verdict) for g in gates] == [(1, "PROCEED"), (2, "PROCEED"), (3, "REJECT")]
    assert all(g.how != "position" and g.confidence >= 0.7 for g in gates)
