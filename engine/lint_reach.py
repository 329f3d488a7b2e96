"""Lint for criteria and constraints that no scenario can satisfy (``ipb check``, stop 35).

A card author who writes ``reject: cycle_position == "peak" and cycle_position == "trough"`` has a gate
that can never reject, and one who writes ``require: pe > 50x`` beside ``range: [2x, 40x]`` has a
constraint that every scenario breaks: the loader accepts both, ``ipb check`` said nothing, and the
second surfaced only when a scenario was checked (a new user's Neff card, stop 35). Two checks, each a
:class:`~ipb.errors.LintWarning` at the criterion or rule:

* ``never-fires``: a gate's kill criterion (its ``reject``, else the negation of its ``proceed``) or its
  pass criterion (its ``proceed``, else the negation of its ``reject``) holds in no tried combination, so
  the gate never REJECTs, or never PROCEEDs;
* ``unsatisfiable-constraint``: a ``require`` rule false in every tried combination, so every scenario
  breaks it (``ipb perturb`` can make no item).

The combinations are every value of each bool and category input and, for a numeric input with a
declared ``range``, every point of its grid ``lo + k * step`` when it has fewer than :data:`STEP_LIMIT`,
else its ends, the seven points between them at eighths and every card constant inside it (the grid of
the ``shadowed-rule`` check, :func:`ipb.engine.lint._grid_values`); on such a coarse axis the thresholds a
criterion sets the input against alone (literals and constants) and the midpoints between neighbouring points are
tried too, so a band between two eighths ("pe >= 10x and pe <= 12x" over 0x..100x) is found, and a criterion that
reads a coarse input through arithmetic or beside another input is not judged. Only an exhaustive product of at most
:data:`ipb.engine.lint.GRID_LIMIT` combinations warns: a wider product, an input without a range (a
date, an unbounded number) or an equality over an input not tried on its whole grid says nothing, so
a narrow band (``pe == 7.5x`` on a grid of eighths) is not reported. A gate criterion that reads a computed value is checked on its pass side only (``never PROCEEDs``: such
a gate stops every scenario and the gates after it are never reached, s47break): a guard such as Buffett's
``reject: intrinsic_value <= 0`` never holds on the declared ranges by design, so "never REJECTs" says nothing
there. A computed value over an input tried at a few points counts as tried at a few points too, so a criterion
comparing it is not judged. A ``proceed`` written as parts joined by ``and`` is also judged part by part: a part
that never holds over its own inputs (``market_value < $0`` over [$1M, $500M]) is a whole that never holds,
though the whole reads too many inputs to try. A constant criterion
(``reject: "false"``) is ``constant-criterion``'s (:mod:`ipb.engine.lint`).

Where the grid says nothing (an input without a ``range``, a grid too wide, a guard over a computed value), a gate's
``reject`` or ``proceed`` and a ``require`` rule are also read by intervals (:mod:`ipb.engine._intervals`, s52user):
tests of one value against numbers joined by ``and`` that no number passes together (``a < 0 and a > 0``) give the
same two warnings, naming the tests.
"""

from __future__ import annotations

import itertools
import math
import re
from decimal import Decimal
from fractions import Fraction
from typing import Any, Iterable

from ipb.engine.card import BUILTINS, Card, Gate, InputSpec
from lark import Tree

from ipb.engine._gaps import find_gap
from ipb.engine._intervals import first_conflict
from ipb.engine.execute import format_value
from ipb.engine.expressions import CompiledExpression, ExprType, category, compile_expression, parse_expression
from ipb.engine.lint import GRID_LIMIT, _at, _grid_values
from ipb.engine.numbers import read_number
from ipb.errors import IpbError, LintWarning

__all__ = ["lint_reach"]

#: A numeric input whose grid (``lo + k * step``) has fewer points is tried on every one of them.
STEP_LIMIT = 256


def _computes(card: Card) -> list[tuple[str, CompiledExpression]]:
    return [(name, expr) for g in card.gates for name, expr in g.compute.items()]


def _inputs_read(card: Card, exprs: Iterable[CompiledExpression]) -> list[str] | None:
    """The inputs ``exprs`` read, through computed values; None when a name is neither (a classifier's id)."""
    computes = dict(_computes(card))
    todo, seen = list(exprs), set[str]()
    while todo:
        for name in todo.pop().names - seen:
            seen.add(name)
            if name in computes:
                todo.append(computes[name])
            elif name not in card.inputs and name not in card.constants:
                return None
    return sorted(n for n in seen if n in card.inputs)


def _axis(spec: InputSpec, constants: list[Any], fine: bool) -> tuple[list[Any], bool]:
    """The values tried for one input and whether they are all its values (bool, category, and with ``fine`` a
    step grid of fewer than ``STEP_LIMIT`` points)."""
    if spec.type in ("bool", "category") or spec.range is None:
        return _grid_values(spec, constants), True
    lo, hi = spec.range
    if fine and spec.step and spec.step > 0 and (hi - lo) / spec.step < STEP_LIMIT:
        count = int((hi - lo) // spec.step) + 1
        return [lo + k * spec.step for k in range(count)], True
    return _grid_values(spec, constants), False


def _equated(source: str) -> set[str]:
    """The names inside a comparison by ``==`` or ``!=`` in ``source`` (``pe == 7.5x``: a point a coarse grid
    misses)."""
    names: set[str] = set()
    for sub in parse_expression(source).iter_subtrees():
        if sub.data == "comparison" and any(isinstance(k, Tree) and k.data == "comp_op" and
                                            str(k.children[0]) in ("==", "!=") for k in sub.children):
            names |= {str(n.children[0]) for n in sub.iter_subtrees() if n.data == "name"}
    return names


#: Number literals of the expression grammar.
_LITERALS = frozenset({"percent", "multiple", "money", "scaled", "decimal"})


def _fixed(node: Any, card: Card) -> Decimal | None:
    """The value of a literal, a negated literal or a card constant; None for anything else."""
    if not isinstance(node, Tree):
        return None
    if node.data in _LITERALS:
        return read_number(str(node.children[0])).value
    if node.data == "neg":
        inner = _fixed(node.children[0], card)
        return None if inner is None else -inner
    if node.data == "name" and str(node.children[0]) in card.constants:
        value = card.constants[str(node.children[0])][0]
        return value if isinstance(value, Decimal) else None
    return None


def _thresholds(card: Card, sources: list[str], coarse: set[str]) -> set[Decimal] | None:
    """The values at which a criterion over the ``coarse`` inputs (tried at a few points, not their whole grid) can
    change, or None when that is not sure: every comparison reading one of them must set that input alone against
    literals or constants ("pe >= 10x and pe <= 12x", "7% <= growth <= max_growth"); its truth is then constant
    between the thresholds, so trying them and the midpoints between them decides it. A comparison reading a coarse
    input through arithmetic or beside another input ("pe <= 0.6 * market_pe") makes the answer unsure."""
    found: set[Decimal] = set()

    def sure(node: Any) -> bool:
        if not isinstance(node, Tree):
            return True
        if node.data in ("and_", "or_", "not_"):
            return all(sure(k) for k in node.children)
        if node.data == "call" and str(node.children[0]) == "known":
            return True  # (tried with the fact missing: _asked_known)
        if not {str(n.children[0]) for n in node.iter_subtrees() if n.data == "name"} & coarse:
            return True
        if node.data != "comparison":
            return False  # a coarse input outside a comparison
        subjects = 0
        for operand in node.children:
            if isinstance(operand, Tree) and operand.data == "comp_op":
                continue
            value = _fixed(operand, card)
            if value is not None:
                found.add(value)
            elif isinstance(operand, Tree) and operand.data == "name" and str(operand.children[0]) in card.inputs:
                subjects += 1
            else:
                return False
        return subjects == 1

    return found if all(sure(parse_expression(source)) for source in sources) else None


def _refined(values: list[Any], thresholds: set[Decimal]) -> list[Any]:
    """A coarse axis with the thresholds inside it and the midpoint of every two neighbouring points."""
    lo, hi = values[0], values[-1]
    points = sorted(set(values) | {t for t in thresholds if lo <= t <= hi})
    mids = {(Fraction(a) + Fraction(b)) / 2 for a, b in zip(points, points[1:])}  # (a constant may be a Fraction)
    return sorted(set(points) | {Decimal(m.numerator) / Decimal(m.denominator) for m in mids})


#: An input left out of a combination (unknown), for the inputs a criterion asks ``known()`` of.
_MISSING = object()


def _asked_known(sources: list[str]) -> set[str]:
    """The names inside a ``known(...)`` call in ``sources``."""
    return {str(n.children[0]) for source in sources for sub in parse_expression(source).iter_subtrees()
            if sub.data == "call" and str(sub.children[0]) == "known"
            for n in sub.iter_subtrees() if n.data == "name"}


def _computed_inputs(card: Card) -> dict[str, set[str]]:
    """The inputs each computed value of ``card`` reads, through other computed values (found once per card: a
    card of many gates asked it of every computed value at every criterion, s47break's 300-gate card)."""
    return {name: set(_inputs_read(card, [expr]) or ()) for name, expr in _computes(card)}


def _grid(card: Card, inputs: list[str], sources: list[str],
          deps: dict[str, set[str]] | None = None) -> list[dict[str, Any]] | None:
    """Every combination of the inputs' tried values with the constants and computed values, or None when the
    answer would not be sure: an input without values, more than ``GRID_LIMIT`` combinations, or an equality
    (``==``, ``!=``) over an input whose tried values are not all its grid. Whole step grids first, the
    coarse grid when their product is too wide."""
    constants = [v for v, _ in card.constants.values()]
    for fine in (True, False):
        tried = [_axis(card.inputs[name], constants, fine) for name in inputs]
        if math.prod(len(values) for values, _ in tried) <= GRID_LIMIT:
            break
    coarse = {name for name, (_, whole) in zip(inputs, tried) if not whole}
    # a computed value over a coarse input is coarse too: its thresholds are not the input's ("ncav" over a money
    # input tried at eighths), so a criterion comparing it is unsure (a "never" there would be a guess)
    if coarse:
        coarse |= {name for name, read in (deps if deps is not None else _computed_inputs(card)).items() if read & coarse}
    if any(coarse & _equated(source) for source in sources):
        return None
    axes = [values for values, _ in tried]
    if coarse:  # a band between two grid points ("pe >= 10x and pe <= 12x" over eighths of 0x..100x) is no "never"
        thresholds = _thresholds(card, sources, coarse)
        if thresholds is None:
            return None
        axes = [_refined(values, thresholds) if name in coarse and values else values
                for name, (values, _) in zip(inputs, tried)]
    total = 1
    for axis in axes:
        total *= len(axis)
    if not inputs or total == 0 or total > GRID_LIMIT:
        return None
    # an input a criterion asks known() of is tried missing too: "reject: not known(opinion)" rejects a scenario
    # that does not state it (warned never to REJECT before)
    asked = _asked_known(sources)
    axes = [[*values, _MISSING] if name in asked else values for name, values in zip(inputs, axes)]
    if math.prod(len(axis) for axis in axes) > GRID_LIMIT:
        return None
    base = {n: v for n, (v, _) in card.constants.items()}
    computes = _computes(card)
    # only the computed values the criteria reach, in card order (a card of many gates evaluated every gate's at
    # every combination of every gate: seconds for a 40-gate card)
    wanted = {str(n.children[0]) for source in sources for n in parse_expression(source).iter_subtrees() if n.data == "name"}
    grown = True
    while grown:  # (to a fixed point: a computed value may read another)
        before = len(wanted)
        wanted |= {n for name, expr in computes if name in wanted for n in expr.names}
        grown = len(wanted) > before
    computes = [(name, expr) for name, expr in computes if name in wanted]
    envs = []
    for combo in itertools.product(*axes):
        env = {**base, **{n: v for n, v in zip(inputs, combo) if v is not _MISSING}}
        for name, expr in computes:
            env[name] = expr(env)
        envs.append(env)
    return envs


def _never(expr: CompiledExpression, envs: list[dict[str, Any]], negate: bool) -> bool:
    want = False if negate else True
    return not any(expr(env) is want for env in envs)


def _parts(card: Card, expr: CompiledExpression) -> list[CompiledExpression]:
    """``expr`` and, when it is an ``and`` of parts, each part compiled alone: a part that never holds is a whole
    that never holds, and a part reads fewer inputs, so its grid may be exhaustive where the whole's is too wide
    (``market_value <= 2/3 * ncav and market_value < $0``: the second part alone, over one input)."""
    found = [expr]
    tree = parse_expression(expr.source)
    if tree.data != "and_":
        return found
    constants = {n: v for n, (v, _) in card.constants.items()}
    # the card's names (Card.symbols, built here: a computed value that is not a compiled expression is left out,
    # so a part reading it does not compile and is left to the whole)
    symbols: dict[str, ExprType] = dict(BUILTINS)
    symbols.update({n: t for n, (_, t) in card.constants.items()})
    symbols.update({n: spec.expr_type for n, spec in card.inputs.items()})
    symbols.update({n: e.type for n, e in _computes(card) if isinstance(e, CompiledExpression)})
    symbols.update({g.id: category(r for r, _ in g.classify) for g in card.gates if g.classify})
    for child in tree.children:
        start, end = getattr(child.meta, "start_pos", None), getattr(child.meta, "end_pos", None)
        if start is None or end is None:
            continue
        try:
            found.append(compile_expression(expr.source[start:end], symbols, expect="bool", constants=constants))
        except IpbError:
            continue  # (a part the card's own compile accepted only in its context: left to the whole)
    return found


def _never_in(card: Card, expr: CompiledExpression, negate: bool,
              deps: dict[str, set[str]]) -> tuple[CompiledExpression, list[str], int] | None:
    """The part of ``expr`` (itself first) that never holds (never fails with ``negate``) on an exhaustive grid,
    with the inputs tried and the number of combinations; None when none is sure to."""
    for part in (_parts(card, expr) if not negate else [expr]):
        if part.constant or not part.names:
            continue
        inputs = _inputs_read(card, [part])
        envs = _grid(card, inputs, [part.source], deps) if inputs else None
        if envs is not None and _never(part, envs, negate):
            return part, inputs or [], len(envs)
    return None


def _gate_warnings(card: Card, index: int, gate: Gate, deps: dict[str, set[str]]) -> list[IpbError]:
    computed = {name for name, _ in _computes(card)}
    exprs = [e for e in (gate.proceed, gate.reject) if e is not None]
    if not exprs or gate.classify or gate.branches or any(not e.names for e in exprs):
        return []  # a constant criterion is constant-criterion's
    # A criterion over a computed value is checked on its pass side only: a guard such as Buffett's
    # ``reject: intrinsic_value <= 0`` never holds on the declared ranges by design, but a gate that can never
    # PROCEED stops every scenario there and leaves the gates after it unreached (s46break's leftover 10).
    guard = any(e.names & computed for e in exprs)
    found = []
    # (what never happens, the criterion, whether its negation is the test, the key it is written at)
    for outcome, expr, negate, key in (
            ("REJECTs", gate.reject or gate.proceed, gate.reject is None, "reject" if gate.reject else "proceed"),
            ("PROCEEDs", gate.proceed or gate.reject, gate.proceed is None, "proceed" if gate.proceed else "reject")):
        assert expr is not None
        never = None if guard and outcome == "REJECTs" else _never_in(card, expr, negate, deps)
        if never is None:
            if not negate:  # no grid (an input without a range) or a guard: tests of one value that contradict
                found.extend(_contradiction(card, expr, f"gate {gate.id!r} never {outcome}: {key} criterion",
                                            "never-fires", gate.id, ("gates", index, key)))
            continue
        part, inputs, count = never
        side = f"{'the negation of ' if negate else ''}{key} criterion {expr.source.strip()!r}"
        if part is not expr:
            side += f": its part {part.source.strip()!r}"
        found.append(_at(card.doc, LintWarning(
            f"gate {gate.id!r} never {outcome}: {side} holds in none of the {count} combinations of "
            f"{', '.join(inputs)} tried over their declared values and ranges; check the criterion "
            "(two tests of one input joined by 'and'?) or the inputs' ranges", rule="never-fires",
            name=gate.id), ("gates", index, key)))
    return found + _gap(card, index, gate)


#: A gate description that says known values may leave it undecided ("INCONCLUSIVE in between", "a flat impulse
#: leaves it undecided"): its gap is meant (eleven bundled gates, each so described).
_MEANT = re.compile(r"\b(?:inconclusive|undecided)\b", re.IGNORECASE)


def _undecided_meant(gate: Gate) -> bool:
    """Whether the author says the gate may be INCONCLUSIVE: its ``description`` says so or its
    ``elements_by_verdict`` lists what an INCONCLUSIVE answer states."""
    return "INCONCLUSIVE" in gate.elements_by_verdict or bool(_MEANT.search(gate.description or ""))


def _gap(card: Card, index: int, gate: Gate) -> list[IpbError]:
    """A ``criteria-gap`` warning when known values leave both of a gate's criteria false (:mod:`ipb.engine._gaps`,
    s53newuser): the gate is INCONCLUSIVE there with every fact known; else none."""
    if gate.reject is None or gate.proceed is None or _undecided_meant(gate):
        return []
    computed = {n for n, _ in _computes(card)}
    subjects = {n: t for n, t in card.symbols.items() if n in card.inputs or n in computed}
    ranges = {n: spec.range for n, spec in card.inputs.items() if spec.range is not None}
    found = find_gap(gate.reject, gate.proceed, {n: v for n, (v, _) in card.constants.items()}, subjects, ranges,
                     computed, format_value)
    if found is None:
        return []
    free = ""
    if found.free:
        free = (f" ({', '.join(found.free)} {'is' if len(found.free) == 1 else 'are'} computed and taken as free here: "
                "the gap is real where the formula can reach it)")
    return [_at(card.doc, LintWarning(
        f"gate {gate.id!r} has a gap between its criteria: with {found.text} neither reject "
        f"{gate.reject.source.strip()!r} nor proceed {gate.proceed.source.strip()!r} holds, so the gate is "
        f"INCONCLUSIVE with every fact known{free}; make one criterion the negation of the other (or write only "
        "one of them) unless such a scenario is meant to stay undecided", rule="criteria-gap", name=gate.id),
        ("gates", index, "proceed"))]


def _contradiction(card: Card, expr: CompiledExpression, what: str, rule: str, name: str,
                   path: tuple[Any, ...]) -> list[IpbError]:
    """A warning when tests of one value joined by ``and`` in ``expr`` admit no number (:mod:`ipb.engine._intervals`:
    needs no declared range, s52user), at ``path``; else none."""
    subjects = set(card.inputs) | {n for n, _ in _computes(card)}
    hit = first_conflict(expr.source, {n: v for n, (v, _) in card.constants.items()}, subjects)
    if hit is None:
        return []
    tests = " and ".join(repr(t.text.strip()) for t in hit.tests)
    return [_at(card.doc, LintWarning(
        f"{what} {expr.source.strip()!r} holds for no value of {hit.name}: its tests {tests} admit no number "
        "together, whatever the scenario; check the criterion (one test meant to be 'or', or a bound the wrong "
        "way round?)", rule=rule, name=name), path)]


def lint_reach(card: Card) -> list[IpbError]:
    """``never-fires`` and ``unsatisfiable-constraint`` warnings of ``card``, sorted by position.

    Examples
    --------
    >>> from ipb.engine._demo import demo_card
    >>> text = '''inputs:
    ...   pe: {type: multiple, range: [2x, 40x]}
    ...   phase: {type: category, values: [trough, peak]}
    ... constraints:
    ...   - {id: impossible, require: pe > 50x}
    ... gates:
    ...   - {id: g, name: G, reject: phase == "peak" and phase == "trough", required_elements: [x]}
    ...   - {id: h, name: H, proceed: pe <= 20x, required_elements: [w]}
    ... '''
    >>> for w in lint_reach(demo_card(text)):
    ...     print(w.rule, w.line, w.column)
    unsatisfiable-constraint 15 31
    never-fires 17 30
    """
    found: list[IpbError] = []
    deps = _computed_inputs(card)
    for i, gate in enumerate(card.gates):
        found.extend(_gate_warnings(card, i, gate, deps))
    for j, rule in enumerate(card.constraints):
        if rule.derive is not None:
            continue
        # the whole rule, then each part of an ``and`` alone (s53break: ``market_value <= ncav and market_value <
        # $0`` over [$1M, $500M] reads two wide inputs, too many combinations to try whole, so it was never judged)
        never = None if rule.expr.constant or not rule.expr.names else _never_in(card, rule.expr, False, deps)
        if never is None:
            found.extend(_contradiction(card, rule.expr, f"constraint {rule.id!r}", "unsatisfiable-constraint",
                                        rule.id, ("constraints", j, "require")))
            continue
        part, inputs, count = never
        its = f"; its part {part.source.strip()!r}" if part is not rule.expr else ""
        found.append(_at(card.doc, LintWarning(
            f"constraint {rule.id!r} ({rule.expr.source.strip()}){its} holds in none of the {count} "
            f"combinations of {', '.join(inputs)} tried over their declared values and ranges: every "
            "scenario breaks it and ipb perturb can make no item; check the rule against the inputs' ranges",
            rule="unsatisfiable-constraint", name=rule.id), ("constraints", j, "require")))
    return sorted(found, key=lambda e: (e.line or 0, e.column or 0))
