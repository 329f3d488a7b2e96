"""``ipb perturb`` and ``ipb verify``: perturbed L7/L8 items with executed gold (paper §6.5).

    ipb perturb --card ID [--card ID ...] --base SCENARIO --n N --seed S
                --ops metric,sector,temporal,flip [--balance] [--fm6-probe]
                [--allow-short] [--workers W] [--backend local|ray [--ray-address ADDR]]
                --out ITEMS.jsonl
    ipb verify ITEMS.jsonl [--card ID=PATH ...] [--format table|json] [--workers W]
               [--backend local|ray [--ray-address ADDR]]

``--backend ray`` runs the work on a Ray cluster (``ipb[ray]``; see
docs/scale-out.md) and writes the same bytes. One ``--card`` makes L7 items; several make L8 items (one scenario, a gold
trace per investor's card). Exit status: 0 on success, 1 on an error, a
shortfall or (verify) any item whose gold no longer matches.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from ipb.cli._app import RunFormat, _fail, app, err, out
from ipb.distributed import Backend
from ipb.errors import IpbError, LoadError
from ipb.perturb.generation import Job, generate, parse_recipes
from ipb.perturb.items import write_lines
from ipb.perturb.operators import get_operator, operator_names
from ipb.perturb.verify import verify_items


def _ops_help() -> str:
    return "; ".join(f"{n}[:{get_operator(n).arg}]" for n in operator_names())


@app.command()
def perturb(
    card: list[str] = typer.Option(..., "--card", "-c", help="Card id or file; repeat for an L8 item over several investors' cards."),
    base: Path = typer.Option(..., "--base", "-b", help="Base scenario file (its facts are shared by every card)."),
    n: int = typer.Option(..., "--n", "-n", help="How many distinct items to write."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed: the same inputs and seed give a byte-identical file."),
    ops: str = typer.Option("metric,sector,temporal,flip", "--ops", help="Recipes separated by ',', operators in a recipe by '+', an argument after ':'. Operators: " + _ops_help()),
    balance: bool = typer.Option(False, "--balance", help="Spread the final verdicts as evenly as the card allows, and say how even."),
    fm6_probe: bool = typer.Option(False, "--fm6-probe", help="Allow dates outside the framework vintage; such items are marked as FM-6 probes."),
    allow_short: bool = typer.Option(False, "--allow-short", help="Write fewer than N items when no more distinct ones exist (with a SHORTFALL line) instead of failing."),
    workers: int = typer.Option(1, "--workers", "-j", help="Processes to generate with (the output does not depend on it)."),
    out_path: Path = typer.Option(..., "--out", "-o", help="Items file to write (JSON Lines), atomically."),
    backend: Backend = typer.Option(Backend.local, "--backend", help="local: processes on this machine; ray: a Ray cluster (pip install 'ipb[ray]'). The output does not depend on it."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", envvar="RAY_ADDRESS", help="Ray head HOST:PORT (default: RAY_ADDRESS, else a fresh local Ray instance)."),
    report: Optional[Path] = typer.Option(None, "--report", help="Also write the run's report as JSON."),
) -> None:
    """Write N perturbed items with gold verdicts obtained by executing the card(s)."""
    try:
        job = Job(tuple(card), str(base), seed, parse_recipes(ops), fm6_probe)
        store = None
        if backend is Backend.ray:
            from ipb.distributed.perturb import generate_ray

            result, runner = generate_ray(job, n, out_path, balance=balance, allow_short=allow_short,
                                          address=ray_address)
            store = runner.store
        else:
            result = generate(job, n, balance=balance, workers=workers, allow_short=allow_short)
        write_lines(out_path, result.lines)
        if store is not None:
            store.remove()
        if report is not None:
            write_lines(report, [json.dumps(result.to_dict(), indent=2, sort_keys=True)])
    except IpbError as exc:
        raise _fail(exc) from None
    except OSError as exc:
        raise _fail(LoadError(f"cannot write {exc.filename or out_path}: {exc.strerror or exc}", rule="file")) from None
    err.print(f"wrote {out_path}: " + result.summary(), markup=False)
    if store is not None and runner.resumed:
        err.print(f"ray: resumed {runner.resumed} finished shard(s), computed {runner.computed}", markup=False)


@app.command()
def verify(
    items: Path = typer.Argument(..., help="Items file (JSON Lines) written by ipb perturb."),
    card: list[str] = typer.Option([], "--card", "-c", help="ID=PATH: use this card file for card ID (default: the bundled card)."),
    format: RunFormat = typer.Option(RunFormat.table, "--format", "-f", help="table: one line per problem; json: a report."),
    no_schema: bool = typer.Option(False, "--no-schema", help="Skip the JSON Schema check of each line."),
    workers: int = typer.Option(1, "--workers", "-j", help="Processes to verify with."),
    backend: Backend = typer.Option(Backend.local, "--backend", help="local: processes on this machine; ray: a Ray cluster (pip install 'ipb[ray]'). The output does not depend on it."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", envvar="RAY_ADDRESS", help="Ray head HOST:PORT (default: RAY_ADDRESS, else a fresh local Ray instance)."),
) -> None:
    """Re-execute every item against the current cards; exit 1 if any gold no longer matches."""
    overrides: dict[str, str] = {}
    try:
        for spec in card:
            ident, sep, path = spec.partition("=")
            if not sep or not ident or not path:
                raise LoadError(f"--card expects ID=PATH, got {spec!r}", file="--card", rule="card")
            overrides[ident] = path
        if backend is Backend.ray:
            from ipb.distributed.perturb import verify_ray

            result = verify_ray(items, cards=overrides, schema=not no_schema, address=ray_address)
        else:
            result = verify_items(items, cards=overrides, schema=not no_schema, workers=workers)
    except IpbError as exc:
        raise _fail(exc) from None
    if format is RunFormat.json:
        out.print(json.dumps(result.to_dict(), indent=2, sort_keys=True), markup=False)
    else:
        for check in result.checks:
            if check.status == "ok":
                continue
            where = f"{result.file}:{check.line}: record {check.record}" + (f" ({check.id})" if check.id else "")
            for problem in check.problems:
                out.print(f"{where}: {check.status}: {problem}", markup=False)
        bad = len(result.mismatched) + len(result.errors)
        line = (f"verified {result.total - bad} of {result.total} item(s): {len(result.mismatched)} gold mismatch(es), "
                f"{len(result.errors)} unreadable")
        if result.changed_cards:
            line += f"; card(s) edited since the items were made: {', '.join(result.changed_cards)}"
        out.print(line, markup=False)
    if not result.ok:
        raise typer.Exit(code=1)
