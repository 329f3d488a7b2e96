"""Trial values for ``ipb explain``: which values of a missing fact are tried, which the card's constraints
refuse, and where the fact's grid switches a gate (paper §7.3: an INCONCLUSIVE gate and the fact it needs).

Split from :mod:`ipb.engine.explain` (stop 33) to keep that module under the house size.
"""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Any, Callable, Mapping

from ipb.engine.card import Card
from ipb.engine.execute import execute
from ipb.engine.graph import CompiledCard


def _trial_values(card: Card, name: str) -> list[Any]:
    spec = card.inputs[name]
    if spec.type == "bool":
        return [False, True]
    if spec.type == "category":
        return list(spec.values or ())
    if spec.range is not None:
        lo, hi = spec.range
        middle = (lo + hi) / 2
        if spec.step and isinstance(lo, Decimal):
            # the grid value at or below the midpoint, as perturbation draws it (s54newuser: "$1.5002T" was
            # tried for a market cap in [$500M, $3T] with step $500M; now $1.5T)
            middle = lo + ((hi - lo) / 2 / spec.step).to_integral_value(rounding=ROUND_FLOOR) * spec.step
        return [lo, middle, hi]
    if spec.type in ("number", "money", "multiple", "ratio", "year"):
        big = Decimal(10) ** 12 if spec.type == "money" else Decimal(10) ** 6
        return [-big, Decimal(0), Decimal("0.5") if spec.type == "ratio" else Decimal(1), big]
    return []


def _broken(card: Card, facts: Mapping[str, Any]) -> list[str]:
    """Ids of the card's constraints that ``facts`` break (an unknown fact breaks none)."""
    return [k.id for k in card.constraints if k.broken(facts)]


def _grid(lo: Decimal, hi: Decimal, step: Decimal) -> Callable[[int], Decimal]:
    """The ``k``-th value of an input's grid, ``lo + k * step``, never above ``hi``."""
    return lambda k: min(hi, lo + k * step)


def _bisect(keeps: Callable[[int], bool | None], good: int, bad: int) -> tuple[int, int] | None:
    """Grid indices ``(good, bad)``, neighbours, with ``keeps(good)`` true and ``keeps(bad)`` false, found by
    bisection from a pair that starts so (either may be the larger); None when ``keeps`` answers None (a probe
    that cannot be judged) before they meet."""
    while abs(bad - good) > 1:
        mid = (good + bad) // 2
        kept = keeps(mid)
        if kept is None:
            return None
        if kept:
            good = mid
        else:
            bad = mid
    return good, bad


def _admissible_trials(card: Card, facts: Mapping[str, Any], name: str) -> tuple[list[Any], list[tuple[Any, list[str]]]]:
    """The trial values of ``name`` that keep the card's constraints with ``facts``, and those refused.

    For a refused value of an input with a range and step, the grid value
    nearest to it that still holds (bisection on the step grid from the
    nearest admissible trial value) is tried instead.
    """
    ok: list[Any] = []
    refused: list[tuple[Any, list[str]]] = []
    for v in _trial_values(card, name):
        ids = _broken(card, {**facts, name: v})
        (refused.append((v, ids)) if ids else ok.append(v))
    spec = card.inputs[name]
    if refused and ok and spec.range is not None and spec.step and isinstance(ok[0], Decimal):
        lo, step = spec.range[0], spec.step
        at = _grid(lo, spec.range[1], step)

        def holds(i: int) -> bool:
            return not _broken(card, {**facts, name: at(i)})

        for v, _ in refused:
            anchor = min(ok, key=lambda x: abs(x - v))
            good = int((anchor - lo) / step)  # floor: the anchor's grid value at or below it
            if not holds(good):
                continue
            pair = _bisect(holds, good, int((v - lo) / step))
            good = pair[0] if pair is not None else good  # holds answers True or False, never None
            if at(good) not in ok:
                ok.append(at(good))
        ok.sort()
    return ok, refused


def _gate_verdict(compiled: CompiledCard, facts: Mapping[str, Any], number: int) -> str:
    """Gate ``number``'s verdict on ``facts``, evaluated even where the chain stopped before it."""
    g = execute(compiled, facts, diagnostic=True).gates[number - 1]
    got = g.verdict if g.verdict.value != "N/A" or g.diagnostic_verdict is None else g.diagnostic_verdict
    return got.value


def _boundaries(compiled: CompiledCard, facts: Mapping[str, Any], name: str, number: int,
                tried: list[tuple[Any, str]]) -> list[tuple[tuple[Any, str], tuple[Any, str]]]:
    """Where a ranged input's grid switches gate ``number`` between two neighbouring tried values.

    ``tried`` is ``[(value, verdict), ...]`` in ascending order. Between two tried values with
    different verdicts, bisection on the ``lo + k * step`` grid keeps the left end at the left
    verdict and the right end off it, so it ends on two neighbouring grid values that differ;
    a probe that breaks a card constraint stops the search for that pair (none reported).

    >>> from decimal import Decimal
    >>> from ipb.engine.registry import compiled_card
    >>> card = compiled_card("graham_net_net_screen")   # $15M <= 2/3 * ($33M - preferred): preferred <= $10.5M
    >>> facts = {"market_value": Decimal(15e6), "current_assets": Decimal(45e6), "total_liabilities": Decimal(12e6)}
    >>> _boundaries(card, facts, "preferred_stock", 1, [(Decimal(0), "PROCEED"), (Decimal(45e6), "REJECT")])
    [((Decimal('10000000'), 'PROCEED'), (Decimal('11000000'), 'REJECT'))]
    """
    card = compiled.card
    spec = card.inputs[name]
    if spec.range is None or not spec.step or spec.type not in ("number", "money", "multiple", "ratio", "year"):
        return []
    lo, step = spec.range[0], spec.step
    at = _grid(lo, spec.range[1], step)

    def verdict(i: int) -> str | None:
        probe = {**facts, name: at(i)}
        return None if _broken(card, probe) else _gate_verdict(compiled, probe, number)

    found: list[tuple[tuple[Any, str], tuple[Any, str]]] = []
    for (a, va), (b, vb) in zip(tried, tried[1:]):
        if va == vb or not isinstance(a, Decimal) or not isinstance(b, Decimal):
            continue
        # floor of a, ceiling of b on the grid (Decimal's // truncates toward zero: -(-x // 1) is no ceiling)
        left = int(((a - lo) / step).to_integral_value(rounding=ROUND_FLOOR))
        right = int(((b - lo) / step).to_integral_value(rounding=ROUND_CEILING))
        if verdict(left) != va or verdict(right) in (None, va):
            continue
        pair = _bisect(lambda i: None if (got := verdict(i)) is None else got == va, left, right)
        if pair is not None:
            left, right = pair
            found.append(((at(left), va), (at(right), verdict(right) or vb)))
    return found
