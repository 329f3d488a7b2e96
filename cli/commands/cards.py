"""``ipb run``, ``ipb check``, ``ipb graph`` and ``ipb catalog``: a card and its scenarios.

    ipb run CARD [SCENARIO] [--set NAME=VALUE ...] [--format table|json] [--diagnostic]
    ipb check [PATH ...]
    ipb graph CARD [--format dot|mermaid|svg|png] [--scenario S]
    ipb catalog [--format table|json]

CARD is a card file or a bundled card id. These commands import the engine only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Iterable, Optional

import typer
from rich.table import Table

from ipb._files import write_bytes_atomic
from ipb.cli._app import _VERDICT_STYLE, GraphFormat, RunFormat, _escape, _fail, _json_default, app, err, out, printable
from ipb.engine._yaml import YamlDoc, load_yaml_file
from ipb.engine.card import card_from_doc
from ipb.engine.execute import Trace, execute, format_value
from ipb.engine.graph import compile_card
from ipb.engine.registry import DATA_FILES, bundled_card_paths, bundled_scenario_paths, card_table, compiled_card
from ipb.engine.render import to_dot, to_mermaid
from ipb.engine.scenario import Scenario, check_expected, load_scenario, parse_assignment, scenario_from_doc
from ipb.errors import ErrorGroup, IpbError


@app.command()
def run(
    card: str = typer.Argument(..., help="Card file or bundled card id."),
    scenario: Optional[Path] = typer.Argument(None, help="Scenario YAML file (facts left out are unknown)."),
    set_: list[str] = typer.Option([], "--set", help="Override or add a fact: NAME=VALUE (e.g. ev_to_arr=3x)."),
    format: RunFormat = typer.Option(RunFormat.table, "--format", "-f", help="table: readable trace; json: the GRP."),
    diagnostic: bool = typer.Option(False, "--diagnostic", help="Also evaluate gates after the chain stopped."),
) -> None:
    """Execute CARD on SCENARIO and print the gate-by-gate trace or the GRP."""
    try:
        compiled = compiled_card(card)
        scen = load_scenario(scenario, compiled.card) if scenario is not None else Scenario(facts={})
        facts = dict(scen.facts)
        for assignment in set_:
            name, value = parse_assignment(assignment, compiled.card)
            if value is None:
                facts.pop(name, None)
            else:
                facts[name] = value
        trace = execute(compiled, facts, diagnostic=diagnostic, scenario_id=scen.id, layer=scen.layer)
    except IpbError as exc:
        raise _fail(exc) from None
    if format is RunFormat.json:
        out.print(json.dumps(trace.to_grp(), indent=2, default=_json_default), markup=False)
    else:
        _print_trace(trace, scen)


def _print_trace(trace: Trace, scenario: Scenario) -> None:
    card = trace.card
    title = f"{card.name} ({card.investor}) - {card.topology_type}, {card.gate_logic}"
    if scenario.id:
        title += f"\nscenario {scenario.id}" + (f": {scenario.title}" if scenario.title else "")
    table = Table(title=title, title_justify="left", show_lines=True)
    table.add_column("#", justify="right")
    table.add_column("Gate")
    table.add_column("Verdict")
    table.add_column("Decided by")
    table.add_column("Computed")
    units = {name: t.unit for name, t in card.symbols.items()}
    for r in trace.gates:
        verdict = r.verdict.value
        text = f"[{_VERDICT_STYLE[verdict]}]{verdict}[/]"
        if r.diagnostic_verdict is not None:
            d = r.diagnostic_verdict.value
            text += f"\n(would be [{_VERDICT_STYLE[d]}]{d}[/])"
        if r.kill_triggered:
            text += f"\nkill: {r.gate.kill_criterion}"
        elif r.verdict.value == "N/A" and r.na_reason:
            text += f"\n{r.na_reason}"
        values = "\n".join(f"{n} = {format_value(v, units.get(n))}" for n, v in r.values.items())
        computed = "\n".join(f"{n} = {format_value(v, units.get(n))}" for n, v in r.computed.items())
        table.add_row(str(r.gate.number), _escape(r.gate.name), text, _escape(values), _escape(computed))
    out.print(table)
    style = "bold green" if trace.outcome == card.outcomes["pass"] else "bold red"
    if trace.outcome == "INCONCLUSIVE":
        style = "bold yellow"
    loops = f", re-entry loop taken {trace.iterations} time(s)" if "iterations" in trace.to_grp() else ""
    out.print(f"Final verdict: [{style}]{trace.outcome}[/]  (trigger: {trace.trigger}{loops})")


def _yaml_files(paths: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            files.extend(sorted(q for q in p.rglob("*.y*ml") if q.suffix in (".yaml", ".yml")))
        else:
            files.append(p)
    return files


@app.command()
def check(
    paths: list[Path] = typer.Argument(None, help="Cards, scenarios or folders (default: every bundled card and scenario)."),
    format: RunFormat = typer.Option(RunFormat.table, "--format", "-f", help="table: file:line:col lines; json: a list of errors."),
    strict: bool = typer.Option(False, "--strict", help="Fail on warnings too."),
) -> None:
    """Validate cards and scenarios (schema + semantic lint); exit 1 on any error.

    A scenario with an ``expected`` block is also executed, and a verdict that
    differs from the recorded one is an error.
    """
    files = _yaml_files(paths) if paths else bundled_card_paths() + bundled_scenario_paths()
    problems: list[IpbError] = []
    warnings: list[IpbError] = []
    cards: dict[str, Any] = {}
    scenarios: list[tuple[Path, YamlDoc]] = []
    for path in files:
        if path.name in DATA_FILES:
            problems.extend(DATA_FILES[path.name](path))
            continue
        try:
            doc = load_yaml_file(path, collect=True)
            if isinstance(doc.data, dict) and "facts" in doc.data:
                scenarios.append((path, doc))
                continue
            card = card_from_doc(doc)
            cards[card.id] = compile_card(card)
            warnings.extend(card.warnings)
        except ErrorGroup as exc:
            problems.extend(exc.errors)
        except IpbError as exc:
            problems.append(exc)
    for path, doc in scenarios:
        try:
            card_id = doc.data.get("card")
            if card_id is None:
                raise IpbError("a scenario checked on its own must name its 'card'", file=str(path), line=1, column=1, rule="card")
            compiled = cards.get(card_id) or compiled_card(str(card_id))
            scen = scenario_from_doc(doc, compiled.card)
            if scen.expected:
                trace = execute(compiled, scen.facts)
                problems.extend(
                    check_expected(scen, trace.outcome, trace.trigger, trace.verdicts(), doc, trace.iterations)
                )
        except ErrorGroup as exc:
            problems.extend(exc.errors)
        except IpbError as exc:
            problems.append(exc.with_location(str(path)))
    everything = sorted(problems + warnings, key=lambda e: (e.file or "", e.line or 0, e.column or 0))
    if format is RunFormat.json:
        out.print(json.dumps([p.to_dict() for p in everything], indent=2), markup=False)
    else:
        for p in everything:
            out.print(p.render(), markup=False)
        status = f"{len(problems)} error(s), {len(warnings)} warning(s)" if everything else "ok"
        out.print(f"checked {len(files)} file(s): {status}", markup=False)
    if problems or (strict and warnings):
        raise typer.Exit(code=1)


@app.command()
def graph(
    card: str = typer.Argument(..., help="Card file or bundled card id."),
    format: GraphFormat = typer.Option(GraphFormat.dot, "--format", "-f", help="dot, mermaid (text) or svg, png (pictures)."),
    scenario: Optional[Path] = typer.Option(None, "--scenario", "-s", help="Colour gates by their verdict on this scenario."),
    output: Optional[Path] = typer.Option(None, "--out", "-o", help="Write to FILE instead of standard output (needed for png on a terminal)."),
    renderer: str = typer.Option("auto", "--renderer", "-r", help="svg/png: auto (Graphviz's dot if installed, else built-in), graphviz, or python (built-in)."),
) -> None:
    """Print or write CARD's decision graph: Graphviz DOT, Mermaid, SVG or PNG.

    SVG and PNG come from Graphviz when its ``dot`` program is installed and
    from the built-in matplotlib renderer otherwise (``--renderer`` chooses).
    """
    try:
        compiled = compiled_card(card)
        trace = None
        if scenario is not None:
            scen = load_scenario(scenario, compiled.card)
            trace = execute(compiled, scen.facts, scenario_id=scen.id, layer=scen.layer)
        if format in (GraphFormat.svg, GraphFormat.png):
            from ipb.engine.draw import draw

            drawing = draw(compiled, trace, format=format.value, renderer=renderer)
            if drawing.note:
                err.print(drawing.note, markup=False)
            data = drawing.data
        else:
            text = to_dot(compiled, trace) if format is GraphFormat.dot else to_mermaid(compiled, trace)
            data = (text if text.endswith("\n") else text + "\n").encode("utf-8")
    except IpbError as exc:
        raise _fail(exc) from None
    if output is not None:
        try:
            write_bytes_atomic(output, data)
        except OSError as exc:
            err.print(f"{output}: cannot write: {exc.strerror or exc}", markup=False)
            raise typer.Exit(code=1) from None
        err.print(f"wrote {output}", markup=False)
    elif format is GraphFormat.png and sys.stdout.isatty():
        err.print("a PNG is binary: write it with --out FILE or redirect standard output", markup=False)
        raise typer.Exit(code=2)
    else:
        if format in (GraphFormat.dot, GraphFormat.mermaid):  # text: no raw control characters from card names
            data = printable(data.decode("utf-8")).encode("utf-8")
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()


@app.command()
def catalog(
    format: RunFormat = typer.Option(RunFormat.table, "--format", "-f"),
) -> None:
    """List every bundled card with the columns of paper Table 5."""
    try:
        cards = [compiled_card(str(p)).card for p in bundled_card_paths()]
    except IpbError as exc:
        raise _fail(exc) from None
    rows = card_table(cards)
    if format is RunFormat.json:
        out.print(json.dumps(rows, indent=2), markup=False)
        return
    table = Table(title=f"{len(rows)} framework cards", title_justify="left")
    columns = ("kind", "investor", "name", "topology_type", "gate_logic", "gates", "kill_gates")
    for column in columns:
        table.add_column(column.replace("_", " "), justify="right" if column in ("gates", "kill_gates") else "left")
    for row in rows:
        table.add_row(*(str(row[c]) for c in columns))
    out.print(table)
