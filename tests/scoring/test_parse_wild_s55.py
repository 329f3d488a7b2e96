"""Stop 55 (issue 13): what the tuned half of the n52 blind batch showed the parser could not read.

* verdict words in five languages the parser had no words for: Hiligaynon, Sardinian, Cornish, Romansh and Fijian
  (a gate labelled "Test 6 — ...: BIU" or "Gate 3 — ...: GINBALIBARAN" was found with no verdict);
* an answer's title that writes the card's name without its generic last noun ("Marks Market Cycle Positioning —
  ..." for the card "Marks Market Cycle Positioning Framework"), which was read as a mention of gate 2 and put it
  ahead of gate 1;
* a notebook exported as a Python script, whose markdown cells are "# " comment lines: every prose line read as a
  level-one heading, so no gate's verdict was found under its "# ## ..." heading.

Every expected value is worked by hand from the words' meaning; the texts are written for these tests and none is a
corpus case. Each test below fails on the parser before this stop.
"""

from __future__ import annotations


import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._notebook import blank_notebook_script
from tests.scoring.parse_support import (final_of, klarman_three_gates, language_words, read_gates,
                                         words_in_earlier_tuned_answers)

KLARMAN = "klarman_downside_first_process"
NEW_CODES = ("hil", "sc", "kw", "rm", "fj")

#: language -> (a pass, a fail, an open gate), each a whole verdict in that language.
VERDICTS = {
    "hil": ("nakapasar", "ginbalibaran", "indi klaro"),          # passed / rejected / not clear
    "sc": ("andat ainnantis", "refudadu", "no est craru"),       # goes ahead / refused / is not clear
    "kw": ("mos yn-rag", "fyllys", "ankoth"),                    # going forward / failed / unknown
    "rm": ("ademplì", "refusà", "betg cler"),                    # fulfilled / refused / not clear
    "fj": ("toso", "biu", "sega ni macala"),                     # move on / drop it / not clear
}


@pytest.mark.parametrize("language", sorted(VERDICTS))
def test_a_pass_a_fail_and_an_open_gate_in_each_new_language(language: str) -> None:
    assert klarman_three_gates(*VERDICTS[language]) == [(1, "PROCEED"), (2, "REJECT"), (3, "INCONCLUSIVE")]


@pytest.mark.parametrize("unreached", [
    "wala naabot",        # HIL it was not reached
    "no lòmpidu",         # SC not reached
    "ny dhrehedhys",      # KW not reached
    "betg applitgabel",   # RM not applicable
])
def test_a_gate_not_reached_reads_n_a(unreached: str) -> None:
    assert read_gates(f"Margin of Safety: {unreached}.\n", KLARMAN) == [(2, "N/A")]


def test_romansh_betg_after_the_verb_negates_it() -> None:
    # "la marscha n'è betg ademplida": here "betg" stands after the verb "è" and before the pass word it negates
    assert read_gates("Margin of Safety: betg ademplì.\n", KLARMAN) == [(2, "REJECT")]


@pytest.mark.parametrize("closing, outcome", [
    ("Katapusan nga desisyon: indi kami magbakal.", "DECLINE"),   # HIL final decision: we will not buy
    ("Detzisione finale: comporamus.", "INVEST"),                 # SC final decision: we buy
    ("Breus diwettha: ny brenyn.", "DECLINE"),                    # KW last judgement: we do not buy
    ("Decisiun finala: nus cumprain.", "INVEST"),                 # RM final decision: we buy
    ("Lewa i vakaoti: keimami na sega ni voli.", "DECLINE"),      # FJ final decision: we will not buy
])
def test_a_final_label_and_a_closing_in_the_language(closing: str, outcome: str) -> None:
    assert final_of("Margin of Safety: PASS.\n\n", closing + "\n", KLARMAN) == outcome


def test_a_labelled_gate_list_with_fijian_capitals() -> None:
    text = ("Tests for Oru Timber — na vakadidike\n\n"
            "Test 1 — Adequate Size of the Enterprise: TOSO\nSales are reported in the annual filing.\n\n"
            "Test 6 — Moderate Price/Earnings Ratio: BIU\nThe multiple is what it is.\n")
    assert read_gates(text, "graham_seven_tests_defensive") == [(1, "PROCEED"), (6, "REJECT")]


def test_a_title_with_the_card_name_less_framework_names_no_gate() -> None:
    # The card is "Marks Market Cycle Positioning Framework"; its gate 2 is "Position Against the Pendulum". The title
    # writes the card's name without "Framework" and a subtitle: no mention of gate 2, so gate 1 comes first.
    text = ("Marks Market Cycle Positioning — notes for the desk\n\n"
            "Gate 1 — Take the Market's Temperature: PROCEED\nSpreads at 5% are neither tight nor wide.\n\n"
            "Gate 2 — Position Against the Pendulum: PROCEED\nA neutral market calls for a balanced posture.\n")
    assert read_gates(text, "marks_market_cycle_positioning") == [(1, "PROCEED"), (2, "PROCEED")]


NOTEBOOK = """#!/usr/bin/env python
# coding: utf-8

# # Brisa Tools, a Graham valuation
#
# Class notebook, autumn term

# ## Normal earnings
#
# I average six years of EPS so one good year does not set the base.

# In[1]:


eps = [1.90, 2.10, 2.30, 2.00, 2.20, 2.10]
base = sum(eps) / len(eps)


# The base is $2.10; six years is a fair run, so it stands.

# ## Margin of safety

# In[2]:


value = 60.0
price = 45.0
price <= 2 / 3 * value


# False. Two-thirds of $60 is $40 and the stock is at $45, so there is no margin of safety here.
#
# I would not buy at $45.
"""


def test_a_notebook_script_reads_its_markdown_cells_as_prose() -> None:
    parsed = parse_response(NOTEBOOK, "graham_intrinsic_value_margin_of_safety", embedder=False)
    # before: the "# False. ..." line was a level-one heading of its own, so gate 4's heading had no body (None)
    assert {g.gate: g.verdict for g in parsed.gates}[4] == "REJECT"
    assert parsed.final_verdict == "DECLINE"


def test_the_notebook_blanking_keeps_length_and_touches_no_markdown() -> None:
    out, n = blank_notebook_script(NOTEBOOK)
    assert len(out) == len(NOTEBOOK) and out.count("\n") == NOTEBOOK.count("\n")
    assert "value = 60.0" not in out and "In[2]" not in out and "coding" not in out
    assert "  ## Margin of safety" in out.split("\n")
    # 2 header lines; 11 markdown lines ("# # Brisa", "#", "# Class", "# ## Normal", "#", "# I average", "# The base",
    # "# ## Margin", "# False", "#", "# I would"); 2 cell markers; 5 code lines
    assert n == 2 + 11 + 2 + 5
    plain = "# Verdict\n\nGate 4: the price is $45 against a $40 limit. FAIL.\n"
    assert blank_notebook_script(plain) == (plain, 0)


def test_the_notebook_blanking_is_linear_on_long_inputs() -> None:
    import time

    text = "# In[1]:\n" + "#" * 200_000 + "\n" + ("x = 1\n# In[ \n" * 20_000)
    started = time.perf_counter()
    blank_notebook_script(text)
    assert time.perf_counter() - started < 2.0




def test_no_new_word_occurs_in_an_earlier_tuned_corpus_answer() -> None:
    # Short Latin-script words collide with other languages ("toso" is Venetian "boy", "incert" Catalan): no word
    # added here may stand as a whole word in a tuned corpus answer of an earlier batch. Heldout answers are not read.
    new, old = language_words(NEW_CODES)
    words = new - old
    assert {"ginbalibaran", "refudadu", "fyllys", "betg", "biu"} <= words
    hits = words_in_earlier_tuned_answers(words, 52)
    assert sorted(hits) == []


def test_a_figure_inside_a_judged_table_row_names_no_other_gate() -> None:
    # A side-by-side revision diff prints each line twice in one table row. Gate 6's row holds "13.5 on three-year
    # average earnings": before this stop the figure-bar reading took the figure and "earnings" for gate 3 (Earnings
    # Stability, years with earnings) and added a gate the writer never named. The row judges gate 6 itself.
    rows = ["'''5. Earnings growth:''' average EPS $3.00 now against $2.00 a decade back, up 50%. Pass.",
            "'''6. P/E:''' 13.5 on three-year average earnings, under 15. Pass."]
    text = "\n".join(f"| {r} | {r} |" for r in rows) + "\n"
    assert read_gates(text, "graham_seven_tests_defensive") == [(5, "PROCEED"), (6, "PROCEED")]
