"""Strict YAML loading for framework cards and scenarios.

Cards are written by hand, so the loader refuses anything that two readers
could understand differently instead of guessing:

* plain (unquoted) scalars that YAML 1.1 and YAML 1.2 resolve differently, or
  that are easy to misread (``NO``, ``on``, ``012``, ``0x1F``, ``1_000``,
  ``1e3``, ``1:30``, ``2009-03-01``, ``.inf``, ``True``, ``1,000``);
* duplicate mapping keys;
* anchors, aliases and merge keys (``&a``, ``*a``, ``<<:``) and explicit tags;
* more than one document in a file.

Every violation is a :class:`ipb.errors.LoadError` with a 1-based line and
column, a ``rule`` naming the check that failed, and the offending source line
for the caret.

The text is parsed with ruamel.yaml's event parser only; this module builds
the Python data itself, so it decides how every plain scalar is resolved:

===================================  ==========================================
plain scalar                         loads as
===================================  ==========================================
``true`` / ``false``                 ``bool``
``~``, ``null``, ``Null``, ``NULL``  ``None`` (an empty value too)
``25``, ``-3``, ``+7``               ``int``
``0.57``, ``-2.0``, ``1.5e9``        :class:`decimal.Decimal` of the exact text
anything else that is not refused    ``str``
===================================  ==========================================

Quoted and block scalars (``'...'``, ``"..."``, ``|``, ``>``) are always
strings. Every string, keys included, loads in composed Unicode (NFC,
:mod:`ipb._composed`): a file saved decomposed (macOS writes "é" as "e" and
U+0301) gives the names an NFC file gives, so two keys or gate ids that differ
only by normalisation are duplicates; positions inside a string
(:meth:`YamlDoc.locate_in_string`) still point at the file's characters.  Mappings load as plain ``dict`` (in file order) with ``str`` keys,
sequences as ``list``.

The returned :class:`YamlDoc` remembers where every value and key came from,
so later phases (schema checks, the expression compiler) can point at the
user's text with :meth:`YamlDoc.locate`, :meth:`YamlDoc.locate_key` and
:meth:`YamlDoc.locate_in_string`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Iterator, NoReturn, TypeVar

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    NodeEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
    StreamStartEvent,
)
from ruamel.yaml.reader import ReaderError

from ipb._composed import compose, nfc
from ipb.engine._nesting import too_deep_at
from ipb.engine._yaml_scalars import CAPITAL_BOOLS as _CAPITAL_BOOLS
from ipb.engine._yaml_scalars import YAML11_BOOLS as _YAML11_BOOLS
from ipb.engine._yaml_scalars import describe as _describe
from ipb.engine._yaml_scalars import quoted as _quoted
from ipb.engine._yaml_scalars import resolve_plain as _resolve_plain
from ipb.errors import ErrorGroup, IpbError, LoadError

__all__ = ["YamlDoc", "load_yaml", "load_yaml_file"]

#: Deepest nesting of lists and mappings read (cards nest about 6; Python's stack ends near 1,000).
MAX_YAML_DEPTH = 100

# Quoted strings and comments (skipped) and flow brackets (counted) for the nesting pre-scan.
_FLOW_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\n]|\'\')*\'|#[^\n]*|[\[\]{}]')

#: Longest YAML document read (characters): a bundled card is under 50,000, a scenario under 5,000.
MAX_YAML_CHARS = 1_000_000

#: A path from the document root: mapping keys (``str``) and list indices (``int``).
YamlPath = tuple[str | int, ...]

_E = TypeVar("_E", bound=IpbError)

# ruamel.yaml (YAML 1.2 mode) counts "\n", "\r\n" and a lone "\r" as line
# breaks; ``str.splitlines`` also splits on \v, \f, \x1c-\x1e, \x85, \u2028
# and \u2029, which would shift every line number after one of them.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _split_lines(text: str) -> list[str]:
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


# --------------------------------------------------------------------------
# Source positions of scalars, for locate_in_string
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Scalar:
    """Where a scalar sits in the source (0-based marks, as ruamel gives them)."""

    value: str  # the scalar's text after unquoting/unescaping/folding, before composition (NFC): as the file spells it
    style: str | None  # None (plain), "'", '"', "|" or ">"
    line: int
    column: int
    end_line: int


def _is_blank(text: str) -> bool:
    return text.strip(" \t") == ""


def _first_non_space(text: str) -> int:
    return len(text) - len(text.lstrip(" \t"))


def _is_surrogate_pair_escape(text: str, col: int) -> bool:
    """``\\uD83D\\uDE00`` at ``col``: a JSON-style pair that loads as one character."""
    high, low = text[col + 2 : col + 6], text[col + 8 : col + 12]
    if text[col + 6 : col + 8] != "\\u" or len(low) != 4:
        return False
    try:
        return 0xD800 <= int(high, 16) <= 0xDBFF and 0xDC00 <= int(low, 16) <= 0xDFFF
    except ValueError:
        return False


def _flow_char_position(lines: list[str], sc: _Scalar, offset: int) -> tuple[int, int]:
    """0-based file position of character ``offset`` of a plain or quoted scalar.

    Walks the source the way the scanner does: quotes and escapes take more
    source characters than they produce, and a line break between two lines
    of content folds to one space (or to one newline per blank line).
    """
    line, col = sc.line, sc.column
    if sc.style in ("'", '"'):
        col += 1  # the opening quote
    produced = 0
    while line < len(lines):
        text = lines[line]
        escaped_break = sc.style == '"' and text[col:] == "\\"
        if produced >= offset and not escaped_break:
            return line, col
        if escaped_break or _is_blank(text[col:]):
            if line >= sc.end_line:  # the scalar ends on this line
                return line, col
            fold_at = (line, col)
            line += 1
            blanks: list[int] = []
            while line < sc.end_line and _is_blank(lines[line]):
                blanks.append(line)
                line += 1
            count = len(blanks) if blanks else (0 if escaped_break else 1)
            if offset < produced + count:
                return (blanks[offset - produced], 0) if blanks else fold_at
            produced += count
            col = _first_non_space(lines[line]) if line < len(lines) else 0
            continue
        ch = text[col]
        width = 1
        if sc.style == "'" and ch == "'":
            if text[col + 1 : col + 2] != "'":
                return line, col  # the closing quote
            width = 2
        elif sc.style == '"' and ch == '"':
            return line, col  # the closing quote
        elif sc.style == '"' and ch == "\\":
            code = text[col + 1 : col + 2]
            if code == "u" and _is_surrogate_pair_escape(text, col):
                width = 12
            else:
                width = {"x": 4, "u": 6, "U": 10}.get(code, 2)
        produced += 1
        col += width
    return (len(lines) - 1, 0) if lines else (0, 0)


def _literal_char_position(lines: list[str], sc: _Scalar, offset: int) -> tuple[int, int]:
    """0-based file position of character ``offset`` of a ``|`` block scalar.

    Each line of the value is one line of the file after the header line, with
    the block's indentation in front of it.
    """
    if offset == len(sc.value) and sc.value.endswith("\n"):
        offset -= 1  # just past the end: the final line break, not the next line
    value_lines = sc.value.split("\n")
    k = sc.value.count("\n", 0, offset)
    within = offset - (sc.value.rfind("\n", 0, offset) + 1)
    indent = 0
    for j, value_line in enumerate(value_lines):
        if value_line and sc.line + 1 + j < len(lines):
            indent = len(lines[sc.line + 1 + j]) - len(value_line)
            break
    file_line = min(sc.line + 1 + k, len(lines) - 1)
    text = lines[file_line]
    if value_lines[k] and text.endswith(value_lines[k]):
        indent = len(text) - len(value_lines[k])
    return file_line, indent + within


def _folded_char_position(lines: list[str], sc: _Scalar, offset: int) -> tuple[int, int]:
    """Position of character ``offset`` of a ``>`` block scalar.

    Exact for characters inside a content line (each line's text is found in
    the folded value in order); a folding space maps to the end of the line
    it replaced.
    """
    cursor = 0
    last = (sc.line, sc.column)
    indent: int | None = None
    line = sc.line + 1
    while line < len(lines) and line <= sc.end_line:
        text = lines[line]
        if not _is_blank(text):
            if indent is None:
                indent = _first_non_space(text)
            content = text[indent:]
            found = sc.value.find(content, cursor)
            if found < 0:
                break
            if offset < found:
                return last
            if offset < found + len(content):
                return line, indent + offset - found
            cursor = found + len(content)
            last = (line, len(text))
        line += 1
    return last


# --------------------------------------------------------------------------
# The loaded document
# --------------------------------------------------------------------------


@dataclass
class YamlDoc:
    """A loaded YAML file: plain Python data plus where each piece came from.

    Attributes
    ----------
    data:
        ``dict`` (in file order, ``str`` keys), ``list``, ``str``, ``int``,
        :class:`decimal.Decimal`, ``bool`` or ``None``.
    file:
        The file name given to the loader, used in error messages.
    lines:
        The source text split into lines (line breaks removed), for carets.

    Paths are tuples of mapping keys and list indices from the root, e.g.
    ``("gates", 2, "proceed")``.  Positions are 1-based ``(line, column)``.
    """

    data: Any
    file: str
    lines: list[str]
    _values: dict[YamlPath, tuple[int, int]] = field(
        default_factory=dict, repr=False, compare=False
    )
    _keys: dict[YamlPath, tuple[int, int]] = field(
        default_factory=dict, repr=False, compare=False
    )
    _scalars: dict[YamlPath, _Scalar] = field(default_factory=dict, repr=False, compare=False)

    def _nearest(
        self, table: dict[YamlPath, tuple[int, int]], path: YamlPath
    ) -> tuple[int, int]:
        path = tuple(path)
        for end in range(len(path), 0, -1):
            found = table.get(path[:end]) or self._values.get(path[:end])
            if found is not None:
                return found
        return (1, 1)

    def locate(self, path: YamlPath) -> tuple[int, int]:
        """Where the value at ``path`` starts.

        Parameters
        ----------
        path:
            Mapping keys and list indices from the root.

        Returns
        -------
        tuple of int
            1-based ``(line, column)`` of the value's first character (the
            opening quote of a quoted string, the ``|`` of a block scalar,
            the first key of a block mapping).  A path with no recorded
            position (it goes deeper than the data, or names a missing key)
            falls back to its nearest ancestor that has one; ``()`` is
            ``(1, 1)``.
        """
        return self._nearest(self._values, path)

    def locate_key(self, path: YamlPath) -> tuple[int, int]:
        """Where the mapping key that is the last element of ``path`` starts.

        Use it for "unknown field" errors.  For a list index, or a path with
        no recorded key, falls back as :meth:`locate` does.

        Returns
        -------
        tuple of int
            1-based ``(line, column)``.
        """
        return self._nearest(self._keys, path)

    def locate_in_string(self, path: YamlPath, offset: int) -> tuple[int, int]:
        """Where, in the file, character ``offset`` of the string at ``path`` is.

        Parameters
        ----------
        path:
            Path of a scalar (normally a string, e.g. an expression).
        offset:
            0-based index into the loaded string; clamped to ``[0, len]``
            (``len`` points just after the last character).

        Returns
        -------
        tuple of int
            1-based ``(line, column)``.  Exact for plain scalars, single- and
            double-quoted scalars (quotes, ``''`` and backslash escapes
            accounted for, also across folded lines) and literal block
            scalars (``|``, ``|-``, ``|+``).  For folded block scalars
            (``>``) exact inside a content line; a folding space maps to the
            end of the line it replaced.  A path that is not a scalar falls
            back to :meth:`locate`.

        Examples
        --------
        >>> doc = load_yaml("when: 'don''t panic'\\n")
        >>> doc.locate_in_string(("when",), doc.data["when"].index("panic"))
        (1, 15)
        >>> doc = load_yaml("rule: |\\n  a > 1\\n  b < 2\\n")
        >>> doc.locate_in_string(("rule",), doc.data["rule"].index("b"))
        (3, 3)
        """
        sc = self._scalars.get(tuple(path))
        if sc is None:
            return self.locate(path)
        offset = compose(sc.value).offset(offset)  # an offset into the loaded (composed) string, as the file spells it
        offset = max(0, min(offset, len(sc.value)))
        if sc.style == "|":
            line, col = _literal_char_position(self.lines, sc, offset)
        elif sc.style == ">":
            line, col = _folded_char_position(self.lines, sc, offset)
        else:
            line, col = _flow_char_position(self.lines, sc, offset)
        return line + 1, col + 1

    def source_line(self, line: int) -> str:
        """Text of 1-based ``line`` without its line break; ``''`` if out of range."""
        if 1 <= line <= len(self.lines):
            return self.lines[line - 1]
        return ""

    def error(
        self,
        message: str,
        path: YamlPath,
        *,
        key: bool = False,
        rule: str | None = None,
        name: str | None = None,
        suggestion: str | None = None,
    ) -> LoadError:
        """A :class:`LoadError` pointing at the value (or, with ``key``, the key) at ``path``.

        For later checks on loaded data (schemas, value ranges); the caller
        raises or collects it.
        """
        return self.place(LoadError(message, rule=rule, name=name, suggestion=suggestion), path, key=key)

    def place(self, exc: _E, path: YamlPath, *, key: bool = False) -> _E:
        """``exc`` pointed at the value (or, with ``key``, the key) at ``path``: its file, 1-based line and column
        (:meth:`locate` / :meth:`locate_key`) and source line are set, any earlier ones replaced; returns ``exc``.

        For an error found on compiled data (a card's inputs) that is to point at the text it came from.

        Examples
        --------
        >>> from ipb.errors import PerturbError
        >>> doc = load_yaml("inputs:\\n  debt:\\n    values: [a, b]\\n", file="card.yaml")
        >>> str(doc.place(PerturbError("alike"), ("inputs", "debt", "values")))
        'card.yaml:3:13: perturb error: alike'
        >>> exc = doc.place(PerturbError("alike"), ("inputs", "debt"), key=True)
        >>> exc.line, exc.column, exc.source_line
        (2, 3, '  debt:')
        """
        exc.file = self.file
        exc.line, exc.column = self.locate_key(path) if key else self.locate(path)
        exc.source_line = self.source_line(exc.line)
        return exc


# --------------------------------------------------------------------------
# Building data from parser events
# --------------------------------------------------------------------------


class _Stop(Exception):
    """A syntax error was recorded; the event stream cannot go on."""


class _Builder:
    """Turns ruamel's event stream into plain data, checking every rule."""

    def __init__(self, text: str, doc: YamlDoc, parser: YAML) -> None:
        self.text = text
        self.doc = doc
        self.errors: list[LoadError] = []
        self._events: Iterator[Event] = iter(parser.parse(text))

    # -- errors ------------------------------------------------------------

    def error(
        self,
        message: str,
        line: int,
        column: int,
        rule: str,
        name: str | None = None,
    ) -> None:
        """Record an error at 0-based ``line``/``column``."""
        self.errors.append(
            LoadError(
                message,
                file=self.doc.file,
                line=line + 1,
                column=column + 1,
                rule=rule,
                name=name,
                source_line=self.doc.source_line(line + 1),
            )
        )

    def error_at(self, message: str, event: Event, rule: str, name: str | None = None) -> None:
        self.error(message, event.start_mark.line, event.start_mark.column, rule, name)

    def syntax_error(self, exc: YAMLError) -> NoReturn:
        if isinstance(exc, MarkedYAMLError):
            mark = exc.problem_mark or exc.context_mark
            problem = exc.problem or exc.context or "malformed YAML"
            message = f"invalid YAML: {problem}"
            if exc.context and exc.problem and exc.context_mark is not None:
                cm = exc.context_mark
                message += f", {exc.context} started at line {cm.line + 1}, column {cm.column + 1}"
            line, column = (mark.line, mark.column) if mark is not None else (0, 0)
            message += self._layout_hint(str(exc.problem or ""), line, exc.context_mark)
        elif isinstance(exc, ReaderError):
            index = exc.position if isinstance(exc.position, int) else 0
            before = self.text[:index]
            line = len(_LINE_BREAK.findall(before))
            column = index - max(before.rfind("\n"), before.rfind("\r")) - 1
            char = exc.character
            shown = f"U+{char:04X}" if isinstance(char, int) else repr(char)
            message = (
                f"invalid YAML: character {shown} is not allowed in a YAML "
                f"file ({exc.reason}); write it as an escape inside double quotes"
            )
        else:
            message, line, column = f"invalid YAML: {exc}", 0, 0
        self.error(message, line, column, "yaml-syntax")
        raise _Stop

    def _layout_hint(self, problem: str, line: int, context: Any) -> str:
        """What a newcomer should look at after the YAML reader's own words (s42user: "expected <block end>" said
        nothing of indentation): the offending line's indent against the block it broke, or the colon that ended a
        plain value. Empty for other problems."""
        if problem.startswith(("expected <block end>", "did not find expected key")):
            text = self.doc.source_line(line + 1) or ""
            indent = len(text) - len(text.lstrip(" "))
            where = ""
            if context is not None and context.line != line:
                where = f"; the block being read when it broke starts at column {context.column + 1}"
            return (f"; check the indentation of line {line + 1}: it starts at column {indent + 1}{where} (the keys "
                    "of one mapping, and the items of one list, must line up in one column; indent with spaces)")
        if problem.startswith("mapping values are not allowed"):
            return ("; a ': ' inside a plain value starts a mapping: quote the value (\"...\"), or if this line is "
                    "a key, check that it is indented under a key that has no value of its own")
        return ""

    def next_event(self) -> Event:
        try:
            return next(self._events)
        except YAMLError as exc:
            self.syntax_error(exc)

    # -- walking -----------------------------------------------------------

    def check_flow_depth(self) -> None:
        """Refuse flow collections (``[[[...`` or ``{a: {b: ...``) nested past :data:`MAX_YAML_DEPTH`
        before ruamel's parser, which slows down sharply on them, sees the text."""
        text = self.text
        at = too_deep_at(text, _FLOW_TOKENS, MAX_YAML_DEPTH)
        if at is not None:
            before = text[:at]
            line = len(_LINE_BREAK.findall(before))
            column = at - max(before.rfind("\n"), before.rfind("\r")) - 1
            self.error(f"lists and mappings nest deeper than {MAX_YAML_DEPTH} levels here; ipb reads at "
                       f"most {MAX_YAML_DEPTH}", line, column, "yaml-depth")
            raise _Stop

    def load(self, require_mapping: bool) -> Any:
        """Walk the stream; return the data (errors are left in ``self.errors``)."""
        self.check_flow_depth()
        event = self.next_event()
        assert isinstance(event, StreamStartEvent)
        event = self.next_event()
        if isinstance(event, StreamEndEvent):
            data: Any = None
            root_pos = (0, 0)
        else:
            assert isinstance(event, DocumentStartEvent)
            root = self.next_event()
            root_pos = (root.start_mark.line, root.start_mark.column)
            data = self.node(root, (), record=True)
            end = self.next_event()
            assert isinstance(end, DocumentEndEvent)
            extra = self.next_event()
            if isinstance(extra, DocumentStartEvent):
                self.error_at(
                    "a second YAML document ('---') is not allowed: a file holds exactly "
                    "one card or scenario; split it into separate files",
                    extra,
                    "multiple-documents",
                )
        if require_mapping and not isinstance(data, dict):
            found = "an empty file" if data is None else _describe(data)
            self.error(
                f"the top level must be a mapping of 'key: value' lines, found {found}",
                root_pos[0],
                root_pos[1],
                "top-level",
            )
        return data

    def check_properties(self, event: NodeEvent) -> None:
        if event.anchor is not None and not isinstance(event, AliasEvent):
            self.error_at(
                f"anchor &{event.anchor} is not allowed: anchors and aliases make a card "
                "hard to read; write the value out in full",
                event,
                "alias",
                event.anchor,
            )
        tag = getattr(event, "tag", None)
        if tag is not None:
            # Show the tag as written (``!!str``), not resolved (``tag:yaml.org,2002:str``).
            line = self.doc.source_line(event.start_mark.line + 1)
            written = re.search(r"![^\s,\[\]{}]*", line[event.start_mark.column :])
            shown = written.group() if written else str(tag)
            self.error_at(
                f"tag {shown} is not allowed: values are typed by how they are written "
                '(quote a string: "...")',
                event,
                "tag",
                shown,
            )

    def node(self, event: Event, path: YamlPath, record: bool) -> Any:
        """Convert the node starting with ``event``; record positions under ``path``."""
        if len(path) >= MAX_YAML_DEPTH and isinstance(event, (SequenceStartEvent, MappingStartEvent)):
            self.error_at(f"lists and mappings nest deeper than {MAX_YAML_DEPTH} levels here; ipb reads at most "
                          f"{MAX_YAML_DEPTH}", event, "yaml-depth")
            self.skip(event)
            return None
        if record:
            self.doc._values[path] = (event.start_mark.line + 1, event.start_mark.column + 1)
        if isinstance(event, AliasEvent):
            self.error_at(
                f"alias *{event.anchor} is not allowed: anchors and aliases make a card "
                "hard to read; write the value out in full",
                event,
                "alias",
                event.anchor,
            )
            return None
        assert isinstance(event, NodeEvent)
        self.check_properties(event)
        if isinstance(event, ScalarEvent):
            return self.scalar(event, path, record)
        if isinstance(event, SequenceStartEvent):
            items: list[Any] = []
            while not isinstance(child := self.next_event(), SequenceEndEvent):
                items.append(self.node(child, path + (len(items),), record))
            return items
        assert isinstance(event, MappingStartEvent)
        return self.mapping(path, record)

    def skip(self, event: Event) -> None:
        """Consume the events of the collection that ``event`` opens, without recursion."""
        depth = 1
        while depth:
            child = self.next_event()
            if isinstance(child, (SequenceStartEvent, MappingStartEvent)):
                depth += 1
            elif isinstance(child, (SequenceEndEvent, MappingEndEvent)):
                depth -= 1

    def scalar(self, event: ScalarEvent, path: YamlPath, record: bool) -> Any:
        value: str = event.value
        if event.style == '"' and any("\ud800" <= ch <= "\udfff" for ch in value):
            # JSON writes astral characters as surrogate-pair escapes; ruamel
            # keeps the halves apart.
            try:
                value = value.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
            except UnicodeDecodeError:
                self.error_at(
                    "invalid YAML: a \\u escape is half of a surrogate pair; write the "
                    "character itself or its \\U00XXXXXX escape",
                    event,
                    "yaml-syntax",
                )
        if record:
            self.doc._scalars[path] = _Scalar(
                value,
                event.style,
                event.start_mark.line,
                event.start_mark.column,
                event.end_mark.line,
            )
        value = nfc(value)  # a file saved decomposed ("e" + U+0301) loads as the composed names answers are read in
        if event.style is not None:
            return value
        resolved, problem = _resolve_plain(value)
        if problem is not None:
            self.error_at(problem, event, "ambiguous-scalar", value)
        return resolved

    def mapping(self, path: YamlPath, record: bool) -> dict[str, Any]:
        result: dict[str, Any] = {}
        first_seen: dict[str, tuple[int, int]] = {}
        while not isinstance(key_event := self.next_event(), MappingEndEvent):
            key = self.key(key_event)
            position = (key_event.start_mark.line + 1, key_event.start_mark.column + 1)
            fresh = key is not None and key not in first_seen
            if key is not None and not fresh:
                line, column = first_seen[key]
                self.error_at(
                    f"duplicate key {key!r}: it is already defined on line {line} "
                    f"(column {column}); each key may appear only once in a mapping",
                    key_event,
                    "duplicate-key",
                    key,
                )
            child_path = path + (key if key is not None else "",)
            keep = record and fresh
            if keep:
                self.doc._keys[child_path] = position
            value_event = self.next_event()
            value = self.node(value_event, child_path, keep)
            if (
                keep
                and isinstance(value_event, ScalarEvent)
                and value_event.style is None
                and value_event.value == ""
                and value_event.start_mark.line > key_event.end_mark.line
            ):
                # An empty value: point just after "key:" rather than at the next line.
                self.doc._values[child_path] = (
                    key_event.end_mark.line + 1,
                    key_event.end_mark.column + 2,
                )
            if fresh and key is not None:
                first_seen[key] = position
                result[key] = value
        return result

    def key(self, event: Event) -> str | None:
        """The ``str`` key for ``event``, or None (after recording why) if it is unusable."""
        if not isinstance(event, ScalarEvent):
            # A mapping or list used as a key: report it, then skip it.
            self.node(event, ("<key>",), record=False)
            self.error_at(
                "a mapping key must be a string, found a list or mapping",
                event,
                "key-type",
            )
            return None
        if event.style is None and event.value == "<<":
            self.error_at(
                "merge key '<<' is not allowed: write the merged fields out in full",
                event,
                "alias",
                "<<",
            )
            return None
        if event.style is None and (event.value in _YAML11_BOOLS or event.value in _CAPITAL_BOOLS):
            self.error_at(
                f"ambiguous key {event.value}: YAML 1.1 reads it as a boolean; quote the key "
                f"({_quoted(event.value)}) or use another name",
                event,
                "ambiguous-scalar",
                event.value,
            )
            return None
        before = len(self.errors)
        value = self.node(event, ("<key>",), record=False)
        if len(self.errors) > before:
            return None
        if isinstance(value, str):
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            return str(event.value)
        if value is None and event.value == "":
            message = "a mapping key is empty; write a name before the ':'"
        else:
            message = (
                f"a mapping key must be a string or an integer, found "
                f"{_describe(value)} key {event.value}; quote it "
                f"({_quoted(event.value)}) to use it as a name"
            )
        self.error_at(message, event, "key-type", event.value)
        return None


# --------------------------------------------------------------------------
# Public entry points
# --------------------------------------------------------------------------


def load_yaml(
    text: str,
    file: str = "<string>",
    *,
    require_mapping: bool = True,
    collect: bool = False,
) -> YamlDoc:
    """Load one strict YAML document from ``text``.

    Parameters
    ----------
    text:
        The YAML source.  A leading byte-order mark is ignored.
    file:
        Name used in error messages and stored as :attr:`YamlDoc.file`.
    require_mapping:
        Refuse a document whose top level is not a mapping (rule
        ``top-level``); an empty document is refused too.
    collect:
        Report every problem in the text rather than the first: raise an
        :class:`ipb.errors.ErrorGroup` of :class:`LoadError` when there is
        more than one.  A syntax error still ends the scan.

    Returns
    -------
    YamlDoc
        The data and the source positions of its values and keys.

    Raises
    ------
    LoadError
        With 1-based ``line``/``column``, ``source_line`` and ``rule``:
        ``yaml-syntax`` (ruamel cannot parse the text), ``duplicate-key``,
        ``ambiguous-scalar`` (a plain scalar YAML 1.1 and 1.2 read
        differently, or that is easy to misread), ``alias`` (anchor, alias
        or merge key), ``tag`` (an explicit tag), ``key-type`` (a key that
        is not a string or an integer), ``multiple-documents``, and
        ``top-level``.  With ``collect`` and several problems, an
        ``ErrorGroup`` of them instead.

    Examples
    --------
    >>> doc = load_yaml("name: Graham\\nmargin: 0.57\\nyears: 10\\n")
    >>> doc.data
    {'name': 'Graham', 'margin': Decimal('0.57'), 'years': 10}
    >>> doc.locate(("years",))
    (3, 8)
    >>> load_yaml("listed: NO\\n")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ipb.errors.LoadError: <string>:1:9: load error: ambiguous scalar NO: ... or write true/false
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if len(text) > MAX_YAML_CHARS:  # before the parser, which takes seconds per megabyte
        line = text.count("\n", 0, MAX_YAML_CHARS) + 1
        raise LoadError(f"the document is {len(text):,} characters long; ipb reads YAML documents of at most "
                        f"{MAX_YAML_CHARS:,} (a card is tens of thousands)", file=file, line=line, column=1,
                        rule="yaml-size")
    from ipb.engine import _yaml_cache

    cache_key = _yaml_cache.key(text, require_mapping)
    cached = _yaml_cache.load(cache_key, file)
    if cached is not None:
        return cached  # the same data and positions, without the parse (see ipb.engine._yaml_cache)
    doc = YamlDoc(data=None, file=file, lines=_split_lines(text))
    builder = _Builder(text, doc, YAML(typ="safe", pure=True))
    try:
        doc.data = builder.load(require_mapping)
    except _Stop:
        pass
    errors = sorted(builder.errors, key=lambda e: (e.line or 0, e.column or 0))
    if not errors:
        _yaml_cache.store(cache_key, doc)
        return doc
    if collect and len(errors) > 1:
        raise ErrorGroup(errors)
    raise errors[0]


def load_yaml_file(
    path: str | os.PathLike[str],
    *,
    require_mapping: bool = True,
    collect: bool = False,
) -> YamlDoc:
    """Read a UTF-8 file and load it with :func:`load_yaml`.

    Parameters
    ----------
    path:
        The file; ``str(path)`` becomes :attr:`YamlDoc.file`.
    require_mapping, collect:
        As for :func:`load_yaml`.

    Raises
    ------
    LoadError
        The file is missing or unreadable (rule ``file``), is not valid
        UTF-8 (rule ``encoding``, with the position of the first bad byte),
        or breaks a rule of :func:`load_yaml`.
    """
    from ipb._files import read_text_limited

    text = read_text_limited(path, MAX_YAML_CHARS, what="YAML document")
    return load_yaml(text, str(path), require_mapping=require_mapping, collect=collect)
