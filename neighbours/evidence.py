"""Decision-time evidence: a versioned document store with availability cutoffs.

Investor's Last Exam (seed 003, §2.1 and Appendix B.2) freezes what an agent
may know: every document *version* carries the time it became available, and a
task releases only the versions whose availability time **precedes the earlier
of the task's cutoff and its authorized access limit**. Two further rules:

* a record stamped with a date only (no time of day) becomes available when
  that date *ends*, i.e. at midnight starting the next day;
* discovery returns the latest eligible version of each document by default;
  *history mode* returns every eligible version.

The same rule serves perturbation: an operator that moves a scenario in time
(temporal displacement, FM-6) asks :func:`decision_time_violations` or
:func:`require_decision_time` whether a fact could have been known at the
scenario's date, and refuses it otherwise.

Timestamps
----------
``"2026-03-31"`` is date-only. ``"2026-03-31T16:00:00-04:00"`` and
``"2026-03-31T20:00:00Z"`` are instants; a time without a zone is refused
(two readers could place it differently). When a date ends is decided in the
store's ``date_timezone`` (UTC unless chosen otherwise). A *cutoff* or
*access limit* given as a date means the end of that date, so a date-only
record dated on the cutoff date itself is **not** eligible: it became
available exactly at the cutoff, not before it.

>>> store = EvidenceStore()
>>> _ = store.add("tsla-deliveries", "v1", "2024-07-01", content="Q2 deliveries 443,956")
>>> _ = store.add("tsla-deliveries", "v2", "2024-07-03T09:00:00Z", content="revised: 443,956 (final)")
>>> [d.version for d in store.query("2024-07-02")]
['v1']
>>> [d.version for d in store.query("2024-07-01")]  # dated the cutoff day: not yet available
[]
>>> [d.version for d in store.query("2024-07-04", history=True)]
['v1', 'v2']

The decision-time rule itself lives in :mod:`ipb.engine.decision_time` and the strict
JSON reader in :mod:`ipb.engine._json`; both are re-used here.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence


from ipb.errors import IpbError, LoadError

from ipb.engine._json import Item, _group, _schema, json_value, load_items
from ipb.engine.decision_time import _UTC, DateLike, Stamp, _zone, eligible_before, parse_stamp

__all__ = [
    "EvidenceStore",
    "DocumentVersion",
    "load_evidence",
    "evidence_schema",
    "STORE_VERSION",
]

#: Version of the store's SQLite layout (kept in its ``meta`` table).
STORE_VERSION = 1

# =========================================================================== the store


@dataclass(frozen=True)
class DocumentVersion:
    """One version of one document, as stored."""

    doc_id: str
    version: str
    available: Stamp
    content: str
    title: str | None = None
    category: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping (the ``evidence.query`` output's document entries)."""
        return {
            "id": self.doc_id,
            "version": self.version,
            "available_at": self.available.text,
            "available_utc": self.available.key,
            "precision": self.available.precision,
            "category": self.category,
            "title": self.title,
            "content": self.content,
            "metadata": self.metadata,
        }


_SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS versions (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    doc_id TEXT NOT NULL,
    version TEXT NOT NULL,
    available_utc TEXT NOT NULL,
    available_text TEXT NOT NULL,
    precision TEXT NOT NULL CHECK (precision IN ('date', 'datetime')),
    category TEXT,
    title TEXT,
    content TEXT NOT NULL,
    metadata TEXT NOT NULL,
    UNIQUE (doc_id, version)
);
CREATE INDEX IF NOT EXISTS versions_by_time ON versions (doc_id, available_utc, seq);
"""


class EvidenceStore:
    """A SQLite store of document versions with availability times.

    Parameters
    ----------
    path:
        The database file, created if missing; ``":memory:"`` (the default)
        for a throw-away store.
    date_timezone:
        IANA zone in which date-only stamps end. Fixed when the store is
        created; reopening with another zone is an error.

    Raises
    ------
    LoadError
        The file is not an evidence store of this version, or the zone
        differs from the one the store was created with.
    """

    def __init__(self, path: str | Path = ":memory:", *, date_timezone: str | None = None) -> None:
        self.path = str(path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None)
            self._db.executescript(_SCHEMA_SQL)
            meta = dict(self._db.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.DatabaseError as exc:
            raise LoadError(f"{self.path} is not an evidence store: {exc}", file=self.path, rule="store") from None
        if not meta:
            zone = date_timezone or "UTC"
            _zone(zone)
            self._db.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [("store_version", str(STORE_VERSION)), ("date_timezone", zone)],
            )
            meta = {"store_version": str(STORE_VERSION), "date_timezone": zone}
        if meta.get("store_version") != str(STORE_VERSION):
            raise LoadError(f"{self.path} is an evidence store of version {meta.get('store_version')}; "
                            f"this ipb reads version {STORE_VERSION}", file=self.path, rule="store")
        if date_timezone is not None and date_timezone != meta["date_timezone"]:
            raise LoadError(f"{self.path} was created with date_timezone {meta['date_timezone']!r}, not {date_timezone!r}",
                            file=self.path, rule="timezone")
        self.date_timezone = meta["date_timezone"]

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "EvidenceStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -------------------------------------------------------------

    def add(
        self,
        doc_id: str,
        version: str,
        available_at: DateLike,
        *,
        content: str = "",
        title: str | None = None,
        category: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> DocumentVersion:
        """Store one version; returns it.

        Raises
        ------
        LoadError
            Rule ``timestamp`` for a bad stamp, ``duplicate-version`` when the
            store already holds this ``(doc_id, version)``.
        """
        stamp = parse_stamp(available_at, date_timezone=self.date_timezone)
        meta = dict(metadata or {})
        try:
            self._db.execute(
                "INSERT INTO versions (doc_id, version, available_utc, available_text, precision, category, title, content, metadata)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (doc_id, version, stamp.key, stamp.text, stamp.precision, category, title, content,
                 json.dumps(json_value(meta), sort_keys=True, ensure_ascii=False)),
            )
        except sqlite3.IntegrityError:
            raise LoadError(f"document {doc_id!r} already has a version {version!r} in the store",
                            rule="duplicate-version", name=version) from None
        return DocumentVersion(doc_id, version, stamp, content, title, category, meta)

    def import_file(self, path: str | Path) -> int:
        """Import an evidence file whole, or not at all; returns the number of versions added.

        Raises
        ------
        ErrorGroup or LoadError
            Every problem in the file (syntax, schema, bad time stamps,
            versions already stored), JSON Lines ones naming the record
            number; nothing is stored then.
        """
        loaded = load_items(path, schema="evidence.schema.json", item_def="document_version",
                            list_key="documents", what="a document version")
        return self.import_items(loaded.items, loaded.errors)

    def import_items(self, items: Iterable[Item], prior: Sequence[IpbError] = ()) -> int:
        """Add records in one transaction: all or none.

        ``prior`` are problems already found in the same file (schema
        errors); with any, nothing is stored and they are raised together
        with the records' own.

        Raises
        ------
        ErrorGroup or LoadError
            Every bad record (bad stamp, duplicate version), each naming its
            record number; nothing is stored then.
        """
        errors: list[IpbError] = list(prior)
        count = 0
        self._db.execute("BEGIN")
        try:
            for item in items:
                d = item.data
                try:
                    self.add(
                        d["id"], str(d["version"]), d["available_at"], content=d.get("content", ""),
                        title=d.get("title"), category=d.get("category"), metadata=d.get("metadata"),
                    )
                    count += 1
                except LoadError as exc:
                    field_name = "available_at" if exc.rule in ("timestamp", "timezone") else "version"
                    errors.append(item.error(exc.message, (field_name,), rule=exc.rule, name=exc.name))
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        if errors:
            self._db.execute("ROLLBACK")
            raise _group(errors)
        self._db.execute("COMMIT")
        return count

    # -- reading -------------------------------------------------------------

    def query(
        self,
        cutoff: DateLike,
        *,
        access_limit: DateLike | None = None,
        history: bool = False,
        doc_ids: Sequence[str] | None = None,
        category: str | None = None,
        search: str | None = None,
    ) -> list[DocumentVersion]:
        """The versions an agent may see at ``cutoff``.

        Parameters
        ----------
        cutoff, access_limit:
            Only versions whose availability strictly precedes
            ``min(cutoff, access_limit)`` are eligible (see the module notes
            on dates).
        history:
            False: the latest eligible version of each document (latest by
            availability, then by the order collected). True: every eligible
            version.
        doc_ids, category, search:
            Optional filters: these documents only; this source category;
            a case-insensitive substring of title or content.

        Returns
        -------
        list of DocumentVersion
            Ordered by document id, then availability, then collection order.
        """
        bound = eligible_before(cutoff, access_limit, date_timezone=self.date_timezone)
        where = ["available_utc < ?"]
        args: list[Any] = [bound.key]
        if doc_ids:
            where.append(f"doc_id IN ({', '.join('?' for _ in doc_ids)})")
            args.extend(doc_ids)
        if category is not None:
            where.append("category = ?")
            args.append(category)
        if search:
            where.append("instr(lower(coalesce(title, '') || ' ' || content), lower(?)) > 0")
            args.append(search)
        eligible = f"SELECT * FROM versions WHERE {' AND '.join(where)}"
        if history:
            sql = f"{eligible} ORDER BY doc_id, available_utc, seq"
        else:
            sql = (
                f"SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY doc_id ORDER BY available_utc DESC, seq DESC)"
                f" AS rank FROM ({eligible})) WHERE rank = 1 ORDER BY doc_id"
            )
        return [self._row(row) for row in self._db.execute(sql, args)]

    def latest(self, doc_id: str, cutoff: DateLike, *, access_limit: DateLike | None = None) -> DocumentVersion | None:
        """The latest version of ``doc_id`` eligible at ``cutoff``, or None."""
        found = self.query(cutoff, access_limit=access_limit, doc_ids=[doc_id])
        return found[0] if found else None

    def versions(self) -> list[DocumentVersion]:
        """Every stored version, regardless of time (for inspection and tests)."""
        return [self._row(r) for r in self._db.execute("SELECT * FROM versions ORDER BY doc_id, available_utc, seq")]

    def _row(self, row: tuple[Any, ...]) -> DocumentVersion:
        _, doc_id, version, utc, text, precision, category, title, content, metadata = row[:10]
        instant = dt.datetime.strptime(utc, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=_UTC)
        return DocumentVersion(doc_id, version, Stamp(instant, precision, text), content, title, category,
                               json.loads(metadata))


def evidence_schema() -> dict[str, Any]:
    """The JSON Schema of evidence files, shipped as ``grammar/evidence.schema.json``."""
    return _schema("evidence.schema.json")


def load_evidence(path: str | Path) -> list[Item]:
    """Read an evidence file (JSON Lines of versions, or a YAML/JSON document with ``documents:``).

    Raises
    ------
    LoadError or ErrorGroup
        Syntax and schema errors, JSON Lines ones naming the record number;
        bad time stamps are reported when the records are imported.
    """
    loaded = load_items(path, schema="evidence.schema.json", item_def="document_version",
                        list_key="documents", what="a document version")
    loaded.raise_errors()
    return loaded.items
