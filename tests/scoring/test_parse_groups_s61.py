"""n56's leftovers, read in general (issue 13, stop 61).

Every answer here is written for this test, in my own words, about made-up companies. Each test names the layout or
language phenomenon it pins down and fails without the change that reads it:

- an answer written as a logic program, one ``gate(N, 'Name', verdict).`` fact per gate, reads each fact as the
  labelled line it stands for, and the program's other clauses as code, never as gate labels
  (:mod:`ipb.scoring.parse._logic_facts`);
- a label that names two gates, each by its number and its name, joined by "and" in the answer's own language
  ("Gate 2 - Price Versus Growth і Gate 3 - Balance Sheet Strength: ... N/A.") gives both gates the section's verdict
  (:mod:`ipb.scoring.parse._grouped`);
- a gate the card lacks, labelled by a number past the card's gates and a title before a spaced dash and its detail
  ("Gate 5: Insider Buying - no information given"), is reported with its title, as a reader names it
  (:mod:`ipb.scoring.parse._references`, ``_TITLE_AFTER``).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.engine.registry import compiled_card
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._grouped import _JOINER, _NAME_DASH, _TITLE_DASH
from ipb.scoring.parse._logic_facts import rewrite_logic_facts
from ipb.scoring.parse._references import _title_after
from parse_support import runs_in_a_child

LYNCH = "lynch_six_category_framework"  # 4 gates: classify, price versus growth, balance sheet, story check
BUFFETT = "buffett_acquisition_checklist"  # 6 gates


def _parse(text: str, card: str):
    return parse_response(text, compiled_card(card).card, embedder=False)


def _gates(text: str, card: str) -> list[tuple[int, str | None]]:
    return [(g.gate, g.verdict) for g in _parse(text, card).gates]


# --------------------------------------------------------------------------- logic-program facts

PROLOG = """```prolog
% Lynch six categories for Tarnby Mills, a steel fabricator.
cyclical(tarnby).                 % earnings follow the steel cycle
pe_ratio(tarnby, 7.5).
category(X, cyclical) :- cyclical(X).
gate(1, 'Classify the Company (Six Categories)', proceed).
gate(2, 'Price Versus Growth', inconclusive).
gate(3, "Balance Sheet Strength", reject).
% ?- strong(tarnby).  ->  false: debt is 140% of equity.
gate(4, 'Category-Specific Story Check', na).
final_verdict(tarnby, decline).
```
"""


def test_gate_facts_of_a_logic_program_read_as_labelled_lines() -> None:
    parsed = _parse(PROLOG, LYNCH)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (2, "INCONCLUSIVE"), (3, "REJECT"), (4, "N/A")]
    assert parsed.final_verdict == "DECLINE"
    assert parsed.invented_gates == []
    # spans are offsets of the answer as written: the mention sits on the fact's own line
    g2 = parsed.gates[1]
    assert PROLOG[g2.mention[0] : g2.mention[1]] == "gate(2"
    assert any("gate fact(s) of a logic program" in n for n in parsed.notes)


def test_other_clauses_of_the_program_are_no_gate_labels() -> None:
    # before: "category(X, cyclical) :- ..." was a fuzzy label of the story check, which took the next line's proceed
    text = PROLOG.replace("gate(4, 'Category-Specific Story Check', na).\n", "")
    assert _gates(text, LYNCH) == [(1, "PROCEED"), (2, "INCONCLUSIVE"), (3, "REJECT")]


def test_rewrite_keeps_length_and_line_breaks_and_reads_hand_worked_lines() -> None:
    text = "x(a).\ngate(2, 'Price Versus Growth', na).\ngate(3, pass).\nfinal_verdict(invest).\n"
    out, n = rewrite_logic_facts(text)
    assert n == 2
    assert out.split("\n") == ["     ", "Gate 2: Price Versus Growth: N/A   ", "Gate 3: PASS  ",
                               "Final verdict: INVEST ", ""]


@pytest.mark.parametrize("text", [
    "The gate(2) reading is unclear.",               # prose, no fact on a line of its own
    "gate(2, 'Price Versus Growth', maybe).",        # no verdict atom
    "category(X, cyclical) :- cyclical(X).",         # clauses without any gate fact: nothing blanked
])
def test_text_without_a_gate_fact_with_a_verdict_is_left_as_written(text: str) -> None:
    assert rewrite_logic_facts(text) == (text, 0)


@settings(max_examples=200)
@given(st.text(alphabet=st.sampled_from(list("gate(),.'\" \t\n%12naprocejX:-_")), max_size=200))
def test_rewrite_never_moves_an_offset(text: str) -> None:
    out, _ = rewrite_logic_facts(text)
    assert len(out) == len(text)
    assert [i for i, c in enumerate(out) if c == "\n"] == [i for i, c in enumerate(text) if c == "\n"]


# --------------------------------------------------------------------------- two gates under one label, foreign "and"

@pytest.mark.parametrize("joiner", ["\u0456", "und", "et", "y", "og", "and"])
def test_two_gates_by_number_and_name_joined_by_and_share_the_verdict(joiner: str) -> None:
    text = ("Gate 1 \u2013 Classify the Company (Six Categories): Velmark Foods is a stalwart, 9% growth. PROCEED.\n\n"
            f"Gate 2 \u2013 Price Versus Growth {joiner} Gate 3 \u2013 Balance Sheet Strength: not used for this "
            "branch. N/A.\n\n"
            "Gate 4 \u2013 Category-Specific Story Check: the brands keep their shelf space. PROCEED.\n\n"
            "Final verdict: INVEST\n")
    assert _gates(text, LYNCH) == [(1, "PROCEED"), (2, "N/A"), (3, "N/A"), (4, "PROCEED")]


def test_a_gate_named_after_its_own_number_is_no_group() -> None:
    # "Gate 2 - Price Versus Growth" names one gate twice: the section is gate 2's alone
    text = ("Gate 2 \u2013 Price Versus Growth: P/E of 30 on 8% growth. REJECT.\n\n"
            "Gate 3 \u2013 Balance Sheet Strength: no debt at all. PROCEED.\n")
    assert _gates(text, LYNCH) == [(2, "REJECT"), (3, "PROCEED")]


# --------------------------------------------------------------------------- an invented gate's title

def test_an_invented_gate_is_named_by_its_title_before_the_spaced_dash() -> None:
    text = ("Gate 1: Classify the Company - Brisco Rail has grown 25% a year, a fast grower. PROCEED\n"
            "Gate 2: Price Versus Growth - P/E 18 against 25% growth. PROCEED\n"
            "Gate 3: Balance Sheet Strength - net cash. PROCEED\n"
            "Gate 4: Category-Specific Story Check - new routes still to open. PROCEED\n"
            "Gate 5: Insider Buying - two directors bought in May; a good sign. PROCEED\n\n"
            "Final verdict: INVEST\n")
    parsed = _parse(text, LYNCH)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED"), (4, "PROCEED")]
    assert parsed.invented_gates == ["Gate 5: Insider Buying"]


@pytest.mark.parametrize(("after", "title"), [
    (": Insider Buying - two directors bought", "Insider Buying"),     # a spaced hyphen opens the detail
    (" \u2013 Local Content \u2013 assumed met", "Local Content"),       # an en dash likewise
    (": Category-Specific Check; assumed", "Category-Specific Check"),  # an unspaced hyphen stays, a semicolon ends
    (": Dividend yield above 3%: 3.4%", "Dividend yield above 3%"),     # the colon, as before
])
def test_title_after_a_bare_number(after: str, title: str) -> None:
    assert _title_after(after, 0, len(after)) == title


# --------------------------------------------------------------------------- the new patterns stay linear

def test_the_new_patterns_match_as_worked_by_hand() -> None:
    assert _JOINER.fullmatch(" \u0456 ") and _JOINER.fullmatch(" und ") and not _JOINER.fullmatch("\u0456 ")
    assert not _JOINER.fullmatch(" ist ")
    assert _TITLE_DASH.fullmatch(" \u2013 ") and _TITLE_DASH.fullmatch(" - ") and not _TITLE_DASH.fullmatch("-")
    assert _NAME_DASH.match(" \u2013 Price") and not _NAME_DASH.match("-3")


#: The joiner as it read before stop 61's possessive stars, and with the foreign "and" words: the reference it must agree with.
_JOINER_BEFORE = re.compile(r"(?i)[\s,/*_]*(?:(?:and|&|or|as[ \t]+well[ \t]+as|plus)[\s*_]*"
                            r"|(?<=\s)(?:\u0456|\u0438|\u0442\u0430|und|et|y|e|en|og|och|oraz|i|ve)(?=\s))?(?:the[ \t]+)?[\s,*_]*")


@settings(max_examples=500)
@given(st.lists(st.sampled_from([" ", "\t", "\n", ",", "/", "*", "_", "and", "the", "or", "und", "\u0456", "x", "&"]),
                max_size=30).map("".join))
def test_the_possessive_joiner_accepts_what_the_plain_one_accepts(gap: str) -> None:
    assert bool(_JOINER.fullmatch(gap)) == bool(_JOINER_BEFORE.fullmatch(gap))


def test_the_new_patterns_end_on_long_runs() -> None:
    runs_in_a_child(
        "from ipb.scoring.parse._grouped import _JOINER, _TITLE_DASH, _NAME_DASH\n"
        "from ipb.scoring.parse._logic_facts import rewrite_logic_facts\n"
        "from ipb.scoring.parse._references import _title_after\n"
        "for run in (' ' * 50_000, '\\t' * 50_000, ' *' * 25_000):\n"
        "    assert _JOINER.fullmatch(run + '\\u2603') is None\n"
        "    assert _TITLE_DASH.fullmatch(run + '\\u2603') is None\n"
        "    assert _NAME_DASH.match(run + '\\u2603') is None\n"
        "    assert _title_after(': x' + run + '\\u2603', 0, len(run) + 4) == 'x'\n"
        "    text = 'gate(1, pass).\\n' + ('gate(' + run + '\\n') * 3 + 'x(' + run + '%\\n'\n"
        "    assert len(rewrite_logic_facts(text)[0]) == len(text)\n"
        "print('ok')\n")
