"""Constraints that contradict each other on one input (s58 new user F-C2).

``require: pe_percentile <= 30%`` beside ``require: pe_percentile >= 60%`` each hold for some value of the input, so
``unsatisfiable-constraint`` (which judges each rule alone, :mod:`ipb.engine.lint_reach`) said nothing and ``ipb
check`` passed the card; only a base scenario showed that every scenario breaks one of them. This check takes, per
numeric input, the comparisons of it with fixed numbers in the top-level ``and`` of every ``require`` rule that
reads no other input (:mod:`ipb.engine._intervals`), adds the input's declared range, and refuses the card when no
number passes them all while each rule alone leaves some (the rule alone is ``unsatisfiable-constraint``'s). Like
the interval reading it uses, it is sound, not complete: a rule over two inputs, an ``or`` or arithmetic is not
judged, so it never refuses a card that some scenario satisfies.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, Mapping

from ipb.engine._intervals import Bound, _tests, conflict
from ipb.errors import LoadError

if TYPE_CHECKING:
    from ipb.engine.card import Constraint, InputSpec, _Collector
    from ipb.engine.expressions import ExprType

__all__ = ["contradicting_constraints"]


def contradicting_constraints(col: "_Collector", rules: tuple["Constraint", ...], inputs: Mapping[str, "InputSpec"],
                              constants: Mapping[str, tuple[Decimal, "ExprType"]], index: Mapping[str, int]) -> None:
    """Collect a located error (at the last rule's ``require``) for each input whose single-input ``require`` rules
    and declared range admit no value together, though each rule alone admits one."""
    from ipb.engine.execute import format_value  # here: execute imports the card module, which imports this one

    fixed: dict[str, Any] = {n: v for n, (v, _) in constants.items()}
    for name, spec in inputs.items():
        if spec.expr_type.kind != "number":
            continue
        mine: list[tuple["Constraint", list[Bound]]] = []
        for k in rules:
            if k.derive is None and set(k.expr.names) - set(constants) == {name}:
                tests = _tests(k.expr.source, fixed, {name}).get(name, [])
                if tests:
                    mine.append((k, tests))
        if len(mine) < 2:
            continue
        span = [Bound(">=", spec.range[0], "range"), Bound("<=", spec.range[1], "range")] if spec.range else []
        if any(conflict(span + tests) for _, tests in mine):
            continue  # one rule alone: unsatisfiable-constraint warns about it
        if not conflict(span + [t for _, tests in mine for t in tests]):
            continue
        said = " and ".join(f"{k.id!r} ({k.expr.source.strip()})" for k, _ in mine)
        where = (f" within its range [{format_value(spec.range[0], spec.type)}, {format_value(spec.range[1], spec.type)}]"
                 if spec.range else "")
        last = mine[-1][0]
        col.add(LoadError(f"constraints {said} admit no value of {name!r}{where} together: every scenario breaks "
                          "one of them; check the bounds (one meant the other way round, or one rule too many?)",
                          rule="constraint", name=last.id), ("constraints", index[last.id], "require"))
