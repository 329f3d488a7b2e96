"""Mild appraisals: a gate's facts called "thin", "a bit rich", "slightly stretched" commit to no gate verdict (issue 13,
"final verdicts in the wild"; s53wild; paper §7.5).

The readers that judge a gate from an appraisal with no verdict word (:mod:`._prose`, how ``+appraisal``;
:mod:`._section_reading`, how ``+section``) read "the margin is thin" as the margin-of-safety gate's REJECT, as the
corpus labels a damning point. A careful reader takes such a remark as a lean, not the writer's verdict on the gate,
when the appraisal is mild, by a rule stated once here:

* a softening word of degree stands just before it (:data:`SOFTENERS`: "a bit rich", "slightly stretched", "somewhat
  thin", "a touch expensive", "fairly full", "kind of pricey"); or
* the appraisal is itself a word of degree short of a failure (:data:`MILD_WORDS`: thin, rich, full, tight, pricey,
  elevated, demanding, modest, stretched) and no intensifier stands before it (:data:`INTENSIFIERS`: "too thin",
  "far too rich", "very stretched", "dangerously thin" are failures stated outright).

A mild reading keeps its verdict (the corpus label is unchanged) with ``+mild`` in ``how`` (before the reader's own
suffix, so ``how`` still ends in ``+appraisal`` or ``+section``) and a confidence of at most :data:`MILD_CONFIDENCE`,
under the 0.7 review bar of ``ipb score --min-confidence``; and it is no commitment
(:func:`ipb.scoring.outcome.commits`): an answer whose only gate verdicts are mild appraisals, with no final verdict, is
filed ``no_commitment``. Tied to the gate's verdict ("the margin is thin, so the gate fails") the verdict word is read
and nothing here applies.
"""

from __future__ import annotations

import re

__all__ = ["MILD", "MILD_CONFIDENCE", "MILD_WORDS", "SOFTENERS", "INTENSIFIERS", "mild"]

#: The mark in ``how`` of a verdict read from a mild appraisal.
MILD = "+mild"
#: The highest confidence of a verdict read from a mild appraisal (under the 0.5 of a gate discussed without a verdict).
MILD_CONFIDENCE = 0.45
#: Appraisals that are words of degree short of a failure.
MILD_WORDS = frozenset({"thin", "rich", "full", "fullish", "tight", "pricey", "pricy", "elevated", "demanding", "modest",
                        "stretched"})
#: Softening words of degree, ending just before the appraisal (a word may stand between: "a bit on the rich side" is
#: not read; "a bit too rich" is intensified).
SOFTENERS = re.compile(r"(?:\ba[ \t]+(?:bit|little|touch|tad|shade)|\bslightly|\bsomewhat|\bfairly|\brather|\bkind[ \t]+of|"
                       r"\bsort[ \t]+of|\bmildly|\bmodestly|\bmarginally|\ba[ \t]+little[ \t]+bit)[ \t]+(?:[a-z-]+[ \t]+)?\Z")
#: Intensifiers that make a word of degree a failure stated outright.
INTENSIFIERS = re.compile(r"\b(?:too|very|far|extremely|dangerously|wafer|razor|paper|much|way|uncomfortably|excessively|"
                          r"overly|seriously|painfully|clearly|simply)[ \t-]+(?:[a-z-]+[ \t]+)?\Z")


def mild(low: str, start: int, end: int) -> bool:
    """Whether the appraisal at ``low[start:end]`` (lower-case text) is mild: a softener before it, or a word of
    :data:`MILD_WORDS` with no intensifier before it (module docstring).

    >>> [mild(t, t.index(w), t.index(w) + len(w)) for t, w in (("the margin is thin", "thin"),
    ...     ("valuation is a bit rich", "rich"), ("the margin is too thin", "thin"), ("the moat is eroding", "eroding"),
    ...     ("it looks slightly stretched", "stretched"), ("the balance sheet is weak", "weak"),
    ...     ("the balance sheet is somewhat weak", "weak"))]
    [True, True, False, False, True, False, True]
    """
    before = low[max(0, start - 30) : start]
    if SOFTENERS.search(before) and not INTENSIFIERS.search(before):
        return True
    return low[start:end].strip() in MILD_WORDS and INTENSIFIERS.search(before) is None
