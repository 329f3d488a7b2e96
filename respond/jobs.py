"""The job runner shared by model runs, judge passes and synthetic respondents.

A :class:`Job` is one (item, condition) unit of work with a ``check`` that says
whether an existing record is still good and a ``work`` that makes a new one.
:func:`run_jobs` resumes an output file, runs what is missing on a thread pool,
appends each record as it completes and rewrites the file atomically at the
end. Split out of ``run.py`` by concern (issue 12, module sizes); behaviour
unchanged.
"""

from __future__ import annotations

import concurrent.futures as cf
import html
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from ipb.respond.client import Secrets, _short, scrub_record
from ipb.respond.records import (
    AppendWriter,
    RunError,
    dumps_record,
    ordered,
    output_lock,
    read_output,
    validate_record,
    write_atomic,
)

__all__ = ["Job", "RunResult", "run_jobs"]


@dataclass
class Job:
    """One record to produce.

    ``check(record)`` judges a record an earlier run left for this key:
    ``"done"`` (keep it, skip the job), ``"redo"`` (replace it), or a
    sentence saying why it conflicts with this run. ``work(previous)``
    returns the new record (``previous`` is the set-aside record, or None)
    and, when the whole run must stop, why.
    """

    key: tuple[str, str]
    check: Callable[[Mapping[str, Any]], str]
    work: Callable[[Mapping[str, Any] | None], tuple[dict[str, Any], str | None]]


@dataclass
class RunResult:
    """What a run did."""

    out: Path
    total: int
    skipped: int = 0
    ok: int = 0
    errors: int = 0
    cached: int = 0
    judged: int = 0
    judge_errors: int = 0
    fatal: str | None = None
    dropped: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: How many error records each (condition, error text) accounts for, in the order first met.
    error_reasons: dict[tuple[str, str], int] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        """Every job has an ok record and nothing stopped the run."""
        return self.fatal is None and self.errors == 0 and self.judge_errors == 0

    def summary(self) -> str:
        parts = [f"{self.total} record(s)", f"{self.ok} ok", f"{self.errors} error(s)", f"{self.cached} from cache",
                 f"{self.skipped} kept from an earlier run"]
        if self.judged or self.judge_errors:
            parts.append(f"{self.judged} judged, {self.judge_errors} judge error(s)")
        return ", ".join(parts)

    def error_lines(self, limit: int = 3) -> list[str]:
        """Why records failed, most frequent first: ``"20 x condition B: <error>"``, at most ``limit`` lines.

        The closing count alone ("20 error(s)") sent a new user into the responses file to
        learn that condition B refused an investor the registry lacks (s34user).

        >>> r = RunResult(out=Path("r.jsonl"), total=3, errors=3,
        ...               error_reasons={("B", "unknown investor"): 2, ("A", "HTTP 500"): 1})
        >>> r.error_lines()
        ['2 x condition B: unknown investor', '1 x condition A: HTTP 500']
        >>> r.error_lines(limit=1)
        ['2 x condition B: unknown investor', '... and 1 record(s) failing for 1 other reason(s): see the error field of each record']
        """
        ranked = sorted(self.error_reasons.items(), key=lambda kv: -kv[1])
        lines = [f"{n} x condition {cond}: {why}" for (cond, why), n in ranked[:limit]]
        rest = ranked[limit:]
        if rest:
            lines.append(f"... and {sum(n for _, n in rest)} record(s) failing for {len(rest)} other reason(s): "
                         "see the error field of each record")
        return lines


def _progress(console: Console | None, label: str) -> Progress:
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=console is None,
        transient=False,
    )


def run_jobs(
    jobs: Sequence[Job],
    out: str | Path,
    *,
    concurrency: int = 4,
    overwrite: bool = False,
    foreign: Callable[[Mapping[str, Any]], str | None] | None = None,
    secrets: Secrets | None = None,
    console: Console | None = None,
    label: str = "responding",
    on_record: Callable[[Mapping[str, Any], RunResult], None] | None = None,
) -> RunResult:
    """Produce every job's record into ``out``, resuming what an earlier run left.

    Parameters
    ----------
    jobs : sequence of Job
        Keys must be unique; the final file follows their order.
    foreign : callable, optional
        For a record in ``out`` that matches no job: None to keep it, or why
        it conflicts (default: keep).
    secrets : Secrets
        Scrubbed from every record written, but not from the model's answer
        (:func:`ipb.respond.client.scrub_record`).
    console : rich Console, optional
        Where the progress bar goes (None: no bar).
    on_record : callable, optional
        Called in the writing thread after each record is written.

    Raises
    ------
    RunError
        ``out`` holds records that conflict with this run (unless
        ``overwrite``), or another run holds its lock.
    LoadError
        ``out`` is not a response file.
    """
    path = Path(out)
    secrets = secrets or Secrets()
    by_key = {job.key: job for job in jobs}
    if len(by_key) != len(jobs):
        raise RunError("two jobs share an (item, condition) key", rule="internal")
    result = RunResult(path, len(jobs))
    with output_lock(path):
        existing = read_output(path) if path.exists() and not overwrite else None
        kept: dict[Any, Mapping[str, Any]] = {}
        previous: dict[Any, Mapping[str, Any]] = {}
        done: set[Any] = set()
        if existing is not None:
            result.dropped = list(existing.dropped)
            kept, previous, done = _sort_existing(path, existing.records, [_record_key(r) for r in existing.records],
                                                  {key: job.check for key, job in by_key.items()},
                                                  None if foreign is None else lambda key, record: foreign(record))
        # Records to be redone stay in the file until their replacement is written,
        # so a run interrupted before then loses nothing (readers take the last
        # record of a key; the final rewrite keeps one).
        write_atomic(path, (dumps_record(scrub_record(r, secrets)) for r in [*kept.values(), *previous.values()]))
        result.skipped = len(done)
        written: list[Mapping[str, Any]] = list(kept.values())
        pending = [job for job in jobs if job.key not in done]
        stop = threading.Event()
        interrupted = False
        with _progress(console, label) as progress, AppendWriter(path) as writer:
            task = progress.add_task(label, total=len(jobs), completed=result.skipped, status="")
            pool = cf.ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="ipb-respond")

            def guarded(job: Job) -> tuple[dict[str, Any], str | None] | None:
                if stop.is_set():
                    return None
                outcome = job.work(previous.get(job.key))
                if outcome[1] is not None:
                    stop.set()  # before this worker takes the next job
                return outcome

            futures = {pool.submit(guarded, job): job for job in pending}
            try:
                for future in cf.as_completed(futures):
                    if future.cancelled():
                        continue
                    outcome = future.result()
                    if outcome is None:
                        continue
                    record, fatal = outcome
                    problems = validate_record(record)
                    if problems:
                        raise RunError(f"internal error: a record breaks the response schema: {'; '.join(problems[:3])}",
                                       rule="internal")
                    writer.write(dumps_record(scrub_record(record, secrets)))
                    written.append(record)
                    _count(result, record)
                    if on_record is not None:
                        on_record(record, result)
                    progress.update(task, advance=1, status=f"ok {result.ok} err {result.errors} cached {result.cached}")
                    if fatal is not None and result.fatal is None:
                        result.fatal = secrets.scrub_error(fatal)
                        stop.set()
                        for f in futures:
                            f.cancel()
            except KeyboardInterrupt:
                interrupted = True
                stop.set()
                raise
            finally:
                pool.shutdown(wait=not interrupted, cancel_futures=True)
        if not interrupted:
            keys = [job.key for job in jobs]
            replaced = {(str(r["item_id"]), str(r["condition"])) for r in written}
            written.extend(r for k, r in previous.items() if k not in replaced)
            write_atomic(path, (dumps_record(scrub_record(r, secrets)) for r in ordered(written, keys)))
    return result


def _record_key(record: Mapping[str, Any]) -> tuple[str, str]:
    return (str(record["item_id"]), str(record["condition"]))


def _sort_existing(
    path: Path,
    records: Sequence[Mapping[str, Any]],
    keys: Sequence[Any],
    checks: Mapping[Any, Callable[[Mapping[str, Any]], str]],
    foreign: Callable[[Any, Mapping[str, Any]], str | None] | None,
) -> tuple[dict[Any, Mapping[str, Any]], dict[Any, Mapping[str, Any]], set[Any]]:
    """Sort what an earlier run left (``records``, their ``keys``; the last record of a key counts).

    Returns ``(kept, previous, done)``: the records to keep as they are (this
    run's finished ones, and those of no key of this run that ``foreign``
    accepts; ``foreign(key, record)`` returns None or why it conflicts), the
    records to redo, and the keys of this run already done.

    Raises
    ------
    RunError
        A record conflicts with this run (``checks[key]`` or ``foreign`` says
        why); the error names the first three.
    """
    last: dict[Any, Mapping[str, Any]] = dict(zip(keys, records))
    kept: dict[Any, Mapping[str, Any]] = {}
    previous: dict[Any, Mapping[str, Any]] = {}
    done: set[Any] = set()
    conflicts: list[str] = []
    for key, record in last.items():
        check = checks.get(key)
        if check is None:
            why = foreign(key, record) if foreign is not None else None
            if why is None:
                kept[key] = record
            else:
                conflicts.append(why)
            continue
        verdict = check(record)
        if verdict == "done":
            kept[key] = record
            done.add(key)
        elif verdict == "redo":
            previous[key] = record
        else:
            conflicts.append(verdict)
    if conflicts:
        shown = "; ".join(conflicts[:3]) + (f"; and {len(conflicts) - 3} more" if len(conflicts) > 3 else "")
        raise RunError(f"{path} holds {len(conflicts)} record(s) made with other settings: {shown}. "
                       "Write to another --out, or pass --overwrite to replace the file", file=str(path),
                       rule="resume")
    return kept, previous, done


_HTML = re.compile(r"(?i)<(?:!doctype|html|head|body|title)\b")
_HTML_DROPPED = re.compile(r"(?is)<(script|style)\b.*?</\1\s*>|<!--.*?-->|<[^>]*>")


def error_reason(text: str, limit: int = 300) -> str:
    """A record's error text as one closing line shows it: on one line, an HTML error page's tags and scripts
    dropped, at most ``limit`` characters (a proxy's whole 502 page was printed under each of three reasons).

    >>> error_reason("server: HTTP 502: <!DOCTYPE html><html><head><title>502 Bad Gateway</title>"
    ...              "<style>b{}</style></head> <body><h1>Bad   Gateway</h1></body></html>")
    'server: HTTP 502: 502 Bad Gateway Bad Gateway'
    >>> error_reason("x" * 400, limit=10)
    'xxxxxxx...'
    """
    if _HTML.search(text):
        text = html.unescape(_HTML_DROPPED.sub(" ", text))  # (and its entities: "Service&nbsp;Unavailable")
    return _short(text, limit)  # on one line, cut as the client cuts its own error texts


def _count(result: RunResult, record: Mapping[str, Any]) -> None:
    if record.get("status") == "ok":
        result.ok += 1
    else:
        result.errors += 1
        key = (str(record.get("condition") or "?"), error_reason(str(record.get("error") or "no error text")))
        result.error_reasons[key] = result.error_reasons.get(key, 0) + 1
    if record.get("cached"):
        result.cached += 1
    judgment = record.get("judgment")
    if isinstance(judgment, Mapping):
        if judgment.get("status") == "error":
            result.judge_errors += 1
        else:
            result.judged += 1
