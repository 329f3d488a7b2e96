"""Final verdicts stated in free text: an act done to the position, a decision a body reports, and a verdict taken back
at once (s52parse, issue 13 "final verdicts in the wild"; paper §7.5).

Three faults seen on wild analyses, each stated as a rule a careful reader would give:

* "We have added to the position this quarter" puts money into the holding: the pass outcome of a card that decides
  whether to invest (was no final; "added to" was a portfolio act, but "position" and "stake" were no portfolio nouns).
  A post or another thing's position ("the position of chief risk officer") is no holding.
* "The board resolved to exclude the company" is the board's decision as "decided to exclude" already was; "resolved",
  "voted", "elected" and "opted" to are a body's formal words for it, also as the second predicate of the body ("the
  board concurred with the council and resolved to exclude").
* "Final: INVEST (not really)" takes the INVEST back as "(not)" already did: no committed verdict, never the other
  outcome (the writer says what the answer is not, not what it is).

Every text here is written for this file; each expected reading is worked by hand in its comment.
"""

from __future__ import annotations

import pytest

from ipb.engine.registry import compiled_card
from ipb.scoring.parse import parse_response


def _final(card_id: str, text: str) -> str | None:
    return parse_response(text, compiled_card(card_id).card, embedder=False).final_verdict


# marks_risk_return_assessment: outcomes INVEST (pass) / DECLINE (fail).
@pytest.mark.parametrize("text, expected", [
    # money put into the holding: the pass side
    ("We have added to the position this quarter and intend to keep adding below $32.", "INVEST"),
    ("We added to our stake.", "INVEST"),
    # the same act negated: the fail side ("not" before the act, turned by the final reader's negation)
    ("We have not added to the position.", "DECLINE"),
    # a condition states no decision
    ("If it drops to $20 we will add to the position.", None),
    # a post, not the holding: no act on the position
    ("Management added to the position of chief risk officer.", None),
])
def test_an_act_done_to_the_position_is_the_final(text, expected):
    assert _final("marks_risk_return_assessment", text) == expected


# nbim_gpfg_exclusion_screen: outcomes HOLD (pass) / DIVEST (fail); excluding the company is the fail side.
@pytest.mark.parametrize("text, expected", [
    ("The board resolved to exclude the company.", "DIVEST"),
    ("The bank's board concurred with the council and resolved to exclude the company.", "DIVEST"),
    ("The board met twice and then voted to exclude the company.", "DIVEST"),
    # "not" turns the decision over: keeping the company in the fund
    ("The board voted not to exclude the company.", "HOLD"),
    # no deciding body: a method step, not a decision on the company
    ("Analysts resolved to exclude the outliers from the sample.", None),
])
def test_a_decision_a_body_reports_is_the_final(text, expected):
    assert _final("nbim_gpfg_exclusion_screen", text) == expected


# lynch_six_category_framework: outcomes INVEST / DECLINE.
@pytest.mark.parametrize("text, expected", [
    ("Final: INVEST (not)", None),  # (read so before this stop; kept beside the new forms)
    ("Final: INVEST (not really)", None),  # was INVEST
    ("Final: INVEST (Not really.)", None),  # was INVEST
    ("Final: DECLINE (jk)", None),  # was DECLINE
    ("Final: INVEST /s", None),  # the sarcasm tag; was INVEST
    ("Final verdict: INVEST \u2014 not", None),
    # qualifiers, not withdrawals: the verdict stands
    ("Final: INVEST (not financial advice)", "INVEST"),
    ("Final: DECLINE (not at this price)", "DECLINE"),
])
def test_a_verdict_taken_back_in_brackets_commits_to_nothing(text, expected):
    assert _final("lynch_six_category_framework", text) == expected
