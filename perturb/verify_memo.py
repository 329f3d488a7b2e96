"""What ``ipb verify`` remembers between items so that it re-executes each one faster, checking the same things.

Perturbed items of one base share most of what their gold shows: a run of
100,000 Buffett items holds some 10,000 distinct gold reasoning programs.
Two memos, each keyed by exactly what its answer depends on, let
:mod:`ipb.perturb.verify` skip work whose result it has already seen:

* :class:`GrpMemo`: whether an item's recorded GRP equals the fresh one
  (:meth:`ipb.engine.grp_view.GrpView.to_grp`), without rendering the GRP
  again when an earlier item executed to the same verdicts and the same shown
  values (nor a gate's entry when an earlier item showed the same for it);
* :class:`ConstraintMemo`: whether a scenario breaks each card constraint,
  keyed by the values of the inputs the constraint reads.

Both are bounded (emptied when full), so memory stays flat in the number of
items. Neither changes an answer: a memo hit gives what the computation
would, and every difference is still reported from the full computation.
"""

from __future__ import annotations

from typing import Any, Mapping

from hashlib import sha256

import orjson as _orjson

from ipb.engine.card import Card, Constraint
from ipb.engine.grp_view import GrpView
from ipb.perturb.items import conditions

__all__ = ["GrpMemo", "ConstraintMemo", "MEMO_LIMIT", "CONSTRAINT_MEMO_LIMIT", "MEMO_TRIAL", "conditions_agree"]

#: Entries a memo keeps per card before it is emptied (a GRP is kept as some 1.3 KB of text, so about 6 MB a card).
MEMO_LIMIT = 4_096
#: Answers :class:`ConstraintMemo` keeps per constraint before that constraint's memo is emptied. An entry (its key
#: of (type, value) pairs and the dict slot) is some 200 bytes, and a card has one memo per constraint: the bundled
#: Buffett card's 25 constraints at 4,096 entries each came to up to some 20 MB, reached only after tens of
#: thousands of items (s56mem: ``ipb verify``'s peak at 100k items was 1.11x that at 10k). At 1,024 the memos that
#: fill do so within the first few thousand items, and those that never fill hold few distinct values (the
#: constraints that read category facts), so the peak no longer grows with N.
CONSTRAINT_MEMO_LIMIT = 1_024
#: Lookups after which a constraint's memo by literals that missed on more than half of them is dropped.
MEMO_TRIAL = 256

class GrpMemo:
    """Whole GRPs and gate entries already rendered, per card: ``gold == view.to_grp(...)`` fast.

    A GRP is remembered by :attr:`ipb.engine.grp_view.GrpView.key` (the run
    and the values of every name a GRP shows): two views with one key render
    one GRP, up to the item's ``question_id`` and ``layer``, which are
    compared apart. On a miss, the GRP is put together from gate entries
    remembered by :meth:`~ipb.engine.grp_view.GrpView.entry_key` (a gate
    entry is rendered only when its own key is new). Either way the item's
    GRP is compared with ``==``, field by field, exactly as ``gold ==
    view.to_grp(...)`` would compare it; a GRP that agrees is remembered.
    Any difference gives the fully rendered GRP, which the caller reports
    with the unchanged :func:`ipb.perturb.verify.gold_differences`.

    The remembered entries are shared between the GRPs that show them and
    are never handed out (nor changed).
    """

    def __init__(self, limit: int = MEMO_LIMIT) -> None:
        self.limit = limit
        #: id of a card -> (the card, key -> (GRP without question_id and layer; its gate entries),
        #: entry key -> one gate entry)
        self._cards: dict[int, tuple[Card, dict[tuple[Any, ...], tuple[dict[str, Any], list[dict[str, Any]]]],
                                     dict[tuple[Any, ...], dict[str, Any]]]] = {}
        self.hits = 0
        self.misses = 0

    def grp_if_differs(self, view: GrpView, gold: Mapping[str, Any], scenario_id: str | None = None,
                       layer: str | None = None) -> dict[str, Any] | None:
        """None when ``gold == view.to_grp(scenario_id, layer)``; else ``view.to_grp(scenario_id, layer)``.

        ``gold`` is the item's recorded GRP; the answer is the same as
        comparing it with a freshly rendered one.
        """
        if not isinstance(gold, dict):
            return view.to_grp(scenario_id, layer)
        card = view.card
        held = self._cards.get(id(card))
        if held is None or held[0] is not card:
            held = self._cards[id(card)] = (card, {}, {})
        memo = held[1]
        try:
            template = memo.get(view.key)
        except TypeError:  # a value that cannot be a key: render and compare
            grp = view.to_grp(scenario_id, layer)
            return None if gold == grp else grp
        if template is None:
            self.misses += 1
            template = self._template(view, held[2])
            if template is None:
                grp = view.to_grp(scenario_id, layer)
                return None if gold == grp else grp
            if not self._agrees(template, gold, scenario_id, layer):
                return view.to_grp(scenario_id, layer)
            if len(memo) >= self.limit:
                memo.clear()
            memo[view.key] = template
            return None
        self.hits += 1
        if not self._agrees(template, gold, scenario_id, layer):
            return view.to_grp(scenario_id, layer)
        return None

    @staticmethod
    def _agrees(template: tuple[dict[str, Any], list[dict[str, Any]]], gold: Mapping[str, Any],
                scenario_id: str | None, layer: str | None) -> bool:
        """``gold == grp``, where ``grp`` is the GRP ``template`` describes with this ``question_id`` and ``layer``
        (one ``==`` of two dicts: the same keys, and ``==`` on each value, the item's value on the left)."""
        whole = template[0]
        if scenario_id is None and layer is None:
            return bool(gold == whole)
        expected = whole.copy()
        if scenario_id is not None:
            expected["question_id"] = scenario_id
        if layer is not None:
            expected["layer"] = layer
        return bool(gold == expected)

    def _template(self, view: GrpView, entries: dict[tuple[Any, ...], dict[str, Any]]
                  ) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """The view's GRP without ``question_id`` and ``layer``, and its gate entries (each remembered by its key);
        None when an entry key cannot be hashed."""
        program = []
        try:
            for i in range(len(view.verdicts)):
                key = view.entry_key(i)
                entry = entries.get(key)
                if entry is None:
                    if len(entries) >= self.limit:
                        entries.clear()
                    entry = entries[key] = view.entry(i)
                program.append(entry)
        except TypeError:  # a value that cannot be a key
            return None
        whole = view.header()
        whole["gold_program"] = program
        return whole, program


class ConstraintMemo:
    """Whether facts break each constraint of a card, remembered by the values the constraint reads.

    :meth:`ipb.engine.card.Constraint.broken` evaluates the constraint's
    expression, which reads only the names in ``expr.names`` (and, for a
    ``derive:`` constraint, the derived input). When every such name is an
    input of the card, the answer is keyed by those inputs' values (with
    their types, or their absence); a constraint that reads a computed value
    is evaluated every time. Each constraint's memo holds at most ``limit``
    answers (:data:`CONSTRAINT_MEMO_LIMIT`) and is emptied when full.
    """

    def __init__(self, limit: int = CONSTRAINT_MEMO_LIMIT) -> None:
        self.limit = limit
        #: id of a card -> (the card, its plans keyed by values, its plans keyed by literals): one memo per
        #: constraint in each; a plan by literals is ``[constraint, names, memo or None, lookups, misses, fn]``,
        #: ``fn`` the compiled expression's function of a ``require:`` constraint (None for a ``derive:`` one)
        self._cards: dict[int, tuple[Card, list[tuple[Constraint, tuple[str, ...] | None, dict[Any, bool]]],
                                     list[list[Any]]]] = {}

    def broken(self, card: Card, facts: Mapping[str, Any],
               literals: Mapping[str, Any] | None = None) -> list[Constraint]:
        """The constraints of ``card`` that ``facts`` (engine values of the card's inputs) break, in card order.

        ``literals``, when given, holds each of the item's facts that is an input of ``card`` (stated or not as a
        value) by the literal it was read from (a string, or ``(type, literal)``): ``facts`` must be what this
        card reads from those literals, a function of them alone (:meth:`ipb.perturb.verify._Checker.typed`).
        The answers are then remembered by the literals (in memos apart from those keyed by values): a string
        keeps its hash, where a ``Decimal`` works its hash out again at every lookup, and the pairs of each value
        with its type are not made. A constraint whose memo missed on more than half of its first
        :data:`MEMO_TRIAL` lookups is evaluated directly from then on: on the bench card an evaluation costs about
        what a lookup does, so such a memo only adds its lookups (s57speedver).
        """
        held = self._cards.get(id(card))
        if held is None or held[0] is not card:
            plans: list[tuple[Constraint, tuple[str, ...] | None, dict[Any, bool]]] = []
            for k in card.constraints:
                reads = set(k.expr.names) | ({k.derive} if k.derive is not None else set())
                plans.append((k, tuple(sorted(reads)) if reads <= set(card.inputs) else None, {}))
            held = self._cards[id(card)] = (card, plans, [[k, names, None if names is None else {}, 0, 0,
                                                           k.expr.fn if k.derive is None else None]
                                                          for k, names, _ in plans])
        if literals is not None:
            return self._by_literals(held[2], facts, literals)
        # each fact's value with its type, made once for all the constraints (Decimal(1) == 1 == True)
        typed = {name: (v.__class__, v) for name, v in facts.items()}
        get = typed.get
        out = []
        for k, names, memo in held[1]:
            if names is None:
                found = k.broken(facts)
            else:
                key = tuple(map(get, names))  # None: the input is absent (a present one is a pair)
                try:
                    known = memo.get(key)
                except TypeError:  # a value that cannot be a key
                    known = None
                    found = k.broken(facts)
                else:
                    if known is None:
                        if len(memo) >= self.limit:
                            memo.clear()
                        known = memo[key] = k.broken(facts)
                    found = known
            if found:
                out.append(k)
        return out

    def _by_literals(self, plan: list[list[Any]], facts: Mapping[str, Any],
                     literals: Mapping[str, Any]) -> list[Constraint]:
        """:meth:`broken` with ``literals``: each plan's memo keyed by the literals of the names it reads, or
        direct evaluation (no memo: a computed value is read, or the memo missed too often)."""
        get = literals.get
        out = []
        for plan_ in plan:
            k, names, memo = plan_[0], plan_[1], plan_[2]
            if memo is None:
                # s58speedver: a ``require:`` constraint is its compiled function's answer, called directly (what
                # ``Constraint.broken`` returns through two more calls: ``fn`` is False exactly when the public value is)
                fn = plan_[5]
                if (fn(facts) is False) if fn is not None else k.broken(facts):
                    out.append(k)
                continue
            key = tuple(map(get, names))  # None: the input is not stated
            try:
                known = memo.get(key)
            except TypeError:  # a literal that cannot be a key
                if k.broken(facts):
                    out.append(k)
                continue
            if known is None:
                if len(memo) >= self.limit:
                    memo.clear()
                known = memo[key] = k.broken(facts)
                plan_[4] += 1
            plan_[3] += 1
            if plan_[3] == MEMO_TRIAL and 2 * plan_[4] > MEMO_TRIAL:
                plan_[2] = None  # mostly misses: evaluate directly from now on
            if known:
                out.append(k)
        return out


def conditions_agree(item: Mapping[str, Any], decks: dict[Any, Any]) -> bool:
    """True when :func:`ipb.perturb.items.condition_problems` finds nothing (False: ask it for the messages).

    The same hashes, computed with fewer copies: condition B's key is the
    SHA-256 of ``{"investors":[...],"query":QUESTION}`` written canonically,
    here put together from orjson's text of the two values (the keys are
    already in sorted order; the text before the question is hashed once per
    deck of cards); condition C is computed once per deck. Both are kept in
    ``decks``, the memo that ``condition_problems`` also keeps (under keys
    of another shape: ``("B and C", ((id, content hash, investor), ...))``).
    Anything unexpected (a missing field, a value of another type) answers
    False, and the caller's ``condition_problems`` gives the answer or the error.
    """
    try:
        stored = item["conditions"]
        if type(stored) is not dict:
            return False
        cards = item["manifest"]["cards"]
        deck = ("B and C", tuple([(c["id"], c["content_hash"], c["investor"]) for c in cards]))
        held = decks.get(deck)
        if held is None:
            fresh = conditions("", [c["investor"] for c in cards], cards)
            people = list(dict.fromkeys(c["investor"] for c in cards))
            # B's key text up to the question: every item of this deck hashes the same prefix
            held = decks[deck] = (fresh["C"], people, sha256(b'{"investors":' + _orjson.dumps(people) + b',"query":'),
                                  fresh["B"]["knowledge_sha256"])
        fresh_c, people, prefix, knowledge = held
        if stored["C"] != fresh_c:
            return False
        b = stored["B"]
        question = item["question"]
        if type(b) is not dict or len(b) != 4 or b.get("investors") != people or b.get("knowledge_sha256") != knowledge:
            return False
        if b.get("query_sha256") != sha256(question.encode("utf-8")).hexdigest():
            return False
        key = prefix.copy()
        key.update(_orjson.dumps(question))
        key.update(b"}")
        return bool(b.get("key") == key.hexdigest())
    except Exception:  # noqa: BLE001 - the slow path reports (or raises) exactly what it always did
        return False
