"""The scoring half of the Python API: :func:`parse` and :func:`score` (``ipb.parse``, ``ipb.score``).

Both work without a sentence encoder by default (lexical matching only, the
light install); pass ``embed=True`` / ``embeddings=True`` to use the offline
MiniLM encoder (the ``embed`` extra).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, TypeAlias, Union

from ipb.engine.api import execute, load_card
from ipb.engine.card import Card
from ipb.engine.graph import CompiledCard
from ipb.errors import IpbError, LoadError, ScoreError

__all__ = ["parse", "score"]

CardRef: TypeAlias = Union[str, Path, Card, CompiledCard]


def parse(text: str, card: CardRef, *, embed: bool = False) -> Any:
    """Parse a model's answer into the card's gate trace (paper §7.5).

    Parameters
    ----------
    text : str
        The answer as written.
    card : str, path, Card or CompiledCard
        The card the question targets (:func:`ipb.load_card`).
    embed : bool
        Use the sentence encoder for paraphrased gate names (needs the ``embed`` extra).

    Returns
    -------
    ParsedResponse
        ``.status`` (``ok`` or ``parse_failure`` with ``.reason``), ``.gates``
        (number, verdict, elements, spans), ``.final_verdict``; ``.to_dict()``
        for JSON. Never raises on any text.

    Examples
    --------
    >>> p = parse("Gate 1 (two-thirds of NCAV): REJECT. Final verdict: DECLINE", "graham_net_net_screen")
    >>> p.status, [(g.gate, g.verdict) for g in p.gates], p.final_verdict
    ('ok', [(1, 'REJECT')], 'DECLINE')
    """
    from ipb.scoring.parse import parse_response

    try:
        compiled = load_card(card)
    except LoadError:
        if isinstance(card, str) and isinstance(text, (str, Path)) and _names_a_card(text):
            raise LoadError(f"ipb.parse takes the answer first and the card second, parse(text, card): {str(text)!r} "
                            "is a card and the second argument is not; swap them", rule="arguments",
                            name="parse") from None
        raise
    return parse_response(text, compiled.card, embedder=None if embed else False)


def _names_a_card(ref: str | Path) -> bool:
    """Whether ``ref`` loads as a card (an id or a file): then it was passed where the answer goes."""
    try:
        load_card(ref)
    except IpbError:
        return False
    return True


def _item_for(card: CardRef, facts: Mapping[str, Any] | None, item_id: str) -> dict[str, Any]:
    compiled = load_card(card)
    grp = execute(compiled, facts or {}).to_grp()
    return {"version": 1, "id": item_id, "layer": "L7", "card": compiled.card.id, "grp": grp,
            "investment_verdict": grp["investment_verdict"], "verdict_trigger": grp["verdict_trigger"],
            "question": "", "scenario": {"id": item_id, "layer": "L7", "facts": {}}}


def score(response: str, item: Mapping[str, Any] | None = None, *, card: CardRef | None = None,
          facts: Mapping[str, Any] | None = None, condition: str = "A", model: str = "python",
          embeddings: bool = False) -> dict[str, Any]:
    """Score one answer against an item's gold, or against the gold of ``card`` executed on ``facts``.

    Parameters
    ----------
    response : str
        The model's answer.
    item : mapping, optional
        An item as ``ipb perturb`` writes it (one parsed JSON line). With ``card``
        too, the item's card is taken from ``card`` (a card outside the package).
    card, facts : optional
        Without ``item``: the card and the scenario's facts (plain values or
        DSL literals such as ``"$120M"``, ``"95%"``); the gold is the card's
        execution (an L7 item with id ``python-1``).
    condition, model : str
        Recorded in the result.
    embeddings : bool
        Use the sentence encoder (the ``embed`` extra); off by default, so FM-4/FM-5
        voice clauses are not evaluated.

    Returns
    -------
    dict
        The score record of ``ipb score``'s ``responses.jsonl``: ``status``
        (``scored``, or ``unscored`` with ``reason`` -- an unreadable answer is
        recorded, never dropped, and counts as a failure in every mean), ``metrics``
        (GCF, Kendall tau, VerdictAcc, GRA, ...) and ``flags`` (FM-1..FM-6).

    Raises
    ------
    ScoreError
        Neither ``item`` nor ``card`` given.

    Examples
    --------
    >>> r = score("Gate 1, price at most two-thirds of NCAV: REJECT, market value $25M. Final verdict: DECLINE",
    ...           card="graham_net_net_screen",
    ...           facts={"market_value": "$25M", "current_assets": "$45M", "total_liabilities": 12e6,
    ...                  "preferred_stock": "$3M", "net_income": "$1M"})
    >>> r["status"], r["metrics"]["verdict_acc"], r["metrics"]["gcf"]
    ('scored', 1.0, 1.0)
    """
    from ipb.scoring.run import ScoreOptions, score_responses

    if item is None and card is None:
        raise ScoreError("give item= (an item line), or card= with facts=", rule="usage")
    if card is not None:
        compiled = load_card(card)
        if Path(compiled.card.file).is_file():
            # A card loaded from a file anywhere: items naming its id are scored against it.
            from ipb.engine.registry import add_card_file

            add_card_file(compiled.card.id, compiled.card.file)
    the_item = dict(item) if item is not None else _item_for(compiled, facts, "python-1")
    record = {"item_id": the_item["id"], "model": model, "condition": condition, "response": response}
    (result,) = score_responses([the_item], [record], ScoreOptions(embeddings=embeddings))
    return result
