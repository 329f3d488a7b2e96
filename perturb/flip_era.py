"""A flip whose boundary no company of its day had, moved to a business its era allows (s41gb3, issue 18).

A verdict flip moves one number to the value that flips the verdict; on a dated scenario that value may state a
multiple outside a bound that regimes.yaml's ``multiples`` hold for some businesses only (``when``: a consumer
staples company worth $10B or more at 6.5x EBIT on 30 September 2008). Generation then refuses the item. When the
card's verdicts do not read the business the bound names (Greenblatt's ranking reads the two yields, and the sector
only to leave out financials and utilities), the flip moves that category input to another of the card's values
the bound does not hold for, the anchor's verdicts unchanged, and searches again from there: the item is then a
flip of a business that could have been priced so that day (a $20B health-care company at 17% of EBIT: Pfizer
stood near 6x its operating profit in the autumn of 2008 [M]). When no such value keeps the verdicts, the flip is
left as found and generation refuses it as before (the shortfall note counts it).

References
----------
Paper §6.5 (operator iii keeps only facts that hold at the date) and Table 9, Perturbation B.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any, Callable, Mapping

__all__ = ["off_era_bound", "timed_inputs"]


def off_era_bound(frame: Any, facts: Mapping[str, Any], name: str, boundary: Any, day: dt.date | None,
                  rng: random.Random, search: Callable[[Mapping[str, Any]], Any]
                  ) -> tuple[str, Any, Mapping[str, Any], Any] | None:
    """(category input, its new value, the facts with it moved, the flip ``search`` finds from them along
    ``name``), or None when ``facts`` with ``name`` at ``boundary`` keep every era bound on ``day`` (or no move
    of a bound's ``when`` input answers it).

    A value is taken (in an order ``rng`` shuffles) when the moved facts keep the card's constraints and verdicts
    (``frame.outcomes``), and the flip found from them states nothing outside the era on ``day``.
    """
    if day is None:
        return None
    regimes = frame.regimes
    flipped = {**facts, name: boundary}
    if not regimes.anachronisms(frame.inputs, flipped, day):
        return None
    before = frame.outcomes(facts)
    for bound in regimes.multiples:
        if not bound.when or not bound.holds_for(flipped):
            continue
        for category, held in bound.when:
            spec = frame.inputs.get(category)
            if spec is None or spec.type != "category" or category not in facts:
                continue
            values = [v for v in (spec.values or ()) if v not in held]
            rng.shuffle(values)
            for value in values:
                moved = {**facts, category: value}
                if frame.breaks_constraint(facts, moved, (category,)) or frame.outcomes(moved) != before:
                    continue
                found = search(moved)
                if found is None or regimes.anachronisms(frame.inputs, {**moved, name: found.boundary}, day):
                    continue
                return category, value, moved, found
    return None


def timed_inputs(frame: Any) -> frozenset[str]:
    """The inputs whose value can be an anachronism (``RegimeRegistry.anachronisms`` reports nothing else):
    category inputs that may take a value with a ``since`` year, macro-fact inputs with a ``since.negative``
    year, size figures, streaks and era-bounded multiples (``frame.regimes``), the category inputs a size
    figure's ``when`` reads (s43items: a spinoff's market value in 1993, a consumer company's in 1984; without
    them the condition is never met and the bound never read), and the sector inputs of ``sizes.sectors`` when
    the card states a size (s45items: a $30B company moved to transport in 1987). Read once per frame
    (``memo["timed_inputs"]``); generation's dated refusal and the flip's anchors (s42anchor) read the same set.
    """
    held = frame.memo.get("timed_inputs")
    if held is None:
        regimes = frame.regimes
        timed = set()
        for name, spec in frame.inputs.items():
            if spec.type == "category" and regimes.value_since and (
                    spec.values is None or any(v in regimes.value_since for v in spec.values)):
                timed.add(name)
            fact = regimes.fact_for(spec) if regimes.negative_since else None
            if fact is not None and fact.id in regimes.negative_since:
                timed.add(name)
            if ((regimes.largest and regimes.is_size(spec)) or name in regimes.streak_inputs
                    or regimes.era_multiple(spec)):
                timed.add(name)
        for figure in regimes.figures:
            bounded = [n for n, spec in frame.inputs.items() if spec.type == "money" and figure.matches(spec)]
            if figure.when and bounded:
                timed.update(n for n, _ in figure.when if n in frame.inputs)
                timed.update(bounded)  # s44rfix: a figure no other bound reads (a battered company's bank debt)
        if regimes.sector_shares and any(regimes.is_size(spec) for spec in frame.inputs.values()):
            # s45items: the sector a size's share reads (a $30B company moved to transport in 1987)
            timed.update(n for n in regimes.sector_inputs if n in frame.inputs)
        held = frame.memo["timed_inputs"] = frozenset(timed)
    return held  # type: ignore[no-any-return]
