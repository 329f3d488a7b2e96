"""Finals that commit to nothing, labels answered in place, and mild appraisals (s53wild, issue 13 "final verdicts in the
wild" and "labels with answers"; paper §7.5).

The rules, each stated once in its module:

* one outcome offered against its own negation, "Perhaps INVEST, perhaps not.", states no final verdict
  (:mod:`ipb.scoring.parse._undecided`); one outcome under a hedge of possibility alone ("It might be a BUY.") keeps its
  reading at a confidence under the 0.7 review bar of ``ipb score --min-confidence``;
* "It depends on your risk tolerance." as the whole answer is a refusal (``no_commitment``), and as the last statement
  on the decision it withdraws an outcome read before it (:data:`ipb.scoring.parse._undecided.DEFERRED`);
* a gate's label asked as a question ("Financial condition: OK?") takes the answer on its line or the next; a bold
  question heading takes the answer after it on the same line, turned over when it asks about a fault;
* a mild appraisal ("the margin is thin", "a bit rich") keeps its verdict as a lean, marked ``+mild``, confidence at
  most 0.45, and commits to nothing (:mod:`ipb.scoring.parse._mild`).

Every text here is written for this file; each expected reading is worked by hand in its comment.
"""

from __future__ import annotations

import pytest

from ipb.engine.registry import compiled_card
from ipb.scoring.outcome import commits, defers_the_decision, filing
from ipb.scoring.parse import parse_response

#: marks_risk_return_assessment: outcomes INVEST (pass) / DECLINE (fail); BUY is its pass synonym.
MARKS = "marks_risk_return_assessment"
#: graham_seven_tests_defensive: gate 2 Sufficiently Strong Financial Condition, 4 Dividend Record, 6 Moderate P/E.
GRAHAM = "graham_seven_tests_defensive"
#: buffett_acquisition_checklist: gate 4 Intrinsic Value Estimation, gate 5 Margin of Safety.
BUFFETT = "buffett_acquisition_checklist"
#: The review bar docs/scoring.md names for ``ipb score --min-confidence``.
REVIEW_BAR = 0.7


def _parse(card_id: str, text: str):
    return parse_response(text, compiled_card(card_id).card, embedder=False)


# ---------------------------------------------------------------- a single hedged outcome

@pytest.mark.parametrize("text", [
    "Perhaps INVEST, perhaps not.",  # the outcome and its negation under one hedge: no choice made
    "Gate 1 PROCEED.\n\nFinal verdict: maybe DECLINE, maybe not.",
    "Gate 1 PROCEED.\n\nPossibly INVEST - or possibly not.",
])
def test_an_outcome_offered_against_its_own_negation_is_no_final(text):
    parsed = _parse(MARKS, text)
    assert parsed.final_verdict is None
    assert parsed.final_confidence == 0.0  # no verdict read: 0.0, not the withdrawn reading's confidence


@pytest.mark.parametrize("text, outcome", [
    # "might" is a modal: level 3 - 1 = 2 (0.65), a lone outcome word in the text: x0.75 hedge, then weighed: 0.26
    ("It might be a BUY.", "INVEST"),
    ("Maybe INVEST.", "INVEST"),  # a hedge word before it: x0.75 of 0.85, 0.64 (under the bar)
    ("Gate 1 PROCEED.\n\nIt could be a DECLINE.", "DECLINE"),
])
def test_a_lone_outcome_under_a_possibility_hedge_stays_under_the_review_bar(text, outcome):
    parsed = _parse(MARKS, text)
    assert parsed.final_verdict == outcome
    assert 0.0 < parsed.final_confidence < REVIEW_BAR


@pytest.mark.parametrize("text", ["Final verdict: INVEST.", "Gate 1 PROCEED.\n\nFinal verdict: INVEST, perhaps not at once."])
def test_a_committed_outcome_is_not_withdrawn(text):
    # "perhaps not at once" hedges the timing; no hedge stands before INVEST, so it is no offer of INVEST or not
    parsed = _parse(MARKS, text)
    assert parsed.final_verdict == "INVEST" and parsed.final_confidence >= REVIEW_BAR


# ---------------------------------------------------------------- "it depends"

@pytest.mark.parametrize("text", ["It depends on your risk tolerance.", "That depends on what you need.",
                                  "Honestly, it depends."])
def test_it_depends_as_the_whole_answer_is_no_commitment(text):
    parsed = _parse(MARKS, text).to_dict()
    assert parsed["final_verdict"] is None
    vocabulary = ["Price Relative to Value", "Howard Marks"]
    assert filing(text, parsed, vocabulary)[:2] == ("refusal", "no_commitment")  # was ('refusal', 'off_topic')


@pytest.mark.parametrize("text", ["It depends on the price; at $20 I would buy.", "Gate 1 depends on the debt.", ""])
def test_a_condition_with_a_verdict_or_another_subject_is_no_deferral(text):
    assert not defers_the_decision(text)


@pytest.mark.parametrize("tail", [
    "I lean INVEST.\n\nFinal verdict: it depends on what you need.",
    "INVEST looks right to me.\n\nUltimately, it depends on your risk tolerance.",
])
def test_a_deferral_after_the_gates_withdraws_the_outcome_before_it(tail):
    parsed = _parse(MARKS, "Gate 1 PROCEED.\n\n" + tail)
    assert parsed.final_verdict is None and parsed.final_confidence == 0.0
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED")]  # the committed gate stays
    assert commits(parsed.to_dict())  # scored on its gate, with no final verdict


@pytest.mark.parametrize("text, outcome", [
    # the condition is on the facts, not on the reader: the verdict before it stands
    ("Gate 1 PROCEED.\n\nFinal verdict: INVEST. It depends on the price, which is fair today.", "INVEST"),
    # a verdict after the deferral is the last statement on the decision
    ("Gate 1 PROCEED.\n\nIt depends on your risk tolerance. Final verdict: DECLINE.", "DECLINE"),
])
def test_a_verdict_after_or_beside_a_condition_on_the_facts_stands(text, outcome):
    assert _parse(MARKS, text).final_verdict == outcome


# ---------------------------------------------------------------- labels with answers

@pytest.mark.parametrize("text, expected", [
    # the answer on the next line: No is the gate's REJECT (current ratio 1.2 under Graham's 2)
    ("Financial condition: OK?\nNo - the current ratio is 1.2.", [(2, "REJECT")]),
    # answered on its own line: Yes, PROCEED
    ("Dividend record: OK? Yes, paid for 30 years.", [(4, "PROCEED")]),
    # a bold question heading answered on the same line; the question asks about a fault, so Yes fails the gate
    ("**Is the price/earnings ratio too high?** Yes - 24 times earnings.", [(6, "REJECT")]),
    ("**Is the price/earnings ratio too high?** No, 12x.", [(6, "PROCEED")]),
    # a question in the gate's own pass sense: No is its REJECT
    ("**Is the financial condition sufficiently strong?** No", [(2, "REJECT")]),
])
def test_a_label_asked_as_a_question_takes_its_answer(text, expected):
    # (the gates given a verdict; "the current ratio" also names gate 3's words, read with none)
    assert [(g.gate, g.verdict) for g in _parse(GRAHAM, text).gates if g.verdict is not None] == expected


def test_a_label_asked_with_no_answer_gets_no_verdict():
    # "Dividend record: OK?" and a blank line: the writer never answered; gate 2's answer is read, gate 4 gets none
    text = "Financial condition: OK?\nNo - the current ratio is 1.2.\n\nDividend record: OK?\n\nFinal verdict: DECLINE"
    read = {g.gate: g.verdict for g in _parse(GRAHAM, text).gates}
    assert read.get(2) == "REJECT" and read.get(4) is None


# ---------------------------------------------------------------- mild appraisals

@pytest.mark.parametrize("text, gate", [
    ("The margin of safety is thin.", 5),  # a word of degree, no intensifier
    ("Valuation is a bit rich relative to intrinsic value.", 4),  # softened by "a bit"
    ("## Margin of Safety\nThe margin is thin.\n", 5),  # the same under the gate's heading (section reader)
])
def test_a_mild_appraisal_is_a_lean_not_a_commitment(text, gate):
    parsed = _parse(BUFFETT, text)
    (trace,) = [g for g in parsed.gates if g.gate == gate]
    assert trace.verdict == "REJECT" and "+mild" in trace.how and trace.confidence <= 0.45
    assert not commits(parsed.to_dict())
    vocabulary = ["Margin of Safety", "Intrinsic Value Estimation", "Warren Buffett"]
    assert filing(text, parsed.to_dict(), vocabulary)[:2] == ("refusal", "no_commitment")


@pytest.mark.parametrize("text, gate, how_has_mild", [
    ("The margin of safety is far too thin.", 5, False),  # intensified: a failure stated outright, still a commitment
    ("## Margin of Safety\nThe margin is thin, so this gate fails.\n", 5, False),  # tied to the verdict: "fails" is read
])
def test_an_intensified_or_tied_appraisal_commits(text, gate, how_has_mild):
    parsed = _parse(BUFFETT, text)
    (trace,) = [g for g in parsed.gates if g.gate == gate]
    assert trace.verdict == "REJECT" and ("+mild" in trace.how) == how_has_mild
    assert commits(parsed.to_dict())
