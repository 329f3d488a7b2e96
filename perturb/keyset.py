"""Sets of 64-bit keys in 8 bytes a key: the run's duplicate detection, memory flat in N.

A generation run remembers the key of every distinct scenario it has taken
(:func:`ipb.perturb.generation.key_int`, the first 64 bits of the SHA-256 of
the card-relevant facts). In a Python ``set`` each key costs about 70 bytes
(a 36-byte ``int`` object and two 16-byte table slots at the set's load
factor); at 100,000 items two such sets (the run's and the generator's) held
about 12 MB, a fifth of the whole process. :class:`KeySet` holds the same
keys exactly (no false positive, no false negative) in a sorted
``array('Q')`` of 8 bytes a key, plus a small ``set`` of the latest keys
that is merged into the array when it reaches :data:`RECENT_LIMIT`.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from heapq import merge
from typing import Iterable, Iterator

__all__ = ["KeySet", "RECENT_LIMIT"]

#: Keys held in the ``set`` of recent keys before they are merged into the sorted array.
#: A merge copies the array once; 4,096 keeps the merges at 100,000 keys to 25 of about 1 ms each.
RECENT_LIMIT = 4096

_TOP = 1 << 64


class KeySet:
    """An exact set of integers in ``[0, 2**64)``: about 8 bytes a key once merged.

    Supports ``add``, ``in``, ``len``, iteration (sorted) and ``clear``: what
    :class:`ipb.perturb.generation.Generator` and the run's ``seen`` need.

    Parameters
    ----------
    keys:
        Initial keys.
    limit:
        How many keys the set of recent keys holds before a merge
        (:data:`RECENT_LIMIT`).

    Examples
    --------
    >>> s = KeySet([5, 2**64 - 1], limit=2)
    >>> s.add(3); s.add(5); s.add(0)
    >>> (3 in s, 4 in s, len(s), list(s))
    (True, False, 4, [0, 3, 5, 18446744073709551615])
    """

    __slots__ = ("_sorted", "_recent", "_limit")

    def __init__(self, keys: Iterable[int] = (), *, limit: int = RECENT_LIMIT) -> None:
        if limit < 1:
            raise ValueError(f"limit must be at least 1, not {limit}")
        self._sorted = array("Q")
        self._recent: set[int] = set()
        self._limit = limit
        for key in keys:
            self.add(key)

    def _in_sorted(self, key: int) -> bool:
        keys = self._sorted
        i = bisect_left(keys, key)
        return i < len(keys) and keys[i] == key

    def __contains__(self, key: object) -> bool:
        return key in self._recent or (isinstance(key, int) and bool(self._sorted) and self._in_sorted(key))

    def add(self, key: int) -> None:
        """Add ``key`` (an ``int`` in ``[0, 2**64)``; ``ValueError`` otherwise)."""
        if key in self._recent:
            return
        if not (isinstance(key, int) and 0 <= key < _TOP):
            raise ValueError(f"a KeySet holds integers in [0, 2**64), not {key!r}")
        if self._sorted and self._in_sorted(key):
            return
        self._recent.add(key)
        if len(self._recent) >= self._limit:
            self._merge()

    def _merge(self) -> None:
        """Move the recent keys into the sorted array: slices of the old array copied between them (memcpy
        speed, no Python object per old key)."""
        old = self._sorted
        out = array("Q")
        start = 0
        for key in sorted(self._recent):
            stop = bisect_left(old, key, start)
            out.extend(old[start:stop])
            out.append(key)
            start = stop
        out.extend(old[start:])
        self._sorted = out
        self._recent.clear()

    def clear(self) -> None:
        self._sorted = array("Q")
        self._recent.clear()

    def __len__(self) -> int:
        return len(self._sorted) + len(self._recent)

    def __iter__(self) -> Iterator[int]:
        return merge(iter(self._sorted), sorted(self._recent))

    def __repr__(self) -> str:
        return f"KeySet({len(self)} keys)"
