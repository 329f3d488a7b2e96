"""Negatively phrased questions answered with a bare Yes or No (issue 13, labels with answers; s24fresh "still trips").

Every text here was written for this file; the readings are labelled by hand. Regression kind: a question about a
gate whose name states its pass condition ("Economic Moat", "Earnings Stability") was read as asking that condition
whatever its words, so "Is the moat eroding? Yes." was the moat gate's PROCEED and "any deficit year in the last ten?
No." the stability gate's REJECT. A question in words of failure (weak, eroding, over-leveraged, cut, deficit, too
small, ...) asks whether the gate fails: Yes is REJECT, No is PROCEED; negated ("Is the debt not excessive?") it asks
the pass condition again.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

BUFFETT = "buffett_acquisition_checklist"  # 2 Economic Moat (pass test only), 3 Management Integrity (both tests)
GRAHAM = "graham_seven_tests_defensive"  # 2 financial condition, 3 earnings stability (pass tests only)


def _gates(text: str, card: str) -> dict[int, str | None]:
    return {g.gate: g.verdict for g in parse_response(text, card, embedder=False).gates}


@pytest.mark.parametrize(("question", "verdict"), [
    ("Is the moat eroding? Yes, two rivals now match the price.", "REJECT"),
    ("Is the competitive advantage weak? Yes, the product is easy to copy.", "REJECT"),
    ("Is the moat eroding? No, retention is still 97%.", "PROCEED"),
    ("Does the business lack a durable competitive advantage? No.", "PROCEED"),
    ("Is the competitive advantage durable? Yes.", "PROCEED"),  # guard: asked in the pass sense, as before
    ("Is the moat not eroding at all? Yes.", "PROCEED"),  # the failure word negated in the question
], ids=["eroding-yes", "weak-yes", "eroding-no", "lack-no", "durable-yes", "negated-eroding-yes"])
def test_a_question_in_words_of_failure_reads_yes_as_the_gates_failure(question: str, verdict: str) -> None:
    text = f"1. Understandable business? Yes.\n2. {question}\n\nFinal verdict: DECLINE."
    assert _gates(text, BUFFETT)[2] == verdict


@pytest.mark.parametrize(("line", "gate", "verdict"), [
    ("- Financial condition: is the company over-leveraged? Yes, debt is twice net current assets.", 2, "REJECT"),
    ("- Financial condition: is the company over-leveraged? No, the current ratio is 2.6.", 2, "PROCEED"),
    ("- Earnings stability: any deficit year in the last ten? No.", 3, "PROCEED"),
    ("- Earnings stability: any deficit year in the last ten? Yes, 2020.", 3, "REJECT"),
], ids=["leverage-yes", "leverage-no", "deficit-no", "deficit-yes"])
def test_a_labelled_question_in_words_of_failure(line: str, gate: int, verdict: str) -> None:
    text = f"- Adequate size: sales of $2.9bn, well above the floor. PASS.\n{line}\n\nDECLINE."
    assert _gates(text, GRAHAM)[gate] == verdict


def test_a_question_to_a_gate_with_both_tests_reads_the_new_failure_words() -> None:
    # "dishonest" asks the failure of Management Integrity, which has a pass and a fail test
    text = "1. Understandable business? Yes.\n3. Is management dishonest with shareholders? No, the letters are candid.\n\nINVEST."
    assert _gates(text, BUFFETT) == {1: "PROCEED", 3: "PROCEED"}
