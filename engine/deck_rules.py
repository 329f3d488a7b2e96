"""The constraints of an L8 base scenario over its deck's inputs (issue 18, stop 29).

Compiled by the card's own constraint compiler (:func:`ipb.engine.card._constraints`), so the
grammar, the messages and their file:line:col are a card's; used by :mod:`ipb.perturb.deck`.
"""

from __future__ import annotations

from typing import Mapping

from ipb.engine._yaml import YamlDoc
from ipb.engine.card import Constraint, InputSpec, _Collector, _constraints
from ipb.errors import ErrorGroup, LoadError

__all__ = ["deck_constraints"]


def deck_constraints(doc: YamlDoc, inputs: Mapping[str, InputSpec]) -> tuple[Constraint, ...]:
    """Compile the ``constraints:`` block of an L8 base scenario over the deck's ``inputs`` (issue 18).

    The card DSL's own constraint grammar and messages (:func:`_constraints`), over the union of the
    deck's inputs and no constants; only ``require:`` (a ``derive:`` across cards is refused at the rule).

    Raises
    ------
    ErrorGroup
        Every error in the block, each with file:line:col (an unknown input with a "did you mean").
    """
    col = _Collector(doc)
    raws = doc.data.get("constraints") or []
    found = _constraints(col, {"constraints": raws}, inputs, {})
    for k, raw in enumerate(raws):
        if isinstance(raw, Mapping) and "derive" in raw:
            col.add(LoadError(f"constraint {raw.get('id')!r} of the base scenario derives {raw['derive']!r}: a "
                              "deck's constraints are 'require' relations (derive an input inside its card)",
                              rule="constraint", name=str(raw.get("id"))), ("constraints", k, "derive"))
    if col.errors:
        raise ErrorGroup(col.errors)
    return found
