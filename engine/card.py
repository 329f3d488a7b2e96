"""Framework cards: load a YAML card, validate it, compile its criteria.

A card is checked in three passes, each collecting every problem it finds:

1. YAML, strictly (``engine/_yaml.py``: duplicate keys and ambiguous scalars
   are errors);
2. the JSON Schema ``grammar/card.schema.json`` (fields, types, enums);
3. semantics: expressions parse and type-check against the declared inputs,
   constants and the values computed by earlier gates; gate ids are unique;
   kill-criterion labels, branches, re-entry loops and the threshold agree.

Structure (graph, topology agreement, reachability, cycles) is checked by
:mod:`ipb.engine.graph` when the card is compiled.

Every error names the card file, 1-based line and column.
"""

from __future__ import annotations

import hashlib
import re
import json
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterator, Mapping

from ipb.engine._card_checks import (FOLLOW_ON, VisibleSymbols, all_computed_names, bound as _bound,
                                     broken_constraint_errors, reachable_threshold,
                                     check_outcomes as _check_outcomes, find_cycles, grid_problem, names_in,
                                     number_value as _number, plain_number, value_labels as _value_labels)
from ipb.engine._written import as_written
from ipb.engine._yaml import YamlDoc, load_yaml, load_yaml_file
from ipb.engine.expressions import (
    BOOL,
    DATE,
    MONEY,
    MULTIPLE,
    NUMBER,
    RATIO,
    YEARS,
    CompiledExpression,
    ExprType,
    category,
    compile_expression,
)
from ipb.errors import CompileError, ErrorGroup, IpbError, LintWarning, LoadError, did_you_mean
from ipb.engine._synonyms import verdict_synonyms_of
from ipb.engine._card_constraints import _constraints, _lint_source_years
from ipb.engine._card_question import CardQuestion, card_question
from ipb.engine._card_schema import _schema_errors  # also imported from here by engine.investors and engine.scenario

__all__ = [
    "Card",
    "Gate",
    "InputSpec",
    "Source",
    "Branch",
    "Constraint",
    "constraint_errors",
    "weights_count",
    "broken_constraint_errors",
    "Reentry",
    "Threshold",
    "load_card",
    "load_card_text",
    "card_from_doc",
    "card_schema",
    "INPUT_TYPES",
    "DEFAULT_OUTCOMES",
]

#: Declared input type -> expression type.
INPUT_TYPES: dict[str, ExprType] = {
    "number": NUMBER,
    "ratio": RATIO,
    "money": MONEY,
    "multiple": MULTIPLE,
    "bool": BOOL,
    "year": YEARS,
    "date": DATE,
}

#: ``{name}`` in a required element is replaced by that value in the GRP.
ELEMENT_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")

DEFAULT_OUTCOMES = {"pass": "INVEST", "fail": "DECLINE"}

#: Names the engine itself provides to every expression.
BUILTINS: dict[str, ExprType] = {"iteration": NUMBER}


@lru_cache(maxsize=None)
def card_schema() -> dict[str, Any]:
    """The JSON Schema for cards, shipped as ``grammar/card.schema.json``."""
    text = resources.files("ipb.grammar").joinpath("card.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


@dataclass(frozen=True)
class Source:
    """A primary source: tier 1-6 (paper §6.1), document title, year."""

    tier: int
    document: str
    year: int
    locator: str | None = None
    quote: str | None = None
    #: Why a source after the vintage end still counts: retrospective, posthumous or secondary.
    after_vintage: str | None = None


@dataclass(frozen=True)
class InputSpec:
    """A typed scenario input.

    ``type`` is number | ratio | money | multiple | bool | category | year |
    date. Ratios are fractions in [0, 1] (``95%`` is 0.95), money is USD,
    years are calendar years. ``range``/``step`` bound perturbation.
    """

    name: str
    type: str
    expr_type: ExprType
    description: str = ""
    unit: str | None = None
    values: tuple[str, ...] | None = None
    range: tuple[Decimal, Decimal] | None = None
    step: Decimal | None = None
    #: How a question names the input, and a sentence stating it with ``{value}`` (``label:``, ``phrase:``).
    label: str = ""
    phrase: str = ""
    #: How a question shows category values (``value_labels:``): (value, display text) pairs, in file order.
    value_labels: tuple[tuple[str, str], ...] = ()
    #: What the value is a fact about (``describes:``): ``"market"`` (the market or economy at the date),
    #: ``"company"`` (never a macro regime, whatever its name), ``"sector"`` (a category whose value may name the
    #: company's industry: sector substitution stays in that sector), or ``""`` (by the registries' names).
    describes: str = ""


@dataclass(frozen=True)
class Constraint:
    """A relation between inputs that every scenario of the card must satisfy (``constraints:``).

    Two forms. ``require: EXPR``: ``expr`` is a boolean expression over the
    card's inputs and constants; a scenario breaks it only when it evaluates
    to false (an unknown input leaves it unknown, and an unknown constraint
    holds). ``derive: INPUT`` with ``value: EXPR``: input ``derive`` equals
    the numeric expression ``expr`` of other inputs (to within
    ``DERIVE_TOLERANCE``); perturbation computes it from the drawn inputs
    instead of drawing it (:meth:`value_for`).
    """

    id: str
    expr: CompiledExpression
    description: str = ""
    derive: str | None = None
    #: How the derived input is written (:func:`ipb.engine._written.written_form`): its value is rounded so.
    written: tuple[Decimal | None, int | None] = (None, None)
    tie: bool = False

    def value_for(self, facts: Mapping[str, Any], exact: bool = False) -> Decimal | None:
        """The derived input's value on ``facts``, as the input is written (``_written``; ``exact``: unrounded);
        None: not a derive constraint, or an input unknown."""
        if self.derive is None:
            return None
        value = self.expr(facts)
        if value is None:
            return None
        value = value if isinstance(value, Decimal) else Decimal(value.numerator) / Decimal(value.denominator)
        return value if exact else as_written(value, self.written)

    def broken(self, facts: Mapping[str, Any]) -> bool:
        """True when ``facts`` (engine values) make the relation false (a derived value stated as written
        or as computed holds)."""
        if self.derive is None:
            return self.expr(facts) is False
        have = facts.get(self.derive)
        want = self.value_for(facts)
        return (have is not None and want is not None and abs(have - want) > DERIVE_TOLERANCE
                and abs(have - self.value_for(facts, exact=True)) > DERIVE_TOLERANCE)  # type: ignore[operator]


#: A derived input may differ from its expression by this much (rounding in a scenario file).
DERIVE_TOLERANCE = Decimal("1e-9")


@dataclass(frozen=True)
class Branch:
    """The gates a regime selects, and the outcomes it decides."""

    regime: str
    gates: tuple[str, ...]
    pass_outcome: str
    fail_outcome: str


@dataclass(frozen=True)
class Reentry:
    """A declared loop back to gate ``to`` while ``condition`` holds, bounded."""

    to: str
    condition: CompiledExpression
    max_iterations: int


@dataclass(frozen=True)
class Threshold:
    """N-of-M join: count gates whose verdict is ``count`` (weighted)."""

    count: str
    n: int
    min_weight: Decimal


def weights_count(card: "Card") -> bool:
    """True when a card's weighted threshold is decided by more than a count of gates: some gate weighs other than 1,
    or ``min_weight`` differs from ``at_least``. The executor (``engine.execute._threshold``) meets a threshold when
    the counted gates weigh at least ``min_weight``; with every weight 1 and ``min_weight`` equal to ``at_least`` that
    is a count. False for a card without a threshold. The one test ``run``'s weight note, the picture's join label,
    the kill-not-veto lint and condition C's threshold line share."""
    from ipb.engine._exact import as_fraction

    threshold = card.threshold
    if threshold is None:
        return False
    return as_fraction(threshold.min_weight) != threshold.n or any(as_fraction(g.weight) != 1 for g in card.gates)


@dataclass
class Gate:
    """One gate of a card, with compiled criteria.

    ``number`` is the 1-based position in the card. ``proceed``/``reject`` are
    compiled boolean criteria (either may be None: the other is negated).
    ``compute`` maps value names to compiled numeric expressions evaluated
    before the criteria; later gates may read them.
    """

    number: int
    id: str
    name: str
    aliases: tuple[str, ...]
    description: str
    required_elements: tuple[str, ...]
    kill_criterion: str | None
    proceed: CompiledExpression | None
    reject: CompiledExpression | None
    compute: dict[str, CompiledExpression]
    weight: Decimal = Decimal(1)
    source: Source | None = None
    classify: tuple[tuple[str, CompiledExpression | None], ...] = ()
    branches: dict[str, Branch] = field(default_factory=dict)
    reentry: Reentry | None = None
    elements_by_verdict: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: input name -> the verdict that raising it moves toward (PROCEED or REJECT).
    monotone: dict[str, str] = field(default_factory=dict)
    #: An INCONCLUSIVE verdict here keeps the card from its pass verdict
    #: (the gate's own ``decisive``, else the card's ``decisive_default``).
    decisive: bool = False
    #: Why the gate is (or is not) decisive, as the card states it.
    decisive_reason: str = ""

    def elements_for(self, verdict: str) -> tuple[str, ...]:
        """The required elements for a gate that gave ``verdict`` (templates unrendered)."""
        return self.elements_by_verdict.get(verdict, self.required_elements)

    @property
    def is_kill_gate(self) -> bool:
        """True when the gate carries an explicit kill criterion (paper Table 5 'Kill gates')."""
        return self.kill_criterion is not None

    @property
    def is_classifier(self) -> bool:
        return bool(self.classify)

    @property
    def reads(self) -> frozenset[str]:
        """Every name the gate's expressions read."""
        names: set[str] = set()
        for expr in self.expressions():
            names |= expr.names
        return frozenset(names)

    def expressions(self) -> Iterator[CompiledExpression]:
        if self.proceed is not None:
            yield self.proceed
        if self.reject is not None:
            yield self.reject
        yield from self.compute.values()
        for _, when in self.classify:
            if when is not None:
                yield when
        if self.reentry is not None:
            yield self.reentry.condition


@dataclass
class Card:
    """A framework card, validated and with compiled criteria (not yet a graph)."""

    id: str
    investor: str
    name: str
    topology_type: str
    gate_logic: str
    topology_rationale: str
    vintage: tuple[int, int | None]
    sources: tuple[Source, ...]
    outcomes: dict[str, str]
    inputs: dict[str, InputSpec]
    constants: dict[str, tuple[Decimal, ExprType]]
    gates: list[Gate]
    threshold: Threshold | None
    description: str = ""
    kind: str = "practitioner"
    #: Whether a gate that does not say otherwise is decisive (card field ``decisive_default``).
    decisive_default: bool = False
    #: Constants marked ``author_inferred: true``: the card author's numbers, not the investor's.
    author_inferred: frozenset[str] = frozenset()
    #: Relations between inputs every scenario must satisfy (``constraints:``).
    constraints: tuple[Constraint, ...] = ()
    #: Extra phrases that state a final verdict (card field ``verdict_synonyms``): outcome -> phrases, as written.
    verdict_synonyms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: The sentence opening its L7 questions and the ask closing them (card field ``question:``); None: none.
    question: CardQuestion | None = None
    file: str = "<string>"
    content_hash: str = ""
    #: Lint warnings (legal but probably unintended), each with file:line:col.
    warnings: list[IpbError] = field(default_factory=list, compare=False)
    doc: YamlDoc | None = field(default=None, repr=False, compare=False)

    def gate(self, key: str | int) -> Gate:
        """A gate by id or 1-based number; KeyError names the choices."""
        for g in self.gates:
            if g.id == key or g.number == key:
                return g
        raise KeyError(f"no gate {key!r} in card {self.id}; gates: {', '.join(g.id for g in self.gates)}")

    @property
    def kill_gates(self) -> list[Gate]:
        return [g for g in self.gates if g.is_kill_gate]

    @property
    def symbols(self) -> dict[str, ExprType]:
        """Every name an expression of this card may read."""
        table: dict[str, ExprType] = dict(BUILTINS)
        table.update({n: t for n, (_, t) in self.constants.items()})
        table.update({n: s.expr_type for n, s in self.inputs.items()})
        for g in self.gates:
            for name, expr in g.compute.items():
                table[name] = expr.type
            if g.classify:
                table[g.id] = category(r for r, _ in g.classify)
        return table


# --------------------------------------------------------------------------- loading


#: Compiler warnings that a card may not carry: ``x / 0`` (also ``x / (1 - 1)`` or a constant 0) is always
#: unknown, so the criterion could never decide (breaker finding 25).
ERROR_WARNINGS = frozenset({"zero-division"})


class _Collector:
    """Collects errors with positions in one card file."""

    def __init__(self, doc: YamlDoc) -> None:
        self.doc = doc
        self.errors: list[IpbError] = []
        self.warnings: list[IpbError] = []
        #: The card's constants, folded into every compiled expression.
        self.constants: dict[str, Any] = {}

    def _where(self, path: tuple[Any, ...], key: bool, offset: int | None) -> tuple[int, int]:
        if offset is not None:  # a character of the string at path (0-based in the loaded string)
            return self.doc.locate_in_string(path, offset)
        return self.doc.locate_key(path) if key else self.doc.locate(path)

    def add(self, error: IpbError, path: tuple[Any, ...], *, key: bool = False, offset: int | None = None) -> None:
        line, column = self._where(path, key, offset)
        error.with_location(self.doc.file, line, column, self.doc.source_line(line))
        self.errors.append(error)

    def warn(self, warning: IpbError, path: tuple[Any, ...], *, offset: int | None = None) -> None:
        line, column = self._where(path, False, offset)
        self.warnings.append(warning.with_location(self.doc.file, line, column, self.doc.source_line(line)))

    def expression(
        self, source: str, symbols: Mapping[str, ExprType], path: tuple[Any, ...], expect: str
    ) -> CompiledExpression | None:
        try:
            compiled = compile_expression(source, symbols, expect=expect, constants=self.constants)
            refused = False
            for warning in compiled.warnings:
                line, column = self.doc.locate_in_string(path, warning.offset or 0)
                found: IpbError = warning
                if warning.rule in ERROR_WARNINGS:  # a criterion that can never be known is a card error
                    found, refused = CompileError(warning.message, rule=warning.rule), True
                found.line = found.column = None
                found.with_location(self.doc.file, line, column, self.doc.source_line(line))
                (self.errors if refused and found is not warning else self.warnings).append(found)
            return None if refused else compiled
        except CompileError as exc:
            if exc.rule == FOLLOW_ON:  # caused by an error already reported: one mistake, one message
                return None
            line, column = self.doc.locate_in_string(path, exc.offset or 0)
            exc.line = exc.column = None
            exc.with_location(self.doc.file, line, column, self.doc.source_line(line))
            self.errors.append(exc)
            return None


def load_card(path: str | Path) -> Card:
    """Load, validate and compile the criteria of the card at ``path``.

    Raises
    ------
    LoadError
        The file is missing or is not strict YAML.
    ErrorGroup
        Every schema and semantic error in the card, each with file:line:col.
    """
    return card_from_doc(load_yaml_file(path, collect=True))


def load_card_text(text: str, file: str = "<string>") -> Card:
    """Like :func:`load_card`, from text (``file`` names it in errors)."""
    return card_from_doc(load_yaml(text, file, collect=True))


#: Words an expression reads as operators, literals or functions: never usable as input names.
RESERVED_NAMES = frozenset({"and", "or", "not", "in", "true", "false", "min", "max", "abs", "round", "known", "date", "year"})


def card_from_doc(doc: YamlDoc) -> Card:
    """Validate and compile the criteria of a card already read by the strict YAML loader.

    ``content_hash`` is the SHA-256 of the document's lines joined by newlines.

    Raises
    ------
    ErrorGroup
        Every schema and semantic error, each with file:line:col.
    """
    errors = _schema_errors(doc, card_schema(), "the card")
    if errors:
        raise ErrorGroup(errors)
    col = _Collector(doc)
    data = doc.data

    # -- inputs and constants
    inputs: dict[str, InputSpec] = {}
    for name, spec in data["inputs"].items():
        path = ("inputs", name)
        if name in RESERVED_NAMES:
            col.add(LoadError(f"input name {name!r} is a word of the expression language, so no criterion could "
                              "read it; rename the input", rule="input-name", name=name), path, key=True)
        kind = spec["type"]
        values = tuple(spec["values"]) if "values" in spec else None
        if kind == "category":
            if values is None:
                col.add(LoadError(f"category input {name!r} needs 'values'", rule="input"), path)
                values = ()
            expr_type = category(values)
        else:
            if values is not None:
                col.add(LoadError(f"only category inputs take 'values' ({name!r} is {kind})", rule="input"), path + ("values",))
            expr_type = ExprType("number", measure=str(spec["unit"])) if kind == "number" and spec.get("unit") else INPUT_TYPES[kind]
        rng = None
        if "range" in spec:
            bounds = []
            for k in (0, 1):
                try:
                    bounds.append(_bound(spec["range"][k], "range", name, kind, expr_type))
                except CompileError as exc:
                    col.add(exc, path + ("range", k))
            if len(bounds) == 2:
                lo, hi = bounds
                if lo > hi:
                    col.add(CompileError(f"range of {name!r} is reversed: {spec['range'][0]} > {spec['range'][1]}; "
                                         "write the lower bound first", rule="input"), path + ("range",))
                else:
                    rng = (lo, hi)
        step = None
        if "step" in spec:
            try:
                step = _bound(spec["step"], "step", name, kind, expr_type)
                if step <= 0:
                    raise CompileError(f"step of {name!r} must be positive, not {spec['step']}", rule="input")
                if rng is not None and (problem := grid_problem(name, rng[0], rng[1], step)) is not None:
                    raise problem
            except CompileError as exc:
                col.add(exc, path + ("step",))
        inputs[name] = InputSpec(
            name, kind, expr_type, spec.get("description", ""), spec.get("unit"), values, rng, step,
            spec.get("label", ""), spec.get("phrase", ""), _value_labels(col, path, name, values, spec),
            spec.get("describes", ""),
        )

    constants: dict[str, tuple[Decimal, ExprType]] = {}
    author_inferred = frozenset(
        name for name, spec in (data.get("constants") or {}).items()
        if isinstance(spec, dict) and spec.get("author_inferred")
    )
    raw_constants = {name: spec["value"] if isinstance(spec, dict) else spec
                     for name, spec in (data.get("constants") or {}).items()}
    named = {name: names_in(raw) & set(raw_constants) for name, raw in raw_constants.items()}
    in_cycle: set[str] = set()
    for cycle in find_cycles(named):
        col.add(CompileError(f"cycle {' -> '.join(cycle)}: constants cannot name one another; write each as a value "
                             "(2/3, $5M, 25%)", rule="cycle", name=cycle[0]), ("constants", cycle[0]))
        in_cycle.update(cycle)
    for name, spec in (data.get("constants") or {}).items():
        path = ("constants", name)
        raw_value = raw_constants[name]
        if name in in_cycle:
            continue
        if named[name]:
            col.add(CompileError(f"constant {name!r} names constant {sorted(named[name])[0]!r}: a constant is a value "
                                 "(2/3, $5M, 25%), not an expression of other names", rule="literal", name=name), path)
            continue
        try:
            value, type = _number(raw_value, f"constant {name!r}", exact=True)
            if isinstance(spec, dict) and "type" in spec:
                type = INPUT_TYPES[spec["type"]]
            constants[name] = (value, type)
        except CompileError as exc:
            col.add(exc, path)
        if name in inputs:
            col.add(LoadError(f"{name!r} is both an input and a constant", rule="duplicate-name", name=name), path, key=True)

    col.constants = {name: value for name, (value, _) in constants.items()}
    if not any("reentry" in g for g in data["gates"]):
        col.constants["iteration"] = Decimal(0)  # no loop: the iteration count is always 0
    outcomes = dict(DEFAULT_OUTCOMES)
    outcomes.update(data.get("outcomes") or {})
    _check_outcomes(col, outcomes, ("outcomes",), given=data.get("outcomes") or {})

    # -- gates, in order: each sees the values computed before it
    symbols: dict[str, ExprType] = dict(BUILTINS)
    symbols.update({n: t for n, (_, t) in constants.items()})
    symbols.update({n: s.expr_type for n, s in inputs.items()})
    later_values = all_computed_names(data["gates"])
    gates: list[Gate] = []
    seen_ids: dict[str, int] = {}
    computed_by: dict[str, str] = {}
    names_seen: dict[str, str] = {}
    # values whose own definition failed (reported): constants (s42user's `value: "3 x"`) and computed values; their
    # readers say nothing more (before: "unknown name 'min_coverage'; it is neither a declared input nor ...")
    broken: set[str] = set(raw_constants) - set(constants)
    for index, g in enumerate(data["gates"]):
        gpath: tuple[Any, ...] = ("gates", index)
        gid = g["id"]
        if gid in seen_ids:
            col.add(
                LoadError(f"duplicate gate id {gid!r} (gate {seen_ids[gid]} has it too)", rule="duplicate-gate", name=gid),
                gpath + ("id",),
            )
        seen_ids.setdefault(gid, index + 1)
        if gid in symbols and gid not in BUILTINS:
            col.add(LoadError(f"gate id {gid!r} clashes with an input or value name", rule="duplicate-name", name=gid), gpath + ("id",))

        # Earlier gates' values are visible; a later gate's value is a clear error.
        visible = VisibleSymbols(symbols, later_values, gid, broken)
        compute: dict[str, CompiledExpression] = {}
        own = g.get("compute") or {}
        cyclic: set[str] = set()
        for cycle in find_cycles({v: names_in(src) & set(own) for v, src in own.items()}):
            col.add(CompileError(f"cycle {' -> '.join(cycle)}: these values of gate {gid!r} each need the other",
                                 rule="cycle", name=cycle[0]), gpath + ("compute", cycle[0]))
            cyclic.update(cycle)
        for vname, source in own.items():
            if vname in cyclic:
                symbols[vname] = NUMBER  # known to exist, so criteria reading it say nothing more
                computed_by.setdefault(vname, gid)
                continue
            if vname in inputs or vname in constants:
                col.add(LoadError(f"computed value {vname!r} shadows an input or constant", rule="duplicate-name", name=vname),
                        gpath + ("compute", vname), key=True)
            elif vname in computed_by:
                col.add(LoadError(f"{vname!r} is already computed by gate {computed_by[vname]!r}; give this value its own name",
                                  rule="duplicate-name", name=vname), gpath + ("compute", vname), key=True)
            computed_by.setdefault(vname, gid)
            expr = col.expression(source, visible, gpath + ("compute", vname), "number")
            if expr is not None:
                compute[vname] = expr
                symbols[vname] = expr.type
            elif vname not in symbols:
                broken.add(vname)
        proceed = col.expression(g["proceed"], visible, gpath + ("proceed",), "bool") if "proceed" in g else None
        reject = col.expression(g["reject"], visible, gpath + ("reject",), "bool") if "reject" in g else None

        classify: list[tuple[str, CompiledExpression | None]] = []
        for k, item in enumerate(g.get("classify") or []):
            when = None
            if "when" in item:
                when = col.expression(item["when"], visible, gpath + ("classify", k, "when"), "bool")
            elif k != len(g["classify"]) - 1:
                col.add(LoadError("only the last classify rule may omit 'when' (it is the fallback)", rule="classify"),
                        gpath + ("classify", k))
            classify.append((item["regime"], when))
        if classify:
            symbols[gid] = category(r for r, _ in classify)

        if g.get("kill_criterion") and "reject" not in g and "proceed" not in g and not classify:
            col.add(LoadError(f"gate {gid!r} names a kill criterion but has no criterion that could trigger it",
                              rule="kill-criterion"), gpath + ("kill_criterion",))
        elif "reject" not in g and "proceed" not in g and not classify:
            # without one the gate would PROCEED on every scenario, deciding nothing
            col.add(LoadError(f"gate {gid!r} has no criterion: give it a 'proceed' or a 'reject' expression "
                              "(or 'classify' rules for a regime gate)", rule="no-criterion", name=gid),
                    gpath + ("id",))
        if "reject" in g and not g.get("kill_criterion"):
            pass  # a REJECT without a named kill criterion is a plain fail (e.g. Graham's tests)

        for input_name in g.get("monotone") or {}:
            spec = inputs.get(input_name)
            if spec is None or spec.expr_type.kind != "number":
                col.add(LoadError(f"monotone names {input_name!r}, which is not a numeric input", rule="monotone",
                                  name=input_name, suggestion=did_you_mean(input_name, list(inputs))),
                        gpath + ("monotone", input_name), key=True)

        weight = Decimal(1)
        if "weight" in g:
            try:
                weight = plain_number(g["weight"], "gate weight")
                if weight <= 0:
                    raise CompileError(
                        f"gate weight must be positive, not {weight}: an n-of-m join adds weights up", rule="weight"
                    )
            except CompileError as exc:
                col.add(exc, gpath + ("weight",))

        source = Source(**g["source"]) if "source" in g else None
        if source is None and not any(s.get("tier") == 1 for s in data.get("sources") or [] if isinstance(s, dict)):
            # a tier-1 source at card level covers the gates that name none
            col.warn(LintWarning(f"gate {gid!r} has no primary 'source' (tier, document, year), and the card lists "
                                 "no tier-1 source that would cover it", rule="no-source", name=gid), gpath + ("id",))
        for k, alias in enumerate([g["name"], *(g.get("aliases") or [])]):
            key_text = " ".join(alias.casefold().split())
            owner = names_seen.get(key_text)
            if owner is not None and owner != gid:
                col.add(LoadError(f"{alias!r} names gate {owner!r} already; a name or alias must identify one gate",
                                  rule="alias-clash", name=alias), gpath + (("name",) if k == 0 else ("aliases", k - 1)))
            names_seen.setdefault(key_text, gid)
        reentry = None
        if "reentry" in g:
            r = g["reentry"]
            cond = col.expression(r["while"], VisibleSymbols(symbols, {}, gid, broken), gpath + ("reentry", "while"),
                                  "bool")
            if cond is not None:
                reentry = Reentry(r["to"], cond, int(r["max_iterations"]))

        gates.append(
            Gate(
                number=index + 1,
                id=gid,
                name=g["name"],
                aliases=tuple(g.get("aliases") or ()),
                description=g.get("description", ""),
                required_elements=tuple(g["required_elements"]),
                kill_criterion=g.get("kill_criterion"),
                proceed=proceed,
                reject=reject,
                compute=compute,
                weight=weight,
                source=source,
                classify=tuple(classify),
                branches={},
                reentry=reentry,
                elements_by_verdict={k: tuple(v) for k, v in (g.get("elements_by_verdict") or {}).items()},
                monotone=dict(g.get("monotone") or {}),
                decisive=bool(g.get("decisive", data.get("decisive_default", False))),
                decisive_reason=g.get("decisive_reason", ""),
            )
        )

    # -- element templates may name any input or value of the card
    for index, raw_gate in enumerate(data["gates"]):
        by_verdict = raw_gate.get("elements_by_verdict") or {}
        lists: list[tuple[tuple[str, ...], list[str]]] = [(("required_elements",), raw_gate["required_elements"])]
        lists += [(("elements_by_verdict", v), items) for v, items in by_verdict.items()]
        for keys, items in lists:
            for k, element in enumerate(items):
                for name in ELEMENT_FIELD.findall(element):
                    if name not in symbols and name not in broken:  # a broken value's error is reported already
                        col.add(LoadError(f"element {element!r} names unknown value {name!r}", rule="element", name=name,
                                          suggestion=did_you_mean(name, list(symbols))), ("gates", index, *keys, k))

    # -- branches, once every gate id is known
    ids = [g.id for g in gates]
    for index, (g, raw_gate) in enumerate(zip(gates, data["gates"])):
        gpath = ("gates", index)
        branches = raw_gate.get("branches") or {}
        if branches and not g.classify:
            col.add(LoadError(f"gate {g.id!r} has branches but no classify rules to choose one", rule="branch"),
                    gpath + ("branches",), key=True)
        regimes = [r for r, _ in g.classify]
        for regime, spec in branches.items():
            bpath = gpath + ("branches", regime)
            if regime not in regimes:
                col.add(LoadError(f"branch {regime!r} is not a regime of gate {g.id!r}; regimes: {', '.join(regimes)}",
                                  rule="branch", name=regime, suggestion=did_you_mean(regime, regimes)), bpath, key=True)
            for k, target in enumerate(spec["gates"]):
                if target not in ids:
                    col.add(LoadError(f"branch {regime!r} names unknown gate {target!r}", rule="branch", name=target,
                                      suggestion=did_you_mean(target, ids)), bpath + ("gates", k))
            g.branches[regime] = Branch(
                regime, tuple(spec["gates"]), spec.get("pass", outcomes["pass"]), spec.get("fail", outcomes["fail"])
            )
            if "pass" in spec or "fail" in spec:
                # (a branch giving one verdict either way is a lint warning, same-verdicts: "wide -> WAIT")
                _check_outcomes(col, {"pass": g.branches[regime].pass_outcome, "fail": g.branches[regime].fail_outcome}, bpath,
                                given=spec, same_allowed=True)
        for regime in regimes:
            if branches and regime not in branches:
                col.add(LoadError(f"regime {regime!r} of gate {g.id!r} has no branch", rule="branch", name=regime),
                        gpath + ("branches",), key=True)
        if g.reentry is not None and g.reentry.to not in ids:
            col.add(LoadError(f"re-entry target {g.reentry.to!r} is not a gate", rule="reentry", name=g.reentry.to,
                              suggestion=did_you_mean(g.reentry.to, ids)), gpath + ("reentry", "to"))

    verdict_synonyms = verdict_synonyms_of(col, data, outcomes, [b for g in gates for b in g.branches.values()])

    threshold = None
    if "threshold" in data:
        t = data["threshold"]
        try:
            min_weight = plain_number(t["min_weight"], "min_weight") if "min_weight" in t else Decimal(t["at_least"])
            if min_weight <= 0:
                raise CompileError(f"min_weight must be positive, not {min_weight}", rule="weight")
            threshold = reachable_threshold(Threshold(t.get("count", "PROCEED"), int(t["at_least"]), min_weight), gates)
        except CompileError as exc:
            col.add(exc, ("threshold", "min_weight"))

    vintage_end = data["vintage"].get("end")
    if vintage_end is not None and vintage_end < data["vintage"]["start"]:
        col.add(LoadError(f"vintage is reversed: end {vintage_end} is before start {data['vintage']['start']}",
                          rule="vintage"), ("vintage", "end"))
    _lint_source_years(data, col)
    constraints = _constraints(col, data, inputs, constants)
    question = card_question(col, data)

    if col.errors:
        raise ErrorGroup(col.errors)

    vintage = data["vintage"]
    return Card(
        id=data["id"],
        investor=data["investor"],
        name=data["name"],
        topology_type=data["topology_type"],
        gate_logic=data["gate_logic"],
        topology_rationale=data["topology_rationale"],
        vintage=(vintage["start"], vintage.get("end")),
        sources=tuple(Source(**s) for s in data["sources"]),
        outcomes=outcomes,
        inputs=inputs,
        constants=constants,
        gates=gates,
        threshold=threshold,
        description=data.get("description", ""),
        kind=data.get("kind", "practitioner"),
        decisive_default=bool(data.get("decisive_default", False)),
        author_inferred=author_inferred,
        constraints=constraints,
        verdict_synonyms=verdict_synonyms,
        question=question,
        warnings=sorted(col.warnings, key=lambda e: (e.line or 0, e.column or 0)),
        file=doc.file,
        content_hash=hashlib.sha256("\n".join(doc.lines).encode("utf-8")).hexdigest(),
        doc=doc,
    )


def constraint_errors(card: Card, facts: Mapping[str, Any], doc: YamlDoc | None = None) -> list[LoadError]:
    """One error per constraint of ``card`` that ``facts`` (engine values) break (:func:`broken_constraint_errors`)."""
    return broken_constraint_errors(card.constraints, card.inputs, facts, f"card {card.id}", doc)

