"""A neutral signal or stance in prose is an INCONCLUSIVE final verdict (regression: it gave no final verdict).

Investor-persona reports often close on a rating field instead of the card's
outcome words: "Signal: neutral", "Overall signal — neutral", "**Stance:**
Neutral." Such a line commits to neither outcome, so the final verdict is
INCONCLUSIVE (as a top-level ``"signal": "neutral"`` of a JSON answer is), and a
figure built on final verdicts counts it as stated, not as missing. Texts
written for this test; readings labelled by hand.
"""

from __future__ import annotations

import pytest
from ipb.scoring.parse import parse_response

BUFFETT = "buffett_acquisition_checklist"
GATES = "Circle of Competence: a business we understand, PROCEED.\nEconomic Moat: switching costs hold, PROCEED.\n\n"

CASES = [
    ("signal-line", "Signal: neutral", "INCONCLUSIVE"),
    ("overall-signal-dash", "Overall signal \u2014 neutral (confidence 40%).", "INCONCLUSIVE"),
    ("bold-stance", "**Stance:** Neutral.", "INCONCLUSIVE"),
    ("our-rating", "Our rating: neutral; we will revisit after the next filing.", "INCONCLUSIVE"),
    # not a neutral call on the investment
    ("neutral-on-one-thing", "Signal: neutral on the sector, but the price is too high. Final verdict: DECLINE", "DECLINE"),
    ("someone-elses", "The market's signal is neutral; we still buy. Final verdict: INVEST", "INVEST"),
    ("in-a-sentence", "The technical signal is neutral at the moment.", None),
    ("later-commitment", "Stance: neutral.\nHaving weighed it again, final verdict: INVEST", "INVEST"),
    ("bearish-is-unchanged", "Signal: bearish", "DECLINE"),
]


@pytest.mark.parametrize("tail,final", [(t, f) for _, t, f in CASES], ids=[i for i, _, _ in CASES])
def test_a_neutral_rating_line_is_an_inconclusive_final_verdict(tail: str, final: str | None) -> None:
    r = parse_response(GATES + tail, BUFFETT, embedder=False)
    assert [(g.gate, g.verdict) for g in r.gates] == [(1, "PROCEED"), (2, "PROCEED")]
    assert r.final_verdict == final
    if final == "INCONCLUSIVE":
        start, end = r.final_verdict_span
        assert (GATES + tail)[start:end].lower() == "neutral"
