"""A label's singular in "-y" against a gate name's plural in "-ies" (issue 13, gate detection; paper §7.5).

The crude stem of :func:`ipb.scoring._text.stem` cuts "categories" to "categor" but leaves "category" whole, so a
label "Category" fitted only the gate whose name holds the word "Category" (the Lynch card's gate 4,
"Category-Specific Story Check") and not gate 1, "Classify the Company (Six Categories)". The label was then read as
gate 4 with no verdict, and the answer's real gate-4 item ("The turnaround's own test") became an invented gate
(n58-b-six-categories since the styled letters of s63 were read). A label that fits two gates names neither by its
words; the list position reads it. Answers written for these tests; readings worked by hand against the bundled card.
"""

from __future__ import annotations

from ipb.engine.registry import compiled_card
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._label_names import _y_plural
from ipb.scoring._text import stem

from parse_support import read_gates as _read

SIX = "lynch_six_category_framework"  # 1 Classify the Company (Six Categories), 2 Price Versus Growth,
# 3 Balance Sheet Strength, 4 Category-Specific Story Check; INVEST / DECLINE

SORTED = ("Harrow Mills, sorted\n\n"
          "1. Category: a turnaround. Two losing years, a new chief executive and debts being paid off.\n\n"
          "2. Price vs growth: 10% growth plus a 2% yield over a P/E of 6 is 2.0, above 1.5. Pass.\n\n"
          "3. Balance sheet: debt is 30% of capital, inside the usual shape. Pass.\n\n"
          "4. The turnaround's own test: losses shrank two quarters in a row and the plan is on schedule. Pass.\n\n"
          "Verdict: BUY")


def test_a_singular_label_is_no_other_gates_name_and_the_fourth_item_is_no_invented_gate() -> None:
    parsed = parse_response(SORTED, compiled_card(SIX).card, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED"), (4, "PROCEED")]
    assert parsed.invented_gates == []
    assert parsed.final_verdict == "INVEST"


def test_a_singular_label_still_reads_the_one_gate_that_holds_its_word() -> None:
    # "Balance" and "sheet" are words of gate 3's name only: unchanged by the plural rule
    assert _read("Balance sheet: debt is a third of capital. Fail.\n\nVerdict: AVOID", SIX) == [(3, "REJECT")]


def test_y_plural_meets_the_plural_on_both_sides() -> None:
    pairs = [("category", "categories"), ("company", "companies"), ("policy", "policies"), ("study", "studies")]
    for one, many in pairs:
        assert _y_plural(stem(one)) == _y_plural(stem(many)), (one, many)
    assert _y_plural(stem("key")) == "key"  # a short word keeps its "y"
