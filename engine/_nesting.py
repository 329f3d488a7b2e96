"""The one bracket-depth scan behind the JSON and YAML nesting limits (issue 16).

Both readers refuse ``[[[[...`` or ``{"a": {"b": ...`` nested past a limit
before their parser (and every recursive walk after it) sees the text: the
standard ``json`` module overflows Python's stack at about 1,000 levels and
ruamel slows down sharply on deep flow collections.
"""

from __future__ import annotations

import re

__all__ = ["too_deep_at"]


def too_deep_at(text: str, tokens: re.Pattern[str], limit: int) -> int | None:
    """Offset of the first opening bracket nested deeper than ``limit``, or None.

    ``tokens`` matches the openers ``[`` ``{``, the closers ``]`` ``}`` and
    whatever must be skipped whole (quoted strings, comments): any other match
    is ignored. A closer never takes the depth below zero, so stray closers
    cannot hide a deep run after them. Linear in ``len(text)``, and one
    ``str.count`` pass when the text holds no more openers than ``limit``.

    >>> too_deep_at("[[[]]] [[[", re.compile(r"[\\[\\]{}]"), 2)
    2
    >>> too_deep_at('["[[[["]', re.compile(r'"[^"]*"|[\\[\\]{}]'), 2) is None
    True
    """
    if text.count("[") + text.count("{") <= limit:
        return None
    depth = 0
    for m in tokens.finditer(text):
        ch = m.group(0)
        if ch == "[" or ch == "{":
            depth += 1
            if depth > limit:
                return m.start()
        elif ch == "]" or ch == "}":
            depth = max(depth - 1, 0)
    return None
