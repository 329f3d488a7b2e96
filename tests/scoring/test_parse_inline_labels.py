"""A gate's name or alias used as a label inside a paragraph (issue 13, detection round 2; s28).

Every text here was written for this file; the readings are labelled by hand. Regression kind: *mid-paragraph label
dropped*: "...; on the moat: weak" or "As for management - honest." named the gate with words the parser does not read as
a verdict, and a gate named with no verdict was taken as named in passing and dropped. A label that opens a clause (after
a sentence or clause break, optionally "on", "as for", "regarding") and is followed by a colon or a dash now detects its
gate; a name met in passing still does not.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._inline_labels import inline_label

BUFFETT = "buffett_acquisition_checklist"  # 1 circle of competence, 2 moat, 3 management, ...


def _gates(text: str) -> dict[int, str | None]:
    return {g.gate: g.verdict for g in parse_response(text, BUFFETT, embedder=False).gates}


@pytest.mark.parametrize(("text", "gate"), [
    ("We know this trade well and it sits in our circle of competence; on the moat: weak, rivals copy it at will. Decline.", 2),
    ("Our circle of competence covers it, no question; as for the moat - deep, a brand people ask for. Invest.", 2),
], ids=["semicolon-on", "semicolon-as-for-dash"])
def test_a_gate_labelled_mid_paragraph_is_detected(text: str, gate: int) -> None:
    assert gate in _gates(text)


def test_a_gate_named_in_passing_is_still_dropped() -> None:
    text = "Unlike the moat, which others stress, we look at the circle of competence first and it passes. Invest."
    assert 2 not in _gates(text)


@pytest.mark.parametrize(("text", "word", "expected"), [
    ("Sales grow; on leverage: fine.", "leverage", True),
    ("As to valuation \u2014 rich.", "valuation", True),
    ("Regarding the moat - wide.", "moat", True),
    ("We like the moat: it is wide.", "moat", False),
    ("Unlike leverage, it is fine.", "leverage", False),
    ("On leverage we say nothing.", "leverage", False),
])
def test_inline_label_reads_a_label_opening_a_clause(text: str, word: str, expected: bool) -> None:
    start = text.index(word)
    assert inline_label(text, start, start + len(word)) is expected
