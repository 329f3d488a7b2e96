"""Stop 54 (issue 13): answers in the languages of the twenty-eighth blind batch (n51) that the parser had no words
for: Papiamentu, Asturian, Krio, Interlingua, Bislama, Judaeo-Spanish (Ladino), Venetian, Sicilian, Tetum, Friulian
and Minangkabau; and the closing acts and gate terms of Kurmanji, Malayalam and Sundanese that s53lang left out.

Every expected value is worked by hand from the words' meaning: Asturian "siguir" (continue) is a pass, "refugar"
(reject) a fail, "nun ta claro" (it is not clear) an open gate, and so on. The texts are written for these tests;
none is a corpus case.
"""

from __future__ import annotations

import re

import pytest

from ipb.scoring import _foreign_verdicts as fv
from ipb.scoring.parse import _act_words as aw
from tests.scoring.parse_support import (final_of, gate_reading, klarman_three_gates, language_words, read_gates,
                                         words_in_earlier_tuned_answers)

#: Klarman's downside-first card: gate 1 Downside Assessment, 2 Margin of Safety, 3 Position Sizing and Portfolio Risk;
#: outcomes INVEST (pass) and DECLINE (fail).
KLARMAN = "klarman_downside_first_process"

#: The codes this stop adds to the languages section (their Latin-script words are checked against earlier answers).
NEW_CODES = ("pap", "ast", "kri", "ia", "bi", "lad", "vec", "scn", "tet", "fur", "min")

#: language -> (a pass, a fail, an open gate), each a whole verdict in that language.
VERDICTS = {
    "pap": ("ta kumpli", "no ta pasa", "no ta kla"),         # complies / does not pass / is not clear
    "ast": ("siguir", "refugar", "nun ta claro"),            # continue / reject / is not clear
    "kri": ("i pas", "i nɔ pas", "a nɔ no"),                 # it passes / it does not pass / I do not know
    "ia": ("satisfacite", "rejectate", "incerte"),           # satisfied / rejected / uncertain
    "lad": ("kumple", "no kumple", "no se save"),            # complies / does not comply / one does not know
    "vec": ("el passa", "no el passa", "no se sa"),          # it passes / it does not pass / one does not know
    "scn": ("superatu", "nun passa", "nun si sapi"),         # passed / does not pass / one does not know
    "tet": ("kumpre ona", "la kumpre", "la klaru"),          # fulfilled / does not fulfil / not clear
    "fur": ("al passe", "nol passe", "nol è clâr"),          # it passes / it does not pass / it is not clear
    "min": ("mamanuhi", "indak lulus", "indak jaleh"),       # fulfils / did not pass / not clear
}


@pytest.mark.parametrize("language", sorted(VERDICTS))
def test_a_pass_a_fail_and_an_open_gate_in_each_new_language(language: str) -> None:
    assert klarman_three_gates(*VERDICTS[language]) == [(1, "PROCEED"), (2, "REJECT"), (3, "INCONCLUSIVE")]


def test_bislama_go_ahead_and_not_good() -> None:
    # "gohed" (go ahead) passes; "i no gud" (it is not good) fails. No Bislama word for "unclear" is listed here
    # beyond Tok Pisin's "i no klia", read already.
    text = "Downside Assessment: GOHED.\nMargin of Safety: I NO GUD.\n"
    assert read_gates(text, KLARMAN) == [(1, "PROCEED"), (2, "REJECT")]


#: A gate that is not reached or does not apply, in each language that has such a word.
@pytest.mark.parametrize("unreached", [
    "no ta aplikabel",         # PAP not applicable
    "nun s'aplica",            # AST it does not apply
    "wi nɔ rich de",           # KRI we do not get there
    "non es applicabile",      # IA it is not applicable
    "i no kasem",              # BI it was not reached
    "no se riva",              # VEC one does not get there
    "nun s'applica",           # SCN it does not apply
    "la aplika",               # TET it does not apply
    "indak balaku",            # MIN it does not apply
])
def test_a_gate_not_reached_reads_n_a(unreached: str) -> None:
    assert read_gates(f"Margin of Safety: {unreached}.\n", KLARMAN) == [(2, "N/A")]


@pytest.mark.parametrize("closing, outcome", [
    ("Desishon final: nos no ta kumpra.", "DECLINE"),         # PAP final decision: we do not buy
    ("Veredictu final: nun invertir.", "DECLINE"),            # AST final verdict: not to invest
    ("Las disizhɔn: bay am.", "INVEST"),                      # KRI last decision: buy it
    ("Verdicto final: nos compra.", "INVEST"),                # IA final verdict: we buy
    ("Las disisen: yumi no pem.", "DECLINE"),                 # BI last decision: we do not buy
    ("Konkluzion final: no merkamos.", "DECLINE"),            # LAD final conclusion: we do not buy
    ("Verdeto final: compremo.", "INVEST"),                   # VEC final verdict: we buy
    ("Dicisioni finali: nun accattamu.", "DECLINE"),          # SCN final decision: we do not buy
    ("Desizaun final: ami sosa.", "INVEST"),                  # TET final decision: we buy
    ("Verdet finâl: no lu comprìn.", "DECLINE"),              # FUR final verdict: we do not buy it
    ("Kaputusan akhia: indak mambali.", "DECLINE"),           # MIN final decision: do not buy
])
def test_a_final_label_and_the_card_outcome_in_the_language(closing: str, outcome: str) -> None:
    assert final_of("Margin of Safety: PASS.\n\n", closing + "\n", KLARMAN) == outcome


@pytest.mark.parametrize("closing, outcome", [
    ("Merqué acciones de Lavandera esta selmana.", "INVEST"),      # AST I bought shares this week
    ("Go vendù tuti i bond che gavevo.", "DECLINE"),              # VEC I sold all the bonds I had
    ("Stamatina accattai 500 azzioni.", "INVEST"),                # SCN this morning I bought 500 shares
    ("Ha'u sosa ona aksaun fulan kotuk.", "INVEST"),              # TET I bought shares last month
    ("ഈ ആഴ്ച ഞങ്ങൾ ഓഹരികൾ വാങ്ങി.", "INVEST"),                     # ML this week we bought the shares
    ("Urang meuli sahamna minggu ieu.", "INVEST"),                # SU we buy its shares this week
    ("Em nakirin.", "DECLINE"),                                   # KU we do not buy
])
def test_a_closing_act_in_the_writers_words_is_the_final(closing: str, outcome: str) -> None:
    assert final_of("Margin of Safety: PASS.\n\n", closing + "\n", KLARMAN) == outcome


def test_the_new_acts_blocks_name_their_portfolio_and_both_moves() -> None:
    blocks = aw._blocks()
    for code in ("ast", "vec", "scn", "tet", "ml", "su", "ku"):
        block = blocks[code]
        assert block["enter"] and block["leave"] and block["portfolio"], code
        assert block["into_portfolio"] and block["out_of_portfolio"], code


@pytest.mark.parametrize("text", [
    "Margin of Safety: gnanca el passa.",    # VEC "gnanca" (not even) before "el passa" (it passes)
    "Margin of Safety: la'os kumpre ona.",   # TET "la'os" (is not) before "kumpre ona" (fulfilled)
    "Margin of Safety: indak satisfacite.",  # MIN "indak" (not) before a pass word it does not list whole
])
def test_a_new_negator_turns_a_pass_into_a_fail(text: str) -> None:
    assert read_gates(text + "\n", KLARMAN) == [(2, "REJECT")]


@pytest.mark.parametrize("heading, card, gate", [
    ("Marxe de seguridá", KLARMAN, 2),                                 # AST margin of safety
    ("സുരക്ഷാ മാർജിൻ", KLARMAN, 2),                                      # ML margin of safety
    ("Balor intrínseko", "buffett_share_repurchase", 2),               # PAP intrinsic value
    ("Pirdita", "graham_net_net_screen", 2),                           # SCN loss
    ("Rindiment dal capitâl", "munger_business_quality_price", 2),     # FUR return on capital
])
def test_a_gate_term_names_its_gate_under_the_review_bar(heading: str, card: str, gate: int) -> None:
    reading = gate_reading(f"{heading}: 60%. PASS.\n", card, gate)
    assert reading is not None and reading[0] == "PROCEED" and reading[1] < 0.7


def test_words_that_are_other_prose_in_a_language_already_read_stay_out() -> None:
    listed = {w.lower() for w, _ in fv.WORD_VERDICTS}
    negators = {w.lower() for w in fv.NEGATORS}
    # Asturian and Sicilian "nun" is German "now"; Tetum "la" the Romance article; Friulian "nol" Indonesian "zero":
    # no negators
    assert not {"nun", "la", "nol"} & negators
    # Papiamentu "sigui" is Catalan "be"; "no ta aplika" tells that a kill criterion binds no one (a pass); Asturian
    # "refugáu" is also "shunned"; Interlingua "rejecta" describes a rule; Sicilian "nun teni" dismisses an objection;
    # Tetum "liu" is also "more", "la liu" "not over"; Krio "pas" (pass) alone is the French negator
    assert not {"sigui", "no ta aplika", "refugáu", "rejecta", "nun teni", "liu", "la liu", "pas"} & listed
    # Bislama "get" (gate) is an English verb: no gate noun (Interlingua "porta" is read already as Portuguese's)
    assert "get" not in {w.lower() for w in fv.GATE_NOUNS}
    # Interlingua and Friulian "ultime" is Italian "last" of a plural ("le ultime sedute"): no word for "last"
    assert "ultime" not in {w.lower() for w in fv.LAST_WORDS}


def test_a_papiamentu_kill_criterion_that_does_not_apply_is_a_pass() -> None:
    # "e kill criterion no ta aplika" (the kill criterion does not apply) clears the gate; the verdict word after
    # it decides
    text = "Downside Assessment: e kill criterion no ta aplika. Ta kumpli.\n"
    assert read_gates(text, KLARMAN) == [(1, "PROCEED")]




def test_no_new_latin_word_occurs_in_an_earlier_tuned_corpus_answer() -> None:
    # Short Latin-script words collide with English and with the Romance languages already read (Asturian, Venetian,
    # Sicilian, Friulian, Ladino, Interlingua and Papiamentu share many words with Spanish, Italian and Portuguese;
    # Krio and Bislama with English). No word added here may stand as a whole word in a tuned corpus answer of an
    # earlier batch, so those answers' readings cannot change through it; the exceptions are listed with the reason
    # each reads the same. Heldout answers are never read.
    new, old = language_words(NEW_CODES, acts_codes=NEW_CODES + ("ast", "vec", "scn", "tet", "ku", "su"))
    words = {w for w in new - old if re.search(r"[a-z]", w)}
    assert {"siguir", "gohed", "i pas", "merqué", "accattai", "indak"} <= words    # the test reads the blocks it means
    hits = words_in_earlier_tuned_answers(words, 51)
    assert sorted(hits) == []
