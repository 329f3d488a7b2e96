"""A notebook exported as a script: its markdown cells are comment lines, its code cells the working.

Jupyter's "download as Python" writes each markdown cell as lines opening with "# " ("# ## Margin of safety",
"# False. Two-thirds of $49.50 is ...") and marks each code cell with a "# In[3]:" line. Read as markdown, every
comment line is a level-one heading, so the writer's prose under a gate's heading ("# False. ... no margin of
safety here.") is no body of that heading and its verdict is lost. A reader sees the cells as the notebook showed
them: the comment mark is layout, the headings are the "##" after it, the prose is prose, and the code cells are the
computation whose outcome the next markdown cell states.

:func:`blank_notebook_script` keeps the text's length, so every offset into it stays put: a comment mark (with one
space after it) becomes spaces, and the cell markers, the "#!" and coding lines and the code lines become blanks.
It acts only on a text that holds at least one "# In[n]:" cell marker and no other layout of its own.
"""

from __future__ import annotations

import re

#: A code cell's marker line ("# In[1]:", "# In[ ]:").
_CELL = re.compile(r"[ \t]*#[ \t]*In\[[ \t]*\d{0,4}[ \t]*\]:[ \t]*\Z")
#: The header lines of an exported script ("#!/usr/bin/env python", "# coding: utf-8").
_HEADER = re.compile(r"[ \t]*#(?:!|[ \t]*(?:-\*-[ \t]*)?coding[:=])")
#: A markdown cell's line: the comment mark, then one optional space.
_COMMENT = re.compile(r"#[ ]?")


def blank_notebook_script(text: str) -> tuple[str, int]:
    """``text`` with a notebook script's comment marks, cell markers and code blanked (same length), and how many
    lines changed (0, and ``text`` itself, when it holds no "# In[n]:" marker).

    >>> t = "# ## Margin of safety\\n\\n# In[3]:\\n\\n\\nprice <= limit\\n\\n\\n# False: no margin of safety."
    >>> out, n = blank_notebook_script(t)
    >>> n, len(out) == len(t), out.split("\\n")[0], out.split("\\n")[-1]
    (4, True, '  ## Margin of safety', '  False: no margin of safety.')
    >>> blank_notebook_script("# Verdict\\nGate 1: PASS")[1]  # no cell marker: markdown, read as it is
    0
    """
    if "In[" not in text:
        return text, 0
    lines = text.split("\n")
    if not any(_CELL.match(line) for line in lines):
        return text, 0
    out: list[str] = []
    changed = 0
    for line in lines:
        stripped = line.lstrip(" \t")
        if not stripped:
            out.append(line)
            continue
        if _CELL.match(line) or _HEADER.match(line):
            out.append(" " * len(line))
        elif stripped.startswith("#"):
            indent = len(line) - len(stripped)
            mark = _COMMENT.match(stripped)
            width = mark.end() if mark is not None else 1
            out.append(" " * (indent + width) + stripped[width:])
        else:
            out.append(" " * len(line))  # a code line: the working, whose outcome the next markdown cell states
        changed += 1
    return "\n".join(out), changed
