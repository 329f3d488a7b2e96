"""Row labels written as ratio abbreviations (issue 13, "gate-references"; paper §7.5).

Screening reports label their rows "P/E RATIO", "EV/EBIT", "EPS GROWTH", where the card spells the gate out
("Moderate Price/Earnings Ratio"). A reader takes "P/E" for price/earnings; the parser must too, and must not
call such a row an invented gate. The texts were written for these tests; expected readings worked by hand
against the bundled Graham card (gate 6: Moderate Price/Earnings Ratio).
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._label_names import _spelled_out

GRAHAM = "graham_seven_tests_defensive"


@pytest.mark.parametrize("label", ["P/E RATIO", "P/E ratio", "p/e ratio"])
def test_a_pe_ratio_row_is_the_moderate_pe_gate(label: str) -> None:
    text = (
        "| Criterion | Result |\n|---|---|\n"
        "| SALES | PASS |\n"
        f"| {label} | FAIL |\n\n"
        f"{label}: the shares trade at 19.5 times three-year average earnings, over the ceiling of 15. FAIL.\n"
    )
    result = parse_response(text, GRAHAM, embedder=False)
    assert result.status == "ok", result.reason
    assert {g.gate: g.verdict for g in result.gates}.get(6) == "REJECT"
    assert not [i for i in result.invented_gates if "P/E" in i.upper()]


def test_spelled_out_leaves_other_words_alone() -> None:
    assert _spelled_out(["p", "b", "and", "eps", "growth"]) == ["price", "book", "and", "earnings", "growth"]
    assert _spelled_out(["pe", "current", "ratio"]) == ["pe", "current", "ratio"]
