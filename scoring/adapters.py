"""Readers that turn response files into response records, one per answer.

``ipb score`` reads answers in three formats and hands each on as an
:class:`InputRecord`: the record number, where it came from, and either the
response record ``{"item_id", "model", "condition", "response", ...}`` or the
error that kept it from being one. A bad line never stops a file; it becomes
an :class:`InputRecord` with an error, so nothing is silently dropped.

Formats
-------
``jsonl`` (native)
    One JSON object a line: ``item_id``, ``model``, ``condition``,
    ``response`` (required), and optionally ``card`` (the card of an L8 item
    the answer is about), ``epoch``, ``judge`` (judge-scored components
    ``fact_acc``, ``geval_l6``, ``geval_l8`` in [0, 1]) and ``corruptions``
    (written by :func:`ipb.respond.synthetic.synthetic_responses`). Blank
    lines are skipped (and not counted); every other line is a record,
    numbered from 1 by its line number.

``inspect`` (inspect_ai eval logs)
    A ``.json`` log (``log_format="json"``: ``{"version", "eval": {"model",
    ...}, "samples": [...]}``) or a ``.eval`` log (a zip with
    ``header.json`` and ``samples/<id>_epoch_<n>.json``). Each
    ``EvalSample`` gives one record: ``item_id`` from ``metadata.item_id``,
    else the sample ``id``; ``model`` from ``output.model``, else
    ``eval.model``; ``condition`` from the sample's, then the eval's
    ``metadata.condition``, else the ``condition`` argument; ``epoch``; the
    response is ``output.completion``, else the text parts of
    ``output.choices[0].message.content`` (reasoning parts are left out).
    A sample with an ``error`` and no completion becomes an error record.
    Fields read follow inspect_ai's ``EvalLog``/``EvalSample``/``ModelOutput``
    (``inspect_ai.log``, ``inspect_ai.model``).

``lm-eval`` (lm-evaluation-harness ``--log_samples`` files)
    ``samples_<task>_<date>.jsonl``: one object a line with ``doc_id``,
    ``doc``, ``target``, ``arguments``, ``resps``, ``filtered_resps``,
    ``filter``, ``metrics``. ``item_id`` is ``doc["item_id"]``, else
    ``doc["id"]``; the response is ``resps[0][0]`` (the unfiltered
    generation), else ``filtered_resps[0]``; ``model`` and ``condition`` come
    from ``doc`` when present, else from the arguments (the samples file
    does not name the model; ``results_*.json`` does).

``auto`` picks by name and content: ``.eval``, or ``.json`` holding
``samples`` and ``eval``, is inspect; a ``.jsonl`` whose first record has
``doc_id`` and ``resps`` or ``filtered_resps`` is lm-eval; anything else is
native JSONL.

Limits (:mod:`ipb.scoring._log_limits`): a JSONL line or ``.eval`` member holds at most 64 MiB (the cap ``ipb
respond`` puts on a response body), a ``.json`` log at most 1 GiB, and JSON nests at most 100 levels; past them a
record (or, for a log header or a whole ``.json`` log, the file) is refused with a message naming it and the limit.
Responses and items are read only from regular files (a FIFO or device is refused).
"""

from __future__ import annotations

import codecs
import io
import json
import re
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterator, Mapping

from ipb._files import UTF16_SNIFF, file_kind, utf16_encoding
from ipb.engine._json import parse_json_line
from ipb.errors import IpbError, LoadError, ScoreError, did_you_mean
from ipb.scoring._log_limits import (MAX_LOG_BYTES, MAX_RECORD_BYTES, log_document, looks_like_inspect_log,
                                     member_problem, read_line_limited, read_member)
from ipb.scoring.items import canonical_condition, refuse_compressed

__all__ = [
    "InputRecord",
    "answer_slot",
    "FORMATS",
    "adapters",
    "adapter",
    "detect_format",
    "read_responses",
    "records_from",
]


@dataclass(frozen=True)
class InputRecord:
    """One response record as read, or why it could not be read.

    Attributes
    ----------
    number : int
        1-based record number (the line number in a JSONL file, the sample
        index in an inspect log).
    source : str
        ``FILE:LINE`` or ``FILE:samples/ID_epoch_N.json``.
    data : dict or None
        The response record; None when ``error`` is set.
    error : IpbError or None
        Why the record is unusable (not JSON, not an object...).
    file : int or None
        Which of several responses files the record came from (1-based, in the
        order given); None when one file is read.
    """

    number: int
    source: str
    data: dict[str, Any] | None
    error: IpbError | None = None
    file: int | None = None


def answer_slot(data: Mapping[str, Any]) -> tuple[Any, ...] | None:
    """The answer slot a response record claims: (item, model, condition letter, epoch, card, corruptions).

    The one key both repeat checks use: ``ipb score`` marks a second record
    with the key of an earlier one ``duplicate`` (:mod:`ipb.scoring.run`), and
    several responses files may not share a key (:mod:`ipb.scoring.sources`).
    An integer item id counts as its text; the condition is its §7.2 letter
    (:func:`~ipb.scoring.items.canonical_condition`); the epoch is its JSON
    text (``'null'`` when absent); the card is kept only when it is text; the
    corruptions are their names in order (a synthetic-corruption entry is a
    name or an object with a ``name``). None when the record names no item,
    model or condition. The response is not looked at: whether an empty one
    claims its slot is the caller's rule.

    >>> answer_slot({"item_id": 7, "model": "m", "condition": "oracle", "epoch": 2,
    ...              "corruptions": [{"name": "swap"}, "drop", 3]})
    ('7', 'm', 'C', '2', None, ('swap', 'drop'))
    >>> answer_slot({"item_id": "q", "model": " ", "condition": "A"}) is None
    True
    """
    item_id = data.get("item_id")
    if isinstance(item_id, int) and not isinstance(item_id, bool):
        item_id = str(item_id)
    model, condition = data.get("model"), data.get("condition")
    if not (isinstance(item_id, str) and item_id and isinstance(model, str) and model.strip()
            and isinstance(condition, str) and condition.strip()):
        return None
    corruptions = data.get("corruptions")
    names: list[str] = []
    if isinstance(corruptions, list):
        for c in corruptions:
            if isinstance(c, Mapping) and isinstance(c.get("name"), str):
                names.append(c["name"])
            elif isinstance(c, str):
                names.append(c)
    card = data.get("card")
    return (item_id, model, canonical_condition(condition), json.dumps(data.get("epoch"), sort_keys=True),
            card if isinstance(card, str) else None, tuple(names))


Adapter = Callable[..., Iterator[InputRecord]]
_ADAPTERS: dict[str, Adapter] = {}


def adapter(name: str) -> Callable[[Adapter], Adapter]:
    """Register a reader for format ``name`` (``fn(path, *, model, condition) -> iterator``)."""

    def register(fn: Adapter) -> Adapter:
        _ADAPTERS[name] = fn
        return fn

    return register


def adapters() -> list[str]:
    """The registered format names."""
    return list(_ADAPTERS)


def _record_error(number: int, source: str, message: str, rule: str, **fields: Any) -> InputRecord:
    file, _, line = source.rpartition(":")
    err = ScoreError(message, file=file or source, line=number if line.isdigit() else None, rule=rule, **fields)
    return InputRecord(number, source, None, err)


# --------------------------------------------------------------------------- native JSONL


def _jsonl_lines(path: Path) -> Iterator[tuple[int, str | None, str | None]]:
    """(line number, text or None, error or None) for every non-blank line, read as bytes.

    The lines of :func:`ipb.engine._json.jsonl_lines` (a byte-order mark dropped, ``\r\n`` accepted,
    only ``\n`` splits), streamed, and decoded one at a time so that a line that is not UTF-8 is one bad
    record, not a bad file. A line longer than :data:`~ipb.scoring._log_limits.MAX_RECORD_BYTES` is one bad
    record too, skipped without being held whole (s53break item 3).
    """
    with open(path, "rb") as handle:
        refuse_compressed(handle.peek(8)[:8], path, "responses")
        utf16 = utf16_encoding(handle.peek(UTF16_SNIFF)[:UTF16_SNIFF])
        if utf16 is not None:  # with a byte-order mark, or without one (s63 new user B3: "line 1 is not JSON")
            yield from _utf16_lines(handle, None if utf16[1] else utf16[0])
            return
        number = 0
        while True:
            raw, too_long = read_line_limited(handle)
            if not raw:
                return
            number += 1
            if too_long:
                yield number, None, _long_line(number)
                continue
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]  # a byte-order mark some editors write at the start of a UTF-8 file
            stripped = raw.strip()
            if not stripped:
                continue
            try:
                yield number, stripped.decode("utf-8"), None
            except UnicodeDecodeError as exc:
                yield number, None, f"line {number} is not UTF-8 text (byte {exc.start + 1} is {raw[exc.start]:#04x})"


def _long_line(number: int) -> str:
    return (f"line {number} is longer than {MAX_RECORD_BYTES // 2**20} MiB; ipb reads records of at most "
            f"{MAX_RECORD_BYTES // 2**20} MiB (the cap ipb respond puts on one response)")


def _utf16_lines(handle: BinaryIO, order: str | None = None) -> Iterator[tuple[int, str | None, str | None]]:
    """:func:`_jsonl_lines` for a file of UTF-16 text: decoded as UTF-16 (a byte-order mark gives the byte order;
    without one ``order``, ``"utf-16-le"`` or ``"utf-16-be"``, as :func:`ipb._files.utf16_encoding` found it), split
    at ``\n`` only, streamed. A line holding bytes that are not UTF-16 is one bad record."""
    lines = io.TextIOWrapper(handle, encoding=order or "utf-16", errors=_UNDECODED_ERRORS, newline="\n")
    how = "the file starts with a UTF-16 byte-order mark" if order is None else f"the file reads as {order.upper()}"
    limit = MAX_RECORD_BYTES // 2  # characters: two bytes each
    number = 0
    while True:
        line = lines.readline(limit + 1)
        if not line:
            return
        number += 1
        if len(line) > limit and not line.endswith("\n"):
            while True:  # skip the rest of the long line
                rest = lines.readline(1 << 20)
                if not rest or rest.endswith("\n"):
                    break
            yield number, None, _long_line(number)
            continue
        stripped = line.strip()
        if not stripped:
            continue
        bad = _UNDECODED.search(stripped)
        if bad is None:
            yield number, stripped, None
        else:
            yield number, None, (f"line {number} is not UTF-16 text (character {bad.start() + 1} of the line could not be "
                                 f"decoded; {how})")


#: Bytes UTF-16 cannot decode are read as a lone surrogate U+DFFF, which no valid UTF-16 decodes to (a U+FFFD would be
#: ambiguous: an answer may contain one), so the line that holds them is known.
_UNDECODED_ERRORS = "ipb-undecoded-utf16"


def _mark_undecoded(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return "\udfff", exc.end


codecs.register_error(_UNDECODED_ERRORS, _mark_undecoded)
_UNDECODED = re.compile("\udfff")


def _json_object(number: int, source: str, text: str) -> InputRecord:
    """Line ``number`` read by the one strict JSON Lines reader (:func:`ipb.engine._json.parse_json_line`): syntax,
    duplicate keys, ``NaN`` and nesting past 100 levels are errors located at their line and column."""
    file = source.rpartition(":")[0] or source
    try:
        value = parse_json_line(text, file, number, exact=False)
    except LoadError as exc:
        if exc.rule == "json-syntax":  # the wording the records have always had
            what = exc.message.removeprefix("not JSON: ").removesuffix(" at")  # "starting at at column 86" (s44user)
            message = f"line {number} is not JSON: {what} at column {exc.column}"
            if "\x00" in text:  # s49break: three NUL bytes on a line were told only "Expecting value at column 1"
                message += f"; the line holds {text.count(chr(0))} NUL byte(s) (a file padded or damaged on disk?)"
            elif "Unterminated" in what or (exc.column or 0) > len(text.rstrip()):
                message += ("; the line stops mid-way: a file cut off (a run still writing it, or killed mid-write?); "
                            "ipb respond drops such a last line when it resumes")
        else:  # depth, duplicate key, NaN: the shared reader's words
            message = f"line {number}: {exc.message}"
        err = ScoreError(message, file=file, line=exc.line, column=exc.column, rule="json", name=exc.name)
        return InputRecord(number, source, None, err)
    if not isinstance(value, dict):
        return _record_error(number, source, f"line {number} is a JSON {type(value).__name__}, not an object", "json")
    return InputRecord(number, source, value)


@adapter("jsonl")
def read_jsonl(path: Path, *, model: str | None = None, condition: str | None = None) -> Iterator[InputRecord]:
    """Native response records, one JSON object a line (``model``/``condition`` fill missing fields)."""
    for number, text, problem in _jsonl_lines(path):
        source = f"{path}:{number}"
        if problem is not None or text is None:
            yield _record_error(number, source, problem or "unreadable line", "encoding")
            continue
        record = _json_object(number, source, text)
        if record.data is not None:
            if model is not None:
                record.data.setdefault("model", model)
            if condition is not None:
                record.data.setdefault("condition", condition)
        yield record


# --------------------------------------------------------------------------- inspect_ai


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _message_text(message: Any) -> str | None:
    if not isinstance(message, Mapping):
        return None
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text") for p in content if isinstance(p, Mapping) and p.get("type", "text") == "text"]
        texts = [p for p in parts if isinstance(p, str)]
        return "\n".join(texts) if texts else None
    return None


def _inspect_response(sample: Mapping[str, Any]) -> str | None:
    output = sample.get("output")
    if not isinstance(output, Mapping):
        return None
    completion = output.get("completion")
    if isinstance(completion, str) and completion:
        return completion
    choices = output.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], Mapping):
        text = _message_text(choices[0].get("message"))
        if text is not None:
            return text
    return completion if isinstance(completion, str) else None


def _inspect_record(number: int, source: str, sample: Any, header: Mapping[str, Any],
                    model: str | None, condition: str | None) -> InputRecord:
    if not isinstance(sample, Mapping):
        return _record_error(number, source, f"sample {number} is not an object", "inspect")
    meta = _mapping(sample.get("metadata"))
    spec = _mapping(header.get("eval"))
    spec_meta = _mapping(spec.get("metadata"))
    item_id = meta.get("item_id", sample.get("id"))
    output = _mapping(sample.get("output"))
    response = _inspect_response(sample)
    error = sample.get("error")
    if not response and error:
        message = error.get("message") if isinstance(error, Mapping) else str(error)
        return _record_error(number, source, f"sample {item_id!r} ended in an error and has no output: {message}",
                             "sample_error")
    if response is None and output and not ({"completion", "choices"} & set(output)):
        # s53break item 7: a log of a newer schema ("output": {"generations": [...]}) read "'response' is null"
        version = header.get("version")
        return _record_error(number, source, f"sample {item_id!r} has no answer where ipb looks for one: its output "
                             f"holds {', '.join(repr(str(k)) for k in list(output)[:6])}, not 'completion' or "
                             f"'choices'; the log is inspect_ai schema version {version!r} (ipb's own reader knows "
                             f"versions {', '.join(map(str, _KNOWN_VERSIONS))})", "inspect_schema")
    data: dict[str, Any] = {
        "item_id": None if item_id is None else str(item_id),
        "model": model or spec.get("model") or output.get("model"),
        "condition": meta.get("condition") or spec_meta.get("condition") or condition,
        "response": response,
    }
    if sample.get("epoch") is not None:
        data["epoch"] = sample.get("epoch")
    for key in ("card", "judge"):
        if key in meta:
            data[key] = meta[key]
    return InputRecord(number, source, data)


#: The inspect_ai log schema versions whose samples the direct reader reads (``EvalLog.version``).
_KNOWN_VERSIONS = (1, 2)


def _sample_key(name: str) -> tuple[str, int]:
    m = re.match(r"samples/(.*)_epoch_(\d+)\.json$", name)
    return (m.group(1), int(m.group(2))) if m else (name, 0)


def _inspect_reader() -> Any:
    """inspect_ai's log module, or None when the ``inspect`` extra is not installed."""
    try:
        import inspect_ai.log as log_module
    except ImportError:
        return None
    return log_module


def _read_with_inspect(log_module: Any, path: Path, model: str | None,
                       condition: str | None) -> Iterator[InputRecord] | None:
    """Samples through inspect_ai's own reader (every log format and version it supports),
    or None when inspect cannot read the log's header (then the direct reader is tried)."""
    try:
        header = log_module.read_eval_log(str(path), header_only=True).model_dump(mode="json")
    except Exception:  # inspect's reader raises many kinds; the direct reader then decides
        return None

    def samples() -> Iterator[InputRecord]:
        try:
            for number, sample in enumerate(log_module.read_eval_log_samples(str(path), all_samples_required=False),
                                            start=1):
                data = sample.model_dump(mode="json")
                yield _inspect_record(number, f"{path}:samples/{data.get('id')}_epoch_{data.get('epoch')}.json",
                                      data, header, model, condition)
        except (OSError, ValueError, KeyError, RuntimeError) as exc:
            raise LoadError(f"{path} is not a readable inspect_ai log: {exc}", file=str(path),
                            rule="inspect") from None

    return samples()


@adapter("inspect")
def read_inspect(path: Path, *, model: str | None = None, condition: str | None = None) -> Iterator[InputRecord]:
    """Samples of an inspect_ai eval log (``.json`` or ``.eval``).

    With inspect_ai installed (``pip install 'ipb[inspect]'``) the log is read with its
    own reader (:func:`inspect_ai.log.read_eval_log_samples`), so any log format and
    version inspect supports is read, including the default ``.eval`` archive whose
    members are Zstandard-compressed; a log whose header inspect cannot read (a
    hand-written or partial JSON log) falls back to the direct reader. Without it,
    ``.json`` logs and ``.eval`` archives
    with deflate members are read directly; a Zstandard ``.eval`` log is refused with a
    message naming the extra.

    Raises
    ------
    LoadError
        The file is not an inspect log (not JSON, not a zip, no samples), or it needs
        inspect_ai's reader and the extra is not installed.
    """
    log_module = _inspect_reader()
    archive = zipfile.is_zipfile(path)
    log: Any = None
    if archive:
        fits = log_module is None or _members_fit(path)
    else:
        log = _json_log(path)  # size, depth and syntax first: inspect's reader would overflow the stack too
        fits = True
    through_inspect = (_read_with_inspect(log_module, path, model, condition)
                       if log_module is not None and fits else None)
    if through_inspect is not None:
        yield from through_inspect
        return
    if archive:
        try:
            yield from _read_eval_archive(path, model, condition)
        except NotImplementedError:
            raise LoadError(f"{path} is an inspect_ai .eval log compressed with Zstandard, which only inspect_ai's "
                            "reader reads: pip install 'ipb[inspect]' (or write the log with --log-format json)",
                            file=str(path), rule="inspect") from None
        return
    if not isinstance(log, Mapping) or not isinstance(log.get("samples"), list):
        raise LoadError(f"{path} is not an inspect_ai log with samples (log_samples off?)", file=str(path), rule="inspect")
    for number, sample in enumerate(log["samples"], start=1):
        sid = sample.get("id") if isinstance(sample, Mapping) else None
        epoch = sample.get("epoch") if isinstance(sample, Mapping) else None
        yield _inspect_record(number, f"{path}:samples[{number - 1}] (id {sid}, epoch {epoch})", sample, log, model, condition)


def _members_fit(path: Path) -> bool:
    """Whether every member of the ``.eval`` archive at ``path`` declares a size ipb reads (:func:`member_problem`)
    and holds what it declares (read through once, a chunk at a time, within the limit, CRC-checked).

    inspect_ai's reader inflates a member whole, whatever it declares; so when a member is refused here the
    archive is read by the direct reader instead, which reads every member with a limit and makes a refused
    sample one error record (s53break item 3: inspect's reader inflated a 1.5 MB log to 1.6 GB). The check costs
    one more decompression of the log."""
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            if member_problem(info) is not None:
                return False
            try:
                read_member(archive, info, keep=False)
            except ValueError:
                return False
            except NotImplementedError:  # a method this Python's zipfile lacks: inspect's reader reads it, unchecked
                continue
    return True


def _json_log(path: Path) -> Any:
    """The JSON document of the ``.json`` log at ``path``: at most :data:`MAX_LOG_BYTES`, nested at most
    ``MAX_JSON_DEPTH`` levels (s53break item 1), not cut off (item 7); else a LoadError that says which."""
    with open(path, "rb") as fh:
        head = fh.read(4)
        if head == b"PK\x03\x04":
            # a zip's first member with no readable end: an .eval archive cut off (inspect still writing it, a copy
            # taken too early); "not JSON: 'utf-8' codec can't decode byte" said nothing of that (s44user)
            raise LoadError(f"{path} is a cut-off or damaged inspect_ai .eval archive (a zip whose end is missing): "
                            "was the eval still running, or the log copied before it finished? Let the run finish "
                            "(or run it again) and give the complete log", file=str(path), rule="inspect")
        raw = head + fh.read(MAX_LOG_BYTES + 1 - len(head))
    if not raw.strip():
        # s65 F6: a 0-byte .eval was "not JSON ...; the text stops mid-way: a log cut off"
        raise LoadError(f"{path} is empty ({len(raw)} bytes{', all blank' if raw else ''}): no inspect_ai log in it, "
                        "nothing to score, nothing written", file=str(path), rule="empty")
    if len(raw) > MAX_LOG_BYTES:
        raise LoadError(f"{path} is larger than {MAX_LOG_BYTES // 2**30} GiB; ipb reads inspect_ai .json logs of at "
                        "most 1 GiB (write the log as .eval, whose samples are read one at a time)",
                        file=str(path), rule="inspect")
    try:
        return log_document(raw, str(path))
    except LoadError as exc:
        raise LoadError(f"{path} is not a readable inspect_ai log: {exc.message}",
                        file=str(path), line=exc.line, column=exc.column, rule="inspect") from None


def _read_eval_archive(path: Path, model: str | None, condition: str | None) -> Iterator[InputRecord]:
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        header: Mapping[str, Any] = {}
        for candidate in ("header.json", "_journal/start.json"):
            if candidate in names:
                where = f"{path}:{candidate}"
                try:
                    loaded = log_document(read_member(archive, archive.getinfo(candidate)), where)
                except ValueError as exc:  # too big, damaged
                    raise LoadError(f"{path}: {exc}", file=where, rule="inspect") from None
                except LoadError as exc:  # s53break item 2: '{not json' was a JSONDecodeError traceback
                    raise LoadError(f"{path}: {candidate} is not a readable log header: "
                                    f"{exc.message}", file=where, line=exc.line,
                                    column=exc.column, rule="inspect") from None
                if not isinstance(loaded, Mapping):  # a list header was silently ignored
                    raise LoadError(f"{path}: {candidate} is a JSON {type(loaded).__name__}, not an object; an "
                                    "inspect_ai log header is an object with 'version' and 'eval'", file=where,
                                    rule="inspect")
                header = loaded
                break
        samples = sorted((n for n in names if n.startswith("samples/") and n.endswith(".json")), key=_sample_key)
        for number, name in enumerate(samples, start=1):
            source = f"{path}:{name}"
            try:
                sample = log_document(read_member(archive, archive.getinfo(name)), source)
            except ValueError as exc:  # over the limit or damaged: this sample only
                yield _record_error(number, source, str(exc), "inspect")
                continue
            except LoadError as exc:
                yield _record_error(number, source, f"{name} is not a JSON sample ({exc.message})",
                                    "inspect")
                continue
            yield _inspect_record(number, source, sample, header, model, condition)


# --------------------------------------------------------------------------- lm-evaluation-harness


def _first_text(value: Any) -> str | None:
    while isinstance(value, list) and value:
        value = value[0]
    return value if isinstance(value, str) else None


def _lm_eval_results(path: Path) -> Mapping[str, Any]:
    """The ``results_<stamp>.json`` written beside ``samples_<task>_<stamp>.jsonl``, or {} when there is none
    (or it is not a JSON object); a LoadError naming it (with line and column where known) when it is larger
    than ``MAX_RECORD_BYTES``, nested deeper than ``MAX_JSON_DEPTH`` levels, not UTF-8 or not JSON."""
    m = re.match(r"samples_.+_(\d{4}-\d{2}-\d{2}T[0-9.\-]+)\.jsonl$", path.name)
    if not m:
        return {}
    results = path.with_name(f"results_{m.group(1)}.json")
    try:
        with open(results, "rb") as fh:
            raw = fh.read(MAX_RECORD_BYTES + 1)
    except OSError:  # none written (or none copied along): the model is named some other way
        return {}
    why = (f"it is larger than {MAX_RECORD_BYTES // 2**20} MiB" if len(raw) > MAX_RECORD_BYTES else None)
    if why is None:
        try:  # the one bounded reader of whole documents (s54break item 1: a deep file was a RecursionError)
            loaded = log_document(raw, str(results))
        except LoadError as exc:
            why, line, column = exc.message, exc.line, exc.column
        else:
            return loaded if isinstance(loaded, Mapping) else {}
    else:
        line = column = None
    raise LoadError(f"{results}, the lm-eval results file beside {path.name} that names the model, cannot be read: "
                    f"{why} (give --model to score without it)", file=str(results), line=line, column=column,
                    rule="lm-eval")


def lm_eval_model_name(results: Mapping[str, Any]) -> str | None:
    """The model an lm-eval results file names: ``MODEL_TYPE/PRETRAINED`` (``hf/EleutherAI/pythia-70m``),
    or the model type alone when no checkpoint is named (``dummy``).

    >>> lm_eval_model_name({"config": {"model": "hf", "model_args": "pretrained=EleutherAI/pythia-70m,dtype=float32"}})
    'hf/EleutherAI/pythia-70m'
    >>> lm_eval_model_name({"config": {"model": "dummy", "model_args": {}}})
    'dummy'
    """
    config = _mapping(results.get("config"))
    kind = config.get("model")
    if not isinstance(kind, str) or not kind:
        return None
    args = config.get("model_args")
    if isinstance(args, str):
        args = dict(part.split("=", 1) for part in args.split(",") if "=" in part)
    named = next((args.get(k) for k in ("pretrained", "model", "model_name", "engine")
                  if isinstance(args, Mapping) and isinstance(args.get(k), str)), None)
    return f"{kind}/{named}" if named else kind


@adapter("lm-eval")
def read_lm_eval(path: Path, *, model: str | None = None, condition: str | None = None) -> Iterator[InputRecord]:
    """Per-sample records of an lm-evaluation-harness ``samples_*.jsonl`` file.

    The model is the document's, else the ``model`` argument, else the one named by the
    ``results_*.json`` lm-eval wrote beside the samples (:func:`lm_eval_model_name`); the lm-eval
    task (``ipb_l7``) is taken from the file's name and kept in each record as ``task``.
    """
    model = model or lm_eval_model_name(_lm_eval_results(path))
    named = re.match(r"samples_(?P<task>.+)_\d{4}-\d{2}-\d{2}T[0-9.\-]+\.jsonl$", path.name)
    task = named.group("task") if named else None
    for number, text, problem in _jsonl_lines(path):
        source = f"{path}:{number}"
        if problem is not None or text is None:
            yield _record_error(number, source, problem or "unreadable line", "encoding")
            continue
        record = _json_object(number, source, text)
        if record.data is None:
            yield record
            continue
        sample = record.data
        doc = _mapping(sample.get("doc"))
        item_id = doc.get("item_id", doc.get("id"))
        response = _first_text(sample.get("resps"))
        if response is None:
            response = _first_text(sample.get("filtered_resps"))
        data: dict[str, Any] = {
            "item_id": None if item_id is None else str(item_id),
            "model": doc.get("model") or model,
            "condition": doc.get("condition") or condition,
            "response": response,
        }
        if sample.get("filter") not in (None, "none"):
            data["filter"] = sample.get("filter")
        if task is not None:
            data["task"] = task
        if "card" in doc:
            data["card"] = doc["card"]
        yield InputRecord(number, source, data)


# --------------------------------------------------------------------------- dispatch

#: Format names accepted by :func:`read_responses` (``auto`` detects).
FORMATS = ("auto", "jsonl", "inspect", "lm-eval")


def detect_format(path: str | Path) -> str:
    """``inspect``, ``lm-eval`` or ``jsonl`` for the file at ``path`` (see the module docstring).

    Raises
    ------
    LoadError
        The file cannot be opened.
    """
    p = Path(path)
    try:
        if p.suffix == ".eval" or zipfile.is_zipfile(p):
            return "inspect"
        with open(p, "rb") as handle:
            head = handle.read(4096).lstrip()
    except OSError as exc:
        raise LoadError(f"cannot read {p}: {exc.strerror or exc}", file=str(p), rule="file") from None
    if p.suffix == ".json" and head.startswith(b"{"):
        if looks_like_inspect_log(head):  # by its opening, so that a cut-off or too deep log is still told as one
            return "inspect"  # (s53break items 1 and 7: a RecursionError here; a cut-off log read as JSON Lines)
        try:
            size = p.stat().st_size
            doc = json.loads(p.read_text(encoding="utf-8")) if size <= MAX_LOG_BYTES else None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            return "jsonl"
        if isinstance(doc, Mapping) and "samples" in doc and "eval" in doc:
            return "inspect"
        return "jsonl"
    for _, text, _problem in _jsonl_lines(p):
        if text is None:
            break
        try:
            first = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            break
        if isinstance(first, Mapping) and "doc_id" in first and ("resps" in first or "filtered_resps" in first):
            return "lm-eval"
        break
    return "jsonl"


def read_responses(
    path: str | Path,
    *,
    format: str = "auto",
    model: str | None = None,
    condition: str | None = None,
) -> Iterator[InputRecord]:
    """Every response record of ``path``, in file order, bad ones included as errors.

    Parameters
    ----------
    format : {"auto", "jsonl", "inspect", "lm-eval"}
    model, condition : str, optional
        Values for records that do not carry their own (the adapters' fallback).

    Raises
    ------
    LoadError
        The file cannot be read at all, or ``format`` is unknown.
    """
    p = Path(path)
    if format not in FORMATS:
        raise LoadError(f"unknown response format {format!r}; formats: {', '.join(FORMATS)}", rule="format",
                        name=format, suggestion=did_you_mean(format, list(FORMATS)))
    try:
        mode = p.stat().st_mode
    except FileNotFoundError:
        raise LoadError(f"no such responses file: {p}", file=str(p), rule="file") from None
    except OSError as exc:
        raise LoadError(f"cannot read {p}: {exc.strerror or exc}", file=str(p), rule="file") from None
    if not stat.S_ISREG(mode):  # a FIFO could be read only once (the format is detected first) and a device never ends
        raise LoadError(f"{p} is {file_kind(mode)}, not a regular file; ipb reads responses only from regular files "
                        "(save a stream to a file first)", file=str(p), rule="file")
    chosen = detect_format(p) if format == "auto" else format
    try:
        yield from _ADAPTERS[chosen](p, model=model, condition=condition)
    except OSError as exc:
        raise LoadError(f"cannot read {p}: {exc.strerror or exc}", file=str(p), rule="file") from None
    except zipfile.BadZipFile as exc:
        raise LoadError(f"{p} is not a readable .eval archive: {exc}", file=str(p), rule="inspect") from None


def records_from(responses: list[Mapping[str, Any]], source: str = "<records>") -> list[InputRecord]:
    """In-memory response dicts as input records numbered from 1 (a non-dict is an error record)."""
    out = []
    for number, data in enumerate(responses, start=1):
        where = f"{source}:{number}"
        if isinstance(data, Mapping):
            out.append(InputRecord(number, where, dict(data)))
        else:
            out.append(_record_error(number, where, f"record {number} is a {type(data).__name__}, not an object", "json"))
    return out
