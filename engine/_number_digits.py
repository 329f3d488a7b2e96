"""The digits of a number's mantissa, and the error of the one number reader (:mod:`ipb.engine.numbers`).

:func:`_digits` turns a mantissa as written (``1,234.5``, ``1.234,5``, ``1'234'567``, ``1\u202f234,5``) into its
digit string and decimal exponent: the grouping rules of the module docstring of :mod:`ipb.engine.numbers`
("Digit grouping by context"), and the errors a typed value gets where it would leave its decimal mark to a guess.
:class:`NumberError` is re-exported by :mod:`ipb.engine.numbers`, where callers import it.

>>> _digits("1,234.5", None, "1,234.5", 0)
('12345', -1)
>>> _digits("1.234,5", None, "1.234,5", 0)
('12345', -1)
>>> _digits("1.234", True, "1.234", 0)
('1234', 0)
"""

from __future__ import annotations

from ipb.errors import LoadError

__all__ = ["NumberError"]


class NumberError(LoadError):
    """A text is not a number :func:`read_number` can read, or lies beyond its limits.

    ``offset`` is the 0-based index in the text read, ``column`` the 1-based one
    (``line`` 1); callers re-locate it in their file.
    """


def _error(message: str, text: str, offset: int = 0) -> NumberError:
    return NumberError(f"{text!r} is not a number: {message}", line=1, column=offset + 1, offset=offset,
                       rule="number")


def _ambiguous(mant: str, sep: str, text: str, at: int) -> NumberError:
    """The error for a lone separator a typed value must not leave to a guess (see :func:`read_number`)."""
    where = at + mant.rfind(sep)
    head, _, tail = mant.rpartition(sep)
    if sep == ",":
        return _error(f"',' is read only as a thousands separator in groups of three (1,234); for a decimal "
                      f"write {text.strip().replace(mant, head + '.' + tail, 1)!r}", text, where)
    short = tail.rstrip("0")
    decimal = head + "." + (short + "0" if len(short) == 3 else short or "0")
    return _error(f"'.' followed by exactly three digits is ambiguous (thousands or decimals); write "
                  f"{text.strip().replace(mant, head + tail, 1)!r} or {text.strip().replace(mant, head + ',' + tail, 1)!r} "
                  f"for thousands, {text.strip().replace(mant, decimal, 1)!r} for a decimal", text, where)


#: Characters that only ever group thousands (never a decimal mark), with their names for messages.
_GROUP_ONLY = {"'": "an apostrophe", "\u00a0": "a no-break space (U+00A0)",
               "\u202f": "a narrow no-break space (U+202F)", "\u2009": "a thin space (U+2009)"}


def _space_groups(mant: str, text: str, at: int) -> str:
    """``mant`` grouped by an apostrophe or a thin / no-break space, as plain digits and one decimal mark.

    These characters group thousands only: ``1'234'567.5`` and ``1\u202f234,5``
    are read, ``1'2``, ``12'34`` and ``1.234'567`` are errors (they were read
    as 1.2, 12.34 and 1234.567; issue 16, breaker 2 finding 5).
    """
    kinds = [c for c in _GROUP_ONLY if c in mant]
    name = _GROUP_ONLY[kinds[0]]
    if len(kinds) > 1:
        raise _error(f"two kinds of digit-group separator ({name} and {_GROUP_ONLY[kinds[1]]})", text, at)
    sep = kinds[0]
    groups = mant.split(sep)
    last, mark, frac = groups[-1], "", ""
    for m in ".,":
        if m in last:
            last, mark, frac = last.partition(m)
            break
    ok = (1 <= len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:-1]) and len(last) == 3
          and (not mark or (frac.isdigit() and not any(c in frac for c in ".,"))))
    if not ok or not "".join(groups[:-1] + [last]).isdigit():
        where = at + mant.index(sep)
        raise _error(f"{name} only groups thousands, in groups of three digits (1{sep}234{sep}567); "
                     "write the decimal mark as '.'", text, where)
    return "".join(groups[:-1] + [last]) + ("." + frac if mark else "")


def _digits(mant: str, decimal_comma: bool | None, text: str, at: int, strict: bool = False,
            dot_may_group: bool = False) -> tuple[str, int]:
    """(digit string, exponent) of a mantissa such as ``1,234.5`` -> ("12345", -1).

    With ``strict`` (and no ``decimal_comma`` given), a lone ``,`` that is not a
    thousands group, and (when ``dot_may_group``) a lone ``.`` followed by
    exactly three digits, are errors instead of guesses.
    """
    plain = _space_groups(mant, text, at) if any(c in mant for c in _GROUP_ONLY) else mant
    commas, dots = plain.count(","), plain.count(".")
    if commas and dots:
        mark = "," if plain.rfind(",") > plain.rfind(".") else "."
        group = "." if mark == "," else ","
        if plain.count(mark) > 1:
            raise _error(f"two decimal marks {mark!r}", text, at)
    elif commas or dots:
        sep = "," if commas else "."
        count = commas or dots
        head, _, tail = plain.rpartition(sep)
        looks_grouped = len(tail) == 3 and 1 <= len(head.split(sep)[0]) <= 3 and head != ""
        if count > 1:
            mark, group = ("", sep)
        elif strict and decimal_comma is None and sep == "," and (not looks_grouped or head.startswith("0")):
            raise _ambiguous(mant, ",", text, at)
        elif strict and decimal_comma is None and sep == "." and dot_may_group and looks_grouped and not head.startswith("0"):
            raise _ambiguous(mant, ".", text, at)
        elif sep == "," and looks_grouped and decimal_comma is not True:
            mark, group = ("", ",")
        elif sep == "." and looks_grouped and decimal_comma is True:
            mark, group = ("", ".")
        else:
            mark, group = (sep, "")
    else:
        mark, group = "", ""
    whole, _, frac = plain.partition(mark) if mark else (plain, "", "")
    if group:
        parts = whole.split(group)
        if not parts[0] or len(parts[0]) > 3 or any(len(p) != 3 for p in parts[1:]):
            raise _error(f"digits grouped by {group!r} must come in threes", text, at)
        whole = "".join(parts)
    if not (whole + frac).isdigit():
        raise _error("misplaced separator", text, at)
    digits = (whole + frac).lstrip("0") or "0"
    return digits, -len(frac)
