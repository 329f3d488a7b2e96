"""A verdict keyword the writer sets down as a sentence of its own (s49parse; issue 13, the n46 blind batch).

Checklists in the wild close a criterion's item with the verdict alone, after the reasoning: "... does not arise.
PROCEED.", "... cut-off in [2]. ❌ REJECT", "Too-hard pile? Nope! ... PROCEED ✅". That word is the verdict stated
for the gate, as a "Verdict:" field is: it outranks a verb or an answer particle earlier in the item ("25% meets the
25% cut-off", "does not arise", "Nope") that was read at a label's level only because it came first.

Only the card's verdict keywords count, written in capitals (PROCEED, REJECT, INCONCLUSIVE, N/A, PASS, FAIL and their
past forms), and only when nothing but marks, icons, brackets or punctuation share the sentence with the word. A yes,
a no or an OK alone is an answer particle whose polarity depends on the question, and stays as it is read.

>>> stands_alone("The price is 75% of value. PROCEED.", 27, 34, 27, 35)
True
>>> stands_alone("25% meets the cut-off [2]. \u274c REJECT", 29, 35, 27, 35)
True
>>> stands_alone("Margin of safety: REJECT.", 18, 24, 0, 25)
False
>>> stands_alone("Proceed.", 0, 7, 0, 8)
False
>>> stands_alone("NO.", 0, 2, 0, 3)
False
"""

from __future__ import annotations

import re

__all__ = ["stands_alone", "STATED_KEYWORDS"]

#: The verdict keywords that state a verdict when written alone in capitals.
STATED_KEYWORDS = frozenset({
    "PROCEED", "PROCEEDS", "REJECT", "REJECTED", "INCONCLUSIVE", "N/A", "PASS", "PASSES", "PASSED", "FAIL", "FAILS",
    "FAILED",
})

#: What may share the sentence with the keyword: no letter and no digit (marks, icons, brackets, punctuation, space).
_NOTHING_SAID = re.compile(r"[\W_]*")


def stands_alone(text: str, start: int, end: int, unit_start: int, unit_end: int) -> bool:
    """Whether ``text[start:end]`` is a capitalised verdict keyword and the only word of its sentence
    ``text[unit_start:unit_end]``."""
    if text[start:end] not in STATED_KEYWORDS:
        return False
    before, after = text[unit_start:start], text[end:unit_end]
    return _NOTHING_SAID.fullmatch(before) is not None and _NOTHING_SAID.fullmatch(after) is not None
