"""Regression (a verdict followed by an aside about another case was lost): the aside's condition is not the verdict's.

Found by the s32break review: "Gate 5: REJECT (if the price were below $15B it would PROCEED)." read gate 5 as no
verdict at all, because a conditional word after a verdict ("REJECT when price > value") makes it a rule, not a
statement. Set apart by a bracket, a semicolon, a colon or a dash, the condition belongs to the aside; directly after
the word (or after a bare comma) it is still the verdict's own condition.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

CARD = "buffett_acquisition_checklist"


@pytest.mark.parametrize("line, want", [
    ("Gate 5: REJECT (if the price were below $15B it would PROCEED).", "REJECT"),
    ("Gate 5: REJECT (unless the price falls below $15B).", "REJECT"),
    ("Gate 5: REJECT; if the price were below $15B it would PROCEED.", "REJECT"),
    ("Gate 5: REJECT - if the price were below $15B it would PROCEED.", "REJECT"),
    ("Gate 5: REJECT \u2014 once the price halves it would pass.", "REJECT"),
    ("Gate 5: REJECT if the price is above $15B.", None),
    ("Gate 5: REJECT when the price exceeds the value.", None),
])
def test_a_condition_set_apart_from_the_verdict_leaves_it_stated(line, want):
    parsed = parse_response(f"Gate 1: PROCEED.\n{line}\n", CARD, embedder=False)
    read = {g.gate: g.verdict for g in parsed.gates}
    assert (read.get(1), read.get(5)) == ("PROCEED", want)
