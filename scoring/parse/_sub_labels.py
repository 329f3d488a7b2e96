"""Labels that look like gates and are parts of an answer's own apparatus (s49parse; issue 13, the n46 blind batch).

Two layout classes whose labels carry verdict words and are no gate the card lacks (FM-1):

* a **point of a gate**: a bulleted item right under a gate's own label line, the gate named as a heading or a
  "Gate 1 — Long-Term Debt Cycle Phase" line and its working set out as bullets ("- Kill check: ..., not
  triggered.", "- Classification: ...", "- Verdict: PROCEED"). The bullets are the gate's section; their labels
  are the writer's steps inside it;
* a **tally**: a label whose value counts the verdicts given ("**Tally:** 2 favourable, 1 unfavourable, 2
  undetermined", "Score: 4 pass / 1 fail"). It sums the gates and is none of them.

>>> tally(" 2 favourable, 1 unfavourable, 2 undetermined. If both ...")
True
>>> tally(" 4 PASS / 1 FAIL")
True
>>> tally(" three passes, two fails")
True
>>> tally(" 20% < 50%, not triggered.")
False
>>> tally(" 2 of 5 directors are independent; fails.")
False
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["tally", "point_of_gate", "apparatus_label"]

_COUNT = r"(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)"
#: One counted group: a count and a verdict class ("2 favourable", "1 FAIL", "two passes", "3 of 5 met").
_GROUP = re.compile(
    r"(?i)\b" + _COUNT + r"(?:\s+(?:of|out\s+of)\s+" + _COUNT + r")?\s+(?:gates?\s+|tests?\s+|lenses\s+|criteria\s+)?"
    r"(?:un)?(?:favou?rable|pass(?:es|ed)?|fail(?:s|ed|ures?)?|proceeds?|rejects?|rejected|inconclusive|undetermined|"
    r"unknowns?|met|unmet|positives?|negatives?|green|red|amber|yes|no|n/a)\b")
#: How far after the label a tally's groups are looked for (its first sentence).
_SPAN = 160


def tally(after: str) -> bool:
    """Whether the words after a label (to the end of its first sentence) count verdicts: two counted groups or more."""
    head = re.split(r"(?<=[.;!?])\s", after[:_SPAN], maxsplit=1)[0]
    return len(_GROUP.findall(head)) >= 2


def point_of_gate(parser: Any, li: int) -> bool:
    """Whether the list line ``li`` is a point under a gate's own label line: the nearest label above it, with only
    lines of the list's own block (or continuation text and blank lines) between, is a recognised card gate set as
    a heading or a "Gate 1 — ..." line, not as an item of that list."""
    lines = parser.lines
    line = lines[li]
    if line.kind != "list":
        return False
    k = li - 1
    while k >= 0:
        above = lines[k]
        anchor = parser.anchors.get(k)
        if anchor is not None:
            return anchor.gate is not None and above.kind in ("heading", "label")
        if above.kind in ("heading", "label", "bold", "table", "json", "fence"):
            return False
        if above.kind == "list" and above.block != line.block:
            return False
        k -= 1
    return False


def apparatus_label(parser: Any, li: int, span: tuple[int, int]) -> bool:
    """Whether the unresolved label ``span`` on line ``li`` is a point of a gate or a tally: no invented gate. A
    tally's line is recorded in ``parser.tally_lines``: its verdict words count the gates and are no gate's evidence."""
    end = parser.lines[li].end
    if tally(parser.masked[span[1]:end].lstrip(":*_ \t")):
        parser.__dict__.setdefault("tally_lines", set()).add(li)
        return True
    return point_of_gate(parser, li)
