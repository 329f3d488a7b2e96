"""Near duplicates within a recipe: items of one operator must differ by a visible step of some fact (issue 18 item 4).

s52newuser finding 5: Marks's market-cycle card from one base at ``--n 500 --seed 3`` gave 425 isolate items over
25 distinct sets of its category facts, up to 60 items differing only by 0.1 percentage point of the high-yield
spread (one grid step: 0.005 of its 20-point declared range), and a nearest-neighbour median of 0.005. Each was a
distinct scenario (the run's exact duplicate key differs), but to a reader the sixty are one question asked sixty
times.

The rule (docs/perturbation.md, "Near duplicates"). A numeric fact's declared range is cut into
:data:`VISIBLE_BUCKETS` equal buckets (the *visible step* is one bucket: 1 percentage point of the 0-20% spread);
an item's *near key* is its card-relevant facts with every numeric one replaced by its bucket index (a category,
bool or unstated fact as it is). A candidate whose recipe has taken an item with its near key is a near duplicate.
By default (s53dup) it is taken as any new item, counts towards its recipe's share and is put off: the run keeps
its line on disk (:class:`ipb.perturb._spool.LineSpool`, s58speedgen; before, its (recipe, attempt), rebuilt) and
writes it after the visibly new items, so a file holds the items it held before the rule, the visibly distinct ones
first, at the cost it had before. With ``--no-near-duplicates``
(``Job.strict_near``) it is dropped and counts as a miss towards its recipe's exhaustion (s52dup's rule), so the
share passes to recipes that can still make visibly new items, and the run falls short when too few exist. Two
recipes may still make items in one bucket (a flip and an isolate near the same line ask different questions).
The keys are computed in the main process, in the order candidates are accepted, so the items do not depend on
``--workers``.

The summary warns when the nearest-neighbour median of the sampled items is below :data:`NN_FLOOR` (a share of one
numeric fact's range, or of one category change: 0.02 is two fifths of a visible step).
"""

from __future__ import annotations

import hashlib
from array import array
from decimal import Decimal
from functools import lru_cache
from typing import Any, Iterator, Sequence

__all__ = ["VISIBLE_BUCKETS", "NN_FLOOR", "near_key", "nn_warning", "NearHits"]

#: Buckets across each numeric fact's declared range; one bucket is the visible step of the near-duplicate rule.
VISIBLE_BUCKETS = 20
#: Buckets :func:`near_key` remembers per process (``(lo, hi, value)`` -> bucket; memory stays flat in N).
BUCKET_MEMO = 1 << 16
#: The nearest-neighbour median (sum of per-fact distances, numeric ones as a share of the range) below which the
#: summary warns.
NN_FLOOR = 0.02


def near_key(recipe: int, spans: Sequence[tuple[Decimal, Decimal] | None], raw: Sequence[Any],
             relevant: Sequence[bool]) -> int:
    """The 64-bit near key of a candidate's raw point (:func:`ipb.perturb.runs.raw_point`) within recipe ``recipe``.

    ``spans`` gives each column's declared ``(lo, hi)`` (None: not numeric) and ``relevant`` which columns count.
    A numeric value ``v`` falls in bucket ``floor((v - lo) / (hi - lo) * VISIBLE_BUCKETS)``, the top of the range
    in the last bucket.

    >>> span = [(Decimal(0), Decimal("0.2"))]
    >>> near_key(0, span, [Decimal("0.051")], [True]) == near_key(0, span, [Decimal("0.059")], [True])
    True
    >>> near_key(0, span, [Decimal("0.051")], [True]) == near_key(0, span, [Decimal("0.061")], [True])
    False
    >>> near_key(0, span, [Decimal("0.051")], [True]) == near_key(1, span, [Decimal("0.051")], [True])
    False
    """
    parts: list[str] = [str(recipe)]
    for span, value, counts in zip(spans, raw, relevant):
        if not counts:
            continue
        if span is not None and isinstance(value, Decimal):
            parts.append(_bucket_part(span[0], span[1], value))
        else:
            parts.append(repr(value))
    return int(hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:16], 16)


@lru_cache(maxsize=BUCKET_MEMO)
def _bucket_part(lo: Decimal, hi: Decimal, value: Decimal) -> str:
    """``"#k"``: the bucket ``k`` of ``value`` in ``[lo, hi]`` (:func:`near_key`), remembered per process.

    Two Decimal divisions of 28 digits were most of :func:`near_key`'s time (about 13 us a numeric fact on the bench
    machine, 9 numeric facts an item on the Buffett card; s64speed, issue 18 item 7). The answer is a pure function
    of the three values (equal Decimals give the same quotient, so ``0.5`` and ``0.50`` share an entry and a
    bucket) under the default decimal context that generation runs in; at most ``BUCKET_MEMO`` entries are held.

    >>> top = Decimal("0.2")
    >>> _bucket_part(Decimal(0), top, Decimal("0.051")), _bucket_part(Decimal(0), top, Decimal("0.2"))
    ('#5', '#19')
    """
    bucket = int((value - lo) / (hi - lo) * VISIBLE_BUCKETS)
    return f"#{min(max(bucket, 0), VISIBLE_BUCKETS - 1)}"


def nn_warning(median: float | None, sample: int) -> str | None:
    """The summary's warning when the nearest-neighbour ``median`` over ``sample`` items is below :data:`NN_FLOOR`.

    >>> nn_warning(0.005, 500)[:40]
    'WARNING: nearest-neighbour median 0.005 '
    >>> nn_warning(0.05, 500) is None, nn_warning(None, 0) is None, nn_warning(0.0, 1) is None
    (True, True, True)
    """
    if median is None or sample < 2 or median >= NN_FLOOR:
        return None
    return (f"WARNING: nearest-neighbour median {median} over {sample} items is below the floor {NN_FLOOR} "
            "(docs/perturbation.md, \"Near duplicates\"): many items differ from another by less than a visible "
            "step of one fact; publish fewer items or draw them from several bases")


class NearHits:
    """The near duplicates a run has accepted and put off, in the order accepted: (recipe, attempt) pairs as small
    ints (2 and 8 bytes), all the second pass needs to rebuild them after the visibly new items (s53dup). No item
    is held, so memory stays flat in N apart from these ten bytes an item.

    >>> hits = NearHits()
    >>> for r, j in [(0, 4), (2, 9), (0, 12)]:
    ...     hits.add(r, j)
    >>> len(hits), list(hits.chunks(2))
    (3, [[(0, 4), (2, 9)], [(0, 12)]])
    """

    def __init__(self) -> None:
        self._recipes = array("H")
        self._attempts = array("q")

    def add(self, recipe: int, attempt: int) -> None:
        """Put off attempt ``attempt`` of recipe ``recipe`` (its scenario is rebuilt from these two)."""
        self._recipes.append(recipe)
        self._attempts.append(attempt)

    def __len__(self) -> int:
        return len(self._attempts)

    def chunks(self, size: int) -> Iterator[list[tuple[int, int]]]:
        """The pairs in the order added, ``size`` at a time."""
        for start in range(0, len(self._attempts), size):
            stop = start + size
            yield list(zip(self._recipes[start:stop], self._attempts[start:stop]))
