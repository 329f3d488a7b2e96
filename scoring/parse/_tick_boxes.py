"""Verdict words offered in tick boxes: only the ticked one is stated (issue 13, options offered; paper §7.5; s52break #5).

A writer filling in a form may keep every option and tick one: "Gate 2: [ ] PROCEED [x] REJECT", "☐ PROCEED ☑ REJECT",
a task list "- [ ] PROCEED" / "- [x] REJECT", "Final verdict: [ ] INVEST [x] DECLINE". An option after an empty box
(``[ ]``, ``[]``, ``☐``, ``□``) is offered, not taken: it states no verdict. An option after a ticked box (``[x]``,
``[X]``, ``☑``, ``☒``) is the writer's; the box itself is no status icon of its own (``☑`` alone is read as a
PROCEED icon, but before a verdict word it only marks that word). A form with every box empty states nothing.

Both readers take the masked answer and a word's offsets; the look-back is bounded (a box sits right before its word).
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["boxed_icon", "unticked"]

#: An empty tick box, then at most spaces and emphasis, right before a word.
_EMPTY_BOX: Final = re.compile(r"(?:\[[ \t]?\]|[\u2610\u25a1])[ \t*_]*\Z")
#: The ballot boxes that are ticked or crossed: marks of a choice when a word follows them.
_BALLOT_TICKS: Final = frozenset({"\u2611", "\u2612"})
#: What may stand between a box and the word it marks.
_GAP: Final = re.compile(r"[ \t*_]*")


def unticked(text: str, start: int) -> bool:
    """Whether the word starting at ``start`` follows an empty tick box on its line: an option not taken.

    >>> t = "Gate 2: [ ] PROCEED [x] REJECT"
    >>> unticked(t, t.index("PROCEED")), unticked(t, t.index("REJECT")), unticked("- [] pass", 5)
    (True, False, True)
    >>> unticked("\\u2610 PROCEED \\u2611 REJECT", 2), unticked("Gate 1: PROCEED", 8)
    (True, False)
    """
    line_start = text.rfind("\n", max(0, start - 12), start) + 1
    return _EMPTY_BOX.search(text, max(line_start, start - 12), start) is not None


def boxed_icon(text: str, start: int, end: int, word_starts: set[int]) -> bool:
    """Whether the hit ``text[start:end]`` is a ticked ballot box (☑, ☒) marking the verdict word right after it (a
    start in ``word_starts``), and so no icon of its own.

    >>> boxed_icon("\\u2610 PROCEED \\u2611 REJECT", 10, 11, {2, 12}), boxed_icon("\\u2611 34 names", 0, 1, {5})
    (True, False)
    """
    if text[start:end] not in _BALLOT_TICKS:
        return False
    gap = _GAP.match(text, end)
    return gap is not None and gap.end() in word_starts
