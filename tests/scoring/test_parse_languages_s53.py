"""Stop 53 (issue 13): answers in the thirteen languages of the twenty-seventh blind batch (n50) that the parser had
no words for: Haitian Creole, Belarusian, Esperanto, Cebuano, Tok Pisin, Yiddish, Javanese, Bosnian, Occitan, Scots,
Malayalam, Sundanese and Kurmanji.

Every expected value is worked by hand from the words' meaning: Haitian "kontinye" (continue) is a pass, "refize"
(refused) a fail, "enkonu" (unknown) an open gate, and so on. The texts are written for these tests; none is a corpus
case.
"""

from __future__ import annotations


import pytest

from ipb.scoring import _foreign_verdicts as fv
from tests.scoring.parse_support import (final_of, klarman_three_gates, language_words, read_gates,
                                         words_in_earlier_tuned_answers)

#: Klarman's downside-first card: gate 1 Downside Assessment, 2 Margin of Safety, 3 Position Sizing and Portfolio Risk;
#: outcomes INVEST (pass) and DECLINE (fail).
KLARMAN = "klarman_downside_first_process"

#: language -> (a pass, a fail, an open gate), each a whole verdict in that language.
VERDICTS = {
    "ht": ("kontinye", "refize", "enkonu"),                       # continue / refused / unknown
    "be": ("працягваць", "адхілена", "няясна"),                  # continue / rejected / unclear
    "eo": ("daŭrigi", "malakceptita", "necerta"),                 # continue / rejected / uncertain
    "ceb": ("padayon", "napakyas", "dili klaro"),                 # continue / failed / not clear
    "yi": ("דורכגעגאַנגען", "דורכגעפֿאַלן", "אומבאַקאַנט"),             # passed / failed / unknown
    "jv": ("nyukupi", "ora lulus", "durung jelas"),               # fulfils / did not pass / not yet clear
    "bs": ("prihvatljivo", "neprihvatljivo", "nije poznato"),     # acceptable / unacceptable / not known
    "oc": ("acceptat", "refusat", "desconegut"),                  # accepted / refused / unknown
    "ml": ("പാസായി", "പരാജയപ്പെട്ടു", "അവ്യക്തം"),                   # passed / failed / unclear
    "su": ("nyumponan", "teu lulus", "teu jelas"),                # fulfils / did not pass / not clear
    "ku": ("derbas bû", "têk çû", "ne diyar e"),                  # passed / failed / is not clear
}


@pytest.mark.parametrize("language", sorted(VERDICTS))
def test_a_pass_a_fail_and_an_open_gate_in_each_new_language(language: str) -> None:
    assert klarman_three_gates(*VERDICTS[language]) == [(1, "PROCEED"), (2, "REJECT"), (3, "INCONCLUSIVE")]


def test_tok_pisin_go_ahead_and_not_clear() -> None:
    # "go het" (go ahead) passes; "i no klia" (it is not clear) leaves the gate open. Tok Pisin has no fail word of its
    # own here: "nogat" (no, none) also states a fact and is left out.
    text = "Downside Assessment: go het.\nMargin of Safety: i no klia.\n"
    assert read_gates(text, KLARMAN) == [(1, "PROCEED"), (2, "INCONCLUSIVE")]


#: A gate that is not reached or does not apply, in each language that has such a word.
@pytest.mark.parametrize("unreached", [
    "pa aplikab",              # HT not applicable
    "не дастасоўваецца",       # BE does not apply
    "neaplikebla",             # EO not applicable
    "wala maabot",             # CEB not reached
    "i no kamap",              # TPI it was not reached
    "s'aplica pas",            # OC it does not apply
    "disnae apply",            # SCO it does not apply
    "ബാധകമല്ല",                # ML not applicable
])
def test_a_gate_not_reached_reads_n_a(unreached: str) -> None:
    assert read_gates(f"Margin of Safety: {unreached}.\n", KLARMAN) == [(2, "N/A")]


@pytest.mark.parametrize("closing, outcome", [
    ("Desizyon final: pa envesti.", "DECLINE"),                # HT final decision: do not invest
    ("Канчатковае рашэнне: інвеставаць.", "INVEST"),           # BE final decision: invest
    ("Fina decido: ne investi.", "DECLINE"),                   # EO final decision: not to invest
    ("Katapusang hukom: ayaw paliti.", "DECLINE"),             # CEB final judgement: do not buy it
    ("Pinis tingting: yumi baim.", "INVEST"),                  # TPI final thought: we buy it
    ("לעצטער באַשלוס: איך קויף נישט.", "DECLINE"),               # YI final decision: I do not buy
    ("Keputusan pungkasan: aja tuku.", "DECLINE"),             # JV final decision: do not buy
    ("Decision finala: investir pas.", "DECLINE"),             # OC final decision: not to invest
    ("അന്തിമ തീരുമാനം: നിക്ഷേപിക്കുക.", "INVEST"),               # ML final decision: invest
    ("Kaputusan ahir: ulah meuli.", "DECLINE"),                # SU final decision: do not buy
    ("Biryara dawî: bikirin.", "INVEST"),                      # KU final decision: buy
    ("Final decision: we dinnae buy.", "DECLINE"),             # SCO we do not buy
])
def test_a_final_label_and_the_card_outcome_in_the_language(closing: str, outcome: str) -> None:
    assert final_of("Margin of Safety: PASS.\n\n", closing + "\n", KLARMAN) == outcome


@pytest.mark.parametrize("text", [
    "Margin of Safety: dili natuman.",      # CEB "dili" (not) before "natuman" (fulfilled)
    "Margin of Safety: henteu nyumponan.",  # SU "henteu" (not) before "nyumponan" (fulfils)
    "Margin of Safety: isnae met.",         # SCO "isnae" (is not) before "met"
    "Margin of Safety: ערפֿילט נישט.",        # YI "ערפֿילט" (fulfilled) then "נישט" (not)
    "Margin of Safety: acceptat pas.",      # OC "pas" (not) after "acceptat" (accepted)
])
def test_a_new_negator_turns_a_pass_into_a_fail(text: str) -> None:
    assert read_gates(text + "\n", KLARMAN) == [(2, "REJECT")]


def test_a_gate_noun_and_ordinal_name_the_gate() -> None:
    # Tok Pisin "Geit 2" (gate 2) and Cebuano "ikaduhang ganghaan" (the second gate) are Klarman's gate 2;
    # Esperanto "la tria testo" (the third test) its gate 3
    assert read_gates("Geit 2: prais em i 60% bilong value. Go het.\n", KLARMAN) == [(2, "PROCEED")]
    assert read_gates("Ikaduhang ganghaan: 60% sa bili. Padayon.\n", KLARMAN) == [(2, "PROCEED")]
    assert read_gates("La tria testo: pozicio 3% de la portfolio. Daŭrigi.\n", KLARMAN) == [(3, "PROCEED")]


def test_words_that_are_other_prose_in_a_language_already_read_stay_out() -> None:
    listed = {w.lower() for w, _ in fv.WORD_VERDICTS}
    negators = {w.lower() for w in fv.NEGATORS}
    # Haitian "pa" is Tagalog / Cebuano "still"; Javanese "ora" Italian "now"; Sundanese "teu" Portuguese "your";
    # Kurmanji "na" Polish "on" and Swahili "and": none is a negator
    assert not {"pa", "ora", "teu", "na"} & negators
    # Haitian "pase" is also "than"; "pa aplike" tells that no rule binds (a pass); Tok Pisin "nogat" states a fact
    assert not {"pase", "pa aplike", "nogat", "no save"} & listed
    # Kurmanji "heke" (if) is Maori "fall"; Javanese "yen" (if) the currency: no conditionals
    assert not {"heke", "yen"} & fv.CONDITIONALS
    # "nogat" is an answer word only
    assert "nogat" in fv.NO_WORDS


def test_an_occitan_during_is_no_catalan_pending() -> None:
    # Catalan "Pendent" (pending) leaves a gate open; Occitan "pendent dètz ans" (during ten years) is a time span
    assert read_gates("Margin of Safety: pendent.\n", KLARMAN) == [(2, "INCONCLUSIVE")]
    assert read_gates("Margin of Safety: lo prètz es a 60% de la valor pendent dètz ans. PASS.\n",
                      KLARMAN) == [(2, "PROCEED")]




def test_no_new_latin_word_occurs_in_an_earlier_tuned_corpus_answer() -> None:
    # Short Latin-script words collide with English and with the languages already read ("pa", "ora", "teu", "na",
    # "dua", "heke" were left out for that). No word added here may stand as a whole word in a tuned corpus answer of
    # an earlier batch, so those answers' readings cannot change through it. The one exception is Bosnian
    # "prihvatljivo" (acceptable), the same Croatian word in the same sense: the Croatian answer that holds it
    # (n43-pif07-hrvatski-tablica, "je li ulaganje prihvatljivo", whether the investment is acceptable) reads as
    # before. Heldout answers are never read.
    new, old = language_words(("ht", "eo", "ceb", "tpi", "jv", "bs", "oc", "sco", "su", "ku"))
    words = new - old
    assert {"kontinye", "daŭrigi", "padayon", "go het", "nyumponan"} <= words    # the test reads the blocks it means
    hits = words_in_earlier_tuned_answers(words, 50)
    assert hits == [("n43-pif07-hrvatski-tablica", "prihvatljivo")]
