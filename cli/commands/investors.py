"""``ipb investors``: the investor registry (schools, active periods, career boundaries, cards)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from ipb.cli._app import INVESTORS_HELP, RunFormat, _fail, app, err, out, use_investor_files
from ipb.engine.registry import use_cards
from ipb.engine.investors import Investor, check_cards, load_investors, schools, unknown_card_warnings
from ipb.errors import ErrorGroup, IpbError


def _as_dict(investor: Investor) -> dict[str, Any]:
    return {
        "id": investor.id,
        "name": investor.name,
        "aliases": list(investor.aliases),
        "kind": investor.kind,
        "organisation": investor.organisation,
        "school": investor.school,
        "distinctive_phrases": list(investor.distinctive_phrases),
        "phrases_source": investor.phrases_source,
        "active": {"start": str(investor.active_start),
                   "end": None if investor.active_end is None else str(investor.active_end)},
        "career_boundaries": [
            {"date": str(b.date), "event": b.event, "description": b.description, "corpus_filter": b.corpus_filter}
            for b in investor.career_boundaries
        ],
        "cards": list(investor.cards),
    }


@app.command()
def investors(
    format: RunFormat = typer.Option(RunFormat.table, "--format", "-f", help="table: one row per investor; json: the full registry."),
    check: bool = typer.Option(False, "--check", help="Also cross-check the registry with the cards (bundled, and for your own file's investors those in --cards / IPB_CARDS); exit 1 on a mismatch."),
    investor_files: list[Path] = typer.Option([], "--investors", help=INVESTORS_HELP + " Listed after the bundled ones."),
    cards_dir: list[Path] = typer.Option([], "--cards", help="Folder of card files in which the card ids your own registry file lists are looked up for --check (repeatable; then IPB_CARDS, then the bundled cards)."),
) -> None:
    """List the investor registry (frameworks/investors.yaml): schools, active periods, boundaries and cards.

    With ``--investors FILE`` the file's investors follow the bundled ones, so an author sees the investor a card of
    their own registers, as ``ipb check``, ``ipb score`` and ``ipb respond`` will read it. The table's caption names
    the schools a registry file may use (the FM-5 clusters). ``--check`` finds the cards your file lists as
    ``ipb check`` does (``--cards DIR``, ``IPB_CARDS``), and a problem with your investor is located in your file.
    """
    try:
        use_cards(cards_dir)
        use_investor_files(investor_files)
        registry = load_investors()
        problems = check_cards() if check else []
        # without --check, a card your file lists that no search finds is still said, as ipb check says it
        warnings = [] if check else unknown_card_warnings()
    except IpbError as exc:
        raise _fail(exc) from None
    for warning in warnings:
        err.print(warning.render(), markup=False)
    if format is RunFormat.json:
        out.print(json.dumps([_as_dict(i) for i in registry.values()], indent=2), markup=False)
    else:
        table = Table(title=f"{len(registry)} investors", title_justify="left",
                      caption="schools: " + ", ".join(schools()), caption_justify="left")
        for column in ("id", "name", "kind", "school", "active", "boundaries", "cards"):
            table.add_column(column, justify="right" if column in ("boundaries", "cards") else "left")
        for i in registry.values():
            end = "" if i.active_end is None else str(i.active_end)
            table.add_row(i.id, i.name, i.kind, i.school, f"{i.active_start} - {end}",
                          str(len(i.career_boundaries)), str(len(i.cards)))
        out.print(table)
    if problems:
        raise _fail(ErrorGroup(problems))
