"""Readings a second new user's own answers tripped over (issue 13; /work/notes/newuser2.md findings 3-6).

Every answer here is written for this test (none is the user's text). Each test names the
reading rule it pins down; the expected readings are what a careful human reader takes from
the text.
"""

from __future__ import annotations

import pytest

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._pass_sense import declines

NET_NET = "graham_net_net_screen"  # gate 1 the two-thirds rule, gate 2 no asset dissipation; INVEST / DECLINE
SEVEN = "graham_seven_tests_defensive"  # seven gates, INVEST / DECLINE


def _read(text: str, card: str = SEVEN):
    parsed = parse_response(text, card, embedder=False)
    return {g.gate: g.verdict for g in parsed.gates}, parsed.final_verdict


# --------------------------------------------------------------------------- "pass": a gate's subject passing vs the investor passing


@pytest.mark.parametrize("hedge", ["appears to pass", "seems to pass", "is likely to pass", "looks set to pass"])
def test_a_gate_that_appears_to_pass_is_a_hedged_proceed_not_a_decline(hedge):
    """Rule: "X appears to pass" has the tested thing as the subject of "pass": the gate's PROCEED, never the
    investor's "pass" (= decline), so it gives the answer no DECLINE final verdict."""
    gates, final = _read(f"Operating losses check: the company {hedge}, with profits in each of the last five years.\n", NET_NET)
    assert gates == {2: vw.PROCEED}
    assert final is None


def test_elliptic_appears_to_pass_after_a_gate_label():
    """Rule: with the subject left out after a gate's label ("Dividend record: appears to pass.") it is still the gate."""
    gates, final = _read("Dividend record: appears to pass.\nP/E test: seems to pass as well, at 12x.\n")
    assert gates == {4: vw.PROCEED, 6: vw.PROCEED}
    assert final is None


def test_the_hedge_lowers_the_confidence_of_a_passed_gate():
    """Rule: "appears to pass" is a hedged PROCEED: less sure than a bare "passes"."""
    hedged = parse_response("Dividend record: appears to pass.\n", SEVEN, embedder=False).gates[0]
    plain = parse_response("Dividend record: passes.\n", SEVEN, embedder=False).gates[0]
    assert hedged.verdict == plain.verdict == vw.PROCEED
    assert hedged.confidence < plain.confidence


@pytest.mark.parametrize("text", [
    "Every test is close, and on balance I'd pass.\n",
    "At this price we will pass.\n",
    "Given the leverage it is better to pass.\n",
    "I'm inclined to pass for now.\n",
])
def test_the_investor_passing_still_declines(text):
    """Rule: "pass" whose subject is the writer, or in a decision ("better to pass"), is the investor declining."""
    parsed = parse_response("Dividend record: fails, two omitted payments in 2015.\n\n" + text, SEVEN, embedder=False)
    assert parsed.final_verdict == "DECLINE"


@pytest.mark.parametrize(("words", "expected"), [
    ("i'd", True), ("we will", True), ("buffett would", True), ("it is better to", True), ("would", True),
    ("i am inclined to", True), ("appears to", False), ("the stock seems to", False), ("it is likely to", False),
    ("this should", False), ("the company will", False), ("passes the", False),
])
def test_declines_reads_the_subject_of_pass(words, expected):
    """The rule itself, word by word: the person or the decision makes "pass" a decline; the tested thing does not."""
    assert declines(words.split()) is expected
