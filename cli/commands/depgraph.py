"""``ipb depgraph``: rubric dependency graphs executed with the engine (seed 003, §2.3).

    ipb depgraph check GRAPH ...
    ipb depgraph run GRAPH [FACTS] [--set NAME=VALUE ...] [--evidence DB [--cutoff T]] [-o OUT]
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from ipb._files import refuse_overwriting
from ipb.cli._app import app, err
from ipb.cli.commands.records import OUTPUT, OUTPUT_VERSION, emit_json, errors_of, fail
from ipb.neighbours.dependencies import convert_facts, load_facts, load_graph, run_graph
from ipb.neighbours.evidence import EvidenceStore
from ipb.errors import IpbError, LoadError

depgraph_app = typer.Typer(no_args_is_help=True, help="Financial dependency graphs: criteria on evidence, calculations, assumptions.")
app.add_typer(depgraph_app, name="depgraph")


@depgraph_app.command("check")
def check(
    graphs: list[Path] = typer.Argument(..., help="Dependency graph files (YAML or JSON)."),
    output: Optional[Path] = OUTPUT,
) -> None:
    """Validate graphs (schema, ids, cycles, expressions, dependencies); exit 1 on any error."""
    loaded: list[dict[str, Any]] = []
    problems: list[IpbError] = []
    for path in graphs:
        try:
            graph = load_graph(path)
        except IpbError as exc:
            problems.extend(errors_of(exc))
            continue
        loaded.append({"file": str(path), "id": graph.id, "order": list(graph.order),
                       "criteria": [n.id for n in graph.nodes.values() if n.kind == "criterion"]})
    for p in problems:
        err.print(p.render(), markup=False)
    emit_json({"version": OUTPUT_VERSION, "kind": "depgraph.check", "graphs": loaded,
               "errors": [p.to_dict() for p in problems]}, output)
    if problems:
        raise typer.Exit(code=1)


@depgraph_app.command("run")
def run(
    graph_file: Path = typer.Argument(..., help="The dependency graph."),
    facts_file: Optional[Path] = typer.Argument(None, help="Facts (an answer's values); the graph's own facts are defaults."),
    set_: list[str] = typer.Option([], "--set", help="Override a fact: NAME=VALUE ('unknown' removes it)."),
    evidence: Optional[Path] = typer.Option(None, "--evidence", help="Evidence store: evidence nodes' sources must precede the cutoff."),
    cutoff: Optional[str] = typer.Option(None, "--cutoff", help="Decision time for --evidence (default: the graph's as_of)."),
    output: Optional[Path] = OUTPUT,
) -> None:
    """Execute the graph: each node SUPPORTED, FAILED, MISSING or UNSUPPORTED, with the dependency that broke."""
    try:
        refuse_overwriting({"--output": output}, {"graph": graph_file, "facts": facts_file, "evidence store": evidence},
                           command="depgraph run")
        graph = load_graph(graph_file)
        facts: dict[str, Any] = load_facts(facts_file, graph) if facts_file is not None else {}
        for text in set_:
            name, sep, value = text.partition("=")
            if not sep or not name.strip():
                raise LoadError(f"--set expects NAME=VALUE, got {text!r}", rule="usage")
            facts[name.strip()] = _raw_value(value.strip())
            if facts[name.strip()] is not None:
                facts.update(convert_facts(graph.inputs, {name.strip(): facts[name.strip()]}))
        store = None
        when = cutoff or graph.as_of
        if evidence is not None:
            if when is None:
                raise LoadError("--evidence needs a --cutoff (or an 'as_of' in the graph)", rule="usage")
            if not evidence.exists():
                raise LoadError(f"no evidence store at {evidence}", file=str(evidence), rule="file")
            store = EvidenceStore(evidence)
        try:
            trace = run_graph(graph, facts, evidence=store, cutoff=when)
        finally:
            if store is not None:
                store.close()
    except IpbError as exc:
        raise fail(exc) from None
    payload = trace.to_dict()
    payload["version"] = OUTPUT_VERSION
    payload["cutoff"] = when if evidence is not None else None
    emit_json(payload, output)


def _raw_value(text: str) -> Any:
    """``true``/``false`` as bools, ``unknown``/``null`` as unknown, anything else as written."""
    return {"true": True, "false": False, "unknown": None, "null": None}.get(text, text)
