"""One card gate split over two table rows or list items (issue 13: two rows of one gate).

Every text here was written for this file; the readings are labelled by hand. Graham's defensive gate 2, "Sufficiently
Strong Financial Condition", passes only when the current ratio is at least 2 *and* long-term debt does not exceed net
current assets; guru-model reports list the two as separate rows. Regression kinds: the row "LONG-TERM DEBT IN
RELATION TO NET CURRENT ASSETS" as a paragraph label named no gate (the label is longer than one name), so its FAIL
was lost; and with both rows read, the later row's verdict stood for the gate, so the rows' order decided it. Now the
gate fails when either part fails, in any order, and a part's detail paragraph still overrides its own summary row.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._split import part_key

GRAHAM = "graham_seven_tests_defensive"

ROWS = ["| CURRENT RATIO | PASS |", "| LONG-TERM DEBT IN RELATION TO NET CURRENT ASSETS | FAIL |"]
ITEMS = ["- Current ratio: 2.4, PASS", "- Long-term debt in relation to net current assets: debt $900M against $700M, FAIL"]


def _gates(text: str) -> dict[int, str | None]:
    parsed = parse_response(text, GRAHAM, embedder=False)
    assert parsed.invented_gates == []
    return {g.gate: g.verdict for g in parsed.gates}


@pytest.mark.parametrize("rows", [ROWS, ROWS[::-1]], ids=["failing-row-last", "failing-row-first"])
def test_table_rows_of_one_gate_fail_it_if_either_fails(rows: list[str]) -> None:
    text = "| Criterion | Result |\n|---|---|\n| SALES | PASS |\n" + "\n".join(rows) + "\n| P/E RATIO | PASS |\n\nDECLINE."
    assert _gates(text) == {1: "PROCEED", 2: "REJECT", 6: "PROCEED"}


@pytest.mark.parametrize("items", [ITEMS, ITEMS[::-1]], ids=["failing-item-last", "failing-item-first"])
def test_list_items_of_one_gate_fail_it_if_either_fails(items: list[str]) -> None:
    text = "- Sales: $2.1bn, PASS\n" + "\n".join(items) + "\n- P/E ratio: 12, PASS\n\nDECLINE."
    assert _gates(text) == {1: "PROCEED", 2: "REJECT", 6: "PROCEED"}


def test_both_parts_passing_pass_the_gate() -> None:
    text = ("- Sales: $2.1bn, PASS\n- Current ratio: 2.4, PASS\n"
            "- Long-term debt in relation to net current assets: $500M against $700M, PASS\n\nINVEST.")
    assert _gates(text) == {1: "PROCEED", 2: "PROCEED"}


SUMMARY = ("| Criterion | Result |\n|---|---|\n| CURRENT RATIO | PASS |\n| LONG-TERM DEBT IN RELATION TO NET CURRENT ASSETS | {row} |\n\n"
           "DETAIL\n\nCURRENT RATIO: current assets are 2.4 times current liabilities. PASS.\n\n"
           "LONG-TERM DEBT IN RELATION TO NET CURRENT ASSETS: debt of ${debt}M against net current assets of $700M. {detail}.\n")


@pytest.mark.parametrize(("row", "debt", "detail", "verdict"), [
    ("FAIL", 900, "FAIL", "REJECT"),
    ("PASS", 900, "FAIL", "REJECT"),  # the detail paragraph of the debt part fails it: the gate fails
    ("FAIL", 500, "PASS", "PROCEED"),  # the detail corrects the summary row of the same part: nothing fails
], ids=["both-fail", "detail-fails", "detail-corrects-summary"])
def test_a_summary_table_then_a_paragraph_per_part(row: str, debt: int, detail: str, verdict: str) -> None:
    assert _gates(SUMMARY.format(row=row, debt=debt, detail=detail))[2] == verdict


def test_part_keys() -> None:
    assert part_key("LONG-TERM DEBT") == part_key("Long-term debt in relation to net current assets") != part_key("CURRENT RATIO")
