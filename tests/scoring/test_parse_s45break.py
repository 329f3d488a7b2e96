"""Wrong readings at or above the 0.7 review bar found by stop 45's breaker (break45; issue 13; paper §7.5).

- **A self-repair after a label's verdict** (``._verdict_clauses._SELF_REPAIR``): on Munger's card
  "Fair Price: PROCEED. Wait, no: at 45x it is REJECT." read gate 5 PROCEED at 0.76, and so did "PROCEED \u2014 scratch
  that, REJECT" and "PROCEED. Actually, no \u2014 REJECT": the word right after the label outranked the writer's own
  correction. A verdict after a repair cue ("wait, no", "no, wait", "scratch that", "strike that", "actually, no") in its
  clause is a revision, as one after "correction" or "on reflection" already was: it wins wherever it sits. The dropped
  word stays the runner-up, so the reading is not taken without review (0.57).

Answers written for these tests (no corpus text); each expected verdict worked by hand against the card named beside it.
"""

from __future__ import annotations

import pytest

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
