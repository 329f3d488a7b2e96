"""English final verdicts in the writer's own wording, stop 37 (issue 13; paper §7.5; :mod:`ipb.scoring.parse._acted`).

Three general readings of wild closings, on short answers written for these tests:

* the book's risk cut or raised in the writer's words ("taking risk off", "cutting risk") is the card's outcome that
  names that move (BUBBLE_REDUCE_RISK here);
* a position opened ("a starter position this week") on a card whose pass outcome is to enter one;
* a single-word act closing a sentence whose subject is the writer ("I'd halve the first tranche and buy.");
* the closing paragraph is the last one before a postscript, a sign-off or a disclaimer, so an act there still closes
  the answer.

Each has its near miss: a condition, a past act, a relative clause, an act on a card without that outcome, a last
paragraph that is no trailer.
"""

from __future__ import annotations

import pytest

from parse_support import BUBBLE, BUBBLE_BODY, final_of
from ipb.scoring.parse._acted import closing_paragraph_start, risk_outcome

GRAHAM = "graham_seven_tests_defensive"
GRAHAM_MET = (
    "Adequate Size of the Enterprise: PROCEED, revenue is about $9bn.\n"
    "Sufficiently Strong Financial Condition: PROCEED, current ratio 2.3.\n"
    "Earnings Stability: PROCEED, no loss year in the decade.\n\n"
)
LYNCH = "lynch_portfolio_story_review"
LYNCH_BODY = (
    "We reviewed Pellworth Stores, held since 2019.\n"
    "Story Broken or Fundamentals Deteriorated: PROCEED, the roll-out is on plan.\n"
    "P/E Far Above the Growth Rate: PROCEED, 18 times for 17% growth.\n\n"
)

CASES = [
    # risk acts -> the card's risk outcome
    ("risk-off", BUBBLE_BODY, "Four gauges read hot, so I am treating this as a bubble and taking risk off.", BUBBLE, "BUBBLE_REDUCE_RISK"),
    ("risk-cut", BUBBLE_BODY, "Four gauges read hot. So, reluctantly: we are cutting our risk.", BUBBLE, "BUBBLE_REDUCE_RISK"),
    ("risk-past", BUBBLE_BODY, "Four gauges read hot, so we trimmed our risk by a third.", BUBBLE, None),
    ("risk-condition", BUBBLE_BODY, "Four gauges read hot. If spreads widen we would cut risk.", BUBBLE, None),
    # a bare act closing the writer's sentence
    ("bare-buy", GRAHAM_MET, "The price is a little rich, so I'd halve the first tranche and buy.", GRAHAM, "INVEST"),
    ("bare-sell", GRAHAM_MET, "The price is rich; I'd sell.", GRAHAM, "DECLINE"),
    ("bare-hold-no-outcome", GRAHAM_MET, "Everything checks out. We hold.", GRAHAM, None),
    # a position opened, on a card whose pass outcome is to enter
    ("starter-position", GRAHAM_MET, "The price is fair.\n\nNext step: a starter position this week.", GRAHAM, "INVEST"),
    ("open-position", GRAHAM_MET, "The price is fair, so we are opening a 2% position.", GRAHAM, "INVEST"),
    ("position-closed", GRAHAM_MET, "The thesis broke.\n\nMy move: close the starter position this week.", GRAHAM, None),
    ("position-condition", GRAHAM_MET, "The price is rich. If it drops to $20 we would open a small position.", GRAHAM, None),
    ("position-not-entering", LYNCH_BODY, "Nothing has broken; we keep building a position in the index fund.", LYNCH, None),
    # the closing paragraph before trailers
    ("closing-before-ps", LYNCH_BODY, "The story is intact and the price is fair, so we keep Pellworth.\n\nThanks for reading!\n\n"
     "PS: charts next week.", LYNCH, "HOLD"),
    ("last-paragraph-no-trailer", LYNCH_BODY, "The story is intact and the price is fair, so we keep Pellworth.\n\nThanks for reading!\n\n"
     "Next week: a look at two regional banks and why their deposits moved.", LYNCH, None),
]


@pytest.mark.parametrize(("body", "closing", "card", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_writer_acts(body: str, closing: str, card: str, want: str | None) -> None:
    assert final_of(body, closing, card) == want


def test_risk_outcome_names_the_move() -> None:
    assert risk_outcome({"NO_BUBBLE", "BUBBLE_REDUCE_RISK"}, True) == "BUBBLE_REDUCE_RISK"
    assert risk_outcome({"NO_BUBBLE", "BUBBLE_REDUCE_RISK"}, False) is None
    assert risk_outcome({"REDUCE_RISK", "INCREASE_RISK"}, False) == "INCREASE_RISK"
    assert risk_outcome({"RE_RISK_GRADUALLY", "STAY_DEFENSIVE"}, False) == "RE_RISK_GRADUALLY"
    assert risk_outcome({"INVEST", "DECLINE"}, True) is None


def test_closing_paragraph_skips_trailers() -> None:
    text = "Body.\n\nSo we buy it.\n\nCheers,\nAnn\n\nDisclaimer: not advice, the author owns shares."
    assert text[closing_paragraph_start(text):].startswith("So we buy it.")
    text = "Body.\n\nSo we buy it.\n\nNext week we look at two regional banks and their deposits."
    assert text[closing_paragraph_start(text):].startswith("Next week")
    assert closing_paragraph_start("One paragraph.") == 0
