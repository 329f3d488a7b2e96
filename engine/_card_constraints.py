"""A card's ``constraints:`` compiled, and its sources checked against its vintage.

Split from :mod:`ipb.engine.card` (module size limit), which calls both while it reads a card and
re-exports :func:`_constraints` (:mod:`ipb.engine.deck_rules` compiles a deck's rules with it).
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, Mapping

from ipb.engine._card_checks import CONSTRAINTS, VisibleSymbols, all_computed_names
from ipb.engine._constraint_intervals import contradicting_constraints
from ipb.engine._written import written_form
from ipb.engine.expressions import ExprType, _incompatible
from ipb.errors import LintWarning, LoadError, did_you_mean

if TYPE_CHECKING:
    from ipb.engine.card import Constraint, InputSpec, _Collector

__all__: list[str] = []


def _lint_source_years(data: dict[str, Any], col: Any) -> None:
    """Warn (rule ``source-year``) about a source dated after the card's vintage end.

    A framework used until its vintage end cannot rest on a document written
    later unless the card says why (``after_vintage``: retrospective,
    posthumous or secondary; issue 15, defect 11). The investor's career end
    is checked against the registry by ``ipb.engine.investors``.
    """
    end = (data.get("vintage") or {}).get("end")
    if end is None:
        return
    located: list[tuple[tuple[Any, ...], Any]] = [(("sources", k), s) for k, s in enumerate(data.get("sources") or [])]
    located += [(("gates", i, "source"), g["source"]) for i, g in enumerate(data.get("gates") or []) if "source" in g]
    for path, source in located:
        year = source.get("year")
        if isinstance(year, int) and year > end and not source.get("after_vintage"):
            col.warn(LintWarning(
                f"source {source.get('document')!r} ({year}) is dated after the vintage end {end}; mark it "
                "after_vintage: retrospective, posthumous or secondary, or cite an earlier source",
                rule="source-year", name=str(source.get("document"))), path + ("year",))


def _constraints(col: _Collector, data: Mapping[str, Any], inputs: Mapping[str, InputSpec],
                 constants: Mapping[str, tuple[Decimal, ExprType]]) -> tuple[Constraint, ...]:
    """Compile ``constraints:``: boolean expressions over inputs and constants only, ids unique."""
    from ipb.engine.card import BUILTINS, Constraint  # here, not at the top: card imports this module

    symbols: dict[str, ExprType] = dict(BUILTINS)
    symbols.update({n: t for n, (_, t) in constants.items()})
    symbols.update({n: s.expr_type for n, s in inputs.items()})
    visible = VisibleSymbols(symbols, all_computed_names(data.get("gates") or []), CONSTRAINTS, set(data.get("constants") or ()) - set(constants))
    out: list[Constraint] = []
    seen: set[str] = set()
    derived: dict[str, str] = {}
    index: dict[str, int] = {}  # constraint id -> its place (each error points at its own constraint)
    for k, raw in enumerate(data.get("constraints") or []):
        path, _ = ("constraints", k), index.setdefault(raw["id"], k)
        if raw["id"] in seen:
            col.add(LoadError(f"duplicate constraint id {raw['id']!r}", rule="duplicate-name", name=raw["id"]),
                    path + ("id",))
        seen.add(raw["id"])
        if ("require" in raw) == ("derive" in raw):
            col.add(LoadError(f"constraint {raw['id']!r} needs exactly one of 'require' (a relation) or 'derive' "
                              "with 'value' (an input computed from others)", rule="constraint", name=raw["id"]), path)
            continue
        if "tie" in raw and "require" not in raw:  # tie: true moves a require's inputs together (perturb/deck_moves)
            col.add(LoadError(f"constraint {raw['id']!r}: 'tie' goes with 'require' (a derived input follows its sources)", rule="constraint", name=raw["id"]), path + ("tie",))
            continue
        if "require" in raw:
            expr = col.expression(raw["require"], visible, path + ("require",), "bool")
            if expr is not None:
                out.append(Constraint(raw["id"], expr, raw.get("description", ""), tie=raw.get("tie") is True))
            continue
        target = raw["derive"]
        spec = inputs.get(target)
        if spec is None or spec.expr_type.kind != "number":
            numeric = [] if spec is not None else [n for n, s in inputs.items() if s.expr_type.kind == "number"]
            why = f"it is a {spec.type} input; derive a number, ratio, money, multiple or year input" if spec else "no input has that name"
            col.add(LoadError(f"constraint {raw['id']!r} derives {target!r}, which is not a numeric input ({why})",
                              rule="constraint", name=target, suggestion=did_you_mean(target, numeric)), path + ("derive",))
            continue
        if "value" not in raw:
            col.add(LoadError(f"constraint {raw['id']!r} derives {target!r} but gives no 'value'", rule="constraint",
                              name=raw["id"]), path)
            continue
        expr = col.expression(raw["value"], visible, path + ("value",), "number")
        if expr is None:
            continue
        if target in expr.names or _incompatible(expr.type, spec.expr_type):
            why = "from itself" if target in expr.names else f"({spec.type}) from a value in {expr.type.unit}"
            col.add(LoadError(f"constraint {raw['id']!r} derives {target!r} {why}", rule="constraint" if
                              target in expr.names else "unit", name=target), path + ("value",))
            continue
        if target in derived:
            col.add(LoadError(f"{target!r} is derived twice (constraint {derived[target]!r} derives it too)",
                              rule="constraint", name=target), path + ("derive",))
            continue
        derived[target] = raw["id"]
        out.append(Constraint(raw["id"], expr, raw.get("description", ""), derive=target, written=written_form(spec)))
    for c in out:
        if c.derive is not None and c.expr.names & set(derived):
            col.add(LoadError(f"constraint {c.id!r} derives {c.derive!r} from another derived input "
                              f"({', '.join(sorted(c.expr.names & set(derived)))}); derive from drawn inputs only",
                              rule="constraint", name=c.id), ("constraints", index[c.id], "value"))
    contradicting_constraints(col, tuple(out), inputs, constants, index)  # two rules no value meets (s58 F-C2)
    return tuple(out)
