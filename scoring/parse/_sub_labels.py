"""Labels that look like gates and are parts of an answer's own apparatus (s49parse; issue 13, the n46 blind batch).

Two layout classes whose labels carry verdict words and are no gate the card lacks (FM-1):

* a **point of a gate**: a bulleted item right under a gate's own label line, the gate named as a heading or a
  "Gate 1 — Long-Term Debt Cycle Phase" line and its working set out as bullets ("- Kill check: ..., not
  triggered.", "- Classification: ...", "- Verdict: PROCEED"). The bullets are the gate's section; their labels
  are the writer's steps inside it;
* a **tally**: a label whose value counts the verdicts given ("**Tally:** 2 favourable, 1 unfavourable, 2
  undetermined", "Score: 4 pass / 1 fail"). It sums the gates and is none of them;
* a **place of a statement on a numbered gate** (s54wild, the n51 slide spec): a label whose value names a card gate by
  its number ("- footer in bold: 4 of 4 environments covered, step 1 passes", "- caption: ..., so step 2 passes"). The
  label says where the statement stands (a caption, a footer, a callout); the statement is the numbered gate's;
* a **table's header row** (s54wild, the n51 help article): the top row of a table with no ``|---|`` rule under it,
  whose cells hold no digit and no verdict word, when two rows or more of as many cells follow it ("Indicator | Reading | Signal present |"). Its first
  cell names the column of gate labels, not a gate.

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

from ipb.scoring import verdict_words as vw
from ipb.scoring._text import table_top

__all__ = ["tally", "point_of_gate", "apparatus_label", "names_numbered_gate", "header_row"]

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
    return point_of_gate(parser, li) or names_numbered_gate(parser, li, span) or header_row(parser, li)


#: "step 1 passes", "gate 3: fails": the verdict right after the gate's number, at most this many characters on.
_AFTER_NUMBER = 16


def names_numbered_gate(parser: Any, li: int, span: tuple[int, int]) -> bool:
    """Whether the value after the label ``span`` on line ``li`` names a card gate by its number with its verdict right
    after ("step 1 passes", "step 3: fails"): the label is where that gate's statement stands, not a gate of its own.
    A number in passing ("ESG overlay: FAIL, unlike step 2") leaves the label to be judged as a gate."""
    end = parser.lines[li].end
    return any(m.how == "number" and m.gates and span[1] <= m.start < end
               and vw.VERDICT_PATTERN.search(parser.masked, m.end, min(end, m.end + _AFTER_NUMBER)) is not None
               for m in parser.mentions)


def header_row(parser: Any, li: int) -> bool:
    """Whether table line ``li`` is the header row of a table drawn with no ``|---|`` rule: the table's top row, no
    digit and no verdict word in it, two rows or more of as many cells under it. (A table with the rule has its header told by the rule already.)"""
    lines = parser.lines
    if lines[li].kind != "table" or table_top(lines, li) != li:
        return False
    row = parser.masked[lines[li].start : lines[li].end]
    if re.search(r"(?i)\d|\b(?:yes|no)\b|[\u2713\u2714\u2717\u2718\u2705\u274c]", row) or vw.VERDICT_PATTERN.search(row):
        return False  # "ESG | FAIL |", "Moat | yes |" on top are rows of their own ("Signal present" names a column)
    rows, k = 0, li + 1
    while k < len(lines) and lines[k].kind == "table" and len(lines[k].cells) == len(lines[li].cells):
        rows, k = rows + 1, k + 1
    return rows >= 2
