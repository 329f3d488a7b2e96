"""Interval reasoning for ``ipb check``: comparisons of one value with numbers, joined by ``and``, that no number meets.

``reject: a < 0 and a > 0`` never rejects whatever ``a`` is, yet the grid check of :mod:`ipb.engine.lint_reach` tries
only inputs with a declared ``range`` (or bool and category inputs), so on an input declared without one it said
nothing (s52user). This check needs no range: it reads the criterion's top-level ``and`` (through parentheses),
keeps every comparison of one name -- an input or a computed value -- with a literal, a negated literal or a card
constant (``a < 0``, ``5 <= x``, ``-1% < r < 3%``, ``p != pe_cap``), and asks per name whether some number meets all
of them. It is not a satisfiability solver: a part under ``or`` or ``not``, a comparison of two names, arithmetic and
function calls are left out, which only ever makes the set of numbers that pass larger, so a "holds for no value"
found from what is kept is true of the whole criterion (sound; never a false alarm). Numbers are the exact values the
executor compares (Decimal and Fraction, :func:`ipb.engine._ops.compare`), over the rationals: an input that takes
whole numbers only is not assumed to (``n > 1 and n < 2`` is not reported).

References: the paper's gate criteria (§4.2, Appendix B) are Boolean formulas over facts; under Kleene logic
(§6.2) a conjunction is true only when every conjunct is true, so a conjunction no value satisfies never holds,
known or not.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple, Union

from lark import Tree

from ipb.engine.expressions import parse_expression
from ipb.engine.numbers import read_number

__all__ = ["Bound", "Conflict", "conflict", "first_conflict"]

Number = Union[Decimal, Fraction]

#: Number literals of the expression grammar (as :mod:`ipb.engine.lint_reach` reads them).
_LITERALS = frozenset({"percent", "multiple", "money", "scaled", "decimal"})
#: ``c op x`` read as ``x op' c``.
_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


class Bound(NamedTuple):
    """One test ``name op value`` taken from a criterion; ``text`` is the comparison as written."""

    op: str
    value: Number
    text: str


class Conflict(NamedTuple):
    """A name and the tests of it that no number passes together."""

    name: str
    tests: tuple[Bound, ...]


def _fixed(node: Any, constants: dict[str, Any]) -> Number | None:
    """The exact value of a number literal, a negated one or a numeric card constant; None for anything else."""
    if not isinstance(node, Tree):
        return None
    if node.data in _LITERALS:
        return read_number(str(node.children[0])).value
    if node.data == "neg":
        inner = _fixed(node.children[0], constants)
        return None if inner is None else -inner
    if node.data == "name":
        value = constants.get(str(node.children[0]))
        return value if isinstance(value, (Decimal, Fraction)) and not isinstance(value, bool) else None
    return None


def _conjuncts(tree: Any) -> list[Any]:
    """The parts of a top-level ``and``, nested ``and`` flattened; the tree itself when it is no ``and``."""
    if isinstance(tree, Tree) and tree.data == "and_":
        return [part for child in tree.children for part in _conjuncts(child)]
    return [tree]


def _tests(source: str, constants: dict[str, Any], subjects: set[str]) -> dict[str, list[Bound]]:
    """Per name in ``subjects``: the tests of it against fixed numbers found in the conjuncts of ``source``."""
    found: dict[str, list[Bound]] = {}
    for part in _conjuncts(parse_expression(source)):
        if not (isinstance(part, Tree) and part.data == "comparison"):
            continue
        text = source[part.meta.start_pos:part.meta.end_pos] if hasattr(part.meta, "start_pos") else source
        kids = part.children
        # a chain "0 < a < 1" is its neighbouring pairs, each a test when one side is a name and the other fixed
        for k in range(1, len(kids) - 1, 2):
            left, op, right = kids[k - 1], str(kids[k].children[0]), kids[k + 1]
            if op not in _MIRROR:
                continue  # ("in", "not in": a membership, no bound)
            for subject, other, relation in ((left, right, op), (right, left, _MIRROR[op])):
                if isinstance(subject, Tree) and subject.data == "name" and str(subject.children[0]) in subjects:
                    value = _fixed(other, constants)
                    if value is not None:
                        found.setdefault(str(subject.children[0]), []).append(Bound(relation, value, text))
    return found


def _passes(value: Number, test: Bound) -> bool:
    a, b = Fraction(value), Fraction(test.value)
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[test.op]


def conflict(tests: list[Bound]) -> bool:
    """Whether no rational number passes every one of ``tests`` (each ``x op value``).

    The lower bound is the largest ``>``/``>=`` value (``>`` the stricter at a tie), the upper the smallest
    ``<``/``<=``; an ``==`` pins the number, which must then pass the rest. Without one, the bounds leave an open
    interval (endless between the rationals, so finitely many ``!=`` cannot empty it), a single point (which a
    ``!=`` of it empties) or nothing.

    >>> b = lambda op, v: Bound(op, Decimal(v), "")
    >>> conflict([b("<", 0), b(">", 0)]), conflict([b(">=", 5), b("<", 3)]), conflict([b("==", 1), b("==", 2)])
    (True, True, True)
    >>> conflict([b(">", 0), b("<", 1)]), conflict([b(">=", 1), b("<=", 1)]), conflict([b(">=", 1), b("<=", 1), b("!=", 1)])
    (False, False, True)
    """
    pinned = [t.value for t in tests if t.op == "=="]
    if pinned:
        return not all(_passes(pinned[0], t) for t in tests)
    lower: tuple[Fraction, bool] | None = None  # (value, strict)
    upper: tuple[Fraction, bool] | None = None
    for t in tests:
        v = Fraction(t.value)
        if t.op in (">", ">="):
            cand = (v, t.op == ">")
            if lower is None or cand[0] > lower[0] or (cand[0] == lower[0] and cand[1]):
                lower = cand
        elif t.op in ("<", "<="):
            cand = (v, t.op == "<")
            if upper is None or cand[0] < upper[0] or (cand[0] == upper[0] and cand[1]):
                upper = cand
    if lower is None or upper is None:
        return False  # a half-line (or the whole line) is never emptied by finitely many "!="
    if lower[0] < upper[0]:
        return False
    if lower[0] > upper[0] or lower[1] or upper[1]:
        return True
    return any(t.op == "!=" and Fraction(t.value) == lower[0] for t in tests)  # the one point left, if not excluded


def first_conflict(source: str, constants: dict[str, Any], subjects: set[str]) -> Conflict | None:
    """The first name (in the order its tests appear) whose tests in the ``and`` of ``source`` no number passes.

    Parameters
    ----------
    source : str
        A criterion's expression text.
    constants : dict
        The card's constants by name (value only); a numeric one counts as a fixed number.
    subjects : set of str
        The names whose tests count: the card's inputs and computed values.

    >>> first_conflict("a < 0 and a > 0", {}, {"a"}).tests[1].text
    'a > 0'
    >>> first_conflict("a > 0 and (a < 1 or a > 5)", {}, {"a"}) is None
    True
    """
    for name, tests in _tests(source, constants, subjects).items():
        if len(tests) > 1 and conflict(tests):
            return Conflict(name, tuple(tests))
    return None
