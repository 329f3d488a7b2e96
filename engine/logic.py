"""Three-valued (Kleene) truth and gate verdicts.

A fact missing from a scenario is *unknown*. Truth values are Python's
``True`` and ``False`` plus ``None`` for unknown, so that compiled criteria stay
cheap; the connectives below follow Kleene's strong logic (paper §7.3: a gate
whose criterion is not decided by the evidence is INCONCLUSIVE).

>>> kleene_and(False, None), kleene_or(True, None), kleene_not(None)
(False, True, None)
"""

from __future__ import annotations

from enum import Enum
from typing import Optional

__all__ = ["Truth", "Verdict", "kleene_and", "kleene_or", "kleene_not", "gate_verdict"]

#: True, False, or None for unknown.
Truth = Optional[bool]


class Verdict(str, Enum):
    """A gate's verdict (paper §7.3), plus N/A for a gate the chain never reached."""

    PROCEED = "PROCEED"
    REJECT = "REJECT"
    INCONCLUSIVE = "INCONCLUSIVE"
    NOT_REACHED = "N/A"

    def __str__(self) -> str:
        return self.value


def kleene_and(a: Truth, b: Truth) -> Truth:
    """Strong Kleene conjunction: False if either is False, unknown if either is unknown."""
    if a is False or b is False:
        return False
    if a is None or b is None:
        return None
    return True


def kleene_or(a: Truth, b: Truth) -> Truth:
    """Strong Kleene disjunction: True if either is True, unknown if either is unknown."""
    if a is True or b is True:
        return True
    if a is None or b is None:
        return None
    return False


def kleene_not(a: Truth) -> Truth:
    """Kleene negation: unknown stays unknown."""
    return None if a is None else not a


def gate_verdict(proceed: Truth, reject: Truth) -> Verdict:
    """A gate's verdict from its two criteria.

    The kill criterion wins: REJECT when ``reject`` is True; PROCEED when
    ``proceed`` is True and ``reject`` is False; otherwise the evidence does not
    decide the gate and it is INCONCLUSIVE (paper §7.3).

    >>> gate_verdict(True, False), gate_verdict(None, True), gate_verdict(True, None)
    (<Verdict.PROCEED: 'PROCEED'>, <Verdict.REJECT: 'REJECT'>, <Verdict.INCONCLUSIVE: 'INCONCLUSIVE'>)
    """
    if reject is True:
        return Verdict.REJECT
    if proceed is True and reject is False:
        return Verdict.PROCEED
    return Verdict.INCONCLUSIVE
