"""Repeated calls inside one expression computed once per evaluation (common subexpressions).

A card may write the same call several times in one expression: Greenblatt's
derived place (``greenblatt_magic_formula_screen``, constraint
``combined_rank_from_the_two_yields``) writes ``max(ebit, $0)`` nine times and
``max(net_working_capital + net_fixed_assets, $1M)`` eleven, so one evaluation
made 25 ``min``/``max`` calls where six differ (s34slow). The compiler finds the
``call`` subtrees that occur more than once (:func:`repeated_calls`, structural
equality of the parse tree, so spacing does not matter), wraps each such node's
closure with :func:`shared`, and the expression's root with :func:`sharing_root`.
During one evaluation of the root the first occurrence computes the value and
the others read it; outside an evaluation (a node's closure called on its own,
e.g. by a comparison that reads a ``min``/``max``'s arguments) nothing is kept.

Exactness: every closure is a pure function of ``env``, and ``env`` does not
change during one evaluation, so an occurrence gives the value the first one
gave; the results are the same objects the unshared code computes. The store is
per thread and saved/restored around each evaluation, so threads and a nested
evaluation never read another evaluation's values.
"""

from __future__ import annotations

import threading
from typing import Any

from lark import Tree

from ipb.engine._ops import Env, Fn

__all__ = ["repeated_calls", "shared", "sharing_root"]

_UNSET: Any = object()


def repeated_calls(tree: Tree) -> dict[tuple[int, int], int]:
    """``(start, end)`` source span -> slot, for each ``call`` subtree of ``tree`` that occurs more than once.

    Equal subtrees (the same function over the same arguments, however spaced) share one slot; slots are
    numbered 0, 1, ... in the order their first occurrence is met. Empty when no call repeats.

    >>> from ipb.engine.expressions import parse_expression
    >>> sorted(repeated_calls(parse_expression("max(a, 1) + max(a,1) * min(a, 1)")).items())
    [((0, 9), 0), ((12, 20), 0)]
    """
    groups: dict[Tree, list[tuple[int, int]]] = {}
    for t in tree.iter_subtrees_topdown():
        if t.data == "call" and not t.meta.empty:
            groups.setdefault(t, []).append((t.meta.start_pos, t.meta.end_pos))
    out: dict[tuple[int, int], int] = {}
    slot = 0
    for spans in groups.values():
        if len(spans) > 1:
            for span in spans:
                out[span] = slot
            slot += 1
    return out


def shared(fn: Fn, slot: int, store: threading.local) -> Fn:
    """``fn`` reading its value from ``store``'s current evaluation when it was computed there already."""
    def once(env: Env) -> Any:
        values = getattr(store, "values", None)
        if values is None:
            return fn(env)
        value = values[slot]
        if value is _UNSET:
            value = values[slot] = fn(env)
        return value
    return once


def sharing_root(fn: Fn, slots: int, store: threading.local) -> Fn:
    """The expression's root ``fn``: each call opens a fresh store of ``slots`` values for its own evaluation."""
    def root(env: Env) -> Any:
        outer = getattr(store, "values", None)
        store.values = [_UNSET] * slots
        try:
            return fn(env)
        finally:
            store.values = outer
    return root
