"""A verdict word after a modal and its own negation states no verdict (s51user).

The new user's card (tests/fixtures/new_user51, a Bogle fund-cost test of four gates) was answered by a respondent
that hedged every gate. Its first gate read "this may or may not PROCEED": the parser took the "not" as a negation and
read REJECT (confidence 0.35), so the answer committed to something, was scored (L7 composite 0.412, all of it the
gates' order) and counted 100% coverage, where "it could go either way" on the same gate is filed as a refusal
(``no_commitment``), scored 0 and out of coverage. Now "may or may not", "might or might not", "will or won't",
"does or does not" before a verdict word state neither verdict, and the gate's facts are not read instead.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import ipb
from ipb.scoring.parse import parse_response

CARD = Path(__file__).resolve().parents[1] / "fixtures" / "new_user51" / "bogle_fund_cost_test.yaml"
NAMES = ["Expense ratio under the cap", "No sales load", "All-in cost against an index fund", "Broad diversification"]
# The fixture's BOGLE-PASS-1 facts with turnover 126% (its first perturbed item). By hand: 0.18% <= 0.50% PROCEED; load
# 0% PROCEED; all-in 0.18% + 126% x 1% = 1.44%, 1.32% above the 0.12% index fund, over the 0.75% limit: REJECT; AVOID.
FACTS = {"expense_ratio": "0.18%", "sales_load": "0%", "turnover": "126%", "holdings": 1300, "index_fund_cost": "0.12%"}


def _gate1(text: str) -> str | None:
    parsed = parse_response(f"Gate 1, {NAMES[0]}: {text}", str(CARD), embedder=False).to_dict()
    return {g["gate"]: g["verdict"] for g in parsed["gates"]}[1]


@pytest.mark.parametrize("text", [
    "this may or may not PROCEED; it depends on how the cap is read.",  # was REJECT 0.35
    "it might or might not pass.",  # was REJECT
    "may or may not REJECT.",  # was PROCEED 0.35
    "it will or won't fail, who knows.",
    "it does or does not clear, depending on the share class.",
    "0.18% against the 0.50% cap, so it may or may not be met.",  # the facts are not read instead (figure against bar)
])
def test_a_verdict_after_a_modal_and_its_negation_states_none(text):
    assert _gate1(text) is None


@pytest.mark.parametrize("text, verdict", [
    ("it does not PROCEED.", "REJECT"),  # a plain negation still reads
    ("it may not pass.", "REJECT"),  # one modal with its negation stays a weak REJECT
    ("it may pass.", "PROCEED"),
    ("0.18% is under the 0.50% cap: PROCEED.", "PROCEED"),
    ("it may or may not look cheap to some, but it passes.", "PROCEED"),  # the committed word later in the sentence
])
def test_committed_and_single_modal_verdicts_still_read(text, verdict):
    assert _gate1(text) == verdict


HEDGE = "\n".join([
    f"Gate 1, {NAMES[0]}: this may or may not PROCEED; it depends on how the cap is read.",
    f"Gate 2, {NAMES[1]}: it could PROCEED or REJECT depending on share class.",
    f"Gate 3, {NAMES[2]}: possibly REJECT, possibly PROCEED; trading costs are uncertain.",
    f"Gate 4, {NAMES[3]}: perhaps PROCEED, though it is hard to say.",
    "Final verdict: it could go either way, BUY or AVOID, depending on the investor.",
])


def test_the_hedge_every_gate_answer_is_filed_as_committing_to_nothing():
    r = ipb.score(HEDGE, card=str(CARD), facts=FACTS)
    assert (r["status"], r["outcome"], r["reason_code"]) == ("unscored", "refusal", "no_commitment")
    # A committed but wrong answer on the same item is scored: every gate PROCEED and BUY, VerdictAcc 0.
    wrong = "\n".join(f"Gate {i}, {n}: PROCEED." for i, n in enumerate(NAMES, 1)) + "\nFinal verdict: BUY"
    w = ipb.score(wrong, card=str(CARD), facts=FACTS)
    assert w["status"] == "scored" and w["metrics"]["verdict_acc"] == 0.0
