"""Input columns -> :class:`~ipb.engine.columnar._expr.Col`, checked against the card's inputs.

A bad value is reported with the input name and the first offending row
(0-based row index in the batch), never as a traceback.
"""

from __future__ import annotations

import datetime as _dt
import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Mapping, Sequence

import numpy as np

from ipb.engine.card import Card
from ipb.engine.columnar._expr import U, Col, Vocabulary
from ipb.errors import ExecuteError, did_you_mean

__all__ = ["Encoded", "input_columns", "BadColumn", "BadColumns"]

_EPOCH = np.datetime64("1970-01-01", "D")


@dataclass(frozen=True)
class Encoded:
    """A category column already dictionary-encoded: ``codes`` (int, -1 unknown) into ``words``."""

    codes: np.ndarray
    words: Sequence[str]

    def __len__(self) -> int:
        return len(self.codes)


class BadColumn(ExecuteError):
    """A column whose values do not fit the card input it feeds.

    ``name`` is the input, ``row`` the 0-based row of the first bad value.
    """

    def __init__(self, message: str, *, name: str, row: int | None = None, suggestion: str | None = None) -> None:
        super().__init__(message, name=name, rule="column", suggestion=suggestion)
        self.row = row


class BadColumns(BadColumn):
    """Several bad values found in one pass, in ``found`` (each a :class:`BadColumn`); it reads as the first of them,
    so a caller that reports one error still can (s47break leftover 9: ``ipb screen`` stopped at the first bad
    cell, the guide says collect)."""

    def __init__(self, found: Sequence[BadColumn]) -> None:
        first = found[0]
        super().__init__(first.message, name=first.name or "", row=first.row, suggestion=first.suggestion)
        self.found = list(found)


def raise_found(found: Sequence[BadColumn]) -> None:
    """Raise the one :class:`BadColumn` of ``found``, or :class:`BadColumns` for several; nothing when empty."""
    if len(found) == 1:
        raise found[0]
    if found:
        raise BadColumns(found)


def each_bad(exc: BadColumn) -> list[BadColumn]:
    """The bad values ``exc`` stands for: itself, or every one of a :class:`BadColumns`."""
    return [x for one in exc.found for x in each_bad(one)] if isinstance(exc, BadColumns) else [exc]


def input_columns(card: Card, columns: Mapping[str, Any], n: int | None, vocab: Vocabulary) -> tuple[dict[str, Col], int]:
    """The card's inputs as columns; a missing input is unknown on every row.

    Raises
    ------
    BadColumn
        When a column's length differs from the others, a number column holds
        something that is not a number, or a category column a value the card
        does not declare (with a "did you mean").
    """
    used = [name for name in card.inputs if name in columns]
    if n is None:
        n = len(columns[used[0]]) if used else 0
    env: dict[str, Col] = {}
    found: list[BadColumn] = []  # the first bad value of every column, not only of the first bad column
    for name, spec in card.inputs.items():
        if name not in columns:
            env[name] = _UNKNOWN[spec.expr_type.kind]
            continue
        data = columns[name]
        if len(data) != n:
            raise BadColumn(f"column for input {name!r} has {len(data)} rows, expected {n}", name=name)
        kind = spec.expr_type.kind
        try:
            if kind == "number":
                env[name] = _number(name, data)
            elif kind == "bool":
                env[name] = _bool(name, data)
            elif kind == "category":
                env[name] = _category(name, data, spec.values or (), vocab)
            elif kind == "date":
                env[name] = _date(name, data)
            else:  # pragma: no cover - INPUT_TYPES has no other kinds
                raise BadColumn(f"input {name!r} has type {kind}, which columns do not support", name=name)
        except BadColumn as exc:
            found.append(exc)
    raise_found(found)
    return env, n


#: A column that is absent: unknown on every row.
_UNKNOWN = {
    "number": Col("num", np.nan, False),
    "bool": Col("bool", False, False),
    "category": Col("cat", np.int32(-1), False),
    "date": Col("date", np.int64(0), False),
}


def _number(name: str, data: Any) -> Col:
    arr = np.asarray(data)
    if arr.dtype.kind in "iu":
        v = arr.astype(np.float64)
        big = np.abs(v) >= 2.0 ** 53
        if not big.any():
            return Col("num", v, True, 0.0)
        ints = np.array([int(x) if b else None for x, b in zip(arr.tolist(), big.tolist())], dtype=object)
        return Col("num", v, True, np.where(big, 2.0 ** -53 * np.abs(v), 0.0), exact=False, raw=ints)
    if arr.dtype.kind == "b":
        raise BadColumn(f"input {name!r} is a number, but its column holds true/false values", name=name, row=0)
    if arr.dtype.kind == "f":
        v = arr.astype(np.float64, copy=False)
        ok = ~np.isnan(v)
        bad = ok & ~np.isfinite(v)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise BadColumn(f"input {name!r}, row {row}: {v[row]} is not a finite number", name=name, row=row)
        return Col("num", v, ok, None, exact=True)
    out = np.empty(len(arr), dtype=np.float64)
    raw: np.ndarray | None = None
    for i, x in enumerate(arr):
        if x is None or (isinstance(x, float) and x != x):
            out[i] = np.nan
        elif isinstance(x, (Decimal, int, float, np.integer, np.floating)) and not isinstance(x, bool):
            f = float(x)
            out[i] = f
            if isinstance(x, (Decimal, int)) and math.isfinite(f) and Decimal(repr(f)) != x:
                # not the float the engine computes with: keep it for the exact re-run (issue 16)
                if raw is None:
                    raw = np.full(len(arr), None, dtype=object)
                raw[i] = x
        else:
            raise BadColumn(f"input {name!r}, row {i}: {x!r} is not a number", name=name, row=i)
    col = _number(name, out)
    if raw is not None:
        # every row carries the float's rounding (integers past 2^53 too), so a near tie is re-run exactly
        col = Col("num", col.v, col.ok, 2 * U * np.abs(np.where(np.isnan(col.v), 0.0, col.v)), exact=False, raw=raw)
    return col


def _bool(name: str, data: Any) -> Col:
    arr = np.asarray(data)
    if arr.dtype.kind == "b":
        return Col("bool", arr.copy(), np.ones(len(arr), dtype=bool))
    v = np.zeros(len(arr), dtype=bool)
    ok = np.zeros(len(arr), dtype=bool)
    for i, x in enumerate(arr):
        if x is None or (isinstance(x, float) and x != x):
            continue
        if isinstance(x, (bool, np.bool_)) or (isinstance(x, (int, float, np.integer, np.floating)) and x in (0, 1)):
            v[i], ok[i] = bool(x), True
        elif isinstance(x, str) and x.strip().lower() in ("true", "false"):
            v[i], ok[i] = x.strip().lower() == "true", True
        else:
            raise BadColumn(f"input {name!r}, row {i}: {x!r} is not true or false", name=name, row=i)
    return Col("bool", v, ok)


def _category(name: str, data: Any, allowed: Sequence[str], vocab: Vocabulary) -> Col:
    if isinstance(data, Encoded):
        codes, words = np.asarray(data.codes), list(data.words)
    else:
        index: dict[Any, int] = {}
        raw = np.fromiter((index.setdefault(x, len(index)) for x in data), dtype=np.int32, count=len(data))
        words, remap = [], np.empty(len(index) + 1, dtype=np.int32)
        for x, j in index.items():
            if x is None or (isinstance(x, float) and x != x):
                remap[j] = -1
            else:
                remap[j] = len(words)
                words.append(str(x))
        codes = remap[raw] if len(raw) else raw
    table = np.full(len(words) + 1, -1, dtype=np.int32)
    codes = np.asarray(codes)
    present: Any = None
    for j, word in enumerate(words):
        if word not in allowed:
            if present is None:  # only a word the card does not declare needs looking up
                present = np.bincount(codes[codes >= 0], minlength=len(words)) > 0
            if not present[j]:
                continue
            row = int(np.flatnonzero(codes == j)[0])
            raise BadColumn(
                f"input {name!r}, row {row}: {word!r} is not a value of {name}; allowed: " + ", ".join(allowed),
                name=name, row=row, suggestion=did_you_mean(word, list(allowed)))
        table[j] = vocab.code(word)
    v = table[codes]  # -1 (unknown) picks the last slot, which is -1
    return Col("cat", v, v >= 0)


def _date(name: str, data: Any) -> Col:
    arr = np.asarray(data)
    if arr.dtype.kind != "M":
        out = np.empty(len(arr), dtype="datetime64[D]")
        for i, x in enumerate(arr):
            if x is None:
                out[i] = np.datetime64("NaT")
            elif isinstance(x, _dt.date):
                out[i] = np.datetime64(x.isoformat()[:10], "D")
            elif isinstance(x, str):
                try:
                    out[i] = np.datetime64(_dt.date.fromisoformat(x.strip()), "D")
                except ValueError:
                    raise BadColumn(f"input {name!r}, row {i}: {x!r} is not an ISO date (YYYY-MM-DD)", name=name, row=i) from None
            else:
                raise BadColumn(f"input {name!r}, row {i}: {x!r} is not a date", name=name, row=i)
        arr = out
    days = arr.astype("datetime64[D]")
    ok = ~np.isnat(days)
    return Col("date", (days - _EPOCH).astype(np.int64), ok)
