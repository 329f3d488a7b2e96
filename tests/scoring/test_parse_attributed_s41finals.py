"""Whose verdict: the stop-40 breaker's leftovers (s41finals, /work/notes/break40.md items 6-9).

Each case is my own input in the shape of the breaker's, on the buffett_acquisition_checklist moat section; the
expected verdict and whether it clears the 0.7 review bar are worked by hand (who speaks in the clause):

* the writer's own team weakened by :data:`ipb.scoring.parse._voice.OTHER_VOICE` ("Our team argues it passes." read
  0.45): the pattern's bare verbs ("argues", "says") matched whatever subject stood before them;
* another speaker named with "per" or a bare colon read as the writer's ("Per the bears, it fails." and "Critics: it
  fails." read 0.95), while "earnings per share" and "Result:" stay the writer's;
* the first of a first/finally sequence won ("first FAIL, finally PASS." read REJECT 0.76);
* a reported clause ran on past "and" + a new subject ("Management expects 10% growth and it passes." read 0.45).
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._attributed import attributed

CARD = "buffett_acquisition_checklist"
#: The review bar of ``ipb score --min-confidence`` (docs/scoring.md).
BAR = 0.7


def _moat(section: str) -> tuple[str | None, float]:
    text = f"Circle of Competence: PROCEED.\n\nEconomic Moat: {section}\n\nManagement Integrity: PROCEED.\n"
    moat = next(g for g in parse_response(text, CARD, embedder=False).gates if g.name == "Economic Moat")
    return moat.verdict, moat.confidence


@pytest.mark.parametrize("section,verdict,sure", [
    # item 6: the writer's own team, and others' voices that stay weak
    ("Our team argues it passes.", "PROCEED", True),
    ("My analysts say it fails.", "REJECT", True),
    ("Some analysts argue it passes.", "PROCEED", False),
    ("A strict reader would REJECT.", "REJECT", False),
    ("He says it passes.", "PROCEED", False),
    # item 8: "per" and a bare colon name another speaker
    ("Per the bears, it fails.", "REJECT", False),
    ("per management, it passes.", "PROCEED", False),
    ("Critics: it fails.", "REJECT", False),
    ("The bears: it fails.", "REJECT", False),
    ("Result: it fails.", "REJECT", True),
    ("Earnings per share rose 10%, so it fails.", "REJECT", True),
    ("Per our model, it passes.", "PROCEED", True),
    ("Per the filing, it passes.", "PROCEED", True),
    ("Per Graham, it passes.", "PROCEED", True),  # the framework's investor, by name: the writer applying the rule
    # item 9: the last of a first/finally sequence wins
    ("first FAIL, finally PASS.", "PROCEED", True),
    ("first PASS, finally FAIL.", "REJECT", True),
    ("First, the moat test fails.", "REJECT", True),  # 'first' alone is an enumeration
    # item 7: a reported clause ends at "and" + a new subject
    ("Management expects 10% growth and it passes.", "PROCEED", True),
    ("Critics say the moat is thin and fails.", "REJECT", False),  # no new subject: still theirs
    ("Critics say that it is dear and that it fails.", "REJECT", False),  # a second complement: still theirs
])
def test_whose_verdict_leftovers(section: str, verdict: str, sure: bool) -> None:
    got, confidence = _moat(section)
    assert got == verdict
    assert (confidence >= BAR) is sure, confidence


@pytest.mark.parametrize("text,word,kind", [
    ("Per the bears, it fails.", "fails", "speaker"),
    ("Critics: it fails.", "fails", "speaker"),
    ("Result: it fails.", "fails", None),
    ("Management expects 10% growth and it passes.", "passes", None),
    ("first FAIL, finally PASS.", "FAIL", "time"),
    ("first FAIL, finally PASS.", "PASS", None),
])
def test_attributed_kind(text: str, word: str, kind: str | None) -> None:
    start = text.index(word)
    assert attributed(text, 0, start, start + len(word)) == kind
