"""``ipb evidence``: the decision-time evidence store (Investor's Last Exam, Appendix B.2).

    ipb evidence import DB FILE ... [--date-timezone ZONE]
    ipb evidence query DB --cutoff T [--access-limit L] [--history] [--id DOC ...] [--category C] [--search TEXT] [-o OUT]
    ipb evidence check-dates --as-of T [--access-limit L] NAME=DATE ...
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ipb.cli._app import app
from ipb.cli.commands.records import OUTPUT, OUTPUT_VERSION, emit_json, fail
from ipb.engine.decision_time import decision_time_violations, eligible_before
from ipb.neighbours.evidence import EvidenceStore
from ipb.errors import IpbError, LoadError

evidence_app = typer.Typer(no_args_is_help=True, help="Versioned evidence with availability times; cutoff queries.")
app.add_typer(evidence_app, name="evidence")


@evidence_app.command("import")
def import_(
    db: Path = typer.Argument(..., help="The SQLite store (created if missing)."),
    files: list[Path] = typer.Argument(..., help="Evidence files: .jsonl (one version a line), YAML or JSON."),
    date_timezone: Optional[str] = typer.Option(None, "--date-timezone", help="IANA zone in which dates end (new stores; UTC by default)."),
) -> None:
    """Add document versions to the store; each file is imported whole or not at all."""
    counts: list[dict[str, object]] = []
    try:
        with EvidenceStore(db, date_timezone=date_timezone) as store:
            for path in files:
                counts.append({"file": str(path), "imported": store.import_file(path)})
            zone = store.date_timezone
    except IpbError as exc:
        raise fail(exc) from None
    emit_json({"version": OUTPUT_VERSION, "kind": "evidence.import", "store": str(db), "date_timezone": zone,
               "files": counts, "imported": sum(int(str(c["imported"])) for c in counts)}, None)


@evidence_app.command("query")
def query(
    db: Path = typer.Argument(..., help="The SQLite store."),
    cutoff: str = typer.Option(..., "--cutoff", help="Decision time: YYYY-MM-DD (end of that day) or an ISO time with a zone."),
    access_limit: Optional[str] = typer.Option(None, "--access-limit", help="Authorized access limit; the earlier bound wins."),
    history: bool = typer.Option(False, "--history", help="Every eligible version, not only the latest of each document."),
    ids: list[str] = typer.Option([], "--id", help="Only these documents."),
    category: Optional[str] = typer.Option(None, "--category", help="Only this source category."),
    search: Optional[str] = typer.Option(None, "--search", help="Case-insensitive text in the title or content."),
    output: Optional[Path] = OUTPUT,
) -> None:
    """The document versions available before min(cutoff, access limit)."""
    try:
        if not db.exists():
            raise LoadError(f"no evidence store at {db}; create one with 'ipb evidence import'", file=str(db), rule="file")
        with EvidenceStore(db) as store:
            bound = eligible_before(cutoff, access_limit, date_timezone=store.date_timezone)
            found = store.query(cutoff, access_limit=access_limit, history=history, doc_ids=ids or None,
                                category=category, search=search)
    except IpbError as exc:
        raise fail(exc) from None
    emit_json({
        "version": OUTPUT_VERSION,
        "kind": "evidence.query",
        "cutoff": cutoff,
        "access_limit": access_limit,
        "eligible_before": bound.key,
        "mode": "history" if history else "latest",
        "documents": [d.to_dict() for d in found],
    }, output)


@evidence_app.command("check-dates")
def check_dates(
    as_of: str = typer.Option(..., "--as-of", help="The scenario's decision time."),
    facts: list[str] = typer.Argument(..., help="NAME=DATE for each dated fact, e.g. q2_revenue=2024-07-25."),
    access_limit: Optional[str] = typer.Option(None, "--access-limit"),
    date_timezone: str = typer.Option("UTC", "--date-timezone", help="IANA zone in which dates end."),
) -> None:
    """Which facts could not have been known at --as-of; exit 1 when any."""
    try:
        dated: dict[str, str] = {}
        for text in facts:
            name, sep, value = text.partition("=")
            if not sep or not name.strip():
                raise LoadError(f"expected NAME=DATE, got {text!r}", rule="usage")
            dated[name.strip()] = value.strip()
        bound = eligible_before(as_of, access_limit, date_timezone=date_timezone)
        found = decision_time_violations(dated, as_of, access_limit=access_limit, date_timezone=date_timezone)
    except IpbError as exc:
        raise fail(exc) from None
    emit_json({
        "version": OUTPUT_VERSION,
        "kind": "evidence.check_dates",
        "as_of": as_of,
        "eligible_before": bound.key,
        "refused": [{"name": v.name, "dated": v.stamp.text, "available_utc": v.stamp.key, "message": v.message} for v in found],
        "admitted": [name for name in dated if name not in {v.name for v in found}],
    }, None)
    if found:
        raise typer.Exit(code=1)
