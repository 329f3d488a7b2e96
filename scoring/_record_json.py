"""Writing a scoring run's records: one ``responses.jsonl`` line per record and atomic file writes.

Moved out of :mod:`ipb.scoring.run` (which re-exports every name) when several input files grew that module past
the house limit; the functions are unchanged.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from ipb._files import write_text_atomic


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return str(value)


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, np.generic):
        return _finite(value.item())
    if isinstance(value, Mapping):
        return {str(k): _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


#: Significant digits of every float written in a record: what a double holds reliably (C's DBL_DIG), so the binary
#: noise of a sum (0.1 + 0.2 = 0.30000000000000004, 0.7000000000000002) is written as the decimal it stands for.
RECORD_DIGITS = 15
#: Seventeen digits and dots in a row: a float written with 16 or more significant digits has them (its shortest repr
#: has a dot, or ``.0``, and at least 16 digits), one with 15 or fewer is unchanged by :data:`RECORD_DIGITS`; a record
#: without them is written as ``json.dumps`` wrote it.
_LONG_DIGITS = re.compile(r"[0-9.]{17}")
#: A JSON string (skipped whole) or a JSON number.
_JSON_TOKEN = re.compile(r'"(?:[^"\\]+|\\.)*"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?')


def _float_token(m: re.Match[str]) -> str:
    token = m.group()
    if token[0] == '"' or not any(c in token for c in ".eE"):
        return token  # strings (a model's answer may quote "0.30000000000000004") and integers stay as written
    rounded = float(f"{float(token):.{RECORD_DIGITS}g}")
    return repr(rounded) if math.isfinite(rounded) else token  # within 5e-16 of the largest double: kept


def dumps_record(record: Mapping[str, Any]) -> str:
    """One ``responses.jsonl`` line (no newline): sorted keys, ASCII, no NaN (non-finite numbers become null), every
    float to :data:`RECORD_DIGITS` significant digits (the shortest text that reads back as that rounded value).

    Metrics are sums and products of fractions, so a record once read ``"basp_strict":0.2750000000000001``;
    rounding where the record is written (not in the metrics: the summary is computed from the exact values and
    rounds its own figures to 6 decimals) keeps every reader's numbers short and the same on every platform.
    Integers and strings are written as they are.

    >>> print(dumps_record({"b": float("nan"), "a": 1}))
    {"a":1,"b":null}
    >>> print(dumps_record({"basp": 0.1 + 0.2, "n": 12345678901234567, "text": "0.30000000000000004"}))
    {"basp":0.3,"n":12345678901234567,"text":"0.30000000000000004"}
    """
    return _record_text(record)[0]


def _record_text(record: Mapping[str, Any]) -> tuple[str, bool]:
    """:func:`dumps_record`'s line, and whether a float was rounded in it (the record read back then differs)."""
    try:
        text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False,
                          default=_json_default)
    except ValueError:
        text = json.dumps(_finite(record), sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                          allow_nan=False, default=_json_default)
    if not _LONG_DIGITS.search(text):
        return text, False
    rounded = _JSON_TOKEN.sub(_float_token, text)
    return rounded, rounded != text


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (:func:`ipb._files.write_text_atomic`)."""
    write_text_atomic(path, text)


def record_schema() -> dict[str, Any]:
    """The JSON Schema of a response record (``grammar/score_record.schema.json``)."""
    from importlib import resources

    text = resources.files("ipb.grammar").joinpath("score_record.schema.json").read_text(encoding="utf-8")
    return dict(json.loads(text))
