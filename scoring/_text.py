"""Text plumbing for the response parser: masking, layout, names (numbers and years: :mod:`ipb.scoring._numbers`).

Everything here works on offsets into the original response. Reasoning traces
are *masked* (replaced by spaces, newlines kept) rather than cut out, so the
masked text has the same length as the original and every span found in it
is a span of the original.

Every regular expression here is linear in its input: no nested unbounded
quantifiers, every repetition inside a repetition is bounded, and the
reasoning-trace scanner looks for a closing tag once per opening tag.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Any, Iterable, Iterator, Sequence

from ipb.scoring._json_cut import closed_json
from ipb.scoring._numbers import NumberMatch, find_numbers, find_years
from ipb.scoring._scan import (  # re-exported: the scanner lived here
    JOIN_WORDS_FROM,
    Trigger,
    WordPrefixes,
    _grouped_for,
    _positions,
    lowered,
    scan,
    word_prefixes,
)
from ipb.scoring._sentences import _ABBREV, _SENTENCE_END, _trim, sentence_spans  # re-exported

__all__ = [
    "item_number",
    "mask_reasoning",
    "fold_repeated_lines",
    "blank_spans",
    "plain_spacing",
    "binary_reason",
    "Line",
    "table_top",
    "split_lines",
    "classify_line",
    "Trigger",
    "lowered",
    "scan",
    "word_prefixes",
    "json_gate_objects",
    "sentence_spans",
    "normalize",
    "stem",
    "content_stems",
    "NumberMatch",
    "find_numbers",
    "find_years",
    "KNOWN_INVESTORS",
    "KNOWN_ENTITIES",
    "KNOWN_BOOKS",
    "STOPWORDS",
]

# --------------------------------------------------------------------------- reasoning traces

#: Opening tag -> the regex of its closing tag.
_TRACE_TAGS: dict[str, str] = {
    "think": r"</think\s*>",
    "thinking": r"</thinking\s*>",
    "thought": r"</thought\s*>",
    "thoughts": r"</thoughts\s*>",
    "reasoning": r"</reasoning\s*>",
    "reflection": r"</reflection\s*>",
    "scratchpad": r"</scratchpad\s*>",
    "inner_monologue": r"</inner_monologue\s*>",
    "seed:think": r"</seed:think\s*>",
}
_OPEN_TRACE = re.compile(
    r"(?i)<(?P<tag>think|thinking|thought|thoughts|reasoning|reflection|scratchpad|inner_monologue|seed:think)(?:\s[^<>\n]{0,200})?>"
    r"|(?P<bot><\|begin_of_thought\|>)|(?P<mistral>\[THINK\])|(?P<kimi>\u25c1think\u25b7)"
    r"|(?P<close></(?:think|thinking|reasoning|seed:think)\s*>|<\|end_of_thought\|>|\[/THINK\]|\u25c1/think\u25b7)"
)
_TRACE_TRIGGERS = [Trigger(c, _OPEN_TRACE, word=False) for c in ("<", "[think]", "[/think]", "\u25c1")]
_CLOSE_OTHER = {
    "bot": re.compile(r"<\|end_of_thought\|>"),
    "mistral": re.compile(r"\[/THINK\]"),
    "kimi": re.compile("\u25c1/think\u25b7"),
}
_CLOSE_TAG = {name: re.compile("(?i)" + pattern) for name, pattern in _TRACE_TAGS.items()}


def blank_spans(text: str, spans: "Iterable[Sequence[int]]") -> str:
    r"""``text`` with each ``(start, end)`` span blanked: spaces, newlines kept, so offsets stay offsets of ``text``.

    Spans may come in any order, overlap or run past the text (they are clipped).

    >>> blank_spans("ab\ncd\nef", [(4, 7), (1, 4)])
    'a \n  \n f'
    >>> blank_spans("ab", [(1, 99)])
    'a '
    """
    pieces: list[str] = []
    pos = 0
    for a, b in sorted((max(0, int(a)), min(len(text), int(b))) for a, b in spans):
        a = max(a, pos)
        if b <= a:
            continue  # empty, or inside a span already blanked
        pieces += [text[pos:a], "\n".join(" " * len(part) for part in text[a:b].split("\n"))]  # no match per character
        pos = b
    if not pieces:
        return text
    pieces.append(text[pos:])
    return "".join(pieces)


def mask_reasoning(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with reasoning traces blanked out, and the blanked spans.

    A trace is ``<think>...</think>`` (also ``thinking``, ``reasoning``,
    ``reflection``, ``scratchpad``, ``<|begin_of_thought|>``, ``[THINK]``,
    ``<seed:think>``, ``◁think▷``). An opening tag counts at the start of a
    line only; one that is never closed masks to the end of the text. A
    closing tag with no opening tag before it (a model whose template
    swallowed ``<think>``) masks from the start, unless nothing but
    whitespace follows it (then it hides only itself).
    Characters are replaced by spaces and newlines kept, so offsets into the
    result are offsets into ``text``.

    >>> masked, spans = mask_reasoning("<think>REJECT?</think>PROCEED")
    >>> masked.strip(), spans
    ('PROCEED', [(0, 22)])
    """
    regions: list[tuple[int, int]] = []
    pos = 0
    for _, m in scan(text, lowered(text), _TRACE_TRIGGERS):
        if m.start() < pos:
            continue
        if m.group("close") is not None:
            if not regions and text[m.end() :].strip():
                regions.append((0, m.end()))
            else:
                regions.append((m.start(), m.end()))  # a stray closing tag after the answer hides only itself
            pos = m.end()
            continue
        if text[text.rfind("\n", 0, m.start()) + 1 : m.start()].strip():
            continue  # an opening tag in the middle of a line is a mention ("the <reasoning> block"), not a trace
        tag = m.group("tag")
        if tag is not None:
            closer = _CLOSE_TAG[tag.lower()]
        else:
            kind = next(k for k in ("bot", "mistral", "kimi") if m.group(k) is not None)
            closer = _CLOSE_OTHER[kind]
        close = closer.search(text, m.end())
        if close is None:
            regions.append((m.start(), len(text)))
            break
        regions.append((m.start(), close.end()))
        pos = close.end()
    return blank_spans(text, regions), regions


def _plain_char(m: re.Match[str]) -> str:
    c = m.group()
    if "\uff01" <= c <= "\uff5e":
        return chr(ord(c) - 0xFEE0)
    if c >= _MATH_FIRST or c in _LETTERLIKE:
        return unicodedata.normalize("NFKC", c)  # one character for each of them (a reserved one maps to itself)
    return "'" if c in _APOSTROPHES else " "


#: Typographic apostrophes and single quotes: right and left single quotation marks, the reversed one and the
#: modifier letter apostrophe ("doesn\u2019t", "\u2018Pass\u2019", "isn\u02bct"); the full-width one is full-width ASCII.
_APOSTROPHES = "\u2018\u2019\u201b\u02bc"
#: Mathematical alphanumeric symbols (U+1D400-U+1D7FF): bold, italic, script, fraktur, double-struck, sans-serif and
#: monospace letters and digits that chat styles and "fancy text" tools write for emphasis ("\U0001d406\U0001d41a\U0001d42d\U0001d41e \U0001d7d1" for
#: "Gate 3"), and the letterlike symbols that fill that block's holes ("\u210e", "\u212c", "\u2102"...): each is
#: read as the letter or digit it is drawn from (its NFKC form, always one character).
_MATH_FIRST, _MATH_LAST = "\U0001d400", "\U0001d7ff"
_LETTERLIKE = "\u210e\u212c\u2130\u2131\u210b\u2110\u2112\u2133\u211b\u212f\u210a\u2134\u212d\u210c\u2111\u211c\u2128\u2102\u210d\u2115\u2119\u211a\u211d\u2124"
_LOOK_ALIKE = re.compile("[\u00a0\u2002-\u200a\u202f\u205f\u3000\uff01-\uff5e" + _APOSTROPHES + _LETTERLIKE
                         + _MATH_FIRST + "-" + _MATH_LAST + "]")
#: A backtick or an acute accent between two letters is an apostrophe typed with the wrong key ("don`t", "isn\u00b4t");
#: elsewhere a backtick is code (a fence, inline code) and stays.
_KEYED_APOSTROPHE = re.compile("(?<=[A-Za-z])[`\u00b4](?=[A-Za-z])")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
_LONE_CR = re.compile(r"\r(?!\n)")
_CRLF_CR = re.compile(r"\r(?=\n)")
_SPACED_BLANK = re.compile(r"\n[ \t]+\n")
_BLANK_RUN = re.compile(r"(?<![ \t])[ \t]*\n(?:[ \t]*\n)+")  # starts at a run's first space: linear


def _blank_run(m: re.Match[str]) -> str:
    run = m.group()
    breaks = run.count("\n")
    return " " * (len(run) - breaks) + "\n" * breaks


#: Cyrillic and Greek letters drawn like Latin ones (a spoofing or keyboard-layout slip: "\u0420ROCEED" with a
#: Cyrillic Er), each with the Latin letter it passes for.
_HOMOGLYPHS = {
    **dict(zip("\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0423\u0425\u0405\u0406\u0408\u051a\u051c",
               "ABEKMHOPCTYXSIJQW")),
    **dict(zip("\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0455\u0456\u0458\u051b\u051d\u04bb\u0501",
               "aeopcyxsijqwhd")),
    **dict(zip("\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7\u03bf",
               "ABEZHIKMNOPTYXo")),
}
_HOMOGLYPH = re.compile("[" + "".join(_HOMOGLYPHS) + "]")
#: A word of Latin letters and look-alikes only (a word holding any other Cyrillic or Greek letter is left as written).
_SPOOFED_WORD = re.compile("(?:[A-Za-z]|" + _HOMOGLYPH.pattern + ")+")


_HOMOGLYPH_TABLE = str.maketrans(_HOMOGLYPHS)


#: A Cyrillic or Greek letter that passes for no Latin one ("\u041f", "\u0439", "\u03bb"): a line holding one is written
#: in that script, so its words of look-alikes only ("\u041d\u0415", "\u0441", "\u0430") are that script's words too.
_OWN_SCRIPT_LETTER = re.compile("(?![" + "".join(_HOMOGLYPHS) + "])[\u0370-\u03ff\u0400-\u052f]")


def _unspoof_words(text: str) -> str:
    r"""``text`` with each word of Latin letters and look-alikes only made Latin; a word holding any other letter
    ("Москва") stays, and so does a word of look-alikes alone (no Latin letter) on a line written in Cyrillic or Greek:
    "НЕ ПРОЙДЕН" (not passed) read "HE ПРОЙДЕН", losing its negation, so a Russian REJECT read PROCEED (s48lang). Only
    the words around a look-alike are examined, and each line's script once (linear).

    >>> _unspoof_words("РROCEED; НЕ ПРОЙДЕН\nРЕЕК")
    'PROCEED; НЕ ПРОЙДЕН\nPEEK'
    """
    parts: list[str] = []
    last = 0
    own_script: dict[int, bool] = {}  # line start -> whether the line holds a letter of its own script
    for m in _HOMOGLYPH.finditer(text):
        if m.start() < last:
            continue  # inside the word just examined
        start = m.start()
        while start > 0 and text[start - 1].isalpha():
            start -= 1
        end = m.end()
        while end < len(text) and text[end].isalpha():
            end += 1
        word = text[start:end]  # start >= last: the word before ended at a character that is no letter
        spoofed = _SPOOFED_WORD.fullmatch(word) is not None
        if spoofed and not any("a" <= c.lower() <= "z" for c in word):
            line = text.rfind("\n", 0, start) + 1
            if line not in own_script:
                line_end = text.find("\n", end)
                own_script[line] = _OWN_SCRIPT_LETTER.search(text, line, len(text) if line_end < 0 else line_end) is not None
            spoofed = not own_script[line]
        parts += [text[last:start], word.translate(_HOMOGLYPH_TABLE) if spoofed else word]
        last = end
    parts.append(text[last:])
    return "".join(parts)


def plain_spacing(text: str) -> str:
    r"""``text`` with look-alike characters made plain, character for character (offsets kept).

    No-break and other typographic spaces become spaces, full-width ASCII
    ("Ｇａｔｅ ５") becomes ASCII, a carriage return not followed by a newline
    (old Mac line ends) becomes a newline and one before a newline (Windows line
    ends) a space, so every line reads as it does with Unix line ends. The
    spaces of blank lines move to the end of the line before them, so a blank
    line is always ``"\n\n"`` (the next line keeps its indent). Terminal colour codes
    (``\x1b[31m``) and NUL characters become spaces. Typographic apostrophes
    (U+2019, U+2018, U+201B, U+02BC) become ``'``, and so does a backtick or an
    acute accent between two letters, so every reader of contractions and
    negations ("doesn\u2019t pass", "isn\u2019t met") sees the one form
    they are written for. A word made only of Latin letters and Cyrillic or
    Greek look-alikes ("\u0420ROCEED" with a Cyrillic Er) is read as the Latin
    word; a word holding any other Cyrillic or Greek letter stays.

    >>> plain_spacing("Gate\u00a05:\x1b[31m REJECT\x1b[0m\r\uff27\uff41\uff54\uff45 \uff16")
    'Gate 5:      REJECT    \nGate 6'
    >>> plain_spacing("Gate 1: PASS\r\n\r\n  - moat\n \t\nEnd")
    'Gate 1: PASS  \n\n  - moat  \n\nEnd'
    >>> plain_spacing("It doesn\u2019t pass; \u2018Pass\u2019? won`t, isn\u02bct, ```code```")
    "It doesn't pass; 'Pass'? won't, isn't, ```code```"
    """
    out = _LOOK_ALIKE.sub(_plain_char, text)  # only the look-alikes are touched (str.translate costs ~0.1 s per MB)
    if "`" in out or "\u00b4" in out:
        out = _KEYED_APOSTROPHE.sub("'", out)
    if "\r" in out:
        out = _CRLF_CR.sub(" ", _LONE_CR.sub("\n", out))
    if "\x1b" in out:
        out = _ANSI.sub(lambda m: " " * len(m.group()), out)
    if "\x00" in out:
        out = out.replace("\x00", " ")
    if not out.isascii() and _HOMOGLYPH.search(out) is not None:  # s32break: "\u0420ROCEED", "\u041cargin of Safety" were no verdict, no gate
        out = _unspoof_words(out)
    if _SPACED_BLANK.search(out) is not None:
        out = _BLANK_RUN.sub(_blank_run, out)
    return out


#: A line or block repeated this many times in a row (the first included) has its repeats read once.
MIN_REPEAT_RUN = 3
#: Longest block (in lines) whose back-to-back repetition :func:`fold_repeated_lines` folds.
MAX_REPEAT_BLOCK = 12


def fold_repeated_lines(text: str, min_run: int = MIN_REPEAT_RUN,
                        max_block: int = MAX_REPEAT_BLOCK) -> tuple[str, list[tuple[int, int, int]]]:
    r"""Blank out verbatim repeats of a line or a block of lines, in runs of ``min_run`` or more.

    A model that loops writes the same line, or the same few lines, thousands
    of times; the first copy is kept and the copies after it are replaced by
    spaces (newlines kept), so offsets into the result are offsets into
    ``text``. A block is 1 to ``max_block`` whole lines, the first not
    blank, and only back-to-back copies count; two copies in a row are left
    alone (a table may have two equal rows). A cut-off last copy is not a
    copy.

    Returns the masked text and, for each run, (start of the kept copy,
    start of the first repeat, end of the last repeat including its newline).

    >>> masked, runs = fold_repeated_lines("a\nGate 1: PASS\nGate 1: PASS\nGate 1: PASS\nb")
    >>> masked.split("\n"), runs
    (['a', 'Gate 1: PASS', '            ', '            ', 'b'], [(2, 15, 41)])
    >>> masked, runs = fold_repeated_lines("G1: PASS\nG2: FAIL\n" * 3 + "G1")
    >>> masked.split("\n"), runs
    (['G1: PASS', 'G2: FAIL', '        ', '        ', '        ', '        ', 'G1'], [(0, 18, 54)])
    >>> fold_repeated_lines("x\nx\ny")[1]
    []
    """
    lines = text.split("\n")
    if not lines[-1]:
        lines.pop()  # a text ending in a newline (or empty) has no line after it
    seen: dict[str, int] = {}
    ids = [seen.setdefault(line, len(seen)) if line.strip() else -1 for line in lines]  # every blank line alike
    n = len(text)
    starts = list(accumulate((len(line) + 1 for line in lines), initial=0))
    m = len(ids)
    starts[m] = n  # (the last line may have no newline)
    runs: list[tuple[int, int, int]] = []
    i = 0
    while i < m:
        step = 1
        if ids[i] < 0 or ids[i] not in ids[i + 1 : i + 1 + max_block]:
            i += 1  # a copy starts with a line that is not blank (the same loop is found one line on) and recurs
            # within ``max_block`` lines (else no block size below has a copy right after it)
            continue
        for size in range(1, max_block + 1):
            if i + min_run * size > m:
                break
            if ids[i + size] != ids[i]:
                continue
            block = ids[i : i + size]
            if max(block) < 0:
                continue  # blank lines only
            copies = 1
            while i + (copies + 1) * size <= m and ids[i + copies * size : i + (copies + 1) * size] == block:
                copies += 1
            if copies >= min_run:
                runs.append((starts[i], starts[i + size], starts[i + copies * size]))
                step = copies * size
                break
        i += step
    return blank_spans(text, [(start, stop) for _, start, stop in runs]), runs


#: This many NUL bytes in the first 64 KiB make a text binary (fewer are read as spaces).
BINARY_NULS = 3
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f\ufffd]")


def binary_reason(text: str) -> str | None:
    """Why ``text`` is binary junk rather than a response, or None.

    More than 10% control or replacement characters in the first 64 KiB, or
    at least :data:`BINARY_NULS` NUL bytes in it. A stray NUL or two in an
    answer (a copy-paste or a streaming glitch) does not make it binary:
    :func:`plain_spacing` turns them into spaces.

    >>> binary_reason("Gate 1: PROCEED") is None
    True
    >>> binary_reason("Gate 1: PROCEED\\x00 - the moat is wide") is None
    True
    >>> binary_reason("\\x00\\x01PK\\x03\\x04")
    'binary data: contains NUL bytes'
    """
    head = text[:65536]
    if not head:
        return None
    nuls = head.count("\x00")
    bad = len(_CONTROL.findall(head))
    if nuls >= BINARY_NULS or (nuls and bad * 10 > len(head)):
        return "binary data: contains NUL bytes"
    if bad * 10 > len(head):
        return f"binary data: {bad} of {len(head)} characters are control or undecodable characters"
    return None


# --------------------------------------------------------------------------- layout


@dataclass
class Line:
    """One line of the response and the structure its start shows.

    ``kind`` is ``heading`` (``level`` 1-6), ``list`` (``level`` the indent,
    ``marker`` ``number``/``bullet``/``letter``), ``table``, ``table_sep``,
    ``bold`` (a bold label at the start of a plain line), ``json`` (a
    ``"key": value`` line), ``label`` (``Label: text``), ``plain``, ``fence``
    or ``blank``. ``label`` is the span of the label text, if any, and
    ``cells`` the spans of a table row's cells.
    """

    start: int
    end: int
    kind: str
    level: int = 0
    marker: str = ""
    label: tuple[int, int] | None = None
    body: int = 0
    cells: tuple[tuple[int, int], ...] = ()
    key: str = ""
    number: int | None = None

    @property
    def block(self) -> tuple[str, int, str]:
        """Lines with equal ``block`` are siblings (same heading level, list indent and marker...)."""
        return (self.kind, self.level, self.marker)


def table_top(lines: list[Line], li: int) -> int:
    """The index of the first line (a row or the ``|---|`` rule) of the table run holding line ``li``."""
    while li > 0 and lines[li - 1].kind in ("table", "table_sep"):
        li -= 1
    return li


_HEADING = re.compile(r"[ \t]{0,3}(#{1,6})[ \t]+")
#: An AsciiDoc or wiki section title: "== Lens 1: Price", "=== Day 14 ===" (the level is the number of "=").
_EQ_HEADING = re.compile(r"[ \t]{0,3}(={1,6})[ \t]+(?=[^\W\d_])")
#: What no such title holds: a line of a calculation ("= EPS x 28.5 = $57", "= owner earnings  $48M").
_NOT_TITLE = re.compile("[=$%*/+<>\u00d7\u2212\u2248\u2264\u2265]|[ \t][xX][ \t]+[\\d(]")
_QUOTE = re.compile(r"[ \t]{0,12}(?:>[ \t]?){1,6}")
#: A list item's marker. Numbers also in the forms other scripts number items: circled digits ("\u2460 ", "\u2461 ", up to
#: 20) and the ideographic enumeration comma ("1\u3001\u80fd\u529b\u5708", no space needed after it); the item number of
#: either is read by :func:`item_number`.
_LIST = re.compile(
    r"([ \t]{0,24})(?:(?:(?P<num>\(?\d{1,3}[.)](?!\d)|\(\d{1,3}\)|[\u2460-\u2473])|(?P<bullet>[-*+\u2022\u25aa\u25e6\u2023\u2013\u2014\u25cf\u25cb])"
    r"|(?P<letter>\(?[a-z][.)]|\(?(?:i{1,3}|iv|v|vi{1,3}|ix|x)[.)]))[ \t\u3000]+|(?P<ideo>\d{1,3}\u3001)[ \t\u3000]*)"
)
#: The number an item marker states: "3." or "(3)" -> 3, a circled "\u2462" -> 3, "3\u3001" -> 3.
_ITEM_MARK = re.compile(r"[ \t>*_]*\(?(?:(?P<n>\d{1,3})(?:[.)\u3001]|(?=[ \t]))|(?P<c>[\u2460-\u2473]))")
_CHECKBOX = re.compile(r"\[[ xX\u2713]\][ \t]+")
_BOLD = re.compile(r"(\*\*|__)(?P<inner>[^*_\n]{1,160}?)\1")
_JSON_KEY = re.compile(r"[ \t]{0,40}[\[{,]?[ \t]{0,8}\"(?P<key>[A-Za-z_][A-Za-z0-9_ ]{0,40})\"[ \t]*:[ \t]*")
#: Dot leaders between a label and its value, as a console report or a table of contents lays them out
#: ("moat (inferred) ....... WIDE", "ROIC ..... 13.9%"): four or more dots after a space or six or more after a word,
#: then a space (an ellipsis has three dots; "Wait.... what" is prose).
_DOT_LEADER = r"(?:[ \t]+\.{4,}|\.{6,})(?=[ \t])"
_LABEL_END = re.compile(r"[ \t]*(?::|\u2014|\u2013|[ \t]-[ \t]|\u2192|=>|->|\||\(|\*\*|__|\t)|" + _DOT_LEADER)
_PLAIN_DELIM = re.compile(r":(?!//)|[ \t][\u2014\u2013]|[ \t]-[ \t]|\u2192|=>|" + _DOT_LEADER)
_TABLE_SEP_CHARS = frozenset("|:- \t")
_LIST_FIRST = frozenset("-*+(\u2022\u25aa\u25e6\u2023\u2013\u2014\u25cf\u25cb" + "".join(map(chr, range(0x2460, 0x2474))))
_LEADING_SYMBOLS = re.compile("[ \t]*(?:(?:[\u2705\u2714\u2713\u2611\u274c\u2717\u2718\u2716\u26d4\u2753\u26a0\ufe0f\U0001f6d1\U0001f534\U0001f7e2\U0001f7e1\U0001f44d]"
                              "|\\?(?=[ \t]+[^\\s?]))[ \t]*){1,3}")


#: Pictographs that decorate a heading or a tile ("## \U0001f3af **Investment Recommendation**", "\U0001f3c6 Result"): no
#: part of the label they stand before (status marks that say a verdict are :data:`_LEADING_SYMBOLS`, read first).
PICTOGRAPHS = re.compile("[ \t]*(?:[\U0001f300-\U0001faff\u2600-\u27bf\u2b50\u2b55\u2b1b\u2b1c][\ufe0f\u200d]?[ \t]*){1,3}")
_BLANK_LINES = re.compile(r"(?:[^\S\n]*\n)+")


def item_number(text: str, start: int, end: int) -> tuple[int, tuple[int, int]] | None:
    """The number a numbered list item's marker states and the marker's span, or None.

    >>> [item_number(t, 0, len(t)) for t in ("3. Moat", "(2) Price", "\u2462 \u8ca1\u52d9", "4\u3001\u5b89\u5168", "Moat")]
    [(3, (0, 1)), (2, (1, 2)), (3, (0, 1)), (4, (0, 1)), None]
    """
    m = _ITEM_MARK.match(text, start, end)
    if m is None:
        return None
    if m.group("c"):
        return ord(m.group("c")) - 0x245F, m.span("c")
    return int(m.group("n")), m.span("n")


def split_lines(text: str, skip: "list[tuple[int, int, int]] | None" = None) -> list[Line]:
    r"""Every line of ``text`` with its structure (see :class:`Line`).

    A run of blank lines is one ``blank`` line spanning the run. ``skip``
    holds regions of whole lines (the runs of :func:`fold_repeated_lines`:
    (kept line, start, end)) that yield no line at all, so the lines around
    a folded run stay neighbours (a table keeps its rows together).

    >>> [(x.kind, x.start, x.end) for x in split_lines("a\n\n  \n\nb")]
    [('short', 0, 1), ('blank', 2, 6), ('short', 7, 8)]
    """
    lines: list[Line] = []
    pos = 0
    n = len(text)
    in_fence = False
    seen: dict[tuple[str, bool], Line] = {}
    jumps = {start: stop for _, start, stop in skip or ()}
    while pos <= n:
        stop = jumps.get(pos)
        if stop is not None:
            pos = stop
            if pos > n or (pos == n and lines):
                break
            continue
        b = _BLANK_LINES.match(text, pos)
        if b is not None:
            # A run of blank lines (a folded run never starts inside one: it follows its kept line).
            end = b.end() - 1
            if lines and lines[-1].kind == "blank":
                lines[-1] = Line(lines[-1].start, end, "blank")
            else:
                lines.append(Line(pos, end, "blank"))
            pos = b.end()
            continue
        nl = text.find("\n", pos)
        end = n if nl < 0 else nl
        if end - pos <= 200:
            # Long answers repeat lines; classify each distinct short line once.
            key = (text[pos:end], in_fence)
            proto = seen.get(key)
            if proto is None:
                proto = _classify(text, pos, end, in_fence)
                seen[key] = proto
                line = proto
            elif proto.kind == "blank":
                line = Line(pos, end, "blank")
            else:
                line = _moved(proto, pos - proto.start)
        else:
            line = _classify(text, pos, end, in_fence)
        if line.kind == "blank" and lines and lines[-1].kind == "blank":
            lines[-1] = Line(lines[-1].start, end, "blank")
        else:
            lines.append(line)
        if line.kind == "fence":
            in_fence = not in_fence
        if nl < 0:
            break
        pos = nl + 1
    return lines


def _moved(line: Line, delta: int) -> Line:
    def move(span: tuple[int, int] | None) -> tuple[int, int] | None:
        return None if span is None else (span[0] + delta, span[1] + delta)

    return Line(
        line.start + delta, line.end + delta, line.kind, line.level, line.marker, move(line.label), line.body + delta,
        tuple((a + delta, b + delta) for a, b in line.cells), line.key, line.number,
    )


def classify_line(text: str, start: int, end: int, in_fence: bool = False) -> Line:
    """The :class:`Line` for ``text[start:end]`` (one line or a fragment of one)."""
    return _classify(text, start, end, in_fence)


def _eq_heading(text: str, pos: int, end: int) -> re.Match[str] | None:
    """The marker of a section title written with "=" ("== Lens 1: Price", "= Title ="), or None for a line of a
    calculation; the title's closing run of "=" is no part of it."""
    h = _EQ_HEADING.match(text, pos, end)
    if h is None or _NOT_TITLE.search(text[h.end() : end].rstrip(" \t=")) is not None:
        return None
    return h


def _strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start] in " \t*_`\"'":
        start += 1
    while end > start and text[end - 1] in " \t*_`\"',.;":
        end -= 1
    return start, end


_SENTENCE_INSIDE = re.compile(r"[a-z0-9)][.!?][ \t]+[A-Z]")


def _classify(text: str, start: int, end: int, in_fence: bool) -> Line:
    line = text[start:end]
    stripped = line.strip()
    if not stripped:
        return Line(start, end, "blank")
    if stripped.startswith("```") or stripped.startswith("~~~"):
        return Line(start, end, "fence")
    pos = start
    first = stripped[0]
    if (
        first.isalpha()
        and end - start > 60
        and not in_fence
        and (first.isupper() or stripped[1:2] not in (".", ")"))
        and "|" not in line
        and "*" not in line[:4]
        and _PLAIN_DELIM.search(text, start + 2, min(end, start + 84)) is None
    ):
        return Line(start, end, "plain", body=start + len(line) - len(line.lstrip()))
    if first == ">":
        q = _QUOTE.match(text, pos, end)
        if q is not None:
            pos = q.end()
            rest = text[pos:end].lstrip(" \t")
            first = rest[0] if rest else " "
    if first == "|" or (not in_fence and "|" in line and stripped.count("|") >= 2):
        if set(stripped) <= _TABLE_SEP_CHARS and "-" in stripped:
            return Line(start, end, "table_sep")
        return Line(start, end, "table", cells=_cells(text, start, end))
    j = _JSON_KEY.match(text, pos, end) if first in "\"{[," else None
    if j is not None and (in_fence or stripped[0] in "\"{[,"):
        value_start = j.end()
        value_end = end
        key = j.group("key")
        return Line(start, end, "json", label=_strip_span(text, value_start, value_end), body=value_start, key=key.lower())
    h = _HEADING.match(text, pos, end) if first == "#" else _eq_heading(text, pos, end) if first == "=" else None
    if h is not None:
        body = h.end()
        label = _label_after(text, body, len(text[:end].rstrip(" \t=")) if first == "=" else end, whole=True)
        return Line(start, end, "heading", level=len(h.group(1)), label=label, body=body)
    m = _LIST.match(text, pos, end) if first in _LIST_FIRST or first.isdigit() or first.islower() else None
    if m is not None:
        indent = len(m.group(1).expandtabs(4))
        marker = "number" if m.group("num") or m.group("ideo") else "bullet" if m.group("bullet") else "letter"
        body = m.end()
        c = _CHECKBOX.match(text, body, end)
        if c is not None:
            body = c.end()
        label = _label_after(text, body, end, whole=end - body <= 90)
        return Line(start, end, "list", level=indent // 2, marker=marker, label=label, body=body)
    # a status mark opens the line ("\u2705 Size: ...", "? P/E: 14x, maybe above 15x": a leading "?" is the checklist's open mark)
    s = _LEADING_SYMBOLS.match(text, pos, end) if not first.isascii() or first == "?" else None
    body = s.end() if s is not None else pos
    b = _BOLD.match(text, body, end) if "*" in line or "__" in line else None
    if b is not None:
        return Line(start, end, "bold", label=_label_in(text, b.start("inner"), b.end("inner")), body=body)
    d = _PLAIN_DELIM.search(text, body + 2, min(end, body + 84))
    if d is not None and "|" not in text[body : d.start()] and not text.startswith("http", body):
        s_, e_ = _strip_span(text, body, d.start())
        # a sentence end before the colon: the line is prose ("reports its mistakes first. No reason to doubt them: PROCEED")
        if e_ - s_ >= 2 and _SENTENCE_INSIDE.search(text, s_, e_) is None:
            return Line(start, end, "label", label=(s_, e_), body=body)
    if end - body <= 60 and not any(c in ".!?" for c in text[max(body, end - 2):end]):
        # A short line on its own, such as "Circle of Competence" above a paragraph.
        return Line(start, end, "short", label=_strip_span(text, body, end), body=body)
    return Line(start, end, "plain", body=body)


_TITLE_STOP = re.compile(r"(?P<title>[A-Z][^.:;!?\n|]{0,40}?)\.[ \t]+(?=[A-Z])")


def _label_after(text: str, body: int, end: int, *, whole: bool) -> tuple[int, int] | None:
    """The label that starts a heading or list item: up to the first delimiter, or the whole line."""
    s = _LEADING_SYMBOLS.match(text, body, end)
    if s is not None:
        body = s.end()
    p = PICTOGRAPHS.match(text, body, end)
    if p is not None and p.end() < end:
        body = p.end()
    b = _BOLD.match(text, body, end)
    if b is not None:
        return _label_in(text, b.start("inner"), b.end("inner"))
    t = _TITLE_STOP.match(text, body, end)
    if t is not None and len(t.group("title").split()) <= 4:
        return t.start("title"), t.end("title")  # "1. Drift. After the equity rally ...": a title closed by a full stop
    limit = min(end, body + 160)
    d = _LABEL_END.search(text, body + 1, limit) if limit > body + 1 else None
    if d is not None:
        return _strip_span(text, body, d.start())
    if whole:
        return _strip_span(text, body, end)
    return None


def _label_in(text: str, start: int, end: int) -> tuple[int, int]:
    """A bold span's label: "**1. Margin of Safety — REJECT**" is "1. Margin of Safety"."""
    d = _LABEL_END.search(text, start + 1, end) if end > start + 1 else None
    if d is not None and d.start() > start:
        s, e = _strip_span(text, start, d.start())
        if e > s:
            return s, e
    return _strip_span(text, start, end)


def _cells(text: str, start: int, end: int) -> tuple[tuple[int, int], ...]:
    cells: list[tuple[int, int]] = []
    pos = start
    first = text.find("|", start, end)
    if first < 0:
        return ()
    if text[start:first].strip():
        cells.append(_strip_span(text, start, first))
    pos = first + 1
    while pos <= end:
        bar = text.find("|", pos, end)
        stop = end if bar < 0 else bar
        s, e = _strip_span(text, pos, stop)
        if bar >= 0 or s < e:
            cells.append((s, e))
        if bar < 0:
            break
        pos = bar + 1
    return tuple(c for c in cells if c[0] < c[1])


# --------------------------------------------------------------------------- JSON answers

_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}]')  # unbounded: only run over text raw_decode accepted, where every string closes
_TRAILING_COMMA = re.compile(r",(\s{0,200}[}\]])")
_GATE_KEYS = ("name", "gate_name", "title", "gate", "step", "criterion", "test", "check", "label", "lens", "rule", "filter",
              "screen", "pillar", "principle", "hurdle", "requirement")  # a card's own word for its gates names one too
_NUMBER_KEYS = ("gate", "step", "gate_number", "number", "index", "id", "gate_id")
_VERDICT_KEYS = ("verdict", "outcome", "result", "status", "decision", "gate_verdict", "passes", "passed", "pass", "meets", "met")


def json_gate_objects(text: str, start: int, end: int) -> list[Line]:
    """The gate entries of a JSON answer in ``text[start:end]``, one pseudo-:class:`Line` per object.

    A gate entry is an object with a name-like key (name, gate, step, title...)
    and a verdict-like key (verdict, outcome, result, status, decision). Its
    line spans the object's text; ``label`` is the span of its name value and
    ``number`` its gate number, if it gives one. Trailing commas are
    tolerated. Text that is not JSON gives no entries.

    >>> t = '{"gates": [{"gate": 3, "name": "Moat", "verdict": "PASS"}], "final": "X"}'
    >>> [(t[slice(*o.label)], o.number) for o in json_gate_objects(t, 0, len(t))]
    [('Moat', 3)]
    """
    idx = start
    while idx < end and text[idx].isspace():
        idx += 1
    if idx >= end or text[idx] not in "{[":
        return []
    decoder = json.JSONDecoder(strict=False)  # a line break inside a string: the reader's view of a "\\n" escape (json_view)
    chunk = text[idx:end]
    kept = len(chunk)  # characters of the text the decoded chunk stands for (less when a cut answer is closed)
    try:
        value, stop = decoder.raw_decode(chunk)
    except Exception:  # noqa: BLE001 - ValueError, or RecursionError on deep nesting
        chunk = _TRAILING_COMMA.sub(r" \1", chunk)
        try:
            value, stop = decoder.raw_decode(chunk)
        except Exception:  # noqa: BLE001
            decoded = _decode_cut(decoder, chunk)  # an answer cut at the token limit: its complete pairs (s52break #6)
            if decoded is None:
                return []
            value, stop, chunk, kept = decoded
    spans: list[tuple[int, int]] = []
    stack: list[int] = []
    for m in _JSON_TOKEN.finditer(chunk, 0, stop):
        token = m.group(0)
        if token == "{":
            stack.append(len(spans))
            spans.append((m.start(), -1))
        elif token == "}" and stack:
            k = stack.pop()
            spans[k] = (spans[k][0], min(m.end(), kept))  # a brace added to close a cut block: the block ends at the cut
    dicts = list(_preorder_dicts(value))
    if len(dicts) != len(spans):
        return []
    out: list[Line] = []
    for obj, (s, e) in zip(dicts, spans):
        keys = {str(k).lower(): v for k, v in obj.items()}
        if not any(k in keys for k in _GATE_KEYS) or not any(k in keys for k in _VERDICT_KEYS):
            continue
        s += idx
        e += idx
        label = None
        for key in _GATE_KEYS:
            if isinstance(keys.get(key), str):
                found = re.compile(r'"' + key + r'"\s{0,20}:\s{0,20}"((?:[^"\\\n]|\\.){1,400})"', re.I).search(text, s, e)
                if found is not None:
                    label = (found.start(1), found.end(1))
                    break
        number = None
        for key in _NUMBER_KEYS:
            v = keys.get(key)
            if isinstance(v, bool):
                continue
            if isinstance(v, int) or (isinstance(v, str) and v.strip().isdigit() and len(v.strip()) <= 3):
                number = int(v)
                break
        out.append(Line(s, e, "json", label=label, body=s, key="object", number=number))
    return out


def _decode_cut(decoder: json.JSONDecoder, chunk: str) -> tuple[Any, int, str, int] | None:
    """A block cut short (no closing brace, or a last string that never ends) decoded after its last complete value
    (:func:`ipb.scoring._json_cut.closed_json`): the value, the decoder's stop, the closed text and how many characters
    of ``chunk`` it keeps; None when no closing decodes."""
    for closed, kept in closed_json(chunk):
        try:
            value, stop = decoder.raw_decode(closed)
        except Exception:  # noqa: BLE001 - ValueError, or RecursionError on deep nesting
            continue
        return value, stop, closed, kept
    return None


def _preorder_dicts(value: Any) -> Iterator[dict[Any, Any]]:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            yield v
            stack.extend(reversed(list(v.values())))
        elif isinstance(v, list):
            stack.extend(reversed(v))


# --------------------------------------------------------------------------- words

_WORD = re.compile(r"[^\W_]+")
STOPWORDS = frozenset(
    {"a", "an", "the", "of", "and", "or", "to", "in", "on", "for", "with", "by", "at", "as", "is", "are", "be", "its", "it", "this",
     "that", "from", "vs", "versus", "than", "per", "via", "through", "into", "over", "about", "within", "across", "after",
     "before", "during"}
)


def normalize(text: str) -> str:
    """Lower case, every run of punctuation, underscores or spaces one space.

    >>> normalize("  Circle-of_Competence: (TEST) ")
    'circle of competence test'
    """
    return " ".join(_WORD.findall(text.lower()))


_SUFFIXES = ("ational", "ization", "isation", "ations", "ation", "nesses", "ness", "ities", "ity", "ments", "ment", "ings", "ing",
             "ions", "ion", "ible", "able", "ies", "ied", "ed", "es", "ly", "s")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude suffix-stripping stem, enough to equate inflections of one word.

    >>> [stem(w) for w in ("understandable", "understanding", "costs", "pricing", "insufficiency", "insufficient")]
    ['understand', 'understand', 'cost', 'pric', 'insufficiency', 'insufficient']
    """
    w = word.lower()
    for suffix in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 4:
            return w[: -len(suffix)]
    return w


def content_stems(text: str) -> list[str]:
    """The stems of the words of ``text`` that are not stopwords."""
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in STOPWORDS]


# --------------------------------------------------------------------------- names

#: Investors of the paper (Table 5 and §5.3) and others a model may borrow from.
KNOWN_INVESTORS: tuple[str, ...] = (
    "Warren Buffett", "Charlie Munger", "Benjamin Graham", "Seth Klarman", "Joel Greenblatt", "Peter Lynch", "Howard Marks",
    "Ray Dalio", "George Soros", "Philip Fisher", "John Templeton", "Stanley Druckenmiller", "Carl Icahn", "Bill Ackman",
    "Peter Thiel", "Cathie Wood", "Jim Simons", "John Bogle", "David Swensen", "John Maynard Keynes", "Mohnish Pabrai", "Li Lu",
    "David Tepper", "John Paulson", "Michael Burry", "David Einhorn", "Bill Miller", "John Neff", "Walter Schloss", "Terry Smith",
    "Nick Sleep", "Thomas Rowe Price", "Jesse Livermore", "Paul Tudor Jones", "Julian Robertson", "NBIM", "CPPIB", "PIF",
    "Norges Bank Investment Management", "CPP Investments", "Public Investment Fund",
)
#: Organisations that author documents an answer may cite.
KNOWN_ENTITIES: tuple[str, ...] = (
    "Berkshire Hathaway", "Berkshire", "Oaktree", "Bridgewater", "Baupost", "Graham-Newman", "Buffett Partnership", "Fidelity",
    "Magellan", "Gotham", "Soros Fund Management", "Quantum Fund", "Daily Journal", "Wesco", "NBIM", "CPPIB", "PIF",
)
#: Books and documents commonly cited by title.
KNOWN_BOOKS: tuple[str, ...] = (
    "Security Analysis", "The Intelligent Investor", "Principles", "The Most Important Thing", "Mastering the Market Cycle",
    "One Up on Wall Street", "Beating the Street", "Common Stocks and Uncommon Profits", "The Alchemy of Finance",
    "Poor Charlie's Almanack", "You Can Be a Stock Market Genius", "The Little Book That Beats the Market",
    "The Little Book That Still Beats the Market", "Owner's Manual", "Big Debt Crises", "The Changing World Order",
)
