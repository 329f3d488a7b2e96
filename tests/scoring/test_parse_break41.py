"""Regressions of stop 41's adversarial review (break41; issue 13; paper §7.5): a verdict that is not the writer's read
at or above the 0.7 review bar, or the writer's own clear verdict pushed under it.

- **An act another wants done** (``._voice.urged_by_other``): "Bottom line: strategists urge clients to cut risk." read
  BUBBLE_REDUCE_RISK at 0.81, and s41finals' holding acts ("cut their equity exposure") carried the same misreading to
  a holding's weight; the writer's own urging ("we urge clients to ...") stays the writer's recommendation.

Answers written for these tests (no corpus text); each expected verdict worked by hand against the card named beside it.
"""

from __future__ import annotations

import pytest

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._voice import urged_by_other

BUBBLE = "dalio_bubble_detection_gauge"  # outcomes NO_BUBBLE (pass) and BUBBLE_REDUCE_RISK (fail)

#: The review bar: a reading at or above it is taken without review.
REVIEW_BAR = 0.7

#: Two gates of the bubble card read PROCEED (no warning sign), so the answer's final rests on its closing sentence.
BUBBLE_BODY = ("Prices High Relative to Traditional Measures: PROCEED, the P/E is near its 30-year median.\n"
               "New Buyers Entering the Market: PROCEED, account openings are flat.\n\n")


def _final(closing: str) -> tuple[str | None, float]:
    parsed = parse_response(BUBBLE_BODY + closing + "\n", BUBBLE, embedder=False)
    assert parsed.status == "ok", parsed.reason
    return parsed.final_verdict, parsed.final_confidence


@pytest.mark.parametrize("closing", [
    "Bottom line: strategists urge clients to cut risk.",  # read BUBBLE_REDUCE_RISK at 0.81 before (no voice check)
    "Bottom line: critics want us to cut risk. We won't.",  # 0.81, the writer refusing in the next sentence
    "Bottom line: strategists urge clients to cut their equity exposure.",  # s41finals' holding act, 0.65
    "Bottom line: critics want us to trim our tech weighting. We won't.",  # 0.65
])
def test_an_act_another_urges_is_not_the_writers_decision(closing: str) -> None:
    verdict, confidence = _final(closing)
    assert verdict != "BUBBLE_REDUCE_RISK" or confidence < REVIEW_BAR, (verdict, confidence)
    assert verdict is None  # nothing else in these answers states a final


@pytest.mark.parametrize("closing", [
    "Bottom line: we are cutting our equity exposure.",  # the writer's own act, unchanged (0.81)
    "Bottom line: we urge clients to cut risk.",  # the writer's recommendation to another is the writer's verdict
    "Bottom line: it is time to cut risk.",
])
def test_the_writers_own_act_or_urging_still_counts(closing: str) -> None:
    assert _final(closing)[0] == "BUBBLE_REDUCE_RISK"


@pytest.mark.parametrize(("clause", "other"), [
    ("Bottom line: strategists urge clients to ", True),
    ("My broker told me to quickly ", True),  # an adverb between "to" and the act
    ("Staff recommends that the Board approve ", False),  # a memo's own recommendation (corpus n28, tuned)
    ("Staff urges the Board to ", False),
    ("Management expects to ", True),
    ("we urge clients to ", False),
    ("So we would like to ", False),
    ("You might want to ", False),  # the reader the writer addresses: the writer's advice
    ("Urge clients to ", False),  # no subject: the writer's imperative
    ("we decided to ", False),  # no verb of urging or wanting
])
def test_urged_by_other_reads_the_subject_of_the_urging(clause: str, other: bool) -> None:
    assert urged_by_other(clause) is other

