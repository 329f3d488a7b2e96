"""Feasible sets of one input worked out from the constraints' comparisons, not probed (issue 18 item 7, s62speed).

A feasible-set search (:func:`ipb.perturb.feasible.feasible_intervals`)
asks every constraint that reads an input at some 70 values of the input's
grid, the other facts fixed (paper §6.5, operator (i), with the card's
``constraints:``). Most constraints are Kleene combinations (``and``,
``or``, ``not``) of comparisons ``L op R`` (``op`` one of ``<``, ``<=``,
``>``, ``>=``) where the input appears once, on one side, under ``+``,
``-``, ``*`` and as a numerator of ``/``: with the other facts fixed such a
side is an affine function of the input, so along the grid (``lo + k *
step``, increasing in ``k``) the comparison changes its answer at most once.
Its answer is True, False or unknown (None) at every grid value alike when
an operand is unknown, since the engine's arithmetic is exact (Decimal or
Fraction) and its rounding, where there is any, is monotone.

So the comparisons that read the input (the *atoms*) cut the grid into at
most ``atoms + 1`` stretches on which every atom, and so the constraint, is
constant. Each atom's change is found by bisection on the atom alone
(about ``log2(count)`` evaluations); the constraint is asked once per
stretch. The set found is the exact set of grid indices where no analysed
constraint is False, and the search's probes are answered from it: a probe
gets the answer that asking every constraint gives, so the search's
intervals, the draws and the items are byte-identical (s62speed).

A constraint that does not have this form (the input twice in one
comparison, under a function call, in a denominator, in ``==``, ``!=`` or
``in``, in a bare boolean; era bounds on quotients; a constraint that
completes derived inputs; an L8 deck's rule) is asked at the probes as
before (:func:`ipb.perturb.feasible._probe`).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any, Callable, Mapping, Sequence

from lark import Token, Tree

from ipb.errors import IpbError
from ipb.perturb.frame import Frame
from ipb.perturb.values import Grid

__all__ = ["SPAN_LIMIT", "comparison_atoms", "check_spans", "exact_spans", "inside"]

Check = Callable[[Mapping[str, Any]], Any]
_ORDER = frozenset({"<", "<=", ">", ">="})


def _count(tree: Any, name: str) -> int:
    """How many times ``name`` is read in ``tree`` (a lark tree or token)."""
    if isinstance(tree, Token) or not isinstance(tree, Tree):
        return 0
    if tree.data == "name":
        return 1 if str(tree.children[0]) == name else 0
    return sum(_count(c, name) for c in tree.children)


def _affine(tree: Any, name: str) -> bool:
    """Whether the arithmetic ``tree``, which reads ``name`` exactly once, is monotone in it with every other name
    fixed: the path from the root to ``name`` passes only through sums, negation and products where ``name`` is not
    in a divisor."""
    if not isinstance(tree, Tree):
        return False
    if tree.data == "name":
        return str(tree.children[0]) == name
    if tree.data == "neg":
        return _affine(tree.children[0], name)
    if tree.data == "sum":
        return any(_count(c, name) for c in tree.children[0::2]) and all(
            _affine(c, name) for c in tree.children[0::2] if _count(c, name))
    if tree.data == "product":
        operands, ops = tree.children[0::2], [str(op.children[0]) for op in tree.children[1::2]]
        for i, c in enumerate(operands):
            if _count(c, name):
                return (i == 0 or ops[i - 1] == "*") and _affine(c, name)
    return False


def _atom_sources(source: str, tree: Any, name: str) -> list[str] | None:
    """The comparisons of boolean ``tree`` that read ``name``, as source slices, or None when ``name`` is read
    anywhere else than in a monotone comparison (see the module docstring)."""
    if not _count(tree, name):
        return []
    if tree.data in ("or_", "and_", "not_"):
        out: list[str] = []
        for c in tree.children:
            found = _atom_sources(source, c, name)
            if found is None:
                return None
            out.extend(found)
        return out
    if tree.data != "comparison":
        return None
    operands, ops = tree.children[0::2], tree.children[1::2]
    out = []
    for a, op, b in zip(operands, ops, operands[1:]):
        reads = _count(a, name) + _count(b, name)
        if not reads:
            continue
        text = " ".join(str(t) for t in op.children)
        side = a if _count(a, name) else b
        if reads != 1 or text not in _ORDER or not _affine(side, name):
            return None
        start, end = getattr(a.meta, "start_pos", None), getattr(b.meta, "end_pos", None)
        if start is None or end is None:
            return None
        out.append(source[start:end])
    return out


def comparison_atoms(frame: Frame, fn: Check, name: str) -> tuple[tuple[Check, ...], tuple[str, ...]] | None:
    """The atoms of constraint ``fn`` for input ``name``: each comparison that reads ``name``, compiled alone, or
    None when ``fn`` is not a card's ``require`` constraint of the analysable form (module docstring).

    Parameters
    ----------
    frame:
        The frame whose cards' ``constraints:`` hold ``fn`` (an L8 deck's rules are not analysed).
    fn:
        A check of :func:`ipb.perturb.feasible.constraint_checks` (``Constraint.expr.fn``).
    name:
        A numeric input the constraint reads.

    Returns
    -------
    (atoms, others), or None
        ``atom(env)`` is the comparison's value (True, False or None) on a scenario (``atoms`` is empty when
        ``fn`` does not read ``name``); ``others``: the other names ``fn`` reads, sorted. Remembered per frame,
        ``fn`` and ``name``.

    Examples
    --------
    >>> from ipb.perturb.frame import build_frame
    >>> frame = build_frame(["buffett_acquisition_checklist"])
    >>> rule = next(k for k in frame.cards[0].card.constraints if k.id == "net_margin_plausible")
    >>> atoms, others = comparison_atoms(frame, rule.expr.fn, "arr")
    >>> len(atoms), others, comparison_atoms(frame, rule.expr.fn, "sector")
    (2, ('net_income',), ((), ('arr', 'net_income')))
    """
    memo = frame.memo.setdefault("monotone_atoms", {})
    key = (fn, name)
    if key in memo:
        return memo[key]  # type: ignore[no-any-return]
    found: tuple[tuple[Check, ...], tuple[str, ...]] | None = None
    for c in frame.cards:
        rule = next((k for k in c.card.constraints if k.derive is None and k.expr.fn is fn), None)
        if rule is not None:
            atoms = _compile_atoms(c.card, rule.expr.source, name)
            if atoms is not None:
                found = (atoms, tuple(sorted(rule.expr.names - {name})))
            break
    memo[key] = found
    return found


def _compile_atoms(card: Any, source: str, name: str) -> tuple[Check, ...] | None:
    from ipb.engine.card import BUILTINS
    from ipb.engine.expressions import compile_expression, parse_expression

    try:
        sources = _atom_sources(source, parse_expression(source), name)
    except IpbError:  # pragma: no cover - the card compiled this source
        return None
    if sources is None:
        return None
    symbols = dict(BUILTINS)
    symbols.update({n: t for n, (_, t) in card.constants.items()})
    symbols.update({n: spec.expr_type for n, spec in card.inputs.items()})
    constants = {n: v for n, (v, _) in card.constants.items()}
    atoms = []
    for text in sources:
        try:
            atoms.append(compile_expression(text, symbols, expect="bool", constants=constants).fn)
        except IpbError:  # a comparison the card's compile accepted only in its context: asked at the probes
            return None
    return tuple(atoms)


#: Spans of one check remembered per frame, in two generations of at most this many (memory flat in N).
SPAN_LIMIT = 4096


def check_spans(frame: Frame, facts: Mapping[str, Any], name: str, grid: Grid, fn: Check,
                atoms: tuple[Check, ...], others: tuple[str, ...]) -> list[tuple[int, int]]:
    """The index spans of ``name``'s grid where the analysable check ``fn`` (its comparisons ``atoms`` that read
    ``name``) is not False, the other facts as in ``facts``; remembered per frame by the check and the values of
    ``others`` (the other names it reads), in two generations of ``SPAN_LIMIT`` (a flip's anchors move one to
    three inputs of the run's base, so the other values a check reads repeat from search to search)."""
    key = (fn, name, tuple(map(facts.get, others)))
    memo = frame.memo
    young = memo.get("monotone_spans")
    if young is None:
        young = memo["monotone_spans"] = {}
    held = young.get(key)
    if held is not None:
        return held  # type: ignore[no-any-return]
    old = memo.get("monotone_spans_old")
    held = old.get(key) if old else None
    if held is None:
        held = _spans(facts, name, grid, fn, atoms)
    if len(young) >= SPAN_LIMIT:
        memo["monotone_spans_old"] = young
        young = memo["monotone_spans"] = {}
    young[key] = held
    return held


def _spans(facts: Mapping[str, Any], name: str, grid: Grid, fn: Check,
           atoms: tuple[Check, ...]) -> list[tuple[int, int]]:
    """:func:`check_spans` worked out: each atom's change found by bisection, ``fn`` asked once per stretch."""
    env = dict(facts)
    value = grid.value
    last = grid.count - 1
    cuts = {0}
    for atom in atoms:
        env[name] = value(0)
        first = atom(env)
        env[name] = value(last)
        if atom(env) is first:
            continue  # one change at most: the same answer at both ends is the answer everywhere
        lo, hi = 0, last  # atom(lo) is first, atom(hi) is not: the change lies in (lo, hi]
        while hi - lo > 1:
            mid = (lo + hi) // 2
            env[name] = value(mid)
            if atom(env) is first:
                lo = mid
            else:
                hi = mid
        cuts.add(hi)
    starts = sorted(cuts)
    spans: list[tuple[int, int]] = []
    for i, start in enumerate(starts):
        env[name] = value(start)
        if fn(env) is False:
            continue
        end = starts[i + 1] - 1 if i + 1 < len(starts) else last
        if spans and spans[-1][1] == start - 1:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def _meet(a: Sequence[tuple[int, int]], b: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The intersection of two ascending lists of disjoint inclusive intervals.

    >>> _meet([(0, 4), (8, 12)], [(3, 9)])
    [(3, 4), (8, 9)]
    """
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if lo <= hi:
            out.append((lo, hi))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def exact_spans(frame: Frame, facts: Mapping[str, Any], name: str, grid: Grid,
                checks: Sequence[tuple[Check, frozenset[str]]]) -> tuple[list[tuple[int, int]], tuple[Any, ...]] | None:
    """The grid indices of ``name`` where no analysable check of ``checks`` is False, the other facts as in ``facts``.

    Parameters
    ----------
    facts:
        The scenario (input name -> engine value); not modified.
    grid:
        ``name``'s grid (``lo + k * step``, ``k = 0 .. count - 1``).
    checks:
        Pairs of (check, names read), as :func:`ipb.perturb.feasible.constraint_checks` gives them.

    Returns
    -------
    (spans, rest), or None
        ``spans``: ascending, disjoint inclusive index intervals ``(lo, hi)``, exactly the indices where every
        analysable check holds or is unknown; ``rest``: the pairs of ``checks`` that are not analysable (to be
        asked at the probes). None when no check is analysable or the grid does not increase.
    """
    if grid.step <= 0 or grid.count <= 0:
        return None
    spans: list[tuple[int, int]] | None = None
    rest = []
    for pair in checks:
        found = comparison_atoms(frame, pair[0], name)
        if found is None:
            rest.append(pair)
            continue
        mine = check_spans(frame, facts, name, grid, pair[0], *found)
        spans = list(mine) if spans is None else _meet(spans, mine)
    if spans is None:
        return None
    return spans, tuple(rest)


def inside(spans: Sequence[tuple[int, int]]) -> Callable[[int], bool]:
    """``k -> whether k lies in one of spans`` (ascending, disjoint inclusive intervals).

    >>> ok = inside([(2, 4), (9, 9)])
    >>> [k for k in range(12) if ok(k)]
    [2, 3, 4, 9]
    """
    los = [lo for lo, _ in spans]
    his = [hi for _, hi in spans]

    def ok(k: int) -> bool:
        i = bisect_right(los, k) - 1
        return i >= 0 and k <= his[i]
    return ok
