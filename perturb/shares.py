"""How a run's N items are split among its recipes (even or ``--mix`` shares, passed on when a recipe runs out)
and chosen for ``--balance`` (docs/perturbation.md, "Recipes, N, balance, shortfall"). Split from
:mod:`ipb.perturb.generation` (module size limit); the names there keep their leading underscore."""

from __future__ import annotations

from collections import Counter
from math import ceil
from typing import TYPE_CHECKING, Sequence

from ipb.perturb.runs import RecipeReport

if TYPE_CHECKING:
    from ipb.perturb.generation import Candidate

__all__ = ["even_shares", "weighted_shares", "redistribute", "select_balanced", "grow_for_balance",
           "BALANCE_POOL_LIMIT"]

#: With ``--balance``, while a verdict is short of an even share, the whole pool grows up to this many times N.
BALANCE_POOL_LIMIT = 10


def even_shares(n: int, k: int) -> list[int]:
    """``n`` split into ``k`` near-equal shares, the earlier recipes one more.

    >>> even_shares(10, 3)
    [4, 3, 3]
    """
    return [n // k + (1 if i < n % k else 0) for i in range(k)]


def weighted_shares(n: int, weights: Sequence[float]) -> list[int]:
    """``n`` split in proportion to ``weights``, largest remainders first (ties: earlier recipe).

    >>> weighted_shares(10, [0.4, 0.2, 0.4]), weighted_shares(7, [0.5, 0.5])
    ([4, 2, 4], [4, 3])
    """
    raw = [n * w for w in weights]
    shares = [int(x) for x in raw]
    order = sorted(range(len(raw)), key=lambda i: (-(raw[i] - shares[i]), i))
    for i in order[: n - sum(shares)]:
        shares[i] += 1
    return shares


def redistribute(targets: list[int], have: list[int], reports: list[RecipeReport]) -> None:
    """Give the unmet share of exhausted recipes to the recipes that can still grow."""
    deficit = sum(max(0, t - h) for t, h, rep in zip(targets, have, reports) if rep.exhausted)
    growing = [r for r, rep in enumerate(reports) if not rep.exhausted]
    if deficit <= 0 or not growing:
        return
    for r, rep in enumerate(reports):
        if rep.exhausted:
            targets[r] = have[r]
    for extra, r in zip(even_shares(deficit, len(growing)), growing):
        targets[r] += extra


def select_balanced(pools: list[list[Candidate]], n: int, ranks: dict[tuple[int, int], int]) -> list[Candidate]:
    """Take candidates so each verdict gets as equal a share as the pool allows."""
    merged = sorted((c for pool in pools for c in pool), key=lambda c: (ranks[(c.recipe, c.attempt)], c.recipe))
    buckets: dict[str, list[Candidate]] = {}
    for c in merged:
        buckets.setdefault(c.label or "", []).append(c)
    labels = sorted(buckets)
    if not labels:
        return []
    take = dict(zip(labels, even_shares(n, len(labels))))
    take = {lab: min(q, len(buckets[lab])) for lab, q in take.items()}
    left = n - sum(take.values())
    while left > 0:
        spare = [lab for lab in labels if len(buckets[lab]) > take[lab]]
        if not spare:
            break
        for lab in spare:
            if left == 0:
                break
            take[lab] += 1
            left -= 1
    return [c for lab in labels for c in buckets[lab][: take[lab]]]


def grow_for_balance(targets: list[int], pools: list[list[Candidate]], reports: list[RecipeReport], n: int,
                     cap: list[int]) -> bool:
    """Enlarge the pools when a verdict that occurs is still short of an even share; False when done.

    The rarest verdict's share of the pool so far estimates how much more
    must be drawn; recipes stop at their attempt cap or when exhausted.
    """
    counts = Counter(c.label for pool in pools for c in pool)
    if len(counts) < 2 or sum(counts.values()) >= BALANCE_POOL_LIMIT * n:
        return False  # one verdict only, or the pool is already ten times N: as even as it gets
    quota = ceil(n / len(counts))
    rarest = min(counts.values())
    total = sum(counts.values())
    if rarest >= quota:
        return False
    growing = [r for r, rep in enumerate(reports) if not rep.exhausted and rep.attempts < cap[r]]
    if not growing:
        return False
    extra = ceil((quota - rarest) * total / max(1, rarest))
    for share, r in zip(even_shares(extra, len(growing)), growing):
        targets[r] = len(pools[r]) + share
    return True
