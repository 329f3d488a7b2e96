"""Strict JSON and JSON Lines reading with every value located by line and column.

The reader shared by every JSON-based input of the project (the record formats of
:mod:`ipb.neighbours.records` and :mod:`ipb.neighbours.forecast`, evidence files, dependency
facts): duplicate keys, ``NaN`` and ``Infinity`` are refused, numbers are read as
:class:`~decimal.Decimal`, and each error names the record number (JSON Lines) and
points at the offending field. Imports only :mod:`ipb.errors` and the engine's YAML reader.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from importlib import resources
from json import decoder as _json_decoder
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence, TypeAlias, cast

import jsonschema

from ipb.engine._nesting import too_deep_at
from ipb.engine._yaml import YamlDoc, load_yaml
from ipb.engine.numbers import MAX_EXPONENT, NumberError, check_magnitude
from ipb.errors import ErrorGroup, IpbError, LoadError, did_you_mean

__all__ = [
    "JsonDoc",
    "Item",
    "load_json_text",
    "load_items",
    "Loaded",
    "load_document",
    "AnyDoc",
    "json_value",
    "jsonl_lines",
    "parse_json_line",
    "parse_canonical_line",
    "NOT_CANONICAL",
    "json_depth_error",
    "MAX_JSON_DEPTH",
    "json_document",
    "canonical_json",
]

# =========================================================================== canonical JSON writing

_orjson: Any
try:  # orjson writes the same bytes some five times faster (tests/engine/test_canonical_json.py)
    import orjson as _orjson
except ImportError:  # pragma: no cover - orjson is a core dependency
    _orjson = None

_msgspec: Any
try:  # msgspec reads JSON some twice as fast as the standard library (parse_canonical_line)
    import msgspec as _msgspec
except ImportError:  # pragma: no cover - the standard library's parser is used instead
    _msgspec = None


def canonical_json(value: Any) -> str:
    """``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``, faster.

    The one-line form of items, scenario keys and hashed documents, written
    by orjson: the same text for strings, ints, bools, None, lists and
    string-keyed dicts (a test compares the two on every item of the bundled
    cards). A value orjson refuses (an int beyond 64 bits, a non-string key,
    another type) is written by :func:`json.dumps` itself. Floats are the one
    kind the two write differently (``1e-05`` against ``1e-5``, ``NaN``
    against ``null``); the documents written this way hold none (numbers in
    items are exact literal strings).

    >>> canonical_json({"b": [1, None], "a": "é"})
    '{"a":"é","b":[1,null]}'
    """
    if _orjson is not None:
        try:
            return _orjson.dumps(value, option=_orjson.OPT_SORT_KEYS).decode("utf-8")
        except (TypeError, _orjson.JSONEncodeError):
            pass
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# =========================================================================== JSON reading


_WS = re.compile(r"[ \t\n\r]*")
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_JSON_LITERAL = re.compile(r"true|false|null")

Path_ = tuple[str | int, ...]

#: ``scanstring(text, index_after_quote) -> (string, index_after_closing_quote)``, the
#: standard library's own JSON string scanner (not in typeshed).
scanstring: Callable[[str, int], tuple[str, int]] = _json_decoder.scanstring  # type: ignore[attr-defined]


def _decimal(text: str) -> Decimal:
    """A JSON number with a fraction or exponent, exactly; ValueError beyond the number reader's limits."""
    try:
        return check_magnitude(Decimal(text), f"number {text[:30]}")
    except InvalidOperation:
        raise ValueError(f"number {text[:30]} is beyond the limit of 10^±{MAX_EXPONENT}") from None
    except NumberError as exc:
        raise ValueError(exc.message) from None


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


#: Deepest nesting of arrays and objects read in one JSON value (the standard
#: library's parser, and every recursive walk after it, would overflow Python's stack
#: at about 1,000; no ipb format nests deeper than 10).
MAX_JSON_DEPTH = 100

#: A string (runs of plain characters taken whole, so a megabyte string is one C loop, not a branch a character)
#: or a bracket.
_BRACKETS = re.compile(r'"(?:[^"\\]+|\\.)*"?|[\[\]{}]')


def json_depth_error(text: str, file: str, *, first_line: int = 1, record: int | None = None) -> LoadError | None:
    """A LoadError at the bracket that nests deeper than :data:`MAX_JSON_DEPTH`, or None.

    Linear in ``len(text)`` (one regular-expression pass that skips strings),
    and nearly free when the text holds fewer brackets than the limit.

    >>> json_depth_error("[" * 101 + "]" * 101, "x.jsonl", record=3).message
    'record 3: JSON nested deeper than 100 levels; ipb reads at most 100'
    """
    at = too_deep_at(text, _BRACKETS, MAX_JSON_DEPTH)
    if at is None:
        return None
    before = text[:at]
    line = before.count("\n")
    column = at - (before.rfind("\n") + 1) + 1
    where = "" if record is None else f"record {record}: "
    return LoadError(f"{where}JSON nested deeper than {MAX_JSON_DEPTH} levels; ipb reads at most {MAX_JSON_DEPTH}",
                     file=file, line=first_line + line, column=column, rule="json-depth")


def json_document(raw: bytes | str, file: str, *, allow_nan: bool = True) -> Any:
    """The JSON value of one whole document (a log, a results or summary file, a model's reply), bounded in depth.

    The one reader of whole JSON documents whose nesting nobody checked (s53break item 1, s54break items 1-3):
    ``raw`` is bytes read as UTF-8 (a byte-order mark dropped) or text already decoded. Numbers are read as the
    standard library reads them (floats); ``allow_nan=False`` refuses ``NaN`` and ``Infinity`` (rule
    ``json-constant``, located at the first by :func:`load_json_text`). The caller bounds the size before reading.

    Raises
    ------
    LoadError
        Its message says what is wrong without naming the file (``file`` is set and printed before it). Rule
        ``json-depth`` (nested deeper than :data:`MAX_JSON_DEPTH`, located at the bracket), ``encoding`` or
        ``json-syntax`` (located by line and column).

    >>> json_document(b'{"a": [1, 2]}', "r.json")
    {'a': [1, 2]}
    >>> print(json_document("[" * 101 + "]" * 101, "r.json"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ipb.errors.LoadError: r.json:1:101: load error: JSON nested deeper than 100 levels; ipb reads at most 100
    """
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise LoadError(f"not UTF-8 text (byte {exc.start + 1} is {raw[exc.start]:#04x})", file=file,
                            rule="encoding") from None
    else:
        text = raw.removeprefix("\ufeff")
    deep = json_depth_error(text, file)
    if deep is not None:
        raise deep
    try:
        return json.loads(text) if allow_nan else json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        cut = exc.pos >= len(text.rstrip()) - 1 or "Unterminated" in exc.msg
        raise LoadError(f"not JSON: {exc.msg.removesuffix(' at')} (line {exc.lineno}, column {exc.colno})"
                        + ("; the text stops mid-way: a log cut off (the eval still running, or the log copied "
                           "before it finished?)" if cut else ""),
                        file=file, line=exc.lineno, column=exc.colno, rule="json-syntax") from None
    except RecursionError:  # not reached past json_depth_error; kept so that no traceback can escape
        raise LoadError("JSON nested too deeply to read", file=file, rule="json-depth") from None
    except ValueError:  # NaN or Infinity (allow_nan=False): located at the first one
        load_json_text(text, file)
        raise LoadError("holds NaN or Infinity, which is not a JSON number", file=file,
                        rule="json-constant") from None


def jsonl_lines(text: str) -> Iterator[tuple[int, str]]:
    """The non-blank lines of a JSON Lines text as (1-based line number, line).

    The one line splitter of every JSON Lines reader: a UTF-8 byte-order mark
    at the start is dropped (so record 1 is never lost), ``\\r\\n`` endings are
    accepted, and only ``\\n`` ends a line (a U+2028 inside a string stays in
    its record, unlike ``str.splitlines``).

    >>> list(jsonl_lines('\\ufeff{"a": 1}\\r\\n\\n{"b": 2}'))
    [(1, '{"a": 1}'), (3, '{"b": 2}')]
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    for index, line in enumerate(text.split("\n")):
        line = line.removesuffix("\r")
        if line.strip():
            yield index + 1, line


class _DuplicateKey(Exception):
    pass


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` that refuses a key given twice (``{"item_id": "a", "item_id": "b"}``: which one is meant?)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _DuplicateKey
    return out


#: The most digits of a JSON integer (Python's own limit on int(str)); a longer one is refused in our words.
MAX_INT_DIGITS = 4300


class _LongInteger(ValueError):
    pass


def _integer(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_INT_DIGITS:
        raise _LongInteger(f"a whole number written with {digits:,} digits; ipb reads at most {MAX_INT_DIGITS:,}")
    return int(text)


def _long_integer_column(line: str) -> int:
    """1-based column of the first run of more than :data:`MAX_INT_DIGITS` digits in ``line`` (1 when none)."""
    m = re.search(r"-?\d{%d,}" % (MAX_INT_DIGITS + 1), line)
    return m.start() + 1 if m else 1


def parse_json_line(line: str, file: str, line_no: int, *, record: int | None = None, exact: bool = True) -> Any:
    """One JSON Lines record, strictly: the data, or a LoadError at ``file:line:column``.

    ``exact`` reads non-integral numbers as Decimal. ``NaN``/``Infinity``,
    duplicate keys (located at the repeated key, by :func:`load_json_text`) and
    nesting beyond :data:`MAX_JSON_DEPTH` are refused.

    >>> parse_json_line('{"item_id": "a", "item_id": "b"}', "r.jsonl", 7, record=7)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ipb.errors.LoadError: r.jsonl:7:18: load error: record 7: duplicate key 'item_id': it is already defined at line 7, ...
    """
    problem = json_depth_error(line, file, first_line=line_no, record=record)
    if problem is not None:
        raise problem
    where = "" if record is None else f"record {record}: "
    try:
        return json.loads(line, parse_float=_decimal if exact else float, parse_constant=_refuse_constant,
                          object_pairs_hook=_unique_keys, parse_int=_integer)
    except _DuplicateKey:
        load_json_text(line, file, first_line=line_no, record=record)  # raises, at the repeated key
        raise AssertionError("a duplicate key the locating reader did not find") from None
    except json.JSONDecodeError as exc:
        raise LoadError(f"{where}not JSON: {exc.msg}", file=file, line=line_no, column=exc.colno, rule="json-syntax",
                        source_line=line[:300]) from None
    except _LongInteger as exc:
        raise LoadError(f"{where}{exc}", file=file, line=line_no, column=_long_integer_column(line),
                        rule="json-number", source_line=line[:300]) from None
    except (ValueError, RecursionError) as exc:
        raise LoadError(f"{where}{exc}", file=file, line=line_no, column=_constant_column(line), rule="json-constant",
                        source_line=line[:300]) from None


#: What :func:`parse_canonical_line` answers for a line it leaves to :func:`parse_json_line`.
NOT_CANONICAL: Any = object()

#: Every byte but the two that open a JSON container (deleted to count those fast).
_NOT_OPENERS = bytes(b for b in range(256) if b not in b"[{")


def _no_fraction(text: str) -> Any:
    raise ValueError("a number with a fraction or exponent is read by the strict reader (as a Decimal)")


_read_fast: Callable[[bytes], Any] | None = (
    _msgspec.json.Decoder(float_hook=_no_fraction).decode if _msgspec is not None else None)
_FAST_ERRORS: tuple[type[BaseException], ...] = (ValueError, TypeError, RecursionError) + (
    (_msgspec.MsgspecError,) if _msgspec is not None else ())


def parse_canonical_line(line: str | bytes) -> Any:
    """One JSON Lines record written compactly, read faster; else :data:`NOT_CANONICAL`.

    Compact form is what orjson writes (no spaces, orjson's escapes, keys in
    any order): every item line of ``ipb perturb`` (:func:`canonical_json`,
    keys sorted). For such a line the value is exactly what
    :func:`parse_json_line` returns, read some three times faster: by msgspec
    when it is installed (any number with a fraction or exponent stops it),
    else by the standard library's parser with the strict reader's
    ``parse_float`` and ``parse_constant`` but without its duplicate-key hook
    (a Python call per object). What the strict reader refuses or reads
    otherwise is ruled out by writing the value back: the value is given only
    when

    * the fast parser reads the line (``NaN``, ``Infinity``, control
      characters in strings, a byte-order mark and bytes that are not UTF-8
      are refused there);
    * orjson writes the value back to the line byte for byte (keys in the
      value's order, which is the line's). An object with a repeated key is
      written with the key once (the last one kept), so it never passes; nor
      does a number with a fraction or exponent (refused, or read as
      :class:`~decimal.Decimal`, which orjson does not write), an integer
      beyond 64 bits, ``-0``, a space, a ``\\r``, a lone surrogate or an
      escape orjson does not write;
    * at most :data:`MAX_JSON_DEPTH` brackets open, so nesting cannot be
      deeper than the strict reader allows.

    A line that fails any of them (a hand-edited item, a tampered one) gets
    :data:`NOT_CANONICAL`: the caller reads it with :func:`parse_json_line`,
    which gives the value or the located error. ``line`` is the line without
    its ``\\n``, as text or as UTF-8 bytes.

    >>> parse_canonical_line(b'{"a":[1,"x"],"b":null}')
    {'a': [1, 'x'], 'b': None}
    >>> parse_canonical_line(b'{"a":1,"a":2}') is NOT_CANONICAL  # a duplicate key: the strict reader says where
    True
    >>> parse_canonical_line(b'{"p":0.5}') is NOT_CANONICAL  # the strict reader gives Decimal('0.5')
    True
    """
    if _orjson is None:  # pragma: no cover - orjson is a core dependency
        return NOT_CANONICAL
    try:
        raw = line.encode("utf-8") if isinstance(line, str) else line
        if len(raw.translate(None, _NOT_OPENERS)) > MAX_JSON_DEPTH:
            return NOT_CANONICAL
        if _read_fast is not None:
            value = _read_fast(raw)
        else:
            value = json.loads(raw.decode("utf-8"), parse_float=_decimal, parse_constant=_refuse_constant)
        if _orjson.dumps(value) == raw:
            return value
    except _FAST_ERRORS:  # JSONDecodeError, Unicode errors, JSONEncodeError, msgspec's errors
        pass
    return NOT_CANONICAL


_CONSTANT = re.compile(r'"(?:[^"\\]|\\.)*"|(?P<constant>-?Infinity|NaN)')


def _constant_column(line: str) -> int:
    """1-based column of the first ``NaN``/``Infinity`` outside a string in ``line`` (1 when there is none)."""
    for m in _CONSTANT.finditer(line):
        if m.group("constant"):
            return m.start() + 1
    return 1


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
    if text.startswith("\ufeff"):
        text = text[1:]
    problem = json_depth_error(text, file, first_line=first_line, record=record)
    if problem is not None:
        raise problem
    lines = text.split("\n")
    try:
        data = json.loads(text, parse_float=_decimal, parse_constant=_refuse_constant)
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
        at = next((m.start("constant") for m in _CONSTANT.finditer(text) if m.group("constant")), 0)
        row = text.count("\n", 0, at)
        raise LoadError(f"{where}{exc}", file=file, line=first_line + row, column=at - (text.rfind("\n", 0, at) + 1) + 1,
                        rule="json-constant", source_line=lines[row]) from None
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
        for line_no, line in jsonl_lines(text):
            number += 1
            try:
                doc = load_json_text(line, name, first_line=line_no, record=number)
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
    """The text of a YAML or ``.json`` document file: a YAML one is read only up to the YAML loader's size limit,
    and neither is read from a FIFO or a device (:func:`ipb._files.read_text_limited`, s52break item 10)."""
    from ipb._files import UTF16_SNIFF, read_bytes_limited, read_text_limited, refuse_utf16
    from ipb.engine._yaml import MAX_YAML_CHARS

    name = str(source)
    if not name.endswith(".json"):
        return read_text_limited(source, MAX_YAML_CHARS, what="YAML document")
    raw = read_bytes_limited(source, -1, what="JSON document")
    refuse_utf16(raw[:UTF16_SNIFF], name, "JSON document")
    try:
        return raw.decode("utf-8")
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
