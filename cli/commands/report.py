"""``ipb report``: a self-contained HTML report of a scored run.

    ipb report RESULTS_DIR [--out report.html] [--items ITEMS.jsonl] [--responses RESPONSES.jsonl ...]
               [--title TEXT] [--generated TEXT] [--max-responses N]

RESULTS_DIR is what ``ipb score --out DIR`` wrote (``summary.json`` and
``responses.jsonl``). The items and responses files the run scored are found
through the summary (give ``--items`` / ``--responses`` when they moved; for a
run that scored several responses files, every one, in the order scored);
without them the drill-down shows parsed traces only. Exit status 1 when the
results cannot be read or the report cannot be written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ipb.cli._app import _fail, app, err
from ipb.errors import IpbError


@app.command()
def report(
    results_dir: Path = typer.Argument(..., help="Folder written by ipb score --out (summary.json, responses.jsonl)."),
    out_path: Path = typer.Option(Path("report.html"), "--out", "-o", help="HTML file to write (atomically)."),
    items: Optional[Path] = typer.Option(None, "--items", help="Items file that was scored (default: the one the summary names)."),
    responses: list[Path] = typer.Option([], "--responses", help="Responses file that was scored (default: the one the summary names); repeat it, in the order scored, for a run that scored several."),
    title: Optional[str] = typer.Option(None, "--title", help="Report title."),
    generated: Optional[str] = typer.Option(None, "--generated", help="A date or label to print in the header (none by default, so the same results give the same file)."),
    max_responses: Optional[int] = typer.Option(None, "--max-responses", min=0, help="Keep only the first N responses in the drill-down."),
    cards_dir: list[Path] = typer.Option([], "--cards", help="Folder of card files (repeatable): looked up before IPB_CARDS, the items' own copies (ipb-cards/) and the bundled cards; a card whose sha256 differs from the item's is refused."),
) -> None:
    """Write one self-contained HTML report (tables, charts, per-response drill-down) of RESULTS_DIR."""
    from ipb._files import check_writable, refuse_overwriting
    from ipb.engine.registry import use_cards
    from ipb.report.html import write_report

    try:
        # (an --out over the results' own files is refused by write_report, which reads what --out holds)
        refuse_overwriting({"--out": out_path}, [("items file", items), *(("responses file", r) for r in responses)],
                           command="report")
        check_writable({"--out": out_path})  # s57fixio: a folder where no file can be made, named with its flag
        use_cards(cards_dir)
        data = write_report(results_dir, out_path, items=items, responses=responses or None, max_responses=max_responses,
                            title=title, generated=generated)
    except IpbError as exc:
        raise _fail(exc) from None
    err.print(f"wrote {out_path}: {len(data.models)} model(s), {len(data.responses)} response(s) in the drill-down",
              markup=False)
