"""``ipb screen``: one card over every row of a table (issue 21).

    ipb screen CARD TABLE --out OUT [--map COLUMN=INPUT ...] [--unit INPUT=SCALE ...]
               [--only-results] [--fast]

TABLE and OUT are Parquet (.parquet, .pq), CSV (.csv) or Arrow IPC / Feather
(.arrow, .feather, .ipc), told apart by suffix; OUT is written atomically. Each
row is one scenario; its verdicts are the ones ``ipb run`` gives on the same
facts. Needs pyarrow (``pip install 'ipb[export]'``). Exit status 1 on a bad
card, table, mapping or value (with file, column and row), 2 on options that
contradict each other or the card (``--unit x=M --unit x=B``; ``--unit x=%``
on a money input). OUT must be a regular file or new: a FIFO, device or folder
is refused before the table is read. A result column whose name the table
already uses is written as ``NAME_ipb`` (``NAME_ipb2``...), never over the
table's own column.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any

import typer

from ipb.cli._app import _fail, _write_failed, app, err
from ipb.errors import IpbError

#: Tables at least this long get a progress bar (on a terminal).
PROGRESS_ROWS = 100_000


@app.command()
def screen(
    card: str = typer.Argument(..., help="Card id or file."),
    table: Path = typer.Argument(..., help="Input table: .parquet, .csv or .arrow/.feather; one scenario per row."),
    out_path: Path = typer.Option(..., "--out", "-o", help="Output table (format from its suffix), written atomically."),
    map_: list[str] = typer.Option([], "--map", "-m", help="COLUMN=INPUT: read card input INPUT from table column COLUMN (repeatable). Other inputs are read from the column of the same name, or are unknown."),
    unit: list[str] = typer.Option([], "--unit", "-u", help="INPUT=SCALE: the column holds INPUT in K, M, B or T (thousands ... trillions) or in % (repeatable)."),
    only_results: bool = typer.Option(False, "--only-results", help="Write only the verdict and value columns, not the table's own columns."),
    fast: bool = typer.Option(False, "--fast", help="Keep float verdicts at exact ties instead of re-deciding those rows exactly (not recommended)."),
) -> None:
    """Run CARD on every row of TABLE and write its verdict columns to OUT."""
    from ipb.engine.columnar.table import check_output, parse_pairs, read_table, screen_table, write_table
    from ipb._files import check_writable, refuse_overwriting
    from ipb.engine.registry import compiled_card

    start = time.perf_counter()
    try:
        mapping = parse_pairs(map_, "--map")
        units = parse_pairs(unit, "--unit")
        check_output(out_path)  # a FIFO, device or folder is refused before any work
        refuse_overwriting({"--out": out_path}, {"card file": Path(card), "table": table}, command="screen")
        check_writable({"--out": out_path})  # a folder where no file can be made, before the table is read
        compiled = compiled_card(card)
        data = read_table(table)
        n = data.num_rows
        if n >= PROGRESS_ROWS and err.is_terminal:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            with Progress(TextColumn("screening"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                          console=err, transient=True) as bar:
                task = bar.add_task("rows", total=n)
                done = screen_table(compiled, data, mapping=mapping, units=units, only_results=only_results,
                                    file=str(table), progress=lambda k: bar.advance(task, k), exact=not fast)
        else:
            done = screen_table(compiled, data, mapping=mapping, units=units, only_results=only_results,
                                file=str(table), exact=not fast)
        write_table(done.table, out_path)
    except IpbError as exc:
        failure = _fail(exc)
        if exc.rule == "usage":  # options that contradict each other or the card: a usage error, as typer's are
            raise typer.Exit(code=2) from None
        raise failure from None
    except OSError as exc:
        raise _write_failed(exc, out_path, "--out") from None
    result = done.result
    counts = Counter(result.outcomes[c] for c in result.outcome.tolist())
    mix = ", ".join(f"{word} {k:,}" for word, k in sorted(counts.items())) or "no rows"
    err.print(f"wrote {out_path}: {n:,} rows of {compiled.id} in {time.perf_counter() - start:.1f}s; {mix}; "
              f"{result.fallback:,} row(s) decided exactly by the scalar engine", markup=False)
    if done.renamed:
        err.print("the table already has columns named like results; written as: "
                  + ", ".join(f"{name} -> {new}" for name, new in done.renamed.items()), markup=False)
    if done.matched:
        err.print("read from a column whose header differs only in case or spaces: "
                  + ", ".join(f"{name} <- {column!r}" for name, column in done.matched.items()), markup=False)
    if done.ignored:
        err.print("not read, as another column is: "
                  + "; ".join(", ".join(repr(c) for c in columns) + f" (differs from input {name!r} only in case or "
                              f"spaces; {name} is read from column {read!r})"
                              for name, (read, columns) in done.ignored.items()),
                  markup=False)
    _warn_broken(done.broken, table)
    if done.unmapped:
        err.print("unknown on every row (no column): " + ", ".join(_why_unknown(done, name) for name in done.unmapped),
                  markup=False)


def _why_unknown(done: Any, name: str) -> str:
    """``name`` and, where there is one, why it has no column and the ``--map`` that would read one."""
    if name in done.ambiguous:
        columns = done.ambiguous[name]
        return (f"{name} (ambiguous: columns " + ", ".join(repr(c) for c in columns) + " each differ from it only in "
                f"case or spaces, so none is read; pick one with --map, e.g. --map '{columns[0]}={name}')")
    if name in done.hints:
        return f"{name} (did you mean column {done.hints[name]!r}? --map '{done.hints[name]}={name}')"
    return name


def _warn_broken(broken: Any, table: Path) -> None:
    """One warning per row (the first ten) whose facts break a constraint of the card, as ``ipb run`` gives on them,
    naming the row (0-based) and, for a CSV, its file line; then how many rows break one in all (s54newuser: row
    Zeta, net income above operating profit, came out BUY with no word)."""
    csv = table.suffix.lower() == ".csv"
    for row, messages in broken.messages.items():
        where = f"{table}: row {row}" + (f" (line {row + 2})" if csv else "")
        for message in messages:
            err.print(f"warning: {where}: {message.rstrip('.')}; its verdict reads these facts as given",
                      markup=False)
    if broken.unchecked:
        err.print("not checked on the rows (the rule calls a function the columnar executor lacks; ipb run checks "
                  "it): constraint " + ", ".join(broken.unchecked), markup=False)
    if broken.count:
        err.print(f"{broken.count:,} row(s) break a constraint of the card (column constraints_broken)",
                  markup=False)
