"""How many distinct scenarios one kind of draw can reach, and when a run's attempts have spent them.

Metric substitution picks how many inputs to change (1 to 3) and sector
substitution picks a sector; each pick opens a *sub-space* of scenarios
(the single-input changes of the Buffett card are only 922 of them; the
financials sector of the same card reaches 208 combinations of its
sector-typical metrics). Uniform picks go on drawing from a small sub-space
long after it is exhausted: at 100,000 items a third of the metric attempts
and a quarter of the sector attempts were duplicates, each a full operator
run thrown away (issue 18, item 7).

A pick is *spent* at attempt ``j`` when the attempts before ``j`` have, in
expectation, drawn from its sub-space twice as many times as it has scenarios (``j / ways > 2 * size``, ``ways``
being how many picks there are): drawn uniformly, about 86% of it has been
seen by then, and most further draws would repeat one (a sub-space drawn
unevenly, such as one input of a short grid against one of a long grid, is
seen less completely). A spent pick is replaced by a uniform choice among the picks that are not spent (one
extra random number, only then). The test is a function of the attempt
number and the frame alone, never of what a run has taken so far, so an
attempt draws the same scenario in any process and the items do not depend
on ``--workers``; a short run (1,000 items) spends nothing and draws as
before.
"""

from __future__ import annotations

import random
from typing import Sequence

__all__ = ["SPENT", "spent", "subset_sizes", "unspent"]

#: A pick is spent once the expected draws from its sub-space reach this many times its size.
SPENT = 2.0


def spent(size: int, attempt: int, ways: int) -> bool:
    """True when ``attempt`` attempts, picking one of ``ways`` sub-spaces uniformly, have drawn more than
    ``SPENT * size`` times from one of ``size`` scenarios.

    >>> spent(922, 4000, 3), spent(922, 5532, 3), spent(922, 5533, 3)
    (False, False, True)
    """
    return attempt > SPENT * size * ways


def subset_sizes(counts: Sequence[int], most: int) -> list[int]:
    """The number of ways to change exactly ``k`` of the inputs, for ``k`` = 1 .. ``most``.

    ``counts[i]`` is how many new values input ``i`` can take; the result is
    the elementary symmetric sums ``e_1 .. e_most`` of ``counts`` (a change of
    ``k`` inputs picks ``k`` of them and a new value of each).

    >>> subset_sizes([2, 3, 4], 3)
    [9, 26, 24]
    """
    sums = [1] + [0] * most
    for c in counts:
        for k in range(most, 0, -1):
            sums[k] += sums[k - 1] * c
    return sums[1:]


def unspent(pick: int, sizes: Sequence[int], attempt: int, rng: random.Random) -> int:
    """``pick`` (an index into ``sizes``) if its sub-space is not spent at ``attempt``, else a uniform
    choice among those that are not (``pick`` when all are spent).

    >>> unspent(0, [10, 10**6], 40, random.Random(0)), unspent(0, [10, 10**6], 41, random.Random(0))
    (0, 1)
    """
    ways = len(sizes)
    if attempt <= 0 or not spent(sizes[pick], attempt, ways):
        return pick
    open_ = [i for i, size in enumerate(sizes) if not spent(size, attempt, ways)]
    return open_[rng.randrange(len(open_))] if open_ else pick
