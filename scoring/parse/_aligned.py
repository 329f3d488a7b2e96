"""A writer's own numbered list whose item titles line up with the card's gates in order (issue 13, class G-B: the gate
is never found; paper §7.5, paraphrase matching).

Wild analyses often walk through the card's criteria under numbered titles of the writer's own, one per criterion,
and judge each in their own words rather than with a verdict word: "1. Price against value", "2. Is the return worth
the risk?", "3. Could we lose money for good?" on a five-gate card. :mod:`._positional` reads a run of items by
position only when half of its items state a verdict word, because a list of facts or of the writer's own questions is
not a checklist by its length alone. This module gives such a run a second way in: the titles themselves show that the
list follows the card.

A numbered run (1..N, N the card's gate count) is **aligned** when, weighing each item's title (its label, else its
first sentence) against every gate's prose vocabulary (:func:`._prose_vocabulary.clause_weights`: the stems only that
gate's texts hold):

- no title weighs at least :data:`._prose_vocabulary.MIN_SCORE` for a gate other than its own place's and as much as
  for that one (one title in the words of another gate, or tied between two, breaks the alignment: "2) Did the market
  agree?" under a card whose gate 1 is the thesis's confirmation is that gate, not gate 2);
- at least half of the titles, and at least two, confirm their place: their place's gate weighs at least
  ``MIN_SCORE`` and strictly more than any other gate, or the parser already matched the item to that gate by a name
  (a number alone confirms nothing).

The other items are then read by their place as well, as a reader who sees the list follow the card does. It is a
reading of the list's order from a few of its titles, so a gate met this way is recognised as ``aligned`` with the
confidence factor 0.7 (:data:`._confidence.RECOGNITION`): any verdict read on it stays under the 0.7 review bar.

>>> from ipb.engine.registry import compiled_card
>>> card = compiled_card("marks_risk_return_assessment").card
>>> aligned(card, ["Value check", "Is the return worth the risk?", "Losing money", "What does everyone else think?",
...                "Where is the pendulum?"], [None] * 5)
True
>>> aligned(card, ["Where is the pendulum?", "Is the return worth the risk?", "x", "y", "z"], [None] * 5)
False
"""

from __future__ import annotations

from collections.abc import Sequence

from ipb.engine.card import Card
from ipb.scoring.parse._prose_vocabulary import MIN_SCORE, clause_weights

__all__ = ["ALIGNED", "aligned"]

#: How a gate met by its item's place in an aligned run is recognised (GateTrace.how).
ALIGNED = "aligned"


def aligned(card: Card, titles: Sequence[str], named: Sequence[int | None]) -> bool:
    """Whether a numbered run with these item titles follows the card's gates in order (the module docstring's rules).

    Parameters
    ----------
    card
        The card; ``len(titles)`` is its gate count.
    titles
        Item k's title (1-based k = position + 1): its label or first sentence, in the answer's own case.
    named
        The gate the parser matched item k to by a name, alias or words (None: by nothing, or by its number only).

    Returns
    -------
    bool
        True when no title names another gate and at least half (and at least two) confirm their place.
    """
    confirmed = 0
    for k, (title, gate) in enumerate(zip(titles, named), start=1):
        if gate is not None:
            if gate != k:
                return False
            confirmed += 1
            continue
        weights = clause_weights(card, title.lower())
        if not weights:
            continue
        best = max(weights.values())
        if best < MIN_SCORE:
            continue
        if [g for g, w in weights.items() if w == best] != [k]:
            return False  # the title is in another gate's words, or tied between two
        confirmed += 1
    return confirmed >= 2 and 2 * confirmed >= len(titles)
