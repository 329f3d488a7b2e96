"""Stop 48's prose work (s48prose, issue 13): long prose loses gates when one sentence takes up two criteria.

Expected readings worked by hand against the card graham_seven_tests_defensive (gates: 1 Adequate Size of the
Enterprise, 2 Sufficiently Strong Financial Condition, 3 Earnings Stability, 4 Dividend Record, 5 Earnings Growth,
6 Moderate Price/Earnings Ratio, 7 Moderate Ratio of Price to Assets). Rules only (embedder off), as in
``parse_support``.

A chatty answer in flowing paragraphs (s46user's chatty0, s47parse "Long prose") states several criteria in one
sentence: "leverage fell by 2%, so that passes; the current ratio rose by 0.2, so ... that passes; and no new shares
were issued ..." or "the gross margin widened by 1%, a pass, but asset turnover slipped by 0.05, so that one fails".
Read one topic per sentence, the first criterion took the sentence and the others (the only REJECT among them) were
lost. A plain prose sentence is now cut into clauses at a semicolon, at a comma before "but", "while", "whereas",
"yet", "although" or "though", before "whereas", and at a dash set off by spaces; each clause of four words or more is a
unit of its own, so each criterion is found, and its verdict read, within its clause.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._layout import _prose_clauses

from tests.scoring.parse_support import gate_verdicts, read_gates

GRAHAM = "graham_seven_tests_defensive"


def _cut(text: str) -> list[str]:
    return [text[a:b] for a, b in _prose_clauses(text, [(0, len(text))])]


# -- where a sentence is cut -------------------------------------------------------------------------------------------

def test_a_sentence_is_cut_at_a_semicolon_and_a_comma_before_but():
    text = "Leverage fell by 2%, so that passes; the current ratio rose by 0.2, a pass, but turnover slipped, so it fails."
    assert _cut(text) == ["Leverage fell by 2%, so that passes; ", "the current ratio rose by 0.2, a pass, ",
                          "but turnover slipped, so it fails."]


def test_a_dash_set_off_by_spaces_and_whereas_cut_but_a_hyphen_does_not():
    text = "The long-term debt is low \u2014 the current ratio is 2.3 whereas the dividend record is only eight years long."
    assert _cut(text) == ["The long-term debt is low \u2014 ", "the current ratio is 2.3 ",
                          "whereas the dividend record is only eight years long."]


def test_a_clause_under_four_words_stays_with_its_sentence():
    # "it passes" (two words) is the verdict of the clause before it, not a statement of its own
    assert _cut("The dividend record is fine; it passes.") == ["The dividend record is fine; it passes."]
    # a short opening clause joins the next one
    assert _cut("Yes; the dividend record is fine.") == ["Yes; the dividend record is fine."]


# -- what the clauses read -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    # three gates in one sentence, the last one a REJECT after ", but" (was: 1 PROCEED, 3 REJECT; gate 4 lost)
    ("The company is large, with sales of $9bn, so the size test is met; the dividend record runs unbroken for forty "
     "years, so it passes, but earnings stability fails because of a loss in 2019.",
     [(1, "PROCEED"), (4, "PROCEED"), (3, "REJECT")]),
    # "whereas" between two criteria (was: gate 3 REJECT, the dividend record's verdict given to earnings stability)
    ("Earnings stability is fine with ten straight profitable years, whereas the dividend record is too short at eight "
     "years and fails.",
     [(3, "PROCEED"), (4, "REJECT")]),
    # a dash between two criteria, then ", while" (was: gate 3 REJECT, gate 4 lost)
    ("Earnings stability fails on the 2019 loss \u2014 the dividend record is a clear pass with forty years unbroken, "
     "while earnings growth fails at 10% over the decade.",
     [(3, "REJECT"), (4, "PROCEED"), (5, "REJECT")]),
])
def test_each_clause_of_a_prose_sentence_reads_its_own_criterion(text, expected):
    assert read_gates(text, GRAHAM) == expected


def test_a_gate_named_in_its_clause_keeps_a_named_gates_confidence():
    # The lexical reader opens the gate at "company is large"; the alias "size test" in the same clause still names it,
    # so the reading is a named gate's (how 'alias', 0.85 like "Earnings stability fails ..." alone), not a
    # substance-only one (0.64, under the 0.8 review bar).
    parsed = parse_response("The company is large, with sales of $9bn, so the size test is met; the dividend record "
                            "runs unbroken for forty years, so it passes.", GRAHAM, embedder=False)
    first = parsed.gates[0]
    assert (first.gate, first.verdict, first.how) == (1, "PROCEED", "alias")
    assert first.confidence >= 0.8


def test_a_list_item_or_a_labelled_line_is_not_cut():
    # only plain prose lines are cut: a list item keeps its sentence (its label names the gate for all of it)
    text = "- Earnings Stability: fails; the 2019 loss breaks the ten-year record, though 2020 recovered.\n"
    assert read_gates(text, GRAHAM) == [(3, "REJECT")]


# == a figure against a limit in the writer's own words ================================================================
# "P/E of 22x, well outside our band", "above our ceiling", "within the limit", "clears the hurdle": the writer names a
# bar without its figure, and the verdict is the stated figure against the card's own threshold. The figure-bar reader
# (:mod:`._figure_bars`) now takes such a relation as the writer's side (through ``_stated_bars.compared_verdict``, which
# also gains "clears/meets/misses/breaches the <bar>"); the card's test on the figure must agree, and the reading stays
# under the 0.8 review bar (how 'figure-bar': inferred from the card's test, not named by the writer).
# Graham's gate 6 passes on pe_3yr <= 15x (with positive earnings); gate 4 on dividend_years >= 20.

@pytest.mark.parametrize(("text", "verdict"), [
    ("A P/E of 22x, well outside our band.", "REJECT"),              # the brief's phrasing: 22 > 15 fails, outside a band
    ("The P/E multiple is 22x, above our ceiling.", "REJECT"),        # 22 > 15; above a ceiling fails
    ("At 12x earnings the P/E sits within the limit.", "PROCEED"),    # 12 <= 15; within a limit passes
    ("The P/E of 22x is above our ceiling.", "REJECT"),               # a verb after the multiple, not its denominator
    ("The P/E of 12x is well within our limit.", "PROCEED"),
])
def test_a_figure_against_a_bar_named_without_its_figure_reads_the_cards_test(text, verdict):
    parsed = parse_response(text, GRAHAM, embedder=False)
    found = [g for g in parsed.gates if g.gate == 6]
    assert [(g.verdict, g.how) for g in found] == [(verdict, "figure-bar")]
    assert found[0].confidence < 0.8  # inferred from the card's threshold: under the review bar
    assert any("figure" in note and "gate 6" in note for note in parsed.notes)


@pytest.mark.parametrize("text", [
    "The P/E multiple is 12x, above our ceiling.",   # 12 passes the card's 15x, the writer says above the ceiling
    "The P/E multiple is 22x, comfortably within the limit.",  # 22 fails the card, the writer says within the limit
])
def test_a_relation_the_cards_threshold_contradicts_reads_nothing(text):
    assert 6 not in gate_verdicts(text, GRAHAM)


def test_clearing_or_missing_a_bar_is_its_side_whatever_the_bar():
    from ipb.scoring.parse._stated_bars import compared_verdict

    assert compared_verdict("the yield clears the hurdle comfortably", None) == "PROCEED"
    assert compared_verdict("which meets our bar", "REJECT") == "PROCEED"
    assert compared_verdict("twelve years, which misses the bar", None) == "REJECT"
    assert compared_verdict("it breaches the ceiling", "REJECT") == "REJECT"
    assert compared_verdict("it does not clear the hurdle", None) is None      # negated: no reading
    assert compared_verdict("if it clears the hurdle we buy", None) is None    # conditional: no reading


def test_a_labelled_gate_that_misses_the_bar_reads_reject_under_the_review_bar():
    # gate 4 named, no verdict word: 12 < 20 years, and "misses our bar" (was: no verdict)
    parsed = parse_response("The dividend record of 12 years misses our bar.", GRAHAM, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(4, "REJECT")]
    assert parsed.gates[0].confidence < 0.8
