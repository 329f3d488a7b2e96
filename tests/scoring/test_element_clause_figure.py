"""An element's figure is the one in the clause that names the element (s38user repro 4; paper §7.7 KCCS).

Card ``klarman_downside_first_process``, gate 3's element "portfolio loss in the bad case {portfolio_loss}". A sentence
that works the figure out ("a weight of 12% times the 20% bad-case loss gives a portfolio loss in the bad case of
2.4%") states the bad-case loss (20%) right before the words "bad-case": those words belong to another figure's
clause, and the element's own words come later with their own figure. Answers written for this test (no corpus
text); each expected element worked by hand (12% x 20% = 2.4%).
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

CARD = "klarman_downside_first_process"


def _elements(text: str) -> list[str]:
    result = parse_response(text + "\nFinal verdict: DECLINE\n", CARD, embedder=False)
    return [e for g in result.gates if g.gate == 3 for e in g.elements]


@pytest.mark.parametrize("text", [
    "Position Sizing and Portfolio Risk: REJECT. A weight of 12% times the 20% bad-case loss gives a portfolio loss in "
    "the bad case of 2.4%, above the 2% budget.",
    "Position Sizing and Portfolio Risk: REJECT. The portfolio loss in the bad case is 2.4% (a 12% weight times a 20% "
    "bad-case loss), above the 2% budget.",
    "Position Sizing and Portfolio Risk: REJECT. With 20% lost in the bad case, a 12% weight means a portfolio loss in "
    "the bad case of 2.4%.",
])
def test_the_element_takes_the_figure_of_its_own_clause(text):
    got = _elements(text)
    assert "portfolio loss in the bad case 2.4%" in got, got
    assert "portfolio loss in the bad case 20%" not in got


def test_a_figure_stated_right_before_the_element_words_is_still_read():
    # the figure before the element's own words, with nothing between: "2.4% portfolio loss in the bad case"
    got = _elements("Position Sizing and Portfolio Risk: REJECT. We would take a 2.4% portfolio loss in the bad case, "
                    "above the 2% budget.")
    assert "portfolio loss in the bad case 2.4%" in got, got
