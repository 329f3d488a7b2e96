"""A derived fact stated while one of its sources is unknown (s62 new user N9, docs/perturbation.md "Constraints").

A base stating ``operating_income: $36M`` and ``operating_margin: 12%`` for ``operating_margin = operating_income /
sales``, with no sales, keeps the margin as stated in every item (:func:`stated_partial`). A draw that moved the income
while the sales stay unknown would leave the pair disagreeing through the implied sales ($300M at $36M; -$900M of
income at 12% implies negative sales), so :func:`moved_partial_source` refuses it; a draw that states the sales too
derives the margin from both. A source the base states and a move drops leaves the derived fact out
(:func:`stale_partial`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping

if TYPE_CHECKING:
    from ipb.perturb.frame import Frame

__all__ = ["moved_partial_source", "stale_partial", "stated_partial"]


def stated_partial(facts: Mapping[str, Any], derived: str, names: Iterable[str], inputs: Mapping[str, Any]) -> bool:
    """Whether ``facts`` state the derived input ``derived`` while one of its sources (``names`` that are inputs) is
    unknown: :meth:`ipb.perturb.frame.Frame.complete` then keeps it as stated, never derives it from an unknown
    source (s62 new user N9: a base's 12% operating margin with $36M of operating income and no sales was dropped in
    27 of 40 items, and the gate reading it went INCONCLUSIVE); :func:`moved_partial_source` refuses a draw that
    moves a stated source of it while another stays unknown.

    >>> inputs = {"m": 0, "i": 0, "s": 0}
    >>> stated_partial({"m": 1, "i": 2}, "m", ["i", "s"], inputs), stated_partial({"i": 2}, "m", ["i", "s"], inputs)
    (True, False)
    """
    return derived in facts and any(n in inputs and facts.get(n) is None for n in names)


def moved_partial_source(frame: "Frame", base: Mapping[str, Any], facts: Mapping[str, Any]) -> str:
    """Why a draw is refused ("" when it is not): it moves, from the ``base`` facts, a stated source of a derived fact
    that ``facts`` state while another of its sources is unknown.

    >>> from types import SimpleNamespace as N
    >>> k = N(derive="m", id="m_from_i", expr=N(names=frozenset({"i", "s"})))
    >>> frame = N(cards=[N(card=N(constraints=[k]))], inputs={"m": 0, "i": 0, "s": 0})
    >>> moved_partial_source(frame, {"i": 36, "m": 12}, {"i": 36, "m": 12})
    ''
    >>> moved_partial_source(frame, {"i": 36, "m": 12}, {"i": -900, "m": 12})
    'moves i, a source of m, which is stated while s is unknown (constraint m_from_i)'
    >>> moved_partial_source(frame, {"i": 36, "m": 12}, {"i": -900, "s": 3000, "m": -30})
    ''
    """
    for c in frame.cards:
        for k in c.card.constraints:
            if k.derive is None or k.derive not in facts:
                continue
            sources = [n for n in sorted(k.expr.names) if n in frame.inputs]
            unknown = [n for n in sources if n not in facts]
            moved = [n for n in sources if n in facts and facts[n] != base.get(n)]
            if unknown and moved:
                return (f"moves {', '.join(moved)}, a source of {k.derive}, which is stated while "
                        f"{', '.join(unknown)} is unknown (constraint {k.id})")
    return ""


def stale_partial(frame: "Frame", base: Mapping[str, Any], facts: Mapping[str, Any]) -> tuple[str, ...]:
    """The derived facts ``facts`` state that an operator left stale: a source the ``base`` stated is now unknown
    (a sector move to financials drops the capital that Greenblatt's combined rank is derived from). Such a fact was
    derived from a value the item no longer states, so generation leaves it out, as before s62 new user N9; only a
    source the base itself leaves unknown keeps a stated derived fact (:func:`stated_partial`).

    >>> from types import SimpleNamespace as N
    >>> k = N(derive="m", id="m_from_i", expr=N(names=frozenset({"i", "s"})))
    >>> frame = N(cards=[N(card=N(constraints=[k]))], inputs={"m": 0, "i": 0, "s": 0})
    >>> stale_partial(frame, {"i": 36, "m": 12}, {"i": 36, "m": 12})
    ()
    >>> stale_partial(frame, {"i": 36, "s": 300, "m": 12}, {"i": 36, "m": 12})
    ('m',)
    """
    out: list[str] = []
    for c in frame.cards:
        for k in c.card.constraints:
            if k.derive is None or k.derive not in facts or k.derive in out:
                continue
            if any(n in frame.inputs and facts.get(n) is None and base.get(n) is not None for n in k.expr.names):
                out.append(k.derive)
    return tuple(out)
