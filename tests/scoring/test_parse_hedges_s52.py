"""An answer that declines the final decision has no final verdict (issue 13, s52hedge).

A new user's hedger answered "... Some Fisher followers might still buy; others would pass. I would not commit either
way" and was read as final AVOID (confidence 0.36, from "pass"), and "Possibly AVOID, possibly BUY" as BUY: the
model that never commits ranked second (composite 0.237), above one that commits and is right on 1 of 4 (0.050).
Now a statement declining the decision is the last word on it (scoring/parse/_undecided.py), an outcome chosen by
"others" or "some" is theirs (scoring/parse/_voice.py), and an answer left with no committed gate and no final verdict
is filed as ``no_commitment``. The texts are written for these tests; the card is the BUY / AVOID fund-cost fixture of
s51 (tests/fixtures/new_user51).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import ipb
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._undecided import alternatives

CARD = Path(__file__).resolve().parents[1] / "fixtures" / "new_user51" / "bogle_fund_cost_test.yaml"
GATE3 = "Gate 3, All-in cost against an index fund: REJECT, 1.44% is over the 0.75% limit.\n"
# By hand (the s51 test's facts): 0.18% <= 0.50% PROCEED; load 0% PROCEED; 0.18% + 126% x 1% = 1.44% > 0.75% REJECT: AVOID.
FACTS = {"expense_ratio": "0.18%", "sales_load": "0%", "turnover": "126%", "holdings": 1300, "index_fund_cost": "0.12%"}


def _read(text: str) -> tuple[dict[int, str | None], str | None]:
    parsed = parse_response(text, str(CARD), embedder=False)
    return {g.gate: g.verdict for g in parsed.gates}, parsed.final_verdict


@pytest.mark.parametrize("tail", [
    "Some Bogleheads might still buy; others would pass. I would not commit either way.",  # was AVOID 0.75
    "The costs are mixed. Possibly AVOID, possibly BUY; it is a judgement call.",  # was BUY 0.11
    "It might be a BUY for a patient saver, or it could be better to AVOID it.",  # was AVOID 0.68
    "Turnover is high, so I would pass. Then again, I can't call it.",  # the refusal after the verdict is the last word
    "Honestly, the decision could go either way.",
    "It is either BUY or AVOID; we won't take a side.",
    "Some Bogleheads might buy; others would pass.",  # both choices are other people's (was AVOID)
    "Perhaps BUY, perhaps AVOID.",
])
def test_a_declined_decision_leaves_no_final_verdict_and_keeps_the_committed_gate(tail):
    gates, final = _read(GATE3 + tail)
    assert final is None
    assert gates[3] == "REJECT"  # the committed gate reading stays


@pytest.mark.parametrize("tail, verdict", [
    ("I would not commit capital: AVOID.", "AVOID"),  # "commit" with an object is the act of investing
    ("Some would buy; I would not. AVOID.", "AVOID"),  # others' choice set aside, the writer's own read
    ("The fund is possibly the best value in its class. BUY", "BUY"),  # the hedge is on another word
    ("I would not commit either way at first. Final verdict: AVOID", "AVOID"),  # a verdict after the refusal stands
    ("I can't call it a bargain, so AVOID.", "AVOID"),  # "call it X" is an appraisal, not a refusal
    ("It might be a BUY for some, but I would AVOID.", "AVOID"),  # one hedged outcome beside a plain one
    ("We would not commit until turnover falls. AVOID.", "AVOID"),
])
def test_committed_verdicts_still_read(tail, verdict):
    assert _read(GATE3 + tail)[1] == verdict


def test_either_way_inside_a_gate_section_withholds_the_gate_not_the_final():
    text = ("Gate 1, Expense ratio under the cap: PROCEED.\nGate 3, All-in cost against an index fund: REJECT.\n"
            "Final verdict: AVOID\nGate 2, No sales load: the share class is unclear, it could go either way.")
    gates, final = _read(text)
    assert final == "AVOID" and gates[3] == "REJECT"


HEDGER = ("The expense ratio looks low, but the all-in cost against an index fund is hard to judge from outside. Some "
          "Bogleheads might still buy; others would pass. I would not commit either way without the share class.")


def test_an_answer_declining_everything_is_no_commitment_and_scores_zero():
    r = ipb.score(HEDGER, card=str(CARD), facts=FACTS)
    assert (r["status"], r["outcome"], r["reason_code"]) == ("unscored", "refusal", "no_commitment")


def test_a_hedge_with_a_committed_gate_is_scored_with_no_final_verdict():
    r = ipb.score(GATE3 + "Possibly AVOID, possibly BUY.", card=str(CARD), facts=FACTS)
    assert r["status"] == "scored"
    assert r["metrics"]["verdict_acc"] == 0.0  # gold AVOID (by hand above); no final verdict stated


def test_alternatives_spans_by_hand():
    words = {"BUY": "BUY", "AVOID": "AVOID"}
    pattern = re.compile(r"(?i)\b(?:buy|avoid)\b")
    # "Maybe " is 6 characters, "BUY" ends at 9, ", maybe " runs to 17, "AVOID" ends at 22
    assert alternatives("Maybe BUY, maybe AVOID.", pattern, words) == [(6, 22)]
    assert alternatives("either BUY or AVOID", pattern, words) == [(7, 19)]
    assert alternatives("Maybe BUY. AVOID.", pattern, words) == []  # two sentences
    assert alternatives("Maybe BUY, or AVOID.", pattern, words) == []  # the second has no hedge of its own
    assert alternatives("Maybe BUY, maybe buy.", pattern, words) == []  # one outcome twice


@settings(max_examples=25, deadline=None)
@given(first=st.sampled_from(["BUY", "AVOID"]), hedge=st.sampled_from(["possibly", "perhaps", "maybe"]),
       committed=st.booleans())
def test_hedged_pair_states_no_final_and_a_later_label_does(first, hedge, committed):
    second = "AVOID" if first == "BUY" else "BUY"
    text = GATE3 + f"{hedge.capitalize()} {first}, {hedge} {second}."
    if committed:
        text += "\nFinal verdict: AVOID"
    assert _read(text)[1] == ("AVOID" if committed else None)
