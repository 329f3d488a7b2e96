"""The decimal convention of a text: whether it writes the comma or the dot as its decimal mark (issue 13, numbers).

Read by :func:`decimal_comma_convention`, re-exported by :mod:`ipb.engine.numbers` (the one number reader), whose
``decimal_comma`` argument takes its result.
"""

from __future__ import annotations

import re

__all__ = ["decimal_comma_convention"]

#: Evidence of the decimal convention in prose: a comma decimal after dot groups (1.234,5), or a comma
#: with one or two decimals at a currency or percent (€12,5, 3,5 %, 12,50 EUR); the dot's mirror images.
#: Each opens with a lookahead for the first characters its alternatives can start with: it matches nothing more,
#: and lets the engine skip in C to the next such character (four times faster on a megabyte than trying the three
#: alternatives at every position).
_COMMA_DECIMAL = re.compile(
    r"(?=[0-9€£EG])(?:(?<![0-9.,])[0-9]{1,3}(?:\.[0-9]{3})+,[0-9]+(?![0-9.,])"
    r"|(?:€|£|EUR|GBP)[ \t]?[0-9]+,[0-9]{1,2}(?![0-9.,])"
    r"|(?<![0-9.,])[0-9]+,[0-9]{1,2}[ \t]?(?:%|€|£|EUR\b|GBP\b))")
_DOT_DECIMAL = re.compile(
    r"(?=[0-9$€£EGU])(?:(?<![0-9.,])[0-9]{1,3}(?:,[0-9]{3})+\.[0-9]+(?![0-9.,])"
    r"|(?:\$|€|£|EUR|GBP|USD)[ \t]?[0-9]+\.[0-9]{1,2}(?![0-9.,])"
    r"|(?<![0-9.,])[0-9]+\.[0-9]{1,2}[ \t]?(?:%|€|£|EUR\b|GBP\b))")

_COMMA_PAIR = re.compile(r"[0-9],[0-9]")
_DOT_PAIR = re.compile(r"[0-9]\.[0-9]")


def decimal_comma_convention(text: str) -> bool | None:
    """Whether ``text`` writes the comma as its decimal mark: True, False (the dot), or None (no evidence, or both).

    The evidence is a number only one convention can have written: ``1.234,5``
    or a comma with one or two decimals at a currency or a percent sign
    (``€12,5``, ``3,5 %``) for the comma; ``1,234.5``, ``$12.50`` or ``3.5%``
    for the dot. A text showing both says nothing. Pass the result as
    ``decimal_comma`` to :func:`read_number` / :func:`scan_numbers`, so that in a
    comma-decimal answer ``€1.500`` is 1500 and ``2,5%`` is 0.025 (issue 13:
    "1,234.5 and 1.234,5 by context"). Linear: no nested repetition.

    >>> decimal_comma_convention("Der Kurs liegt bei €12,50, die Marge bei 3,5 %."), decimal_comma_convention("margin 3.5%")
    (True, False)
    >>> decimal_comma_convention("1,234 shares") is None
    True
    """
    # every alternative holds a digit, the mark and a digit: a text without that pair cannot match, and the
    # plain pattern is a fast scan where the full one would try three alternatives at every digit
    comma = _COMMA_PAIR.search(text) is not None and _COMMA_DECIMAL.search(text) is not None
    dot = _DOT_PAIR.search(text) is not None and _DOT_DECIMAL.search(text) is not None
    return comma if comma != dot else None
