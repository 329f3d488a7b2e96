"""The regime branch's own outcome, when the final verdict names the card's generic one and its object (issue 13; s59tune).

A card whose regime gate selects a branch gives each branch its own pass and fail outcomes: the economic-machine card
passes as ``TILT`` in general but as ``TILT_TO_EQUITIES_AND_CREDIT`` in the rising-growth, falling-inflation quadrant.
A writer's closing "He is tilting toward the country's equities and credit" was read as the generic ``TILT``
(n55-b-hive-summary-chunk-quadrant), although the sentence names which tilt.

:func:`branch_outcome` refines a final verdict equal to the card's generic pass or fail outcome to a branch outcome
that extends it (``TILT`` -> ``TILT_TO_...``) when the sentence of the verdict, from the verdict on, holds at least half
of that branch outcome's own words (those after the generic word, less "to", "and", "of", "the"; a word counts by its
first five letters, so "equity" finds EQUITIES) and no other branch outcome's. "Tilt toward rising-growth,
falling-inflation assets" names one of four words of ``TILT_TO_INFLATION_LINKED_BONDS_AND_GOLD``: no refinement, the
generic ``TILT`` stays. The scan is bounded (:data:`WINDOW` characters) and uses no backtracking pattern.
"""

from __future__ import annotations

import re
from typing import Any, Final

__all__ = ["branch_outcome"]

#: The most characters after the verdict read as its sentence.
WINDOW: Final = 240
_FILLER: Final = frozenset({"to", "and", "of", "the", "in", "into"})
_WORD = re.compile(r"[a-z]+")
_SENTENCE_END = re.compile(r"[.!?;\n]")
_PREFIX: Final = 5


def _own_words(outcome: str, generic: str) -> list[str]:
    words = outcome.lower().split("_")[len(generic.split("_")):]
    return [w[:_PREFIX] for w in words if w and w not in _FILLER]


def branch_outcome(card: Any, final: str | None, span: tuple[int, int] | None, low: str) -> str | None:
    """The branch outcome the verdict's sentence names (the module docstring's rule), or None to keep ``final``.

    ``low`` is the lower-cased answer text the span indexes.
    """
    if final is None or span is None:
        return None
    outcomes = getattr(card, "outcomes", {}) or {}
    if final not in (outcomes.get("pass"), outcomes.get("fail")):
        return None
    side = "pass" if final == outcomes.get("pass") else "fail"
    candidates = {getattr(b, f"{side}_outcome") for g in card.gates for b in g.branches.values()}
    candidates = {c for c in candidates if c != final and c.startswith(final + "_")}
    if not candidates:
        return None
    start = span[0]
    window = low[start : start + WINDOW]
    end = _SENTENCE_END.search(window, span[1] - start)
    heard = {w[:_PREFIX] for w in _WORD.findall(window[: end.start() if end else len(window)])}
    named = []
    for outcome in sorted(candidates):
        own = _own_words(outcome, final)
        if own and 2 * sum(w in heard for w in own) >= len(own):
            named.append(outcome)
    return named[0] if len(named) == 1 else None
