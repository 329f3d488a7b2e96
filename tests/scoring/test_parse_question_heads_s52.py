"""A gate introduced by a question and answered yes, no or unclear; OK / NOT OK as gate marks (s52parse, issue 13
"labels with answers"; paper §7.5).

A question heading names the gate; the answer after it is the verdict: yes PROCEED, no REJECT, unclear INCONCLUSIVE,
turned over when the question asks about a fault ("Is leverage excessive? No." clears a balance-sheet gate). New in this
stop: the answer of a Q/A layout ("Q: ...?" / "A: Yes."), "probably not" as a hedged no, and OK marks in table cells
("| OK |", "| NOT OK |", "| OK? |") and as a label's value with its detail ("Debt -- OK, 0.4x equity"). An OK inside a
sentence ("the CEO said it was OK to wait") marks nothing.

Every text here is written for this file; each expected reading is worked by hand in its comment.
"""

from __future__ import annotations

import pytest

from ipb.engine.registry import compiled_card
from ipb.scoring.parse import parse_response


def _gates(card_id: str, text: str) -> list[tuple[int, str | None]]:
    parsed = parse_response(text, compiled_card(card_id).card, embedder=False)
    return [(g.gate, g.verdict) for g in parsed.gates]


# graham_net_net_screen: gate 1 price at most two-thirds of NCAV, gate 2 current assets not dissipated by losses.
NET_NET = "graham_net_net_screen"
# lynch_six_category_framework: gate 3 is Balance Sheet Strength.
LYNCH = "lynch_six_category_framework"


@pytest.mark.parametrize("card, text, expected", [
    # yes to the gate's own test: PROCEED ($72M is under the $80M ceiling, as the answer says)
    (NET_NET, "3) Does it trade below two-thirds of NCAV?\nYes. Market value $72M against a ceiling of $80M.", [(1, "PROCEED")]),
    # no: REJECT; unclear: INCONCLUSIVE
    (NET_NET, "Does it trade below two-thirds of NCAV?\nNo \u2014 the market value is $95M against a ceiling of $80M.\n\n"
              "Are current assets being dissipated by losses?\nUnclear.", [(1, "REJECT"), (2, "INCONCLUSIVE")]),
    # a question about the fault answered no: the gate (assets NOT dissipated) holds, PROCEED
    (NET_NET, "Is the price below two-thirds of net current asset value? Yes.\nAre losses eating working capital? No.",
     [(1, "PROCEED"), (2, "PROCEED")]),
    # the fault question for the balance-sheet gate: leverage not excessive is a strong balance sheet
    (LYNCH, "Is leverage excessive?\nNo. Debt is 20% of capital.", [(3, "PROCEED")]),
    (LYNCH, "### Is the balance sheet strong?\nNo \u2014 debt is 80% of equity.", [(3, "REJECT")]),
    # the answer of a Q/A layout (was no verdict)
    (LYNCH, "Q: Is the balance sheet strong?\nA: Yes.", [(3, "PROCEED")]),
    (LYNCH, "Q: Is the balance sheet strong?\nA: No, debt is 4x equity.", [(3, "REJECT")]),
    # "probably not" is a hedged no (was no verdict); "probably" a hedged yes
    (LYNCH, "Is the balance sheet strong?\nProbably not.", [(3, "REJECT")]),
    (LYNCH, "Is the balance sheet strong?\nProbably.", [(3, "PROCEED")]),
    # a question that is no gate of the card adds none; the gate question after it is read
    (LYNCH, "What did management say on the call?\nThey expect growth of 11%.\n\nIs the balance sheet strong?\nYes.", [(3, "PROCEED")]),
])
def test_a_question_heading_and_its_answer(card, text, expected):
    assert _gates(card, text) == expected


@pytest.mark.parametrize("text, expected", [
    # OK / NOT OK alone in a table's mark column (were no verdict: the cell border did not close the word)
    ("| Test | Mark |\n|---|---|\n| Price at Most Two-Thirds of Net Current Asset Value | OK |\n"
     "| Current Assets Not Dissipated by Losses | NOT OK |", [(1, "PROCEED"), (2, "REJECT")]),
    ("| Test | Figure | Mark |\n|---|---|---|\n| Two-thirds rule | $72M vs $80M | Ok |\n| Operating losses check | -$9M | not ok |",
     [(1, "PROCEED"), (2, "REJECT")]),
    # a questioned OK: the writer is unsure, INCONCLUSIVE
    ("| Test | Mark |\n|---|---|\n| Two-thirds rule | OK? |\n| Operating losses check | not ok |", [(1, "INCONCLUSIVE"), (2, "REJECT")]),
    # in a list, as the label's value with its detail after a comma, dash or colon (the first was no verdict, the second PROCEED)
    ("- Two-thirds of NCAV \u2014 OK, $72M under $80M\n- Losses check \u2014 not OK: net loss of $9M", [(1, "PROCEED"), (2, "REJECT")]),
    ("- Two-thirds of NCAV: OK\n- Losses check: NOT OK", [(1, "PROCEED"), (2, "REJECT")]),
    # an OK inside a sentence marks no gate: the CEO's OK is not the losses gate's verdict
    ("Net-net test: passes. The CEO said it was OK to wait.", [(1, "PROCEED")]),
])
def test_ok_and_not_ok_as_gate_marks(text, expected):
    assert _gates(NET_NET, text) == expected
