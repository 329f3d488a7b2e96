"""Umbrella labels: a heading whose own words name no gate and whose bracket names two or more (issue 13, §7.5).

"Moderate Valuation (P/E & P/B): ✗ FAIL" heads Graham's P/E test and his price-to-assets test at once (found on the
n29 batch by s32cover). The bracket's parts must each name one gate of the card and no two the same
(:meth:`._loose._LooseReferencesMixin._coordinated_label`); each part becomes a mention, the line is anchored to the
first, and the grouped-label reader (:mod:`._grouped`) gives every gate so named the line's verdict.
"""

from __future__ import annotations

import re
from typing import Any

from ipb.scoring._text import normalize
from ipb.scoring.parse._common import _Mention

#: A label whose bracket names the gates it heads: "Moderate Valuation (P/E & P/B):", "- Quality (moat and management) -".
UMBRELLA_LABEL = re.compile(r"[ \t>*_\"'-]*(?:\d{1,2}[.)][ \t]+)?[*_]{0,2}(?P<umbrella>[A-Z][A-Za-z' -]{1,40}?)[ \t]*\([ \t]*"
                             r"(?P<inner>[^()\n:]{2,48}?)[ \t]*\)[*_]{0,2}[ \t]*(?::|\u2014|[ \t]-[ \t])")
UMBRELLA_CELL = re.compile(r"[ \t*_]*(?P<umbrella>[A-Z][A-Za-z' -]{1,40}?)[ \t]*\([ \t]*(?P<inner>[^()\n:|]{2,48}?)[ \t]*\)[ \t*_]*")
_LABEL_JOINER_IN = re.compile(r"(?i)[ \t]*,[ \t]*|[ \t]+(?:and|&)[ \t]+|[ \t]*&[ \t]*")


def umbrella_parts(parser: Any, m: re.Match[str], mentions: list[_Mention], cache: dict[str, int | None]) -> list[_Mention]:
    """The mentions a label adds whose words name no gate and whose bracket joins parts of two or more gates' names:
    "Moderate Valuation (P/E & P/B)" is Graham's P/E test and his price-to-assets test under one heading (s32cover).
    The bracket must name every part ("P/E & P/B", "moat, management"); the umbrella itself must name none."""
    a, b = m.span("umbrella")
    if any(a <= x.start < b for x in mentions) or not _LABEL_JOINER_IN.search(parser.masked, *m.span("inner")):
        return []
    norm = normalize(m.group("umbrella"))
    if norm not in cache:
        cache[norm] = parser._part_of_one_gate(norm) if 0 < len(norm.split()) <= 3 else None
    if cache[norm] is not None:
        return []
    return parser._coordinated_label(*m.span("inner"), mentions, cache)
