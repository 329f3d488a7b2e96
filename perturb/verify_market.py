"""``ipb verify``: a dated item that states a market-state fact its regime does not set.

An item moved to a named regime's date by ``temporal`` claims the economy of that date. A market-state input (the
crowd's mood, capital availability, spreads listed under ``market_state`` in ``frameworks/regimes.yaml``, an input
marked ``describes: market``) that the regime gives no value for is history at the base's date, not the regime's.
Since s56fixdsc ``temporal`` drops such facts (:func:`ipb.perturb.operators._uncovered`); items made by older code
kept them, e.g. Dalio's debt-supercycle items moved onto the pandemic regime of 2020-03-23 still stating an emerging
economy's 65% of debt in dollars. This module finds them in an items file (s57fixio), with the same notion of
market-state input and of the facts a regime sets as ``temporal`` itself, never a second copy of it.

Only the item's facts and its regime are read: one frame per set of cards (by content hash) is built, once.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ipb.engine.graph import CompiledCard
from ipb.errors import IpbError

__all__ = ["MarketCheck"]


class MarketCheck:
    """The market-state facts a dated item states and its regime does not set, as problem sentences.

    >>> MarketCheck().problems({"manifest": {"context": {"regime": None}}, "scenario": {"facts": {}}}, [])
    []
    """

    def __init__(self) -> None:
        #: (card id, content hash) of each card -> the frame of those cards and, per regime id, what it leaves stated
        self._frames: dict[tuple[tuple[str, str], ...], Any] = {}
        self._unset: dict[tuple[tuple[tuple[str, str], ...], str], tuple[Any, frozenset[str]] | str] = {}

    def problems(self, item: Mapping[str, Any], cards: Sequence[CompiledCard]) -> list[str]:
        """One sentence per market-state fact of ``item`` that its regime (``manifest.context.regime``) does not
        set, naming the fact, its value and the regime; empty for an item no regime dates.

        ``cards`` are the item's compiled cards (one for L7, one per investor for L8).
        """
        context = item["manifest"].get("context") or {}
        regime_id = context.get("regime")
        if not isinstance(regime_id, str) or not cards:
            return []
        key = tuple((c.card.id, c.card.content_hash) for c in cards)
        found = self._unset.get((key, regime_id))
        if found is None:
            found = self._unset[(key, regime_id)] = self._regime_unset(key, cards, regime_id)
        if isinstance(found, str):
            return [found]
        regime, market = found
        facts = item["scenario"]["facts"]
        return [f"dated {regime.as_of.isoformat()} by regime {regime.id} ({regime.name}), it states the market-state "
                f"fact {name} ({facts[name]}), which that regime does not set: a fact of another date (the base's); "
                "items made before s56fixdsc kept such facts, make them again with this ipb's ipb perturb"
                for name in facts if name in market]

    def _regime_unset(self, key: tuple[tuple[str, str], ...], cards: Sequence[CompiledCard],
                      regime_id: str) -> tuple[Any, frozenset[str]] | str:
        """(the regime, the market-state inputs of the cards it does not set), or a sentence why that is unknown."""
        from ipb.perturb.frame import build_frame
        from ipb.perturb.operators import _regime_effect, _uncovered

        frame = self._frames.get(key)
        if frame is None:
            frame = self._frames[key] = build_frame(list(cards))
        try:
            regime = frame.regimes.get(regime_id)
        except IpbError as exc:
            return f"manifest.context.regime: {exc.message}"
        set_facts, _, _ = _regime_effect(frame, regime)
        everything = dict.fromkeys(frame.inputs)  # every input stated: what temporal would drop of them
        dropped = _uncovered(frame, everything, set_facts)
        return regime, frozenset(n for n in dropped if frame.regimes.is_market_state(frame.inputs[n]))
