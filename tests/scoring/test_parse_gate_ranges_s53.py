"""Gate ranges (issue 13, gate references; paper §7.5): "Gates 3 thru 6: PROCEED" covers gates 3, 4, 5 and 6, as
"Gates 3 and 4: both PROCEED" covers both; a range runs no further than the card's last gate, and a range that runs
down or far past the card ("Gates 6 to 3", "Gates 1-100") names no gate at all, and invents none.

Answers written by hand on Graham's seven tests for the defensive investor (seven gates) and Munger's opportunity
evaluation (five gates, which the card calls lenses). Each expected reading is worked by hand beside it. The tests
marked "guard" passed before the s53range change too; they pin the forms that already worked and the numbers that
are no gate range, so the change could not break them unseen.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ipb.scoring.parse import parse_response

ROOT = Path(__file__).resolve().parents[2]
SEVEN = str(ROOT / "frameworks" / "graham_seven_tests_defensive.yaml")
LENSES = str(ROOT / "frameworks" / "munger_opportunity_evaluation.yaml")


def _read(text: str, card: str = SEVEN) -> tuple[list[tuple[int, str | None]], list[str]]:
    d = parse_response(text, card, embedder=False).to_dict()
    return [(g["gate"], g["verdict"]) for g in d["gates"]], list(d["invented_gates"])


def _framed(middle: str) -> str:
    return f"Gate 1: PROCEED\n{middle}\nGate 7: REJECT\nFinal verdict: DECLINE"


@pytest.mark.parametrize("middle", [
    "Gates 3 thru 6: PROCEED",  # was gate 3 only: "thru" was no range word
    "Gates 3 thru 6 inclusive: all PROCEED",
    "Tests 3 thru 6: PROCEED",
])
def test_a_thru_range_covers_every_gate_in_it(middle):
    gates, invented = _read(_framed(middle))
    # by hand: gate 1 from its line, 3 4 5 6 from the range, 7 from its line; gate 2 is never named
    assert gates == [(1, "PROCEED"), (3, "PROCEED"), (4, "PROCEED"), (5, "PROCEED"), (6, "PROCEED"), (7, "REJECT")]
    assert invented == []


@pytest.mark.parametrize("middle", [
    "Gates 3 to 6: PROCEED", "Gates 3-6: PROCEED", "Gates 3\u20136: PROCEED", "Gates 3 through 6: PROCEED",
    "gates 3 to 6 inclusive: PROCEED", "Criteria 3 to 6: PROCEED",
])
def test_guard_the_range_forms_that_already_worked(middle):
    gates, _ = _read(_framed(middle))
    assert [g for g, _ in gates] == [1, 3, 4, 5, 6, 7]


def test_a_range_past_the_card_stops_at_its_last_gate():
    gates, invented = _read("Gate 1: PROCEED\nGate 2: REJECT\nGates 5 to 9: PROCEED\nFinal verdict: DECLINE")
    # by hand: the card has seven gates, so 5 to 9 is 5, 6, 7; before, gate 7 was missed and "Gate 8" invented
    assert gates == [(1, "PROCEED"), (2, "REJECT"), (5, "PROCEED"), (6, "PROCEED"), (7, "PROCEED")]
    assert invented == []


@pytest.mark.parametrize("middle", [
    "Gates 6 to 3: PROCEED",  # runs down: was gates 3 and 6
    "Gates 6-3: PROCEED",
    "Gates 1-100: PROCEED",  # far past seven gates: was gate 1 and an invented "Gate 100"
    "Tests 2 through 40: PROCEED",  # was gate 2 and an invented "Gate 40"
])
def test_a_descending_or_absurd_range_covers_nothing(middle):
    gates, invented = _read(_framed(middle))
    assert gates == [(1, "PROCEED"), (7, "REJECT")]  # by hand: only the two gates named on their own lines
    assert invented == []


def test_a_number_after_a_spaced_dash_opens_the_label_text():
    gates, invented = _read("Gate 5 - 3 of 3 years positive: PROCEED\nGate 6 - 1 of 2 years: REJECT\n"
                            "Final verdict: DECLINE")
    # by hand: "3 of 3 years" and "1 of 2 years" are the labels' counts, not gates 3 and 1 (before: 5 and 3 read,
    # and gate 6's "6 - 1" ran down to gate 1)
    assert gates == [(5, "PROCEED"), (6, "REJECT")]
    assert invented == []


def test_the_cards_own_gate_word_takes_a_range():
    gates, _ = _read("Lens 1: PROCEED\nLenses 2 thru 4: PROCEED\nLens 5: REJECT\nFinal verdict: DECLINE", LENSES)
    assert gates == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED"), (4, "PROCEED"), (5, "REJECT")]


@pytest.mark.parametrize("text", [
    "The back-test scored 3-6 over the period.\nGate 2: PROCEED\nFinal verdict: INVEST",
    "Phase 2-3 of the rollout is done.\nGate 2: PROCEED\nFinal verdict: INVEST",
    "Filed 2024-03-06.\nGate 2: PROCEED\nFinal verdict: INVEST",
])
def test_guard_a_dashed_pair_after_no_gate_word_is_no_range(text):
    gates, invented = _read(text)
    assert gates == [(2, "PROCEED")] and invented == []
