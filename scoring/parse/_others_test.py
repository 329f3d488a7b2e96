"""A verdict word whose object is another party's test: "it fails Lynch's PEG test but passes Graham's" (issue 13,
break43 #1; paper §7.5: a reader credits an answer only with the writer's verdict on the card's gate).

The words right after a pass/fail word name what was passed: a possessive (a name or a common noun and ``'s``) and,
within three words, a noun of a standard (test, screen, bar, hurdle, limit, rule, criterion, ...). When the possessor
is neither the card's investor ("Graham's test" on Graham's card), nor the card or its framework ("the card's bar"),
nor the company under study ("the company's own hurdle"), nor a time ("this year's screen"), nor the writer, and the
same unit, within :data:`NEAR` characters, sets the card's, the card investor's or the writer's own standard against
it ("fails Lynch's PEG test but passes Graham's", "passes the bank's screen but not mine"), the verdict is measured
against another party's bar, not the gate's. A party's standard alone is left as the writer's: it may be the method
the writer follows ("passes Town's 15% bar" in notes on Munger via Phil Town) or the writer's own fund ("clears the
fund's bar"). The caller reads the word at the weak level (0.45, under the review bar), so the writer's own verdict
on the gate wins ("it fails Lynch's PEG test but passes Graham's" is PROCEED).

>>> t = "Moderate P/E: at 19x it passes the bank's screen but not mine."
>>> others_test(t, 0, t.index("passes") + 6, len(t), "Benjamin Graham")
True
>>> t = "Moderate P/E: at 19x it passes the bank's screen."
>>> others_test(t, 0, t.index("passes") + 6, len(t), "Benjamin Graham")
False
>>> t = "In my view it passes the bank's screen."
>>> others_test(t, 0, t.index("passes") + 6, len(t), "Benjamin Graham")
False
>>> t = "Moderate P/E: it fails Lynch's PEG test but passes Graham's."
>>> others_test(t, 0, t.index("fails") + 5, len(t), "Benjamin Graham")
True
>>> t = "Moderate P/E: it passes Graham's test at 12x."
>>> others_test(t, 0, t.index("passes") + 6, len(t), "Benjamin Graham")
False
>>> t = "ROIC near 19% passes Town's 15% bar comfortably."
>>> others_test(t, 0, t.index("passes") + 6, len(t), "Charlie Munger")
False
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

__all__ = ["NEAR", "others_test"]

#: How far either side of the verdict word (characters, within its unit) the contrasting standard is looked for: a
#: 1 MB unit is never scanned once per verdict word.
NEAR: Final = 200

#: Nouns of a standard something is measured against.
_STANDARDS = (r"(?:tests?|screens?|bars?|hurdles?|thresholds?|limits?|ceilings?|caps?|floors?|rules?|criteri(?:on|a)|"
              r"filters?|cut-?offs?|minimums?|maximums?|standards?|benchmarks?|requirements?|yardsticks?|checks?)")
#: Right after the verdict word: an optional determiner and up to two modifiers, the possessor and ``'s``, up to
#: three words, then the standard noun.
_OBJECT: Final = re.compile(
    r"[ \t]+(?:(?:the|a|an)[ \t]+)?(?:[\w-]+[ \t]+){0,2}?([\w&.-]+)['\u2019]s[ \t]+"
    r"(?:own[ \t]+)?(?:[\w.%/$-]+[ \t]+){0,3}?" + _STANDARDS + r"\b", re.IGNORECASE)
#: Possessors whose standard is the card's, the writer's or the company's own, or a time's ("this year's screen").
_OWN_POSSESSORS: Final = frozenset({
    "card", "framework", "checklist", "gate", "test", "rule", "screen", "model", "investor", "author", "company",
    "firm", "business", "stock", "issuer", "it", "one", "today", "year", "quarter", "month", "week", "decade", "day",
    "yesterday", "tomorrow", "season", "era", "cycle", "period",
})


def others_test(text: str, floor: int, end: int, ceiling: int, investor: str) -> bool:
    """Whether the verdict word ending at ``end`` has, as its object, another party's test (module docstring).

    Parameters
    ----------
    text
        The answer (original case: a possessor's capital matters nowhere, its word does).
    floor
        Offset of the start of the word's unit.
    end
        Offset just after the verdict word.
    ceiling
        Offset of the end of the word's unit (sentence or line); nothing past it is read.
    investor
        The card's investor, as the card writes it ("Benjamin Graham"): every word of it (and its possessive) is the
        card's own possessor.

    Returns
    -------
    bool
        True when the object names a possessor other than the card's investor, the card, the company, a time or the
        writer, and the unit names the card's, its investor's or the writer's own standard beside it.

    References
    ----------
    Paper §7.5 (structured response parsing); issue 13, break43 #1.
    """
    m = _OBJECT.match(text, end, min(ceiling, end + 90))
    if m is None:
        return False
    who = m.group(1).lower().strip(".-")
    if who in _OWN_POSSESSORS or who in _names(investor) or who in ("my", "our", "your", "his", "her", "their"):
        return False
    # a party's standard alone may be the writer's own method or fund ("ROIC 19% passes Town's 15% bar" in notes on
    # Munger via Phil Town; "clears the fund's bar" from the fund's manager): it is another's only set against the
    # card's, the card investor's or the writer's standard in the same unit ("fails Lynch's PEG test but passes
    # Graham's", "clears the bank's 8% hurdle but not mine")
    return _contrast(investor).search(text, max(floor, end - NEAR), min(ceiling, end + NEAR)) is not None


@lru_cache(maxsize=64)
def _names(investor: str) -> frozenset[str]:
    """The card investor's name words, lower-cased ("Benjamin Graham" -> benjamin, graham)."""
    return frozenset(w.lower() for w in re.findall(r"[\w-]+", investor))


@lru_cache(maxsize=64)
def _contrast(investor: str) -> re.Pattern[str]:
    """The card's, its investor's or the writer's own standard named in a unit: "Graham's", "the card's", "mine", "our
    own 15% hurdle" (case-insensitive)."""
    names = "|".join(re.escape(w) for w in sorted(_names(investor)) if len(w) > 2)
    mine = r"(?:my|our)[ \t]+(?:own[ \t]+)?(?:[\w.%/$-]+[ \t]+){0,2}?" + _STANDARDS
    return re.compile(rf"\b(?:(?:{names or '(?!)'}|card|framework)['\u2019]s|mine|ours|{mine})\b", re.IGNORECASE)
