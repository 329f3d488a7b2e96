"""Field names of a repeated record: line labels that name no gate (paper §7.5, issue 13).

A screening report often prints one record per check, every record under its own heading and with the same field
lines::

    ### 4. Earnings Stability
    Requirement: positive earnings in each of the last 10 years
    Actual: 10 of 10
    ✅ Passed

"Requirement" is a word of one gate's alias ("large company requirement"), so the short line label alone would name
that gate; but a label that opens a line under the headings of two or more *other* gates is the record's field name,
not a gate. Read as a gate, it splits every record in two: the heading keeps nothing of its own (the coverage rule of
:mod:`._template_slots` then drops it) and the record's verdict goes to the wrong gate.

:func:`record_fields` is the one call (from :meth:`_ReferencesMixin._sentence_labels`), on the line labels named by a
part of a gate's name (how ``words``) only: a gate's full name or alias under another gate's heading still names it.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from ipb.scoring._text import normalize

__all__ = ["record_fields"]

#: The fewest records (occurrences of one field label) that make a record layout.
MIN_RECORDS = 3
#: The fewest distinct other gates heading those records.
MIN_OTHER_HEADS = 2
#: How far up (lines) a label's heading is looked for.
MAX_LINES_UP = 40


def _heading_gates(parser: Any, unit: int, named: list[Any], starts: list[int]) -> frozenset[int]:
    """The gates named in the nearest heading line above ``unit`` (within :data:`MAX_LINES_UP` lines); ``named`` is
    sorted by start, ``starts`` its starts."""
    if unit < 0:
        return frozenset()
    line = parser.units[unit].line
    for k in range(line - 1, max(-1, line - 1 - MAX_LINES_UP), -1):
        head = parser.lines[k]
        if head.kind == "heading":
            inside = named[bisect_left(starts, head.start) : bisect_left(starts, head.end)]
            return frozenset(g for m in inside for g in m.gates)
    return frozenset()


def record_fields(parser: Any, added: list[Any], mentions: list[Any]) -> list[Any]:
    """``added`` (line labels naming one gate by a part of its name, each a ``_Mention``) less every label text that
    opens :data:`MIN_RECORDS` or more lines lying under the headings of :data:`MIN_OTHER_HEADS` or more distinct other
    gates (``mentions``: the gates named so far); such labels are kept in ``parser.record_fields`` (normalised), so
    that the line's label is not read as the gate either; a note counts them."""
    groups: dict[tuple[str, tuple[int, ...]], list[Any]] = {}
    for m in added:
        groups.setdefault((parser.masked[m.start : m.end].casefold(), tuple(m.gates)), []).append(m)
    named = sorted((m for m in mentions if m.invented is None), key=lambda m: m.start)
    starts = [m.start for m in named]
    fields: set[tuple[str, tuple[int, ...]]] = set()
    for key, group in groups.items():
        if len(group) < MIN_RECORDS:
            continue
        heads: set[int] = set()
        for m in group:
            heads.update(_heading_gates(parser, parser._unit_at(m.start), named, starts) - set(key[1]))
        if len(heads) >= MIN_OTHER_HEADS:
            fields.add(key)
    if not fields:
        return added
    parser.record_fields.update(normalize(k[0]) for k in fields)  # the line's label is no gate either (_resolve_labels)
    parser.notes.append(f"{len(fields)} line label(s) repeated under the headings of other gates were read as the "
                        f"field names of a record, not as gates: {', '.join(repr(k[0]) for k in sorted(fields))}")
    return [m for m in added if (parser.masked[m.start : m.end].casefold(), tuple(m.gates)) not in fields]
