"""``ipb perturb`` and ``ipb verify``: perturbed L7/L8 items with executed gold (paper §6.5).

    ipb perturb --card ID [--card ID ...] --base SCENARIO --n N --seed S
                [--ops metric,sector,temporal,flip | --mix metric=0.4,flip=0.2,...]
                [--min-changed K] [--near-duplicates fill|defer|strict] [--balance] [--fm6-probe]
                [--allow-short] [--strict-mix] [--progress/--no-progress] [--workers W]
                [--cards DIR ...] [--backend local|ray [--ray-address ADDR]] --out ITEMS.jsonl
                [--report REPORT.json]

Items are written as they are made (memory stays flat in N without
``--balance``); the file appears only when the run succeeds.

Without ``--ops`` or ``--mix`` each card gets every operator that applies to
it (metric, sector, temporal, flip, isolate); the others are skipped with a
note in the summary.
    ipb verify ITEMS.jsonl [--cards DIR ...] [--card ID=PATH|FILE ...] [--format table|json] [--workers W]
               [--backend local|ray [--ray-address ADDR]]

``--backend ray`` runs the work on a Ray cluster (``ipb[ray]``; see
docs/scale-out.md) and writes the same bytes. One ``--card`` makes L7 items; several make L8 items (one scenario, a gold
trace per investor's card). Exit status: 0 on success, 1 on an error, a
shortfall or (verify) any item whose gold no longer matches.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from enum import Enum
from pathlib import Path
from typing import Any, Optional

import typer

from ipb._files import new_folders, output_lock, staged_outputs
from ipb.cli._app import (INVESTORS_HELP, RunFormat, _fail, _write_failed, app, closed_stdout_ok, err, investor_files_env, out,
                          use_investor_files)
from ipb.cli._stops import outputs_complete, remove_stale, said_on_stop
from ipb.distributed import Backend
from ipb.errors import ArgumentError, ErrorGroup, IpbError, LoadError, PerturbError
from ipb.perturb._progress import RunProgress
from ipb.perturb.generation import DEFAULT_NEAR, MAX_ITEMS, Job, count_above_cap, parse_mix, parse_recipes, write_items
from ipb.perturb.runs import near_mode
from ipb.engine.registry import card_option_error, compiled_card, find_card, use_cards, write_card_copy
from ipb.cli._card_specs import card_spec
from ipb.perturb.operators import get_operator, operator_names
from ipb.perturb.verify import verify_items


#: Where a verified question differs from the one ipb writes: "(at character 251: item says '...', expected
#: '...')"; records that differ for one cause (a wording change of ipb) differ in it, so it is no part of the
#: grouping key (stop 33: two files of 1,000 items made before a wording fix printed some 900 lines, now one per cause).
_EXCERPT = re.compile(r"\(at character \d+: item says (?:'[^']*'|\"[^\"]*\"), expected (?:'[^']*'|\"[^\"]*\")\)")


class NearMode(str, Enum):
    """``--near-duplicates``: how a run treats an item within a visible step of another of its recipe."""

    fill = "fill"
    defer = "defer"
    strict = "strict"


def _ops_help() -> str:
    return "; ".join(f"{n}[:{get_operator(n).arg}]" for n in operator_names())


@app.command()
def perturb(
    card: list[str] = typer.Option(..., "--card", "-c", help="Card id or file; repeat for an L8 item over several investors' cards."),
    base: Path = typer.Option(..., "--base", "-b", help="Base scenario file (its facts are shared by every card)."),
    n: int = typer.Option(..., "--n", "-n", help=f"How many distinct items to write (at most {MAX_ITEMS:,}; docs/perturbation.md, \"Largest run\")."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed: the same inputs and seed give a byte-identical file."),
    ops: Optional[str] = typer.Option(None, "--ops", help="Recipes separated by ',', operators in a recipe by '+', an argument after ':' (default: every operator that applies to the card, the others skipped with a note). Operators: " + _ops_help()),
    mix: Optional[str] = typer.Option(None, "--mix", help="Proportions instead of even shares: RECIPE=WEIGHT pairs, e.g. metric=0.4,flip=0.2,sector+metric=0.4; each recipe's shortfall is reported and made up by the others."),
    balance: bool = typer.Option(False, "--balance", help="Spread the final verdicts as evenly as the card allows, and say how even."),
    fm6_probe: bool = typer.Option(False, "--fm6-probe", help="Allow dates outside the framework vintage; such items are marked as FM-6 probes."),
    allow_short: bool = typer.Option(False, "--allow-short", help="Write fewer than N items when no more distinct ones exist (with a SHORTFALL line) instead of failing."),
    strict_mix: bool = typer.Option(False, "--strict-mix", help="Exit 1 when any recipe made fewer items than its share of N (its --mix proportion, or its even share, rounded to whole items), naming each recipe's asked and made counts; nothing is written then (an old --out and --report stay as they were). Without it a short recipe is a WARNING and the others make up its share."),
    progress: Optional[bool] = typer.Option(None, "--progress/--no-progress", help="Progress lines on stderr, every 10 s or every tenth of N (default: when stderr is a terminal); the items file and the summary do not change."),
    workers: int = typer.Option(1, "--workers", "-j", help="Processes to generate with (the output does not depend on it)."),
    min_changed: int = typer.Option(1, "--min-changed", help="Each item differs from the base in at least this many facts that some gate, computed value or constraint reads (a context label such as a sector no gate reads, or a new date, does not count; the date does in --fm6-probe runs)."),
    near: Optional[NearMode] = typer.Option(None, "--near-duplicates", help="How items within a visible step of another item of the same recipe are treated (docs/perturbation.md, \"Near duplicates\"). defer (the default): take each as it comes and write them all after the visibly new items; fill: hunt past them for visibly new items, and write only as many of them as N still needs, after the others (on a large run it can cost many times the CPU); strict: never write one, stop short when the visibly new items run out (or write them alone with --allow-short). With --balance only strict applies."),
    no_near: bool = typer.Option(False, "--no-near-duplicates", help="The same as --near-duplicates strict: refuse items within a visible step of another item of the same recipe; when the visibly new items run out, stop with the shortfall (or write them alone with --allow-short) instead of adding near duplicates after them."),
    out_path: Path = typer.Option(..., "--out", "-o", help="Items file to write (JSON Lines), atomically; its folder is made if missing."),
    backend: Backend = typer.Option(Backend.local, "--backend", help="local: processes on this machine; ray: a Ray cluster (pip install 'ipb\\[ray]'). The output does not depend on it."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", envvar="RAY_ADDRESS", help="Ray head HOST:PORT (default: RAY_ADDRESS, else a fresh local Ray instance)."),
    report: Optional[Path] = typer.Option(None, "--report", help="Also write the run's report as JSON."),
    cards_dir: list[Path] = typer.Option([], "--cards", help="Folder of card files to look card ids up in first (repeatable; then IPB_CARDS, then the bundled cards)."),
    investors: list[Path] = typer.Option([], "--investors", help=INVESTORS_HELP + " Each item records the knowledge version condition B reads from it, so ipb verify needs the same file."),
) -> None:
    """Write N perturbed items with gold verdicts obtained by executing the card(s).

    Each card's canonical source is copied beside the items, as
    ``ipb-cards/<sha256>.yaml``, so that verify, respond, score and report can
    re-execute the items without the card being installed anywhere. While it
    runs it holds a lock on ``.OUT.lock`` beside ``--out``; a second perturb
    naming the same ``--out`` meanwhile exits 1 at once, writing nothing.
    """
    started = time.time()
    counter = RunProgress(n, sys.stderr if (sys.stderr.isatty() if progress is None else progress) else None)
    try:
        with said_on_stop(lambda how: _stopped(counter, how, out_path, report, started)):  # from the start (B10)
            _at_least_one(workers, "--workers")
            workers = _workers_for_cores(workers, backend)
            too_many = count_above_cap(n)  # refused before any card is read (s56fixrep: 10**19 ran until killed)
            if too_many is not None:
                raise ArgumentError(too_many, file="--n", rule="argument")
            use_cards(cards_dir)
            use_investor_files(investors)  # a bad file is refused here, at its file:line:col (s62 new user N8)
            bad = [e for e in (card_option_error("--card", c) for c in card) if e is not None]
            if bad:
                raise ErrorGroup(bad)
            paths = [str(find_card(c)) for c in card]
            _refuse_out_of_range(base, paths)
            _refuse_value_words(paths)
            _check_outputs({"--out": out_path, "--report": report}, base, paths)  # the inputs' errors come first
            if ops is not None and mix is not None:
                raise PerturbError("give --ops or --mix, not both (--mix names its recipes)", rule="mix")
            recipes, weights = parse_mix(mix) if mix is not None else (parse_recipes(ops) if ops is not None else (), None)
            job = Job(tuple(paths), str(base), seed, recipes, fm6_probe, weights, min_changed, no_near,
                      near.value if near is not None else None)
            near_mode(job, balance, DEFAULT_NEAR)  # a mode that cannot go with the others is refused before any work
            store = runner = None
            # a new folder for the items (and the report) is made, as demo and score do, and removed again if the run
            # writes nothing into it (s59break B14)
            folders = [t.parent for t in (out_path, report) if t is not None and not os.path.lexists(t.parent)]
            with new_folders(folders), output_lock(out_path), investor_files_env(investors):  # a second perturb to the same --out is refused (s53break 5)
                remove_stale((out_path, report), started, _say)
                counter.start = counter.clock()  # the progress rate counts from here, the stop line from ``started``
                counter.balance = balance  # its pool pass is said when it starts and ends (s59break B13)
                result, runner, store = _generate(job, n, out_path, paths, report, backend, balance, allow_short,
                                                  workers, ray_address, strict_mix, counter)
                # s59break B9: from here a signal no longer makes the finished run a failure (cli/_stops.py)
                outputs_complete(", ".join(str(p) for p in (out_path, report) if p is not None) + " written")
    except IpbError as exc:
        raise _fail(exc) from None
    except OSError as exc:
        on_report = report is not None and str(exc.filename) == str(report)
        raise _write_failed(exc, report if on_report else out_path, "--report" if on_report else "--out") from None
    err.print(f"wrote {out_path}: " + result.summary(), markup=False)
    if runner is not None and runner.resumed:
        err.print(f"ray: resumed {runner.resumed} finished shard(s), computed {runner.computed}", markup=False)
    if runner is not None and runner.store.note():
        err.print(runner.store.note(), markup=False)


def _generate(job: Job, n: int, out_path: Path, paths: list[str], report: Optional[Path], backend: Backend,
              balance: bool, allow_short: bool, workers: int, ray_address: Optional[str], strict_mix: bool = False,
              counter: Optional[RunProgress] = None) -> tuple[Any, Any, Any]:
    """Generate and write the items, the card copies and the report: (result, Ray runner or None, its store or None).

    The items and the report are both written to temporary files first and renamed only once both are complete
    (:func:`ipb._files.staged_outputs`), so a failure while writing the report (a full disk) leaves the old
    ``--out`` and ``--report`` as they were (s57fixio; before, ``--out`` was renamed into place first). The card
    copies, named by their hash, are written before the renames.

    With ``strict_mix`` a recipe short of its share raises before anything is put in place (s59 new user F-C8):
    the items file is written completely or not at all. ``counter`` counts the item lines as they pass (progress
    lines on stderr, :mod:`ipb.perturb._progress`); it does not change them.
    """
    store = runner = None
    counter = counter if counter is not None else RunProgress(n, None)
    with staged_outputs() as stage:
        if backend is Backend.ray:
            from ipb.distributed.perturb import generate_ray

            result, runner = generate_ray(job, n, out_path, balance=balance, allow_short=allow_short,
                                          address=ray_address, stage=_CountedStage(stage, out_path, counter))
            store = runner.store
        else:  # the lines counted on their way to the file
            result = write_items(out_path, job, n, balance=balance, workers=workers, allow_short=allow_short,
                                 stage=stage, progress=counter)
        failed = result.strict_mix_error() if strict_mix else None
        if failed:
            raise PerturbError(failed, rule="mix")
        for path in dict.fromkeys(paths):
            write_card_copy(compiled_card(path).card, out_path)
        if report is not None:
            from ipb.perturb._report import report_document

            stage.lines(report, [json.dumps(report_document(result, paths), indent=2, sort_keys=True)])
    if store is not None:
        store.remove()
    return result, runner, store


class _CountedStage:
    """A :class:`ipb._files.Staging` whose lines for ``out_path`` pass through ``counter`` (Ray runs' progress)."""

    def __init__(self, stage: Any, out_path: Path, counter: RunProgress) -> None:
        self._stage, self._out, self._counter = stage, out_path, counter

    def lines(self, path: Any, lines: Any) -> None:
        self._stage.lines(path, self._counter.wrap(lines) if str(path) == str(self._out) else lines)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stage, name)


def _say(text: str) -> None:
    err.print(text, markup=False)


def _stopped(counter: RunProgress, how: str, out_path: Path, report: Optional[Path], started: float) -> None:
    """One line on stderr when a run is stopped by a signal (s59 new user F-C9: ``timeout`` printed nothing), also
    while the cards load (s59break B10); its time counts from the command's start."""
    said = [f"{path} " + ("kept as it was" if os.path.exists(path) else "not made")
            for path in (out_path, report) if path is not None]
    err.print(counter.stopped(how, ", ".join(said), spent=time.time() - started), markup=False)


def _usable_cores() -> int:
    """The CPU cores this process may run on (its affinity mask where the system has one, else ``os.cpu_count()``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _workers_for_cores(workers: int, backend: Backend) -> int:
    """``--workers``, lowered to the cores this process may use, with a note when lowered (s64 new user F2:
    ``--workers 64`` and ``100000`` on 2 cores were accepted with no word). A cap, not only a note: generation is
    CPU-bound, so a worker beyond a core adds no speed, only a forked process's memory (``100000`` would fork that
    many), and the items do not depend on ``--workers``. Ray runs (``--backend ray``) are left as given."""
    cores = _usable_cores()
    if backend is not Backend.local or workers <= cores:
        return workers
    _say(f"note: --workers {workers} is more than the {cores} CPU core(s) this process may use: {cores} worker "
         "process(es) are started (more would only share the cores; the items do not depend on --workers)")
    return cores


def _at_least_one(value: int, flag: str) -> None:
    if value < 1:
        raise ArgumentError(f"{flag} must be at least 1, not {value}", file=flag, rule="argument")


def _check_outputs(outputs: dict[str, Optional[Path]], base: Path, cards: list[str]) -> None:
    """Refuse, before any work, an output that would overwrite an input or another output, or that cannot be
    written (:func:`ipb._files.check_writable`: a folder, a FIFO, a path below a regular file, a folder where no
    file can be made); a missing folder is made later: a failed run leaves no items file behind.

    Found by the s29break18 review (issue 18): ``--report`` naming a folder failed after the items were
    written, and ``--out``/``--report`` naming the base or a card file overwrote it.
    """
    from ipb._files import check_writable, refuse_overwriting

    refuse_overwriting(outputs, [("base scenario", base), *(("card file", c) for c in cards)],
                       command="perturb")
    check_writable(outputs)


def _refuse_value_words(cards: list[str]) -> None:
    """A card two of whose category values, or two of whose inputs, would read alike in a question is refused, at
    the input's ``values`` or at the later input's name."""
    from ipb.engine._yaml import load_yaml_file
    from ipb.errors import ErrorGroup
    from ipb.perturb.render import fact_sentence_errors, value_word_errors

    found = [e for c in cards for doc in [load_yaml_file(c)] for card in [compiled_card(c).card]
             for e in (*value_word_errors(card, doc), *fact_sentence_errors(card, doc))]
    if found:
        raise ErrorGroup(found)


def _refuse_out_of_range(base: Path, cards: list[str]) -> None:
    """A base fact outside a card's declared range is an error: the operators draw values on that range."""
    from ipb.engine._yaml import load_yaml_file
    from ipb.engine.lint import range_errors
    from ipb.errors import ErrorGroup

    doc = load_yaml_file(base)
    found = range_errors(doc, [compiled_card(c).card for c in cards])
    if found:
        raise ErrorGroup(found)


@app.command()
def verify(
    items: Path = typer.Argument(..., help="Items file (JSON Lines) written by ipb perturb."),
    card: list[str] = typer.Option([], "--card", "-c", help="ID=PATH: use this card file for card ID; or a card file alone, for the id it declares."),
    cards_dir: list[Path] = typer.Option([], "--cards", help="Folder of card files (repeatable), looked at before IPB_CARDS and the bundled cards; a card found nowhere else is taken from the items' own copy (ipb-cards/ beside the file)."),
    format: RunFormat = typer.Option(RunFormat.table, "--format", "-f", help="table: one line per problem; json: a report."),
    no_schema: bool = typer.Option(False, "--no-schema", help="Skip the JSON Schema check of each line."),
    workers: int = typer.Option(1, "--workers", "-j", help="Processes to verify with."),
    backend: Backend = typer.Option(Backend.local, "--backend", help="local: processes on this machine; ray: a Ray cluster (pip install 'ipb\\[ray]'). The output does not depend on it."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", envvar="RAY_ADDRESS", help="Ray head HOST:PORT (default: RAY_ADDRESS, else a fresh local Ray instance)."),
    investors: list[Path] = typer.Option([], "--investors", help=INVESTORS_HELP + " Pass the file the items were made with: each item records the knowledge version condition B reads from it."),
) -> None:
    """Re-execute every item against the current cards; exit 1 if any gold no longer matches
    or any scenario breaks a card constraint.

    The current card of an id is, in order: ``--card ID=PATH`` (or ``--card PATH``), ``--cards DIR``,
    ``IPB_CARDS``, the bundled card; a card none of these has is taken from the
    items' own copy (``ipb-cards/<sha256>.yaml`` beside the items file). A current
    card whose hash differs from the item's is named in the report.
    """
    overrides: dict[str, str] = {}
    try:
        _at_least_one(workers, "--workers")
        for spec in card:
            ident, path = card_spec(spec)
            overrides[ident] = path
        use_investor_files(investors)
        with investor_files_env(investors):
            if backend is Backend.ray:
                from ipb.distributed.perturb import verify_ray

                result = verify_ray(items, cards=overrides, schema=not no_schema, card_dirs=cards_dir,
                                    address=ray_address)
            else:
                result = verify_items(items, cards=overrides, schema=not no_schema, workers=workers,
                                      card_dirs=cards_dir)
    except IpbError as exc:
        raise _fail(exc) from None
    with closed_stdout_ok():  # ``ipb verify ITEMS | head``: the exit status stays verify's (s61 new user N13)
        _print_verify(result, format)
    if not result.ok:
        beside = _registry_beside(items, result)
        if beside:
            err.print(beside, markup=False)
        raise typer.Exit(code=1)


_UNKNOWN_INVESTOR = re.compile(r"investor ('[^']*'(?:, '[^']*')*) is not in the investor registry loaded")


def _registry_beside(items: Path, result: Any) -> str | None:
    """A note naming an investors file beside ``items`` (any ``*.yaml``/``*.yml`` there shaped like one) that
    registers an investor whose knowledge differed for not being in the registry loaded, with the command to pass
    it; None when there is none. s62 new user N8: a reader given the registry beside the items was told to remake
    them."""
    from ipb.engine.investors import find_investor, load_user_investors

    names: set[str] = set()
    for check in result.checks:
        for problem in check.problems:
            for m in _UNKNOWN_INVESTOR.finditer(problem):
                names.update(n.strip().strip("'") for n in m.group(1).split("', '"))
    if not names or items.parent is None or not items.parent.is_dir():
        return None
    for candidate in sorted(p for p in items.parent.iterdir() if p.suffix.lower() in (".yaml", ".yml") and p.is_file()):
        try:
            registry = load_user_investors(candidate)
        except (IpbError, OSError):
            continue
        held = sorted(n for n in names if find_investor(n, registry) is not None)
        if held:
            return (f"note: {candidate}, beside the items, registers {', '.join(map(repr, held))}: verify with it, "
                    f"ipb verify {items} --investors {candidate}")
    return None


def _print_verify(result: Any, format: RunFormat) -> None:
    """``ipb verify``'s report on standard output: one line per distinct problem, the count line and the card
    source lines (table), or the JSON report."""
    if format is RunFormat.json:
        out.print(json.dumps(result.to_dict(), indent=2, sort_keys=True), markup=False)
    else:
        # one line per distinct problem: its first record, then how many more records have it
        seen: dict[tuple[str, str], list[int]] = {}
        first: dict[tuple[str, str], str] = {}
        for check in result.checks:
            if check.status == "ok":
                continue
            where = f"{result.file}:{check.line}: record {check.record}" + (f" ({check.id})" if check.id else "")
            for problem in check.problems:
                # the excerpt where a question differs quotes the record's own values: group without it
                key = (check.status, _EXCERPT.sub("(at character N)", problem))
                seen.setdefault(key, []).append(check.line)
                first.setdefault(key, f"{where}: {check.status}: {problem}")
        for key, lines in seen.items():
            more = ""
            if len(lines) > 1:
                shown = ", ".join(map(str, lines[1:6])) + (", ..." if len(lines) > 6 else "")
                more = f" (and {len(lines) - 1} more record(s) with the same problem: lines {shown})"
            out.print(f"{first[key]}{more}", markup=False)
        bad = len([c for c in result.checks if c.status != "ok"])
        line = (f"verified {result.total - bad} of {result.total} item(s): {len(result.gold_mismatched)} gold mismatch(es), "
                f"{len(result.inconsistent)} disagreeing with themselves (id, question, ranges or dates), "
                f"{len(result.violations)} breaking a card constraint, {len(result.errors)} unreadable")
        if result.duplicates:
            line += f", {len(result.duplicates)} repeating an earlier item's id or scenario"
        if result.changed_cards:
            line += f"; card(s) edited since the items were made: {', '.join(result.changed_cards)}"
        if result.migrated:
            line += f"; {result.migrated} item(s) of an older format version read by migration"
        out.print(line, markup=False)
    if format is not RunFormat.json:
        from ipb.perturb.verify_cards import card_source_lines

        # which card each of the items' cards was checked against: a changed one by both hashes, the items' own
        # copy by name (s53newuser finding 10: after an edit elsewhere, "500 of 500 verified" against the copy)
        for text in card_source_lines(result.cards):
            out.print(text, markup=False)
