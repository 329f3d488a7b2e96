"""A ratio term in a score model's weighted sum does not make the score a percentage (s44user).

A new evaluator's card computes Beneish's (1999) eight-index M-score,
``-4.84 + 0.920 DSRI + 0.528 GMI + 0.404 AQI + 0.892 SGI + 0.115 DEPI - 0.172 SGAI + 4.679 TATA - 0.327 LVGI``,
with TATA (total accruals over total assets) a ratio input and the seven indices plain numbers. The sum took the
ratio's unit, so an M of -0.97688 read ``-97.688%`` in ``ipb run``, the gold program's ``computed_value`` and the
element ``M-score {m_score}``: an answer writing "M-score -0.98" could not be credited the figure. A sum of a ratio
and a plain number that reads an input is now a plain number; a plain constant keeps the ratio (``1 - payout``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import ipb

CARD = Path(__file__).parents[1] / "fixtures" / "new_user44" / "beneish_m_score_flags.yaml"
INDICES = {"dsri": 1.5, "gmi": 1.1, "aqi": 1.2, "sgi": 1.6, "depi": 1.0, "sgai": 1.0, "lvgi": 1.0}


@pytest.mark.parametrize("tata, m_text, verdict", [
    # -4.84 + 1.38 + 0.5808 + 0.4848 + 1.4272 + 0.115 - 0.172 + 4.679 x 0.08 - 0.327 = -0.97688 > -1.78: REJECT
    ("8%", "-0.9769", "REJECT"),
    # the same with TATA -20%: -1.35120 - 0.9358 = -2.28700 <= -1.78: PROCEED
    ("-20%", "-2.287", "PROCEED"),
])
def test_the_m_score_is_a_plain_number(tata, m_text, verdict):
    trace = ipb.execute(str(CARD), {**INDICES, "tata": tata})
    gate = trace.to_grp()["gold_program"][0]
    assert (gate["verdict"], gate["computed_value"]) == (verdict, m_text)
    assert gate["required_elements"][0] == f"M-score {m_text}"  # was "M-score -97.688%"


def test_a_plain_constant_keeps_the_ratio(tmp_path):
    card = tmp_path / "retention.yaml"
    card.write_text(CARD.read_text().replace(
        "      m_score: -4.84", "      retained: 1 - tata\n      m_score: -4.84").replace(
        'required_elements: ["M-score {m_score}"', 'required_elements: ["retained {retained}", "M-score {m_score}"'))
    gate = ipb.execute(str(card), {**INDICES, "tata": "8%"}).to_grp()["gold_program"][0]
    assert gate["required_elements"][:2] == ["retained 92%", "M-score -0.9769"]
