"""A response cache in SQLite, keyed on everything that shapes a response.

The key of a request is the SHA-256 of its canonical JSON: the model, the
server, every generation setting, the prompt hash, the item and the exact
messages (see :func:`ipb.respond.run.request_key`). A run with any
other setting therefore never finds a response made with these, and a re-run
with the same settings finds every response it already paid for.

Only successful responses are stored: the text, finish reason, token usage
and the latency measured when it was made. Requests' messages are not stored
(their hash is the key), and nothing in the cache comes from the
environment: the API key is never part of a key or a value.

The file is ``DIR/responses.sqlite3``, in WAL mode so that several runs may
share it; one connection serves every thread of a run behind a lock.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ipb.respond.records import RunError

__all__ = ["CachedResponse", "ResponseCache", "default_cache_dir", "CACHE_FILE"]

#: File name of the cache inside the cache folder.
CACHE_FILE = "responses.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    model TEXT NOT NULL,
    text TEXT NOT NULL,
    finish_reason TEXT,
    usage TEXT,
    latency_s REAL,
    request TEXT NOT NULL,
    created REAL NOT NULL
)
"""


def default_cache_dir() -> Path:
    """``$IPB_CACHE_DIR``, else ``$XDG_CACHE_HOME/ipb``, else ``~/.cache/ipb``."""
    if os.environ.get("IPB_CACHE_DIR"):
        return Path(os.environ["IPB_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ipb"


@dataclass(frozen=True)
class CachedResponse:
    """A response found in the cache."""

    text: str
    finish_reason: str | None
    usage: dict[str, int | None] | None
    latency_s: float | None


def _to_sql(text: str) -> str | bytes:
    """``text`` as SQLite can store it: a string, or its bytes when it holds a lone surrogate.

    A model's answer may carry one (sent as the JSON escape ``\\ud800``); SQLite's text is UTF-8, which cannot
    hold it, so such a text is kept as a blob of its ``surrogatepass`` bytes and :func:`_from_sql` gives it back.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")
    return text


def _from_sql(value: str | bytes) -> str:
    """The text :func:`_to_sql` stored."""
    return value.decode("utf-8", "surrogatepass") if isinstance(value, bytes) else value


#: The columns :data:`_SCHEMA` makes, which every lookup and store reads or writes.
_COLUMNS = ("key", "kind", "model", "text", "finish_reason", "usage", "latency_s", "request", "created")


def _cached(row: tuple[Any, ...]) -> CachedResponse | None:
    """The response of a row ``(text, finish_reason, usage, latency_s)``, or None for a row that ipb's
    :meth:`ResponseCache.put` did not write as it stands (a text that is not text, usage that is not a JSON object
    of whole numbers, a latency that is not a finite number of seconds).

    >>> _cached(("Final verdict: INVEST", "stop", '{"total_tokens": 2}', 0.5))
    CachedResponse(text='Final verdict: INVEST', finish_reason='stop', usage={'total_tokens': 2}, latency_s=0.5)
    >>> [_cached(r) for r in [(None, None, None, None), ("x", None, "not json", None), ("x", None, None, -5.0)]]
    [None, None, None]
    """
    text, finish_reason, usage_text, latency = row
    if not isinstance(text, (str, bytes)) or not (finish_reason is None or isinstance(finish_reason, str)):
        return None
    usage: dict[str, int | None] | None = None
    if usage_text:
        try:
            usage = json.loads(usage_text)
        except (TypeError, ValueError, RecursionError):
            return None
        if not isinstance(usage, dict) or not all(
                isinstance(k, str) and (v is None or (isinstance(v, int) and not isinstance(v, bool)))
                for k, v in usage.items()):
            return None
    if latency is not None and not (isinstance(latency, (int, float)) and math.isfinite(latency) and latency >= 0):
        return None
    try:
        return CachedResponse(_from_sql(text), finish_reason, usage, latency)
    except UnicodeDecodeError:  # a blob that is not the surrogatepass bytes put stores
        return None


class ResponseCache:
    """Responses by request key, in ``DIR/responses.sqlite3``.

    Parameters
    ----------
    directory : path
        Created if missing.

    Raises
    ------
    RunError
        The folder or the database cannot be opened.
    """

    def __init__(self, directory: str | Path) -> None:
        self.path = Path(directory) / CACHE_FILE
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), timeout=30.0, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(_SCHEMA)
            columns = {str(row[1]) for row in self._db.execute("PRAGMA table_info(responses)")}
        except (OSError, sqlite3.Error) as exc:
            raise RunError(f"cannot open the response cache {self.path}: {exc}", file=str(self.path), rule="cache") from None
        missing = [name for name in _COLUMNS if name not in columns]
        if missing:
            # another tool's or an edited file: every read would fail on the first lookup (s48break: a traceback)
            self._db.close()
            raise RunError(f"the response cache {self.path} is not one ipb wrote: its table 'responses' has no column "
                           f"{', '.join(missing)}; give another --cache-dir, remove the file, or run with --no-cache",
                           file=str(self.path), rule="cache")
        self._lock = threading.Lock()
        self.hits = 0
        self.stores = 0
        #: rows found but not readable as a response (edited by hand or by another tool): asked again, and replaced
        self.unreadable = 0

    def get(self, key: str) -> CachedResponse | None:
        """The response stored under ``key``, or None."""
        with self._lock:
            row = self._db.execute("SELECT text, finish_reason, usage, latency_s FROM responses WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        found = _cached(row)
        if found is None:
            self.unreadable += 1
            return None
        self.hits += 1
        return found

    def put(self, key: str, *, kind: str, model: str, text: str, finish_reason: str | None,
            usage: Mapping[str, Any] | None, latency_s: float | None, request: Mapping[str, Any]) -> None:
        """Store a successful response (replacing any under the same key)."""
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO responses (key, kind, model, text, finish_reason, usage, latency_s, request, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (key, kind, _to_sql(model), _to_sql(text), finish_reason,
                 json.dumps(dict(usage)) if usage is not None else None, latency_s,
                 json.dumps(dict(request), sort_keys=True, default=str), time.time()),
            )
            self.stores += 1

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
