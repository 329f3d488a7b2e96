"""``ipb export RESULTS_DIR --out FILE [--format parquet|csv]``: the scored responses as one table."""

from __future__ import annotations

from pathlib import Path

import typer

from ipb.cli._app import _fail, app, err
from ipb.errors import IpbError


@app.command()
def export(
    results: Path = typer.Argument(..., help="A results folder written by ipb score (holds responses.jsonl)."),
    out: Path = typer.Option(..., "--out", "-o", help="The table to write (its folder is made if missing)."),
    format: str = typer.Option("parquet", "--format", "-f", help="parquet (needs pyarrow: ipb[export]) or csv."),
) -> None:
    """Write one row per response x target with every metric, flag and status, and the item's card,
    layer, investor, topology and condition (query it with pandas or DuckDB)."""
    from ipb._files import check_writable, refuse_overwriting
    from ipb.scoring.export import write_export

    try:
        refuse_overwriting({"--out": out}, [("results' responses", results / "responses.jsonl"),
                                            ("results' summary", results / "summary.json")], command="export")
        check_writable({"--out": out})  # s57fixio: a folder where no file can be made, named with its flag
        n = write_export(results, out, format=format)
    except IpbError as exc:
        raise _fail(exc) from None
    err.print(f"wrote {n} row(s) to {out}", markup=False)
