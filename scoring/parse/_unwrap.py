"""Hard-wrapped prose: line breaks inside a sentence read as spaces (paper §6.5's layouts).

:func:`unwrap_hard_wrapped` keeps the text's length, so every offset into it stays put.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from ipb.scoring._text import classify_line

#: A line that ends a sentence or opens a value: a stop, "!", "?", ":" or ";" (then closing quotes, brackets or emphasis).
_LINE_STOP = re.compile(r"[.!?:;][\"'\u201d\u2019)\]*_]*[ \t]*\Z")
#: What a hard-wrapped line may open with and still continue the sentence before it: a lower-case word, a figure, a
#: bracket, a currency sign, an approximation, a dash of an aside ("— classic forced selling").
_CONTINUES = re.compile(r"[ \t]*(?:[a-z]|\d|[($\u20ac\u00a3\u00a5~\u2248%&\u2014\u2013\"'\u201c\u2018])")
#: A capitalised word opening a line that starts a new item rather than continuing a sentence: a gate or final label.
_NEW_ITEM = re.compile(r"(?:gates?|steps?|stages?|tests?|criteri(?:on|a)|checks?|lens(?:es)?|verdict|decision|conclusion|"
                       r"recommendation|summary|overall|final|bottom[ \t]+line|result|outcome|rating|signal|action|note|answer)\b", re.IGNORECASE)
#: A line opening with a numbered gate or step label in lower case ("gate 2 margin of safety: ...", "step 3 - sizing"),
#: the way a writer who never capitalises numbers the items of a list: a new item, not the rest of a wrapped sentence
#: (a sentence running on into "gate 2" ends its line with a word no sentence ends with, "... as in\ngate 2", and
#: still joins).
_NUMBERED_ITEM = re.compile(r"[ \t]*(?:gate|step|stage|test|criterion|check|lens)[ \t]*(?:#|no\.?[ \t]*)?\d{1,2}\b(?![.,]\d)")
#: A word in capitals opening a line: an outcome or a verdict ("DECLINE", "PROCEED"), or an acronym heading a new item.
_CAPS_WORD = re.compile(r"[A-Z][A-Z0-9_/&-]+\b")
#: A word that cannot end a sentence: a line ending with it (or a comma) runs on into the next, whatever that opens with.
_RUNS_ON = re.compile(r"(?:,|\u2192|->|=>|=|\b(?:so|thus|hence|therefore|is|are|was|were|be|a|an|the|and|or|but|of|to|as|at|on|in|by|for|with|"
                      r"which|that|than|its|their|our|my|into|onto|from|about|like|toward|towards|become|becomes|would|will|could|should|"
                      r"not|no|be|\w+'d|\w+'ll|\w+\u2019d|\w+\u2019ll))[ \t]*\Z", re.IGNORECASE)
#: A short answer opening the line after a question: "Pass?\nYes.", "Met?\nNo, ...".
_ANSWER_AFTER = re.compile(r"[ \t]*(?:yes|no|unknown|n/?a|partly|partially|unclear)\b(?![ \t]*:)", re.IGNORECASE)
#: A hard-wrapped line is at least this long (a wrap at 72 to 80 columns leaves lines of 55 characters or more; a
#: heading, a short label line or a bare verdict is shorter).
MIN_WRAPPED_LINE = 45
_WRAPPABLE_KINDS = ("plain", "label", "list", "bold", "short")


def unwrap_hard_wrapped(text: str, folded: list[tuple[int, int, int]] | None = None) -> str:
    """``text`` with the line breaks of hard-wrapped prose read as spaces (same length, so every offset stays put).

    Answers written or pasted at 72 to 80 columns break sentences across lines: a gate's label sits on one line and
    its verdict on the next ("... the toll road is easy to understand\\n(pass), earns 17% on capital (pass)"). A reader
    sees one sentence; the parser, which reads a line as one or more sentences, would see two. A break is a wrap when
    the line before it is prose of at least :data:`MIN_WRAPPED_LINE` characters that ends no sentence (no stop, "?",
    "!", ":" or ";" at its end) and the line after it is neither a new structure (blank, heading, list item, table
    row, JSON, bold label, fenced code) nor a new item: it opens in lower case, with a figure, a bracket, a currency
    sign or a dash, or with a capitalised word whose line carries no label mark (":", " - ", "->") in its first 40
    characters and which is no gate, step or final label ("Gate 2", "Verdict") and no word in capitals ("DECLINE"),
    unless the line before ends with a comma, an arrow or a word no sentence ends with ("... so\nPROCEED again.",
    "... ->\nPROCEED"), or the break before it was a wrap too. A line opening with a numbered gate or step label in lower
    case ("gate 2 margin of safety: ...") is a new item unless the line before runs on. A question's short answer
    wrapped onto the next line ("... Pass?\nYes.") joins it too.

    Parameters
    ----------
    text:
        The masked response.
    folded:
        Runs of lines folded as repeats (:func:`ipb.scoring._text.fold_repeated_lines`); breaks at their edges stay.

    Examples
    --------
    >>> unwrap_hard_wrapped("The toll road is easy to understand and has been for a long time, so\\nit passes.")
    'The toll road is easy to understand and has been for a long time, so it passes.'
    >>> unwrap_hard_wrapped("Gate 1: the price is fine and the business is easy to understand\\nGate 2: REJECT")
    'Gate 1: the price is fine and the business is easy to understand\\nGate 2: REJECT'
    >>> unwrap_hard_wrapped("The price is fine and the business is easy to understand here.\\nand more")
    'The price is fine and the business is easy to understand here.\\nand more'
    >>> unwrap_hard_wrapped("Normal earnings (five-year average EPS $3.10): Pass\\nGrowth estimate (7% expected, 5% record): Fail")
    'Normal earnings (five-year average EPS $3.10): Pass\\nGrowth estimate (7% expected, 5% record): Fail'
    >>> unwrap_hard_wrapped("Market cap above the floor of fifty million ....... PASS\\nNot an ADR ........ PASS")
    'Market cap above the floor of fifty million ....... PASS\\nNot an ADR ........ PASS'
    """
    if "\n" not in text:
        return text
    edges = {e for _, start, stop in folded or () for e in (start - 1, stop - 1, stop)}
    fences = [m.start() for m in _FENCE_LINE.finditer(text)]
    out: list[str] | None = None
    joined_at = -2  # the last line break read as a wrap
    n = len(text)
    # only a line of MIN_WRAPPED_LINE characters or more, with a line of text after it, can end in a wrap
    for m in _LONG_LINE.finditer(text):
        pos, nl = m.start(), m.end()
        if nl in edges or bisect_right(fences, pos) % 2 == 1:
            continue  # a folded run's edge, or inside fenced code
        if len(text[pos:nl].strip()) < MIN_WRAPPED_LINE or classify_line(text, pos, nl).kind not in _WRAPPABLE_KINDS:
            continue
        nxt = nl + 1
        nend = text.find("\n", nxt)
        nend = n if nend < 0 else nend
        stop = _LINE_STOP.search(text, pos, nl)
        if stop is None and _closed_by_mark(text, pos, nl):
            joins = False  # "6. Баға/пайда коэффициенті — ӨТПЕДІ\n$103 / $3 = 34,3x": a title and its verdict, then the body
        elif stop is None and _RECORD_END.search(text, pos, nl) and _RECORD_END.search(text, nxt, nend):
            joins = False  # "Normal Earnings (5-yr EPS $3.10): Pass\nGrowth Estimate (7% vs 5%): Fail": two records
        elif _LEADER.search(text, pos, nl) and _LEADER.search(text, nxt, nend):
            joins = False  # "Not an ADR ........ PASS\nEBIT greater than 0 ..... PASS (ROC 41%)": two rows of a dotted
            # report (a screener's test, a contents page); prose never runs its sentence through dot leaders (n45 screener)
        elif stop is None:
            # inside a paragraph already found wrapped, a word in capitals continues it too ("... would become\nREDESIGN.")
            joins = _joins(text, nxt, nend, runs_on=_RUNS_ON.search(text, pos, nl) is not None, inside=joined_at == pos - 1)
        else:  # "... Pass?\nYes.": a question's answer wrapped onto the next line
            joins = text[stop.start()] == "?" and _ANSWER_AFTER.match(text, nxt, nend) is not None
        if joins:
            if out is None:
                out = list(text)
            out[nl] = " "
            joined_at = nl
    return text if out is None else "".join(out)


#: A line long enough to have been wrapped, with a line of text after it (the match ends at its line break).
_LONG_LINE = re.compile(rf"(?m)^[^\n]{{{MIN_WRAPPED_LINE},}}(?=\n[^\S\n]*[^\s])")
#: The end of a record line, a label with a short value after its colon: "...: Pass", "...: Fail", "...: $52.40",
#: "...: Significantly Below". Two such lines in a row are two records, never one wrapped sentence.
_RECORD_END = re.compile(r":[ \t]+[^\s:]+(?:[ \t]+[^\s:]+){0,2}[ \t]*$")
#: A dot leader between a row's name and its value: a run of three or more dots with spacing on both sides
#: ("Not an ADR ....... PASS", "Sector is not Financials ... PASS"). Two lines in a row that hold one are two rows.
_LEADER = re.compile(r"[ \t]\.{3,}[ \t]")
#: The end of a title line closed by its mark after a dash: " — PASS", " – ӨТПЕДІ", " - AR AGHAIDH" (one to three words).
_DASH_TAIL = re.compile(r"[ \t][\u2014\u2013-][ \t]+([^\s\u2014\u2013]+(?:[ \t]+[^\s\u2014\u2013]+){0,2})[ \t]*$")


def _closed_by_mark(text: str, start: int, end: int) -> bool:
    """Whether the line ``text[start:end]`` ends in a mark after a dash written with no lower-case letter (in capitals,
    or in a script without case): "1. Cistí flúirseacha — AR AGHAIDH", "6. Баға/пайда коэффициенті — ӨТПЕДІ",
    "1. მანდატის სამყარო — გაგრძელება". Such a line is a title and its verdict, whole; the line after it opens the body
    (often with a figure, "$103 / $3 = 34,3x"), which a foreign verdict word followed by a figure would otherwise read
    as a verb of measure ("đạt 3.200 tỷ")."""
    m = _DASH_TAIL.search(text, start, end)
    if m is None:
        return False
    tail = m.group(1)
    return any(c.isalpha() for c in tail) and not any(c.islower() for c in tail)


#: A line opening or closing fenced code.
_FENCE_LINE = re.compile(r"(?m)^[ \t]*(?:```|~~~)")


def _joins(text: str, start: int, end: int, *, runs_on: bool = False, inside: bool = False) -> bool:
    """Whether the line ``text[start:end]`` continues a sentence broken at the line break before it (``runs_on``: the
    line before ends with a comma or a word no sentence ends with, "so", "the", "and", "is" ...)."""
    if not text[start:end].strip():
        return False
    if classify_line(text, start, end).kind not in ("plain", "short", "label"):
        return False  # a heading, list item, table row, JSON line, bold label or status mark starts a new item
    if runs_on:
        return True
    if _NUMBERED_ITEM.match(text, start, end) is not None:
        return False  # "gate 2 margin of safety: ... -> REJECT" from a writer who never capitalises: a new item
    if _CONTINUES.match(text, start, end) is not None:
        return True
    line = text[start:end].lstrip(" \t")
    if not line[:1].isupper() or _NEW_ITEM.match(line) is not None or (_CAPS_WORD.match(line) is not None and not inside):
        return False
    return _LABEL_MARK.search(line, 0, 40) is None


#: A label's mark: "Moat: ...", "Moat - ...", "Moat -> ...".
_LABEL_MARK = re.compile(r":(?!//)|[ \t][\u2014\u2013-][ \t]|\u2192|->|=>|[ \t]\.{4,}[ \t]")
