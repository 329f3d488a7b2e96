"""Regression (a hedge-everything answer was scored as its first word): every verdict at once states none.

Found by the s32break review: "Gate 5 (Margin of Safety): PROCEED and REJECT" was read as PROCEED (the first of
equal statements), and "PROCEED, REJECT, INCONCLUSIVE" likewise, so an answer that lists every verdict for every gate
earned GRA and VerdictAcc wherever the gold was PROCEED. Verdict words of different verdicts listed side by side
offer options (as "PASS/FAIL" already did); two joined by a bare comma may belong to two gates and stay.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

CARD = "buffett_acquisition_checklist"
NAMES = ["Circle of Competence", "Economic Moat", "Management Integrity", "Intrinsic Value Estimation",
         "Margin of Safety", "Holding Period Economics"]


def _every_gate(words: str, final: str) -> str:
    return "".join(f"Gate {i} ({n}): {words}\n" for i, n in enumerate(NAMES, 1)) + f"Final verdict: {final}\n"


@pytest.mark.parametrize("words, final", [
    ("PROCEED and REJECT", "INVEST and DECLINE"),
    ("PROCEED & REJECT", "INVEST & DECLINE"),
    ("PROCEED, REJECT, INCONCLUSIVE", "INVEST, DECLINE"),
    ("PROCEED, REJECT, or INCONCLUSIVE", "INVEST or DECLINE"),
    ("PROCEED / REJECT", "INVEST / DECLINE"),
])
def test_an_answer_listing_every_verdict_states_no_gate_verdict(words, final):
    parsed = parse_response(_every_gate(words, final), CARD, embedder=False)
    assert [g.verdict for g in parsed.gates if g.verdict is not None] == []
    assert parsed.final_verdict is None


def test_one_gate_listing_both_verdicts_leaves_the_others_read():
    text = ("Gate 1 (Circle of Competence): PROCEED.\nGate 2 (Economic Moat): PROCEED and REJECT.\n"
            "Gate 5 (Margin of Safety): REJECT.\n")
    parsed = parse_response(text, CARD, embedder=False)
    read = {g.gate: g.verdict for g in parsed.gates}
    assert (read.get(1), read.get(2), read.get(5)) == ("PROCEED", None, "REJECT")


@pytest.mark.parametrize("text, want", [
    ("Gates 1-4: PROCEED, REJECT at gate 5.\n", {1: "PROCEED", 2: "PROCEED", 3: "PROCEED", 4: "PROCEED", 5: "REJECT"}),
    ("Gate 1 (Circle of Competence): passes and clears.\nGate 5: REJECT\n", {1: "PROCEED", 5: "REJECT"}),
])
def test_words_of_one_verdict_and_a_bare_comma_pair_still_read(text, want):
    parsed = parse_response(text, CARD, embedder=False)
    assert {g.gate: g.verdict for g in parsed.gates} == want
