"""A move on a holding's share of the book is the card's risk outcome (s41finals; issue 13 wild finals, class F2/F4 of
/work/notes/wild40.md; :mod:`ipb.scoring.parse._writer_acts`).

Wild closings state a cut or a rise of risk as a move on a holding's weight, exposure or allocation ("has cut its
small-cap weight in half", "we are raising our equity allocation to 70%"), not on "risk". On a card with an outcome
that names the move (BUBBLE_REDUCE_RISK; REDUCE_RISK / INCREASE_RISK) that outcome is the final, read as the existing
risk acts are (the closing paragraph only; a condition, a past act or a negation as before). Near misses: the idiom
"adds weight to the case" (no possessive, no holding), "give less weight to" (no act verb), a past act, a card with no
such outcome. Every case is a short answer written for this test.
"""

from __future__ import annotations

import pytest

from parse_support import BUBBLE, BUBBLE_BODY, final_of

CYCLE = "marks_market_cycle_positioning"
CYCLE_BODY = "High-yield spreads are at 9%, investors are fearful and refinancing has dried up: the market is cold.\n\n"
GRAHAM = "graham_seven_tests_defensive"
GRAHAM_BODY = "Adequate Size: PROCEED.\nStrong Financial Condition: PROCEED.\n\n"

CASES = [
    ("weight-halved", BUBBLE_BODY, "Four gauges read hot, so we have cut our small-cap weight in half.", BUBBLE, "BUBBLE_REDUCE_RISK"),
    ("fund-cut-weight", BUBBLE_BODY, "The fund has cut its equity weight and moved the money to banks.", BUBBLE, "BUBBLE_REDUCE_RISK"),
    ("exposure-reducing", BUBBLE_BODY, "We are reducing our equity exposure to 40% this week.", BUBBLE, "BUBBLE_REDUCE_RISK"),
    ("allocation-raised", CYCLE_BODY, "So we are raising our equity allocation from 45% to 70%.", CYCLE, "INCREASE_RISK"),
    ("allocation-trim", CYCLE_BODY, "I'm trimming my stock allocation to 40%.", CYCLE, "REDUCE_RISK"),
    # near misses
    ("idiom-adds-weight", BUBBLE_BODY, "This adds weight to the case for caution.", BUBBLE, None),
    ("no-act-verb", BUBBLE_BODY, "We give less weight to the survey.", BUBBLE, None),
    ("past-trim", BUBBLE_BODY, "Back in 2008 we trimmed our equity exposure.", BUBBLE, None),
    ("condition", BUBBLE_BODY, "If spreads widen we would cut our equity weight.", BUBBLE, None),
    ("no-risk-outcome", GRAHAM_BODY, "We are cutting our equity weight this month.", GRAHAM, None),
]


@pytest.mark.parametrize(("body", "closing", "card", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_holding_acts(body: str, closing: str, card: str, want: str | None) -> None:
    assert final_of(body, closing, card) == want


MUNGER = "munger_opportunity_evaluation"
MUNGER_BODY = "Economics: return on capital 19%, confirms.\n\n"


@pytest.mark.parametrize(("closing", "want"), [
    ("Decision for the course portfolio: pass at this price.", "DECLINE"),
    ("The price is too high. Decision for the course portfolio: pass at this price.", "DECLINE"),
    ("Recommendation to the fund: decline.", "DECLINE"),
    ("Decision for the course portfolio: decline.", "DECLINE"),
    ("Decision for the course portfolio: we will revisit next term.", None),  # no outcome after the label
    ("The case for the course portfolio: pass at this price.", None),  # 'case' is no decision cue
], ids=["label-pass-at-price", "mid-line-label", "advice-to-fund", "label-decline", "label-no-outcome", "no-cue"])
def test_decision_label_naming_whose_decision(closing: str, want: str | None) -> None:
    """A decision cue may name whose decision it is before its colon ("Decision for the course portfolio:", n38
    mental-models); the value is read as after "Decision:"."""
    assert final_of(MUNGER_BODY, closing, MUNGER) == want


@pytest.mark.parametrize(("closing", "want"), [
    ("4. Takeaway\nFour lenses look good. Decision for the course portfolio: pass at this price.", "DECLINE"),
    ("## Bottom line\nThe price is too high. Verdict: pass.", "DECLINE"),
    ("Takeaway\nFour lenses look good. Decision: pass.\n\nAppendix: the lens table is on the next page.", None),
], ids=["numbered-title", "markdown-title", "text-after"])
def test_decision_label_under_a_title_line(closing: str, want: str | None) -> None:
    """A short title line opening the closing paragraph ("4. Takeaway") stands where a blank line would: the decision
    label on the line under it is the answer's ('pass' a decline); with a paragraph after it, it is not the closing one."""
    assert final_of(MUNGER_BODY, closing, MUNGER) == want
