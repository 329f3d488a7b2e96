"""Gates numbered as "points" ("Point 4: PROCEED", "Punkt 3, ...: REJECT", "Punto 2"), and "point" in prose
(issue 13, gate detection; NEWUSER_s62 N13; paper §7.5).

Philip Fisher numbered his fifteen points, and an answer on a Fisher-like card numbers the card's gates "Point 1" ...
"Point 5" (German "Punkt", Spanish and Italian "punto", Portuguese "ponto", Scandinavian "punkt", Russian "пункт",
Chinese "第3点"). "point" in ordinary prose must read no gate: "at this point", "a point of concern", "3 points of
margin", "the point is". Answers written for these tests; every expected reading worked by hand against the bundled
card named beside each constant.
"""

from __future__ import annotations

import pytest

from parse_support import read_gates as _read

QUALITY = "munger_business_quality_price"  # five gates; INVEST / DECLINE
SEVEN = "graham_seven_tests_defensive"  # seven tests; INVEST / DECLINE


def test_point_labels_read_their_gates_on_a_five_gate_card() -> None:
    text = ("Point 1: understandable: PROCEED.\nPoint 2: returns: PROCEED.\nPoint 3: moat: PROCEED.\n"
            "Point 4: deep: PROCEED.\nPoint 5: price: REJECT, 40x earnings.\n\nFinal verdict: DECLINE")
    assert _read(text, QUALITY) == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED"), (4, "PROCEED"), (5, "REJECT")]


def test_point_labels_and_a_points_pair_read_on_the_seven_test_card() -> None:
    text = ("Point 2: strong financial condition: REJECT, a current ratio of 1.1.\n"
            "Points 3 and 4: PROCEED, twenty years of dividends and ten of earnings.\n\nFinal verdict: DECLINE")
    assert _read(text, SEVEN) == [(2, "REJECT"), (3, "PROCEED"), (4, "PROCEED")]


def test_a_point_past_the_cards_gates_is_no_invented_gate() -> None:
    # Fisher's point 11 is one of his fifteen, not a gate the five-gate card lacks (no FM-1 invention)
    text = "Point 11: PROCEED, the company reports plainly.\nPoint 5: REJECT, 40x earnings.\n\nFinal verdict: DECLINE"
    assert _read(text, QUALITY) == [(5, "REJECT")]


@pytest.mark.parametrize("text, expected", [
    ("Punkt 1, Geschäftsmodell: PROCEED.\nPunkt 3, Burggraben: REJECT.\n\nFinal verdict: DECLINE", [(1, "PROCEED"), (3, "REJECT")]),
    ("Punto 2 - rendimientos: PROCEED.\nPunto 5 - precio: REJECT.\n\nFinal verdict: DECLINE", [(2, "PROCEED"), (5, "REJECT")]),
    ("Ponto 2: PROCEED.\nPonto 4: REJECT.\n\nFinal verdict: DECLINE", [(2, "PROCEED"), (4, "REJECT")]),
    ("Пункт 2: PROCEED.\nПункт 4: REJECT.\n\nFinal verdict: DECLINE", [(2, "PROCEED"), (4, "REJECT")]),
    ("第2点：PROCEED。\n第4点：REJECT。\n\nFinal verdict: DECLINE", [(2, "PROCEED"), (4, "REJECT")]),
], ids=["german", "spanish", "portuguese", "russian", "chinese"])
def test_point_words_of_other_languages_read_their_gates(text: str, expected: list[tuple[int, str]]) -> None:
    assert _read(text, QUALITY) == expected


@pytest.mark.parametrize("sentence", [
    "At this point 3 of the 5 gates pass, and the price is the open question.",
    "A point of concern 4 analysts raised is share dilution.",
    "We keep 3 points of margin 2 years running, which is thin.",
    "The point is 2 gates are unclear.",
    "At this point, 3 gates pass.",
    "Margins rose 3 points to 5 points of sales.",
], ids=["at-this-point", "point-of-concern", "points-of-margin", "the-point-is", "at-this-point-comma", "points-of-sales"])
def test_point_in_prose_reads_no_gate(sentence: str) -> None:
    text = sentence + "\nGate 1: PROCEED. A plain business.\n\nFinal verdict: DECLINE"
    assert _read(text, QUALITY) == [(1, "PROCEED")]
