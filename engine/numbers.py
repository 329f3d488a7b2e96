"""The one number reader of ipb: text such as ``($7M)``, ``95.5%``, ``€1.234,5`` -> an exact value.

Every place that turns written numbers into values (scenario facts, ``--set``,
the literals of the expression language, item facts) reads them here, so that
they all agree on what ``$1.25B``, ``(3.5)%`` or ``1,234`` means and on the
limits that keep a huge exponent from stalling exact arithmetic.

What it reads
-------------
* **Signs**: ``-5``, ``+5``, ``−5`` (U+2212), accounting negatives ``(5)``,
  ``($7M)``, ``(3.5)%``, ``(3.5%)``; the sign may stand before or after the
  currency (``-$2B``, ``$-2B``).
* **Currencies** ``$`` / ``US$`` / ``USD`` (USD), ``€`` / ``EUR`` (EUR),
  ``£`` / ``GBP`` (GBP), before or after the amount. The code is returned;
  nothing is converted, and a euro amount is never read as dollars.
* **Scales**, in any case: ``k``/``thousand`` (10^3), ``m``/``mm``/``mn``/``million``
  (10^6), ``b``/``bn``/``billion`` (10^9), ``t``/``tn``/``trillion`` (10^12).
* **Digit grouping by context**: ``1,234.5`` and ``1.234,5`` (the later separator
  is the decimal mark when both appear); ``1,234,567`` and ``1.234.567`` (a
  separator that repeats groups thousands); one separator followed by exactly
  three digits groups thousands (``1,234`` is 1234, ``1.234`` is 1.234 unless
  ``decimal_comma=True``), otherwise it is the decimal mark (``3,5`` is 3.5).
  Apostrophes, thin spaces (U+2009) and no-break spaces (U+00A0, U+202F)
  only ever group thousands, in threes (``1'234'567.5``); ``1'2`` is an error. A value a
  person typed into one field (scenario fact, ``--set``, screen cell) is
  read with ``strict=True``: a lone ``,`` that is not a thousands group
  (``$20,5``) and money such as ``$20.000`` (thousands or decimals?) are
  errors, not guesses. In prose, :func:`decimal_comma_convention` finds the
  writer's convention from the numbers only one convention could write.
* **Exponents** ``5e-3``, ``1.5E9``; **percent** ``25%`` (the ratio 0.25) and
  **multiples** ``10x`` / ``10×``, and in words ``12 times``, ``4.5 to 1`` /
  ``4.5 to one`` and ``3:1`` (a ratio to one is a multiple: 4.5 and 3; a ratio to
  another number, ``3:2``, is not read).

Values are exact :class:`~decimal.Decimal`\\ s, built digit by digit (never
through a float or a rounding context).

Limits
------
A number text longer than :data:`MAX_TEXT` characters, with more than
:data:`MAX_DIGITS` digits, or whose value has a decimal exponent beyond
±:data:`MAX_EXPONENT` is refused with a :class:`NumberError`; this is what keeps
``$1e9999999 + $1`` from running for minutes in exact arithmetic.

>>> read_number("($7M)")
Number(value=Decimal('-7000000'), kind='money', currency='USD', span=(0, 5))
>>> read_number("(3.5)%").value, read_number("€1.234,5").currency
(Decimal('-0.035'), 'EUR')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Iterator

from ipb.engine._decimal_convention import decimal_comma_convention
from ipb.engine._number_digits import NumberError, _digits, _error

__all__ = [
    "Number",
    "NumberError",
    "read_number",
    "scan_numbers",
    "format_number",
    "decimal_comma_convention",
    "check_magnitude",
    "MAX_TEXT",
    "MAX_DIGITS",
    "MAX_EXPONENT",
    "KINDS",
    "CURRENCIES",
]

#: Longest number text read at all (characters).
MAX_TEXT = 200
#: Most significant digits in one number.
MAX_DIGITS = 60
#: Largest decimal exponent (either sign) of a number's value, after its scale.
MAX_EXPONENT = 100

#: ``Number.kind`` values.
KINDS = ("number", "money", "percent", "multiple")
#: Currency symbols and codes -> ISO 4217 code.
CURRENCIES = {"$": "USD", "US$": "USD", "USD": "USD", "€": "EUR", "EUR": "EUR", "£": "GBP", "GBP": "GBP"}

_SCALES = {
    "k": 3, "thousand": 3,
    "m": 6, "mm": 6, "mn": 6, "million": 6,
    "b": 9, "bn": 9, "billion": 9,
    "t": 12, "tn": 12, "trillion": 12,
}
_SIGN = r"[-+\u2212]"
_CUR = r"US\$|\$|€|£|USD|EUR|GBP"
#: A multiple written in words after its number: "12 times", "4.5 to 1", "4.5 to one", "3:1" (not "3:1.5" or "10:15");
#: "times" followed by a span or rate of time counts events ("met 5 times so far", "4 times a year", "3 times in a row").
_MULTIPLE_WORDS = r"times(?![A-Za-z])(?!\s+(?:so\s+far|in\s+a\s+row|(?:a|per|each|every)\s+(?:day|week|month|quarter|year))\b)|to\s+(?:1|one)(?!\w|[.,][0-9])|:\s*1(?![0-9]|[.,][0-9])"
_MANTISSA = r"[0-9][0-9,.'\u00a0\u202f\u2009]*[0-9]|[0-9]|[.,][0-9]+"  # noqa: RUF001 - the separators are on purpose
_NUMBER_RE = re.compile(
    rf"""
    (?P<open>\()?\s*
    (?P<sign1>{_SIGN})?\s*
    (?:(?P<cur1>{_CUR})\s*)?
    (?P<sign2>{_SIGN})?
    (?P<mant>{_MANTISSA})
    (?:[eE](?P<exp>{_SIGN}?[0-9]+))?
    (?:\s*(?P<scale>trillion|billion|million|thousand|tn|bn|mn|mm|[kmbt])(?![A-Za-z]))?
    (?:\s*(?P<cur2>{_CUR})(?![A-Za-z]))?
    (?:\s*(?P<close1>\)))?
    (?:\s*(?P<unit>%|x|×|{_MULTIPLE_WORDS}))?
    (?:\s*(?P<close2>\)))?
    """,
    re.VERBOSE | re.IGNORECASE,
)
# Prose scanning: the same shape without inner spaces around the sign, bounded on both sides.
_SCAN_RE = re.compile(
    rf"(?<![\w.,$€£])\(?(?:{_SIGN})?(?:US\$|\$|€|£)?(?:{_SIGN})?(?:[0-9][0-9,.]*[0-9]|[0-9])(?:[eE]{_SIGN}?[0-9]+)?"
    r"(?:\s?(?:trillion|billion|million|thousand|tn|bn|mn|mm|[kmbt])(?![A-Za-z]))?(?:\s?(?:USD|EUR|GBP|€|£))?"
    rf"\)?(?:%|x(?![A-Za-z])|×|\s*(?:{_MULTIPLE_WORDS}))?\)?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Number:
    """One number read from text.

    Attributes
    ----------
    value:
        The exact value: the amount for money, the ratio for a percentage
        (``25%`` -> ``0.25``), the multiple for ``10x``.
    kind:
        ``"number"``, ``"money"``, ``"percent"`` or ``"multiple"``.
    currency:
        ISO 4217 code (``"USD"``, ``"EUR"``, ``"GBP"``) for money, else None.
    span:
        ``(start, end)`` character offsets of the number in the text read.
    """

    value: Decimal
    kind: str
    currency: str | None
    span: tuple[int, int]


def check_magnitude(value: Decimal, what: str = "number") -> Decimal:
    """``value`` if it lies within the limits (:data:`MAX_DIGITS`, :data:`MAX_EXPONENT`), else NumberError.

    >>> check_magnitude(Decimal("1e99"))
    Decimal('1E+99')
    """
    if not value.is_finite():
        raise NumberError(f"{what} {value} is not a finite number", rule="number-limit")
    if value:
        digits = len(value.as_tuple().digits)
        if digits > MAX_DIGITS:
            raise NumberError(f"{what} has {digits} digits; at most {MAX_DIGITS} are read", rule="number-limit")
        if abs(value.adjusted()) > MAX_EXPONENT or abs(int(value.as_tuple().exponent)) > MAX_EXPONENT + MAX_DIGITS:
            raise NumberError(
                f"{what} {value:.3e} is beyond the limit of 10^±{MAX_EXPONENT}", rule="number-limit")
    return value


def read_number(text: str, *, decimal_comma: bool | None = None, strict: bool = False) -> Number:
    """Read the whole of ``text`` (surrounding spaces aside) as one number.

    Parameters
    ----------
    text:
        E.g. ``"$1.25B"``, ``"($7M)"``, ``"(3.5)%"``, ``"EUR 2,5 mn"``, ``"5e-3"``, ``"10x"``.
    decimal_comma:
        True when the writer uses the comma as decimal mark, so that a lone
        ``.`` followed by three digits groups thousands and a lone ``,`` is
        decimal; False when it is the dot; None (the default) when the
        convention is not known: ``1,234`` is 1234 and ``1.234`` is 1.234.
    strict:
        For values a person typed into one field (scenario facts, ``--set``,
        ``ipb screen`` cells), where no surrounding text tells the convention:
        with ``decimal_comma`` None, a guess becomes an error. A lone ``,`` that
        is not a thousands group (``$20,5``, ``1,23``, ``0,123``) is refused
        (write ``20.5``), and so is money without a scale whose lone ``.`` is
        followed by exactly three digits (``$20.000``, ``$1.500``: thousands or
        decimals?). ``1,234`` stays 1234; ``1.234`` (a plain number), ``$1.500M``
        (a scale), ``$0.125`` and both separators (``1.234,5``) stay as above.

    Returns
    -------
    Number

    Raises
    ------
    NumberError
        The text is not a number (a date, an expression such as ``1/0``, two
        currencies, a percentage with a currency, a digit other than ASCII
        ``0-9`` such as fullwidth ``２`` or Arabic-Indic ``٢``...), lies beyond
        the limits, or (``strict``) leaves its decimal mark to a guess.

    Examples
    --------
    >>> read_number("$-2B").value, read_number("1.234,5").value, read_number("5e-3").value
    (Decimal('-2000000000'), Decimal('1234.5'), Decimal('0.005'))
    >>> read_number("£3.5bn").currency, read_number("25%").value, read_number("10x").kind
    ('GBP', Decimal('0.25'), 'multiple')
    >>> read_number("$20.000").value, read_number("$20.000.000", strict=True).value
    (Decimal('20.000'), Decimal('20000000'))
    >>> try:
    ...     read_number("$20.000", strict=True)
    ... except NumberError as exc:
    ...     print(exc.column, exc.message)
    4 '$20.000' is not a number: '.' followed by exactly three digits is ambiguous (thousands or decimals); write '$20000' or '$20,000' for thousands, '$20.0' for a decimal
    """
    if len(text) > MAX_TEXT:
        raise _error(f"longer than {MAX_TEXT} characters", text[:20] + "...")
    for at, ch in enumerate(text):
        if ch.isdigit() and not ch.isascii():
            raise _error(f"{ch!r} (U+{ord(ch):04X}) is not an ASCII digit; write 0-9", text, at)
    stripped = text.strip()
    lead = len(text) - len(text.lstrip())
    if not stripped:
        raise _error("it is empty", text)
    m = _NUMBER_RE.fullmatch(stripped)
    if m is None:
        # Say where it stops being a number.
        m2 = _NUMBER_RE.match(stripped)
        at = lead + (m2.end() if m2 and m2.end() < len(stripped) else 0)
        found = stripped[at - lead] if at - lead < len(stripped) else ""
        raise _error(f"unexpected {found!r}" if m2 else "it does not start like a number", text, at)
    g = m.groupdict()
    if g["open"] and not (g["close1"] or g["close2"]):
        raise _error("'(' without ')'", text, lead)
    if (g["close1"] or g["close2"]) and not g["open"]:
        raise _error("')' without '('", text, lead + m.start("close1" if g["close1"] else "close2"))
    if g["close1"] and g["close2"]:
        raise _error("two ')'", text, lead + m.start("close2"))
    if g["sign1"] and g["sign2"]:
        raise _error("two signs", text, lead + m.start("sign2"))
    sign_text = g["sign1"] or g["sign2"] or ""
    if g["open"] and sign_text:
        raise _error("a sign inside accounting parentheses", text, lead + m.start("sign1" if g["sign1"] else "sign2"))
    if g["cur1"] and g["cur2"]:
        raise _error("two currencies", text, lead + m.start("cur2"))
    currency_text = g["cur1"] or g["cur2"]
    unit = g["unit"]
    kind = "number"
    if currency_text:
        kind = "money"
        if unit:
            raise _error(f"money cannot also be a {'percentage' if unit == '%' else 'multiple'}", text,
                         lead + m.start("unit"))
    elif unit == "%":
        kind = "percent"
    elif unit:
        kind = "multiple"
        if g["open"] and unit[0] not in "x×X":
            raise _error("a ratio written in words in accounting parentheses (an aside in prose, never a negative)",
                         text, lead)
    if g["scale"] and kind in ("percent", "multiple"):
        raise _error(f"a scale {g['scale']!r} on a {'percentage' if kind == 'percent' else 'multiple'}", text,
                     lead + m.start("scale"))
    digits, exponent = _digits(g["mant"], decimal_comma, text, lead + m.start("mant"), strict,
                               kind == "money" and not g["scale"] and not g["exp"])
    if len(digits) > MAX_DIGITS:
        raise _error(f"{len(digits)} digits; at most {MAX_DIGITS} are read", text, lead + m.start("mant"))
    if g["exp"]:
        exp_text = g["exp"].replace("\u2212", "-")
        if len(exp_text.lstrip("+-")) > 6:
            raise _error(f"exponent beyond the limit of 10^±{MAX_EXPONENT}", text, lead + m.start("exp"))
        exponent += int(exp_text)
    if g["scale"]:
        exponent += _SCALES[g["scale"].lower()]
    if kind == "percent":
        exponent -= 2
    negative = sign_text in ("-", "\u2212") or bool(g["open"])
    if digits == "0":
        negative, exponent = False, max(min(exponent, 0), -MAX_EXPONENT)
    elif abs(exponent + len(digits) - 1) > MAX_EXPONENT:
        raise _error(f"beyond the limit of 10^±{MAX_EXPONENT}", text, lead + m.start("mant"))
    if exponent > 0:  # written out in full, as Decimal(5) * 10**9 would be
        digits, exponent = digits + "0" * exponent, 0
    value = Decimal((1 if negative else 0, tuple(int(d) for d in digits), exponent))
    currency = CURRENCIES[currency_text.upper()] if currency_text else None
    return Number(value, kind, currency, (lead, lead + len(stripped)))


def scan_numbers(text: str, start: int = 0, end: int | None = None, *, decimal_comma: bool | None = None,
                 strict: bool = False) -> Iterator[Number]:
    """Every number written in prose ``text[start:end]``, in order, with spans in ``text``.

    Candidates that are not readable numbers (``1,2,3``) or lie beyond the
    limits are skipped; a multiple in words in parentheses ("a payoff (3:1)")
    is an aside and is read inside them. ``decimal_comma`` and ``strict`` are
    :func:`read_number`'s (``strict`` leaves ``1,5 times`` unread where the
    text's convention is unknown). Linear in ``len(text)``: the pattern has no
    nested repetition.

    >>> [(n.value, n.kind) for n in scan_numbers("Net income was ($7M), margin 12.5%, or 3x.")]
    [(Decimal('-7000000'), 'money'), (Decimal('0.125'), 'percent'), (Decimal('3'), 'multiple')]
    >>> [(n.value, n.span) for n in scan_numbers("covered 12 times, a payoff (4.5 to 1) or 3:1.")]
    [(Decimal('12'), (8, 16)), (Decimal('4.5'), (28, 36)), (Decimal('3'), (41, 44))]
    """
    for m in _SCAN_RE.finditer(text, start, len(text) if end is None else end):
        candidate = m.group(0)
        a, b = m.start(), m.end()
        if candidate.startswith("(") and ")" not in candidate:
            candidate, a = candidate[1:], a + 1
        elif candidate.endswith(")") and "(" not in candidate:
            candidate, b = candidate[:-1], b - 1
        while candidate and candidate[-1] in ".,":
            candidate, b = candidate[:-1], b - 1
        number: Number | None = None
        try:
            number = read_number(candidate, decimal_comma=decimal_comma, strict=strict)
        except NumberError:
            if candidate.startswith("(") and candidate.endswith(")"):
                try:
                    inner = read_number(candidate[1:-1], decimal_comma=decimal_comma, strict=strict)
                except NumberError:
                    continue
                if inner.kind == "multiple":  # "(3:1)": an aside, read inside its parentheses
                    number, a, b = inner, a + 1, b - 1
        if number is not None:
            yield Number(number.value, number.kind, number.currency, (a, b))


def format_number(number: Number) -> str:
    """The canonical text of ``number``, which :func:`read_number` reads back exactly.

    Money is written with its currency code's symbol and no scale (``$-1234.5``
    would be ambiguous to no one, but ``-$1234.5`` is the house form).

    >>> format_number(read_number("($7.25M)")), format_number(read_number("€3bn")), format_number(read_number("(3.5)%"))
    ('-$7250000', '€3000000000', '-3.5%')
    """
    value = number.value
    if number.kind == "percent":  # times 100, exactly (scaleb would round to the context)
        sign_bit, digit_tuple, exp = value.as_tuple()
        value = Decimal((sign_bit, digit_tuple, int(exp) + 2))
    text = format(value, "f")
    sign = ""
    if text.startswith("-"):
        sign, text = "-", text[1:]
    if number.kind == "money":
        whole, dot, frac = text.partition(".")
        if dot and len(frac) == 3 and len(whole) <= 3 and not whole.startswith("0"):
            text += "0"  # "$20.0000", never "$20.000", which a typed value refuses as ambiguous
        symbol = {"USD": "$", "EUR": "€", "GBP": "£"}.get(number.currency or "", number.currency or "$")
        if symbol.isalpha():
            return f"{sign}{text} {symbol}"
        return f"{sign}{symbol}{text}"
    suffix = {"percent": "%", "multiple": "x"}.get(number.kind, "")
    return f"{sign}{text}{suffix}"
