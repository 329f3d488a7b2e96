"""Tables keyed by their subjects: rows that are companies or models, not gates (paper §7.5, §7.11; issue 13).

A report that compares several subjects prints one row per subject, and its header's first cell says what the rows
are::

    | Ticker | Triggers checked | Verdict |        | Model  | Quadrant   | Correct |
    |--------|------------------|---------|        |--------|------------|---------|
    | BRVL   | 4/4 ✅           | HOLD    |        | GPT-4o | growth ... | ✅      |

Such a row is neither a card gate's row (a cell that happens to match a gate's words names no gate there) nor an
invented gate (FM-1) when a mark stands in it: its label is the subject the row is about. :func:`keyed_by_subject`
tells such a table from a checklist table ("| Criterion | Value | Pass |"), by its header's first cell alone.
"""

from __future__ import annotations

from typing import Any

from ipb.scoring._text import normalize, table_top

__all__ = ["keyed_by_subject"]

#: What a header's first cell calls the rows when they are subjects: the things analysed or compared.
SUBJECT_HEADS = frozenset("""
ticker tickers symbol symbols stock stocks company companies firm firms issuer issuers holding holdings security
securities fund funds position positions name names model models llm llms system systems agent agents run runs
""".split())


def keyed_by_subject(masked: str, lines: list[Any], li: int) -> bool:
    """Whether the table holding row ``li`` has a header row (a row followed by the ``|---|`` rule) whose first cell
    names a kind of subject (:data:`SUBJECT_HEADS`: "Ticker", "Company", "Model")."""
    k = table_top(lines, li)
    head = lines[k]
    if head.kind != "table" or k + 1 >= len(lines) or lines[k + 1].kind != "table_sep" or not head.cells:
        return False
    first = normalize(masked[head.cells[0][0] : head.cells[0][1]])
    return first in SUBJECT_HEADS


def among_subjects(parser: Any, u: int) -> bool:
    """Whether unit ``u`` lies in a data row of a table keyed by its subjects with two or more such rows: an outcome
    there ("| o3-mini | ... | tilt ILB + gold |") is one subject's decision among several, not the answer's own."""
    if u < 0:
        return False
    lines = parser.lines
    li = parser.units[u].line
    if lines[li].kind != "table" or not keyed_by_subject(parser.masked, lines, li):
        return False
    k = table_top(lines, li)
    rows = 0
    while k < len(lines) and lines[k].kind in ("table", "table_sep"):
        rows += lines[k].kind == "table"
        k += 1
    header = li + 1 < len(lines) and lines[li + 1].kind == "table_sep"
    return not header and rows - 1 >= 2
