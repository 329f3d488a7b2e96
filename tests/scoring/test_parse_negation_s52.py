"""Negation scope (issue 13; paper §7.5; s52break #2-#4): a negation at the end of a line, a verdict judged a mistake,
and negated auxiliaries written without their apostrophe.

Each answer is written here by hand on the two-gate Graham net-net card; the expected reading is worked by hand in
the comment beside it: a negated PROCEED is a REJECT, a negated INVEST is the card's fail outcome DECLINE.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._judged import judged_wrong_before
from ipb.scoring.parse._soft_break import carried_words
from ipb.scoring.parse._verdict_clauses import _negated

CARD = str(Path(__file__).resolve().parents[2] / "frameworks" / "graham_net_net_screen.yaml")


def _read(text: str) -> tuple[dict[int, str | None], str | None]:
    d = parse_response(text, CARD, embedder=False).to_dict()
    return {g["gate"]: g["verdict"] for g in d["gates"]}, d["final_verdict"]


@pytest.mark.parametrize("gate1", [
    "I would not\nPROCEED.",  # the "not" ends line 1; the sentence runs on: REJECT, as on one line
    "NOT\nPROCEED.",
    "this one cannot\nPROCEED.",
    "Never\nPROCEED.",
    "the stock fails to\nPROCEED.",
    "we cannot\n**PROCEED**.",  # emphasis before the word on its own line is no boundary
    "rather than\nPROCEED, REJECT.",  # the refused option, then the stated one
])
def test_a_negation_before_a_soft_line_break_negates_the_verdict(gate1):
    gates, _ = _read(f"Gate 1: {gate1}\nGate 2: PROCEED.\nFinal verdict: DECLINE")
    assert gates[1] == "REJECT" and gates[2] == "PROCEED"


def test_a_final_verdict_negated_over_a_line_break():
    # "DO NOT" / "INVEST.": one sentence over two lines, so DECLINE (was INVEST)
    _, final = _read("Gate 1: PROCEED.\nGate 2: PROCEED.\nFinal verdict: DO NOT\nINVEST.")
    assert final == "DECLINE"


@pytest.mark.parametrize("text, gate1, final", [
    # "not hesitate to" is no negation, on one line or two: PROCEED and INVEST
    ("Gate 1: I would not hesitate to\nPROCEED.\nGate 2: PROCEED.\nFinal verdict: I would not hesitate to\nINVEST.", "PROCEED", "INVEST"),
    # a sentence's end closes the clause: "I would not." says nothing of the next line
    ("Gate 1: I would not.\nPROCEED.\nGate 2: PROCEED.\nFinal verdict: INVEST", "PROCEED", "INVEST"),
    # a blank line is a boundary
    ("Gate 1: I would not\n\nPROCEED.\nGate 2: PROCEED.\nFinal verdict: INVEST", "PROCEED", "INVEST"),
    # a colon closes the clause on one line
    ("Gate 1: cannot fault it: PROCEED.\nGate 2: PROCEED.\nFinal verdict: INVEST", "PROCEED", "INVEST"),
])
def test_boundaries_and_pseudo_negations_keep_their_reading(text, gate1, final):
    gates, got = _read(text)
    assert (gates[1], got) == (gate1, final)


def test_carried_words_stop_at_boundaries():
    assert carried_words("Gate 1: I would not\nPROCEED.", 20) == ["i", "would", "not"]
    assert carried_words("Final verdict: DO NOT\n- INVEST", 24) == []  # a list item opens its own clause
    assert carried_words("## Not\nPROCEED", 7) == []  # a heading
    assert carried_words("| Not |\nPROCEED", 8) == []  # a table row
    assert carried_words("Gate 2 - Not Dissipated by Losses\nPROCEED", 34) == []  # a gate's name in Title Case
    assert carried_words("it is not\nclear that we PROCEED", 27) == []  # the word does not open its line


@pytest.mark.parametrize("gate1, gate2, final", [
    ("It would be a mistake to PROCEED.", "it would be wrong to PROCEED.", "it would be a mistake to INVEST."),
    ("foolish to PROCEED.", "too early to PROCEED.", "it would be unwise to INVEST."),
    ("Proceeding would be a mistake.", "a bad idea to PROCEED.", "it is premature to INVEST."),
])
def test_a_verdict_judged_a_mistake_is_refused(gate1, gate2, final):
    # each judgement refuses its act: REJECT for the gates, DECLINE for the final
    gates, got = _read(f"Gate 1: {gate1}\nGate 2: {gate2}\nFinal verdict: {final}")
    assert (gates[1], gates[2], got) == ("REJECT", "REJECT", "DECLINE")


def test_a_denied_judgement_or_a_plain_infinitive_refuses_nothing():
    gates, got = _read("Gate 1: It would not be a mistake to PROCEED.\nGate 2: I am ready to PROCEED.\n"
                       "Final verdict: It would not be a mistake to INVEST.")
    assert (gates[1], gates[2], got) == ("PROCEED", "PROCEED", "INVEST")
    # the judgement is of the other verdict: "PROCEED; it would be a mistake to REJECT it" stays PROCEED
    gates, _ = _read("Gate 1: PROCEED; it would be a mistake to REJECT it.\nGate 2: PROCEED.\nFinal verdict: INVEST")
    assert gates[1] == "PROCEED"
    assert not judged_wrong_before("it was no mistake to PROCEED", 0, 22)


@pytest.mark.parametrize("gate1, final", [
    ("I wouldnt PROCEED.", "I wouldnt INVEST"),
    ("dont PROCEED.", "dont invest"),
    ("it doesnt PROCEED.", "I shouldnt INVEST"),
    ("cant PROCEED.", "we wont INVEST"),  # "cant"/"wont" right before the verb: the auxiliaries
    ("it isnt a PROCEED.", "we didnt INVEST and will not"),
])
def test_negators_without_an_apostrophe(gate1, final):
    gates, got = _read(f"Gate 1: {gate1}\nGate 2: PROCEED.\nFinal verdict: {final}")
    assert (gates[1], gates[2], got) == ("REJECT", "PROCEED", "DECLINE")


def test_wont_and_cant_as_nouns_negate_nothing():
    assert _negated(["i", "cant"]) and _negated(["it", "wont"])
    assert not _negated(["is", "wont", "to"])  # "as he is wont to PROCEED": a habit
    assert not _negated(["his", "usual", "wont"]) and not _negated(["the", "cant"])  # a noun after an owner or article
    gates, _ = _read("Gate 1: as is his wont, PROCEED.\nGate 2: PROCEED.\nFinal verdict: INVEST")
    assert gates[1] == "PROCEED"
