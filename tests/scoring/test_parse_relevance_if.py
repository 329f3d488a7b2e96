"""A final verdict after a condition about the conversation ("If you ask me, ...") is stated for today (s47user).

Bug kind: a relevance conditional read as a condition on the facts. A new user's chatty answers to a card of their own
(John Neff's total return ratio screen, outcomes BUY / PASS) were right on every gate and closed "But if you want my
bottom line: Final verdict: BUY."; the parser read no final verdict on the BUY items, so VerdictAcc was 0.625 over
eight answers all of whose verdicts were right. The same sentence on a bundled card lost INVEST and DECLINE alike.
Conditions on the facts or on the reader's circumstances stay conditions.
"""

from __future__ import annotations

import pytest

from parse_support import final_of

BUFFETT = "buffett_acquisition_checklist"
GATES = "Circle of competence: PROCEED. Economic moat: PROCEED. "


@pytest.mark.parametrize("closing, expected", [
    ("If you ask me, the final verdict is INVEST.", "INVEST"),
    ("If you ask me, the final verdict is DECLINE.", "DECLINE"),
    ("But if you want my bottom line: Final verdict: INVEST.", "INVEST"),  # the new user's closing
    ("If you want my honest view: DECLINE.", "DECLINE"),
    ("If I'm honest, the final verdict is INVEST.", "INVEST"),
    ("If I had to sum it up: INVEST.", "INVEST"),
], ids=["ask-me-invest", "ask-me-decline", "bottom-line", "honest-view", "im-honest", "sum-it-up"])
def test_relevance_condition_states_the_verdict(closing, expected):
    assert final_of(GATES, closing, BUFFETT) == expected


@pytest.mark.parametrize("closing", [
    "If the price halves, the final verdict is INVEST.",  # a condition on the facts
    "If you want safety, INVEST.",  # on the reader's circumstances, not on the answer
    "If you need income, INVEST.",
    "If you ask me, we would INVEST if the price were lower.",  # the verdict after it is itself conditional
    "If you ask me, it is INVEST or DECLINE.",  # no choice made
], ids=["price-halves", "want-safety", "need-income", "inner-condition", "alternative"])
def test_other_conditions_stay_unread(closing):
    assert final_of(GATES, closing, BUFFETT) is None
