"""Relations across an L8 deck's cards: the base scenario's own ``constraints:`` block (issue 18).

A card's ``constraints:`` read only that card's inputs, and an L8 deck's cards
are linked only by inputs with the same name, so two cards that state one fact
under two names (one card's ``sector``, another's ``company_type``) were drawn
independently and an item could contradict itself. An L8 base scenario may
carry a ``constraints:`` block in the card DSL's constraint grammar
(``require:`` relations, compiled by :func:`ipb.engine.deck_rules.deck_constraints`
with the same parser and messages) over the union of the deck's inputs.

They are enforced like card constraints (:meth:`ipb.perturb.frame.Frame.violations`
labels them ``deck/ID``), a base that breaks one is refused at the fact, and
each item's manifest records them (``manifest.deck``: the rules and the
SHA-256 of their canonical JSON) so ``ipb verify`` checks every item without
the base file.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Mapping

from ipb.engine._json import canonical_json
from ipb.engine._yaml import YamlDoc, load_yaml
from ipb.engine.card import Constraint, InputSpec, broken_constraint_errors
from ipb.engine.deck_rules import deck_constraints
from ipb.errors import LoadError

__all__ = ["set_deck", "deck_errors", "deck_hash", "constraints_from_record"]

#: The fields of a deck rule the manifest records, in this order.
RULE_FIELDS = ("id", "require", "description")


def deck_hash(rules: list[dict[str, Any]]) -> str:
    """The SHA-256 (hex) of the recorded rules' canonical JSON (``manifest.deck.content_hash``)."""
    return hashlib.sha256(canonical_json(rules).encode("utf-8")).hexdigest()


def set_deck(frame: Any, doc: YamlDoc) -> None:
    """Compile ``doc``'s ``constraints:`` over ``frame.inputs`` and hold them on ``frame`` (``deck``, ``deck_record``).

    A base without the block leaves the frame as it was (no deck); a frame's per-frame caches are
    emptied when its deck changes, since they hold which constraints an input reaches.

    Raises
    ------
    LoadError
        Rule ``constraint``: the block in an L7 base (one card: the rule belongs in the card), at the key.
    ErrorGroup
        A rule that does not compile (syntax, unknown input, not boolean), each with file:line:col.
    """
    raws = doc.data.get("constraints") or []
    if raws and frame.layer == "L7":
        line, column = doc.locate_key(("constraints",))
        raise LoadError("a base scenario's 'constraints:' relate the cards of an L8 deck; for one card, put the "
                        "rule in the card's own 'constraints:'", rule="constraint", name="constraints").with_location(
                            doc.file, line, column, doc.source_line(line))
    deck = deck_constraints(doc, frame.inputs) if raws else ()
    if deck == frame.deck:
        return
    rules = [{f: raw[f] for f in RULE_FIELDS if f in raw} for raw in raws]
    frame.deck = deck
    frame.deck_record = {"constraints": rules, "content_hash": deck_hash(rules)} if deck else None
    frame.memo.clear()


def deck_errors(frame: Any, facts: Mapping[str, Any], doc: YamlDoc | None = None) -> list[LoadError]:
    """One error per deck constraint that ``facts`` (engine values) break, at the first fact it reads."""
    return broken_constraint_errors(frame.deck, frame.inputs, facts, "the base scenario", doc)


def constraints_from_record(record: Mapping[str, Any], inputs: Mapping[str, InputSpec]) -> tuple[Constraint, ...]:
    """Compile an item's ``manifest.deck`` over ``inputs`` (the union of its cards' inputs).

    Raises
    ------
    LoadError
        Rule ``deck``: the recorded rules do not match their ``content_hash`` (an edited manifest).
    ErrorGroup
        A recorded rule that does not compile against the cards.
    """
    rules = list(record["constraints"])
    if deck_hash(rules) != record.get("content_hash"):
        raise LoadError("manifest.deck's constraints do not match their content_hash (the rules were edited)",
                        rule="deck")
    doc = load_yaml(json.dumps({"constraints": rules}), "<manifest.deck>", collect=True)
    return deck_constraints(doc, inputs)
