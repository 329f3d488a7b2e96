"""``ipb check``'s ``unlinked-range`` warning: a computed value divides one money input by another, their ranges are
wide, and no constraint reads the two together (s54newuser finding 7).

Perturbation draws each input on its own grid (paper §6.5), so two money inputs over [$10M, $50B] are paired
freely: s54newuser's Terry Smith card made items stating free cash flow $20.41B on $230M of operating profit, and a
gold element "free cash flow over net income 13606.6667%". A card states how its inputs hang together with a
constraint (``require: net_income <= operating_profit``); every bundled card that divides two wide money inputs has
one. The rule fires when the two ranges together span at least :data:`DECADES` orders of magnitude (the largest
quotient over the smallest positive one), so narrow ranges, which cannot pair absurd figures, stay silent.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any, Iterator

from lark import Tree

from ipb.engine.card import Card, InputSpec
from ipb.engine.expressions import parse_expression
from ipb.errors import LintWarning

__all__ = ["ACRONYMS", "DECADES", "NUMERIC", "bare_acronyms", "ranges_missing", "unlinked_ranges"]

#: Orders of magnitude (base-10 logarithm of the largest over the smallest positive quotient) from which a quotient
#: of two unlinked money inputs is warned about.
DECADES = 4


def _divisions(tree: Any) -> Iterator[tuple[str, str]]:
    """(dividend, divisor) for each ``name / name`` step of a product in ``tree``."""
    for node in tree.iter_subtrees() if isinstance(tree, Tree) else ():
        if node.data != "product":
            continue
        kids = node.children
        for k in range(1, len(kids) - 1, 2):
            left, right = kids[k - 1], kids[k + 1]
            if (str(kids[k].children[0]) == "/" and isinstance(left, Tree) and left.data == "name"
                    and isinstance(right, Tree) and right.data == "name"):
                yield str(left.children[0]), str(right.children[0])


def _magnitudes(spec: InputSpec) -> tuple[Decimal, Decimal] | None:
    """The smallest and largest positive size a money input takes on its grid, or None (no range, or none > 0)."""
    if spec.range is None or spec.type != "money":
        return None
    lo, hi = spec.range
    if hi <= 0:
        return None
    small = lo if lo > 0 else (spec.step or hi)
    return (small, hi) if small <= hi else None


def unlinked_ranges(card: Card) -> list[tuple[tuple[Any, ...], LintWarning]]:
    """(card path, warning) for each computed ``a / b`` of two wide money inputs that no constraint reads together.

    The spread is ``log10((hi_a / lo_b) / (lo_a / hi_b))`` with ``lo`` the smallest positive grid value: Smith's
    ``operating_profit / capital_employed`` over [$10M, $50B] and [$50M, $200B] spans 3.7 + 3.6 = 7.3 decades.
    """
    from ipb.engine.execute import format_value

    together = [set(k.expr.names) | ({k.derive} if k.derive else set()) for k in card.constraints]
    found: list[tuple[tuple[Any, ...], LintWarning]] = []
    for i, g in enumerate(card.gates):
        for name, expr in g.compute.items():
            seen: set[tuple[str, str]] = set()
            for a, b in _divisions(parse_expression(expr.source)):
                if (a, b) in seen or a not in card.inputs or b not in card.inputs or a == b:
                    continue
                seen.add((a, b))
                top, bottom = _magnitudes(card.inputs[a]), _magnitudes(card.inputs[b])
                if top is None or bottom is None or any({a, b} <= names for names in together):
                    continue
                spread = math.log10((top[1] / bottom[0]) / (top[0] / bottom[1]))
                if spread < DECADES:
                    continue
                most = top[1] / bottom[0]
                found.append((("gates", i, "compute", name), LintWarning(
                    f"computed value {name!r} divides {a} by {b}, money inputs drawn independently over "
                    f"{_shown(card.inputs[a], format_value)} and {_shown(card.inputs[b], format_value)} "
                    f"({spread:.1f} orders of magnitude between their extremes) that no constraint reads together: "
                    f"perturbed items will pair figures no company reports ({a} {format_value(top[1], 'money')} on "
                    f"{b} {format_value(bottom[0], 'money')}, {most.normalize():,f} times it); tie them with a "
                    f"constraint of the shape 'require: {a} <= K * {b}', K the largest {name} the investor's world "
                    f"allows, above every threshold a gate compares {name} with (so each verdict stays reachable), "
                    "or narrow the ranges (README, 'Writing a framework card', constraints:)", rule="unlinked-range",
                    name=name)))
    return found


def _shown(spec: InputSpec, format_value: Any) -> str:
    assert spec.range is not None
    return f"[{format_value(spec.range[0], 'money')}, {format_value(spec.range[1], 'money')}]"


#: Finance acronyms that a question, naming an input with neither ``label`` nor ``description`` by its name in words,
#: writes in lower case (``perturb/render.py`` capitalises only the ones it lists: EV, EPS, P/E, ROE, ...).
ACRONYMS = {"ebitda": "EBITDA", "roce": "ROCE", "fcf": "FCF", "ncav": "NCAV", "npv": "NPV", "wacc": "WACC",
            "cagr": "CAGR", "dcf": "DCF", "cpi": "CPI", "ltv": "LTV", "ffo": "FFO", "nim": "NIM", "capm": "CAPM"}


def bare_acronyms(card: Card) -> list[tuple[tuple[Any, ...], LintWarning]]:
    """(card path, warning) for each input with no ``label`` or ``description`` whose name holds an acronym of
    :data:`ACRONYMS` (rule ``name-as-label``; s54newuser: "The net debt to ebitda is 1.5x").

    The advice is a label with the acronym in capitals: ``net_debt_to_ebitda`` -> ``net debt to EBITDA``.
    """
    found: list[tuple[tuple[Any, ...], LintWarning]] = []
    for name, spec in card.inputs.items():
        words = [w for w in name.split("_") if w]
        if spec.label or spec.description.strip() or not any(w in ACRONYMS for w in words):
            continue
        said, meant = " ".join(words), " ".join(ACRONYMS.get(w, w) for w in words)
        found.append((("inputs", name), LintWarning(
            f"input {name!r} has neither a label nor a description, so questions name it by its name in words "
            f"({said!r}, as in 'The {said} is ...'); give it a label as a reader writes it: 'label: {meant}'",
            rule="name-as-label", name=name)))
    return found


#: Input types ``ipb perturb`` draws on a declared range (``perturb/values.py``); ``year`` is a date, not drawn.
NUMERIC = ("number", "money", "multiple", "ratio")


def ranges_missing(card: Card) -> list[tuple[tuple[Any, ...], LintWarning]]:
    """(card path, warning) for each numeric input a gate reads (a criterion, computed value, classify rule or
    re-entry condition, or a derived input computed from it) that declares no ``range`` and is no derived input
    (rule ``read-without-range``).

    Metric, flip and isolate draw only on a declared range, so such an input keeps the base's value in every item
    they make, and a gate dividing by it counts as able to be INCONCLUSIVE. s58user F-C3 (s57 C1 before it):
    ``ipb check`` was silent and ``ipb perturb`` said so only after generating (``frozen_input_notes``).
    """
    gates: dict[str, list[str]] = {}
    for g in card.gates:
        exprs = [g.proceed, g.reject, *g.compute.values(), *(w for _, w in g.classify),
                 g.reentry.condition if g.reentry is not None else None]
        for name in {n for e in exprs if e is not None for n in e.names}:
            gates.setdefault(name, []).append(g.id)
    derived = {k.derive: k for k in card.constraints if k.derive is not None}
    through: dict[str, str] = {}
    for target, rule in derived.items():
        if target in gates:
            for name in rule.expr.names:
                through.setdefault(name, target)
    found: list[tuple[tuple[Any, ...], LintWarning]] = []
    for name, spec in card.inputs.items():
        if spec.range is not None or spec.type not in NUMERIC or name in derived:
            continue
        if name in gates:
            ids = list(dict.fromkeys(gates[name]))
            where = (f"gate {ids[0]!r} reads it" if len(ids) == 1 else
                     f"gates {', '.join(repr(g) for g in ids)} read it")
        elif name in through:
            where = f"derived input {through[name]!r}, which a gate reads, is computed from it"
        else:
            continue
        found.append((("inputs", name), LintWarning(
            f"input {name!r} declares no range, but {where}: ipb perturb's metric, flip and isolate draw only on a "
            "declared range, so every item they make keeps the base's value (and a gate dividing by it counts as "
            "able to be INCONCLUSIVE); declare 'range: [LOW, HIGH]' and a 'step'", rule="read-without-range",
            name=name)))
    return found
