"""``ipb schema``: the JSON Schemas of the files ipb reads and writes, for editors and validators.

    ipb schema --out DIR [NAME ...]
    ipb schema NAME            # one schema to standard output

NAME is one of :data:`SCHEMAS` (default: all of them). Each schema declares
its draft (``$schema``, 2020-12) and a stable ``$id`` (``urn:ipb:schema:NAME``)
that does not depend on where ipb is installed. With ``--out``, the command
prints the modeline to put on the first line of a card or scenario so that
an editor with the YAML language server validates it from any folder.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Optional

import typer

from ipb._files import write_texts_atomic
from ipb.cli._app import _write_failed, app, err, out

#: Schema name -> what it describes.
SCHEMAS: dict[str, str] = {
    "card": "a framework card (YAML)",
    "scenario": "a scenario (YAML)",
    "item": "one line of an items file written by ipb perturb",
    "response": "one line of a responses file written by ipb respond",
    "score_record": "one line of responses.jsonl written by ipb score",
    "summary": "summary.json written by ipb score",
    "perturb_report": "the --report JSON written by ipb perturb",
}


def schema_text(name: str) -> str:
    """The text of the bundled schema ``NAME`` (``grammar/NAME.schema.json``)."""
    return resources.files("ipb.grammar").joinpath(f"{name}.schema.json").read_text(encoding="utf-8")


@app.command()
def schema(
    names: Optional[list[str]] = typer.Argument(None, help="Schemas to write: " + ", ".join(SCHEMAS) + " (default: all)."),
    out_dir: Optional[Path] = typer.Option(None, "--out", "-o", help="Folder to write NAME.schema.json files into (created if missing)."),
) -> None:
    """Write the card, scenario, item and results JSON Schemas (stable $id, declared draft)."""
    chosen = list(names or SCHEMAS)
    unknown = [n for n in chosen if n not in SCHEMAS]
    if unknown:
        err.print(f"ipb schema: unknown schema {unknown[0]!r}; schemas: {', '.join(SCHEMAS)}", markup=False)
        raise typer.Exit(code=2)
    if out_dir is None:
        if len(chosen) != 1:
            err.print("ipb schema: give --out DIR to write several schemas, or one NAME to print it", markup=False)
            raise typer.Exit(code=2)
        out.print(schema_text(chosen[0]).rstrip("\n"), markup=False)
        return
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        write_texts_atomic({out_dir / f"{n}.schema.json": schema_text(n) for n in chosen})
    except OSError as exc:  # s57fixio: "--out: write error: ..." as every writing command (was "PATH: cannot write")
        raise _write_failed(exc, out_dir, "--out") from None
    for n in chosen:
        err.print(f"wrote {out_dir / f'{n}.schema.json'}: {SCHEMAS[n]}", markup=False)
    where = out_dir.resolve()
    for n in ("card", "scenario"):
        if n in chosen:
            err.print(f"{n} modeline (first line of any {n} file, in any folder):\n"
                      f"# yaml-language-server: $schema={(where / f'{n}.schema.json').as_uri()}", markup=False)
