"""A line that opens as a correction of one named gate: "Correction to gate 2: debt to equity is 20%, under the 50%
ceiling: PROCEED." (issue 13, "which statement wins", docs/scoring.md; paper §7.5; NEWUSER_s61 N6).

The label ("Correction to gate 2", "Update on the moat", "Revised gate 3", "Erratum, step 2") is no gate's name (it
opens no section, :mod:`._label_names`), so a verdict word the writer puts after the figure that corrects it ("... is
20%, under the 50% ceiling: PROCEED") was pinned to no gate and dropped, while a bare "Correction to gate 2: PROCEED."
was read by the gate mention right before the word. :func:`corrected_gate` gives such a word the one gate the
correction label names, when nothing else on its line claims it; the revision cue then makes it win over the gate's
earlier statements (:meth:`._verdicts._VerdictsMixin._revision`).

Every pattern is linear in its input (bounded repetitions, no nesting).
"""

from __future__ import annotations

import re
from typing import Any, Final

from ipb.scoring.parse._common import _Hit

__all__ = ["CORRECTION_LABEL", "corrected_gate"]

#: A line that opens with a correction label, up to the colon or dash that ends it ("Correction to gate 2:",
#: "**Update on gate 3** -", "> Erratum, step 2 \u2014"). The label is at most 60 characters and holds no sentence end.
CORRECTION_LABEL: Final = re.compile(
    r"[ \t>*_#-]{0,8}(?:correction|corrected|correcting|update[ds]?|revised|revision|erratum|addendum)\b"
    r"[^:\n.;!?\u2014\u2013]{0,60}?[*_]{0,2}[ \t]{0,8}(?::|\u2014|\u2013|[ \t]-[ \t])"
)


def corrected_gate(parser: Any, hit: _Hit) -> int | None:
    """The gate whose correction label opens ``hit``'s line, or None.

    ``parser``: the parser's state (its ``low`` text, ``_mentions_in`` and a ``correction_lines`` memo); ``hit``: a
    verdict word that no gate mention right around it claims. The label must name exactly one gate of the card
    (by number, name or alias) and end before the word, and no other gate may be named between the label and the word.

    Returns the gate's number (1-based).
    """
    low = parser.low
    line = low.rfind("\n", 0, hit.start) + 1
    memo: dict[int, tuple[int, int] | None] = parser.__dict__.setdefault("correction_lines", {})
    if line not in memo:
        memo[line] = None
        m = CORRECTION_LABEL.match(low, line)
        if m is not None:
            gates = {g for mention in parser._mentions_in(line, m.end()) for g in mention.gates}
            if len(gates) == 1:
                memo[line] = (next(iter(gates)), m.end())
    found = memo[line]
    if found is None:
        return None
    gate, end = found
    if hit.start < end:
        return None
    if any(g != gate for mention in parser._mentions_in(end, hit.start) for g in mention.gates):
        return None  # "Correction to gate 2: gate 3's figure ... PROCEED": the word may be gate 3's
    return gate


def in_correction_line(low: str, pos: int) -> bool:
    """Whether the line holding offset ``pos`` of the lower-cased answer ``low`` opens with a correction label that
    ends before ``pos`` ("Correction to gate 2: debt to equity is 20%, ..., so gate 2 is PROCEED": the word is the
    writer's revision however far along the line it stands).

    >>> in_correction_line("gate 2 fails.\\ncorrection to gate 2: the figure is 20%, so gate 2 is proceed.", 70)
    True
    >>> in_correction_line("gate 2 fails.\\nno correction is needed: proceed.", 40)
    False
    """
    m = CORRECTION_LABEL.match(low, low.rfind("\n", 0, pos) + 1)
    return m is not None and m.end() <= pos
