"""Reading a results folder's two files: ``summary.json`` and ``responses.jsonl``, and whether they belong together.

Split from :mod:`ipb.report.data` (module size limit), which imports these back (``load_results`` reads
through them; tests import ``_check_pair`` and ``_read_json`` from there). Each file goes through the
project's one bounded JSON reader; a problem is a :class:`~ipb.errors.LoadError` naming the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from ipb._files import file_sha256
from ipb.engine._json import json_document, jsonl_lines, parse_json_line
from ipb.errors import LoadError

__all__: list[str] = []


def _check_pair(summary: Mapping[str, Any], records: Sequence[tuple[int, Any]], folder: Path) -> None:
    """Refuse a ``responses.jsonl`` that is not the one ``summary.json`` was computed from.

    A summary written by ``ipb score`` records the SHA-256 of its score records
    (``inputs.scored``); an older one is checked by its record count.
    """
    raw_inputs = summary.get("inputs")
    inputs: Mapping[str, Any] = raw_inputs if isinstance(raw_inputs, Mapping) else {}
    raw_scored = inputs.get("scored")
    scored: Mapping[str, Any] = raw_scored if isinstance(raw_scored, Mapping) else {}
    path = folder / "responses.jsonl"
    problem = None
    if isinstance(scored.get("sha256"), str):
        if file_sha256(path) != scored["sha256"]:
            problem = "its SHA-256 is not the one summary.json records for the scored records"
    else:
        raw_counts = summary.get("counts")
        counts: Mapping[str, Any] = raw_counts if isinstance(raw_counts, Mapping) else {}
        if isinstance(counts.get("records"), int) and counts["records"] != len(records):
            problem = f"it holds {len(records)} records, summary.json counts {counts['records']}"
    if problem is not None:
        raise LoadError(f"{path} and summary.json do not belong together ({problem}); re-run ipb score, or give "
                        "the folder that one run wrote", file=str(path), rule="mismatch")


def _read_json(path: Path) -> dict[str, Any]:
    """The JSON object in ``path`` (a ``summary.json``), read by the project's one bounded reader of whole JSON
    documents (:func:`ipb.engine._json.json_document`: nested at most ``MAX_JSON_DEPTH`` levels, s54break item 2;
    NaN and Infinity refused at the number, s47break); a LoadError naming the file otherwise."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise LoadError(f"cannot read {path}: {exc.strerror or exc}", file=str(path), rule="file") from None
    try:
        data = json_document(raw, str(path), allow_nan=False)
    except LoadError as exc:
        if exc.rule == "json-constant":  # located at the NaN by load_json_text (the s47break words)
            raise
        raise LoadError(f"{path} is not readable: {exc.message}", file=str(path), line=exc.line, column=exc.column,
                        rule=exc.rule) from None
    if not isinstance(data, dict):
        raise LoadError(f"{path} does not hold a JSON object", file=str(path), rule="json")
    return data


def _read_records(path: Path) -> list[tuple[int, dict[str, Any]]]:
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise LoadError(f"cannot read {path}: {exc.strerror or exc}", file=str(path), rule="file") from None
    out = []
    for number, line in jsonl_lines(raw):  # the project's one JSON Lines reader (BOM, nesting limit)
        record = parse_json_line(line, str(path), number, exact=False)
        if isinstance(record, dict):
            out.append((number, record))
    return out
