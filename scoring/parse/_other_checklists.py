"""Checklists beside the card's: labelled checks in a list of their own are no invented gates (paper §7.11, FM-1).

An answer often carries another scheme's checks before or after its reading of the card's gates: a data vendor's
health scorecard, a pipeline's basic checks, each with a mark::

    ## Financial health scorecard
    - Short-term assets cover short-term liabilities: ✅
    - Debt/equity below 40%: ✅ (22%)

    ## Investment thesis
    **Circle of competence.** ... ✅

An invented gate (FM-1) is a check the answer presents as one of the card's: it stands among the card's gates, a
sibling of their labels ("Test 8 - Dividend yield" after "Test 7 - P/B"). A run of two or more labelled checks of one
kind (the same list, heading level or label form), in a section of its own (under a heading) that holds no card
gate, in an answer whose card gates are labelled in another form, is another checklist the answer reports (a tool's
or a vendor's output echoed), and none of its checks is invented. Without a heading of its own the run may be checks
the answer adds to the card's, and stays invented.

:func:`other_checklist` is the one test, from :meth:`_ParaphraseMixin._invented_labels`.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

__all__ = ["other_checklist"]

#: The fewest labelled checks that make a list of their own.
MIN_CHECKS = 2
#: How far (lines) from its run a section's heading is looked for, and how far past the run its end.
MAX_SECTION = 200


def _run(lines: list[Any], li: int) -> range:
    """The lines around ``li`` of its kind (``block``), blank lines between them included, at most
    :data:`MAX_SECTION` lines either side."""
    block = lines[li].block
    lo = li
    while lo > max(0, li - MAX_SECTION) and (lines[lo - 1].block == block
                                             or (lines[lo - 1].kind == "blank" and lo > 1 and lines[lo - 2].block == block)):
        lo -= 1
    hi = li
    while hi + 1 < min(len(lines), li + MAX_SECTION) and (lines[hi + 1].block == block or (
            lines[hi + 1].kind == "blank" and hi + 2 < len(lines) and lines[hi + 2].block == block)):
        hi += 1
    return range(lo, hi + 1)


def other_checklist(parser: Any, li: int, checks: set[int], gate_blocks: set[Any], memo: dict[Any, Any]) -> bool:
    """Whether the candidate label on line ``li`` (``checks``: the lines of every candidate given a verdict on its line)
    belongs to another checklist: the card's gates are labelled (``gate_blocks``: the forms of their labels, not
    empty) in forms other than this line's, the run of lines of this line's form around it holds
    :data:`MIN_CHECKS` or more candidates, and the section holding the run (from the heading above it to the next
    heading) has no line anchored to a card gate. ``memo``: one dict per call site, kept across its candidates."""
    lines = parser.lines
    line = lines[li]
    if not gate_blocks or line.block in gate_blocks or line.kind == "table":
        return False
    run = _run(lines, li)
    if run in memo:
        return bool(memo[run])
    if "gate_lines" not in memo:
        memo["gate_lines"] = sorted(k for k, a in parser.anchors.items() if a.gate is not None)
    memo[run] = _own_section(lines, run, checks, memo["gate_lines"])
    return bool(memo[run])


def _own_section(lines: list[Any], run: range, checks: set[int], gate_lines: list[int]) -> bool:
    if sum(k in checks for k in run) < MIN_CHECKS:
        return False
    head = next((k for k in range(run.start - 1, max(-1, run.start - 1 - MAX_SECTION), -1) if lines[k].kind == "heading"), None)
    if head is None:
        return False  # no section of its own: checks beside the card's gates may be invented ones
    end = next((k for k in range(run.stop, min(len(lines), run.stop + MAX_SECTION)) if lines[k].kind == "heading"),
               min(len(lines), run.stop + MAX_SECTION))
    i = bisect_left(gate_lines, head)
    return not (i < len(gate_lines) and gate_lines[i] < end)
