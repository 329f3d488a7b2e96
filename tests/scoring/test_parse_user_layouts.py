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


# --------------------------------------------------------------------------- a revision after the final verdict


_SEVEN_LINES = (
    "Gate 1 - Adequate Size: PROCEED, revenue of $3.4B.\n"
    "Gate 2 - Financial Condition: PROCEED, current ratio 2.2.\n"
    "Gate 3 - Earnings Stability: PROCEED.\n"
    "Gate 4 - Dividend Record: PROCEED.\n"
    "Gate 5 - Earnings Growth: PROCEED, EPS up 48% over the decade.\n"
    "Gate 6 - Moderate P/E: REJECT, 21x trailing earnings.\n"
    "Gate 7 - Price to Assets: REJECT.\n"
)


@pytest.mark.parametrize("revision", [
    "Hold on, I misread the filing. The payout was suspended in 2017, so gate 4 is REJECT, not PROCEED.",
    "Correction: gate 4 fails - the 2017 payout was suspended.",
    "Wait - I missed the suspended 2017 payout. Looking again, gate 4 is a REJECT.",
])
def test_a_revision_after_the_final_verdict_wins_for_its_gate(revision):
    """Rule (docs/scoring.md, "revisions win"): a gate revised after the final verdict paragraph takes the revised
    verdict; the other gates and the stated final verdict stay as they were."""
    text = _SEVEN_LINES + "\nFinal verdict: DECLINE, the multiple is far too rich.\n\n" + revision + "\n"
    gates, final = _read(text)
    assert gates == {1: vw.PROCEED, 2: vw.PROCEED, 3: vw.PROCEED, 4: vw.REJECT, 5: vw.PROCEED, 6: vw.REJECT, 7: vw.REJECT}
    assert final == "DECLINE"


def test_a_final_paragraph_that_only_recalls_a_gate_changes_nothing():
    """Rule: a gate named in the conclusion without a revision cue ("gate 6 REJECT sinks it") is the conclusion's
    reason, not a new reading of that gate; and the gates keep their own lines' verdicts."""
    text = _SEVEN_LINES + "\nFinal verdict: DECLINE. Gate 5 passes, but gate 6 REJECT sinks it.\n"
    gates, final = _read(text)
    assert gates[5] == vw.PROCEED and gates[6] == vw.REJECT and gates[4] == vw.PROCEED
    assert final == "DECLINE"


def test_a_verdict_followed_by_the_one_it_replaces_is_a_correction():
    """Rule: "REJECT, not PROCEED" / "fails rather than passes" states the first word and sets the second aside, so a
    later restatement of this kind wins over the gate's earlier line."""
    gates, _ = _read("Gate 3 - Earnings Stability: PROCEED.\n\nOn the 2009 loss, gate 3 fails rather than passes.\n")
    assert gates == {3: vw.REJECT}
    gates, _ = _read("Gate 3 - Earnings Stability: REJECT.\n\nGate 3 is PROCEED, not REJECT: the 2009 loss was a restatement.\n")
    assert gates == {3: vw.PROCEED}


# --------------------------------------------------------------------------- lists read by position, by key, or under a verdict label


def test_a_bare_numbered_list_of_the_cards_length_is_read_as_the_gates_in_order():
    """Rule: seven numbered verdicts answering a seven-gate card are gates 1..7 in order, even when no item names its gate."""
    text = ("1. PASS - $4.2B of sales\n2. PASS\n3. PASS\n4. FAIL - no dividend in 2019 or 2020\n"
            "5. PASS - EPS up by half\n6. PASS (11x)\n7. FAIL\n\nVerdict: DECLINE\n")
    gates, final = _read(text)
    assert gates == {1: vw.PROCEED, 2: vw.PROCEED, 3: vw.PROCEED, 4: vw.REJECT, 5: vw.PROCEED, 6: vw.PROCEED, 7: vw.REJECT}
    assert list(gates) == [1, 2, 3, 4, 5, 6, 7]
    assert final == "DECLINE"


def test_a_numbered_list_of_another_length_or_without_verdicts_is_not_read_by_position():
    """Rule: the position is the gate only when the list has exactly one item per gate and every item gives a verdict;
    a shorter list, or a numbered list of facts, names no gate by its numbers."""
    short = parse_response("1. PASS\n2. PASS\n3. FAIL\n4. PASS\n\nVerdict: DECLINE\n", SEVEN, embedder=False)
    assert short.status == "parse_failure"
    facts = "\n".join(f"{k}. Revenue in year {k} was ${k + 3}B." for k in range(1, 8)) + "\n"
    assert parse_response(facts, SEVEN, embedder=False).status == "parse_failure"


def test_a_numbered_list_that_names_its_gates_is_read_by_the_names():
    """Rule: items that name a gate keep that gate; the numbers are only the list's own order then."""
    text = ("1. The P/E test: PASS\n2. Dividend record: FAIL\n3. Adequate size: PASS\n4. Earnings stability: PASS\n"
            "5. Earnings growth: PASS\n6. Financial condition: PASS\n7. Price to assets: PASS\n")
    gates, _ = _read(text)
    assert gates[6] == vw.PROCEED and gates[4] == vw.REJECT and gates[2] == vw.PROCEED


@pytest.mark.parametrize("text", [
    '{"gate_1": "PROCEED", "gate_4": "REJECT", "final_verdict": "DECLINE"}',
    '{\n  "gate_1": "PROCEED",\n  "gate_4": "REJECT",\n  "final_verdict": "DECLINE"\n}',
    '{"step 1": "pass", "step 4": "fail", "decision": "DECLINE"}',
])
def test_json_keyed_by_gate_number(text):
    """Rule: a JSON key naming a gate by number ("gate_4", "step 4") takes the verdict in its value."""
    gates, final = _read(text)
    assert gates == {1: vw.PROCEED, 4: vw.REJECT}
    assert final == "DECLINE"


def test_a_verdict_label_before_a_list_of_gates_gives_each_the_verdict():
    """Rule: "Failed: A, B and C." gives every gate the list names the label's verdict, not just the first."""
    text = "Passed: the size test, the P/E test and the earnings record.\nFailed: the dividend history and the P/B test.\n"
    gates, _ = _read(text)
    assert gates == {1: vw.PROCEED, 6: vw.PROCEED, 3: vw.PROCEED, 4: vw.REJECT, 7: vw.REJECT}


# --------------------------------------------------------------------------- a verdict whose subject names another gate's test


def test_a_verdict_goes_to_the_test_its_subject_names_not_to_the_paragraphs_gate():
    """Rule: in prose about one gate, "so the uninterrupted-payments test fails" is the dividend gate's verdict (the
    subject's words are that gate's: "uninterrupted dividends"), not the verdict of the gate the paragraph opened with."""
    text = ("Earnings stability looks fine to me: the company earned money in each of the last ten years. "
            "Payouts stopped in 2015 for two years, so the uninterrupted-payments test fails.\n")
    gates, _ = _read(text)
    assert gates.get(4) == vw.REJECT
    assert gates.get(3) != vw.REJECT


def test_shared_words_are_settled_by_the_rest_of_the_sentence():
    """Rule: when the subject's words fit two gates ("earnings test": Earnings Stability, Earnings Growth), the
    sentence's other words choose ("per-share ... over the decade" is the growth gate)."""
    text = ("The current ratio is 2.5, comfortably above two, so financial condition passes. "
            "Per-share earnings rose only 9% over the decade, so the earnings test fails on growth.\n")
    gates, _ = _read(text)
    assert gates.get(5) == vw.REJECT
    assert gates.get(2) == vw.PROCEED
    assert 3 not in gates or gates[3] is None


def test_a_subject_that_names_the_paragraphs_own_gate_keeps_it():
    """Rule: "the P/E test passes" in the P/E paragraph stays with the P/E gate."""
    gates, _ = _read("Moderate P/E: at 12 times earnings the P/E test passes easily.\n")
    assert gates == {6: vw.PROCEED}


def test_a_gate_name_never_matches_across_a_sentence_end():
    """Rule: "... is adequate. Size of the enterprise ..." does not name the gate "Adequate Size of the Enterprise"
    from the end of one sentence into the next: the mention starts where its sentence starts."""
    text = "The balance sheet is adequate. Size of the enterprise: $5B of sales, so it passes.\n"
    parsed = parse_response(text, SEVEN, embedder=False)
    mention = next(g.mention for g in parsed.gates if g.gate == 1)
    assert text[mention[0] : mention[1]] == "Size of the enterprise"
