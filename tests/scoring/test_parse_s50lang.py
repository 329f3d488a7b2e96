"""Stop 50 (issue 13): answers in the twelve languages of the twenty-fourth blind batch that the parser had no words for
(isiXhosa, Sinhala, Khmer, West Frisian, Kannada, Kyrgyz, Malagasy, Faroese, Breton, Punjabi, Maori, Pashto); the
capital verdicts of Romance answers told to write PROCEED / REJECT ("PROCEDE", "RECHAZA"); the scripts new to the
parser: Khmer read as an unspaced script, Gurmukhi, Kannada and Sinhala signs counted as letters, a zero-width joiner
inside a listed word.

Every expected value is worked by hand from the words' meaning: Kannada "ಉತ್ತೀರ್ಣ" (passed) is a pass, "ತಿರಸ್ಕರಿಸಲಾಗಿದೆ"
(has been rejected) a fail, "ಅಸ್ಪಷ್ಟ" (unclear) an open gate, and so on. The texts are written for these tests; none
is a corpus case.
"""

from __future__ import annotations

import re

import pytest

from ipb.scoring import _foreign_verdicts as fv
from ipb.scoring._foreign_verdicts import NEGATORS
from tests.scoring.parse_support import final_of, gate_reading, klarman_three_gates, read_gates

#: Klarman's downside-first card: gate 1 Downside Assessment, 2 Margin of Safety, 3 Position Sizing and Portfolio Risk;
#: outcomes INVEST (pass) and DECLINE (fail).
KLARMAN = "klarman_downside_first_process"

#: language -> (a pass, a fail, an open gate), each a whole verdict in that language.
VERDICTS = {
    "xh": ("yamkelwe", "kuyaliwa", "akucacanga"),                  # it was accepted / it is rejected / it is not clear
    "si": ("සමත්", "ප්\u200dරතික්ෂේපිතයි", "අපැහැදිලියි"),               # passed / is rejected (a joiner inside) / is unclear
    "km": ("បំពេញលក្ខខណ្ឌ", "បដិសេធ", "មិនច្បាស់"),                 # meets the condition / rejected / not clear
    "fy": ("foldien", "ôfwiisd", "ûndúdlik"),                      # satisfied / rejected / unclear
    "kn": ("ಉತ್ತೀರ್ಣ", "ತಿರಸ್ಕರಿಸಲಾಗಿದೆ", "ಅಸ್ಪಷ್ಟ"),                    # passed / has been rejected / unclear
    "ky": ("аткарылды", "четке кагылды", "белгисиз"),              # was fulfilled / was rejected / unknown
    "mg": ("mahafeno", "nolavina", "tsy mazava"),                  # fulfils / was rejected / not clear
    "fo": ("í lagi", "fellur", "óvist"),                           # in order / fails / uncertain
    "br": ("tremenet", "c'hwitet", "diasur"),                      # passed / failed / uncertain
    "pa": ("ਸਫਲ", "ਰੱਦ", "ਅਸਪਸ਼ਟ"),                                # successful / rejected / unclear
    "mi": ("kua tutuki", "kua rahua", "rangirua"),                 # it is met / it failed / uncertain
    "ps": ("بریالی", "ناکام", "ناڅرګند"),                          # successful / failed / unclear
}


@pytest.mark.parametrize("language", sorted(VERDICTS))
def test_a_pass_a_fail_and_an_open_gate_in_each_new_language(language: str) -> None:
    assert klarman_three_gates(*VERDICTS[language]) == [(1, "PROCEED"), (2, "REJECT"), (3, "INCONCLUSIVE")]


#: A negator before or after a pass word: the pass reads as a fail.
@pytest.mark.parametrize("negated", [
    "ತೃಪ್ತಿಕರ ಅಲ್ಲ",        # KN satisfactory + "ಅಲ್ಲ" (is not)
    "සමත් නොවේ",           # SI passed + "නොවේ" (is not): ends in a vowel sign
    "ਸਫਲ ਨਹੀਂ",            # PA successful + "ਨਹੀਂ" (not): ends in a bindi
    "жетиштүү эмес",       # KY sufficient + "эмес" (is not)
    "stendst ikki",        # FO passes + "ikki" (not) after the verb
    "tsy mahafeno",        # MG "tsy" (not) + fulfils
    "kāore i tutuki",      # MI "kāore" (not) + "i tutuki" (was met)
])
def test_a_negator_turns_a_pass_into_a_fail(negated: str) -> None:
    assert read_gates(f"Margin of Safety: {negated}.\n", KLARMAN) == [(2, "REJECT")]


def test_the_new_scripts_are_read_on_their_word_boundaries() -> None:
    # Gurmukhi "ਨਹੀਂ" ends in a bindi and Sinhala "නොවේ" in a vowel sign: \b finds no end after either
    assert re.search(fv.edged("ਨਹੀਂ", "ਨਹੀਂ"), "ਲਾਗੂ ਨਹੀਂ।") is not None
    assert re.search(fv.edged("නොවේ", "නොවේ"), "අදාළ නොවේ.") is not None
    # Kannada "ಇಲ್ಲ" (there is not) is no part of "ಇಲ್ಲದೆ" (without): the vowel sign after it continues the word
    assert re.search(fv.edged("ಇಲ್ಲ", "ಇಲ್ಲ"), "ಸಾಲ ಇಲ್ಲದೆ ಬೆಳವಣಿಗೆ") is None
    # Khmer has no spaces between words: a Khmer word is read inside its run, as Thai is
    assert fv.unspaced("បដិសេធ") and not fv.unspaced("ಇಲ್ಲ")
    # the mark class stays a few whole ranges: each pattern that carries it compiles it once per word
    assert fv.MARK.startswith("(?-i:") and fv._MARKS.count("-") <= 4


def test_a_khmer_gate_noun_and_its_number_name_the_gate() -> None:
    # "ច្រកទី 2" (gate No. 2), then "បដិសេធ" (rejected) after the colon
    assert read_gates("ច្រកទី 2 — ការពិនិត្យ: បដិសេធ\n", KLARMAN) == [(2, "REJECT")]


def test_a_word_listed_with_a_zero_width_joiner_is_read_whether_the_answer_writes_it_or_not() -> None:
    # the parser reads answers with their joiners taken out; the word list is read alike, so both spellings match
    with_joiner, without = "ප්\u200dරතික්ෂේපිතයි", "ප්රතික්ෂේපිතයි"
    assert read_gates(f"Margin of Safety: {with_joiner}\n", KLARMAN) == [(2, "REJECT")]
    assert read_gates(f"Margin of Safety: {without}\n", KLARMAN) == [(2, "REJECT")]


@pytest.mark.parametrize("word, verdict", [
    ("PROCEDE", "PROCEED"),     # ES / PT / IT it proceeds
    ("RECHAZA", "REJECT"),      # ES it rejects
    ("REJEITA", "REJECT"),      # PT it rejects
    ("RESPINGE", "REJECT"),     # IT it rejects
    ("REJETTE", "REJECT"),      # FR it rejects
    ("PROCÈDE", "PROCEED"),     # FR it proceeds
    ("REBUTJA", "REJECT"),      # CA it rejects
    ("PROCEDEIX", "PROCEED"),   # CA it proceeds
])
def test_the_romance_capital_verdicts(word: str, verdict: str) -> None:
    assert read_gates(f"Margin of Safety: {word}\n", KLARMAN) == [(2, verdict)]


def test_procede_of_an_origin_is_no_verdict() -> None:
    # "procede de" / "procede da" (comes from): where a margin comes from states no verdict on it
    assert read_gates("Margin of Safety: el margen procede de los activos corrientes.\n", KLARMAN) != [(2, "PROCEED")]
    assert read_gates("Margin of Safety: il margine procede dalla cassa.\n", KLARMAN) != [(2, "PROCEED")]


@pytest.mark.parametrize("closing, outcome", [
    ("Isigqibo sokugqibela: tyala imali.", "INVEST"),          # XH final decision: invest money
    ("ಅಂತಿಮ ತೀರ್ಪು: ಹೂಡಿಕೆ ಮಾಡಬೇಡಿ.", "DECLINE"),                 # KN final verdict: do not invest
    ("Einoardiel: net ynvestearje.", "DECLINE"),               # FY final judgement: not invest
    ("Whakatau whakamutunga: haumi.", "INVEST"),               # MI final decision: invest
    ("وروستۍ پرېکړه: پانګونه مه کوئ.", "DECLINE"),               # PS final decision: do not invest
    ("Акыркы чечим: инвестиция салуу.", "INVEST"),             # KY final decision: to invest
    ("Endalig avgerð: ikki keypa.", "DECLINE"),                # FO final decision: not buy
    ("Diviz diwezhañ: gwerzhañ.", "DECLINE"),                  # BR last decision: to sell (the fail side)
])
def test_a_final_label_and_the_card_outcome_in_the_language(closing: str, outcome: str) -> None:
    assert final_of("Margin of Safety: PASS.\n\n", closing + "\n", KLARMAN) == outcome


def test_words_that_are_other_prose_in_a_language_already_read_stay_out() -> None:
    # Frisian "net" (not) is Dutch "just": "net bereikt" is "just reached", no gate left unreached
    assert "net" not in {w.lower() for w in NEGATORS}
    assert read_gates("Margin of Safety: de drempel is net bereikt.\n", KLARMAN) != [(2, "N/A")]
    # Faroese and Icelandic "fellur" (fails) is also "falls": a price that falls by a figure fails nothing
    assert read_gates("Margin of Safety: verðið fellur um 5%.\n", KLARMAN) != [(2, "REJECT")]
    # Breton "mat" (good) is English "mat"; Catalan "bastant" (quite) is no Breton "enough"; Malagasy "raha" (if) is
    # Estonian "money"; Maori "ki te" (if) is also "to the"
    listed = {w.lower() for w, _ in fv.WORD_VERDICTS}
    assert "mat-tre" in listed  # the Breton word is read where it cannot be another
    assert "mat" not in listed and "bastant" not in listed
    assert "raha" not in fv.CONDITIONALS and "ki te" not in fv.CONDITIONALS


@pytest.mark.parametrize("title, verdict, expected", [
    ("Коопсуздук маржасы", "четке кагылды", "REJECT"),   # KY margin of safety: was rejected
    ("ಸುರಕ್ಷತಾ ಅಂಚು", "ಉತ್ತೀರ್ಣ", "PROCEED"),             # KN margin of safety: passed
    ("Feilichheidsmarzje", "ôfwiisd", "REJECT"),          # FY margin of safety: rejected
])
def test_a_gate_term_of_the_language_names_the_gate_under_the_review_bar(title: str, verdict: str, expected: str) -> None:
    # the term (grammar/gate_terms.yaml, margin of safety) is the key noun of Klarman's gate 2, Margin of Safety: a
    # gate named by a term alone is read, at the term's confidence factor 0.7, under the 0.7 review bar
    reading = gate_reading(f"{title}: {verdict}.\n", KLARMAN, 2)
    assert reading is not None and reading[0] == expected and reading[1] < 0.7
