"""One memo for the tables the parser builds once per card (or per card index): :func:`per_object`.

The parser reads many answers against few cards; what it derives from a card (its index, vocabularies, bars, the
keys of its inputs) is built on the first answer and looked up on the next ones. Every such table is memoised here,
keyed by the identity of the object it is built from (cards are not hashable by value, and two cards of one id may
differ), instead of a dictionary of ``id()`` keys written out beside each builder.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Concatenate, ParamSpec, TypeVar

__all__ = ["per_object"]

_P = ParamSpec("_P")
_O = TypeVar("_O")
_R = TypeVar("_R")


def per_object(bound: int = 256) -> Callable[[Callable[Concatenate[_O, _P], _R]], Callable[Concatenate[_O, _P], _R]]:
    """Memoise ``fn(obj, *args)`` by the identity of ``obj`` (and the value of the hashable ``args``).

    Each entry keeps ``obj`` itself beside its value: while the entry lives the object cannot be garbage-collected, so
    its ``id()`` cannot be given to another object; an entry is used only when the object it keeps ``is`` the one asked
    about. When more than ``bound`` entries are held the memo is emptied (a table is cheap to build again), so a
    process that makes cards without end holds at most ``bound + 1`` of them. The wrapper's ``cache_clear()`` empties
    it.

    Parameters
    ----------
    bound:
        The most entries kept before the memo is emptied.

    Examples
    --------
    >>> calls = []
    >>> @per_object(bound=2)
    ... def size(obj, extra=0):
    ...     calls.append(obj)
    ...     return len(obj) + extra
    >>> a, b = [1, 2], [1, 2]  # equal, not the same object
    >>> size(a), size(a), size(b), size(a, 1), len(calls)
    (2, 2, 2, 3, 3)
    """

    def decorate(fn: Callable[Concatenate[_O, _P], _R]) -> Callable[Concatenate[_O, _P], _R]:
        memo: dict[Any, tuple[object, _R]] = {}

        @functools.wraps(fn)
        def memoised(obj: _O, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
            key: Any = (id(obj), *args, *sorted(kwargs.items())) if args or kwargs else id(obj)
            hit = memo.get(key)
            if hit is not None and hit[0] is obj:
                return hit[1]
            value = fn(obj, *args, **kwargs)
            if len(memo) > bound:
                memo.clear()
            memo[key] = (obj, value)
            return value

        memoised.cache_clear = memo.clear  # type: ignore[attr-defined]
        return memoised

    return decorate
