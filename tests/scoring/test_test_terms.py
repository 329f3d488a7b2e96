"""A gate's name used as a term of another gate's test, inside that gate's line, is no gate of its own (s38user repro
2; paper §7.6 GCF, §7.15 GRA).

Card ``buffett_acquisition_checklist``: gate 5 (Margin of Safety) tests ``price <= (1 - required_margin) *
intrinsic_value``; gate 4 is "Intrinsic Value Estimation" (alias "intrinsic value"). "Margin of Safety: PROCEED. $9B
price against $14B intrinsic value." discusses gate 5 only; the intrinsic value is a figure gate 5's test reads. Answers
written for this test (no corpus text); each expected trace worked by hand.
"""

from __future__ import annotations

from ipb.scoring import verdict_words as vw
from parse_support import read_gates

CARD = "buffett_acquisition_checklist"


def test_a_term_of_the_lines_test_is_no_gate():
    text = "Margin of Safety: PROCEED. $9B price against $14B intrinsic value.\nFinal verdict: INVEST\n"
    assert read_gates(text, CARD) == [(5, vw.PROCEED)]


def test_a_term_of_the_lines_test_among_other_gates_is_no_gate():
    text = ("Margin of Safety: REJECT. $30B price against $20B of intrinsic value.\n"
            "Economic Moat: PROCEED. Customers renew at 96%.\nFinal verdict: DECLINE\n")
    assert read_gates(text, CARD) == [(5, vw.REJECT), (2, vw.PROCEED)]


def test_the_gate_in_its_own_line_or_sentence_still_counts():
    text = ("Intrinsic Value Estimation: PROCEED. Owner earnings of $1B at 14 times give $14B.\n"
            "Margin of Safety: PROCEED. $9B price against $14B intrinsic value.\nFinal verdict: INVEST\n")
    assert read_gates(text, CARD) == [(4, vw.PROCEED), (5, vw.PROCEED)]
