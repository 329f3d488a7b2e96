"""Regression (verdict word in another sense): "met" is a verdict only on a bar, or standing alone.

"Met" reads as a pass when its object is a bar ("met the test", "meets the 15% minimum", "met its threshold") or when it
stands alone after what it judges ("criterion met", "Gate 2: met"). With a person or a body as its object ("met the
banks", "met with regulators", "meets the press", "met investors") it is a meeting, no verdict (issue 13, words that are
verdicts only in some senses; scoring/parse/_prose_vocabulary.met_is_a_verdict). Each text is written for this test.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._prose_vocabulary import meets_someone, met_is_a_verdict

from tests.scoring.parse_support import read_gates

MUNGER = "munger_business_quality_price"  # 1 understandable, 2 return on capital, 3 durable advantage, 4 people, 5 price

MEETINGS = [
    pytest.param("Management met the banks in May to extend the revolver.\n\nDECLINE.", id="met-the-banks"),
    pytest.param("The people running it met with regulators last week.\n\nDECLINE.", id="met-with-regulators"),
    pytest.param("Management met its lenders, then met the unions.\n\nDECLINE.", id="met-its-lenders"),
    pytest.param("Management meets the press every quarter.\n\nDECLINE.", id="meets-the-press"),
    pytest.param("The chief executive met investors in Boston on the roadshow.\n\nDECLINE.", id="met-investors"),
]

#: The same meetings after a gate's label: the label finds the gate, and "met" gives it no verdict.
LABELLED_MEETINGS = [
    pytest.param("People: the CEO met the banks twice in May.\n\nDECLINE.", id="label-colon"),
    pytest.param("Gate 4 - management met with regulators last week.\n\nDECLINE.", id="gate-number-dash"),
    pytest.param("**Management**: the chair met the unions in June.\n\nDECLINE.", id="bold-label"),
]


@pytest.mark.parametrize("text", LABELLED_MEETINGS)
def test_a_meeting_after_a_gate_label_gives_the_gate_no_verdict(text: str) -> None:
    result = parse_response(text, MUNGER, embedder=False)
    assert [(g.gate, g.verdict) for g in result.gates] == [(4, None)]


@pytest.mark.parametrize("text", MEETINGS)
def test_met_with_a_person_or_body_as_object_is_no_verdict(text: str) -> None:
    result = parse_response(text, MUNGER, embedder=False)
    assert [(g.gate, g.verdict) for g in result.gates if g.verdict is not None] == []
    assert result.invented_gates == []


BARS = [
    pytest.param("The return on capital met the test comfortably.\n\nINVEST.", id="met-the-test"),
    pytest.param("Return on capital meets the 15% minimum.\n\nINVEST.", id="meets-the-figure-minimum"),
    pytest.param("Return on capital met its threshold.\n\nINVEST.", id="met-its-threshold"),
    pytest.param("Return on capital met the bar with room to spare.\n\nINVEST.", id="met-the-bar-with-room"),
    pytest.param("Return on capital: criterion met.\n\nINVEST.", id="criterion-met"),
    pytest.param("Gate 2: met\n\nINVEST.", id="gate-label-met"),
]


@pytest.mark.parametrize("text", BARS)
def test_met_on_a_bar_or_alone_is_a_pass(text: str) -> None:
    assert read_gates(text, MUNGER) == [(2, "PROCEED")]


@pytest.mark.parametrize(("text", "verdict"), [
    ("the criterion is met.", True),
    ("gate 3: met", True),
    ("the bar was met in full", True),
    ("the floor was met this year", True),
    ("it met all seven", True),
    ("it met both", True),
    ("it meets the 2.0 minimum", True),
    ("it met the return-on-capital hurdle", True),
    ("the hurdle was met with room to spare", True),
    ("it met our requirements", True),
    ("management met the banks in may", False),
    ("the ceo met with bondholders twice", False),
    ("the founders met the board on monday", False),
    ("the chair met them after the vote", False),
    ("management met all the lenders", False),
])
def test_met_is_a_verdict_on_a_bar_or_alone(text: str, verdict: bool) -> None:
    end = re.search(r"\bmee?ts?\b", text).end()
    assert met_is_a_verdict(text, end) is verdict


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("met hsbanrkilouw12.,:;()\n%$-'")), max_size=60), st.integers(0, 70))
def test_met_is_a_verdict_never_raises(text: str, end: int) -> None:
    assert met_is_a_verdict(text, min(end, len(text))) in (True, False)


@pytest.mark.parametrize(("text", "someone"), [
    ("the ceo met the banks", True),
    ("management met with regulators twice", True),
    ("the chair met them", True),
    ("it met the test", False),
    ("it met with ease", False),
    ("criterion met", False),
    ("it met all seven", False),
    ("it met expectations", False),
    ("it met the 2:1 current ratio", False),
    ("it meets the $50m size floor", False),
    ("management met the banks in 2023", True),
])
def test_meets_someone_names_a_meeting(text: str, someone: bool) -> None:
    assert meets_someone(text, re.search(r"\bmee?ts?\b", text).end()) is someone
