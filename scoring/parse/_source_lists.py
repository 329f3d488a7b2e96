"""A list of numbered sources anywhere in an answer, which states no gate and no verdict (issue 13, layout).

An answer written from retrieved documents often lists them before (or inside) its analysis, one numbered reference
per line under a "Sources:" or "References:" title, a YAML ``sources:`` key included::

    sources:
      - "[1] Rebalancing card, summary"
      - "[2] Implementation Cost and Leverage"

A document's title may be a gate's name, so the list named gates in the order the documents were retrieved and gave
them the verdicts of the records after it. :mod:`._footnotes` blanks such a block only at the end of the text; a block
whose every item opens with a reference mark ``[n]`` is a list of references wherever it stands, and
:func:`blank_source_lists` blanks it (offsets kept). The original text is untouched: a citation is still read from it.
"""

from __future__ import annotations

import re

from ipb.scoring.parse._blank_lines import blank_lines
from ipb.scoring.verdict_words import FINAL_LABEL

__all__ = ["blank_source_lists"]

#: A sources title alone on its line: "Sources:", "## References", "**Retrieved:**", a YAML key "sources:".
_HEAD = re.compile(
    r"(?i)[ \t]*(?:#{1,6}[ \t]*)?(?:(?:\*\*|__)[ \t]*)?(?:sources?|references?|citations?|retrieved(?:[ \t]+(?:sources|documents|cards))?)"
    r"[ \t]*(?:(?:\*\*|__)[ \t]*)?(?::[ \t]*)?(?:(?:\*\*|__)[ \t]*)?\Z")
#: An item of the list: a bullet (optional), an opening quote (optional) and a reference mark "[n]" with words after it.
_ITEM = re.compile(r"[ \t]*(?:[-*\u2022\u2013][ \t]+)?[\"'\u201c]?\[\d{1,2}\][ \t]*\S")
#: The same list as one JSON or YAML key line: '"retrieved_cards_used": ["[1] Margin of Safety", "[2] ..."],'.
_INLINE_HEAD = re.compile(r"(?i)[ \t]*[\"']?(?:sources?|references?|citations?|retrieved(?:[_ -][a-z]{1,12}){0,3})[\"']?[ \t]*:[ \t]*\[")
#: Its value after the "[": quoted items that each open with a reference mark, then the closing "]".
_INLINE_ITEMS = re.compile(r"(?:[ \t]*[\"'][ \t]*\[\d{1,2}\][^\"'\n]*[\"'][ \t]*,?)+[ \t]*\][ \t]*,?[ \t]*")
#: The most items one list may have (a longer run is more than a list of sources).
MAX_ITEMS = 12


def _states_final(line: str) -> bool:
    head = line.split(":", 1)
    return len(head) == 2 and FINAL_LABEL.match(head[0].strip(" \t*_-\"'[]0123456789")) is not None


def blank_source_lists(text: str) -> tuple[str, int]:
    """``text`` with every sources title whose items all open with a reference mark ``[n]`` blanked, with its items
    (same length), and how many lines were.

    >>> t = "sources:\\n  - \\"[1] Drift card\\"\\n  - \\"[2] Strategic Not Tactical\\"\\ngate 1: PROCEED"
    >>> out, n = blank_source_lists(t)
    >>> n, out.endswith("gate 1: PROCEED"), len(out) == len(t), "Strategic" in out
    (3, True, True, False)
    >>> blank_source_lists("Sources:\\n- Gate 1: PROCEED\\n- Gate 2: REJECT")[1]  # items without [n]: not references
    0
    >>> t = '{\\n  "retrieved": ["[1] Economic Moat", "[2] Margin of Safety"],\\n  "moat": "pass"\\n}'
    >>> out, n = blank_source_lists(t)
    >>> n, "Moat" in out, '"moat": "pass"' in out
    (1, False, True)
    """
    if "[" not in text:
        return text, 0
    lines = text.split("\n")
    rows: list[int] = []
    i = 0
    while i < len(lines):
        if not _HEAD.match(lines[i]):
            inline = _INLINE_HEAD.match(lines[i])
            if inline is not None and _INLINE_ITEMS.fullmatch(lines[i], inline.end()) is not None:
                rows.append(i)  # the whole list on its key's line
            i += 1
            continue
        j = i + 1
        while j < len(lines) and j - i <= MAX_ITEMS and _ITEM.match(lines[j]) and not _states_final(lines[j]):
            j += 1
        ends_list = j >= len(lines) or not _ITEM.match(lines[j])
        if j > i + 1 and ends_list:
            rows.extend(range(i, j))
        i = j
    return (blank_lines(text, rows), len(rows)) if rows else (text, 0)
