"""Regression (a serial comma cut a list of gate numbers short): "Gates 2, 3, and 6" names three gates.

Found by the s32break review: "Gates 2, 3, and 6 all clear." read gate 2 only, because ", and" (two separators) ended
the list that "2, 3 and 6" and "2, 3, 6" continued.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

CARD = "buffett_acquisition_checklist"


@pytest.mark.parametrize("sentence, want", [
    ("Gates 2, 3, and 6 all clear.", {2: "PROCEED", 3: "PROCEED", 6: "PROCEED"}),
    ("Gates 2, 3, & 6 all clear.", {2: "PROCEED", 3: "PROCEED", 6: "PROCEED"}),
    ("Gates 1-3, and 5 fail.", {1: "REJECT", 2: "REJECT", 3: "REJECT", 5: "REJECT"}),
    ("Gates 2, 3 and 6 all clear.", {2: "PROCEED", 3: "PROCEED", 6: "PROCEED"}),
])
def test_a_serial_comma_keeps_the_list_of_gate_numbers(sentence, want):
    parsed = parse_response(sentence + "\n", CARD, embedder=False)
    assert {g.gate: g.verdict for g in parsed.gates} == want
