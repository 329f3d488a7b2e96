"""A short summary box ahead of the detailed analysis does not fix the gate order (issue 13, which statement wins).

Every text here was written for this file; the readings are labelled by hand. The corpus convention (README: "A short
summary box or scorecard ahead of the detailed analysis does not set the order either: the order is that of the
detailed analysis"). Regression kind: the trace took each gate's place from its first section, so a summary table
listing the failing gate first put it first in the trace.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

BUFFETT = "buffett_acquisition_checklist"

DETAIL = ("Detailed analysis\n\n### Circle of Competence\nA regional cement maker; easy to follow. PASS.\n\n"
          "### Economic Moat\nQuarries near each city; hauling costs keep rivals out. PASS.\n\n"
          "### Management Integrity\nThe founders own a third and report candidly. PASS.\n\n"
          "### Margin of Safety\nPrice $4.1B against my value of $5.0B: an 18% discount, short of the 25% I want. FAIL.\n\n"
          "DECLINE.")


def _reading(text: str) -> list[tuple[int, str | None]]:
    return [(g.gate, g.verdict) for g in parse_response(text, BUFFETT, embedder=False).gates]


@pytest.mark.parametrize("box", [
    "| Gate | Verdict |\n|---|---|\n| Margin of Safety | FAIL |\n| Circle of Competence | PASS |\n| Economic Moat | PASS |\n\n",
    "- Margin of Safety: FAIL\n- Circle of Competence: PASS\n- Economic Moat: PASS\n\n",
], ids=["table", "list"])
def test_the_order_comes_from_the_analysis_after_a_summary_box(box: str) -> None:
    assert _reading("Scorecard\n\n" + box + DETAIL) == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED"), (5, "REJECT")]


def test_a_box_whose_gates_the_text_does_not_all_take_up_again_keeps_its_order() -> None:
    # guard: the moat is judged only in the box, so the box is the answer's own reading of it, not a summary
    text = ("| Gate | Verdict |\n|---|---|\n| Margin of Safety | FAIL |\n| Economic Moat | PASS |\n| Circle of Competence | PASS |\n\n"
            "### Circle of Competence\nA regional cement maker; easy to follow. PASS.\n\n"
            "### Margin of Safety\nAn 18% discount, short of the 25% I want. FAIL.\n\nDECLINE.")
    assert _reading(text) == [(5, "REJECT"), (2, "PROCEED"), (1, "PROCEED")]


def test_a_detailed_list_and_a_later_second_look_are_no_summary() -> None:
    # guard: long list items are the analysis itself; a later revisit keeps the list's order (and its later verdict wins)
    text = ("1. Circle of Competence: a regional cement maker whose plants, prices and customers I can follow. PASS.\n"
            "2. Economic Moat: quarries near each city; hauling costs keep rivals out of every market it serves. PASS.\n"
            "3. Management Integrity: the founders own a third and their letters report mistakes candidly. PASS.\n\n"
            "Circle of Competence, second look: still simple. PASS.\nEconomic Moat, second look: a rival quarry opens in 2027. FAIL.\n\n"
            "DECLINE.")
    assert _reading(text) == [(1, "PROCEED"), (2, "REJECT"), (3, "PROCEED")]
