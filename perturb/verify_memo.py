"""What ``ipb verify`` remembers between items so that it re-executes each one faster, checking the same things.

Perturbed items of one base share most of what their gold shows: a run of
100,000 Buffett items holds some 10,000 distinct gold reasoning programs.
Two memos, each keyed by exactly what its answer depends on, let
:mod:`ipb.perturb.verify` skip work whose result it has already seen:

* :class:`GrpMemo`: whether an item's recorded GRP equals the fresh one
  (:meth:`ipb.engine.execute.Trace.to_grp`), without rendering the GRP again
  when an earlier item executed to the same verdicts and the same shown values;
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

from ipb.engine.card import ELEMENT_FIELD, Card, Constraint
from ipb.engine.execute import Trace
from ipb.perturb.items import conditions

__all__ = ["GrpMemo", "ConstraintMemo", "MEMO_LIMIT", "shown_names", "conditions_agree"]

#: Entries a memo keeps per card before it is emptied (a GRP is kept as some 1.3 KB of text, so about 6 MB a card).
MEMO_LIMIT = 4_096

#: An environment value that is not there (distinct from None, which a computed value may be).
_ABSENT = object()


def shown_names(card: Card) -> tuple[str, ...]:
    """Every name some gate's GRP entry can show: computed values, a classifier's own value, the fields of its
    required-element templates for any verdict (a superset of :meth:`Trace._entry_key`'s names for one verdict).

    Apart from these and the verdicts, a GRP (paper §6.3, Appendix E) shows nothing that varies between scenarios
    of one card.
    """
    names: list[str] = []
    for g in card.gates:
        names += list(g.compute)
        if g.is_classifier:
            names.append(g.id)
        for templates in (g.required_elements, *g.elements_by_verdict.values()):
            for template in templates:
                names += ELEMENT_FIELD.findall(template)
    return tuple(dict.fromkeys(names))


class GrpMemo:
    """Whole GRPs already rendered, per card, keyed by what a GRP shows: ``gold == trace.to_grp()`` fast.

    The key of a trace is its run (every gate's verdict, the outcome and its
    trigger, the gate that terminated the chain, the regime and the gates off
    its branch, the re-entry count, diagnostic mode) and, for each of
    :func:`shown_names`, the value in the trace's environment with its type
    (or its absence). :meth:`Trace.to_grp` renders each gate from the same
    things (its own per-gate memo is keyed by a subset of them), and adds the
    item's ``question_id`` and ``layer``, which are compared apart. So two
    traces with one key render one GRP, up to those two fields.
    """

    def __init__(self, limit: int = MEMO_LIMIT) -> None:
        self.limit = limit
        #: id of a card -> (the card, its shown names, key -> GRP without question_id and layer)
        self._cards: dict[int, tuple[Card, tuple[str, ...], dict[tuple[Any, ...], tuple[dict[str, Any], bytes]]]] = {}
        self.hits = 0
        self.misses = 0

    def _key(self, trace: Trace) -> tuple[tuple[Any, ...], dict[tuple[Any, ...], tuple[dict[str, Any], bytes]]]:
        card = trace.card
        held = self._cards.get(id(card))
        if held is None or held[0] is not card:
            held = self._cards[id(card)] = (card, shown_names(card), {})
        run = trace._run
        env = trace.env
        values = tuple([(v.__class__, v) for v in [env.get(n, _ABSENT) for n in held[1]]])
        key = (tuple(run.verdicts), run.outcome, run.trigger, run.terminated_by, run.regime, run.off_branch,
               run.iterations, trace.diagnostic, trace.scenario_id is None, trace.layer is None, values)
        return key, held[2]

    def grp_if_differs(self, trace: Trace, gold: Mapping[str, Any]) -> dict[str, Any] | None:
        """None when ``gold == trace.to_grp()``; else ``trace.to_grp()`` (for the differences).

        ``gold`` is the item's recorded GRP; the answer is the same as
        comparing it with a freshly rendered one.
        """
        if not isinstance(gold, dict):
            return trace.to_grp()
        try:
            key, memo = self._key(trace)
            template = memo.get(key)
        except (TypeError, AttributeError):  # a value that cannot be a key, or a Trace without these fields: render
            grp = trace.to_grp()
            return None if gold == grp else grp
        if template is None:
            self.misses += 1
            grp = trace.to_grp()
            if (("question_id" in grp) == (trace.scenario_id is not None) and grp.get("question_id") == trace.scenario_id
                    and ("layer" in grp) == (trace.layer is not None) and grp.get("layer") == trace.layer):
                template = self._template(grp)
                if template is not None:
                    if len(memo) >= self.limit:
                        memo.clear()
                    memo[key] = template
            return None if gold == grp else grp
        self.hits += 1
        rest, program = template
        if len(gold) != len(rest) + 1 + (trace.scenario_id is not None) + (trace.layer is not None):
            return trace.to_grp()
        for name, value in rest.items():
            if gold.get(name, _ABSENT) != value:
                return trace.to_grp()
        if trace.scenario_id is not None and gold.get("question_id", _ABSENT) != trace.scenario_id:
            return trace.to_grp()
        if trace.layer is not None and gold.get("layer", _ABSENT) != trace.layer:
            return trace.to_grp()
        # the gate entries as canonical text: equal text, equal entries (and far cheaper than comparing the dicts).
        # The item's entries are written in their own key order: sorted in every line ipb perturb writes; any
        # other order differs from the sorted text, and the whole GRP is rendered and compared instead.
        try:
            if _orjson.dumps(gold.get("gold_program")) != program:
                return trace.to_grp()
        except (TypeError, ValueError):  # not writable as JSON: compare the rendered GRP
            return trace.to_grp()
        return None

    @staticmethod
    def _template(grp: Mapping[str, Any]) -> tuple[dict[str, Any], bytes] | None:
        """``grp`` without ``question_id``, ``layer`` and ``gold_program``, and its gate entries as canonical JSON."""
        try:
            # a copy of exactly its length (orjson hands back its larger working buffer)
            program = bytes(memoryview(_orjson.dumps(grp["gold_program"], option=_orjson.OPT_SORT_KEYS)))
        except (KeyError, TypeError, ValueError):
            return None
        return {k: v for k, v in grp.items() if k not in ("question_id", "layer", "gold_program")}, program


class ConstraintMemo:
    """Whether facts break each constraint of a card, remembered by the values the constraint reads.

    :meth:`ipb.engine.card.Constraint.broken` evaluates the constraint's
    expression, which reads only the names in ``expr.names`` (and, for a
    ``derive:`` constraint, the derived input). When every such name is an
    input of the card, the answer is keyed by those inputs' values (with
    their types, or their absence); a constraint that reads a computed value
    is evaluated every time.
    """

    def __init__(self, limit: int = MEMO_LIMIT) -> None:
        self.limit = limit
        self._cards: dict[int, tuple[Card, list[tuple[Constraint, tuple[str, ...] | None, dict[Any, bool]]]]] = {}

    def broken(self, card: Card, facts: Mapping[str, Any]) -> list[Constraint]:
        """The constraints of ``card`` that ``facts`` (engine values of the card's inputs) break, in card order."""
        held = self._cards.get(id(card))
        if held is None or held[0] is not card:
            plans: list[tuple[Constraint, tuple[str, ...] | None, dict[Any, bool]]] = []
            for k in card.constraints:
                reads = set(k.expr.names) | ({k.derive} if k.derive is not None else set())
                plans.append((k, tuple(sorted(reads)) if reads <= set(card.inputs) else None, {}))
            held = self._cards[id(card)] = (card, plans)
        out = []
        for k, names, memo in held[1]:
            if names is None:
                found = k.broken(facts)
            else:
                key = tuple([(v.__class__, v) for v in [facts.get(n, _ABSENT) for n in names]])
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


def conditions_agree(item: Mapping[str, Any], decks: dict[Any, Any]) -> bool:
    """True when :func:`ipb.perturb.items.condition_problems` finds nothing (False: ask it for the messages).

    The same hashes, computed with fewer copies: condition B's key is the
    SHA-256 of ``{"investors":[...],"query":QUESTION}`` written canonically,
    here put together from orjson's text of the two values (the keys are
    already in sorted order); condition C comes from ``decks``, the same memo
    per deck of (card id, content hash) that ``condition_problems`` keeps.
    Anything unexpected (a missing field, a value of another type) answers
    False, and the caller's ``condition_problems`` gives the answer or the error.
    """
    try:
        stored = item["conditions"]
        if type(stored) is not dict:
            return False
        cards = item["manifest"]["cards"]
        deck = tuple((c["id"], c["content_hash"]) for c in cards)
        fresh_c = decks.get(deck)
        if fresh_c is None:
            fresh_c = decks[deck] = conditions("", [c["investor"] for c in cards], cards)["C"]
        if stored["C"] != fresh_c:
            return False
        b = stored["B"]
        question = item["question"]
        people = list(dict.fromkeys(c["investor"] for c in cards))
        if type(b) is not dict or len(b) != 3 or b.get("investors") != people:
            return False
        text = question.encode("utf-8")
        if b.get("query_sha256") != sha256(text).hexdigest():
            return False
        key = b"".join((b'{"investors":', _orjson.dumps(people), b',"query":', _orjson.dumps(question), b"}"))
        return bool(b.get("key") == sha256(key).hexdigest())
    except Exception:  # noqa: BLE001 - the slow path reports (or raises) exactly what it always did
        return False
