"""Wrong readings at or above the 0.7 review bar found by stop 45's breaker (break45; issue 13; paper §7.5).

- **A self-repair after a label's verdict** (``._verdict_clauses._SELF_REPAIR``): on Munger's card
  "Fair Price: PROCEED. Wait, no: at 45x it is REJECT." read gate 5 PROCEED at 0.76, and so did "PROCEED \u2014 scratch
  that, REJECT" and "PROCEED. Actually, no \u2014 REJECT": the word right after the label outranked the writer's own
  correction. A verdict after a repair cue ("wait, no", "no, wait", "scratch that", "strike that", "actually, no") in its
  clause is a revision, as one after "correction" or "on reflection" already was: it wins wherever it sits. The dropped
  word stays the runner-up, so the reading is not taken without review (0.57).
- **A verdict word naming a kind of case** (``._verdict_clauses._FRAMED_NOUN``): on Munger's card "Fair Price: the
  REJECT case is weak, the PROCEED case is strong: PROCEED." read gate 5 REJECT at 0.76, "the PROCEED thesis depends on
  30% growth, which is fantasy. REJECT." PROCEED at 0.76, and a list of risks ending in a summary line ("2. High Return
  on Capital: REJECT risk if capex rises." ... "Verdicts: ... High Return on Capital PROCEED (25%).") read gate 2 REJECT
  at 0.95. A bare verdict word right before a noun such as case, scenario, thesis, argument, camp, risk, trigger or
  threshold modifies that noun and states no verdict; an inflected verb keeps its object ("passes risk review"), and a
  noun on the next line is no object of the word (a hard wrap is a space to the parser: "Verdict \u2014 PROCEED\nRisk
  shares are ..." lost gate 2 of a tuned All Weather answer, n42-awc04, in the first version of this rule).
- **"I'd have said" as a counterfactual** (``._verdict_clauses.counterfactual``): "Fair Price: I'd have said PROCEED
  last week, before the rally. REJECT now." read gate 5 PROCEED at 0.76, while "I would have said PROCEED ..." read
  REJECT: the contraction 'd before "have" is "would" (it cannot be "had" there).
- **An answer in HTML on one line** (``._markup.blank_markup``): "<ul><li>Fair Price: REJECT</li><li>High Return on
  Capital: PROCEED</li></ul><p>Final verdict: DECLINE</p>", the same with ``<div><b>...</b>: <span ...>REJECT</span>``
  or ``<br>`` between the gates, read no gate at all (a parse failure: every metric at its failure value). A run of tags
  is read as the lines it draws, offsets kept.

Answers written for these tests (no corpus text); each expected verdict worked by hand against the card named beside it.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response
from parse_support import gate_reading as _gate

MUNGER = "munger_business_quality_price"  # gate 5 Fair Price

#: The review bar: a reading at or above it is taken without review.
REVIEW_BAR = 0.7


@pytest.mark.parametrize("text", [
    "Fair Price: PROCEED. Wait, no: at 45x it is REJECT.\nFinal verdict: DECLINE\n",
    "Fair Price: PROCEED \u2014 scratch that, REJECT.\nFinal verdict: DECLINE\n",
    "Fair Price: PROCEED. Actually, no \u2014 REJECT; 45x is too rich.\nFinal verdict: DECLINE\n",
    "Fair Price: it passes. No, wait: at 45x it fails.\nFinal verdict: DECLINE\n",
    "Fair Price: PROCEED. Strike that: REJECT at 45x earnings.\nFinal verdict: DECLINE\n",
])
def test_regression_a_verdict_after_a_self_repair_replaces_the_labels_word(text: str) -> None:
    # PROCEED 0.76 before: the label's first word won over the correction
    reading = _gate(text, MUNGER, 5)
    assert reading is not None and reading[0] == "REJECT", reading


def test_regression_the_repaired_verdict_is_not_taken_without_review() -> None:
    # the dropped PROCEED is still the runner-up: the correction wins, below the bar (0.95 x 0.6 = 0.57)
    reading = _gate("Fair Price: PROCEED. Wait, no: at 45x it is REJECT.\nFinal verdict: DECLINE\n", MUNGER, 5)
    assert reading is not None and reading[0] == "REJECT" and reading[1] < REVIEW_BAR, reading


@pytest.mark.parametrize(("text", "verdict"), [
    # "no one", "no analyst", "no doubt": no repair; the label's word stands, taken without review
    ("Fair Price: PROCEED. Wait, no one expected 14x for a moat this wide.\nFinal verdict: INVEST\n", "PROCEED"),
    ("Fair Price: PROCEED. Actually, no analyst disputes that 14x is cheap.\nFinal verdict: INVEST\n", "PROCEED"),
    ("Fair Price: REJECT. Actually, no doubt about it at 45x.\nFinal verdict: DECLINE\n", "REJECT"),
])
def test_a_no_that_is_not_a_repair_leaves_the_labels_verdict(text: str, verdict: str) -> None:
    reading = _gate(text, MUNGER, 5)
    assert reading is not None and reading[0] == verdict and reading[1] >= REVIEW_BAR, reading


@pytest.mark.parametrize(("text", "gate", "verdict"), [
    # REJECT 0.76 before: the first of two equal statements, "the REJECT case"
    ("Fair Price: the REJECT case is weak, the PROCEED case is strong: PROCEED.\nFinal verdict: INVEST\n", 5, "PROCEED"),
    # PROCEED 0.76 before
    ("Fair Price: the PROCEED thesis depends on 30% growth, which is fantasy. REJECT.\nFinal verdict: DECLINE\n", 5, "REJECT"),
    ("High Return on Capital: the REJECT camp points to 2020's dip, but ROIC averaged 25%: PROCEED.\nFinal verdict: INVEST\n",
     2, "PROCEED"),
    # REJECT 0.95 before: the risk list's "REJECT risk" outranked the summary line's PROCEED
    ("Key risks:\n1. Fair Price: could REJECT if multiples expand further.\n2. High Return on Capital: REJECT risk if capex "
     "rises.\nVerdicts: Fair Price PROCEED (14x); High Return on Capital PROCEED (25%).\nFinal verdict: INVEST\n", 2, "PROCEED"),
])
def test_regression_a_verdict_word_before_a_noun_of_cases_or_risks_states_no_verdict(text: str, gate: int, verdict: str) -> None:
    reading = _gate(text, MUNGER, gate)
    assert reading is not None and reading[0] == verdict, reading


@pytest.mark.parametrize(("text", "gate", "verdict"), [
    ("High Return on Capital: passes risk review at 25% ROIC.\nFinal verdict: INVEST\n", 2, "PROCEED"),  # a verb and its object
    ("Fair Price: FAIL, case closed.\nFinal verdict: DECLINE\n", 5, "REJECT"),  # a comma: the word is not before the noun
    ("Fair Price: REJECT. Case closed at 45x.\nFinal verdict: DECLINE\n", 5, "REJECT"),
])
def test_a_verdict_word_not_modifying_a_noun_keeps_its_reading(text: str, gate: int, verdict: str) -> None:
    reading = _gate(text, MUNGER, gate)
    assert reading is not None and reading[0] == verdict and reading[1] >= REVIEW_BAR, reading


@pytest.mark.parametrize("text", [
    "Fair Price: I'd have said PROCEED last week, before the rally. REJECT now.\nFinal verdict: DECLINE\n",
    "Fair Price: we\u2019d have passed it at 12x; at 45x it fails.\nFinal verdict: DECLINE\n",
])
def test_regression_a_contracted_would_have_is_a_counterfactual(text: str) -> None:
    # PROCEED 0.76 before (the first of two equal statements); "I would have said" already read REJECT
    reading = _gate(text, MUNGER, 5)
    assert reading is not None and reading[0] == "REJECT", reading


def test_a_contracted_would_without_have_keeps_the_verdict() -> None:
    reading = _gate("Fair Price: I'd say PROCEED at 14x earnings.\nFinal verdict: INVEST\n", MUNGER, 5)
    assert reading is not None and reading[0] == "PROCEED" and reading[1] >= REVIEW_BAR, reading


def test_a_noun_on_the_next_line_is_not_modified_by_the_verdict_word() -> None:
    # the first version of the rule read gate 2 None: "PROCEED\nRisk shares" was "PROCEED risk" once the wrap was undone
    text = ("**1. Four-Environment Asset Mapping** \u2014 Verdict \u2014 PROCEED\nAll four environments have an asset group.\n\n"
            "**2. Risk Parity Balance** \u2014 Verdict \u2014 PROCEED\nRisk shares are 25% / 26% / 24% / 25%, inside the band.\n\n"
            "Final verdict: INVEST\n")
    reading = _gate(text, "dalio_all_weather_portfolio_construction", 2)
    assert reading is not None and reading[0] == "PROCEED" and reading[1] >= REVIEW_BAR, reading


@pytest.mark.parametrize("text", [
    "<ul><li>Fair Price: REJECT</li><li>High Return on Capital: PROCEED</li></ul><p>Final verdict: DECLINE</p>",
    "<div><b>Fair Price</b>: <span style='color:red'>REJECT</span></div><p>High Return on Capital: <i>PROCEED</i></p>"
    "<p>Final verdict: <b>DECLINE</b></p>",
    "Fair Price&nbsp;: REJECT<br>High Return on Capital&nbsp;: PROCEED<br>Final verdict: DECLINE",
])
def test_regression_an_answer_in_html_on_one_line_reads_its_gates(text: str) -> None:
    # no gate read before (reason: no gate of the card recognised)
    parsed = parse_response(text, MUNGER, embedder=False)
    assert parsed.status == "ok", parsed.reason
    assert {g.gate: g.verdict for g in parsed.gates} == {5: "REJECT", 2: "PROCEED"}
    assert min(g.confidence for g in parsed.gates) >= REVIEW_BAR and parsed.final_verdict == "DECLINE"


def test_html_paragraphs_with_bold_labels_keep_their_confidence_and_spans() -> None:
    # a label after <p><strong> starts its line unindented: 0.95 as without the markup (0.64 in a first version)
    text = ("<p><strong>Fair Price:</strong> REJECT</p>\n<p><strong>High Return on Capital:</strong> PROCEED</p>\n"
            "<p><strong>Final verdict:</strong> DECLINE</p>")
    parsed = parse_response(text, MUNGER, embedder=False)
    assert [(g.gate, g.verdict, g.confidence) for g in parsed.gates] == [(5, "REJECT", 0.95), (2, "PROCEED", 0.95)]
    assert text[slice(*parsed.gates[0].verdict_span)] == "REJECT" and text[slice(*parsed.final_verdict_span)] == "DECLINE"
