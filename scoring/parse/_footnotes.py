"""Footnotes and reference lines under an answer, which state no gate and no verdict (s39 breaker, issue 13).

A writer who marks a figure with a reference mark puts the note under the answer: "¹ Gate 3 figures from the
2023 annual report.", "[2] See gate 5 above.", "* Margin of safety per Graham ch. 20", or a "Sources:" block.
Such a line names a gate only to say where a figure came from; read as a gate statement it made a gate or
overwrote one's verdict. :func:`blank_footnotes` blanks the trailing run of them (offsets kept), so no gate,
verdict or final is read there. The original text is untouched: a citation is still read from it.

What counts, at the end of the text only (blank lines between are part of the run):

- a line opening with a mark that is never a list bullet: superscript digits (``¹``, ``²³``), a dagger
  (``†``, ``‡``) or a caret mark (``^1``);
- a line opening with ``[n]`` or ``*`` (which open list items too) only when the same mark is attached to a
  word or figure earlier in the answer ("20%*", "the report[2]"): the body refers to it, so it is a note;
- a "Notes:", "Sources:", "References:", "Footnotes:" or "Bibliography:" heading line and the lines after it, when
  each of them is a list item, a reference mark or an indented continuation (a "Score: 4 pass" line is the answer).
"""

from __future__ import annotations

import re

from ipb.scoring.parse._blank_lines import blank_lines, line_starts
from ipb.scoring.verdict_words import FINAL_LABEL

__all__ = ["blank_footnotes"]

_SUPERSCRIPT = "\u00b9\u00b2\u00b3\u2070\u2074\u2075\u2076\u2077\u2078\u2079"
#: A mark that opens a note and never a list item.
_SURE_MARK = re.compile(rf"[ \t]*(?:[{_SUPERSCRIPT}]+|[\u2020\u2021]+|\^\d{{1,2}})[ \t]*\S")
#: "[2] ..." or "* ..." / "** ..." (not "**bold**"): a note only when the body refers to the mark.
_LIST_MARK = re.compile(r"[ \t]*(?:(?P<num>\[\d{1,2}\])[ \t]*|(?P<star>\*)[ \t]+)(?=[^*\s])[^*\n]*\Z")
#: A line of a notes block: a list item or reference mark, or an indented continuation of the one before.
_NOTE_ITEM = re.compile(rf"(?:[ \t]*(?:[-*\u2022\u2013]|\d{{1,2}}[.)]|\[\d{{1,2}}\]|[{_SUPERSCRIPT}\u2020\u2021]+|\^\d{{1,2}})[ \t]+\S|[ \t]{{2,}}\S)")
#: The heading of a closing block of notes or sources, alone on its line (markdown heading or bold allowed).
#: Each run of spacing is one star, the marks between them optional with their own spacing: stars in a row over one
#: run ("[ \t]*(?:\*\*)?[ \t]*:?[ \t]*") tried every split of it ("##" + 3,000 spaces took 0.7 s, 20,000 over 20 s).
_NOTES_HEAD = re.compile(
    r"(?i)[ \t]*(?:#{1,6}[ \t]*)?(?:(?:\*\*|__)[ \t]*)?(?:foot)?(?:notes?|sources?|references?|bibliography|citations?)"
    r"[ \t]*(?:(?:\*\*|__)[ \t]*)?(?::[ \t]*)?(?:(?:\*\*|__)[ \t]*)?\Z")
#: At most this many lines after a notes heading are blanked (a longer block is more than notes).
MAX_NOTES_LINES = 12


#: A markdown emphasis "*very*" / "*35%*" inside one line: its closing "*" is no reference mark.
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=[^\s*])[^*\n]*?(?<=[^\s*])\*(?![\w*])")


def _referred(body: str, mark: str) -> bool:
    """Whether ``mark`` ("[2]", "*") is attached to a word, figure or closing sign in ``body`` (not opening a line).

    A "*" closing an emphasis ("a *very* ordinary company") is not a mark: the body's emphases are set aside first.

    >>> _referred("a *very* ordinary company", "*"), _referred("a 35%* discount", "*")
    (False, True)
    """
    if mark == "*":
        body = _EMPHASIS.sub(lambda m: " " * len(m.group()), body)
    after = r"(?!\w)" if mark.startswith("[") else r"(?![\w*])"  # "**bold**" is no "*" mark
    return re.search(rf"[\w%)\].,;:]{re.escape(mark)}{after}", body) is not None


#: The marks and emphasis a note line opens with, before its own words.
_LEAD = re.compile(rf"[ \t]*(?:[{_SUPERSCRIPT}\u2020\u2021]+|\^\d{{1,2}}|\[\d{{1,2}}\]|[-*\u2022\u2013]|\d{{1,2}}[.)])?[ \t*_#]*")


def _states_final(line: str) -> bool:
    """Whether ``line``, less its mark, opens with a final-verdict label and a colon ("* Final verdict: AVOID",
    "\u2020 Decision: DECLINE"): the writer's answer, never a note (s39break).

    >>> _states_final("* Final verdict: AVOID"), _states_final("[2] Gate 3: PROCEED per the 2023 draft")
    (True, False)
    """
    head = line[_LEAD.match(line).end():].split(":", 1)  # type: ignore[union-attr]
    return len(head) == 2 and FINAL_LABEL.match(head[0].strip(" \t*_")) is not None


def blank_footnotes(text: str) -> tuple[str, int]:
    """``text`` with its trailing footnotes and reference lines blanked (same length), and how many lines were.

    >>> t = "Gate 3: PROCEED\\u00b9\\nFinal verdict: INVEST\\n\\n\\u00b9 Gate 3 figures from the 2023 annual report."
    >>> out, n = blank_footnotes(t)
    >>> n, out.rstrip().endswith("INVEST"), len(out) == len(t)
    (1, True, True)
    >>> blank_footnotes("Gate 1: PROCEED\\n* Gate 2: REJECT")[1]  # a bullet list: the body never refers to "*"
    0
    >>> blank_footnotes("Margin of safety: 35%*. Final: INVEST\\n\\n* Margin of safety per Graham ch. 20")[1]
    1
    >>> blank_footnotes("Verdict: AVOID\\n\\nSources:\\n- 2023 10-K, gate 2 figures\\n- Graham ch. 20")[1]
    3
    >>> blank_footnotes("**Gate 1:** PROCEED\\n**Verdict:** INVEST")[1]  # bold is no "*" mark
    0
    """
    lines = text.split("\n")
    starts = line_starts(lines)
    first = len(lines)
    star = -1  # the line of the run's "* " note: a mark refers to one note, so a second "* " line makes it a list
    i = len(lines) - 1
    while i >= 0:
        line = lines[i]
        if not line.strip():
            i -= 1
            continue
        if _states_final(line):
            break
        if _SURE_MARK.match(line):
            first = i
            i -= 1
            continue
        m = _LIST_MARK.match(line)
        if m is not None and _referred(text[:starts[i]], m.group("num") or m.group("star")):
            if m.group("star"):
                if star >= 0:  # "* a\n* b": a bullet list, not notes; the run starts below the first "* " line
                    first = star + 1
                    break
                star = i
            first = i
            i -= 1
            continue
        break
    # a notes heading above the run (or above the end), with at most MAX_NOTES_LINES lines under it
    for j in range(min(first, len(lines)) - 1, max(-1, first - MAX_NOTES_LINES - 2), -1):
        if _NOTES_HEAD.match(lines[j]) and j > 0 and any(s.strip() for s in lines[:j]):
            block = [s for s in lines[j + 1:first] if s.strip()]
            if len(block) <= MAX_NOTES_LINES and all(_NOTE_ITEM.match(s) and not _states_final(s) for s in block):
                first = j
            break
    blanked = [k for k in range(first, len(lines)) if lines[k].strip()]
    if not blanked:
        return text, 0
    return blank_lines(text, blanked), len(blanked)
