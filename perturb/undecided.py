"""Whether a conjunction card can end INCONCLUSIVE with every fact its gates read stated (issue 18, stop 33).

A linear or parallel conjunction ends INCONCLUSIVE when a decisive gate is INCONCLUSIVE, or when no gate
PROCEEDs (paper section 7.3; issue 15's decisive gates). With an input undisclosed that is the question's
concern (``ipb.perturb.render.undecidable``); with every input stated a gate is still INCONCLUSIVE when

* it has both a ``proceed`` and a ``reject`` criterion and a stated value meets neither (NBIM's decision
  still pending; a spin-off's insider stake between the trivial and the required one; an EV/EBIT between
  the required discount and the peers'), or
* a value it computes or reads is undefined (a divisor zero: Greenblatt's return on capital on zero or
  negative capital), so what would be PROCEED is INCONCLUSIVE.

:func:`undecided_gates` finds such gates by running the card (diagnostic mode, so gates past a REJECT run
too) on a lattice of values of the inputs each gate reads: every category and bool value, and for a numeric
input its grid's ends, evenly spaced grid points and the grid points next to every constant of the card
(where a criterion's band lies). It reads the card only, never an item's gold. A gate reading an input with no
grid (a date, an unbounded number) is counted as able to be undecided when it has both criteria or divides by
a value that can be zero (a ``/`` in its expressions or the computed values they read whose divisor is not a
non-zero literal or constant; the expression language has no other undefined arithmetic).

The work is bounded (stop 34): a gate runs at most :data:`LATTICE_LIMIT` scenarios and a card at most
:data:`CARD_LIMIT` (each gate's share ``CARD_LIMIT // gates``, at least one). A lattice wider than its share
(many inputs, many constants: 8 bundled gates, up to 3,317,760 points) is sampled, ``random.Random``
seeded with :data:`SAMPLE_SEED`, without repeats; a gate with no INCONCLUSIVE scenario in the sample counts
as decided. Every bundled card keeps the answer of its full lattice (checked at stop 34: the undecided
gates of wide lattices are undecided on 8% to 97% of their points).
Until stop 33 a conjunction was said never to end INCONCLUSIVE, and 68 of 504 sampled INCONCLUSIVE golds
(60 items x the first three bases x every bundled card, seed 1) were asked without it.
"""

from __future__ import annotations

import math
import random
import sys
from decimal import Decimal
from itertools import product
from typing import Any, Iterator, Mapping, Sequence

from lark import Token, Tree

from ipb.engine.card import Card, Constraint, Gate, InputSpec
from ipb.engine.execute import execute
from ipb.engine.expressions import CompiledExpression, parse_expression, parse_literal
from ipb.engine.graph import CompiledCard
from ipb.engine.logic import Verdict
from ipb.perturb.values import input_grid

__all__ = ["can_be_undefined", "gate_marks", "undecided_gates", "undecided_on_stated_facts"]

#: At most this many scenarios are run per gate (a wider lattice is sampled).
LATTICE_LIMIT = 1024
#: At most this many scenarios are run per card (shared evenly by its gates, at least one each).
CARD_LIMIT = 16 * LATTICE_LIMIT
#: The seed of the sample of a lattice wider than its gate's share.
SAMPLE_SEED = 0
#: The grammar's number literals (``ipb/grammar/expression.lark``: rule ``number``'s aliases).
_NUMBER_RULES = frozenset({"percent", "multiple", "money", "scaled", "decimal"})

_memo: dict[tuple[str, str], frozenset[str]] = {}
_marks_memo: dict[tuple[str, str, str], tuple[tuple[Decimal, ...], frozenset[str]]] = {}


def _computed(card: Card) -> dict[str, CompiledExpression]:
    return {name: expr for g in card.gates for name, expr in g.compute.items()}


def _read(gate: Gate, computed: Mapping[str, CompiledExpression]) -> tuple[set[str], list[CompiledExpression]]:
    """The names ``gate`` reads, through the computed values it reads, and every expression on the way."""
    todo = [e for e in (gate.proceed, gate.reject, *gate.compute.values()) if e is not None]
    exprs: list[CompiledExpression] = []
    names: set[str] = set()
    while todo:
        expr = todo.pop()
        exprs.append(expr)
        for name in expr.names - names:
            names.add(name)
            if name in computed:
                todo.append(computed[name])
    return names, exprs


def gate_marks(card: Card, gate: Gate) -> tuple[tuple[Decimal, ...], frozenset[str]]:
    """``(numbers, names)``: the card constants and number literals ``gate`` compares with (through the computed
    values it reads), and every name it reads. Remembered per card and gate (stop 63: the values
    ``ipb.perturb.undisclosed.probe_values`` tries beside them).

    >>> from ipb.engine.registry import compiled_card
    >>> card = compiled_card("lynch_six_category_framework").card
    >>> marks, names = gate_marks(card, next(g for g in card.gates if g.id == "balance_sheet"))
    >>> [str(m) for m in marks], sorted(names)
    (['0.25', '0.80'], ['debt_share', 'normal_debt_share', 'weak_debt_share'])
    """
    key = (card.id, card.content_hash or "", gate.id)
    found = _marks_memo.get(key)
    if found is not None:
        return found
    names, exprs = _read(gate, _computed(card))
    marks: set[Decimal] = {v for n, (v, _) in card.constants.items() if n in names and isinstance(v, Decimal)}
    for expr in exprs:
        for sub in parse_expression(expr.source).iter_subtrees():
            if sub.data in _NUMBER_RULES:
                value = parse_literal(str(sub.children[0]))[0]
                if isinstance(value, Decimal):
                    marks.add(value)
    found = _marks_memo[key] = (tuple(sorted(marks)), frozenset(names))
    return found


def _points(spec: InputSpec, count: int, marks: list[Decimal]) -> list[Any] | None:
    """Up to about ``count`` values of ``spec`` (plus those beside each constant in ``marks``); None: no lattice."""
    if spec.type == "bool":
        return [True, False]
    if spec.type == "category":
        return list(spec.values or ()) or None
    grid = input_grid(spec) if spec.range is not None else None
    if grid is None:
        return None
    if grid.count <= count:
        return [grid.value(k) for k in range(grid.count)]
    ks = {round(i * (grid.count - 1) / (count - 1)) for i in range(count)}
    for mark in marks:
        if grid.lo <= mark <= grid.hi:
            k = int((mark - grid.lo) // grid.step)
            ks.update(j for j in (k - 1, k, k + 1, k + 2) if 0 <= j < grid.count)
    return [grid.value(k) for k in sorted(ks)]


def _derived_through(card: Card, inputs: Sequence[str]) -> dict[str, Constraint]:
    """The inputs of ``inputs`` that a ``derive:`` constraint computes and that have no lattice of their own (no
    range) while every input the derivation reads has one: each with its constraint (s59break B11).

    Such an input is stated whenever its sources are, at the values the derivation gives them; counted as an input
    with no lattice, a two-sided gate reading it was taken to be able to end INCONCLUSIVE (a Templeton card whose
    ``holding_years`` is ``holding_months / 12`` was said to be able to, and its run reported INCONCLUSIVE "never
    produced").
    """
    found: dict[str, Constraint] = {}
    for rule in card.constraints:
        target = rule.derive
        if target is None or target not in inputs or _points(card.inputs[target], 2, []) is not None:
            continue
        sources = [m for m in rule.expr.names if m in card.inputs]
        if sources and all(_points(card.inputs[m], 2, []) is not None for m in sources):
            found[target] = rule
    return found


def _in_range(spec: InputSpec, value: Decimal) -> bool:
    return spec.range is not None and spec.range[0] <= value <= spec.range[1]


def _nonzero_constant(node: Tree | Token, constants: Mapping[str, Any]) -> bool:
    """Whether the divisor ``node`` is a number literal or a card constant, and not zero (so never undefined)."""
    while isinstance(node, Tree) and node.data == "neg":
        node = node.children[0]
    if not isinstance(node, Tree):
        return False
    if node.data in _NUMBER_RULES:
        return _literal_nonzero(str(node.children[0]))
    if node.data == "name":
        value = constants.get(str(node.children[0]), (None,))[0]
        return isinstance(value, Decimal) and value != 0
    return False


def _literal_nonzero(text: str) -> bool:
    """Whether the number literal ``text`` (``25%``, ``$5B``, ``0.0``) is not zero: some digit of its mantissa is
    not 0 (the exponent of ``1e-3`` and the unit do not make a value zero)."""
    mantissa = text.lower().split("e")[0]
    return any(ch in "123456789" for ch in mantissa)


def can_be_undefined(source: str, constants: Mapping[str, Any]) -> bool:
    """Whether the expression ``source`` divides by something that can be zero: a ``/`` whose divisor is not a
    non-zero number literal or card constant. A ``/`` in a string or a name (``"n/a"``, ``catalog``) is no
    division.

    >>> can_be_undefined('ebit / (capital - 2)', {}), can_be_undefined('ebit / 2 > 1', {})
    (True, False)
    >>> can_be_undefined('sector in {"n/a"} and catalog_log > 0', {}), can_be_undefined('x / k', {"k": (Decimal(4), "")})
    (False, False)
    """
    for sub in parse_expression(source).iter_subtrees():
        kids = sub.children
        for op, divisor in zip(kids[1::2], kids[2::2]):
            if isinstance(op, Tree) and op.data == "mul_op" and str(op.children[0]) == "/" \
                    and not _nonzero_constant(divisor, constants):
                return True
    return False


def _lattice(points: Sequence[Sequence[Any]], share: int) -> Iterator[tuple[Any, ...]]:
    """Every point of the product of ``points``, or a seeded sample of ``share`` of them (no repeats while the
    product's size fits a machine index) when it is wider."""
    total = math.prod(len(p) for p in points)
    if total <= share:
        yield from product(*points)
        return
    rng = random.Random(SAMPLE_SEED)
    picks = rng.sample(range(total), share) if total <= sys.maxsize else [rng.randrange(total) for _ in range(share)]
    for index in picks:
        values = []
        for axis in reversed(points):
            index, k = divmod(index, len(axis))
            values.append(axis[k])
        yield tuple(reversed(values))


def undecided_gates(compiled: CompiledCard) -> frozenset[str]:
    """Ids of the gates of ``compiled`` that some scenario stating every input they read leaves INCONCLUSIVE.

    Remembered per card (id and content hash).

    >>> from ipb.engine.registry import compiled_card
    >>> sorted(undecided_gates(compiled_card("greenblatt_spinoff_checklist")))
    ['hidden_value_revealed', 'insiders_want_it']
    >>> sorted(undecided_gates(compiled_card("buffett_acquisition_checklist")))
    ['management_integrity']
    """
    card = compiled.card
    key = (card.id, card.content_hash or "")
    found = _memo.get(key)
    if found is not None:
        return found
    computed = _computed(card)
    marks = [v for v, _ in card.constants.values() if isinstance(v, Decimal)]
    share = max(1, min(LATTICE_LIMIT, CARD_LIMIT // max(1, len(card.gates))))
    open_: set[str] = set()
    for i, gate in enumerate(card.gates):
        names, exprs = _read(gate, computed)
        inputs = sorted(n for n in names if n in card.inputs)
        through = _derived_through(card, inputs)
        if through:  # a derived input without a lattice of its own takes its values from its sources' lattices
            inputs = sorted((set(inputs) - set(through)) | {m for k in through.values() for m in k.expr.names
                                                            if m in card.inputs})
        points: list[list[Any]] = []
        fixed = 1
        numeric = []
        for n in inputs:
            got = _points(card.inputs[n], 2, [])
            if got is None:
                points = []
                break
            if card.inputs[n].type in ("bool", "category"):
                fixed *= len(got)
            else:
                numeric.append(n)
        else:
            near = {n: [m for m in marks if _in_range(card.inputs[n], m)] for n in numeric}

            def size(per: int) -> int:
                total = fixed
                for n in numeric:
                    total *= per + 4 * len(near[n])
                return total

            per = 2
            while numeric and size(per + 1) <= share:
                per += 1
            points = [_points(card.inputs[n], per, near.get(n, [])) or [] for n in inputs]
        if not points and inputs:  # an input with no lattice: the structural answer
            two_sided = gate.proceed is not None and gate.reject is not None
            if two_sided or any(can_be_undefined(e.source, card.constants) for e in exprs):
                open_.add(gate.id)
            continue
        for values in _lattice(points, share):
            facts = dict(zip(inputs, values))
            for target, rule in through.items():
                value = rule.value_for(facts)
                if value is not None:  # None: undefined on these values (a divisor zero), left unknown
                    facts[target] = value
            result = execute(compiled, facts, diagnostic=True).gates[i]
            verdict = result.diagnostic_verdict if result.diagnostic_verdict is not None else result.verdict
            if verdict is Verdict.INCONCLUSIVE:
                open_.add(gate.id)
                break
    found = _memo[key] = frozenset(open_)
    return found


def undecided_on_stated_facts(compiled: CompiledCard) -> bool:
    """Whether a conjunction ends INCONCLUSIVE on some scenario stating every input: a decisive gate (or every
    gate) in :func:`undecided_gates`.

    >>> from ipb.engine.registry import compiled_card
    >>> undecided_on_stated_facts(compiled_card("nbim_gpfg_exclusion_screen"))
    True
    >>> undecided_on_stated_facts(compiled_card("buffett_acquisition_checklist"))
    False
    """
    open_ = undecided_gates(compiled)
    gates = compiled.card.gates
    return bool(gates) and (all(g.id in open_ for g in gates) or any(g.decisive and g.id in open_ for g in gates))
