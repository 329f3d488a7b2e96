"""A gate's facts stated as a figure against the gate's own bar from the card (issue 13, gates discussed in prose;
scoring/parse/_thresholds.py).

Each text is written for this test and labelled by hand with the card's criterion in mind: Munger's return on capital
must be at least the card's 15% floor; Marks' risk premium is ample at 5% or more and thin under 2% (between the two,
the card's test gives neither verdict); Graham's net-net screen rejects a company with a net loss (net_income < 0).
"""

from __future__ import annotations

import pytest
from ipb.scoring.parse import parse_response

from tests.scoring.parse_support import read_gates

MUNGER = "munger_business_quality_price"  # 2 return on capital >= return_on_capital_floor (15%)
MARKS = "marks_risk_return_assessment"  # 2 premium >= 5% PROCEED, premium < 2% REJECT
NETNET = "graham_net_net_screen"  # 2 reject: net_income < 0

READ = [
    pytest.param(MUNGER, "A maker of kitchen scales.\n\nReturns on capital have run at 9% for a decade, through good years "
                 "and bad.\n\nDECLINE.", [(2, "REJECT")], id="below-the-floor-fails"),
    pytest.param(MUNGER, "A maker of kitchen scales.\n\nReturns on capital have run at 24% for a decade.\n\nINVEST.",
                 [(2, "PROCEED")], id="above-the-floor-passes"),
    pytest.param(MARKS, "A BB-rated loan.\n\nThe risk premium over Treasuries is 6.5% today.\n\nINVEST.", [(2, "PROCEED")],
                 id="ample-premium-passes"),
    pytest.param(NETNET, "A shell company with cash.\n\nIt earned net income of $2.1M last year.\n\nINVEST.", [(2, "PROCEED")],
                 id="a-reject-test-not-met-passes"),
]


@pytest.mark.parametrize(("card", "text", "expected"), READ)
def test_a_figure_against_the_gates_own_bar_is_its_verdict(card: str, text: str, expected: list[tuple[int, str]]) -> None:
    assert read_gates(text, card) == expected


LEFT_ALONE = [
    pytest.param(MUNGER, "A maker of kitchen scales.\n\nReturns on capital would reach 24% if the new plant works.\n\nDECLINE.",
                 [(2, None)], id="a-condition-states-no-fact"),
    pytest.param(MUNGER, "A maker of kitchen scales.\n\nReturns on capital were 9% in 2019 and 24% last year.\n\nDECLINE.",
                 [(2, None)], id="two-figures-of-one-kind-say-nothing"),
    pytest.param(MARKS, "A BB-rated loan.\n\nThe risk premium over Treasuries is 3.5% today.\n\nNo verdict yet.", [(2, None)],
                 id="between-two-bars-is-no-reading"),
]


@pytest.mark.parametrize(("card", "text", "expected"), LEFT_ALONE)
def test_a_figure_that_does_not_settle_the_bar_gives_no_verdict(card: str, text: str, expected: list[tuple[int, str | None]]) -> None:
    result = parse_response(text, card, embedder=False)
    assert [(g.gate, g.verdict) for g in result.gates] == expected


def test_a_figure_of_another_quantity_is_not_the_bars() -> None:
    # EPS is money like net income, but the clause does not name net income: no reading of gate 2
    result = parse_response("A shell company with cash.\n\nEPS was $1.10 last year.\n\nINVEST.", NETNET, embedder=False)
    assert all(g.gate != 2 or g.verdict is None for g in result.gates)


def test_a_threshold_reading_is_hedged_and_says_how() -> None:
    result = parse_response("A maker of kitchen scales.\n\nReturns on capital have run at 9% for a decade.\n\nDECLINE.", MUNGER,
                            embedder=False)
    (trace,) = result.gates
    assert trace.how.endswith("+threshold") and trace.verdict_span is None
    assert any("'9%'" in n and "return_on_capital >= 0.15" in n for n in result.notes)
