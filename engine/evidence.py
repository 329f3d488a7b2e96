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

The module also holds the JSON and JSON Lines reader shared by the record
formats of :mod:`ipb.scoring.records` and :mod:`ipb.scoring.forecast`: strict
(duplicate keys, ``NaN`` and ``Infinity`` refused), numbers as
:class:`~decimal.Decimal`, and every value located by line and column so an
error names the record number and points at the offending field.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from importlib import resources
from json import decoder as _json_decoder
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeAlias, cast
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import jsonschema

from ipb.engine._yaml import YamlDoc, load_yaml
from ipb.errors import ErrorGroup, IpbError, LoadError, PerturbError, did_you_mean

__all__ = [
    "EvidenceStore",
    "DocumentVersion",
    "Stamp",
    "TemporalViolation",
    "parse_stamp",
    "eligible_before",
    "is_available",
    "decision_time_violations",
    "require_decision_time",
    "load_evidence",
    "evidence_schema",
    "JsonDoc",
    "Item",
    "load_json_text",
    "load_items",
    "Loaded",
    "load_document",
    "AnyDoc",
    "json_value",
    "STORE_VERSION",
]

#: Version of the store's SQLite layout (kept in its ``meta`` table).
STORE_VERSION = 1

DateLike = str | dt.date | dt.datetime


# =========================================================================== JSON reading


_WS = re.compile(r"[ \t\n\r]*")
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_JSON_LITERAL = re.compile(r"true|false|null")

Path_ = tuple[str | int, ...]

#: ``scanstring(text, index_after_quote) -> (string, index_after_closing_quote)``, the
#: standard library's own JSON string scanner (not in typeshed).
scanstring: Callable[[str, int], tuple[str, int]] = _json_decoder.scanstring  # type: ignore[attr-defined]


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number; write a finite number or null")


class JsonDoc:
    """A JSON value read from a file (or one line of a JSON Lines file), with positions.

    It answers the same questions as :class:`ipb.engine._yaml.YamlDoc`
    (``locate``, ``locate_key``, ``locate_in_string``, ``source_line``,
    ``error``), so that schema checks and field errors point at the user's
    text in either format. ``record`` is the 1-based record number in a JSON
    Lines file (None for a whole JSON file); errors made by :meth:`error`
    start with ``record N:``.
    """

    def __init__(self, data: Any, text: str, file: str, *, first_line: int = 1, record: int | None = None) -> None:
        self.data = data
        self.text = text
        self.file = file
        self.first_line = first_line
        self.record = record
        self.lines = text.split("\n")
        self._values: dict[Path_, int] = {}
        self._keys: dict[Path_, int] = {}
        #: (key, where the repeat starts, where the first one starts), as offsets.
        self.duplicates: list[tuple[str, int, int]] = []
        self._scan(0, ())

    # -- positions ---------------------------------------------------------

    def _ws(self, index: int) -> int:
        match = _WS.match(self.text, index)
        return match.end() if match else index

    def _scan(self, index: int, path: Path_) -> int:
        """Record where each value and key starts; return the index after the value."""
        text = self.text
        index = self._ws(index)
        self._values[path] = index
        ch = text[index]
        if ch == "{":
            index = self._ws(index + 1)
            if text[index] == "}":
                return index + 1
            seen: set[str] = set()
            while True:
                index = self._ws(index)
                key_at = index
                key, index = scanstring(text, index + 1)
                if key in seen:
                    self.duplicates.append((key, key_at, self._keys[path + (key,)]))
                else:
                    seen.add(key)
                    self._keys[path + (key,)] = key_at
                index = self._ws(index) + 1  # the ':'
                child = path + (key,) if key_at == self._keys.get(path + (key,)) else path + ("\0dup",)
                index = self._ws(self._scan(index, child))
                if text[index] == ",":
                    index += 1
                    continue
                return index + 1
        if ch == "[":
            index = self._ws(index + 1)
            if text[index] == "]":
                return index + 1
            position = 0
            while True:
                index = self._ws(self._scan(index, path + (position,)))
                position += 1
                if text[index] == ",":
                    index += 1
                    continue
                return index + 1
        if ch == '"':
            return scanstring(text, index + 1)[1]
        match = _JSON_NUMBER.match(text, index) or _JSON_LITERAL.match(text, index)
        assert match is not None, "the text was parsed by json.loads first"
        return match.end()

    def _line_col(self, offset: int) -> tuple[int, int]:
        before = self.text[:offset]
        line = before.count("\n")
        column = offset - (before.rfind("\n") + 1) + 1
        return self.first_line + line, column

    def _nearest(self, table: dict[Path_, int], path: Path_) -> tuple[int, int]:
        for end in range(len(path), -1, -1):
            found = table.get(path[:end])
            if found is None:
                found = self._values.get(path[:end])
            if found is not None:
                return self._line_col(found)
        return self._line_col(0)

    def locate(self, path: Sequence[str | int]) -> tuple[int, int]:
        """1-based ``(line, column)`` of the value at ``path`` (nearest ancestor if absent)."""
        return self._nearest(self._values, tuple(path))

    def locate_key(self, path: Sequence[str | int]) -> tuple[int, int]:
        """1-based ``(line, column)`` of the key that ends ``path`` (falls back as :meth:`locate`)."""
        return self._nearest(self._keys, tuple(path))

    def locate_in_string(self, path: Sequence[str | int], offset: int) -> tuple[int, int]:
        """Where character ``offset`` of the JSON string at ``path`` is written.

        Escapes take more source characters than they produce (``\\n`` two,
        ``\\u00e9`` six, a surrogate pair twelve).

        >>> doc = load_json_text('{"a": "x\\\\u00e9 -> y"}')
        >>> doc.locate_in_string(("a",), 3)  # the '-': six source characters for the escaped e-acute
        (1, 16)
        """
        start = self._values.get(tuple(path))
        if start is None or self.text[start] != '"':
            return self.locate(path)
        text, index, produced = self.text, start + 1, 0
        while produced < offset and index < len(text) and text[index] != '"':
            if text[index] == "\\":
                if text[index + 1] == "u":
                    high = int(text[index + 2 : index + 6], 16)
                    index += 12 if 0xD800 <= high <= 0xDBFF and text[index + 6 : index + 8] == "\\u" else 6
                else:
                    index += 2
            else:
                index += 1
            produced += 1
        return self._line_col(index)

    def source_line(self, line: int) -> str:
        """Text of 1-based file ``line`` (``''`` if it is not part of this value)."""
        index = line - self.first_line
        return self.lines[index] if 0 <= index < len(self.lines) else ""

    def error(
        self,
        message: str,
        path: Sequence[str | int],
        *,
        key: bool = False,
        rule: str | None = None,
        name: str | None = None,
        suggestion: str | None = None,
    ) -> LoadError:
        """A :class:`LoadError` at the value (or key) at ``path``, prefixed with the record number."""
        line, column = self.locate_key(path) if key else self.locate(path)
        return LoadError(
            self.prefix(message),
            file=self.file,
            line=line,
            column=column,
            rule=rule,
            name=name,
            suggestion=suggestion,
            source_line=self.source_line(line),
        )

    def prefix(self, message: str) -> str:
        return message if self.record is None else f"record {self.record}: {message}"


def load_json_text(text: str, file: str = "<string>", *, first_line: int = 1, record: int | None = None) -> JsonDoc:
    """Parse one strict JSON value.

    Numbers load as ``int`` or :class:`~decimal.Decimal` (the exact text);
    ``NaN``, ``Infinity`` and duplicate keys are refused.

    Raises
    ------
    LoadError
        Rule ``json-syntax`` (with the parser's line and column),
        ``duplicate-key`` (at the repeated key) or ``json-constant``.
        Inside a JSON Lines file the message starts with ``record N:``.

    >>> load_json_text('{"p": 0.052, "n": 3}').data
    {'p': Decimal('0.052'), 'n': 3}
    >>> load_json_text('{"a": 1, "a": 2}', "x.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ipb.errors.LoadError: x.json:1:10: load error: duplicate key 'a': it is already defined at line 1, column 2; ...
    """
    where = "" if record is None else f"record {record}: "
    lines = text.split("\n")
    try:
        data = json.loads(text, parse_float=Decimal, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        line = first_line + exc.lineno - 1
        raise LoadError(
            f"{where}invalid JSON: {exc.msg}",
            file=file,
            line=line,
            column=exc.colno,
            rule="json-syntax",
            source_line=lines[exc.lineno - 1] if exc.lineno - 1 < len(lines) else "",
        ) from None
    except ValueError as exc:
        raise LoadError(f"{where}{exc}", file=file, line=first_line, column=1, rule="json-constant",
                        source_line=lines[0]) from None
    doc = JsonDoc(data, text, file, first_line=first_line, record=record)
    if doc.duplicates:
        key, offset, first_offset = doc.duplicates[0]
        first = doc._line_col(first_offset)
        line, column = doc._line_col(offset)
        raise LoadError(
            f"{where}duplicate key {key!r}: it is already defined at line {first[0]}, column {first[1]}; "
            "each key may appear only once in an object",
            file=file, line=line, column=column, rule="duplicate-key", name=key,
            source_line=doc.source_line(line),
        )
    return doc


AnyDoc: TypeAlias = YamlDoc | JsonDoc


@dataclass
class Item:
    """One record of a records file, wherever it came from.

    ``path`` locates the record inside ``doc`` (``("decisions", 3)`` in a YAML
    document, ``()`` for a JSON Lines line); ``record`` is its 1-based number
    in the file (the line's record number in JSON Lines, the list position
    otherwise).
    """

    data: dict[str, Any]
    doc: AnyDoc
    path: Path_
    record: int

    @property
    def file(self) -> str:
        return self.doc.file

    def error(
        self,
        message: str,
        field_path: Sequence[str | int] = (),
        *,
        key: bool = False,
        rule: str | None = None,
        name: str | None = None,
        suggestion: str | None = None,
        cls: type[IpbError] = LoadError,
    ) -> IpbError:
        """An error at ``field_path`` inside this record, naming the record number."""
        path = self.path + tuple(field_path)
        line, column = self.doc.locate_key(path) if key else self.doc.locate(path)
        return self._at(message, line, column, rule=rule, name=name, suggestion=suggestion, cls=cls)

    def error_in_string(
        self,
        message: str,
        field_path: Sequence[str | int],
        offset: int,
        *,
        rule: str | None = None,
        cls: type[IpbError] = LoadError,
    ) -> IpbError:
        """An error at character ``offset`` of the string at ``field_path``."""
        line, column = self.doc.locate_in_string(self.path + tuple(field_path), offset)
        return self._at(message, line, column, rule=rule, cls=cls)

    def _at(self, message: str, line: int, column: int, *, cls: type[IpbError] = LoadError, **fields: Any) -> IpbError:
        return cls(
            f"record {self.record}: {message}",
            file=self.doc.file,
            line=line,
            column=column,
            source_line=self.doc.source_line(line),
            **fields,
        )


def _schema_errors(doc: AnyDoc, validator: jsonschema.protocols.Validator, what: str) -> list[IpbError]:
    """Every schema violation in ``doc``, located; unknown keys get a "did you mean"."""
    found: list[IpbError] = []
    prefix = doc.prefix if isinstance(doc, JsonDoc) else (lambda message: message)
    for err in sorted(validator.iter_errors(doc.data), key=lambda e: [str(p) for p in e.absolute_path]):
        path = tuple(err.absolute_path)
        if err.validator == "additionalProperties":
            allowed = list(err.schema.get("properties", {}))
            instance = err.instance if isinstance(err.instance, dict) else {}
            owner = err.schema.get("title", what) if path else what
            for key in (k for k in instance if k not in allowed):
                line, column = doc.locate_key(path + (key,))
                found.append(LoadError(
                    prefix(f"unknown field {key!r} in {owner}; expected one of: {', '.join(allowed)}"),
                    file=doc.file, line=line, column=column, rule="schema:additionalProperties", name=key,
                    suggestion=did_you_mean(key, allowed), source_line=doc.source_line(line),
                ))
            continue
        message = err.message
        suggestion = None
        if err.validator == "enum" and isinstance(err.instance, str):
            suggestion = did_you_mean(err.instance, [str(v) for v in err.validator_value])
        if err.validator in ("oneOf", "anyOf") and err.context:
            message = min(err.context, key=lambda e: len(e.message)).message
        where = "/".join(map(str, path)) or "the top level"
        line, column = doc.locate_key(path) if err.validator == "required" and path else doc.locate(path)
        found.append(LoadError(prefix(f"{message} (at {where})"), file=doc.file, line=line, column=column,
                               rule=f"schema:{err.validator}", suggestion=suggestion, source_line=doc.source_line(line)))
    return found


@lru_cache(maxsize=None)
def _schema(name: str) -> dict[str, Any]:
    text = resources.files("ipb.grammar").joinpath(name).read_text(encoding="utf-8")
    return cast(dict[str, Any], json.loads(text))


@lru_cache(maxsize=None)
def _validators(name: str, item_def: str) -> tuple[jsonschema.protocols.Validator, jsonschema.protocols.Validator]:
    schema = _schema(name)
    item = {"$defs": schema["$defs"], "$ref": f"#/$defs/{item_def}"}
    return jsonschema.Draft202012Validator(schema), jsonschema.Draft202012Validator(item)


@dataclass
class Loaded:
    """A records file as read: the document's other fields, the usable records, the problems.

    ``items`` holds only the records that passed the schema; ``errors`` every
    syntax and schema problem found, so that a caller can add the errors of
    its own checks on the good records and report them all together.
    """

    header: dict[str, Any]
    items: list[Item]
    errors: list[IpbError]

    def raise_errors(self, more: Sequence[IpbError] = ()) -> None:
        """Raise every problem (these and ``more``), if there is any."""
        found = [*self.errors, *more]
        if found:
            raise _group(found)


def load_items(
    source: str | Path,
    *,
    schema: str,
    item_def: str,
    list_key: str,
    what: str,
    text: str | None = None,
) -> Loaded:
    """Read a records file in any of its three forms and check it against a schema.

    Parameters
    ----------
    source:
        The file. ``.jsonl`` is JSON Lines, one record per non-blank line;
        ``.json`` one JSON document; anything else strict YAML (see
        :mod:`ipb.engine._yaml`).
    schema:
        A schema file shipped in ``ipb.grammar`` describing the document form.
    item_def:
        The ``$defs`` entry one record (one JSON Lines line) must match.
    list_key:
        The document's key holding the list of records.
    what:
        How to name a record in "unknown field" messages.
    text:
        The file's text, if already read (``source`` then only names it).

    Returns
    -------
    Loaded
        The document's other top-level fields (``{}`` for JSON Lines, and
        when the document itself is malformed), the records that passed the
        schema in file order, and every problem: a JSON Lines line that is
        not JSON does not stop the others; errors there name the record
        number and the line, YAML and JSON errors ``file:line:col``.

    Raises
    ------
    LoadError or ErrorGroup
        Only when nothing can be read: the file is missing or not UTF-8, a
        YAML or JSON document does not parse, a JSON Lines file is empty.
    """
    name = str(source)
    if text is None:
        text = _read_text(source)
    whole, one = _validators(schema, item_def)
    errors: list[IpbError] = []
    items: list[Item] = []
    if name.endswith(".jsonl"):
        number = 0
        for index, line in enumerate(text.split("\n")):
            line = line.removesuffix("\r")
            if not line.strip():
                continue
            number += 1
            try:
                doc = load_json_text(line, name, first_line=index + 1, record=number)
            except LoadError as exc:
                errors.append(exc)
                continue
            found = _schema_errors(doc, one, what)
            errors.extend(found)
            if not found:
                items.append(Item(doc.data, doc, (), number))
        if number == 0:
            raise LoadError(f"{name} holds no records", file=name, line=1, column=1, rule="empty")
        return Loaded({}, items, errors)
    doc_ = _parse_document(text, name)
    errors.extend(_schema_errors(doc_, whole, "the document"))
    data = doc_.data
    entries = data.get(list_key) if isinstance(data, dict) else None
    if isinstance(entries, list):
        for i, entry in enumerate(entries):
            if isinstance(entry, dict) and one.is_valid(entry):
                items.append(Item(entry, doc_, (list_key, i), i + 1))
    header = {k: v for k, v in data.items() if k != list_key} if isinstance(data, dict) and not errors else {}
    return Loaded(header, items, errors)


def _parse_document(text: str, name: str) -> AnyDoc:
    if name.endswith(".json"):
        return load_json_text(text, name)
    return load_yaml(text, name, collect=True)


def load_document(source: str | Path, *, schema: str, what: str = "the document", text: str | None = None) -> AnyDoc:
    """Read one YAML (strict) or ``.json`` document and check it against a shipped schema.

    Returns
    -------
    YamlDoc or JsonDoc
        The data with the position of every value, for later field errors.

    Raises
    ------
    LoadError or ErrorGroup
        As :func:`load_items`, for a single document.
    """
    name = str(source)
    if text is None:
        text = _read_text(source)
    doc = _parse_document(text, name)
    errors = _schema_errors(doc, jsonschema.Draft202012Validator(_schema(schema)), what)
    if errors:
        raise _group(errors)
    return doc


def _read_text(source: str | Path) -> str:
    name = str(source)
    try:
        return Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        raise LoadError(f"cannot read {name}: {exc.strerror or exc}", file=name, rule="file") from exc
    except UnicodeDecodeError as exc:
        raise LoadError(f"{name} is not valid UTF-8; save it as UTF-8", file=name, rule="encoding") from exc


def _group(errors: list[IpbError]) -> IpbError:
    return errors[0] if len(errors) == 1 else ErrorGroup(errors)


def json_value(value: Any) -> Any:
    """``value`` with Decimals as JSON numbers (int when integral) and dates as ISO text.

    >>> json_value({"a": Decimal("2.50"), "b": [Decimal("3")], "d": dt.date(2024, 1, 2)})
    {'a': 2.5, 'b': [3], 'd': '2024-01-02'}
    """
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, Decimal):
        if value == value.to_integral_value() and abs(value) < Decimal(10) ** 15:
            return int(value)
        return float(value)
    if isinstance(value, Mapping):
        return {str(k): json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return value


# =========================================================================== time stamps

_DATE_ONLY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_UTC = dt.timezone.utc


def _zone(name: str) -> dt.tzinfo:
    if name.upper() == "UTC":
        return _UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise LoadError(f"unknown time zone {name!r}; use an IANA name such as 'America/New_York' or 'UTC'",
                        rule="timezone", name=name) from exc


@dataclass(frozen=True, order=True)
class Stamp:
    """A moment of availability: ``instant`` (aware, UTC) and how it was written.

    ``precision`` is ``"date"`` for a date-only value (the instant is then
    the end of that date in the store's time zone) and ``"datetime"``
    otherwise; ``text`` is the value as given.
    """

    instant: dt.datetime
    precision: str = field(compare=False)
    text: str = field(compare=False)

    @property
    def key(self) -> str:
        """Fixed-width UTC text that sorts as the instant does (SQLite compares it)."""
        return self.instant.astimezone(_UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_stamp(value: DateLike, *, date_timezone: str = "UTC") -> Stamp:
    """When a record stamped ``value`` becomes available (or when a cutoff falls).

    Parameters
    ----------
    value:
        ``"YYYY-MM-DD"`` or a :class:`datetime.date`: the end of that date
        (midnight starting the next day) in ``date_timezone``. An ISO
        date-time with a zone (``Z`` or ``+HH:MM``) or an aware
        :class:`datetime.datetime`: that instant.
    date_timezone:
        IANA zone in which a date ends.

    Raises
    ------
    LoadError
        Rule ``timestamp``: not ISO 8601, or a date-time without a zone.

    >>> parse_stamp("2026-03-31").key
    '2026-04-01T00:00:00.000000Z'
    >>> parse_stamp("2026-03-31", date_timezone="America/New_York").key
    '2026-04-01T04:00:00.000000Z'
    >>> parse_stamp("2026-03-31T16:00:00-04:00").key
    '2026-03-31T20:00:00.000000Z'
    """
    if isinstance(value, dt.datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise LoadError(f"time stamp {value.isoformat()!r} has no time zone; add one (Z or an offset such as -04:00)",
                            rule="timestamp")
        return Stamp(value.astimezone(_UTC), "datetime", value.isoformat())
    if isinstance(value, dt.date):
        return _end_of(value, date_timezone, value.isoformat())
    if not isinstance(value, str):
        raise LoadError(f"time stamp {value!r} must be an ISO date or date-time string", rule="timestamp")
    text = value.strip()
    if _DATE_ONLY.fullmatch(text):
        try:
            day = dt.date.fromisoformat(text)
        except ValueError:
            raise LoadError(f"{value!r} is not a calendar date (YYYY-MM-DD)", rule="timestamp") from None
        return _end_of(day, date_timezone, value)
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        raise LoadError(
            f"{value!r} is not an ISO date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SS+HH:MM)", rule="timestamp"
        ) from None
    if moment.tzinfo is None:
        raise LoadError(
            f"time stamp {value!r} has no time zone; add one (Z or an offset such as -04:00) "
            "so that it names one instant", rule="timestamp",
        )
    return Stamp(moment.astimezone(_UTC), "datetime", value)


def _end_of(day: dt.date, zone_name: str, text: str) -> Stamp:
    zone = _zone(zone_name)
    midnight = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0), tzinfo=zone)
    return Stamp(midnight.astimezone(_UTC), "date", text)


def eligible_before(cutoff: DateLike, access_limit: DateLike | None = None, *, date_timezone: str = "UTC") -> Stamp:
    """The bound a version's availability must precede: ``min(cutoff, access_limit)``.

    >>> eligible_before("2026-03-31T16:00:00-04:00", "2026-03-01").text
    '2026-03-01'
    """
    bound = parse_stamp(cutoff, date_timezone=date_timezone)
    if access_limit is not None:
        limit = parse_stamp(access_limit, date_timezone=date_timezone)
        if limit.instant < bound.instant:
            bound = limit
    return bound


def is_available(
    stamp: DateLike, cutoff: DateLike, access_limit: DateLike | None = None, *, date_timezone: str = "UTC"
) -> bool:
    """Whether a record stamped ``stamp`` is eligible at ``cutoff`` (ILE Appendix B.2).

    True when its availability strictly precedes ``min(cutoff, access_limit)``.

    >>> is_available("2024-06-29", "2024-06-30"), is_available("2024-06-30", "2024-06-30")
    (True, False)
    >>> is_available("2024-06-30T10:00:00Z", "2024-06-30")
    True
    """
    when = parse_stamp(stamp, date_timezone=date_timezone)
    return when.instant < eligible_before(cutoff, access_limit, date_timezone=date_timezone).instant


@dataclass(frozen=True)
class TemporalViolation:
    """A fact that could not have been known at the decision time."""

    name: str
    stamp: Stamp
    bound: Stamp

    @property
    def message(self) -> str:
        return (
            f"fact {self.name!r} dated {self.stamp.text} is available from {self.stamp.key}, "
            f"not before the decision-time bound {self.bound.text} ({self.bound.key})"
        )


def decision_time_violations(
    dated_facts: Mapping[str, DateLike],
    as_of: DateLike,
    *,
    access_limit: DateLike | None = None,
    date_timezone: str = "UTC",
) -> list[TemporalViolation]:
    """The facts of a scenario that were not yet available at its date.

    For a perturbation operator (temporal displacement, FM-6): ``dated_facts``
    maps each fact name to the date or time its value was published;
    ``as_of`` is the scenario's decision time. A fact violates the boundary
    when its availability does not precede ``min(as_of, access_limit)``; a
    date-only fact dated on the scenario's own (date-only) day is a violation
    too, since it only became available when that day ended.

    Returns
    -------
    list of TemporalViolation
        In the order of ``dated_facts``; empty when every fact is admissible.

    >>> [v.name for v in decision_time_violations({"q2_revenue": "2024-07-25", "q1_revenue": "2024-04-23"}, "2024-06-30")]
    ['q2_revenue']
    """
    bound = eligible_before(as_of, access_limit, date_timezone=date_timezone)
    found: list[TemporalViolation] = []
    for name, value in dated_facts.items():
        stamp = parse_stamp(value, date_timezone=date_timezone)
        if not stamp.instant < bound.instant:
            found.append(TemporalViolation(name, stamp, bound))
    return found


def require_decision_time(
    dated_facts: Mapping[str, DateLike],
    as_of: DateLike,
    *,
    access_limit: DateLike | None = None,
    date_timezone: str = "UTC",
) -> None:
    """Refuse a scenario that uses facts from after its decision time.

    Raises
    ------
    PerturbError
        Rule ``look-ahead``, naming every offending fact (``name`` is the
        first); nothing is raised when all facts are admissible.

    >>> require_decision_time({"deliveries": "2024-07-02"}, "2024-06-30")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ipb.errors.PerturbError: <input>: perturb error: look-ahead: fact 'deliveries' dated 2024-07-02 ...
    """
    found = decision_time_violations(dated_facts, as_of, access_limit=access_limit, date_timezone=date_timezone)
    if found:
        raise PerturbError("look-ahead: " + "; ".join(v.message for v in found), rule="look-ahead", name=found[0].name)


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
