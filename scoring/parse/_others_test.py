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
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any, Final, Sequence

from ipb.scoring import verdict_words as vw

__all__ = ["NEAR", "others_standard", "others_test", "figure_fails_card", "figure_fails_necessary"]

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
    if not others_standard(text, end, ceiling, investor):
        return False
    # a party's standard alone may be the writer's own method or fund ("ROIC 19% passes Town's 15% bar" in notes on
    # Munger via Phil Town; "clears the fund's bar" from the fund's manager): it is another's only set against the
    # card's, the card investor's or the writer's standard in the same unit ("fails Lynch's PEG test but passes
    # Graham's", "clears the bank's 8% hurdle but not mine")
    return _contrast(investor).search(text, max(floor, end - NEAR), min(ceiling, end + NEAR)) is not None


def others_standard(text: str, end: int, ceiling: int, investor: str) -> bool:
    """Whether the verdict word ending at ``end`` has, as its object, a standard whose possessor is another party than
    the card's investor, the card, the company, a time or the writer ("passes Lynch's growth-at-a-price test", "clears
    the bank's screen"), contrasted or not (:func:`others_test` asks for the contrast; :func:`figure_fails_card` for a
    figure the card's own bar reads the other way).

    >>> others_standard("P/E 19, which passes Lynch's test.", 20, 34, "Benjamin Graham")
    True
    >>> others_standard("at 12x it passes Graham's test.", 16, 31, "Benjamin Graham")
    False
    """
    m = _OBJECT.match(text, end, min(ceiling, end + 90))
    if m is None:
        return False
    who = m.group(1).lower().strip(".-")
    return not (who in _OWN_POSSESSORS or who in _names(investor) or who in ("my", "our", "your", "his", "her", "their"))


def figure_fails_card(figures: Sequence[Any], bars: Sequence[Any] | None, verdict: str) -> bool:
    """Whether the figures stated before a verdict word, of the kind of the gate's one bar (:func:`._thresholds.gate_bars`),
    all give the card's test the verdict other than ``verdict`` (break43 #2: on Graham's card "P/E 19, which passes Lynch's
    growth-at-a-price test" read PROCEED 0.95, though 19x is over Graham's 15x). ``figures``: the number reader's
    matches (``unit``, ``value``); ``bars``: the gate's bars. A gate with no bar or two, or no figure of its kind, is
    no reading (False); so are two figures that disagree.

    >>> from decimal import Decimal
    >>> from types import SimpleNamespace as N
    >>> from ipb.scoring.parse._thresholds import Bar
    >>> pe = [Bar("pe_ratio", "<=", Decimal(15), "multiple", "PROCEED")]
    >>> figure_fails_card([N(unit="multiple", value=19.0)], pe, "PROCEED"), figure_fails_card([N(unit="multiple", value=12.0)], pe, "PROCEED")
    (True, False)
    """
    if not bars or len(bars) != 1 or verdict not in (vw.PROCEED, vw.REJECT):
        return False
    bar = bars[0]
    seen = set()
    for f in figures:
        if f.unit != bar.unit:
            continue
        try:
            seen.add(bar.verdict(Decimal(str(f.value))))
        except (InvalidOperation, ValueError):
            return False
    return len(seen) == 1 and verdict not in seen


def figure_fails_necessary(figures: Sequence[Any], bars: Sequence[Any] | None, verdict: str) -> bool:
    """Whether a PROCEED ``verdict`` is stated beside a figure that fails one of the bars the gate's test cannot pass
    without (:func:`._thresholds.necessary_bars`: Graham's ``pe_3yr <= 15x`` inside ``eps_3yr_avg > $0 and pe_3yr <=
    15x``); the figures of each bar's kind must agree, and one bar's kind must be the only one among those bars.

    >>> from decimal import Decimal
    >>> from types import SimpleNamespace as N
    >>> from ipb.scoring.parse._thresholds import Bar
    >>> bars = [Bar("eps", ">", Decimal(0), "money", "PROCEED"), Bar("pe", "<=", Decimal(15), "multiple", "PROCEED")]
    >>> figure_fails_necessary([N(unit="multiple", value=19.0)], bars, "PROCEED")
    True
    >>> figure_fails_necessary([N(unit="multiple", value=12.0)], bars, "PROCEED"), figure_fails_necessary([N(unit="multiple", value=19.0)], bars, "REJECT")
    (False, False)
    """
    if not bars or verdict != vw.PROCEED:
        return False
    kinds = [b.unit for b in bars]
    return any(kinds.count(b.unit) == 1 and figure_fails_card(figures, [b], verdict) for b in bars)


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
