"""Which figure states an element: the writer's own figure, not the bar beside it (stop 32, a new user's answers).

Regression (element read from the bar): on a new user's card, "25 years of operating history (>= 5)" was read as
``operating history of 5 years`` (the card's bar, the nearest figure after the words), "12 years of operating history
clears the 5-year bar" as 5 years, "55% drawdown >= 40%" as 40%, and "$600M market value vs $1.2B intrinsic value" as
``market value $1.2B``, so KCCS marked right answers as citing wrong figures. A figure right before the element's
words states it; a figure after a comparison sign or beside a bar's noun is a bar, not the fact (unless the element
is itself a bar: "buy limit {limit}"). Answers written for this test; expected readings worked by hand. The labelled
corpus reads the same before and after (bench/parse_accuracy.py, embedder off: no case changes).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ipb.engine.card import load_card
from ipb.scoring.parse import parse_response

CARD = Path(__file__).parent / "cards" / "pass_outcome_checklist.yaml"


def _elements(text: str) -> dict[int, list[str]]:
    result = parse_response(text, load_card(CARD), embedder=False)
    assert result.status == "ok", result.reason
    return {g.gate: list(g.elements) for g in result.gates}


@pytest.mark.parametrize("line, expected", [
    ("| 1 | Existing Business | PROCEED | 25 years of operating history (\u2265 5) |", "operating history of 25 years"),
    ("1. Existing Business: 12 years of operating history clears the 5-year bar. PROCEED", "operating history of 12 years"),
    ("1. Existing Business: an operating history of 31 years, against a minimum of 5. PROCEED", "operating history of 31 years"),
], ids=["sign-before-bar", "bar-noun-after", "minimum-of"])
def test_the_fact_not_the_bar_states_the_years(line, expected):
    assert _elements(line + "\n\nFinal verdict: INVEST\n")[1] == [expected]


def test_a_figure_written_before_the_words_states_them():
    got = _elements("2. Margin of Safety: $600M market value vs $1.2B intrinsic value, 50 cents on the dollar. PROCEED\n\n"
                    "Final verdict: INVEST\n")
    assert got[2] == ["market value $600M"]


def test_a_bar_element_still_reads_its_bar():
    result = parse_response("Gate 3: buy limit. Market value $5.9B against a buy limit of $4.1B. REJECT.",
                            "buffett_owner_earnings_dcf", embedder=False)
    assert {g.gate: list(g.elements) for g in result.gates}[3] == ["market value $5.9B", "buy limit $4.1B (75% of intrinsic value)"]
