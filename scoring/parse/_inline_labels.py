"""A gate's name or alias used as a label in the middle of a paragraph (issue 13, detection round 2; s28).

Writers who do not break lines still label their points: "...; on leverage: fine", "As for management - trustworthy.",
"The moat is wide. Valuation: rich at 30x." The label opens a clause (after a sentence or clause break, or at the
paragraph's start), may be introduced by a topic phrase ("on", "as for", "as to", "regarding", "turning to"), and is
followed by a colon or a dash and the writer's words on it. Such a gate is discussed, even where the words after the
label hold no verdict word the parser knows; a name met in passing ("unlike the moat, management matters") is not a
label.
"""

from __future__ import annotations

import re

from ipb.scoring.parse._common import _Mention

__all__ = ["inline_label", "labels_alone"]

_OPENS = re.compile(
    r"(?i)(?:^|[.;!?\u2014\u2013]|[ \t]-[ \t]|,[ \t]+(?:and|but)\b)[ \t*_]*(?:(?:and|but|now|then|finally|lastly|next)[ \t,]+)?"
    r"(?:(?:on|as[ \t]+for|as[ \t]+to|as[ \t]+regards|regarding|re|turning[ \t]+to|concerning)[ \t]+)?"
    r"(?:(?:the|its|their|our)[ \t]+)?[*_]*$")
_CLOSES = re.compile(r"[*_]*+(?:[ \t]*+(?::|\u2014|\u2013)|[ \t]++[-\u2013\u2014][ \t]+)[ \t]*+[*_]*[^\s:\-\u2013\u2014]")


def inline_label(text: str, start: int, end: int) -> bool:
    """Whether the gate named at ``text[start:end]`` is a label inside a paragraph (see the module docstring).

    >>> t = "Earnings are steady; on leverage: fine, little debt."
    >>> inline_label(t, t.index("leverage"), t.index("leverage") + 8)
    True
    >>> t = "As for management - trustworthy."
    >>> inline_label(t, 7, 17)
    True
    >>> t = "Unlike leverage, management: honest."
    >>> inline_label(t, 7, 15)
    False
    """
    if not _CLOSES.match(text, end):
        return False
    line_start = text.rfind("\n", 0, start) + 1
    a = max(line_start, start - 60)
    window = text[a:start] if a == line_start else "x" + text[a:start]  # "^" is the line's start, never the window's
    return bool(_OPENS.search(window))


def labels_alone(text: str, mention: _Mention) -> bool:
    """Whether ``mention`` names one gate by its name or an alias as a label inside a paragraph (:func:`inline_label`)."""
    return len(mention.gates) == 1 and mention.how in ("name", "alias", "translation", "term") and inline_label(text, mention.start, mention.end)
