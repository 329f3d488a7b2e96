"""The engine half of the Python API: :func:`load_card` and :func:`execute` (``ipb.load_card``, ``ipb.execute``).

Facts may be given as the DSL's literal strings (``"$120M"``, ``"95%"``,
``"10x"``, ``"2009-03-01"``), as plain Python values (``int``, ``float``,
``bool``, ``str`` for a category, ``datetime.date``) or as engine values
(``Decimal``). A ``float`` is read by its shortest decimal form
(``0.95`` -> ``Decimal("0.95")``, ``3e6`` -> ``Decimal(3000000)``), so a threshold compares as written; a
ratio is a fraction (``0.95`` or ``"95%"``), money is USD.
"""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal
from pathlib import Path
from typing import Any, Mapping

from ipb.engine.card import Card
from ipb.engine.execute import Trace
from ipb.engine.execute import execute as _execute
from ipb.engine.graph import CompiledCard, compile_card
from ipb.engine.registry import compiled_card
from ipb.engine.scenario import facts_from_mapping
from ipb.errors import LoadError

__all__ = ["load_card", "execute", "facts", "explain"]


def load_card(card: str | Path | Card | CompiledCard) -> CompiledCard:
    """Load and compile a card: a file path, a card id (``--cards``/``IPB_CARDS``/bundled), or a card object.

    Parameters
    ----------
    card : str, path, Card or CompiledCard
        A ``.yaml`` file, or an id looked up as :func:`ipb.engine.registry.find_card` says.

    Returns
    -------
    CompiledCard
        ``.card`` is the loaded :class:`~ipb.engine.card.Card` (gates, inputs, outcomes);
        ``.graph`` the decision graph.

    Raises
    ------
    LoadError, ErrorGroup
        No such card; or the card's errors, each with file:line:col.

    Examples
    --------
    >>> card = load_card("graham_net_net_screen")
    >>> card.card.name, [g.id for g in card.card.gates]
    ('Graham Net-Net Working Capital Screen', ['two_thirds_of_ncav', 'no_asset_dissipation'])
    """
    if isinstance(card, CompiledCard):
        return card
    if isinstance(card, Card):
        return compile_card(card)
    return compiled_card(str(card))


def _plain(name: str, value: Any) -> Any:
    if isinstance(value, float):
        if not math.isfinite(value):
            raise LoadError(f"fact {name} = {value!r} is not a finite number", rule="fact-type", name=name)
        return Decimal(int(value)) if value.is_integer() else Decimal(repr(value))
    if isinstance(value, int) and not isinstance(value, bool):
        return Decimal(value)
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def facts(card: str | Path | Card | CompiledCard, values: Mapping[str, Any]) -> dict[str, Any]:
    """Convert plain values and DSL literals to engine values for ``card`` (None = unknown).

    Raises
    ------
    LoadError
        A name that is not an input of the card (with "did you mean"), or a value
        of the wrong kind (``"5%"`` for money, ``"1e"``...).

    Examples
    --------
    >>> facts("graham_net_net_screen", {"market_value": "$120M", "net_income": -1.5e6, "preferred_stock": None})
    {'market_value': Decimal('120000000'), 'net_income': Decimal('-1500000')}
    """
    compiled = load_card(card)
    return facts_from_mapping(compiled.card, {k: _plain(k, v) for k, v in values.items() if v is not None})


def execute(card: str | Path | Card | CompiledCard, values: Mapping[str, Any] | None = None, *,
            diagnostic: bool = False) -> Trace:
    """Execute a card on facts given as plain values or DSL literals (paper §7.3, GRP of §6.3).

    Parameters
    ----------
    card : str, path, Card or CompiledCard
        As :func:`load_card` takes it.
    values : mapping, optional
        Input name -> value; a name left out (or None) is unknown.
    diagnostic : bool
        Also evaluate the gates after the chain stopped.

    Returns
    -------
    Trace
        ``.outcome`` (final verdict), ``.trigger``, ``.verdicts()``, ``.gates`` and
        ``.to_grp()`` (the gold reasoning program as JSON-ready data).

    Examples
    --------
    >>> t = execute("graham_net_net_screen", {"market_value": "$20M", "current_assets": "$45M",
    ...             "total_liabilities": 12_000_000, "preferred_stock": 3e6, "net_income": "$1M"})
    >>> t.outcome, t.trigger, t.verdicts()
    ('INVEST', 'all_gates_cleared', ['PROCEED', 'PROCEED'])
    """
    compiled = load_card(card)
    return _execute(compiled, facts(compiled, values or {}), diagnostic=diagnostic)


def explain(card: str | Path | Card | CompiledCard, values: Mapping[str, Any] | None = None) -> Any:
    """Why each gate gave its verdict (:func:`ipb.engine.explain.explain`), on plain values or DSL literals.

    Examples
    --------
    >>> e = explain("graham_net_net_screen", {"market_value": "$25M", "current_assets": "$45M",
    ...             "total_liabilities": "$12M", "preferred_stock": "$3M"})
    >>> print(e.gates[0].lines()[3])
      proceed: market_value $25M <= 2/3 * ncav $20M: false
    """
    from ipb.engine.explain import explain as _explain

    compiled = load_card(card)
    return _explain(compiled, facts(compiled, values or {}))
