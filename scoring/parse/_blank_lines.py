"""Blank whole lines of an answer in place: the one loop the block-skipping passes share (issue 13, tidy).

:mod:`._footnotes`, :mod:`._source_lists` and :mod:`._settings_block` each find a block of lines that states no gate
(trailing notes, a list of retrieved sources, a tool's settings) and blank it so that nothing is read there, while
every other offset in the text stays where it was (a citation or an element span is still looked up by offset in the
original). Each used to compute the line-start offsets and overwrite the block with its own copy of the same loop;
they now call :func:`line_starts` and :func:`blank_lines`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["blank_lines", "line_starts"]


def line_starts(lines: Sequence[str]) -> list[int]:
    """The offset in ``"\\n".join(lines)`` at which each line starts.

    >>> line_starts(["ab", "", "cde"])
    [0, 3, 4]
    """
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    return starts


def blank_lines(text: str, rows: Iterable[int]) -> str:
    """``text`` with each line numbered in ``rows`` (0-based, lines split at ``"\\n"``) turned into as many spaces.

    Line breaks stay, so the result has the length and the line offsets of ``text``. A line of spacing only is left as
    it is (its tabs are not turned into spaces). Rows past the last line are ignored.

    >>> blank_lines("Gate 1: PROCEED\\n[2] Gate 3 p. 4\\n\\tx", [1, 2])
    'Gate 1: PROCEED\\n               \\n  '
    >>> blank_lines("a\\n\\t\\nb", [1])  # a line of spacing only is kept
    'a\\n\\t\\nb'
    """
    lines = text.split("\n")
    changed = False
    for k in rows:
        if 0 <= k < len(lines) and lines[k].strip():
            lines[k] = " " * len(lines[k])
            changed = True
    return "\n".join(lines) if changed else text
