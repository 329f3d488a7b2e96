"""A classifying gate's regime named in the writer's words, and where naming it places the case (issue 13, s28).

A regime is read by its id's words ("slow_grower": "slow grower") and by the plain words writers use for it
(:data:`REGIME_SYNONYMS`: Lynch's "sluggard" for a slow grower, "overheated" for a hot market). Inside the classifying
gate's own section any such naming is the gate's reading. Elsewhere (another gate's section, or prose with no
sections) it places the case only when it is said of the case (:func:`placed`): predicated ("it's a sluggard", "the
market is hot", "we are in a bubble") or naming the case ("a turnaround story", "a cyclical name"); a regime mentioned
in passing ("the PEG matters for a fast grower", "not a slow grower") stays no reading.
"""

from __future__ import annotations

import re

__all__ = ["REGIME_SYNONYMS", "placed", "regime_pattern"]

#: Plain words for a regime id, beside the id's own words. Keys are regime ids as cards write them; a card whose
#: regimes are not here reads only the ids' words.
REGIME_SYNONYMS: dict[str, tuple[str, ...]] = {
    "slow_grower": ("sluggard", "slow-growth company", "slow-growth stock"),
    "fast_grower": ("fast-growing company", "fast-growth company", "fast-growth stock", "rapid grower", "high grower"),
    "stalwart": ("steady grower",),
    "asset_play": ("asset-rich", "hidden-asset play", "hidden asset play"),
    "turnaround": ("recovery story", "recovery play", "comeback story"),
    "cyclical": ("cyclic",),
    "hot": ("overheated", "frothy", "euphoric", "exuberant", "overheating"),
    "cold": ("fearful", "panicked", "depressed", "washed out", "washed-out"),
    "bubble": ("bubbly",),
    "deleveraging": ("deleveraging phase",),
}

#: Words just before a regime that say it of the case: a copula or placing verb, an optional article or adverb.
_BEFORE = re.compile(
    r"(?i)(?:\b(?:is|are|was|were|be|being|been|remains|stays|seems|looks|reads|counts|qualifies|classif\w*|categori[sz]\w*|"
    r"file[sd]?|put|place[sd]?|call|it's|that's|we're|they're|'s|'re|as|in|into|at|like|enter\w*|so|thus|hence|therefore|"
    r"makes?[ \t]+it|making[ \t]+it|call(?:s|ed)?[ \t]+it)"
    r"|(?:category|phase|regime|stage|temperature|verdict|classification|bucket)\s*[:=-])"
    r"[ \t]+(?:(?:still|now|clearly|firmly|squarely|solidly|plainly|probably|likely|very|quite|textbook|classic|"
    r"a|an|the|its|late|early|full)[ \t]+){0,3}$")
#: Words right after a regime that name the case by it ("a turnaround story", "a cyclical name", "bubble territory").
_AFTER = re.compile(r"(?i)[ \t-]+(?:story|name|stock|company|business|play|situation|case|phase|stage|territory|regime|"
                    r"market|conditions|zone)\b")
_NEGATED = re.compile(r"(?i)\b(?:not|no|never|hardly|isn't|aren't|wasn't|rather than|instead of)\b[^.;:\n]{0,25}$")


def regime_pattern(words: list[str]) -> str:
    """The regex body of one regime phrase (words joined by spaces, underscores, slashes, commas or hyphens)."""
    return r"[\s_/,-]+(?:and\s+)?".join(re.escape(part) for part in words)


def placed(text: str, start: int, end: int) -> bool:
    """Whether the regime named at ``text[start:end]`` is said of the case (see the module docstring).

    >>> placed("Frankly it's a sluggard.", 15, 23), placed("The PEG matters for a fast grower.", 22, 33)
    (True, False)
    >>> placed("A turnaround story, then.", 2, 12), placed("This is not a slow grower.", 14, 25)
    (True, False)
    """
    before = text[max(0, start - 60) : start]
    if _NEGATED.search(before[-40:]):
        return False
    line_start = before.rfind("\n") + 1
    if not before[line_start:].strip(" \t*_#>-"):
        return bool(re.match(r"[ \t]*[:.!]", text[end : end + 3]))  # "Slow grower." or "Sluggard: ..." alone at a line start
    return bool(_BEFORE.search(before) or _AFTER.match(text, end))
