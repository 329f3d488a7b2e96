"""``ipb export``: the scored responses of a results folder as one flat table.

One row per response x target (a target is one gold card: L7 items have one, L8 items one per
investor). Every row carries the response's model, condition, item, layer, record number,
status and reason (``condition_key`` is the canonical condition the summary groups by); the
target's card, investor, topology and status; its gold final verdict (``gold_verdict``, the GRP's
``investment_verdict``) and the final verdict read from the answer (``final_verdict``, empty where none was read);
every metric the
response and the target were scored on (``metric.NAME`` for the response-level value that
the summary's ``overall``/``model``/``condition``/``layer`` groups average, ``target.NAME``
for the target-level value its ``investor``/``topology``/``card`` groups average); and every
failure-mode flag (``flag.FM-k``: true, false, or empty where the detector does not apply).
A response with no target (an unusable record) is one row with empty target columns, so
nothing scored or failed is missing from the table. ``target_index`` is 0 on the first row
of each response: the response-level rows are exactly those. A refusal or parse failure carries,
in its metric columns, the worst value of every metric it was owed (``counted_failure`` true), as
``ipb score`` counts it in every mean by default; a summary written with ``--exclude-failures``
averages only the ``status == "scored"`` rows.

Formats: ``csv`` (standard library) and ``parquet`` (pyarrow, ``pip install 'ipb[export]'``).
Read the table with ``pandas.read_parquet`` or DuckDB (``docs/integrations.md`` has queries).
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import Any, Final, Iterable, Mapping

from ipb._files import write_bytes_atomic, write_text_atomic
from ipb.errors import LoadError

__all__ = ["EXPORT_VERSION", "FORMATS", "BASE_COLUMNS", "export_rows", "table_columns", "write_export"]

#: Version of the table's column layout (a column ``export_version`` carries it).
EXPORT_VERSION = 1
FORMATS = ("csv", "parquet")
#: The fixed columns, in order; metric and flag columns follow, sorted by name.
BASE_COLUMNS = ("export_version", "model", "condition", "condition_key", "item_id", "layer", "record", "status",
                "reason_code", "reason", "counted_failure", "n_targets", "target_index", "card", "investor", "topology", "target_status",
                "target_reason_code", "gold_verdict", "final_verdict")


def _records(path: Path) -> Iterable[tuple[int, Mapping[str, Any]]]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise LoadError(f"cannot read {path}: {exc.strerror or exc}", file=str(path), rule="file") from None
    except UnicodeDecodeError as exc:  # break43: a table exported over it read as a traceback
        raise LoadError(f"{path}: not UTF-8 text (byte {exc.start}); is it a table or another file written over the "
                        "scored responses? run ipb score again", file=str(path), rule="encoding") from None
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise LoadError(f"{path}:{number}: not a JSON record ({exc})", file=str(path), line=number,
                            rule="json") from None
        if not isinstance(record, Mapping) or record.get("kind") != "ipb.score.response":
            raise LoadError(f"{path}:{number}: not an ipb score record (kind 'ipb.score.response')",
                            file=str(path), line=number, rule="record")
        yield number, record


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _flag(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, Mapping) and isinstance(value.get("fired"), bool):
        return bool(value["fired"])
    return None


def export_rows(results: str | Path) -> list[dict[str, Any]]:
    """The rows of the table for the results folder ``results`` (``DIR/responses.jsonl``).

    Raises
    ------
    LoadError
        The folder has no readable ``responses.jsonl``, or a line is not an ``ipb score`` record
        (the error names the line).
    """
    path = Path(results) / "responses.jsonl"
    if not path.is_file():
        raise LoadError(f"no responses.jsonl in {results} (run ipb score --out {results} first)",
                        file=str(results), rule="file")
    rows = []
    for number, record in _records(path):
        base = {"export_version": EXPORT_VERSION, "record": record.get("record", number)}
        base.update({k: record.get(k) for k in ("model", "condition", "condition_key", "item_id", "layer", "status",
                                                "reason_code", "reason")})
        metrics = {f"metric.{k}": _number(v) for k, v in (record.get("metrics") or {}).items()}
        failed = record.get("status") != "scored" and isinstance(record.get("owed"), Mapping)
        if failed:
            # A failure's owed metrics at their worst value: what ipb score counts in every mean by default.
            for k, v in record["owed"].items():
                metrics.setdefault(f"metric.{k}", _number(v))
        base["counted_failure"] = bool(failed)
        flags = {f"flag.{k}": _flag(v) for k, v in (record.get("flags") or {}).items()}
        targets: list[Mapping[str, Any] | None] = [t for t in record.get("targets") or [] if isinstance(t, Mapping)]
        targets = targets or [None]
        for index, target in enumerate(targets):
            row = {**base, "n_targets": 0 if target is None else len(targets), "target_index": index, **metrics,
                   **flags}
            if target is not None:
                row.update({"card": target.get("card"), "investor": target.get("investor"),
                            "topology": target.get("topology"), "target_status": target.get("status"),
                            "target_reason_code": target.get("reason_code"),
                            # the target's gold final verdict and the one read from the answer (None: none stated or
                            # read; the gold is empty for records an ipb before s53 wrote), s53newuser finding 12
                            "gold_verdict": target.get("gold_verdict"),
                            "final_verdict": (target.get("parsed") or {}).get("final_verdict")
                            if isinstance(target.get("parsed"), Mapping) else None})
                row.update({f"target.{k}": _number(v) for k, v in (target.get("metrics") or {}).items()})
                if target.get("status") != "scored" and isinstance(target.get("owed"), Mapping):
                    for k, v in target["owed"].items():
                        row.setdefault(f"target.{k}", _number(v))
                for name in ("layer_composite", "w1_composite"):
                    if f"target.{name}" not in row and name in target:
                        row[f"target.{name}"] = _number(target.get(name))
                basp = target.get("basp_strict")
                if isinstance(basp, Mapping):
                    row.setdefault("target.basp_strict", _number(basp.get("composite")))
                    row.setdefault("target.basp_conjunction", _flag(basp.get("conjunction")))
                row.update({f"target.flag.{k}": _flag(v) for k, v in (target.get("flags") or {}).items()})
            rows.append(row)
    return rows


def table_columns(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    """:data:`BASE_COLUMNS`, then every other column the rows have, sorted by name."""
    extra = sorted({k for row in rows for k in row} - set(BASE_COLUMNS))
    return [*BASE_COLUMNS, *extra]


#: Text a spreadsheet would run as a formula when a cell starts with it (CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    """A CSV cell: empty for None; text that a spreadsheet would read as a formula gets a leading ``'``
    (a model name or an answer-derived string is input, never a formula). Numbers are left as they are."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def _csv(rows: list[dict[str, Any]], columns: list[str]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n", extrasaction="raise")
    writer.writeheader()
    for row in rows:
        writer.writerow({c: _cell(row.get(c)) for c in columns})
    return buffer.getvalue()


def _parquet(rows: list[dict[str, Any]], columns: list[str]) -> bytes:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise LoadError("Parquet export needs pyarrow: pip install 'ipb[export]' (or use --format csv)",
                        rule="format") from None
    arrays = {}
    for c in columns:
        values = [row.get(c) for row in rows]
        present = [v for v in values if v is not None]
        if c in ("export_version", "record", "n_targets", "target_index"):
            arrays[c] = pa.array(values, type=pa.int64())
        elif present and all(isinstance(v, bool) for v in present):
            arrays[c] = pa.array(values, type=pa.bool_())
        elif present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
            arrays[c] = pa.array([None if v is None else float(v) for v in values], type=pa.float64())
        else:
            arrays[c] = pa.array([None if v is None else str(v) for v in values], type=pa.string())
    table = pa.table(arrays)
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


#: The files ``ipb score --out DIR`` writes that a table must never replace (the export's own input).
SCORE_FILES: Final = ("responses.jsonl", "summary.json")


def _check_out(results: str | Path, out: str | Path) -> None:
    """Refuse an ``out`` that names a folder ("exp/") or one of the results' own files (break43: ``--out
    DIR/responses.jsonl`` replaced the scored responses with the table, exit 0, and the next export raised a
    traceback)."""
    if str(out).endswith(("/", os.sep)):  # Path("exp/") is "exp": the table was written as a file named exp
        raise LoadError(f"cannot write {out}: it names a folder; give the table's file name (e.g. "
                        f"{Path(out) / 'results.parquet'})", file=str(out), rule="file")
    target = Path(out).resolve()
    for name in SCORE_FILES:
        if target == (Path(results) / name).resolve():
            raise LoadError(f"cannot write {out}: it is the results' own {name}, which the table is read from; "
                            "choose another file name", file=str(out), rule="file")


def write_export(results: str | Path, out: str | Path, *, format: str = "parquet") -> int:
    """Write the table of ``results`` to ``out`` (atomically, its folder made when missing); returns the number of rows.

    Raises
    ------
    LoadError
        Unknown format, unreadable results, pyarrow missing for Parquet, or ``out`` not writable.
    """
    if format not in FORMATS:
        raise LoadError(f"unknown export format {format!r}; formats: {', '.join(FORMATS)}", rule="format", name=format)
    _check_out(results, out)
    rows = export_rows(results)
    columns = table_columns(rows)
    try:
        # as ipb perturb, report, lm-eval-task and schema do: a missing folder is made (s43user's
        # "--out exp/results.parquet" failed with "No such file or directory" and no hint)
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        if format == "csv":
            write_text_atomic(out, _csv(rows, columns))
        else:
            write_bytes_atomic(out, _parquet(rows, columns))
    except OSError as exc:
        raise LoadError(f"cannot write {out}: {exc.strerror or exc}", file=str(out), rule="file") from None
    return len(rows)
