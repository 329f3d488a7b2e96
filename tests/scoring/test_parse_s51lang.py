"""Stop 51 (issue 13): answers in the eight languages of the twenty-fifth blind batch that the parser had no words for
(Turkmen, Tatar, Igbo, Samoan, Kinyarwanda, Shona, Quechua, Sesotho).

Every expected value is worked by hand from the words' meaning: Turkmen "kabul edildi" (was accepted) is a pass,
"ret edildi" (was rejected) a fail, "näbelli" (unknown) an open gate, and so on. The texts are written for these tests;
none is a corpus case.
"""

from __future__ import annotations

import pytest

from ipb.scoring import _foreign_verdicts as fv
from tests.scoring.parse_support import final_of, gate_reading, klarman_three_gates, read_gates

#: Klarman's downside-first card: gate 1 Downside Assessment, 2 Margin of Safety, 3 Position Sizing and Portfolio Risk;
#: outcomes INVEST (pass) and DECLINE (fail).
KLARMAN = "klarman_downside_first_process"

#: language -> (a pass, a fail, an open gate), each a whole verdict in that language.
VERDICTS = {
    "tk": ("kabul edildi", "ret edildi", "näbelli"),               # was accepted / was rejected / unknown
    "tt": ("кабул ителде", "кире кагылды", "билгесез"),            # was accepted / was rejected / unknown
    "ig": ("gaa n'ihu", "a jụrụ", "edoghị anya"),                  # go forward / was rejected / is not clear
    "sm": ("fa'aauau", "ua teena", "lē mautinoa"),                 # continue / was rejected / uncertain
    "rw": ("byemewe", "byanzwe", "ntibisobanutse"),                # accepted / rejected / not clear
    "sn": ("yabudirira", "yarambwa", "hazvina kujeka"),            # succeeded / was rejected / is not clear
    "qu": ("hunt'asqa", "mana hunt'asqachu", "mana sut'ichu"),     # fulfilled / not fulfilled / not clear
    "st": ("e atlehile", "e hanngoe", "ha ho hlake"),              # succeeded / was rejected / it is not clear
}


@pytest.mark.parametrize("language", sorted(VERDICTS))
def test_a_pass_a_fail_and_an_open_gate_in_each_new_language(language: str) -> None:
    assert klarman_three_gates(*VERDICTS[language]) == [(1, "PROCEED"), (2, "REJECT"), (3, "INCONCLUSIVE")]


#: A gate that is not reached or does not apply, in each language.
@pytest.mark.parametrize("unreached", [
    "ýetilmedi",            # TK was not reached
    "кагылмый",             # TT does not concern (it)
    "erughị",               # IG did not reach
    "e le'i o'o i ai",      # SM has not reached it
    "ntibyagezweho",        # RW was not reached
    "hayasvikwa",           # SN was not reached
    "mana chayanchu",       # QU does not arrive
    "ha e sebetse",         # ST does not apply
])
def test_a_gate_not_reached_reads_n_a(unreached: str) -> None:
    assert read_gates(f"Margin of Safety: {unreached}.\n", KLARMAN) == [(2, "N/A")]


def test_a_negator_after_the_word_turns_a_pass_into_a_fail() -> None:
    # Turkmen "däl" and Tatar "түгел" (is not) follow the word they negate
    assert read_gates("Margin of Safety: laýyk gelýär däl.\n", KLARMAN) == [(2, "REJECT")]
    assert read_gates("Margin of Safety: канәгатьләндерә түгел.\n", KLARMAN) == [(2, "REJECT")]


@pytest.mark.parametrize("closing, outcome", [
    ("Jemleýji karar: maýa goýmaň.", "DECLINE"),            # TK concluding decision: do not invest
    ("Соңгы карар: акча салырга.", "INVEST"),               # TT final decision: to put money in
    ("Mkpebi ikpeazụ: tinye ego.", "INVEST"),               # IG final decision: put money in
    ("Fa'ai'uga mulimuli: aua le teu tupe.", "DECLINE"),    # SM final conclusion: do not invest money
    ("Umwanzuro wa nyuma: shora imari.", "INVEST"),         # RW final conclusion: invest capital
    ("Mhedziso yekupedzisira: usaisa mari.", "DECLINE"),    # SN final conclusion: do not put money in
    ("Qeto ea ho qetela: se tsetele.", "DECLINE"),          # ST final decision: do not invest
])
def test_a_final_label_and_the_card_outcome_in_the_language(closing: str, outcome: str) -> None:
    assert final_of("Margin of Safety: PASS.\n\n", closing + "\n", KLARMAN) == outcome


def test_a_tatar_pass_word_at_the_end_of_each_bullet() -> None:
    # "Үтте." (passed) closing each English-labelled line, as a Tatar blog writes it
    text = "- Downside Assessment: зарар 10%. Үтте.\n- Margin of Safety: бәя 60%. Үтте.\n"
    assert read_gates(text, KLARMAN) == [(1, "PROCEED"), (2, "PROCEED")]


def test_a_measure_before_a_figure_is_no_verdict() -> None:
    # Igbo "erughị" (does not reach) before a figure compares two amounts: "$600M is less than $800M" leaves no gate
    # unreached
    assert read_gates("Margin of Safety: $600M erughị $800M, ọ dị mma.\n", KLARMAN) != [(2, "N/A")]


def test_words_that_are_other_prose_in_a_language_already_read_stay_out() -> None:
    listed = {w.lower() for w, _ in fv.WORD_VERDICTS}
    # Samoan "le" is also the article and French / Italian "le"; Quechua "mana" is Indonesian "where"; Sesotho "ha" is
    # also "when": none is a negator
    assert not {"le", "lē", "mana", "ha"} & {w.lower() for w in fv.NEGATORS}
    # Turkmen "geçdi" (passed) alone is also time gone by; Samoan "pasi" also "bus": only their phrases are read
    assert "geçdi" not in listed and "test geçdi" in listed
    assert "pasi" not in listed and "ua pasi" in listed
    # Shona "kana" (if) is also "or"; Sesotho "ha" (if, when) too short
    assert "kana" not in fv.CONDITIONALS and "haeba" in fv.CONDITIONALS
    # a Turkmen fact "there is no preferred stock" ("ýok") and a Quechua "outside" ("hawa") state no gate verdict
    assert read_gates("Margin of Safety: preferred stock ýok.\n", KLARMAN) != [(2, "REJECT")]
    assert read_gates("Margin of Safety: hawa qullqipi manu 30%.\n", KLARMAN) != [(2, "PROCEED")]


def test_a_shona_ordinal_and_gate_noun_name_the_gate() -> None:
    # "nhanho yekutanga" (the first step) is Klarman's gate 1; "yatoramba" (has already refused) a fail
    assert read_gates("Nhanho yekutanga yatoramba: kurasikirwa kwe40%.\n", KLARMAN) == [(1, "REJECT")]


@pytest.mark.parametrize("title, verdict, expected", [
    ("Howpsuzlyk aralygy", "ret edildi", "REJECT"),           # TK margin of safety: was rejected
    ("Куркынычсызлык запасы", "кабул ителде", "PROCEED"),     # TT margin of safety: was accepted
    ("د خوندیتوب حاشیه", "ناکام", "REJECT"),                  # PS margin of safety: failed
])
def test_a_gate_term_of_the_language_names_the_gate_under_the_review_bar(title: str, verdict: str, expected: str) -> None:
    # the term (grammar/gate_terms.yaml, margin of safety) is the key noun of Klarman's gate 2, Margin of Safety: a
    # gate named by a term alone is read at the term's confidence factor, under the 0.7 review bar
    reading = gate_reading(f"{title}: {verdict}.\n", KLARMAN, 2)
    assert reading is not None and reading[0] == expected and reading[1] < 0.7
