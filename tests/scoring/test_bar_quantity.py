"""A figure is judged against a gate's test only when it is the quantity the test reads (s38user repro 1; paper §7.5).

Card ``klarman_downside_first_process``: gate 3 (Position Sizing and Portfolio Risk) tests the computed value
``portfolio_loss = position_weight * downside_loss`` against a 2% budget. The position weight ("6% of the portfolio")
and the bad-case loss ("a 30% loss") are other figures of the same scenario sharing a word with "portfolio loss": a
clause naming only a shared word does not name the test's quantity. Answers written for this test (no corpus text);
each expected reading worked by hand.
"""

from __future__ import annotations

import pytest

from ipb.scoring import verdict_words as vw
from parse_support import gate_verdicts

CARD = "klarman_downside_first_process"


@pytest.mark.parametrize("line", [
    "Position Sizing and Portfolio Risk: the plan puts 6% of the portfolio into it.",   # the weight, not the loss
    "Position Sizing and Portfolio Risk: the bad-case loss on the stake is 30%.",        # the stock's loss, not the portfolio's
])
def test_another_figure_of_the_scenario_is_no_measured_value(line):
    assert gate_verdicts(line + "\n", CARD).get(3) is None


@pytest.mark.parametrize(("line", "expected"), [
    ("Position Sizing and Portfolio Risk: the portfolio loss in the bad case is 1.5%.", vw.PROCEED),
    ("Position Sizing and Portfolio Risk: a bad case costs the portfolio a loss of 3.5%.", vw.REJECT),
])
def test_the_quantity_the_test_reads_still_decides(line, expected):
    assert gate_verdicts(line + "\n", CARD)[3] == expected


def test_an_answer_stating_no_verdict_is_no_commitment():
    from ipb.respond.synthetic import bundled_items
    from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
    from ipb.scoring.run import ScoreOptions, score_responses

    item = bundled_items([CARD])[0]
    text = ("Downside Assessment: the bad case leaves $30M of value for a $50M price; worth a careful look.\n"
            "Margin of Safety: a conservative value of $90M is well above the price.\n"
            "Position Sizing and Portfolio Risk: 4% of the portfolio is the size we commit.\n")
    [r] = score_responses([item], [{"item_id": item["id"], "condition": "A", "model": "m", "response": text}],
                          ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50))
    assert (r["status"], r["outcome"], r["reason_code"]) == ("unscored", "refusal", "no_commitment")
