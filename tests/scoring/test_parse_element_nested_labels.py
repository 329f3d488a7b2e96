"""An element whose words hold another's ("market P/E {market_pe}" and "P/E {pe}") reads its own figure (s47user).

Bug kind: an element read across a label's or a cell's end, and one element read inside another. On a new user's card
(John Neff's total return ratio screen, ``tests/scoring/cards/neff_total_return_ratio.yaml``) the gate "Low P/E against
the market" asks for ``P/E {pe}`` and ``market P/E {market_pe}``. An answer stating both verbatim, "Low P/E against
the market: P/E 15.5x vs market P/E 12x", was read as ``market P/E 15.5x``: the verbatim pattern let the gap between
"market" and "P/E" cross the label's colon ("market: P/E 15.5x"). Written the other way round, "market P/E 12x;
P/E 15.5x", ``P/E {pe}`` was read as 12x from inside "market P/E 12x". In loose prose ("the stock's P/E is 15.5x. The
market P/E is 12x.") the market's figure was taken after the first "P/E". Each answer lost a third of the gate's
KCCS on a figure it stated right. Expected readings worked by hand from the answers' text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ipb.engine.card import load_card
from ipb.scoring.parse import parse_response

CARD = Path(__file__).parent / "cards" / "neff_total_return_ratio.yaml"
HEAD = "Gate 1 - Low P/E against the market: "
TAIL = " Verdict: REJECT.\nFinal verdict: PASS\n"


def _gate_one(body: str) -> list[str]:
    result = parse_response(HEAD + body + TAIL, load_card(CARD), embedder=False)
    assert result.status == "ok", result.reason
    return list(next(g for g in result.gates if g.gate == 1).elements)


@pytest.mark.parametrize("body", [
    "P/E 15.5x vs market P/E 12x; 60% of the market multiple is 7.2x.",  # the label's colon was crossed
    "market P/E 12x; P/E 15.5x; 60% of the market multiple is 7.2x.",  # P/E was read inside "market P/E 12x"
    "the stock's P/E is 15.5x. The market P/E is 12x.",  # the market's figure was taken after the first "P/E"
    "P/E 15.5x against a market P/E of 12x.",
], ids=["label-colon", "nested-first", "two-sentences", "of-between"])
def test_each_figure_is_its_own(body):
    got = _gate_one(body)
    assert "P/E 15.5x" in got
    assert "market P/E 12x" in got
    assert "market P/E 15.5x" not in got and "P/E 12x" not in got


def test_a_table_row_does_not_join_cells():
    """ "| ... against the market | P/E 15.5x |": the cell's end is no gap between "market" and "P/E"."""
    text = ("| # | Gate | Values | Verdict |\n|---|---|---|---|\n"
            "| 1 | Low P/E against the market | P/E 15.5x vs market P/E 12x | REJECT |\n\nFinal verdict: PASS\n")
    result = parse_response(text, load_card(CARD), embedder=False)
    got = list(next(g for g in result.gates if g.gate == 1).elements)
    assert "market P/E 12x" in got and "market P/E 15.5x" not in got
