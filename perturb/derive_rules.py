"""Whether two cards of an L8 frame derive one input by the same rule (paper §8.2, L8 items share one scenario).

Two ``derive: X`` constraints of different cards are one rule when their ``value:`` expressions give the same
value wherever both are defined. They are compared on probe points, not as text (s62 new user N11: ``(a) / b``,
``1 * a / b`` and ``a / b * 100%`` were refused against ``a / b``). Probes, rather than parse trees with identity
operations folded, because evaluation needs nothing of the grammar, and any rewriting the engine evaluates
identically (``100%`` is 1, ``a * (1 / b)``, reordered sums) counts as one rule without a list of identities to keep
up to date. Two different rational expressions of a few inputs agree on at most a thin set of points, so agreement
on every one of :data:`PROBES` well-spread points inside the sources' ranges, to :data:`RELATIVE` relative, is taken
as the same rule; the points are fixed, so the answer is deterministic.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping, Sequence

from ipb.engine.card import Card, Constraint, InputSpec
from ipb.engine.graph import CompiledCard
from ipb.errors import PerturbError

__all__ = ["PROBES", "RELATIVE", "same_derive_rule", "refuse_two_derive_rules"]

#: How many probe points two rules are evaluated on.
PROBES = 12
#: Two values agree when they differ by at most this much of the larger magnitude.
RELATIVE = Decimal("1e-9")
#: Irrational-looking steps (the fractional parts of square roots of primes) spreading the points over each range.
_STEPS = (Decimal("0.41421356"), Decimal("0.73205080"), Decimal("0.23606797"), Decimal("0.64575131"),
          Decimal("0.31662479"), Decimal("0.60555127"), Decimal("0.12310562"), Decimal("0.35889894"))


def _probe_value(spec: InputSpec | None, fraction: Decimal) -> Any:
    """A value of ``spec`` at ``fraction`` (0..1) of its range (a range of 1 to 100 when it has none)."""
    low, high = spec.range if spec is not None and spec.range is not None else (Decimal(1), Decimal(100))
    value = low + (high - low) * (Decimal("0.05") + Decimal("0.9") * fraction)
    if spec is not None and spec.type == "year":
        return int(value)
    return value


def same_derive_rule(a: Constraint, b: Constraint, specs: Mapping[str, InputSpec]) -> bool:
    """Whether derive constraints ``a`` and ``b`` give the same value on every probe point.

    Parameters
    ----------
    a, b:
        ``derive:`` constraints of two cards (their ``value:`` is ``expr``).
    specs:
        Input name -> the input's spec (for its range), over the inputs both rules read.

    Returns
    -------
    bool
        True when the texts are equal but for spaces, or the two read the same inputs and agree, to
        :data:`RELATIVE` relative, on all :data:`PROBES` points where both are defined (at least one).

    Examples
    --------
    >>> from ipb.engine.card import load_card_text
    >>> def rule(text):
    ...     card = load_card_text(CARD.replace("RULE", text))
    ...     return card.constraints[0], card.inputs
    >>> CARD = '''
    ... id: probe_card
    ... investor: Howard Marks
    ... name: Probe
    ... topology_type: linear_sequential
    ... gate_logic: conjunction
    ... topology_rationale: One test.
    ... vintage: {start: 1990}
    ... sources: [{tier: 1, document: Memo, year: 2000}]
    ... inputs:
    ...   a: {type: money, range: [$1M, $9M], step: $1M}
    ...   b: {type: money, range: [$1M, $9M], step: $1M}
    ...   r: {type: multiple, range: [0.01x, 20x], step: 0.01x}
    ... constraints: [{id: k, derive: r, value: 'RULE'}]
    ... gates: [{id: g, name: G, proceed: r < 1x, required_elements: [r]}]
    ... '''
    >>> (k1, specs), (k2, _), (k3, _), (k4, _) = rule("a / b"), rule("1 * a / b"), rule("a / b * 100%"), rule("b / a")
    >>> same_derive_rule(k1, k2, specs), same_derive_rule(k1, k3, specs), same_derive_rule(k1, k4, specs)
    (True, True, False)
    """
    if "".join(a.expr.source.split()) == "".join(b.expr.source.split()):
        return True
    names = sorted(a.expr.names | b.expr.names)
    if a.expr.names != b.expr.names or any(n in specs and specs[n].type not in _NUMERIC for n in names):
        return False
    agreed = 0
    for i in range(PROBES):
        facts = {n: _probe_value(specs.get(n), (Decimal(i + 1) * _STEPS[j % len(_STEPS)] + Decimal(j) / 7) % 1)
                 for j, n in enumerate(names)}
        try:
            x, y = a.value_for(facts, exact=True), b.value_for(facts, exact=True)
        except (ArithmeticError, TypeError, ValueError):
            continue  # not defined there (a division by zero): no evidence either way
        if x is None or y is None:
            continue
        if abs(x - y) > RELATIVE * max(abs(x), abs(y)):
            return False
        agreed += 1
    return agreed > 0


_NUMERIC = frozenset({"number", "ratio", "money", "multiple", "year"})


def refuse_two_derive_rules(compiled: Sequence[CompiledCard]) -> None:
    """Refuse two cards of an L8 frame that derive one input by different rules (``derive: X`` with ``value:``
    expressions that give other values, :func:`ipb.perturb.derive_rules.same_derive_rule`: compared on probe points,
    s62 new user N11; text that differs only in form, ``1 * a / b`` against ``a / b``, is one rule): no draw can
    satisfy both but by chance, and perturb used to find "only 0 distinct items" naming one constraint (s61 new user
    N9). ``ipb check --card A --card B`` says the same, with or without a base.

    Raises
    ------
    PerturbError
        Rule ``shared-input``, naming the input, both cards, both constraint ids and both rules, located at the
        second card's ``derive:`` line and column, the first card's given as file:line:col at the end of the message.
    """
    first: dict[str, tuple[Card, Constraint]] = {}
    for c in compiled:
        for k in c.card.constraints:
            if k.derive is None:
                continue
            seen_card, seen = first.setdefault(k.derive, (c.card, k))
            if seen_card.id == c.card.id or same_derive_rule(seen, k, {**seen_card.inputs, **c.card.inputs}):
                continue
            where, line, column, source = _derive_at(seen_card, seen), *_derive_line(c.card, k)
            raise PerturbError(f"input {k.derive!r} is derived by two rules: {seen.expr.source} (card {seen_card.id}, "
                               f"constraint {seen.id}) and {k.expr.source} (card {c.card.id}, constraint {k.id}); "
                               "an L8 scenario shares one value, so every item would break one of them: derive it "
                               "by one rule (expressions that give the same value on every probe point count as "
                               f"one), or in one card only{where}", rule="shared-input", name=k.derive,
                               file=c.card.file if line else None, line=line, column=column, source_line=source)


def _derive_line(card: Card, k: Constraint) -> tuple[int | None, int | None, str | None]:
    """(line, column, source line) of constraint ``k``'s ``derive:`` value in ``card``'s file, or Nones."""
    doc = card.doc
    raw = doc.data.get("constraints") if doc is not None and isinstance(doc.data, dict) else None
    if doc is None or not isinstance(raw, list):
        return None, None, None
    for i, entry in enumerate(raw):
        if isinstance(entry, dict) and entry.get("id") == k.id:
            line, column = doc.locate(("constraints", i, "derive"))
            return line, column, doc.source_line(line)
    return None, None, None


def _derive_at(card: Card, k: Constraint) -> str:
    """" (the first rule: FILE:LINE:COL)" of ``k``'s ``derive:`` in ``card``'s file, or ``""`` when it has none."""
    line, column, _ = _derive_line(card, k)
    return f" (the first rule: {card.file}:{line}:{column})" if line and card.file else ""
