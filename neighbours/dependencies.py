"""Financial dependency graphs: rubric criteria resting on evidence, calculations, assumptions.

Investor's Last Exam (seed 003, §2.3, Appendix D) links every scoring
criterion to the source-grounded facts, calculations and explicit
assumptions it depends on. A dependency graph file
(``grammar/dependency_graph.schema.json``) declares typed ``inputs`` (as a
card does) and ``nodes``, each of one ``kind``:

* ``evidence``: facts read from a source (``facts`` lists them; a ``source``
  may name a document version in the evidence store);
* ``calculation``: values derived with ``compute`` expressions;
* ``assumption``: an explicit judgment, usually a ``check``;
* ``criterion``: a graded proposition, worth ``points``.

Each node may have a ``check`` (a boolean expression) and ``depends_on``
other nodes. Expressions are the engine's (``grammar/expression.lark``),
compiled once and evaluated three-valued: a node may read the inputs and the
values computed by the nodes it depends on, directly or not; reading a value
computed elsewhere is a compile error that says which dependency to add.

A node's own truth is the Kleene conjunction of "every listed fact is
known", "every computed value is known" and its ``check``. Its status:

==============  ============================================================
``SUPPORTED``   every dependency is SUPPORTED and its own truth is true
``FAILED``      dependencies SUPPORTED, own truth false (the check fails,
                or its source is not available before the cutoff)
``MISSING``     dependencies SUPPORTED, own truth unknown (a fact or value
                is missing)
``UNSUPPORTED`` some dependency is not SUPPORTED; ``broken`` names the
                direct dependencies that are not, ``root_causes`` the FAILED
                or MISSING nodes behind them
==============  ============================================================

A criterion earns its points only when SUPPORTED.

>>> graph = load_graph_text('''
... version: 1
... id: demo
... inputs: {ocf: {type: money}, capex: {type: money}, credit: {type: money}}
... nodes:
...   - {id: cash_flows, kind: evidence, facts: [ocf, capex]}
...   - {id: shortfall, kind: calculation, depends_on: [cash_flows], compute: {gap: capex - ocf}}
...   - {id: credit_covers, kind: assumption, depends_on: [shortfall], check: credit >= gap}
...   - {id: funding_ok, kind: criterion, points: 10, depends_on: [credit_covers]}
... ''')
>>> trace = run_graph(graph, {"ocf": "$3421M", "capex": "$6602M", "credit": "$2B"})
>>> [(n.id, n.status) for n in trace.nodes]
[('cash_flows', 'SUPPORTED'), ('shortfall', 'SUPPORTED'), ('credit_covers', 'FAILED'), ('funding_ok', 'UNSUPPORTED')]
>>> trace.node("funding_ok").reason
"dependency 'credit_covers' is FAILED: check 'credit >= gap' is false"
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import networkx as nx

from ipb.engine.card import INPUT_TYPES, InputSpec
from ipb.engine._json import AnyDoc, load_document
from ipb.neighbours.evidence import EvidenceStore
from ipb.engine.expressions import CompiledExpression, ExprType, category, compile_expression
from ipb.engine.logic import Truth, kleene_and
from ipb.engine.scenario import convert_fact
from ipb.errors import CompileError, ErrorGroup, IpbError, LoadError, did_you_mean

__all__ = [
    "KINDS",
    "STATUSES",
    "DependencyGraph",
    "Node",
    "NodeResult",
    "GraphTrace",
    "load_graph",
    "load_graph_text",
    "load_facts",
    "convert_facts",
    "run_graph",
]

KINDS = ("evidence", "calculation", "assumption", "criterion")
STATUSES = ("SUPPORTED", "FAILED", "MISSING", "UNSUPPORTED")


@dataclass(frozen=True)
class Node:
    """One node of a dependency graph, with compiled expressions."""

    id: str
    kind: str
    depends_on: tuple[str, ...] = ()
    facts: tuple[str, ...] = ()
    compute: tuple[tuple[str, CompiledExpression], ...] = ()
    check: CompiledExpression | None = None
    points: Decimal | None = None
    description: str = ""
    source: dict[str, Any] = field(default_factory=dict)


@dataclass
class DependencyGraph:
    """A loaded, compiled dependency graph; ``order`` is a topological order of node ids."""

    id: str
    inputs: dict[str, InputSpec]
    nodes: dict[str, Node]
    order: tuple[str, ...]
    graph: nx.DiGraph
    facts: dict[str, Any] = field(default_factory=dict)
    file: str = "<string>"
    as_of: str | None = None


@dataclass
class NodeResult:
    """What executing one node gave, and why."""

    id: str
    kind: str
    status: str
    truth: Truth
    reason: str | None = None
    values: dict[str, Any] = field(default_factory=dict)
    computed: dict[str, Any] = field(default_factory=dict)
    missing: tuple[str, ...] = ()
    broken: tuple[tuple[str, str], ...] = ()
    root_causes: tuple[str, ...] = ()
    points: Decimal | None = None

    @property
    def earned(self) -> Decimal | None:
        if self.points is None:
            return None
        return self.points if self.status == "SUPPORTED" else Decimal(0)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "status": self.status,
            "truth": self.truth,
            "reason": self.reason,
            "values": self.values,
            "computed": self.computed,
            "missing": list(self.missing),
            "broken": [{"id": i, "status": s} for i, s in self.broken],
            "root_causes": list(self.root_causes),
        }
        if self.points is not None:
            data["points"] = self.points
            data["earned"] = self.earned
        return data


@dataclass
class GraphTrace:
    """Every node's result, in topological order."""

    graph: DependencyGraph
    nodes: list[NodeResult]

    def node(self, node_id: str) -> NodeResult:
        for n in self.nodes:
            if n.id == node_id:
                return n
        raise KeyError(node_id)

    @property
    def criteria(self) -> list[NodeResult]:
        return [n for n in self.nodes if n.kind == "criterion"]

    def to_dict(self) -> dict[str, Any]:
        scored = [n for n in self.criteria if n.points is not None]
        return {
            "version": 1,
            "kind": "depgraph.trace",
            "graph": self.graph.id,
            "as_of": self.graph.as_of,
            "nodes": [n.to_dict() for n in self.nodes],
            "criteria": {
                "supported": sum(1 for n in self.criteria if n.status == "SUPPORTED"),
                "total": len(self.criteria),
                "earned": sum((n.earned or Decimal(0) for n in scored), Decimal(0)),
                "available": sum((n.points or Decimal(0) for n in scored), Decimal(0)),
            },
        }


# --------------------------------------------------------------------------- loading


class _Visible(Mapping[str, ExprType]):
    """The names one node may read: inputs, and values computed by its ancestors."""

    def __init__(self, node_id: str, inputs: Mapping[str, ExprType], visible: Mapping[str, ExprType],
                 computed_by: Mapping[str, str]) -> None:
        self.node_id = node_id
        self.table = {**inputs, **visible}
        self.computed_by = computed_by

    def get(self, key: str, default: Any = None) -> Any:
        if key in self.table:
            return self.table[key]
        owner = self.computed_by.get(key)
        if owner is not None and owner != self.node_id:
            raise CompileError(
                f"{key!r} is computed by node {owner!r}, which node {self.node_id!r} does not depend on; "
                f"add {owner!r} to its depends_on",
                rule="dependency",
                name=key,
            )
        return default

    def __getitem__(self, key: str) -> ExprType:
        value = self.get(key)
        if value is None:
            raise KeyError(key)
        return value  # type: ignore[no-any-return]

    def __iter__(self) -> Iterator[str]:
        return iter(self.table)

    def __len__(self) -> int:
        return len(self.table)


def load_graph(path: str | Path) -> DependencyGraph:
    """Load and compile the dependency graph at ``path`` (strict YAML or ``.json``).

    Raises
    ------
    LoadError or ErrorGroup
        Every problem, each at ``file:line:col``: schema errors; unknown
        dependencies or facts (with "did you mean"); duplicate ids; a cycle
        (naming it); expressions that do not parse or type-check, or read a
        value computed by a node that is not a dependency; a criterion
        without points or a non-criterion with points; facts that do not fit
        their inputs.
    """
    return _graph_from_doc(load_document(path, schema="dependency_graph.schema.json", what="the dependency graph"))


def load_graph_text(text: str, file: str = "<string>") -> DependencyGraph:
    """Like :func:`load_graph`, from text (``file`` names it; ``.json`` reads JSON)."""
    return _graph_from_doc(load_document(file, schema="dependency_graph.schema.json", what="the dependency graph", text=text))


def _graph_from_doc(doc: AnyDoc) -> DependencyGraph:
    data = doc.data
    errors: list[IpbError] = []
    inputs: dict[str, InputSpec] = {}
    for name, spec in (data.get("inputs") or {}).items():
        kind = spec["type"]
        if kind == "category":
            if "values" not in spec:
                errors.append(doc.error(f"category input {name!r} needs 'values'", ("inputs", name), rule="input"))
            expr_type = category(spec.get("values", ()))
        else:
            if "values" in spec:
                errors.append(doc.error(f"only category inputs take 'values' ({name!r} is {kind})",
                                        ("inputs", name, "values"), rule="input"))
            expr_type = INPUT_TYPES[kind]
        inputs[name] = InputSpec(name, kind, expr_type, spec.get("description", ""), spec.get("unit"),
                                 tuple(spec["values"]) if "values" in spec else None)
    raw_nodes: list[dict[str, Any]] = data["nodes"]
    index: dict[str, int] = {}
    for i, n in enumerate(raw_nodes):
        if n["id"] in index:
            errors.append(doc.error(f"duplicate node id {n['id']!r} (node {index[n['id']] + 1} has it too)",
                                    ("nodes", i, "id"), rule="duplicate-node", name=n["id"]))
            continue
        if n["id"] in inputs:
            errors.append(doc.error(f"node id {n['id']!r} clashes with an input", ("nodes", i, "id"), rule="duplicate-name"))
        index[n["id"]] = i
    graph = nx.DiGraph()
    graph.add_nodes_from(index)
    ids = list(index)
    for i, n in enumerate(raw_nodes):
        for j, dep in enumerate(n.get("depends_on", [])):
            if dep not in index:
                errors.append(doc.error(f"node {n['id']!r} depends on unknown node {dep!r}", ("nodes", i, "depends_on", j),
                                        rule="dependency", name=dep, suggestion=did_you_mean(dep, ids)))
            elif dep == n["id"]:
                errors.append(doc.error(f"node {dep!r} depends on itself", ("nodes", i, "depends_on", j), rule="cycle"))
            else:
                graph.add_edge(dep, n["id"])
        for j, fact in enumerate(n.get("facts", [])):
            if fact not in inputs:
                errors.append(doc.error(f"node {n['id']!r} lists unknown fact {fact!r}; facts are declared in 'inputs'",
                                        ("nodes", i, "facts", j), rule="fact", name=fact,
                                        suggestion=did_you_mean(fact, list(inputs))))
        has_points = "points" in n
        if n["kind"] == "criterion" and not has_points:
            errors.append(doc.error(f"criterion {n['id']!r} needs 'points'", ("nodes", i), rule="points"))
        if n["kind"] != "criterion" and has_points:
            errors.append(doc.error(f"only criteria carry points ({n['id']!r} is {n['kind']})", ("nodes", i, "points"),
                                    key=True, rule="points"))
    try:
        order = list(nx.lexicographical_topological_sort(graph, key=lambda v: index[v]))
    except nx.NetworkXUnfeasible:
        cycle = [u for u, _ in nx.find_cycle(graph)]
        first = min(cycle, key=lambda v: index[v])
        errors.append(doc.error("dependency cycle: " + " -> ".join(cycle + [cycle[0]]), ("nodes", index[first], "depends_on"),
                                rule="cycle"))
        raise ErrorGroup(errors) if len(errors) > 1 else errors[0]
    # Compile in dependency order, so each node sees its ancestors' computed values.
    input_types = {name: s.expr_type for name, s in inputs.items()}
    computed_by: dict[str, str] = {}
    for i, n in enumerate(raw_nodes):
        for name in n.get("compute", {}):
            if name in inputs:
                errors.append(doc.error(f"computed value {name!r} shadows an input", ("nodes", i, "compute", name),
                                        key=True, rule="duplicate-name"))
            elif name in computed_by:
                errors.append(doc.error(f"{name!r} is already computed by node {computed_by[name]!r}",
                                        ("nodes", i, "compute", name), key=True, rule="duplicate-name"))
            else:
                computed_by[name] = n["id"]
    types: dict[str, ExprType] = {}
    nodes: dict[str, Node] = {}
    for node_id in order:
        i = index[node_id]
        n = raw_nodes[i]
        ancestors = nx.ancestors(graph, node_id)
        own: dict[str, ExprType] = {}
        visible = {name: t for name, t in types.items() if computed_by[name] in ancestors}
        compute: list[tuple[str, CompiledExpression]] = []
        for name, source in n.get("compute", {}).items():
            symbols = _Visible(node_id, input_types, {**visible, **own}, computed_by)
            expr = _compile(doc, errors, str(source), symbols, ("nodes", i, "compute", name), "number")
            if expr is not None:
                compute.append((name, expr))
                own[name] = types[name] = expr.type
        check = None
        if "check" in n:
            check = _compile(doc, errors, n["check"], _Visible(node_id, input_types, {**visible, **own}, computed_by),
                             ("nodes", i, "check"), "bool")
        nodes[node_id] = Node(
            id=node_id, kind=n["kind"], depends_on=tuple(n.get("depends_on", ())), facts=tuple(n.get("facts", ())),
            compute=tuple(compute), check=check, points=Decimal(n["points"]) if "points" in n else None,
            description=n.get("description", ""), source=dict(n.get("source") or {}),
        )
    facts: dict[str, Any] = {}
    if data.get("facts"):
        try:
            facts = convert_facts(inputs, data["facts"])
        except ErrorGroup as group:
            errors.extend(_locate_facts(doc, group.errors, ("facts",)))
        except LoadError as exc:
            errors.extend(_locate_facts(doc, [exc], ("facts",)))
    if errors:
        raise errors[0] if len(errors) == 1 else ErrorGroup(errors)
    return DependencyGraph(data["id"], inputs, nodes, tuple(order), graph, facts, doc.file, data.get("as_of"))


def _compile(doc: AnyDoc, errors: list[IpbError], source: str, symbols: Mapping[str, ExprType],
             path: tuple[Any, ...], expect: str) -> CompiledExpression | None:
    try:
        return compile_expression(source, symbols, expect=expect)
    except CompileError as exc:
        line, column = doc.locate_in_string(path, exc.offset or 0)
        exc.line = exc.column = None
        errors.append(exc.with_location(doc.file, line, column, doc.source_line(line)))
        return None


def _locate_facts(doc: AnyDoc, errors: Sequence[IpbError], base: tuple[str, ...]) -> list[IpbError]:
    located = []
    for e in errors:
        path = base + ((e.name,) if e.name else ())
        line, column = doc.locate_key(path) if e.rule == "fact-name" else doc.locate(path)
        e.line = e.column = None
        located.append(e.with_location(doc.file, line, column, doc.source_line(line)))
    return located


def convert_facts(inputs: Mapping[str, InputSpec], raw: Mapping[str, Any]) -> dict[str, Any]:
    """Convert raw facts (``"$5B"``, ``"95%"``, ``true``...) to engine values, as scenarios are.

    Raises
    ------
    LoadError or ErrorGroup
        Every fact that is not a declared input (rule ``fact-name``, with a
        "did you mean") or does not fit its input's type, unit or values.
    """
    errors: list[IpbError] = []
    facts: dict[str, Any] = {}
    for name, value in raw.items():
        spec = inputs.get(name)
        if spec is None:
            errors.append(LoadError(f"unknown fact {name!r}; it is not a declared input", rule="fact-name", name=name,
                                    suggestion=did_you_mean(name, list(inputs))))
            continue
        try:
            converted = convert_fact(spec, value)
        except LoadError as exc:
            errors.append(exc)
            continue
        if converted is not None:
            facts[name] = converted
    if errors:
        raise errors[0] if len(errors) == 1 else ErrorGroup(errors)
    return facts


def load_facts(path: str | Path, graph: DependencyGraph) -> dict[str, Any]:
    """Read a facts file (``facts:`` and an optional ``id``) typed against ``graph``'s inputs.

    Raises
    ------
    LoadError or ErrorGroup
        Strict-YAML or schema errors; facts that are unknown or do not fit,
        each at ``file:line:col``.
    """
    doc = load_document(path, schema="dependency_facts.schema.json", what="the facts file")
    try:
        return convert_facts(graph.inputs, doc.data["facts"])
    except ErrorGroup as group:
        found = _locate_facts(doc, group.errors, ("facts",))
        raise ErrorGroup(found) from None
    except LoadError as exc:
        raise _locate_facts(doc, [exc], ("facts",))[0] from None


# --------------------------------------------------------------------------- running


def run_graph(
    graph: DependencyGraph,
    facts: Mapping[str, Any] | None = None,
    *,
    evidence: EvidenceStore | None = None,
    cutoff: str | dt.date | dt.datetime | None = None,
) -> GraphTrace:
    """Execute ``graph`` on ``facts`` (engine values, or raw values to convert).

    Parameters
    ----------
    graph:
        A loaded graph; its own ``facts`` are the defaults, ``facts``
        override them.
    facts:
        Values by input name, raw (``"$5B"``, ``"95%"``, ``true``) or engine
        values (Decimal, bool, date); each is checked against its input's
        type. A missing fact, or None, is unknown.

    Raises
    ------
    LoadError or ErrorGroup
        A fact that is not an input or does not fit it.
    evidence, cutoff:
        When both are given, an evidence node whose ``source`` names a
        ``document`` (and optionally a ``version``) is FAILED unless that
        version (any version, without one) is available before ``cutoff``
        in the store (seed 003, Appendix B.2: post-cutoff sources are
        excluded).

    Returns
    -------
    GraphTrace
        One :class:`NodeResult` per node, in topological order.
    """
    env: dict[str, Any] = dict(graph.facts)
    if facts:
        given = {k: v for k, v in facts.items() if v is not None}
        dates = {k: v for k, v in given.items()
                 if isinstance(v, dt.date) and k in graph.inputs and graph.inputs[k].type == "date"}
        env.update(convert_facts(graph.inputs, {k: v for k, v in given.items() if k not in dates}))
        env.update(dates)
        for k, v in facts.items():
            if v is None:
                env.pop(k, None)
    results: dict[str, NodeResult] = {}
    for node_id in graph.order:
        node = graph.nodes[node_id]
        results[node_id] = _run_node(node, env, results, evidence, cutoff)
    return GraphTrace(graph, [results[i] for i in graph.order])


def _run_node(node: Node, env: dict[str, Any], done: Mapping[str, NodeResult],
              evidence: EvidenceStore | None, cutoff: Any) -> NodeResult:
    reads: set[str] = set(node.facts)
    missing = [f for f in node.facts if env.get(f) is None]
    facts_known: Truth = True if not missing else None
    computed: dict[str, Any] = {}
    for name, expr in node.compute:
        reads |= expr.names
        value = expr(env)
        env[name] = value
        computed[name] = value
        if value is None:
            missing.append(name)
    computes_known: Truth = None if any(v is None for v in computed.values()) else True
    check: Truth = True
    reason = None
    if node.check is not None:
        reads |= node.check.names
        check = node.check(env)
        if check is False:
            reason = f"check {node.check.source!r} is false"
        elif check is None:
            unknown = sorted(n for n in node.check.names if env.get(n) is None and n not in missing)
            missing.extend(unknown)
    source_ok: Truth = True
    if evidence is not None and cutoff is not None and node.kind == "evidence" and node.source.get("document"):
        source_ok, why = _source_available(node, evidence, cutoff)
        if why:
            reason = why if reason is None else f"{reason}; {why}"
    own = kleene_and(kleene_and(kleene_and(facts_known, computes_known), check), source_ok)
    if own is None and reason is None and missing:
        reason = "unknown: " + ", ".join(dict.fromkeys(missing))
    values = {n: env.get(n) for n in sorted(reads) if n not in computed}
    broken = tuple((d, done[d].status) for d in node.depends_on if done[d].status != "SUPPORTED")
    if broken:
        truth = own
        for d in node.depends_on:
            truth = kleene_and(truth, done[d].truth)
        roots: list[str] = []
        for d, status in broken:
            roots.extend([d] if status in ("FAILED", "MISSING") else done[d].root_causes)
        roots = list(dict.fromkeys(roots))
        first, status = broken[0]
        why = done[first].reason if status != "UNSUPPORTED" else f"root cause {', '.join(repr(r) for r in done[first].root_causes)}"
        text = f"dependency {first!r} is {status}" + (f": {why}" if why else "")
        if len(broken) > 1:
            text += "; also " + ", ".join(f"{d!r} ({s})" for d, s in broken[1:])
        return NodeResult(node.id, node.kind, "UNSUPPORTED", truth, text, values, computed,
                          tuple(dict.fromkeys(missing)), broken, tuple(roots), node.points)
    status = "SUPPORTED" if own is True else "FAILED" if own is False else "MISSING"
    return NodeResult(node.id, node.kind, status, own, reason if status != "SUPPORTED" else None, values, computed,
                      tuple(dict.fromkeys(missing)), (), (), node.points)


def _source_available(node: Node, store: EvidenceStore, cutoff: Any) -> tuple[Truth, str | None]:
    document = str(node.source["document"])
    wanted = node.source.get("version")
    eligible = store.query(cutoff, doc_ids=[document], history=True)
    if wanted is None:
        if eligible:
            return True, None
        return False, f"source {document!r} has no version available before the cutoff"
    if any(v.version == str(wanted) for v in eligible):
        return True, None
    return False, f"source {document!r} version {wanted!r} is not available before the cutoff"
