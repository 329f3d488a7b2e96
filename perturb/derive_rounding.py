"""Whether a derived input's rounding decides a gate (s58 new user, F-W2).

A ``derive:`` constraint writes its input as the input is written (its
step: ``current_ratio`` to 0.01x), so the value the gates read is the
rounded quotient of the sources the question states. When the rounding
carries the value across a line a gate reads (current assets $4.37B over
current liabilities $2.19B is 1.9954, written 2x, beside a gate
``current_ratio >= 2x``), a reader who divides the stated figures gets
the other verdict: the stated facts no longer imply the gold.

:func:`rounds_across` finds such a scenario: it runs the card on the
rounded value and on the exact quotient and compares the outcome and
every gate's verdict, a gate the chain skips judged as if reached (an
item whose earlier gate stops the chain would otherwise still state
"$4.37B ... $2.19B ... 2x", and a reader who checks the ratio gate
against the stated sources would judge it the other way). :meth:`Frame.violations
<ipb.perturb.frame.Frame.violations>` reports it as a broken constraint,
so a draw that does it is refused and redrawn and counted among the
constraint rejections of the run's summary, like any other.
"""

from __future__ import annotations

from typing import Any, Mapping

from ipb.engine.card import Constraint, constraint_errors
from ipb.engine.execute import execute
from ipb.engine.graph import CompiledCard
from ipb.engine._yaml import YamlDoc
from ipb.errors import LoadError

__all__ = ["base_constraint_errors", "base_rounding_errors", "rounds_across"]


def _trace_key(card: CompiledCard, facts: Mapping[str, Any]) -> tuple[Any, ...]:
    """The outcome and every gate's verdict, a gate the chain skips evaluated as if reached (diagnostic mode)."""
    trace = execute(card, facts, diagnostic=True)
    return (trace.outcome, *(r.diagnostic_verdict if r.diagnostic_verdict is not None else r.verdict
                             for r in trace.gates))


def rounds_across(card: CompiledCard, facts: Mapping[str, Any], k: Constraint) -> bool:
    """True when ``facts`` (a card's share, derived inputs already set to their written value) give another
    outcome or gate verdict (skipped gates judged as if reached) with ``k``'s derived input at its exact value.

    A value the rounding does not change, or an unknown source, is never across a line.
    """
    if k.derive is None:
        return False
    stated = facts.get(k.derive)
    exact = k.value_for(facts, exact=True)
    if stated is None or exact is None or exact == stated:
        return False
    return _trace_key(card, facts) != _trace_key(card, {**facts, k.derive: exact})


def base_rounding_errors(card: CompiledCard, facts: Mapping[str, Any], doc: YamlDoc | None) -> list[LoadError]:
    """One error per ``derive`` of ``card`` whose stated value in a base scenario (``facts``: the card's share,
    engine values) is its sources' quotient rounded across a gate line, at the derived fact (file:line:col).

    Every draw that keeps such a base's sources would be refused (:func:`rounds_across`), so the base is refused
    first, with the exact value the sources give.
    """
    out: list[LoadError] = []
    for k in card.card.constraints:
        if k.derive is None or facts.get(k.derive) is None:
            continue
        exact = k.value_for(facts, exact=True)
        if exact is None or exact == facts[k.derive] or not rounds_across(card, facts, k):
            continue
        out.append(_rounding_error(card, k, facts, doc))
    return out


def _rounding_error(card: CompiledCard, k: Constraint, facts: Mapping[str, Any], doc: YamlDoc | None, *,
                    stated_exact: bool = False) -> LoadError:
    """The error of a base whose derived input ``k.derive``, written at its step, is across a gate line from its
    sources' exact value; ``stated_exact``: the base states another value, so the error gives the written one."""
    from ipb.engine.execute import format_value

    exact = k.value_for(facts, exact=True)
    sources = ", ".join(sorted(k.expr.names))
    if stated_exact:
        written = format_value(k.value_for(facts), card.card.inputs[k.derive].type)
        head = (f"the rule gives {k.derive} = {written}, its sources' value written at its step ({sources} give "
                f"{exact:.6g})")
    else:
        head = f"the base states {k.derive} as its sources' value rounded ({sources} give {exact:.6g})"
    err = LoadError(f"{head}, and the rounding decides a gate of card {card.card.id} the other way: a reader "
                    "dividing the stated figures would get another verdict; choose sources whose value is not within "
                    f"rounding of the gate's line (constraint {k.id!r})", rule="constraint", name=k.id)
    if doc is not None:
        try:
            line, column = doc.locate(("facts", k.derive))
        except (KeyError, IndexError, TypeError, ValueError):
            line, column = 1, 1
        err.with_location(doc.file, line, column, doc.source_line(line))
    return err


def base_constraint_errors(card: CompiledCard, facts: Mapping[str, Any], doc: YamlDoc | None) -> list[LoadError]:
    """The errors of a base scenario against ``card``'s ``constraints:``, as ``ipb check`` and ``ipb perturb`` both
    report them (s58 F-W2's edge: check asked a base to "state 2x", which perturb then refused).

    A broken constraint is :func:`ipb.engine.card.constraint_errors`'s error, except where the value it asks for
    (a derived input at its step) would round across a gate line: that error says so instead of "state that", and
    names the exact value. With no constraint broken, :func:`base_rounding_errors`: a stated rounded value across
    a gate line.
    """
    rules = {k.id: k for k in card.card.constraints}
    out: list[LoadError] = []
    for err in constraint_errors(card.card, facts, doc):
        k = rules.get(err.name or "")
        want = k.value_for(facts) if k is not None else None
        if k is not None and k.derive is not None and want is not None \
                and rounds_across(card, {**facts, k.derive: want}, k):
            out.append(_rounding_error(card, k, facts, doc, stated_exact=True))
        else:
            out.append(err)
    return out or base_rounding_errors(card, facts, doc)
