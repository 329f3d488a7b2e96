"""Stop 52 (issue 13): answers in the nine languages of the twenty-sixth blind batch that the parser had no words for
(Wolof, Chichewa, Lao, Lingala, Tongan, Assamese, Burmese, Odia, Oromo).

Every expected value is worked by hand from the words' meaning: Wolof "dem ci kanam" (go forward) is a pass, "bañ
nanu ko" (we refused it) a fail, "wóorul" (it is not certain) an open gate, and so on. The texts are written for these
tests; none is a corpus case.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from ipb.scoring import _foreign_verdicts as fv
from tests.scoring.parse_support import final_of, gate_reading, klarman_three_gates, read_gates

#: Klarman's downside-first card: gate 1 Downside Assessment, 2 Margin of Safety, 3 Position Sizing and Portfolio Risk;
#: outcomes INVEST (pass) and DECLINE (fail).
KLARMAN = "klarman_downside_first_process"

#: language -> (a pass, a fail, an open gate), each a whole verdict in that language.
VERDICTS = {
    "wo": ("dem ci kanam", "bañ nanu ko", "wóorul"),          # go forward / we refused it / it is not certain
    "ny": ("yapambana", "yalephera", "sizikudziwika"),        # it succeeded / it failed / it is not known
    "lo": ("ດຳເນີນຕໍ່", "ປະຕິເສດ", "ບໍ່ຊັດເຈນ"),                    # continue / rejected / not clear
    "ln": ("kokoba", "eboyami", "toyebi te"),                 # continue / it was refused / we do not know
    "to": ("kuo fakangofua", "kuo fakafisi'i", "'ikai fakapapau'i"),  # approved / refused / not certain
    "as": ("উত্তীৰ্ণ", "অনুত্তীৰ্ণ", "অস্পষ্ট"),                   # passed / failed / unclear
    "my": ("ပြည့်မီ", "မပြည့်မီ", "မသေချာ"),                       # meets / does not meet / uncertain
    "or": ("ଉତ୍ତୀର୍ଣ୍ଣ", "ବିଫଳ", "ଅସ୍ପଷ୍ଟ"),                       # passed / failed / unclear
    "om": ("ulaagaa guute", "didame", "hin beekamu"),         # met the requirement / was refused / is not known
}


@pytest.mark.parametrize("language", sorted(VERDICTS))
def test_a_pass_a_fail_and_an_open_gate_in_each_new_language(language: str) -> None:
    assert klarman_three_gates(*VERDICTS[language]) == [(1, "PROCEED"), (2, "REJECT"), (3, "INCONCLUSIVE")]


#: A gate that is not reached or does not apply, in each language.
@pytest.mark.parametrize("unreached", [
    "àggul",                   # WO did not reach
    "sizikugwira ntchito",     # NY it does not apply
    "ບໍ່ໄປເຖິງ",                 # LO does not reach
    "tokomi te",               # LN we did not arrive
    "'ikai a'u ki ai",         # TO does not reach it
    "প্ৰযোজ্য নহয়",              # AS is not applicable
    "မသက်ဆိုင်",                 # MY is not relevant
    "ପ୍ରଯୁଜ୍ୟ ନୁହେଁ",              # OR is not applicable
    "hin ilaallatu",           # OM does not concern (it)
])
def test_a_gate_not_reached_reads_n_a(unreached: str) -> None:
    assert read_gates(f"Margin of Safety: {unreached}.\n", KLARMAN) == [(2, "N/A")]


@pytest.mark.parametrize("closing, outcome", [
    ("Ndogal bu mujj: dunu jënd.", "DECLINE"),                 # WO final decision: we will not buy
    ("Chigamulo chomaliza: ikani ndalama.", "INVEST"),         # NY final decision: put money in
    ("ຄຳຕັດສິນສຸດທ້າຍ: ບໍ່ຄວນລົງທຶນ", "DECLINE"),                 # LO final verdict: should not invest
    ("Ekateli ya nsuka: tokosomba.", "INVEST"),                # LN final decision: we will buy
    ("Tu'utu'uni faka'osi: 'oua 'e fakatau.", "DECLINE"),      # TO final decision: do not buy
    ("চূড়ান্ত সিদ্ধান্ত: বিনিয়োগ কৰক।", "INVEST"),                # AS final decision: invest
    ("နောက်ဆုံးဆုံးဖြတ်ချက်: မဝယ်ဘူး", "DECLINE"),                # MY final decision: will not buy
    ("ଅନ୍ତିମ ସିଦ୍ଧାନ୍ତ: ନିବେଶ କରନ୍ତୁ।", "INVEST"),               # OR final decision: invest
    ("Murtii xumuraa: hin bitinaa.", "DECLINE"),               # OM final decision: do not buy
])
def test_a_final_label_and_the_card_outcome_in_the_language(closing: str, outcome: str) -> None:
    assert final_of("Margin of Safety: PASS.\n\n", closing + "\n", KLARMAN) == outcome


def test_a_tongan_negator_turns_a_pass_into_a_fail() -> None:
    # "'ikai" (not) before "lavame'a" (succeeded): did not succeed
    assert read_gates("Margin of Safety: 'oku 'ikai lavame'a.\n", KLARMAN) == [(2, "REJECT")]


def test_a_lao_step_number_and_label_name_the_gate() -> None:
    # "ຂັ້ນທີ 2" (step no. 2) is Klarman's gate 2; "ຄຳຕັດສິນ: ບໍ່ຜ່ານ" (verdict: did not pass) a fail, never the pass
    # "ຜ່ານ" it holds
    assert read_gates("ຂັ້ນທີ 2: ລາຄາ 80% ຂອງມູນຄ່າ. ຄຳຕັດສິນ: ບໍ່ຜ່ານ\n", KLARMAN) == [(2, "REJECT")]


def test_a_chichewa_did_not_do_negates_the_act_after_it() -> None:
    # dalio_all_weather_rebalancing: outcomes REBALANCE and HOLD. "Sitinachite rebalance" (we did not rebalance) is the
    # card's HOLD; "Tinachita rebalance" (we rebalanced) its REBALANCE.
    card = "dalio_all_weather_rebalancing"
    body = "Drift: 4 points, inside the 5 point band. Fail.\n\n"
    assert final_of(body, "Zotsatira: Sitinachite rebalance.\n", card) == "HOLD"
    assert final_of(body, "Zotsatira: Tinachita rebalance.\n", card) == "REBALANCE"


def test_an_assamese_ordinal_and_test_noun_name_the_gate() -> None:
    # "দ্বিতীয় পৰীক্ষা" (the second test) is gate 2; "উত্তীৰ্ণ" (passed)
    assert read_gates("দ্বিতীয় পৰীক্ষা: মূল্যৰ ৬০%. উত্তীৰ্ণ।\n", KLARMAN) == [(2, "PROCEED")]


def test_words_that_are_other_prose_in_a_language_already_read_stay_out() -> None:
    listed = {w.lower() for w, _ in fv.WORD_VERDICTS}
    negators = {w.lower() for w in fv.NEGATORS}
    # Lingala "te" is French "you" and the Maori article; Oromo "hin" German "there"; Wolof "du" French; Burmese "မ"
    # a plain consonant: none is a negator
    assert not {"te", "hin", "du", "မ", "miti"} & negators
    # Tongan "hoko atu" (continue) is Maori "sell"; Oromo "darbe" (passed) also "last" (year), "kufe" (failed) a price
    # that fell; Lingala "elongi" (succeeded) also "face"; Chichewa "sinafike" (did not reach) a measure's outcome
    assert not {"hoko atu", "darbe", "kufe", "elongi", "sinafike", "eyebani te"} & listed
    # Lingala "soki" (if) is a conditional; Wolof "su" (if) is Spanish "su": no conditional
    assert "soki" in fv.CONDITIONALS and "su" not in fv.CONDITIONALS
    # an Assamese fact "there is no preferred stock" ("নাই") and an Oromo "last year" state no gate verdict
    assert read_gates("Margin of Safety: preferred stock নাই।\n", KLARMAN) != [(2, "REJECT")]
    assert read_gates("Margin of Safety: bara darbe 30% ture.\n", KLARMAN) != [(2, "PROCEED")]


@pytest.mark.parametrize("title, verdict, expected", [
    ("সুৰক্ষা মাৰ্জিন", "নাকচ", "REJECT"),             # AS margin of safety: rejected
    ("ସୁରକ୍ଷା ମାର୍ଜିନ", "ଉତ୍ତୀର୍ଣ୍ଣ", "PROCEED"),       # OR margin of safety: passed
])
def test_a_gate_term_of_the_language_names_the_gate_under_the_review_bar(title: str, verdict: str, expected: str) -> None:
    # the term (grammar/gate_terms.yaml, margin of safety) is the key noun of Klarman's gate 2, Margin of Safety: a gate
    # named by a term alone is read at the term's confidence factor, under the 0.7 review bar
    reading = gate_reading(f"{title}: {verdict}।\n", KLARMAN, 2)
    assert reading is not None and reading[0] == expected and reading[1] < 0.7


def _new_latin_words() -> set[str]:
    """Every word of the five new Latin-script blocks (Wolof, Chichewa, Lingala, Tongan, Oromo), lower-cased."""
    doc = yaml.safe_load((Path(__file__).parents[2] / "grammar" / "languages.yaml").read_text(encoding="utf-8"))
    words: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, str):
            words.add(node.lower())
        elif isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, dict):
            for key, value in node.items():
                if key != "name":
                    walk(value)

    for code in ("wo", "ny", "ln", "to", "om"):
        walk(doc["languages"][code])
    return words


def test_no_new_latin_word_occurs_in_an_earlier_tuned_corpus_answer() -> None:
    # Short Latin-script words collide with English and with the languages already read (Lingala "te", Oromo "hin"
    # were left out for that). None of the words added here may stand as a whole word in a tuned corpus answer of an
    # earlier batch, so those answers' readings cannot change through them (stop 52 also compared the whole corpus,
    # rules only, before and after: every non-n49 tuned reading unchanged). Heldout answers are never read.
    words = _new_latin_words()
    assert {"kokoba", "ndogal", "tu'utu'uni", "murtii"} <= words      # the test reads the blocks it means
    hits = []
    for path in sorted((Path(__file__).parent / "corpus").glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            if case["split"] != "tuned" or case["id"].startswith("n49-"):
                continue
            text = case["text"].lower()
            hits += [(case["id"], w) for w in words if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)]
    assert hits == []
