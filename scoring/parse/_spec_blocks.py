"""Test-spec layouts: a block opened by a keyword line ("Scenario: Gate 2 - Margin of safety") (s59groups).

Behaviour specifications (Gherkin's ``Feature:`` / ``Scenario:`` / ``Given`` / ``When`` / ``Then``) and test-case
write-ups open each block with a fixed keyword and a colon; the block's own title, the gate it checks, is the text
after the colon. Read as a plain label line, every block is labelled "Scenario" and none names a gate. This module
gives the title's span in place of the keyword, so that each block is read as the gate its title names, and its
``Then the gate verdict is REJECT`` line as that gate's verdict.
"""

from __future__ import annotations

import re
from typing import Any

from ipb.scoring._text import Line
from ipb.scoring.parse._types import Span

__all__ = ["spec_title"]

#: The keywords that open a block of a test specification; the title follows the colon. Linear: one alternation of
#: literals, matched against the whole label.
_SPEC_KEYWORD = re.compile(r"(?i)(?:scenario(?:[ \t]+outline)?|example|test[ \t]+case|test|case|check|spec)")


def spec_title(masked: str, line: Line) -> Span | None:
    """The span of the title after the keyword of a test-spec block line ("Scenario: Gate 1 - Price" -> "Gate 1 -
    Price"), or None when ``line`` is no label line opened by a keyword of :data:`_SPEC_KEYWORD` followed by a title
    of at least one word."""
    if line.kind != "label" or line.label is None:
        return None
    a, b = line.label
    if _SPEC_KEYWORD.fullmatch(masked, a, b) is None:
        return None
    colon = masked.find(":", b, line.end)
    if colon < 0:
        return None
    start, end = colon + 1, line.end
    while start < end and masked[start] in " \t*_`\"'":
        start += 1
    while end > start and masked[end - 1] in " \t*_`\"',.;\r":
        end -= 1
    return (start, end) if re.search(r"[^\W\d_]", masked[start:end]) else None


#: A step line of a Gherkin scenario: "Given a stock share of 65%", "Then the gate verdict is PROCEED", "And ...".
_STEP = re.compile(r"[ \t]*(?:Given|When|Then|And|But)[ \t]+\S")


def spec_step(masked: str, line: Line) -> bool:
    """Whether ``line`` is a step of a scenario (Given / When / Then / And / But, capitalised as Gherkin writes them):
    a step states the block's facts and verdict and titles nothing, so a gate phrase in it is no label of its own."""
    if line.kind not in ("short", "label", "plain"):
        return False
    return _STEP.match(masked, line.start, line.end) is not None


def drop_step_anchors(parser: Any) -> int:
    """Remove the anchors ``parser`` set on scenario steps of an answer laid out as a test specification (a label
    line opened by a keyword of :data:`_SPEC_KEYWORD`): a gate phrase in "Given a stock share of 65%" names the
    fact the step states, and an anchor there would split the scenario's block and take its ``Then`` verdict away
    from the gate the scenario's title names. Returns how many were removed."""
    lines, masked = parser.lines, parser.masked
    if not any(spec_title(masked, line) for line in lines if line.kind == "label"):
        return 0
    steps = [li for li in parser.anchors if spec_step(masked, lines[li])]
    for li in steps:
        del parser.anchors[li]
    return len(steps)
