"""A gate named, then hedged both ways, states no verdict (s49user).

The new user's card (tests/fixtures/new_user49, Graham's risk-arbitrage spread rule) has a gate named "Announced
deal only" whose test reads the category value ``announced``. Two faults made an answer that hedged every gate
("Gate 1 - Announced deal only: it could go either way; ... so this gate may pass or may fail.") score as if it had
said PROCEED: GRA 0.836 before, 0.938 after the first fault alone was mended, on six items, ranked above a wrong
and a skipping answer, with full coverage.

1. The word "Announced" of the gate's own name was read as the value of its category test, so every mention of the
   gate read PROCEED.
2. "may pass or may fail" read as its first word, a weak PROCEED; and with that gone the section's facts ("90%
   against the 70% floor") were read as a verdict the writer had withheld.

Now such an answer commits to nothing and is filed as a refusal (``no_commitment``), scored 0 and out of coverage.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import ipb
from ipb.scoring.parse import parse_response

CARD = Path(__file__).resolve().parents[1] / "fixtures" / "new_user49" / "graham_risk_arbitrage_spread.yaml"
NAMES = ["Announced deal only", "Chance of completion", "Expected annual return on Graham's formula",
         "Loss if the deal breaks"]


def _verdicts(text: str) -> dict[int, str | None]:
    parsed = parse_response(text, str(CARD), embedder=False).to_dict()
    return {g["gate"]: g["verdict"] for g in parsed["gates"]}


@pytest.mark.parametrize("text, verdict", [
    ("Gate 1 - Announced deal only: it could go either way.", None),  # was PROCEED, from the name's "Announced"
    ("Gate 1 - Announced deal only: the deal is announced.", "PROCEED"),  # the value said in the sentence
    ("Gate 1 - Announced deal only: the deal is only rumoured.", "REJECT"),
    ("Gate 1 - Announced deal only: REJECT.", "REJECT"),
])
def test_a_word_of_the_gate_name_is_no_value_of_its_category_test(text, verdict):
    assert _verdicts(text)[1] == verdict


@pytest.mark.parametrize("text, verdict", [
    ("Gate 2 - Chance of completion: this gate may pass or may fail.", None),  # was PROCEED 0.27
    ("Gate 2 - Chance of completion: it might pass, it might fail.", None),  # was PROCEED 0.27
    ("Gate 2 - Chance of completion: 90% against the 70% floor, but it could go either way.", None),
    ("Gate 2 - Chance of completion: 90% against the 70% floor, so this gate may pass or may fail.", None),
    ("Gate 2 - Chance of completion: it may pass.", "PROCEED"),  # one modal verdict stays a weak reading
    ("Gate 2 - Chance of completion: 90% against the 70% floor.", "PROCEED"),  # the facts alone still read
    ("Gate 2 - Chance of completion: it may pass or may fail, but on balance it passes.", "PROCEED"),
])
def test_a_gate_hedged_both_ways_states_no_verdict(text, verdict):
    assert _verdicts(text)[2] == verdict


def _hedge(reasons: list[str]) -> str:
    lines = [f"Gate {i} - {n}: it could go either way; {r}, but the inputs are estimates, so this gate may pass or "
             f"may fail." for i, (n, r) in enumerate(zip(NAMES, reasons), 1)]
    return "\n".join(lines + ["Overall it is hard to say; the position might be an arbitrage or might be a pass."])


def test_a_hedge_every_gate_answer_is_a_refusal_and_ranks_below_a_wrong_one():
    # Item GRAHAM-ARB-1 of the fixture: $40 price, $46 offer, $34 on a break, 90%, half a year. Worked by hand:
    # spread $6, loss $6, (6 x 0.9 - 6 x 0.1) / (40 x 0.5) = 24% >= 20%, loss $6 <= 25% of $40: ARBITRAGE.
    facts = {"deal_status": "definitive_agreement", "completion_probability": "90%", "target_price": "$40",
             "offer_value": "$46", "fallback_price": "$34", "years_to_close": 0.5}
    hedge = _hedge(["the deal status is definitive agreement", "the completion probability is 90% against the 70% floor",
                    "the spread is $6 and the loss on a break $6, so the return is 24% a year against the 20% hurdle",
                    "the loss on a break is $6, against 25% of the price ($10)"])
    r = ipb.score(hedge, card=str(CARD), facts=facts)
    assert (r["status"], r["outcome"], r["reason_code"]) == ("unscored", "refusal", "no_commitment")
    # A wrong but committed answer is scored (and so ranks above the hedge, which counts 0 on every metric).
    wrong = "\n".join(f"Gate {i} - {n}: REJECT." for i, n in enumerate(NAMES, 1)) + "\nFinal verdict: PASS"
    w = ipb.score(wrong, card=str(CARD), facts=facts)
    assert w["status"] == "scored" and w["metrics"]["verdict_acc"] == 0.0
