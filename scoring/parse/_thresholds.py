"""A gate's facts stated as a figure against the gate's own bar (issue 13, gates discussed in prose; paper §7.5).

"Returns on capital have run at 9%" says nothing by its words alone, yet a reader who knows the card's criterion
(``return_on_capital >= 15%``) reads it as the gate failing. For each gate whose tests are each a single comparison of
one name with a literal or a card constant (``pe_ratio <= 15x``, ``annual_sales >= $100M``, ``return_on_capital >=
return_on_capital_floor`` with the constant 15%), :func:`gate_bars` keeps those bars, read from the card's compiled expression text with the
engine's own grammar (:func:`ipb.engine.expressions.parse_expression`, :func:`ipb.engine.expressions.parse_literal`:
read only). :func:`bar_verdict` compares a clause's one figure of the bar's kind (money, a percentage, a multiple;
read by the one number reader, :func:`ipb.scoring._text.find_numbers`) with the bar: the test holds -> its verdict
(PROCEED for a ``proceed`` test, REJECT for a ``reject`` test), else the other. A gate with a compound test (``and``,
``or``, a category, two names) has no bar: one figure cannot settle it.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from ipb.engine.card import Card
from ipb.engine.expressions import parse_expression, parse_literal
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._memo import per_object

__all__ = ["Bar", "bar_verdict", "category_verdicts", "gate_bars", "gate_categories", "necessary_bars"]

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_HOLDS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
#: literal kinds of the expression grammar -> the unit the number reader gives a figure of that kind
_UNITS = {"money": "money", "percent": "ratio", "multiple": "multiple"}


@dataclass(frozen=True)
class Bar:
    """``name op value`` (op one of < <= > >=; value in the number reader's units: 15% is 0.15) and the verdict the test
    gives when it holds."""

    name: str
    op: str
    value: Decimal
    unit: str
    holds: str

    def verdict(self, figure: Decimal) -> str:
        """The gate's verdict for ``figure`` of :attr:`name`.

        >>> Bar("pe", "<=", Decimal(15), "multiple", "PROCEED").verdict(Decimal("22"))
        'REJECT'
        """
        ok = _HOLDS[self.op](figure, self.value)
        return self.holds if ok else (vw.REJECT if self.holds == vw.PROCEED else vw.PROCEED)


def _literal(node: Any) -> tuple[Decimal, str] | None:
    """The value and unit of a literal node (``neg`` of one allowed), else None."""
    sign = 1
    if getattr(node, "data", None) == "neg" and len(node.children) == 1:
        sign, node = -1, node.children[0]
    kind = getattr(node, "data", None)
    if kind not in _UNITS or len(node.children) != 1:
        return None
    try:
        value, _ = parse_literal(str(node.children[0]))
    except Exception:  # noqa: BLE001 - a literal the reader cannot take is no bar
        return None
    return Decimal(sign) * Decimal(value), _UNITS[kind]


def _constant(node: Any, constants: dict[str, Any]) -> tuple[Decimal, str] | None:
    """The value and unit of a card constant named by ``node`` (``signal_percentile: 80%``), else None."""
    if getattr(node, "data", None) != "name":
        return None
    found = constants.get(str(node.children[0]))
    if found is None:
        return None
    value, kind = found
    unit = getattr(kind, "unit", None)
    if not isinstance(unit, str) or unit not in _UNITS.values() or isinstance(value, bool):
        return None
    try:
        return Decimal(value), unit
    except (InvalidOperation, TypeError, ValueError):
        return None


def _bar(source: str, holds: str, constants: dict[str, Any]) -> Bar | None:
    try:
        tree = parse_expression(source)
    except Exception:  # noqa: BLE001 - compiled cards parse; anything else is no bar
        return None
    return _tree_bar(tree, holds, constants)


def _tree_bar(tree: Any, holds: str, constants: dict[str, Any]) -> Bar | None:
    """The bar of one parsed comparison of a name with a literal or a card constant, else None."""
    if getattr(tree, "data", None) != "comparison" or len(tree.children) != 3:
        return None
    left, op_node, right = tree.children
    op = str(op_node.children[0]) if getattr(op_node, "children", None) else str(op_node)
    if op not in _FLIP:
        return None
    def value(node: Any) -> tuple[Decimal, str] | None:
        return _literal(node) or _constant(node, constants)

    if getattr(left, "data", None) == "name" and str(left.children[0]) not in constants:
        name, lit = str(left.children[0]), value(right)
    elif getattr(right, "data", None) == "name" and str(right.children[0]) not in constants:
        name, lit, op = str(right.children[0]), value(left), _FLIP[op]
    else:
        return None
    if lit is None:
        return None
    return Bar(name, op, lit[0], lit[1], holds)


@per_object()
def gate_bars(card: Card) -> dict[int, tuple[Bar, ...]]:
    """Gate number -> its bars, for the gates whose tests are each one comparison of a name with a literal or a card
    constant (built once per card): one bar when the gate has one test (failing it is the other verdict), two when it
    has both on the same name (a value that meets neither is no reading: the band between them is INCONCLUSIVE).

    >>> from ipb.engine.registry import compiled_card
    >>> bars = gate_bars(compiled_card("cppib_total_portfolio_active_strategy").card)
    >>> [(b.name, b.op, b.value == 0, b.unit, b.holds) for b in bars[1]]
    [('excess_return', '>', True, 'ratio', 'PROCEED'), ('excess_return', '<=', True, 'ratio', 'REJECT')]
    """
    table: dict[int, tuple[Bar, ...]] = {}
    constants = dict(getattr(card, "constants", None) or {})
    for g in card.gates:
        if g.classify or g.branches:
            continue
        tests = [(e, v) for e, v in ((g.proceed, vw.PROCEED), (g.reject, vw.REJECT)) if e is not None]
        bars = [_bar(e.source, v, constants) for e, v in tests]
        if bars and all(b is not None for b in bars) and len({b.name for b in bars if b is not None}) == 1:
            table[g.number] = tuple(b for b in bars if b is not None)
    return table


@per_object()
def necessary_bars(card: Card) -> dict[int, tuple[Bar, ...]]:
    """Gate number -> the bars its ``proceed`` test cannot pass without, for a gate whose ``proceed`` test is an ``and`` of
    terms: each term that is one comparison of a name with a literal or a card constant (Graham's ``eps_3yr_avg > $0
    and pe_3yr <= 15x`` -> ``pe_3yr <= 15x`` and ``eps_3yr_avg > $0``). A figure failing one of them fails the gate; one
    passing it settles nothing. Built once per card; a gate :func:`gate_bars` already reads is left out.

    >>> from ipb.engine.registry import compiled_card
    >>> [(b.name, b.op, str(b.value)) for b in necessary_bars(compiled_card("graham_seven_tests_defensive").card)[6]][-1]
    ('pe_3yr', '<=', '15')
    """
    table: dict[int, tuple[Bar, ...]] = {}
    constants = dict(getattr(card, "constants", None) or {})
    single = gate_bars(card)
    for g in card.gates:
        if g.classify or g.branches or g.proceed is None or g.number in single:
            continue
        try:
            tree = parse_expression(g.proceed.source)
        except Exception:  # noqa: BLE001 - compiled cards parse; anything else is no bar
            continue
        if getattr(tree, "data", None) != "and_":
            continue
        bars = tuple(b for b in (_tree_bar(t, vw.PROCEED, constants) for t in tree.children) if b is not None)
        if bars:
            table[g.number] = bars
    return table


def bar_verdict(bars: Sequence[Bar], figures: Sequence[Any]) -> tuple[int, int, str] | None:
    """(start, end, verdict) of the one figure among ``figures`` (the number reader's matches in a clause) whose unit is
    the bars'; None when there is none or more than one (a clause of two figures of one kind does not say which is the
    gate's), or when the figure meets neither of two bars.

    >>> from types import SimpleNamespace as F
    >>> bars = (Bar("premium", ">=", Decimal("0.05"), "ratio", "PROCEED"), Bar("premium", "<", Decimal("0.02"), "ratio", "REJECT"))
    >>> [bar_verdict(bars, [F(start=0, end=2, value=v, unit="ratio")]) for v in (0.06, 0.01, 0.03)]
    [(0, 2, 'PROCEED'), (0, 2, 'REJECT'), None]
    """
    same = [f for f in figures if f.unit == bars[0].unit]
    if len(same) != 1:
        return None
    f = same[0]
    try:
        figure = Decimal(str(f.value))
    except (InvalidOperation, ValueError):
        return None
    if len(bars) == 1:
        return f.start, f.end, bars[0].verdict(figure)
    for bar in bars:
        if bar.verdict(figure) == bar.holds:
            return f.start, f.end, bar.holds
    return None


_CATEGORY_CACHE: dict[int, tuple[Card, dict[int, tuple[str, dict[str, str]]]]] = {}


def _category_test(source: str, categories: dict[str, tuple[str, ...]]) -> tuple[str, frozenset[str], bool] | None:
    """(input name, the values named, whether the test holds for them: ``==``/``in`` True, ``!=``/``not in`` False) of a
    test that compares one category input with string values (``market_temperature != "hot"``), else None."""
    try:
        tree = parse_expression(source)
    except Exception:  # noqa: BLE001 - compiled cards parse; anything else is no test
        return None
    if tree.data != "comparison" or len(tree.children) != 3:
        return None
    left, op_node, right = tree.children
    if getattr(left, "data", None) != "name" or str(left.children[0]) not in categories:
        return None
    op = " ".join(str(c) for c in op_node.children) if getattr(op_node, "children", None) else str(op_node)
    if op not in ("==", "!=", "in", "not in"):
        return None
    items = right.children[0].children if getattr(right, "data", None) == "set_" and right.children else [right]
    values = []
    for item in items:
        if getattr(item, "data", None) != "string":
            return None
        values.append(str(item.children[0])[1:-1])
    return str(left.children[0]), frozenset(values), op in ("==", "in")


def gate_categories(card: Card) -> dict[int, tuple[str, dict[str, str]]]:
    """Gate number -> (category input, {value: the gate's verdict for it}) for the gates whose tests each compare one
    category input with string values (``pendulum: proceed market_temperature != "hot", reject market_temperature ==
    "hot"``); a value for which neither test holds is INCONCLUSIVE when the gate has both tests (the band between
    them), and takes the other verdict when it has one. A compound test (``and``, ``or``, two inputs) is no such gate: one
    stated value cannot settle it (built once per card).

    >>> from ipb.engine.registry import compiled_card
    >>> name, verdicts = gate_categories(compiled_card("marks_risk_return_assessment").card)[5]
    >>> name, verdicts["hot"], verdicts["cold"]
    ('market_temperature', 'REJECT', 'PROCEED')
    """
    cached = _CATEGORY_CACHE.get(id(card))
    if cached is not None and cached[0] is card:
        return cached[1]
    categories = {n: spec.values for n, spec in card.inputs.items() if spec.type == "category" and spec.values}
    table: dict[int, tuple[str, dict[str, str]]] = {}
    for g in card.gates:
        if g.classify or g.branches:
            continue
        tests = [(e, v) for e, v in ((g.proceed, vw.PROCEED), (g.reject, vw.REJECT)) if e is not None]
        read = [_category_test(e.source, categories) for e, _ in tests]
        if not read or any(r is None for r in read) or len({r[0] for r in read if r is not None}) != 1:
            continue
        name = read[0][0] if read[0] is not None else ""
        verdicts: dict[str, str] = {}
        for value in categories[name]:
            held = [v for (_, v), r in zip(tests, read) if r is not None and (value in r[1]) == r[2]]
            if len(held) == 1:
                verdicts[value] = held[0]
            elif not held:  # one test: the other verdict; both: the band between them, which the engine calls INCONCLUSIVE
                verdicts[value] = (vw.REJECT if tests[0][1] == vw.PROCEED else vw.PROCEED) if len(tests) == 1 else vw.INCONCLUSIVE
        if verdicts:
            table[g.number] = (name, verdicts)
    if len(_CATEGORY_CACHE) > 256:
        _CATEGORY_CACHE.clear()
    _CATEGORY_CACHE[id(card)] = (card, table)
    return table


#: Category values too common in prose to name the gate's category when said in its section ("the risk is high",
#: "none of them", "other holders"): read only through the gate's tests on figures or in the appraisal readers.
_COMMON_VALUES = frozenset({"low", "high", "moderate", "medium", "none", "other", "unknown", "mixed", "yes", "no", "true", "false"})
#: Before a value: it is denied ("not hot", "no longer self-reinforcing") or set aside ("calm rather than hot").
_DENIED = re.compile(r"(?i)(?:\b(?:not|never|hardly|no\s+longer|rather\s+than|instead\s+of)|n['\u2019]t)\s+(?:(?:yet|really|quite|very|at\s+all|so|too|been|be)\s+)?\Z")
_VALUE_PATTERNS: dict[int, tuple[Card, dict[int, tuple[re.Pattern[str], dict[str, str]]]]] = {}


def _value_patterns(card: Card) -> dict[int, tuple[re.Pattern[str], dict[str, str]]]:
    """Gate -> (a pattern with one alternative per value spelling, {spelling: value}) for the gates of
    :func:`gate_categories`; a value is spelt as the card writes it (underscores as spaces or hyphens) and as its
    ``value_labels`` text."""
    cached = _VALUE_PATTERNS.get(id(card))
    if cached is not None and cached[0] is card:
        return cached[1]
    table: dict[int, tuple[re.Pattern[str], dict[str, str]]] = {}
    for gate, (name, verdicts) in gate_categories(card).items():
        labels = dict(card.inputs[name].value_labels)
        spelt: dict[str, str] = {}
        for value in verdicts:
            if value in _COMMON_VALUES:
                continue
            for text in (value.replace("_", " "), labels.get(value, "")):
                text = " ".join(text.lower().replace("-", " ").split())
                if len(text) >= 3 and text not in _COMMON_VALUES:
                    spelt.setdefault(text, value)
        if spelt:
            alternatives = "|".join(r"[\s_-]+".join(map(re.escape, t.split())) for t in sorted(spelt, key=len, reverse=True))
            table[gate] = (re.compile(r"(?i)\b(?:" + alternatives + r")\b"), spelt)
    if len(_VALUE_PATTERNS) > 256:
        _VALUE_PATTERNS.clear()
    _VALUE_PATTERNS[id(card)] = (card, table)
    return table


def category_verdicts(card: Card, gate: int, text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """(start, end, verdict) of each value of ``gate``'s category input said in ``text[start:end]`` (one clause), the
    verdict the card's test gives that value (:func:`gate_categories`). A denied value ("not hot", "calm rather than
    hot") gives the verdict every other value shares, or nothing when they differ.

    >>> from ipb.engine.registry import compiled_card
    >>> card = compiled_card("marks_risk_return_assessment").card
    >>> t = "Hot. Markets feel calm rather than hot."
    >>> [(t[a:b], v) for a, b, v in category_verdicts(card, 5, t, 0, 4)], category_verdicts(card, 5, t, 5, len(t))[0][2]
    ([('Hot', 'REJECT')], 'PROCEED')
    """
    found = _value_patterns(card).get(gate)
    if found is None:
        return []
    pattern, spelt = found
    verdicts = gate_categories(card)[gate][1]
    out: list[tuple[int, int, str]] = []
    for m in pattern.finditer(text, start, end):
        value = spelt[" ".join(m.group(0).lower().replace("-", " ").replace("_", " ").split())]
        if _DENIED.search(text, max(start, m.start() - 30), m.start()):
            others = {v for k, v in verdicts.items() if k != value}
            if len(others) == 1:
                out.append((m.start(), m.end(), next(iter(others))))
            continue
        out.append((m.start(), m.end(), verdicts[value]))
    return out
