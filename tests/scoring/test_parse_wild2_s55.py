"""Stop 55, second pass (issue 13): verdict words in seven languages the n52 blind batch was written in and the parser
had no words for: Swiss German, Corsican, Low German, Aragonese, Hawaiian and Neapolitan (Romansh came in the first
pass, test_parse_wild_s55). A gate labelled in English and judged in one of them ("Margin of Safety: nöd klar") was
found with no verdict.

Every expected value is worked by hand from the words' meaning; the texts are written for these tests and none is a
corpus case. Each test below, but the collision check, fails on the parser before this change.
"""

from __future__ import annotations


import pytest

from tests.scoring.parse_support import (final_of, klarman_three_gates, language_words, read_gates,
                                         words_in_earlier_tuned_answers)

KLARMAN = "klarman_downside_first_process"
NEW_CODES = ("gsw", "co", "nds", "an", "haw", "nap")

#: language -> (a pass, a fail, an open gate), each a whole verdict in that language.
VERDICTS = {
    "gsw": ("isch bestande", "duregfalle", "nöd klar"),            # has passed / fell through / not clear
    "co": ("và bè", "ùn passa", "ùn hè chjaru"),                   # it is fine / does not pass / is not clear
    "nds": ("hett bestahn", "dörchfullen", "nich kloor"),          # has passed / fell through / not clear
    "an": ("ye aprebau", "refusau", "no ye claro"),                # is approved / refused / is not clear
    "haw": ("ua hala", "ua hāʻule", "maopopo ʻole"),               # it passed / it fell / not understood
    "nap": ("va buono", "nun passa", "nun se capisce"),            # goes well / does not pass / cannot be told
}


@pytest.mark.parametrize("language", sorted(VERDICTS))
def test_a_pass_a_fail_and_an_open_gate_in_each_new_language(language: str) -> None:
    assert klarman_three_gates(*VERDICTS[language]) == [(1, "PROCEED"), (2, "REJECT"), (3, "INCONCLUSIVE")]


@pytest.mark.parametrize("unreached", [
    "nöd awändbar",       # GSW not applicable
    "ùn s'applica",       # CO does not apply
    "gellt nich",         # NDS does not hold (apply)
    "no ye aplicable",    # AN is not applicable
    "ʻaʻole pili",        # HAW does not concern
    "nun c'azzecca",      # NAP has nothing to do with it
])
def test_a_gate_not_reached_reads_n_a(unreached: str) -> None:
    assert read_gates(f"Margin of Safety: {unreached}.\n", KLARMAN) == [(2, "N/A")]


def test_swiss_german_pass_verb_with_its_subject_between_and_not_after() -> None:
    # "de Test bestaht d Firma nöd": the subject stands between the verb of passing and the closing "nöd"
    assert read_gates("Margin of Safety: de Test bestaht d Firma nöd.\n", KLARMAN) == [(2, "REJECT")]


def test_hawaiian_without_the_okina_still_negates() -> None:
    # the ʻokina dropped, as a keyboard without it writes: "aole i hala" (it did not pass)
    assert read_gates("Margin of Safety: aole i hala.\n", KLARMAN) == [(2, "REJECT")]


@pytest.mark.parametrize("closing, outcome", [
    ("Schlussentscheid: mir chaufed nöd.", "DECLINE"),   # GSW final decision: we do not buy
    ("Decisione finale: cumpremu.", "INVEST"),           # CO final decision: we buy
    ("Afslutt: wi köpt.", "INVEST"),                     # NDS conclusion: we buy
    ("Decisión final: no crompamos.", "DECLINE"),        # AN final decision: we do not buy
    ("Hoʻoholo hope: e kūʻai mākou.", "INVEST"),         # HAW final decision: we shall buy
    ("Decisione fernale: nun accattammo.", "DECLINE"),   # NAP final decision: we do not buy
])
def test_a_final_label_and_a_closing_in_the_language(closing: str, outcome: str) -> None:
    assert final_of("Margin of Safety: PASS.\n\n", closing + "\n", KLARMAN) == outcome




def test_no_new_word_occurs_in_an_earlier_tuned_corpus_answer() -> None:
    # German, Dutch, Italian, Spanish and Scandinavian words sit close to these ("nöd" is Swedish "distress", "goot"
    # Dutch "gutter"): no word added here, other than one an earlier block already reads, may stand as a whole word
    # in a tuned corpus answer of an earlier batch. Heldout answers are not read.
    new, old = language_words(NEW_CODES)
    words = {w for w in new - old if "…" not in w}
    assert {"nöd klar", "ùn passa", "dörchfullen", "refusau", "ua hala", "nun se capisce"} <= words
    hits = words_in_earlier_tuned_answers(words, 52)
    assert sorted(hits) == []
