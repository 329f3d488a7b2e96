"""'Not reached.' after a label naming the condition a gate watches for (issue 13, verdict-word senses).

"Stalwart target: +22% since purchase. Not reached." says the sell target is not reached: the sell-signal gate's PROCEED,
not N/A (a gate never reached). For a gate whose condition lets it proceed ("Return hurdle: ... Not met.") the same
words are its REJECT. Regression kind: the words were read as N/A. Texts written for these tests; hand-labelled.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

LYNCH = "lynch_portfolio_story_review"
BUYBACK = "buffett_share_repurchase"


@pytest.mark.parametrize("line, verdict", [
    ("3. Stalwart target: +31% since we bought. Not reached.", "PROCEED"),
    ("3. Stalwart target: up 18%, not hit yet.", "PROCEED"),
    ("3. Stalwart target: +52% since purchase. Reached, so this signal fires: REJECT.", "REJECT"),
    ("3. Category sell signal: not reached.", "N/A"),  # no condition in the label: the gate was not reached
])
def test_not_reached_after_a_target_label_is_the_condition_unmet(line: str, verdict: str) -> None:
    text = f"1. Story broken? No, same-store sales grow 5%.\n2. P/E vs growth: 14x on 15%. PROCEED.\n{line}\n\nHOLD."
    parsed = parse_response(text, LYNCH, embedder=False)
    assert dict((g.gate, g.verdict) for g in parsed.gates)[3] == verdict


def test_a_price_limit_not_reached_clears_the_limit_gate() -> None:
    text = ("Gate 1: PROCEED, cash far above needs.\nGate 2: PROCEED, price 0.8x value.\n"
            "Gate 3 - price limit: 1.05x book against the 1.2x cap. Not reached.\nGate 4: PROCEED.\n\nREPURCHASE.")
    parsed = parse_response(text, BUYBACK, embedder=False)
    assert dict((g.gate, g.verdict) for g in parsed.gates)[3] == "PROCEED"
