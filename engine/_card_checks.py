"""Checks of a card's declarations that need no compiled gate: numbers in an input's unit, outcomes, cycles.

Split out of :mod:`ipb.engine.card` (which calls them while it loads a card)
so that module stays within the house size limit. Each check either returns
a value or raises / collects an :class:`~ipb.errors.IpbError` that the card
loader locates at the offending key or value (issue 16, the adversarial
report's findings 6, 7 and 17).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from ipb.engine._exact import Exact, as_fraction, public
from ipb.engine.expressions import NUMBER, ExprType, parse_literal
from ipb.engine.numbers import NumberError, check_magnitude

from ipb.errors import CompileError, IpbError, LoadError, did_you_mean

if TYPE_CHECKING:
    from ipb.engine._yaml import YamlDoc
    from ipb.engine.card import Constraint, InputSpec

__all__ = [
    "ENGINE_VERDICTS",
    "FOLLOW_ON",
    "VisibleSymbols",
    "all_computed_names",
    "bound",
    "broken_constraint_errors",
    "check_outcomes",
    "date_message",
    "find_cycles",
    "names_in",
    "number_value",
    "plain_number",
    "value_labels",
]

#: Verdict words the engine itself gives (gate verdicts and the final INCONCLUSIVE): never a card's outcome.
ENGINE_VERDICTS = frozenset({"PROCEED", "REJECT", "INCONCLUSIVE", "N/A", "NA", "N_A"})

_UNIT_WORDS = {"money": "money ($5M)", "ratio": "a percentage (5%)", "multiple": "a multiple (10x)",
               None: "a plain number"}


class _Adds(Protocol):
    def add(self, error: IpbError, path: tuple[Any, ...], *, key: bool = False) -> None: ...


def number_value(value: Any, what: str, *, exact: bool = False) -> tuple[Exact, ExprType]:
    """A number written in a card (YAML number or literal text such as ``$5M``, ``25%``, ``2/3``) and its type.

    With ``exact=True`` (constants, weights, ``min_weight``) a quotient with
    no finite decimal form stays the exact Fraction (``2/3``), as the same
    literal written inline in an expression does; otherwise it is rounded to
    28 significant digits (issue 16: ``k: 2/3`` then ``price / ncav >= k``
    was false at $200M / $300M).

    Raises
    ------
    CompileError
        Not a number (rule ``literal``); the caller locates the value.
    """
    if isinstance(value, bool):
        raise CompileError(f"{what} must be a number, not {value!r}", rule="literal")
    if isinstance(value, (int, Decimal, float)):
        number = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
        try:  # a YAML number skips the reader: hold it to the same limits (issue 16: weight 1.0e+999999999)
            return check_magnitude(number, what), NUMBER
        except NumberError as exc:
            raise CompileError(exc.message, rule="number-limit") from None
    try:
        result, type = parse_literal(str(value), exact=exact)
    except CompileError as exc:  # its position is inside the value's text; the caller locates the value
        raise CompileError(f"{what} must be a number, not {value!r} ({exc.message})", rule="literal") from None
    if type.kind != "number":
        raise CompileError(f"{what} must be a number, not {value!r}", rule="literal")
    return result, type


#: Most points on one input's perturbation grid (``range`` over ``step``): perturbation indexes the grid with
#: Decimal integer division (28 digits), so a finer grid is refused when the card loads, at its ``step``.
MAX_GRID_POINTS = 10**18


def grid_problem(name: str, lo: Decimal, hi: Decimal, step: Decimal) -> CompileError | None:
    """The error for a grid of more than :data:`MAX_GRID_POINTS` points, else None.

    >>> grid_problem("price", Decimal(0), Decimal("1e30"), Decimal(1)).message.split(";")[0]
    "range 0..1E+30 of 'price' with step 1 is about 10^30 grid points"
    >>> grid_problem("price", Decimal(0), Decimal(100), Decimal(1)) is None
    True
    """
    points = Fraction(hi - lo) / Fraction(step)
    if points <= MAX_GRID_POINTS:
        return None
    return CompileError(f"range {lo}..{hi} of {name!r} with step {step} is about 10^{len(str(int(points))) - 1} grid "
                        f"points; at most 10^{len(str(MAX_GRID_POINTS)) - 1} are supported (declare a coarser step)",
                        rule="input")


def plain_number(value: Any, what: str) -> Exact:
    """A gate ``weight`` or ``min_weight``: a plain number, exact, within 10^±100.

    An n-of-m join adds weights up, so a weight has no unit: ``$5M`` or
    ``50%`` is an error (it counted as 5,000,000 or 0.5), and a YAML number
    such as ``1.0e+999999999`` is held to the reader's limits (it passed
    ``check`` and crashed ``run``; issue 16, breaker 2 findings 3 and 4).

    Raises
    ------
    CompileError
        Rule ``literal``, ``number-limit`` or ``weight``; the caller locates the value.

    >>> plain_number("1/3", "weight")
    Fraction(1, 3)
    """
    number, written = number_value(value, what, exact=True)
    if written.unit is not None:
        raise CompileError(f"{what} {value!r} is {_UNIT_WORDS[written.unit]}, but weights are plain numbers "
                           "(1, 0.5, 1/3)", rule="weight")
    try:  # a quotient of literals (1/1e100/1e100) is held to the same limits
        check_magnitude(public(number), what)
    except NumberError as exc:
        raise CompileError(exc.message, rule="number-limit") from None
    return number


def bound(value: Any, what: str, name: str, kind: str, expr_type: ExprType) -> Decimal:
    """A ``range`` bound or ``step`` of input ``name``: a number in the input's own unit.

    A plain number fits any numeric input; ``5%`` fits only a ratio, ``$5M``
    only money, ``10x`` only a multiple (``range: [5%, 10x]`` on money was
    read as $0.05 to $10 by perturb).

    Raises
    ------
    CompileError
        Rule ``input`` (not a numeric input) or ``input-unit`` (another unit).

    >>> from ipb.engine.expressions import MONEY
    >>> bound("$5M", "step", "price", "money", MONEY)
    Decimal('5000000')
    """
    if expr_type.kind != "number":
        raise CompileError(f"{what} applies only to numeric inputs; {name!r} is a {kind}", rule="input")
    number, written = number_value(value, what)
    if written.unit is not None and written.unit != expr_type.unit:
        raise CompileError(f"{what} {value!r} of {name!r} is {_UNIT_WORDS[written.unit]}, but {name!r} is a {kind}"
                           f"; write it as {_UNIT_WORDS[expr_type.unit]}", rule="input-unit")
    return number


def check_outcomes(col: _Adds, outcomes: Mapping[str, str], path: tuple[Any, ...],
                   given: Mapping[str, Any] | None = None, same_allowed: bool = False) -> None:
    """A card's (or a branch's) pass and fail verdicts must differ and must not be the engine's own words.

    ``outcomes: {pass: INCONCLUSIVE}`` would make a cleared card look
    undecided, and ``pass == fail`` would decide the same whatever the gates
    say. ``given`` is what the card wrote (the rest are defaults), so an
    error points at a word the author wrote. A regime branch may give one
    verdict either way (``same_allowed``; the linter warns, rule ``same-verdicts``).
    """
    given = outcomes if given is None else given
    for key in ("pass", "fail"):
        word = outcomes[key]
        if word in ENGINE_VERDICTS and key in given:
            col.add(LoadError(f"outcome {key}: {word!r} is a verdict word of the engine itself "
                              f"({', '.join(sorted(ENGINE_VERDICTS - {'NA', 'N_A'}))}); name the card's own decision, "
                              "such as INVEST or DECLINE", rule="outcome", name=key), path + (key,))
    if outcomes["pass"] == outcomes["fail"] and not same_allowed:
        where = "fail" if "fail" in given else "pass"
        col.add(LoadError(f"outcomes pass and fail are both {outcomes['pass']!r}, so the card would decide the same "
                          "whatever its gates say", rule="outcome", name=where), path + (where,))


_QUOTED = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'")
_NAME = re.compile(r"(?<![0-9A-Za-z_$.])[A-Za-z_][A-Za-z0-9_]*")


def names_in(source: Any) -> set[str]:
    """The words of an expression text that could be names (quoted strings and unit suffixes left out).

    >>> sorted(names_in("b + 1 > $5M and kind in {'a b'}"))
    ['and', 'b', 'in', 'kind']
    """
    return set(_NAME.findall(_QUOTED.sub(" ", str(source))))


def find_cycles(needs: Mapping[str, set[str]]) -> list[list[str]]:
    """Cycles in a "name needs names" graph, each as a path that ends where it starts (``[a, b, a]``).

    Every name lies on at most one reported cycle; names are visited in the
    mapping's order, so the result is deterministic. Iterative (no recursion
    limit), linear in names plus edges.

    >>> find_cycles({"a": {"b"}, "b": {"a"}, "c": {"c"}, "d": {"a"}})
    [['a', 'b', 'a'], ['c', 'c']]
    """
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    cycles: list[list[str]] = []
    on_cycle: set[str] = set()
    for start in needs:
        if start in state:
            continue
        path = [start]
        todo = [iter(sorted(needs.get(start, ())))]
        state[start] = 1
        while todo:
            nxt = next(todo[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                todo.pop()
                continue
            if nxt not in needs:
                continue
            if state.get(nxt) == 1:
                cycle = path[path.index(nxt):] + [nxt]
                if not on_cycle & set(cycle):
                    cycles.append(cycle)
                    on_cycle.update(cycle)
            elif nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                todo.append(iter(sorted(needs.get(nxt, ()))))
    return cycles


def all_computed_names(raw_gates: list[dict[str, Any]]) -> dict[str, str]:
    found: dict[str, str] = {}
    for g in raw_gates:
        for name in g.get("compute") or {}:
            found.setdefault(name, g["id"])
        if g.get("classify"):
            found.setdefault(g["id"], g["id"])
    return found


#: Rule of an error caused only by an earlier, reported one (a value whose expression failed): never shown.
FOLLOW_ON = "follow-on"


#: The ``current`` gate of :class:`VisibleSymbols` for the card's ``constraints:`` (no gate id is empty).
CONSTRAINTS = ""


class VisibleSymbols(Mapping[str, ExprType]):
    """The live symbol table as one gate sees it.

    A value computed by a later gate is not visible, and asking for it is a
    pointed error rather than an "unknown name". A value in ``broken`` (its
    own expression failed, and that error is reported) raises a
    :data:`FOLLOW_ON` error, which the card loader drops: a typo is one error,
    not one per reader of the value it spoils. With ``current`` :data:`CONSTRAINTS`, a computed value in ``later``
    is an error saying that constraints read inputs and constants only (s54newuser: "unknown name 'roce' ... did you
    mean 'min_roce'?" for a rule over a computed ratio).
    """

    def __init__(self, symbols: Mapping[str, ExprType], later: Mapping[str, str], current: str,
                 broken: Collection[str] = ()) -> None:
        self._symbols = symbols
        self._later = later
        self._current = current
        self._broken = broken

    def __getitem__(self, key: str) -> ExprType:
        if key in self._symbols:
            return self._symbols[key]
        if key in self._broken:  # its own expression failed and was reported: say nothing more
            raise CompileError(f"{key!r} could not be computed (reported above)", rule=FOLLOW_ON, name=key)
        owner = self._later.get(key)
        if owner is not None and self._current == CONSTRAINTS:
            what = f"the regime of gate {owner!r}" if key == owner else f"a value computed by gate {owner!r}"
            raise CompileError(
                f"a constraint reads inputs and constants only, and {key!r} is {what}: write the rule over the inputs "
                f"{key!r} is computed from (constraints bound the facts a scenario states, before any gate runs)",
                rule="constraint-reads-value", name=key)
        if owner is not None and owner != self._current:
            raise CompileError(
                f"{key!r} is computed by gate {owner!r}, which runs after gate {self._current!r}",
                rule="order",
                name=key,
            )
        if owner is not None and key != owner:
            raise CompileError(f"{key!r} is computed later in gate {owner!r} (its compute entries run in order); "
                               f"move {key!r} before the value that reads it", rule="order", name=key)
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._symbols)

    def __len__(self) -> int:
        return len(self._symbols)



def value_labels(col: _Adds, path: tuple[Any, ...], name: str, values: tuple[str, ...] | None,
                 spec: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """A category input's ``value_labels`` (how a question shows each value) as (value, display) pairs.

    A label for a value the input does not have, or one text shown for two
    values (the question could not be read back to one value), is collected
    as an error at its key; whitespace in a display text is collapsed. A
    label that is blank, spans lines or holds a sentence break followed by
    more text (:func:`label_problem`) is collected as an error at its value:
    it would state something beside the value in the question.
    """
    raw = spec.get("value_labels") or {}
    if raw and values is None:
        col.add(LoadError(f"only category inputs take 'value_labels' ({name!r} is {spec['type']})", rule="input"),
                path + ("value_labels",), key=True)
        return ()
    allowed = values or ()
    shown: dict[str, str] = {}
    pairs: list[tuple[str, str]] = []
    for value, text in raw.items():
        display = " ".join(str(text).split())
        wrong = label_problem(str(text)) if value in allowed else None
        if wrong is not None:
            col.add(LoadError(f"value_labels of {name!r} shows {value!r} as {str(text)!r}: {wrong}", rule="input",
                              name=value), path + ("value_labels", value))
        elif value not in allowed:
            near = did_you_mean(value, allowed)
            col.add(LoadError(f"value_labels of {name!r} names {value!r}, which is not one of its values"
                              + (f"; did you mean {near!r}?" if near else ""), rule="input", name=value),
                    path + ("value_labels", value), key=True)
        elif display.lower() in shown:
            col.add(LoadError(f"value_labels of {name!r} shows {value!r} as {display!r}, as it shows "
                              f"{shown[display.lower()]!r}; give each value its own text", rule="input", name=value),
                    path + ("value_labels", value))
        else:
            shown[display.lower()] = value
            pairs.append((value, display))
    return tuple(pairs)


#: Words a period may follow inside a label without ending its sentence ("a Wall St. darling").
_ABBREVIATIONS = frozenset("st mr mrs ms dr jr sr co corp inc ltd no vs etc e.g i.e u.s u.k approx".split())
_BREAK = re.compile(r"([A-Za-z.]*)([.!?;])[\"')\]]*\s+(?=\S)")


def label_problem(text: str) -> str | None:
    """Why ``text`` cannot be a category value's label in a question, or None when it can (s58 new user F-W1).

    A blank label, one spanning lines, or one with a sentence break (``.``, ``!``, ``?`` or ``;`` then more
    text, a period after a usual abbreviation such as "St." aside) would put a second statement into the
    sentence that states the value ("neutral. The dividend yield is 9%").

    Examples
    --------
    >>> label_problem("a Wall St. darling: 80%+ buy") is None
    True
    >>> label_problem("neutral. The dividend yield is 9%")
    'a label is one phrase; it holds a sentence break (".") followed by more text'
    >>> label_problem("  ")
    'a label cannot be blank'
    """
    if not text.strip():
        return "a label cannot be blank"
    if "\n" in text.strip() or "\r" in text.strip():
        return "a label is one phrase on one line; it spans lines"
    for m in _BREAK.finditer(text.strip()):
        if m.group(2) == "." and m.group(1).lower().rstrip(".") in _ABBREVIATIONS:
            continue
        return f'a label is one phrase; it holds a sentence break ("{m.group(2)}") followed by more text'
    return None


def broken_constraint_errors(constraints: tuple[Constraint, ...], inputs: Mapping[str, InputSpec],
                             facts: Mapping[str, Any], owner: str, doc: YamlDoc | None = None) -> list[LoadError]:
    """One error per constraint that ``facts`` (engine values) break, said to be ``owner``'s ("card X", "the base
    scenario"). With the scenario's ``doc`` each error points at the first fact the constraint reads (file:line:col);
    rule ``constraint``, name the constraint id.
    """
    from ipb.engine.execute import format_value  # execute imports this module

    found: list[LoadError] = []
    for c in constraints:
        if not c.broken(facts):
            continue
        names = sorted(c.expr.names | ({c.derive} if c.derive else set()))
        shown = ", ".join(f"{n} = {format_value(facts[n], inputs[n].type)}" for n in names if n in facts)
        rule = f"{c.derive} == {c.expr.source}" if c.derive else c.expr.source
        # s57nufix (C2): a derived value's mismatch says the value to write, not only the formula
        want = c.value_for(facts) if c.derive else None
        fix = (f"; the rule gives {c.derive} = {format_value(want, inputs[c.derive].type)}: state that"
               if want is not None and c.derive in inputs else "")
        err = LoadError(f"scenario breaks constraint {c.id!r} of {owner} ({rule}): {shown}{fix}"
                        + (f"; {c.description}" if c.description else ""), rule="constraint", name=c.id)
        if doc is not None:
            first = next((n for n in names if n in facts), None)
            line, column = doc.locate(("facts", first)) if first is not None else (1, 1)
            err.with_location(doc.file, line, column, doc.source_line(line))
        found.append(err)
    return found


#: The schemas' pattern of a calendar date, and what a value that misses it is told (s47break leftover 10: a bare
#: ``as_of: 2019`` was told "quote it ('2019')", and the quoted '2019' then failed this pattern).
DATE_PATTERN = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
DATE_HINT = "write the day as a quoted 'YYYY-MM-DD' (e.g. '2019-12-31')"


def date_message(err: Any, message: str) -> str:
    """``message``, a schema error's, told how to write a date where the schema asks for one (``as_of``)."""
    schema = err.schema if isinstance(err.schema, Mapping) else {}
    if schema.get("pattern") != DATE_PATTERN or isinstance(err.instance, (dict, list)):
        return message
    if err.validator == "type":
        return message.split(", but ")[0] + f", but a date is expected: {DATE_HINT}"
    if err.validator == "pattern":
        return f"{err.instance!r} is not a date: {DATE_HINT}"
    return message


def reachable_threshold(threshold: Any, gates: Any) -> Any:
    """``threshold`` when its ``min_weight`` can be reached by the gates' weights together.

    s51break: ``min_weight: 100`` over five gates of weight 1 was checked "ok", and the card could then never give
    its counted decision (4 of 5 lenses confirming ran to DECLINE, ``threshold_not_met_4_of_5``).

    Raises
    ------
    CompileError
        ``min_weight`` is more than the sum of every gate's weight.
    """
    # exact sums, as the executor's (a weight may be a Decimal or a Fraction such as 1/3: Decimal + Fraction raises)
    weights = [as_fraction(g.weight) for g in gates]
    total = sum(weights, Fraction(0))
    # a weight that is not positive has its own error at its place; a sum over it says nothing more (s64 new user
    # F10: weight -5 also gave "weights add up to (0)")
    if gates and all(w > 0 for w in weights) and as_fraction(threshold.min_weight) > total:
        raise CompileError(f"min_weight {threshold.min_weight} is more than the {len(gates)} gates' weights add up to "
                           f"({public(total)}): {threshold.count} verdicts could never reach it", rule="weight")
    return threshold
