"""``ipb run``, ``ipb check``, ``ipb graph`` and ``ipb catalog``: a card and its scenarios.

    ipb run CARD [SCENARIO] [--set NAME=VALUE ...] [--format table|json] [--diagnostic] [--cards DIR]
    ipb explain CARD [SCENARIO] [--set NAME=VALUE ...] [--format table|json]
    ipb check [PATH ...]
    ipb graph CARD [--format dot|mermaid|svg|png] [--scenario S]
    ipb catalog [--format table|json]

CARD is a card file or a bundled card id. These commands import the engine only.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any, Iterable, Optional

import typer
from rich.table import Table

from ipb._files import refuse_overwriting, write_bytes_atomic
from ipb.cli._app import (_VERDICT_STYLE, INVESTORS_HELP, GraphFormat, RunFormat, _escape, _fail, _json_default, app, err, out,
                          _write_failed, printable, use_investor_files)
from ipb.engine._yaml import YamlDoc, load_yaml_file
from ipb.engine._schema_repair import errors_past_schema
from ipb.engine._ratio_advice import advised
from ipb.engine.card import card_from_doc, card_schema, constraint_errors
from ipb.engine.execute import Trace, execute, format_value, weight_note
from ipb.engine.graph import compile_card
from ipb.engine.lint import lint_card, lint_scenario, out_of_range
from ipb.engine.lint_reach import lint_reach
from ipb.engine.registry import (DATA_FILES, bundled_card_paths, bundled_scenario_paths, card_option_error, card_table,
                                 compiled_card, find_card, item_card, use_cards)
from ipb.engine.render import to_dot, to_mermaid
from ipb.engine.scenario import Scenario, check_expected, load_scenario, parse_assignment, scenario_from_doc
from ipb.engine.translations import is_sidecar, missing_note, sidecar_errors, sidecar_path
from ipb.errors import ErrorGroup, IpbError, LoadError


@app.command()
def run(
    card: str = typer.Argument(..., help="Card file or bundled card id."),
    scenario: Optional[Path] = typer.Argument(None, help="Scenario YAML file (facts left out are unknown)."),
    set_: list[str] = typer.Option([], "--set", help="Override or add a fact: NAME=VALUE (e.g. ev_to_arr=3x)."),
    format: RunFormat = typer.Option(RunFormat.table, "--format", "-f", help="table: readable trace; json: the GRP."),
    diagnostic: bool = typer.Option(False, "--diagnostic", help="Also evaluate gates after the chain stopped."),
    cards_dir: list[Path] = typer.Option([], "--cards", help="Folder of card files to look the card id up in first (repeatable; then IPB_CARDS, then the bundled cards)."),
) -> None:
    """Execute CARD on SCENARIO and print the gate-by-gate trace or the GRP."""
    try:
        use_cards(cards_dir)
        card, scenario = _scenario_given_alone(card, scenario, "run")
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
    _warn_set_out_of_range(compiled.card, facts, set_)
    _warn_broken_constraints(compiled.card, facts)
    if format is RunFormat.json:
        out.print(json.dumps(trace.to_grp(), indent=2, default=_json_default), markup=False)
    else:
        _print_trace(trace, scen)


def _scenario_given_alone(card: str, scenario: Optional[Path], command: str) -> tuple[str, Optional[Path]]:
    """``ipb run SCENARIO.yaml``: the card its ``card:`` field names and the file as the scenario.

    A file given as the only argument is read as a scenario when it is a mapping with ``facts:`` and no
    ``gates:``; a note on standard error says so. Anything else is returned unchanged (s52newuser: a scenario
    given alone was read as a card and gave 13 card-schema errors).

    Raises
    ------
    LoadError
        The scenario names no card (rule ``usage``): the message says to give the card first.
    """
    path = Path(card)
    if scenario is not None or path.suffix not in (".yaml", ".yml") or not path.is_file():
        return card, scenario
    try:
        data = load_yaml_file(path).data
    except IpbError:
        return card, scenario  # the card loader reports the broken file with its position
    if not isinstance(data, dict) or "gates" in data or "facts" not in data:
        return card, scenario
    named = data.get("card")
    if not isinstance(named, str) or not named.strip():
        raise LoadError(f"{card} is a scenario (facts:, no gates:) and names no card: give the card first, "
                        f"ipb {command} CARD {card}", file=card, line=1, column=1, rule="usage")
    err.print(f"note: {card} is a scenario, not a card; running it with the card its 'card:' field names, "
              f"{named!r} (to choose the card: ipb {command} CARD {card})", markup=False)
    return named, path


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
    computes = any(r.computed for r in trace.gates)  # no column of blanks for a card that computes nothing
    if computes:
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
        # A gate the chain never reached decided nothing: its inputs are not shown beside "N/A" (s36rules: a piped
        # run read as if the terminated gate had weighed them). --diagnostic evaluates it, and then they are.
        reached = not (verdict == "N/A" and r.diagnostic_verdict is None)
        values = "\n".join(f"{n} = {format_value(v, units.get(n))}" for n, v in r.values.items()) if reached else ""
        computed = "\n".join(f"{n} = {format_value(v, units.get(n))}" for n, v in r.computed.items()) if reached else ""
        table.add_row(str(r.gate.number), _escape(r.gate.name), text, _escape(values), *([_escape(computed)] if computes else []))
    out.print(table)
    style = "bold green" if trace.outcome == card.outcomes["pass"] else "bold red"
    if trace.outcome == "INCONCLUSIVE":
        style = "bold yellow"
    loops = f", re-entry loop taken {trace.iterations} time(s)" if "iterations" in trace.to_grp() else ""
    weight = weight_note(trace)  # (a veto by weight says the weight fell short, s53newuser)
    loops += f"; {weight}" if weight else ""
    out.print(f"Final verdict: [{style}]{trace.outcome}[/]  (trigger: {trace.trigger}{loops})")


def _l8_base_errors(path: Path, doc: YamlDoc, refs: list[str], checked: dict[str, Any]) -> list[IpbError]:
    """The errors ``ipb perturb --card ... --base path`` gives for an L8 base, without generating anything."""
    from ipb.engine.lint import range_errors
    from ipb.perturb.frame import build_frame, load_base

    compiled = [checked.get(ref) or compiled_card(ref) for ref in refs]  # a card checked in this run is used as is
    found: list[IpbError] = list(range_errors(doc, [c.card for c in compiled]))
    if found:  # the operators draw on the ranges: ipb perturb stops here too
        return found
    try:
        load_base(path, build_frame(compiled))
    except ErrorGroup as exc:
        found.extend(exc.errors)
    except IpbError as exc:
        found.append(exc if exc.file else exc.with_location(str(path)))
    return found


def _l8_card_errors(refs: list[str], checked: dict[str, Any]) -> list[IpbError]:
    """What the ``--card`` cards of an L8 deck clash in before any base is read (two rules deriving one input,
    :func:`ipb.perturb.frame.refuse_two_derive_rules`, at the second card's ``derive:``); a card that does not load
    reports its own errors and is left out here."""
    from ipb.perturb.derive_rules import refuse_two_derive_rules

    compiled = []
    for ref in refs:
        try:
            compiled.append(checked.get(ref) or compiled_card(ref))
        except IpbError:
            continue
    try:
        refuse_two_derive_rules(compiled)
    except IpbError as exc:
        return [exc]
    return []


def _yaml_files(paths: Iterable[Path]) -> list[Path]:
    """The ``.yaml``/``.yml`` files (any case) under each folder, and each file as given.

    A folder with none is an error: "checked 0 file(s): ok" would pass a
    mistyped or empty folder.
    """
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            found = sorted(q for q in p.rglob("*") if q.suffix.lower() in (".yaml", ".yml") and q.is_file())
            if not found:
                raise LoadError(f"no card or scenario files (*.yaml, *.yml) in the folder {p}", file=str(p),
                                rule="usage")
            files.extend(found)
        else:
            files.append(p)
    return files


@app.command()
def explain(
    card: str = typer.Argument(..., help="Card file or card id."),
    scenario: Optional[Path] = typer.Argument(None, help="Scenario YAML file (facts left out are unknown)."),
    set_: list[str] = typer.Option([], "--set", help="Override or add a fact: NAME=VALUE (e.g. ev_to_arr=3x)."),
    format: RunFormat = typer.Option(RunFormat.table, "--format", "-f", help="table: readable text; json: per gate, the evaluated parts."),
    cards_dir: list[Path] = typer.Option([], "--cards", help="Folder of card files to look the card id up in first (repeatable)."),
) -> None:
    """Say why each gate gave its verdict: the sub-expressions that decided it, with their values.

    A fact the scenario does not give shows as ``?``; for an INCONCLUSIVE gate,
    the missing facts that would decide it are tried and listed.
    """
    from ipb.engine.explain import explain as explain_card

    try:
        use_cards(cards_dir)
        card, scenario = _scenario_given_alone(card, scenario, "explain")
        compiled = compiled_card(card)
        scen = load_scenario(scenario, compiled.card) if scenario is not None else Scenario(facts={})
        facts = _with_overrides(dict(scen.facts), set_, compiled.card)
        result = explain_card(compiled, facts, scenario_id=scen.id)
    except IpbError as exc:
        raise _fail(exc) from None
    _warn_set_out_of_range(compiled.card, facts, set_)
    _warn_broken_constraints(compiled.card, facts)
    if format is RunFormat.json:
        out.print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False), markup=False)
    else:
        out.print(result.text().rstrip("\n"), markup=False)


def _warn_broken_constraints(card: Any, facts: dict[str, Any]) -> None:
    """Say on standard error which of the card's ``constraints:`` the facts (a scenario with its ``--set``
    overrides) break: ``run`` and ``explain`` still read them as given (a what-if), but no perturbed item
    states such facts and ``ipb check`` calls such a scenario file an error (stop 33: ``--set share_price=$50``
    above the $40 five-year high ran silently, with a negative drawdown)."""
    for problem in constraint_errors(card, facts):
        err.print(f"warning: {problem.message.rstrip('.')}. The trace reads these facts as given; ipb check "
                  "reports such a scenario as an error and ipb perturb never states one.", markup=False)


def _warn_set_out_of_range(card: Any, facts: dict[str, Any], assignments: list[str]) -> None:
    """Say on standard error which ``--set`` value lies outside its input's declared ``range``: ``run`` and
    ``explain`` read it as given (a what-if), but ``ipb check`` warns about such a fact in a scenario file and
    ``ipb perturb`` refuses it in a base (s46user: ``--set roa=50%`` on a ``[-30%, 30%]`` input ran silently)."""
    names = dict.fromkeys(assignment.partition("=")[0].strip() for assignment in assignments)
    for name in names:
        spec = card.inputs.get(name)
        if spec is None or not out_of_range(spec, facts.get(name)):
            continue
        unit = spec.expr_type.unit
        lo, hi = spec.range
        err.print(f"warning: --set {name} = {format_value(facts[name], unit)} is outside the range "
                  f"[{format_value(lo, unit)}, {format_value(hi, unit)}] that card {card.id!r} declares for it. "
                  "The trace reads it as given; ipb check warns about such a fact and ipb perturb refuses it in a "
                  "base.", markup=False)


def _with_overrides(facts: dict[str, Any], assignments: list[str], card: Any) -> dict[str, Any]:
    for assignment in assignments:
        name, value = parse_assignment(assignment, card)
        if value is None:
            facts.pop(name, None)
        else:
            facts[name] = value
    return facts


@app.command()
def check(
    paths: list[Path] = typer.Argument(None, help="Cards, scenarios or folders (default: every bundled card and scenario)."),
    format: RunFormat = typer.Option(RunFormat.table, "--format", "-f", help="table: file:line:col lines; json: a list of errors."),
    strict: bool = typer.Option(False, "--strict", help="Fail on warnings too."),
    cards_dir: list[Path] = typer.Option([], "--cards", help="Folder of card files in which a scenario's 'card' id is looked up first (repeatable; then IPB_CARDS, then the bundled cards)."),
    l8_cards: list[str] = typer.Option([], "--card", "-c", help="Card id or file an L8 base (a scenario with no 'card') is read by; repeat for each investor's card, as for ipb perturb (a scenario naming its card ignores it); with no PATHS, the cards it names are checked."),
    investors: list[Path] = typer.Option([], "--investors", help=INVESTORS_HELP),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Also note the cards that have no gate names in other languages (no translations sidecar)."),
) -> None:
    """Validate cards and scenarios (schema + semantic lint); exit 1 on any error.

    A scenario with an ``expected`` block is also executed, and a verdict that
    differs from the recorded one is an error. An L8 base (no ``card``) is checked against
    the ``--card`` cards as ``ipb perturb`` reads it (ranges, card and deck rules, vintage).
    """
    import ipb.perturb.registries  # noqa: F401  (s49rfix: registers the validator of regimes.yaml)

    try:
        use_cards(cards_dir)
        use_investor_files(investors)
        bad = [e for e in (card_option_error("--card", ref) for ref in l8_cards) if e is not None]
        if bad:  # before any file: an L8 base checked against a card that is not there says nothing true
            raise ErrorGroup(bad)
        # --card alone: check those cards (not every bundled file, which would ignore the option)
        files = (_yaml_files(paths) if paths else [find_card(ref) for ref in l8_cards] if l8_cards
                 else bundled_card_paths() + bundled_scenario_paths())
    except IpbError as exc:
        raise _fail(exc) from None
    problems: list[IpbError] = []
    warnings: list[IpbError] = []
    cards: dict[str, Any] = {}
    scenarios: list[tuple[Path, YamlDoc]] = []
    broken: dict[str, Path] = {}  # id -> file of a card on this command line that failed to load
    sidecars: set[Path] = set()  # translations sidecars checked (given, or found for a card checked)
    bare: list[Any] = []  # cards checked that have no sidecar (a note, not an error)

    def check_sidecar(side: Path) -> None:
        """Check a sidecar once, whether given on the command line or found beside a card checked."""
        if side.resolve() not in sidecars:
            sidecars.add(side.resolve())
            problems.extend(sidecar_errors(side))

    investor_files = 0
    given_registries: list[Path] = []  # investors files among the paths: they register investors for this call
    unregistered: list[tuple[Any, YamlDoc]] = []  # cards whose investor the registry is asked about after the loop
    for path in files:
        if is_sidecar(path):
            check_sidecar(path)
            continue
        if path.name in DATA_FILES:
            _sort_found(DATA_FILES[path.name](path), problems, warnings)
            # s61 new user N13: a file named investors.yaml was checked as one but not counted as one, so the count
            # line lacked the "(1 of them investors file(s), checked as such)" that docs/scoring.md promises
            investor_files += path.name == "investors.yaml"
            if path.name == "investors.yaml":
                given_registries.append(path)
            continue
        doc = None
        try:
            doc = load_yaml_file(path, collect=True)
            if _is_investors_file(doc.data):
                # s53newuser finding 5: an investors file under its own name (my_investors.yaml, the file --investors
                # takes) was read as a card: 11 errors about 'gates'. It is checked as what it is, alone (docs/scoring.md)
                _sort_found(DATA_FILES["investors.yaml"](path), problems, warnings)
                investor_files += 1
                given_registries.append(path)
                continue
            registry = _registry_kind(doc.data)
            if registry is not None:  # s50break: a registry under another name was checked as a card or a scenario
                raise IpbError(f"this looks like a {registry} registry (a top-level '{registry}:' and no gates), which "
                               f"ipb check knows by its file name only: save it as {registry}.yaml "
                               f"(frameworks/{registry}.yaml is the bundled one) and check that",
                               file=str(path), line=1, column=1, rule="registry-name")
            # a scenario: it has facts, or names a card and has none of a card's own parts
            if isinstance(doc.data, dict) and ("facts" in doc.data or (
                    "card" in doc.data and not {"gates", "inputs", "investor"} & set(doc.data))):
                scenarios.append((path, doc))
                continue
            card = card_from_doc(doc)
            cards[card.id] = compile_card(card)
            warnings.extend(advised(card))  # (card.warnings, the plain-against-ratio advice checked)
            warnings.extend(lint_card(card))
            warnings.extend(lint_reach(card))
            unregistered.append((card, doc))  # judged after the loop, with the investors files given (below)
            warnings.extend(_outcome_verdict_words(card, doc))
            from ipb.perturb._size_lint import market_by_name_warnings, unbounded_size_warnings  # (s57nufix W1)

            warnings.extend(unbounded_size_warnings(card))  # a market value no year bounds
            warnings.extend(market_by_name_warnings(card))  # market state by a mood word of its name (s58 F-C5)
            side = sidecar_path(card.id, path)
            if side is None:
                bare.append(card)
            else:  # its gate names in other languages (docs/scoring.md)
                check_sidecar(side)
            from ipb.perturb.render import fact_sentence_errors, value_word_errors  # (loaded only for a card)

            problems.extend(value_word_errors(card, doc))  # category values a question could not tell apart
            problems.extend(fact_sentence_errors(card, doc))  # two inputs a question would state in the same words
            from ipb.perturb.periods import card_period_errors

            problems.extend(card_period_errors(card, doc))  # a macro input worded over a period no regime figure covers
        except (ErrorGroup, IpbError) as exc:
            problems.extend(exc.errors if isinstance(exc, ErrorGroup) else [exc])
            if isinstance(exc, ErrorGroup) and doc is not None and all((e.rule or "").startswith("schema:") for e in exc.errors):
                # s52newuser: the expressions a schema error did not touch are compiled too, so one run lists all
                problems.extend(errors_past_schema(doc, card_schema()))
            data = doc.data if doc is not None else None
            if isinstance(data, dict) and isinstance(data.get("id"), str):
                broken[data["id"]] = path
            elif doc is None and (card_id := _id_line(path)) is not None:  # YAML unreadable: its 'id:' line
                broken.setdefault(card_id, path)
    warnings.extend(_unknown_investors(unregistered, investors, given_registries))
    l8_bases = 0  # L8 bases checked against the --card cards (their frame says what the cards' rules clash in)
    for path, doc in scenarios:
        try:
            card_id = doc.data.get("card")
            if card_id is None and l8_cards:
                problems.extend(_l8_base_errors(path, doc, l8_cards, cards))
                l8_bases += 1
                continue
            if card_id is None:
                raise IpbError("a scenario checked on its own must name its 'card'; an L8 base names none: check it "
                               f"against its cards with ipb check {path} --card A --card B (as ipb perturb --card A "
                               "--card B --base FILE reads it: types, ranges, constraints, deck rules, vintage)",
                               file=str(path), line=1, column=1, rule="card")
            if not isinstance(card_id, str):
                line, column = doc.locate(("card",))
                raise LoadError(f"'card' names one card id, not {type(card_id).__name__} {card_id!r}; an L8 base "
                                "leaves 'card' out (ipb perturb --card A --card B --base FILE checks it against each card)",
                                file=str(path), line=line, column=column, rule="card", source_line=doc.source_line(line))
            compiled = cards.get(card_id)
            if compiled is None:
                try:
                    # a scenario names its card by id: a path there is never opened (nor echoed)
                    compiled = compiled_card(item_card(card_id))
                except LoadError as exc:
                    if exc.rule not in ("card", "card-ref"):
                        raise
                    line, column = doc.locate(("card",))
                    if card_id in broken:  # given on this command line, but it has errors (new-user finding)
                        raise LoadError(f"card {card_id!r} is {broken[card_id]}, checked here, which has errors "
                                        "(listed with it); fix them and this scenario is checked against it",
                                        file=str(path), line=line, column=column, rule="card", name=card_id,
                                        source_line=doc.source_line(line)) from None
                    raise LoadError(f"{exc.message}; or check the card and the scenario together: "
                                    f"ipb check CARD.yaml {path}", file=str(path), line=line, column=column,
                                    rule="card", name=str(card_id), suggestion=exc.suggestion,
                                    source_line=doc.source_line(line)) from None
            scen = scenario_from_doc(doc, compiled.card)
            warnings.extend(lint_scenario(doc, compiled.card, scen.facts, scen.expected))
            warnings.extend(_career_warnings(doc, compiled.card))  # perturb's career rule (NEWUSER_s62 N12)
            # the same errors, in the same words, as ipb perturb gives the base (s58 F-W2's edge, s60fix)
            from ipb.perturb.derive_rounding import base_constraint_errors

            problems.extend(base_constraint_errors(compiled, scen.facts, doc))
            if scen.expected:
                trace = execute(compiled, scen.facts)
                found = check_expected(scen, trace.outcome, trace.trigger, trace.verdicts(), doc, trace.iterations)
                if found:
                    why = _why(compiled, scen.facts, trace)
                    for e in found:
                        e.message += why
                problems.extend(found)
        except ErrorGroup as exc:
            problems.extend(exc.errors)
        except IpbError as exc:
            problems.append(exc.with_location(str(path)))
    if len(l8_cards) > 1 and not l8_bases:  # the cards of an L8 deck, no base: what a base would meet (s62 N11)
        problems.extend(_l8_card_errors(l8_cards, cards))
    # a card an investors file lists is found when it is checked on this command line too (s62 N4)
    warnings = [w for w in warnings if not (w.rule == "unknown-card" and w.name in cards)]
    position = lambda e: (e.file or "", e.line or 0, e.column or 0)  # noqa: E731
    everything = sorted(problems + warnings, key=position)
    if format is RunFormat.json:
        out.print(json.dumps([p.to_dict() for p in everything], indent=2), markup=False)
    else:
        # errors first, by position; then the warnings grouped by kind, the largest group last
        for p in sorted(problems, key=position):
            out.print(p.render(), markup=False)
        groups: dict[str, list[IpbError]] = {}
        for w in sorted(warnings, key=position):
            groups.setdefault(w.rule or "warning", []).append(w)
        ordered = sorted(groups.items(), key=lambda kv: len(kv[1]))
        for rule, group in ordered:
            out.print(f"-- {len(group)} warning(s): {rule} --", markup=False)
            for w in group:
                out.print(w.render(), markup=False)
        status = f"{len(problems)} error(s), {len(warnings)} warning(s)" if problems else f"ok, {len(warnings)} warning(s)"
        status = status if everything else "ok"
        if warnings:
            status += " (" + ", ".join(f"{rule} {len(group)}" for rule, group in ordered) + ")"
        kinds = f" ({investor_files} of them investors file(s), checked as such)" if investor_files else ""
        out.print(f"checked {len(files)} file(s){kinds}: {status}", markup=False)
        # s52newuser: the note came with every check of a card of one's own, which mostly has no sidecar; on ask only
        if verbose and len(bare) == 1:
            err.print(missing_note(bare[0]) or "", markup=False)
        elif verbose and bare:
            err.print(f"note: {len(bare)} card(s) have no gate names in other languages ({', '.join(c.id for c in bare)}); "
                      "answers in other languages are read by their English names only (docs/scoring.md, 'Gate names in "
                      "other languages')", markup=False)
    if problems or (strict and warnings):
        raise typer.Exit(code=1)


def _career_warnings(doc: YamlDoc, card: Any) -> list[IpbError]:
    """An ``outside-career`` warning at ``as_of`` when the scenario is dated inside ``card``'s vintage but outside its
    investor's career (the registry's active period, with ``--investors`` / ``IPB_INVESTORS``), which ``ipb perturb``
    refuses as a base without ``--fm6-probe``; judged by perturb's own rule (:func:`ipb.perturb.vintage.date_problem`,
    paper §11.6). A date outside the vintage has the engine's ``outside-vintage`` warning already."""
    import datetime as dt

    from ipb.errors import LintWarning
    from ipb.perturb.vintage import date_problem, framework_window

    raw = doc.data.get("as_of") if isinstance(doc.data, dict) else None
    try:
        day = dt.date.fromisoformat(raw) if isinstance(raw, str) else raw if isinstance(raw, dt.date) else None
    except ValueError:
        return []  # the scenario loader reports a date that is no date
    if day is None:
        return []
    problem = date_problem(framework_window(card), day)
    if problem is None or "outside the career of investor" not in problem:
        return []
    line, column = doc.locate(("as_of",))
    warning = LintWarning(f"{problem}: ipb perturb refuses it as a base unless --fm6-probe (its items then probe FM-6); "
                          "date it inside the investor's career", rule="outside-career", name="as_of")
    return [warning.with_location(doc.file, line, column, doc.source_line(line))]


def _sort_found(found: list[IpbError], problems: list[IpbError], warnings: list[IpbError]) -> None:
    """Put what a data-file validator found among the errors, or its ``LintWarning``s among the warnings."""
    from ipb.errors import LintWarning

    for e in found:
        (warnings if isinstance(e, LintWarning) else problems).append(e)


def _id_line(path: Path) -> str | None:
    """The id on a top-level ``id:`` line of a file whose YAML did not parse, else None.

    A card with a YAML error has no data to read its id from, and a scenario naming it was told the id was
    unknown and to "check the card and the scenario together", which the user had done (s40user).
    """
    from ipb._files import read_bytes_limited
    from ipb.engine._yaml import MAX_YAML_CHARS

    try:  # (a FIFO or a device is not read: s52break item 10)
        text = read_bytes_limited(path, 4 * MAX_YAML_CHARS + 4, what="YAML document").decode("utf-8", "replace")
    except IpbError:
        return None
    m = re.search(r"^id:[ \t]*([\"']?)([A-Za-z_][A-Za-z0-9_]*)\1[ \t]*(?:#.*)?$", text, re.MULTILINE)
    return m.group(2) if m else None


def _why(compiled: Any, facts: dict[str, Any], trace: Trace) -> str:
    """What decided the card's verdict, for a mismatch with a scenario's ``expected`` block."""
    import re

    from ipb.engine.explain import explain as explain_card

    text = f" (trigger {trace.trigger}; gate verdicts {', '.join(trace.verdicts())}"
    m = re.match(r"gate_(\d+)_", trace.trigger)
    if m:
        gate = explain_card(compiled, facts).gates[int(m.group(1)) - 1]
        decided = "; ".join(f"{label}: {part.shown}: {'true' if part.value is True else 'false' if part.value is False else 'unknown'}"
                            for label, part in gate.criteria)
        text += f"; gate {gate.number} {gate.id}: {decided}" if decided else ""
    return text + "; `ipb explain` shows every gate)"


#: The format a --out suffix names (s47break: "-o card.png" wrote DOT text into card.png and said "wrote card.png").
_GRAPH_SUFFIXES = {".svg": GraphFormat.svg, ".png": GraphFormat.png, ".dot": GraphFormat.dot, ".gv": GraphFormat.dot,
                   ".mmd": GraphFormat.mermaid, ".mermaid": GraphFormat.mermaid}


def _graph_format(given: GraphFormat | None, output: Path | None) -> GraphFormat:
    """The format to write: ``given``, else the one ``output``'s suffix names, else dot; a usage error (exit 2)
    when both are given and disagree, since the file would hold one format under another's name."""
    named = _GRAPH_SUFFIXES.get(output.suffix.lower()) if output is not None else None
    if given is None:
        return named or GraphFormat.dot
    if named is not None and named is not given:
        assert output is not None
        err.print(f"--format {given.value} but --out {output} names a {named.value} file: the file would hold "
                  f"{given.value} under a {output.suffix} name; drop --format (the suffix chooses) or change one",
                  markup=False)
        raise typer.Exit(code=2)
    return given


@app.command()
def graph(
    card: str = typer.Argument(..., help="Card file or bundled card id."),
    format: Optional[GraphFormat] = typer.Option(None, "--format", "-f", help="dot, mermaid (text) or svg, png (pictures); default: from the --out suffix (.svg, .png, .dot/.gv, .mmd), else dot."),
    scenario: Optional[Path] = typer.Option(None, "--scenario", "-s", help="Colour gates by their verdict on this scenario."),
    output: Optional[Path] = typer.Option(None, "--out", "-o", help="Write to FILE instead of standard output (needed for png on a terminal)."),
    renderer: str = typer.Option("auto", "--renderer", "-r", help="svg/png: auto (Graphviz's dot if installed, else built-in), graphviz, or python (built-in)."),
    cards_dir: list[Path] = typer.Option([], "--cards", help="Folder of card files to look the card id up in first (repeatable; then IPB_CARDS, then the bundled cards)."),
) -> None:
    """Print or write CARD's decision graph: Graphviz DOT, Mermaid, SVG or PNG.

    SVG and PNG come from Graphviz when its ``dot`` program is installed and
    from the built-in matplotlib renderer otherwise (``--renderer`` chooses).
    """
    format = _graph_format(format, output)
    try:
        refuse_overwriting({"--out": output}, {"card file": Path(card), "scenario": scenario}, command="graph")
        use_cards(cards_dir)
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
        except OSError as exc:  # s57fixio: "--out: write error: ..." as every writing command (was "PATH: cannot write")
            raise _write_failed(exc, output, "--out") from None
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


def _unknown_investors(cards: list[tuple[Any, YamlDoc]], investors: list[Path], given: list[Path]) -> list[IpbError]:
    """:func:`_unknown_investor` of each card, with the investors files checked in the same call (``ipb check
    investors.yaml cards/X.yaml``) registered as ``--investors`` files are (s62 new user N14: the card whose investor
    that file defines was warned ``unknown-investor``). A file that cannot be registered (its own errors are
    reported where it is checked; the bundled registry itself) adds nothing. The registry is then as it was."""
    if not (cards and given):
        return [w for card, doc in cards for w in _unknown_investor(card, doc)]
    try:
        use_investor_files([*investors, *given])
    except (ErrorGroup, IpbError):
        use_investor_files(investors)
    try:
        return [w for card, doc in cards for w in _unknown_investor(card, doc)]
    finally:
        use_investor_files(investors)


def _unknown_investor(card: Any, doc: YamlDoc) -> list[IpbError]:
    """A warning when the card's investor is not in the investor registry (``frameworks/investors.yaml``).

    Such a card runs, perturbs and scores, but the checks that read the registry do not apply
    to it: FM-4 (whose voice the answer takes), attribution of the investor's own phrases, and
    condition B's knowledge cards. A faithful answer then cannot earn what a registered investor's
    can, so a user is told before comparing scores.
    """
    from ipb.engine.investors import UnknownInvestorError, investor_for_card
    from ipb.errors import LintWarning

    try:
        investor_for_card(card)
    except UnknownInvestorError:
        line, column = doc.locate(("investor",))
        warning = LintWarning(
            f"investor {card.investor!r} is not in the investor registry (frameworks/investors.yaml): FM-4, the "
            "investor's phrases in attribution and condition B's knowledge cards do not apply to this card, so its "
            "answers are scored without them; add the investor in a registry file of your own and pass it with "
            "--investors FILE (docs/scoring.md, 'An investor of your own')", rule="unknown-investor", name=card.investor)
        return [warning.with_location(doc.file, line, column, doc.source_line(line))]
    return []


#: Gate verdict words (paper §7.3) an outcome may not be spelled as without the parser reading it two ways.
_GATE_VERDICT_WORDS = frozenset({"PROCEED", "REJECT", "PASS", "FAIL", "PASSED", "FAILED", "INCONCLUSIVE"})


def _outcome_verdict_words(card: Any, doc: YamlDoc) -> list[IpbError]:
    """A warning per outcome spelled as a gate verdict word (``outcomes: {fail: PASS}``): the response parser reads
    such a word as the final verdict only in the final region or as a closing decision label's value ("Final verdict:
    PASS", "Verdict: pass." closing the answer); elsewhere "pass" is a gate's PROCEED ("it passes", "passing") unless
    the writer or an investor is the one who passes ("I'd pass"). NEWUSER_s61 N7; docs/scoring.md, "Pass"."""
    from ipb.errors import LintWarning

    found: list[IpbError] = []
    outcomes = card.outcomes if isinstance(card.outcomes, dict) else {}
    for side in ("pass", "fail"):
        word = outcomes.get(side)
        if isinstance(word, str) and word.upper() in _GATE_VERDICT_WORDS:
            line, column = doc.locate(("outcomes", side))
            warning = LintWarning(
                f"the {side} outcome {word!r} is also a gate verdict word: answers are read with it as the final verdict "
                f"only after a final label or as a closing decision label's value ('Final verdict: {word}', 'Verdict: "
                f"{word.lower()}.'); elsewhere the word is read as a gate's verdict. An outcome word no gate verdict uses "
                "(BUY / AVOID, INVEST / DECLINE) is read everywhere", rule="outcome-verdict-word", name=word)
            found.append(warning.with_location(doc.file, line, column, doc.source_line(line)))
    return found


def _is_investors_file(data: object) -> bool:
    """A document shaped like an investors file (frameworks/investors.yaml, or a user's file for ``--investors``):
    a top-level ``investors:`` mapping and none of a card's or a scenario's own parts."""
    return (isinstance(data, dict) and isinstance(data.get("investors"), dict)
            and not {"gates", "card", "facts", "inputs"} & set(data))


def _registry_kind(data: object) -> str | None:
    """The registry kind, "regimes" or "sectors", of a document shaped like frameworks/regimes.yaml or
    sectors.yaml (a top-level entry of that name, no gates and no card), else None: ipb check tells registries by
    file name, so one saved under another name was read as a card or a scenario and failed with messages about
    'gates' or 'card' (s50break)."""
    if not isinstance(data, dict) or {"gates", "card"} & set(data):
        return None
    for kind in ("regimes", "sectors"):
        if kind in data:
            return kind
    return None
