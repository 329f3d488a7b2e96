"""How the strict YAML loader resolves plain (unquoted) scalars (see :mod:`ipb.engine._yaml`).

Split out of ``_yaml.py`` by concern (issue 12, module sizes); behaviour unchanged.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

#: Longest plain number read (characters); Python refuses to convert integers past 4,300 digits.
MAX_NUMBER_CHARS = 200

__all__ = ["MAX_NUMBER_CHARS", "resolve_plain", "describe", "quoted", "YAML11_BOOLS", "CAPITAL_BOOLS"]

_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_YAML11_BOOLS = frozenset(
    "y Y yes Yes YES n N no No NO on On ON off Off OFF".split()
)
_CAPITAL_BOOLS = {"True": "true", "TRUE": "true", "False": "false", "FALSE": "false"}
_SPECIAL_FLOATS = frozenset(
    ".inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF .nan .NaN .NAN".split()
)

_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)(?:[eE][-+]?[0-9]+)?")
_LEADING_ZERO = re.compile(r"[-+]?0[0-9]+")
_BASE_PREFIX = re.compile(r"[-+]?0(?:[xX][0-9a-fA-F_]+|[oO][0-7_]+|[bB][01_]+)")
_UNDERSCORE_NUMBER = re.compile(r"[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9_]+)")
_EXPONENT_NO_DOT = re.compile(r"[-+]?[0-9]+[eE][-+]?[0-9]+")
_SEXAGESIMAL = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?")
_TIMESTAMP = re.compile(
    r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}"
    r"(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?"
    r"(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?"
)
_THOUSANDS = re.compile(r"[-+]?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?")


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _plain_decimal(text: str) -> str:
    """``1e3`` -> ``1000``, ``2e-5`` -> ``0.00002``; long ones as ``1.0e400``. An exponent of more than four digits
    is never expanded (``Decimal`` refuses ``1e99999999999999999999``, and its digits would not fit a message)."""
    mantissa, _, exponent = text.lower().partition("e")
    if len(exponent.lstrip("+-")) <= 4:
        plain = format(Decimal(text), "f")
        if len(plain) <= 24:
            return plain
    sign = "" if exponent[:1] in "+-" else "+"
    return f"{mantissa}.0e{sign}{exponent}"


def _resolve_plain(text: str) -> tuple[Any, str | None]:
    """Resolve a plain scalar: ``(value, None)`` or ``(text, why it is refused)``."""
    if text in _NULLS:
        return None, None
    if text == "true":
        return True, None
    if text == "false":
        return False, None
    if len(text) > MAX_NUMBER_CHARS and (_INT.fullmatch(text) or _FLOAT.fullmatch(text)):
        return text, (f"a number written with {len(text):,} characters; ipb reads numbers of at most "
                      f"{MAX_NUMBER_CHARS} (quote it if it is meant as text)")
    if _INT.fullmatch(text):
        return int(text), None
    if _FLOAT.fullmatch(text):
        try:
            return Decimal(text), None
        except InvalidOperation:  # pragma: no cover - the pattern admits only valid text
            pass
    q = _quoted(text)
    if text in _YAML11_BOOLS:
        return text, (
            f"ambiguous scalar {text}: YAML 1.1 reads it as a boolean and YAML 1.2 "
            f"as a string; quote it ({q}) or write true/false"
        )
    if text in _CAPITAL_BOOLS:
        lower = _CAPITAL_BOOLS[text]
        return text, (
            f"boolean {text} must be lowercase: write {lower}, or quote it ({q}) for a string"
        )
    if _LEADING_ZERO.fullmatch(text):
        digits = text.lstrip("+-").lstrip("0") or "0"
        sign = "-" if text.startswith("-") else ""
        return text, (
            f"ambiguous scalar {text}: YAML 1.1 reads a leading zero as octal and "
            f"YAML 1.2 as decimal; write {sign}{digits}, or quote it ({q}) for a string"
        )
    if _BASE_PREFIX.fullmatch(text):
        kind = {"x": "hexadecimal", "o": "octal", "b": "binary"}[text.lstrip("+-")[1].lower()]
        try:
            hint = f"write the decimal value {int(text.replace('_', ''), 0)}, or quote it ({q})"
        except ValueError:
            hint = f"quote it ({q})"
        return text, (
            f"ambiguous scalar {text}: {kind} numbers are read differently by "
            f"YAML 1.1 and YAML 1.2; {hint}"
        )
    if "_" in text and _UNDERSCORE_NUMBER.fullmatch(text):
        number = text.replace("_", "")
        return text, (
            f"ambiguous scalar {text}: YAML 1.1 reads it as the number {number} and "
            f"YAML 1.2 as a string; write {number}, or quote it ({q})"
        )
    if _EXPONENT_NO_DOT.fullmatch(text):
        return text, (
            f"ambiguous scalar {text}: YAML 1.2 reads it as a number and YAML 1.1 "
            f"as a string; write {_plain_decimal(text)}, or quote it ({q})"
        )
    if _SEXAGESIMAL.fullmatch(text):
        return text, (
            f"ambiguous scalar {text}: YAML 1.1 reads it as a base-60 number and "
            f"YAML 1.2 as a string; quote it ({q})"
        )
    if _TIMESTAMP.fullmatch(text):
        return text, (
            f"ambiguous scalar {text}: YAML 1.1 reads it as a date and YAML 1.2 as "
            f"a string; quote it ({q})"
        )
    if text in _SPECIAL_FLOATS:
        return text, (
            f"scalar {text} is not allowed: infinity and NaN are not valid numbers "
            f"here; write a finite number, or quote it ({q}) for a string"
        )
    if _THOUSANDS.fullmatch(text):
        number = text.replace(",", "")
        return text, (
            f"ambiguous scalar {text}: it loads as a string, not a number; write "
            f"{number}, or quote it ({q}) if you mean text"
        )
    if text in ("=", "<<"):
        return text, (
            f"ambiguous scalar {text}: YAML 1.1 gives it a special meaning; quote it ({q})"
        )
    return text, None


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, Decimal):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "a mapping"


resolve_plain, describe, quoted = _resolve_plain, _describe, _quoted
YAML11_BOOLS, CAPITAL_BOOLS = _YAML11_BOOLS, _CAPITAL_BOOLS
