"""Regression (a verdict word inside a hyphenated compound read as the writer's verdict; s39break, issue 13, §7.5).

"Economic Moat: fail-safe brand" read REJECT at 0.95 (and implied DECLINE); "a pass-through entity with no pricing
power" read PROCEED at 0.95. A verdict word joined by a hyphen to a lower-case word is part of a compound word, not a
verdict. Answers written for this test; expected values worked by hand.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

CARD = "buffett_acquisition_checklist"  # gates 1 Circle of Competence, 2 Economic Moat, 3 Management Integrity, ...


def _moat(section: str) -> tuple[str | None, float]:
    text = f"Circle of Competence: PROCEED.\n\nEconomic Moat: {section}\n\nManagement Integrity: PROCEED.\n"
    result = parse_response(text, CARD, embedder=False)
    moat = [g for g in result.gates if g.gate == 2]
    assert len(moat) == 1
    return moat[0].verdict, moat[0].confidence


@pytest.mark.parametrize("section", ["a fail-safe brand.", "a pass-through entity with no pricing power."],
                         ids=["fail-safe", "pass-through"])
def test_a_compound_word_is_no_verdict(section: str) -> None:
    verdict, confidence = _moat(section)
    assert verdict is None
    assert confidence < 0.7


@pytest.mark.parametrize(("section", "want"), [
    ("a must-pass test, and it fails: no pricing power.", "REJECT"),
    ("PROCEED - the brand holds its price.", "PROCEED"),
    ("REJECT: the fail-safe brand story is over, private label takes share.", "REJECT"),
], ids=["compound-then-verdict", "spaced-dash", "verdict-then-compound"])
def test_the_verdict_beside_a_compound_is_still_read(section: str, want: str) -> None:
    assert _moat(section)[0] == want
