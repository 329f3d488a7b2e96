"""Field lines of a record written as code: they belong to the record's gate (paper §7.5, issue 13).

A model asked for a structured answer may write each gate as a record in a configuration or programming language,
one field a line::

    gate "economic_moat" {          [[gate]]                      (gate 2 "Economic Moat"
      order   = 2                   name = "Economic Moat"          :verdict REJECT
      verdict = "REJECT"            verdict = "REJECT"              :why "no switching costs")
    }

Each field line is short and has no colon, so the layout reads it as a short line on its own, a sibling of the
record's opening line; a sibling closes the gate's section, and the verdict field under it was read for no gate.
:func:`field_line` says when a short line is such a field: ``key = value`` (TOML, HCL, INI; a key of one identifier,
not ``==``) or ``:key value`` (a Lisp keyword). :meth:`._layout_sections._SectionsMixin._closes` keeps the section open
over it, as it does over a ``Verdict: ...`` field label.
"""

from __future__ import annotations

import re

from ipb.scoring._text import Line

__all__ = ["field_line"]

#: A record's field at the start of a line: an identifier and "=" (not "=="), or a ":keyword" and a value.
_FIELD = re.compile(r"[ \t]*(?::[A-Za-z][\w-]{0,40}[ \t]+[^\s)]|[A-Za-z_][\w.-]{0,40}[ \t]*=(?!=)[ \t]*[^\s=])")


def field_line(text: str, line: Line) -> bool:
    """Whether ``line`` of ``text`` is a short line holding one field of a record written as code.

    >>> from ipb.scoring._text import classify_line
    >>> t = 'verdict = "REJECT"'
    >>> field_line(t, classify_line(t, 0, len(t)))
    True
    >>> t = "  :verdict PROCEED"
    >>> field_line(t, classify_line(t, 0, len(t)))
    True
    >>> t = "Economic Moat"  # a title, not a field
    >>> field_line(t, classify_line(t, 0, len(t)))
    False
    >>> t = "a == b"  # a comparison, not a field
    >>> field_line(t, classify_line(t, 0, len(t)))
    False
    """
    return line.kind == "short" and _FIELD.match(text, line.start, line.end) is not None
