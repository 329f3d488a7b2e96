"""A verdict verb whose subject is the card or its rule states the rule, not the case (issue 13; s59tune).

A writer who checks a case against the card often restates the rule before applying it: "The card proceeds on a
positive average over at least five years", "the framework rejects a growth rate above 20%", "the rule passes when the
spread is at least 10%". The verb there tells when the card would give a verdict; it is no verdict of the case, and the
writer's own one follows ("... so the earnings base is undecided"). Read as the case's, "proceeds" won over the
writer's INCONCLUSIVE (n55-a-giv2-scorecard-card, gate 1).

:func:`states_the_rule` holds when the two words before the verb are a determiner and a noun naming the card or its
rule (:data:`RULE_NOUNS`) and the words after the verb open a condition or a class of cases: "when", "if", "unless",
"only", "whenever", "any", "a" / "an", or "on" followed by "a", "an" or "any". "The checklist fails this company" or
"the screen rejects it" (a case's object) still read as verdicts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

__all__ = ["states_the_rule"]

#: Nouns naming the card or its rule as a whole (never a gate of the case: "the gate fails on ..." may be the case's).
RULE_NOUNS: Final = frozenset({"card", "framework", "rule", "rulebook", "checklist", "method", "methodology", "procedure"})
_DETERMINERS: Final = frozenset({"the", "this", "our", "my"})
#: Words opening a condition or a class of cases right after the verb.
_CONDITION: Final = frozenset({"when", "whenever", "if", "unless", "only", "any", "a", "an"})
_ON_CLASS: Final = frozenset({"a", "an", "any"})


def states_the_rule(words_before: Sequence[str], words_after: Sequence[str]) -> bool:
    """Whether a verdict verb between these words states the card's rule (the module docstring's conditions).

    >>> states_the_rule(["1", "the", "card"], ["on", "a", "positive"]), states_the_rule(["the", "framework"], ["a", "g"])
    (True, True)
    >>> states_the_rule(["the", "card"], ["this", "company"]), states_the_rule(["the", "gate"], ["when", "the"])
    (False, False)
    >>> states_the_rule(["the", "rule"], ["on", "price"])
    False
    """
    if len(words_before) < 2 or words_before[-1] not in RULE_NOUNS or words_before[-2] not in _DETERMINERS:
        return False
    if not words_after:
        return False
    first = words_after[0]
    if first in _CONDITION:
        return True
    return first == "on" and len(words_after) > 1 and words_after[1] in _ON_CLASS
