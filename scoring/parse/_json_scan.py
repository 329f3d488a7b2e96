"""The tolerant JSON scanner of the parser and the view it lays JSON-shaped answers out in (issue 13, layouts).

Moved out of :mod:`._json_answer` (which reads the blocks as labelled lines) unchanged:

- :func:`scan_json` finds the JSON objects and arrays of an answer (fenced or bare, a Python dict repr's single quotes
  too) without ``eval``; it never raises, and bad JSON gives what was read up to the fault;
- :func:`json_view` is the same text laid out one key per line, of the same length (only spacing, quotes and escapes
  change, so every offset is an offset of the original text).

References
----------
Paper §7.5 (SRP); issue 13 item 2 (layouts).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ipb.scoring.parse._types import Span

__all__ = ["JsonNode", "LONG_STRING", "MAX_BLOCKS", "MAX_DEPTH", "MAX_VALUES", "json_view", "scan_json"]

#: At most this many candidate block openings are tried, and blocks nested this deep are read no deeper.
MAX_BLOCKS = 50
MAX_DEPTH = 32
#: At most this many values are read over all blocks (a real answer has a few dozen); past it a block ends where reading stopped.
MAX_VALUES = 3000
#: A string at least this long is prose (a reasoning string): its "\n" escapes are read as line breaks.
LONG_STRING = 80

#: A line that may open a block: "{", "[" or "```json" after optional spacing.
_OPENING = re.compile(r"(?m)^[ \t>]{0,12}(?:```[ \t]*(?:json|python|js|javascript)?[ \t]*\n[ \t]*)?([{\[])")
_LITERAL = re.compile(r"[^\s,:{}\[\]\"']{1,60}")
_SPACE = re.compile(r"\s*")
#: An array opening an array, line breaks and spaces between: a table of rows (:func:`_rows_as_pairs`).
_ROWS_OPEN = re.compile(r"\[\s*\[")


@dataclass
class JsonNode:
    """One value of a scanned block: ``kind`` is ``object``, ``array``, ``string`` or ``literal``; ``start``/``end`` its
    span in the text (a string's quotes included); ``pairs`` an object's (key, key span, value) in document order."""

    kind: str
    start: int
    end: int
    quote: str = ""
    pairs: list[tuple[str, Span, JsonNode]] = field(default_factory=list)
    items: list[JsonNode] = field(default_factory=list)
    #: An array of two-item rows read as an object (:func:`_rows_as_pairs`): its pairs are the rows' (name, value).
    rows: bool = False



#: A string in double or single quotes (a single-quoted one never spans a line: an apostrophe in prose is no string).
_STRINGS = {'"': re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL), "'": re.compile(r"'[^'\\\n]*(?:\\.[^'\\\n]*)*'")}


def _string(text: str, i: int, end: int) -> tuple[JsonNode, int] | None:
    m = _STRINGS[text[i]].match(text, i, end)
    if m is None:
        return None
    return JsonNode("string", i, m.end(), quote=text[i]), m.end()


def _value(text: str, i: int, end: int, depth: int, budget: list[int]) -> tuple[JsonNode | None, int]:
    """The value at ``text[i:]`` (after spacing) and the index after it; (None, i) when none can be read there."""
    i = _SPACE.match(text, i, end).end()  # type: ignore[union-attr]
    if i >= end or budget[0] <= 0:
        return None, i
    budget[0] -= 1
    c = text[i]
    if c in "\"'":
        got = _string(text, i, end)
        return (got[0], got[1]) if got else (None, i)
    if c in "{[":
        if depth >= MAX_DEPTH:
            return None, i
        node = JsonNode("object" if c == "{" else "array", i, i + 1)
        close = "}" if c == "{" else "]"
        j = i + 1
        while True:
            j = _SPACE.match(text, j, end).end()  # type: ignore[union-attr]
            if j >= end:
                node.end = end
                return node, end  # cut short: what was read stands
            if text[j] == close:
                node.end = j + 1
                return node, j + 1
            if text[j] == ",":
                j += 1
                continue
            if c == "{":
                if text[j] not in "\"'":
                    node.end = j
                    return node, j
                key = _string(text, j, end)
                if key is None:
                    node.end = j
                    return node, j
                k = _SPACE.match(text, key[1], end).end()  # type: ignore[union-attr]
                if k >= end or text[k] != ":":
                    node.end = j
                    return node, j
                val, after = _value(text, k + 1, end, depth + 1, budget)
                if val is None:
                    node.end = k + 1
                    return node, k + 1
                knode = key[0]
                node.pairs.append((text[knode.start + 1 : knode.end - 1], (knode.start + 1, knode.end - 1), val))
                j = after
            else:
                val, after = _value(text, j, end, depth + 1, budget)
                if val is None:
                    node.end = j
                    return node, j
                node.items.append(val)
                j = after
    m = _LITERAL.match(text, i, end)
    if m is None:
        return None, i
    return JsonNode("literal", i, m.end()), m.end()


def scan_json(text: str) -> list[JsonNode]:
    """The JSON-ish blocks of ``text``: objects (and arrays) opening a line, in a fence or not, with at least one key.

    Tolerant of single quotes, trailing commas, Python literals (``True``, ``None``) and a block cut short; never
    raises, never evaluates anything. At most :data:`MAX_BLOCKS` openings are tried and :data:`MAX_VALUES` values read.

    >>> [(b.kind, [k for k, _, _ in b.pairs]) for b in scan_json("Answer:\\n{'signal': 'bullish', 'confidence': 70}\\nBye.")]
    [('object', ['signal', 'confidence'])]
    >>> scan_json("no JSON here {")
    []
    """
    if "{" not in text and _ROWS_OPEN.search(text) is None:
        return []  # rows may open on lines of their own: "[\n  [\"Fair Price\", \"REJECT\"],\n ...]" (s49parse)
    out: list[JsonNode] = []
    pos = 0
    budget = [MAX_VALUES]
    for tries, m in enumerate(_OPENING.finditer(text)):
        if tries >= MAX_BLOCKS:
            break
        if m.start(1) < pos:
            continue
        node, after = _value(text, m.start(1), len(text), 0, budget)
        if node is not None and node.kind == "array":
            node = _rows_as_pairs(text, node)
        if node is None or not _has_pairs(node):
            continue
        out.append(node)
        pos = after
    return out


def _rows_as_pairs(text: str, node: JsonNode) -> JsonNode:
    """A top-level array of two or more rows, each an array of strings or literals whose first item is a string, all
    rows of one length (a table: ``[["Fair Price", "REJECT"], ["Gate 2", "PROCEED"]]``, or with a note column,
    ``[["Gate 1", "PROCEED", "note"], ...]``), as the object it stands for: each row's first item its key, its second
    the value, the rest the value's note on the row's line (s46break 8: only the first row was read; s47parse left
    rows of three items unread). Any other array is returned as it is.

    >>> t = '[["Moat", "PROCEED"], ["Price", "REJECT"]]'
    >>> [(k, t[v.start:v.end]) for k, _, v in _rows_as_pairs(t, scan_json(t)[0]).pairs]
    [('Moat', '"PROCEED"'), ('Price', '"REJECT"')]
    >>> t = '[["Moat", "PROCEED", "wide"], ["Price", "REJECT", "rich"]]'
    >>> [(k, t[v.start:v.end]) for k, _, v in _rows_as_pairs(t, scan_json(t)[0]).pairs]
    [('Moat', '"PROCEED"'), ('Price', '"REJECT"')]
    """
    rows = node.items
    width = len(rows[0].items) if rows and rows[0].kind == "array" else 0
    if len(rows) < 2 or width < 2 or not all(r.kind == "array" and len(r.items) == width and r.items[0].kind == "string"
                                             and all(i.kind in ("string", "literal") for i in r.items[1:]) for r in rows):
        return node
    out = JsonNode("object", node.start, node.end, rows=True)
    for r in rows:
        key, val = r.items[:2]
        out.pairs.append((text[key.start + 1 : key.end - 1], (key.start + 1, key.end - 1), val))
    return out


def _has_pairs(node: JsonNode) -> bool:
    return bool(node.pairs) or any(_has_pairs(n) for n in node.items[:20])


def _walk(node: JsonNode, parent_key: str | None = None, depth: int = 0) -> Iterator[tuple[JsonNode, str | None, int]]:
    """(object, its key in the parent or None, depth) for every object under ``node``, in document order."""
    if node.kind == "object":
        yield node, parent_key, depth
        for key, _, val in node.pairs:
            if val.kind in ("object", "array"):
                yield from _walk(val, key, depth + 1)
    elif node.kind == "array":
        for item in node.items:
            yield from _walk(item, parent_key, depth + 1)


#: Keys that name an object's criterion, with the words cards use for their own gates ("lens", "rule", "filter", "pillar"),
#: and keys that hold its decision, pass flags included ("passes": false); kept equal to :mod:`ipb.scoring._text`'s.
_GATE_OBJECT_NAMES = frozenset({"name", "gate_name", "title", "gate", "step", "criterion", "test", "check", "label", "lens",
                                "rule", "filter", "screen", "pillar", "principle", "hurdle", "requirement"})
_GATE_OBJECT_VERDICTS = frozenset({"verdict", "outcome", "result", "status", "decision", "gate_verdict", "passes", "passed",
                                   "pass", "meets", "met"})


def _gate_object(node: JsonNode) -> bool:
    """An object the layout reads whole (:func:`ipb.scoring._text.json_gate_objects`): a name-like and a verdict-like key."""
    keys = {k.lower() for k, _, _ in node.pairs}
    return bool(keys & _GATE_OBJECT_NAMES) and bool(keys & _GATE_OBJECT_VERDICTS)


def json_view(text: str, blocks: list[JsonNode]) -> str:
    """``text`` with ``blocks`` laid out one key per line, as a reader sees them; same length, same offsets.

    Within an object that is not a gate object, a pair that shares its line with the pair before it starts a line (the
    space before its key becomes a line break; with no space there, the comma does, unless the block holds a gate object
    that :func:`ipb.scoring._text.json_gate_objects` must still decode). A single-quoted string gets double
    quotes (its own double quotes become single ones, ``\\'`` becomes `` '``). A string of :data:`LONG_STRING`
    characters or more has its ``\\n`` escapes read as line breaks (a block that holds gate objects too: the agent's
    "detailed_analysis" beside its criteria; :func:`ipb.scoring._text.json_gate_objects` decodes strings that hold line
    breaks).

    >>> t = '{"moat": "pass", "management": "fail"}'
    >>> json_view(t, scan_json(t))
    '{"moat": "pass",\\n"management": "fail"}'
    >>> t = "{'signal': 'bullish', 'note': 'it\\\\'s \\"cheap\\"'}"
    >>> json_view(t, scan_json(t))
    '{"signal": "bullish",\\n"note": "it \\'s \\'cheap\\'"}'
    """
    if not blocks:
        return text
    chars = list(text)
    for block in blocks:
        if block.rows:  # '[["Moat", "PROCEED"], ["Price", "REJECT"]]': a row a line, its comma read as a key's colon
            for k, (_, (ks, _), val) in enumerate(block.pairs):
                row = text.rfind("[", block.start, ks)
                if k and row > 0 and chars[row - 1] in " \t,":
                    chars[row - 1] = "\n"
                comma = text.find(",", ks, val.start)
                if comma >= 0:
                    chars[comma] = ":"
        objects = list(_walk(block))
        whole = any(_gate_object(o) for o, _, _ in objects)
        for obj, _, _ in objects:
            if not _gate_object(obj):
                prev_end = obj.start + 1
                for k, (_, (ks, _), val) in enumerate(obj.pairs):
                    if k and "\n" not in text[prev_end : ks - 1]:
                        if chars[ks - 2] in " \t":
                            chars[ks - 2] = "\n"
                        elif chars[ks - 2] == "," and not whole:
                            chars[ks - 2] = "\n"  # compact JSON ('{"a":1,"b":2}'); a block with gate objects stays valid JSON
                    prev_end = val.end
                    if val.kind == "array":  # "reasoning": ["Moat: wide, passes", "Management: fails"]: an item a line
                        for item in val.items[1:]:
                            if item.kind == "string" and chars[item.start - 1] in " \t":
                                chars[item.start - 1] = "\n"
            for _, (ks, ke), val in obj.pairs:
                _requote(chars, text, ks - 1, ke + 1)
                if val.kind == "string":
                    _requote(chars, text, val.start, val.end)
                    _unicode_escapes(chars, text, val.start, val.end)
                    if val.end - val.start >= LONG_STRING:
                        _escaped_breaks(chars, text, val.start, val.end)
            for _, _, val in obj.pairs:
                if val.kind == "array":
                    for item in val.items:
                        if item.kind == "string":
                            _requote(chars, text, item.start, item.end)
                            _unicode_escapes(chars, text, item.start, item.end)
    return "".join(chars)


def _requote(chars: list[str], text: str, start: int, end: int) -> None:
    if text[start] != "'" or end - start < 2:
        return
    chars[start] = chars[end - 1] = '"'
    j = start + 1
    while j < end - 1:
        c = text[j]
        if c == "\\" and text[j + 1 : j + 2] == "'":
            chars[j] = " "
            j += 2
            continue
        if c == '"':
            chars[j] = "'"
        j += 2 if c == "\\" else 1


#: A run of text between spacing and punctuation: a word, with any ``\\uXXXX`` escapes in it ("doesn\\u2019t").
_TOKEN = re.compile(r"[^\s\"',.;:!?()\[\]{}]+")
_UNICODE_ESCAPE = re.compile(r"\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})")


def _decode_escapes(word: str) -> str:
    def one(m: re.Match[str]) -> str:
        if m.group(3) is None:
            high, low = int(m.group(1), 16), int(m.group(2), 16)
            return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        code = int(m.group(3), 16)
        if code in (0x2018, 0x2019):
            return "'"  # a typographic apostrophe, read as the plain one the negation rules know ("doesn't")
        return chr(code) if code >= 0x80 and not 0xD800 <= code < 0xE000 else m.group(0)  # never a quote or a control
    return _UNICODE_ESCAPE.sub(one, word)


def _unicode_escapes(chars: list[str], text: str, start: int, end: int) -> None:
    """A string's words with ``\\uXXXX`` escapes of non-ASCII characters (what ``json.dumps`` writes by default) read as
    the characters ("\\u2705" as the check mark, "Nestl\\u00e9" as "Nestl\u00e9"; a typographic apostrophe as "'", so
    "doesn\\u2019t" reads "doesn't"), padded with spaces after the word so the length stays. A span inside such a word
    points at the same offsets of the original text: the escape's own characters."""
    if text.find("\\u", start, end) < 0:
        return
    for m in _TOKEN.finditer(text, start + 1, end - 1):
        token = m.group(0)
        if "\\u" not in token or "\\\\" in token:
            continue  # no escape, or an escaped backslash ("\\\\u2019" is a backslash and the letters u2019)
        word = _decode_escapes(token)
        if word != token:
            chars[m.start() : m.end()] = list(word.ljust(len(token)))


def _escaped_breaks(chars: list[str], text: str, start: int, end: int) -> None:
    j = text.find("\\n", start, end)
    while j >= 0:
        if text[j - 1] != "\\":
            chars[j], chars[j + 1] = " ", "\n"
        j = text.find("\\n", j + 2, end)
