"""HTML markup in an answer read as the layout it draws (issue 13; paper §7.5; break45).

A model that answers in HTML on one line ("<ul><li>Fair Price: REJECT</li><li>High Return on Capital: PROCEED</li></ul>",
"<div><b>Fair Price</b>: <span style='color:red'>REJECT</span></div>", "Fair Price: REJECT<br>High ...: PROCEED") puts
every gate on one line of text: no label opened a section and no gate was read. :func:`blank_markup` gives the parser
the lines the markup draws, keeping every offset an offset of the original text (each replacement is as long as the
tag it replaces):

- a run of tags (with only white space between them) becomes spaces ending in its line breaks: as many as the run
  held, and one at least when it holds a block tag that starts a line when drawn (``<p>``, ``<div>``, ``<li>``,
  ``<br>``, ``<h1>`` ... ``<h6>``, ``<blockquote>``, ``<dt>``, ``<dd>``, ``<hr>``). Inline tags (``<b>``, ``<strong>``,
  ``<i>``, ``<em>``, ``<u>``, ``<span ...>``, ``<font ...>``, ``<mark>``, ``<code>``, ``<a ...>``, ``<ul>``, ``<ol>``)
  and closing tags give only spaces. The breaks come last, so the text after a run starts its line unindented (ten
  spaces before "Fair Price:" from ``<p><strong>`` read the label at 0.64 instead of 0.95);
- ``&nbsp;`` (and ``&#160;``) become spaces; ``&lt;``, ``&gt;``, ``&amp;`` their character and spaces.

Tables (``<table>``, ``<tr>``, ``<td>``, ``<th>``) are left as they are: their cells are read as they were before.
Struck elements (``<del>``, ``<s>``) are blanked earlier (:func:`._voice.blank_struck`). Every pattern is linear in
its input (a tag's attributes are at most 200 characters without a ``>`` or a line break).
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["blank_markup"]

_BLOCK: Final = r"p|div|li|br|h[1-6]|blockquote|dt|dd|hr"
_INLINE: Final = r"b|strong|i|em|u|span|font|mark|code|a|ul|ol|small|big|center"
#: One tag of either kind, opening, closing or self-closing, with attributes on its own line.
_ONE_TAG: Final = rf"</?(?:{_BLOCK}|{_INLINE})\b[^<>\n]{{0,200}}?/?>"
#: A run of tags with only white space between them.
_TAG = re.compile(rf"(?i){_ONE_TAG}(?:[ \t\r\n]{{0,40}}{_ONE_TAG})*")
#: A block tag that opens a line when drawn (an opening tag, or a break or rule).
_OPENS_LINE = re.compile(rf"(?i)<(?:{_BLOCK})\b")
#: The character entities an answer in HTML uses for spacing and for the signs it escapes.
_ENTITY = re.compile(r"(?i)&(?:nbsp|#160|lt|gt|amp);")
_ENTITY_CHAR: Final = {"&lt;": "<", "&gt;": ">", "&amp;": "&"}


def _tag(m: re.Match[str]) -> str:
    run = m.group()
    breaks = max(run.count("\n"), 1 if _OPENS_LINE.search(run) else 0)
    return " " * (len(run) - breaks) + "\n" * breaks


def _entity(m: re.Match[str]) -> str:
    char = _ENTITY_CHAR.get(m.group().lower(), " ")
    return char + " " * (m.end() - m.start() - 1)


def blank_markup(text: str) -> tuple[str, int]:
    """``text`` with its HTML tags and entities replaced as the module docstring says (same length), and how many runs of tags.

    >>> t, n = blank_markup("<ul><li>Fair Price: REJECT</li><li>Moat: PROCEED</li></ul>")
    >>> t.splitlines(), n, len(t) == len("<ul><li>Fair Price: REJECT</li><li>Moat: PROCEED</li></ul>")
    (['       ', 'Fair Price: REJECT        ', 'Moat: PROCEED          '], 3, True)
    >>> blank_markup("<p><b>Gate 1:</b> PROCEED</p>\\n\\n<p>Gate 2</p>")[0].splitlines()
    ['     ', 'Gate 1:     PROCEED       ', '', 'Gate 2    ']
    >>> blank_markup("P/E &lt; 15&nbsp;is cheap; a <b>pass</b>")[0]
    'P/E <    15      is cheap; a    pass    '
    >>> blank_markup("no markup: a < b and c > d")
    ('no markup: a < b and c > d', 0)
    """
    if "<" not in text and "&" not in text:
        return text, 0
    out, count = _TAG.subn(_tag, text)
    if count == 0 and "&" not in text:
        return text, 0
    return _ENTITY.sub(_entity, out), count
