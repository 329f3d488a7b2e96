"""Headings underlined by a rule: the rule is layout, the line above it is the heading (issue 13; s59tune).

reStructuredText, and Markdown's "setext" style, mark a heading by a line of ``-`` or ``=`` directly under it (RST
may also put the same line above it)::

    Gate 2 -- Position in the Capital Structure
    -------------------------------------------

    :Verdict: PROCEED

The parser read the rule as a separator that cut the heading off from the section below it, so each gate was found
with no verdict (n55-a-mdd1-frontier-rst: five gates named, none read). :func:`blank_heading_rules` blanks such a
rule in place (:func:`._blank_lines.blank_lines`, as the block-skipping passes do), so every offset is kept and the
heading opens its section as a plain heading line does.

A rule counts only when it is at least :data:`MIN_RULE` characters, the heading line above it is not blank, holds no
table pipe and is at most :data:`MAX_HEADING` characters, and the rule is nearly as long as the heading (at least
:data:`COVER` of it): RST requires the rule to cover its title, and a writer drawing a heading draws it that long. A
short ``---`` under a long line is a thematic break (the end of a front-matter block under ``tags: [...]``) and is
left alone. An overline is blanked with its underline when both are the same character. The scan is one pass over
the lines (no pattern can backtrack), so it is linear in the input.
"""

from __future__ import annotations

from typing import Final

from ipb.scoring.parse._blank_lines import blank_lines

__all__ = ["blank_heading_rules"]

#: The shortest rule read as a heading's underline.
MIN_RULE: Final = 3
#: The longest heading line (stripped) a rule may underline.
MAX_HEADING: Final = 120
#: A rule must be at least this share of its heading's length (stripped).
COVER: Final = 0.8


def _rule_char(line: str) -> str | None:
    """``'-'`` or ``'='`` when ``line`` is only that character (at least :data:`MIN_RULE`, spaces around allowed)."""
    s = line.strip()
    if len(s) < MIN_RULE or s[0] not in "-=" or s.strip(s[0]):
        return None
    return s[0]


def _heading(line: str) -> bool:
    s = line.strip()
    return bool(s) and len(s) <= MAX_HEADING and "|" not in s and _rule_char(line) is None


def blank_heading_rules(text: str) -> tuple[str, int]:
    """``text`` with the rules that underline (or overline) a heading blanked (same length), and how many were.

    >>> t = "Gate 1 -- Pricing\\n-----------------\\n\\n:Verdict: PROCEED"
    >>> out, n = blank_heading_rules(t)
    >>> n, out.split("\\n")[1] == " " * 17, len(out) == len(t)
    (1, True, True)
    >>> blank_heading_rules("=====\\nTitle\\n=====\\nbody")[0].split("\\n")
    ['     ', 'Title', '     ', 'body']
    >>> blank_heading_rules("tags: [investing, value]\\n---\\nbody")[1]  # a short rule: a thematic break
    0
    >>> blank_heading_rules("| a | b |\\n-------\\n")[1]  # under a table row: not a heading
    0
    """
    if "--" not in text and "==" not in text:
        return text, 0
    lines = text.split("\n")
    blanked: set[int] = set()
    for i in range(1, len(lines)):
        char = _rule_char(lines[i])
        above = lines[i - 1]
        if char is None or not _heading(above) or len(lines[i].strip()) < COVER * len(above.strip()):
            continue
        blanked.add(i)
        if i >= 2 and _rule_char(lines[i - 2]) == char:
            blanked.add(i - 2)  # an RST overline of the same character
    if not blanked:
        return text, 0
    return blank_lines(text, blanked), len(blanked)
