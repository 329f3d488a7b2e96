"""Several responses files scored as one run: ``ipb score --responses A --responses B ...``.

An evaluator runs inspect_ai or lm-evaluation-harness once per model and gets
one log per model; one leaderboard needs all of them in one scoring run
(paper §7.2: models compared on the same items and conditions). This module
turns the ``--responses`` arguments into one stream of
:class:`~ipb.scoring.adapters.InputRecord`:

- each argument is a file (any format :mod:`ipb.scoring.adapters` reads,
  detected per file with ``--format auto``), a quoted pattern (``'logs/*.eval'``,
  ``**`` for any depth; its files in sorted order) or a folder; a folder stands for
  the log files under it, at any depth, in sorted path order: inspect_ai logs
  (``*.eval``, and ``*.json`` files that are eval logs: inspect's
  ``--log-dir``) and lm-eval samples files (``samples_*.jsonl``: lm-eval's
  ``--output_path``). Native JSONL files in a folder are not picked up (a
  results folder's own ``responses.jsonl`` would be); name them.
- files are read in the order given, each whole; with more than one file
  every record carries ``file``, its file's 1-based position.

Refused before anything is scored or written (:class:`~ipb.errors.LoadError`):
a file given twice, a folder with no log file in it, a file with no record
(empty, only blank lines, a log without samples: also when it is the only
file, which until s52user scored an empty run, "scored 0 of 0", and exited
0), and, when there are several files, a file none of whose records is a
response (not a log in any format, an items file: the first bad record is
named), and the same answer slot -- item, model, condition, epoch, card of
an L8 answer, synthetic corruptions -- in two files (both files and record
numbers named). Unreadable lines of one file alone are unscored records, as
they always were. A repeat *inside* one file stays what it always was: an
unscored ``duplicate`` record.
"""

from __future__ import annotations

import dataclasses
import glob
from pathlib import Path
from typing import Any, Iterable, Sequence

from ipb._files import file_sha256
from ipb.errors import ErrorGroup, IpbError, LoadError
from ipb.scoring.adapters import InputRecord, answer_slot, detect_format, read_responses

__all__ = ["response_files", "read_response_files", "slot_of", "check_across_files"]

#: Clashes listed one by one before "... and N more".
SHOWN_CLASHES = 20


def _is_log(path: Path) -> bool:
    """Whether a file found in a folder is a log ``ipb score`` reads (see the module docstring)."""
    name = path.name
    if name.endswith(".eval"):
        return True
    if name.startswith("samples_") and name.endswith(".jsonl"):
        return True
    if name.endswith(".json"):
        try:
            return detect_format(path) == "inspect"
        except IpbError:
            return False
    return False


def response_files(given: Sequence[str | Path]) -> list[Path]:
    """The files the ``--responses`` arguments name, in order: a file as given, a folder as its log files.

    Parameters
    ----------
    given : sequence of path
        Files, folders and quoted patterns, in the order the user gave them.

    Returns
    -------
    list of Path
        One entry per file; a folder's or a pattern's files in sorted path order.

    Raises
    ------
    LoadError
        A folder holds no log file, a pattern matches no file, or one file is
        named twice (directly, through a folder or a pattern).

    Examples
    --------
    >>> [str(p) for p in response_files(["a.jsonl", "b.eval"])]
    ['a.jsonl', 'b.eval']
    """
    out: list[Path] = []
    where: dict[Path, int] = {}
    for position, entry in enumerate(given, start=1):
        path = Path(entry)
        if path.is_dir():
            found = sorted((p for p in path.rglob("*") if p.is_file() and _is_log(p)),
                           key=lambda p: p.relative_to(path).as_posix())
            if not found:
                raise LoadError(f"the folder {path} (--responses {position}) holds no inspect_ai log (*.eval, or *.json "
                                "eval log) and no lm-eval samples_*.jsonl file; name JSONL response files one by one",
                                file=str(path), rule="file")
        elif not path.exists() and any(c in str(entry) for c in "*?["):
            # a quoted pattern: expanded here, in sorted order (an unquoted one is the shell's, which would make
            # every file after the first a stray argument, not a --responses)
            found = sorted((Path(m) for m in glob.glob(str(entry), recursive=True) if Path(m).is_file()),
                           key=lambda p: p.as_posix())
            if not found:
                raise LoadError(f"no file matches the pattern {entry} (--responses {position})", file=str(entry),
                                rule="file")
        else:
            found = [path]
        for p in found:
            try:
                key = p.resolve()
            except OSError:
                key = p.absolute()
            if key in where:
                raise LoadError(f"{p} is given twice (--responses {where[key]} and {position}): each file is read once; "
                                "drop the repeat", file=str(p), rule="repeated_file")
            where[key] = position
            out.append(p)
    return out


def read_response_files(paths: Sequence[Path], *, format: str = "auto", model: str | None = None,
                        condition: str | None = None) -> tuple[list[InputRecord], list[dict[str, Any]]]:
    """Every record of every file, file after file, and what each file was (for ``summary.json``).

    Parameters
    ----------
    paths : sequence of Path
        From :func:`response_files`.
    format : {"auto", "jsonl", "inspect", "lm-eval"}
        For every file (``auto`` detects each file's own).
    model, condition : str, optional
        Fallbacks for records that do not carry them, in every file.

    Returns
    -------
    (records, files)
        The records in file order, each with ``file`` set (1-based) when
        there is more than one path; per file ``{"file", "source", "sha256",
        "format", "n_records"}``, ``format`` as detected when there are
        several (one file: the ``format`` given).

    Raises
    ------
    LoadError
        As :func:`~ipb.scoring.adapters.read_responses`; a file with no
        record (empty, blank lines only, a log without samples), also when it
        is the only one; a file of which no record is a response (the first
        bad record is located), also when it is the only one; and with several
        files the same answer in two of them (:func:`check_across_files`).
    """
    several = len(paths) > 1
    records: list[InputRecord] = []
    files: list[dict[str, Any]] = []
    for k, path in enumerate(paths, start=1):
        own = list(read_responses(path, format=format, model=model, condition=condition))
        if not own:  # also one file alone (s52user): an empty run printed "scored 0 of 0" and exited 0
            raise LoadError(f"{path} holds no response record (an empty file, or a log without samples)"
                            + ("" if several else ": nothing to score, nothing written"), file=str(path), rule="empty")
        # s65 F5: one file alone too ('{"hello": 1}' gave a "(none)" model row and a header "None")
        _refuse_not_responses(path, own)
        if several:
            own = [dataclasses.replace(r, file=k) for r in own]
        records.extend(own)
        files.append({"file": k, "source": str(path), "sha256": file_sha256(path),
                      # detected again only for several files (a one-file summary records the --format given; a
                      # .json log's detection reads the whole file)
                      "format": detect_format(path) if format == "auto" and several else format,
                      "n_records": len(own)})
    if several:
        check_across_files(records)
    return records, files


def _refuse_not_responses(path: Path, records: list[InputRecord]) -> None:
    """Refuse a file none of whose records is a response: none could be read (not JSON, not a log), or none has a
    ``response`` field (an items file, a results file given by mistake). Samples that ended in an error are
    responses (unscored ``sample_error`` records), not a sign of the wrong file."""
    if any(r.data is not None and "response" in r.data or r.error is not None and r.error.rule == "sample_error"
           for r in records):
        return
    first = records[0]
    if first.error is not None:
        why = f"record {first.number}: {first.error.message}"
    else:
        why = f"no record has a 'response' field; record {first.number} has {', '.join(sorted(map(str, first.data or {}))[:6]) or 'no field'}"
    raise LoadError(f"{path} is not a responses file or log ipb reads: none of its {len(records)} record(s) is a response "
                    f"({why})", file=str(path), line=first.error.line if first.error is not None else first.number,
                    rule="not_responses")


def slot_of(data: dict[str, Any]) -> tuple[Any, ...] | None:
    """The answer slot a response record fills: (item, model, condition letter, epoch, card, corruptions).

    None when the record lacks an item, model or condition, or its response is
    not a non-empty text (it claims no slot: a retry after it is scored). The
    key is :func:`~ipb.scoring.adapters.answer_slot`, the one
    :func:`ipb.scoring.run.score_records` finds repeats by.

    >>> slot_of({"item_id": 7, "model": "m", "condition": "closed_book", "response": "x", "epoch": 2})
    ('7', 'm', 'A', '2', None, ())
    >>> slot_of({"item_id": "q", "model": "m", "condition": "A", "response": "  "}) is None
    True
    """
    response = data.get("response")
    if not (isinstance(response, str) and response.strip()):
        return None
    return answer_slot(data)


def check_across_files(records: Iterable[InputRecord]) -> None:
    """Refuse the same answer slot (:func:`slot_of`) in two files; repeats inside one file are left to scoring.

    Raises
    ------
    LoadError or ErrorGroup
        One error per clash, located at the later record, naming both
        records (``FILE:LINE`` or ``FILE:samples/...``); the first
        :data:`SHOWN_CLASHES`, then a count.
    """
    first: dict[tuple[Any, ...], InputRecord] = {}
    clashes: list[IpbError] = []
    n = 0
    for record in records:
        if record.data is None:
            continue
        slot = slot_of(record.data)
        if slot is None:
            continue
        earlier = first.setdefault(slot, record)
        if earlier is record or earlier.file == record.file:
            continue
        n += 1
        if len(clashes) < SHOWN_CLASHES:
            item_id, model, condition, epoch, card, _ = slot
            what = f"item {item_id!r}, model {model!r}, condition {condition}" + (
                "" if epoch == "null" else f", epoch {epoch}") + ("" if card is None else f", card {card}")
            file, _, line = record.source.rpartition(":")
            clashes.append(LoadError(
                f"{what} is answered in two files: {earlier.source} (file {earlier.file}, record {earlier.number}) and "
                f"{record.source} (file {record.file}, record {record.number})",
                file=file or record.source, line=record.number if line.isdigit() else None, rule="duplicate_across_files",
                name=item_id))
    if not n:
        return
    if n > len(clashes):
        clashes.append(LoadError(f"... and {n - len(clashes)} more answer(s) found in two files", rule="duplicate_across_files"))
    hint = LoadError("nothing was scored or written: the same model's answer to the same item and condition must come "
                     "from one file (the same log given twice? two runs of one model? give repeated samples distinct "
                     "epochs, or score each run into its own --out)", rule="duplicate_across_files")
    group = ErrorGroup([*clashes, hint])
    group.errors = [*clashes, hint]  # in record order, the count and the hint last (ErrorGroup sorts by file)
    raise group
