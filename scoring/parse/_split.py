"""One card gate split over two table rows or list items: its parts are read together, as the card's own gate logic reads.

A guru-model report lists "CURRENT RATIO" and "LONG-TERM DEBT IN RELATION TO NET CURRENT ASSETS" as two rows; both are
Graham's financial-condition gate, whose pass test needs both (``current_assets >= 2 * current_liabilities and
long_term_debt <= ...``). Read by position, the later row's verdict would stand for the gate, so the order of the rows
decided it. Here a gate whose name two adjacent rows (or items) of one table (or list) carry under different labels is
*split*: each part keeps its own last committed verdict (a summary row and the detail paragraph of the same part are one
part), and the gate fails when any part fails (issue 13: two rows of one gate).

The same place reads a summary box as a summary (:func:`after_summary`): a short table or list of criteria and marks
ahead of a detailed analysis that takes every one of them up again does not fix the gate order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ipb.scoring import verdict_words as vw
from ipb.scoring._text import Line, normalize
from ipb.scoring.parse._common import _Anchor, _Evidence

__all__ = ["after_summary", "failing_part", "part_key", "split_gates"]

_LIST_KINDS = frozenset({"table", "list"})


def part_key(label: str) -> str:
    """The part of a gate a label names: its first word, normalised ("CURRENT RATIO" and "Current ratio of 2.3" are one
    part; "LONG-TERM DEBT" and "Long-term debt in relation to net current assets" another).

    >>> part_key("LONG-TERM DEBT IN RELATION TO NET CURRENT ASSETS"), part_key("Current ratio")
    ('long', 'current')
    """
    words = normalize(label).split()
    return words[0] if words else ""


def split_gates(anchors: Mapping[int, _Anchor], lines: Sequence[Line], masked: str) -> frozenset[int]:
    """The gates that two adjacent lines of one table or list name under labels of different parts (:func:`part_key`).

    One pass over the anchored lines in order: linear in their number.
    """
    out: set[int] = set()
    for li, anchor in anchors.items():
        nxt = anchors.get(li + 1)
        if nxt is None or anchor.gate is None or nxt.gate != anchor.gate or anchor.invented or nxt.invented:
            continue
        kind = lines[li].kind
        if kind not in _LIST_KINDS or lines[li + 1].kind != kind:
            continue
        a, b = part_key(masked[anchor.mention[0] : anchor.mention[1]]), part_key(masked[nxt.mention[0] : nxt.mention[1]])
        if a and b and a != b:
            out.add(anchor.gate)
    return frozenset(out)


def failing_part(parser: Any, gate: int, own: list[list[_Evidence]]) -> _Evidence | None:
    """For a gate split over two rows of a table or list (:func:`split_gates`, found once per parse): the last committed
    REJECT of a part whose own last committed statement is a REJECT, else None (the gate is then read as any other).

    ``parser`` is the running parse (its anchors, lines, sections and ``_rank``); ``own`` the gate's own sections in
    text order, each a list of evidence. A section's part is named by its label, or by the anchor of its first line (a
    paragraph opened by "LONG-TERM DEBT ...:"), so a part's detail paragraph overrides its own summary row.
    """
    split = parser.__dict__.get("_split_gates")
    if split is None:
        split = parser.__dict__["_split_gates"] = split_gates(parser.anchors, parser.lines, parser.masked)
    if gate not in split:
        return None
    last: dict[str, _Evidence] = {}
    for evs in own:
        label = evs[0].label
        if label is None:
            first = parser.section_first.get(evs[0].section, -1)
            anchor = parser.anchors.get(parser.units[first].line) if 0 <= first < len(parser.units) else None
            label = anchor.mention if anchor is not None and anchor.gate == gate else None
        committed = [ev for ev in evs if parser._rank(ev)[0] >= vw.COMMITTED]
        if label is None or not committed:
            continue
        best = max(committed, key=lambda ev: (parser._rank(ev), -ev.hit.start))
        last[part_key(parser.masked[label[0] : label[1]])] = best
    failed = [ev for ev in last.values() if ev.hit.verdict == vw.REJECT]
    if len(last) < 2 or not failed:
        return None
    return max(failed, key=lambda ev: ev.hit.start)


#: A summary row or item is short: a criterion and its mark ("| Margin of Safety | FAIL |", "- Moat: PASS").
_SUMMARY_ROW = {"table": 100, "table_sep": 200, "list": 60}


def after_summary(parser: Any, order: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``order`` ((position, gate) of each gate's first section) with a summary box read as a summary: when the first
    gate-bearing block of the answer is a short table or list (each row a criterion and its mark) and the detailed
    analysis after it takes up every one of its gates again, they take their place from the analysis, so the
    box's order does not fix the trace's (issue 13, which statement wins; the corpus labels the detailed analysis'
    order). Returned sorted by position. Linear in the gates' sections."""
    lines, units, first_of, sections_of = parser.lines, parser.units, parser.section_first, parser.gate_sections

    def line_of(section: int) -> int:
        u = first_of.get(section, -1)
        return units[u].line if 0 <= u < len(units) else -1

    firsts = {g: line_of(sections_of[g][0]) for _, g in order if sections_of.get(g)}
    if len(firsts) < 3:
        return sorted(order)
    top = min(li for li in firsts.values() if li >= 0) if any(li >= 0 for li in firsts.values()) else -1
    kind = lines[top].kind if top >= 0 else ""
    if kind not in ("table", "list"):
        return sorted(order)
    kinds = ("table", "table_sep") if kind == "table" else ("list",)
    end = top
    while end + 1 < len(lines) and lines[end + 1].kind in kinds:
        end += 1
    start = top
    while start > 0 and lines[start - 1].kind in kinds:
        start -= 1
    if any(lines[li].end - lines[li].start > _SUMMARY_ROW[lines[li].kind] for li in range(start, end + 1)):
        return sorted(order)
    boxed = {g for g, li in firsts.items() if start <= li <= end}
    later: dict[int, int] = {}
    for g in boxed:
        for section in sections_of[g][1:]:
            li = line_of(section)
            if li > end:
                later[g] = units[first_of[section]].start
                break
    if len(boxed) < 2 or len(later) < len(boxed) or parser._in_other_profile(min(later.values())):
        return sorted(order)  # the analysis must take up every gate of the box, and be no second profile's list
    return sorted((later.get(g, pos), g) for pos, g in order)
