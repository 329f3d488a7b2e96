"""Tests for the strict YAML loader (``ipb.engine._yaml``)."""

from __future__ import annotations

import json
import re
import unicodedata
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipb._composed import compose
from ipb.engine._yaml import YamlDoc, load_yaml, load_yaml_file
from ipb.errors import ErrorGroup, LoadError

# ---------------------------------------------------------------------------
# Error table: snippet -> rule, message fragment, 1-based line and column
# ---------------------------------------------------------------------------

YAML_ERRORS: list[tuple[str, str, str, str, int, int]] = [
    # (id, snippet, rule, message fragment, line, column)
    ("dup-key", "a: 1\nb: 2\na: 3\n", "duplicate-key", "duplicate key 'a': it is already defined on line 1", 3, 1),
    ("dup-key-nested", "top:\n  x: 1\n  z: 2\n  x: 3\n", "duplicate-key", "duplicate key 'x': it is already defined on line 2", 4, 3),
    ("dup-key-flow", "a: {k: 1, k: 2}\n", "duplicate-key", "duplicate key 'k'", 1, 11),
    ("dup-key-int-and-str", "1: a\n'1': b\n", "duplicate-key", "duplicate key '1'", 2, 1),
    ("bool-NO", "listed: NO\n", "ambiguous-scalar", 'ambiguous scalar NO: YAML 1.1 reads it as a boolean and YAML 1.2 as a string; quote it ("NO") or write true/false', 1, 9),
    ("bool-yes", "a: yes\n", "ambiguous-scalar", 'quote it ("yes") or write true/false', 1, 4),
    ("bool-y", "a: y\n", "ambiguous-scalar", "ambiguous scalar y:", 1, 4),
    ("bool-n-in-list", "a:\n  - 1\n  - n\n", "ambiguous-scalar", "ambiguous scalar n:", 3, 5),
    ("bool-on-flow", "a: [1, on]\n", "ambiguous-scalar", "ambiguous scalar on:", 1, 8),
    ("bool-Off", "a: Off\n", "ambiguous-scalar", "ambiguous scalar Off:", 1, 4),
    ("bool-key", "yes: 1\n", "ambiguous-scalar", 'ambiguous key yes: YAML 1.1 reads it as a boolean; quote the key ("yes")', 1, 1),
    ("bool-True", "a: True\n", "ambiguous-scalar", 'boolean True must be lowercase: write true, or quote it ("True")', 1, 4),
    ("bool-FALSE", "a: FALSE\n", "ambiguous-scalar", "write false", 1, 4),
    ("leading-zero", "a: 012\n", "ambiguous-scalar", "leading zero as octal and YAML 1.2 as decimal; write 12", 1, 4),
    ("leading-zero-neg", "a: -007\n", "ambiguous-scalar", "write -7", 1, 4),
    ("octal-0o", "a: 0o12\n", "ambiguous-scalar", "octal numbers are read differently", 1, 4),
    ("hex", "a: 0x1F\n", "ambiguous-scalar", "hexadecimal numbers are read differently by YAML 1.1 and YAML 1.2; write the decimal value 31", 1, 4),
    ("binary", "a: 0b101\n", "ambiguous-scalar", "write the decimal value 5", 1, 4),
    ("underscore-int", "a: 1_000\n", "ambiguous-scalar", 'reads it as the number 1000 and YAML 1.2 as a string; write 1000, or quote it ("1_000")', 1, 4),
    ("underscore-float", "a: 1_000.5\n", "ambiguous-scalar", "write 1000.5", 1, 4),
    ("exponent-no-dot", "a: 1e3\n", "ambiguous-scalar", 'YAML 1.2 reads it as a number and YAML 1.1 as a string; write 1000, or quote it ("1e3")', 1, 4),
    ("exponent-negative", "a: 2E-5\n", "ambiguous-scalar", "write 0.00002", 1, 4),
    ("exponent-long", "a: 1e400\n", "ambiguous-scalar", "write 1.0e+400, or quote it", 1, 4),
    ("exponent-huge", "a: 1e99999999999999999999\n", "ambiguous-scalar", "write 1.0e+99999999999999999999, or quote it", 1, 4),
    ("sexagesimal", "a: 1:30\n", "ambiguous-scalar", 'base-60 number and YAML 1.2 as a string; quote it ("1:30")', 1, 4),
    ("sexagesimal-time", "start: 10:30:00\n", "ambiguous-scalar", "base-60", 1, 8),
    ("date", "as_of: 2009-03-01\n", "ambiguous-scalar", 'reads it as a date and YAML 1.2 as a string; quote it ("2009-03-01")', 1, 8),
    ("timestamp", "as_of: 2009-03-01T10:00:00\n", "ambiguous-scalar", 'quote it ("2009-03-01T10:00:00")', 1, 8),
    ("timestamp-spaced", "t: 2001-12-14 21:59:43.10 -5\n", "ambiguous-scalar", "as a date", 1, 4),
    ("inf", "a: .inf\n", "ambiguous-scalar", "scalar .inf is not allowed", 1, 4),
    ("neg-inf", "a: -.Inf\n", "ambiguous-scalar", "scalar -.Inf is not allowed", 1, 4),
    ("nan", "a: .nan\n", "ambiguous-scalar", "scalar .nan is not allowed", 1, 4),
    ("thousands-comma", "a: 1,000\n", "ambiguous-scalar", "loads as a string, not a number; write 1000", 1, 4),
    ("equals", "a: =\n", "ambiguous-scalar", "ambiguous scalar =", 1, 4),
    ("anchor", "a: &base 1\n", "alias", "anchor &base is not allowed", 1, 4),
    ("alias", "a: 'x'\nb: *base\n", "alias", "alias *base is not allowed", 2, 4),
    ("merge-key", "a:\n  <<: {x: 1}\n", "alias", "merge key '<<' is not allowed", 2, 3),
    ("tag-str", "a: !!str 5\n", "tag", "tag !!str is not allowed", 1, 4),
    ("tag-local", "a: !money 5\n", "tag", "tag !money is not allowed", 1, 4),
    ("tag-nonspecific", "a: ! x\n", "tag", "tag ! is not allowed", 1, 4),
    ("key-bool", "true: 1\n", "key-type", "must be a string or an integer, found a boolean key true", 1, 1),
    ("key-float", "a:\n  0.5: x\n", "key-type", "found a number key 0.5", 2, 3),
    ("key-empty", "? \n: x\n", "key-type", "a mapping key is empty", 1, 2),
    ("key-list", "? [a, b]\n: x\n", "key-type", "a mapping key must be a string, found a list or mapping", 1, 3),
    ("top-list", "- a\n- b\n", "top-level", "the top level must be a mapping", 1, 1),
    ("top-scalar", "# header\njust text\n", "top-level", "found a string", 2, 1),
    ("top-empty", "# nothing here\n", "top-level", "found an empty file", 1, 1),
    ("two-documents", "a: 1\n---\nb: 2\n", "multiple-documents", "a second YAML document", 2, 1),
    ("syntax-colon", "a: b: c\n", "yaml-syntax", "invalid YAML: mapping values are not allowed here", 1, 5),
    ("syntax-unclosed-quote", "a: 'x\n", "yaml-syntax", "while scanning a quoted scalar started at line 1, column 4", 2, 1),
    ("syntax-indent", "a:\n  b: 1\n c: 2\n", "yaml-syntax", "expected <block end>", 3, 2),
    ("syntax-tab", "a:\n\tb: 1\n", "yaml-syntax", "found character '\\t' that cannot start any token", 2, 1),
    ("syntax-flow", "a: [1, 2\n", "yaml-syntax", "while parsing a flow sequence", 2, 1),
    ("syntax-escape", 'a: "x\\qy"\n', "yaml-syntax", "unknown escape character 'q'", 1, 7),
    ("syntax-control-char", "a: b\x01\n", "yaml-syntax", "character U+0001 is not allowed", 1, 5),
    ("lone-surrogate", 'a: "\\ud83d"\n', "yaml-syntax", "half of a surrogate pair", 1, 4),
    ("crlf-positions", "a: 1\r\nb: NO\r\n", "ambiguous-scalar", "ambiguous scalar NO", 2, 4),
    ("bom-positions", "\ufeffa: Yes\n", "ambiguous-scalar", "ambiguous scalar Yes", 1, 4),
]


@pytest.mark.parametrize(
    ("snippet", "rule", "fragment", "line", "column"),
    [pytest.param(*row[1:], id=row[0]) for row in YAML_ERRORS],
)
def test_error_table(snippet: str, rule: str, fragment: str, line: int, column: int) -> None:
    with pytest.raises(LoadError) as info:
        load_yaml(snippet, "card.yaml")
    err = info.value
    assert fragment in err.message
    assert (err.rule, err.line, err.column) == (rule, line, column), err.render()
    assert err.file == "card.yaml"
    expected_line = re.split(r"\r\n|\r|\n", snippet.lstrip("\ufeff"))[line - 1]
    assert err.source_line == expected_line


def test_error_renders_caret_under_offending_scalar() -> None:
    with pytest.raises(LoadError) as info:
        load_yaml("name: x\nlisted: NO\n", "card.yaml")
    assert info.value.render().splitlines() == [
        'card.yaml:2:9: load error: ambiguous scalar NO: YAML 1.1 reads it as a boolean '
        'and YAML 1.2 as a string; quote it ("NO") or write true/false',
        "    listed: NO",
        "            ^",
    ]


def test_first_error_in_source_order_is_raised() -> None:
    with pytest.raises(LoadError) as info:
        load_yaml("a: 1\nb: 012\nc: NO\n")
    assert (info.value.line, info.value.name) == (2, "012")


def test_collect_reports_every_problem() -> None:
    with pytest.raises(ErrorGroup) as info:
        load_yaml("a: NO\nb: 1e3\na: 2\nc: &x 1\n", collect=True)
    found = [(e.rule, e.line, e.column) for e in info.value.errors]
    assert found == [
        ("ambiguous-scalar", 1, 4),
        ("ambiguous-scalar", 2, 4),
        ("duplicate-key", 3, 1),
        ("alias", 4, 4),
    ]
    assert all(isinstance(e, LoadError) for e in info.value.errors)


def test_collect_with_one_problem_raises_a_plain_load_error() -> None:
    with pytest.raises(LoadError):
        load_yaml("a: NO\n", collect=True)


# ---------------------------------------------------------------------------
# Good documents load to exact data
# ---------------------------------------------------------------------------

GOOD = """\
name: Graham net-net
margin: 0.57
years: 25
delta: -3
plus: +7
big: 1.5e9
neg: -2.0
nothing: ~
also_nothing: null
Null_too: Null
empty:
flag: true
off_flag: false
quoted_no: "NO"
single_yes: 'yes'
date: "2009-03-01"
octal_text: '012'
zero: 0
sentence: buy when price < 2/3 of net current assets
colon_text: "1:30"
list:
  - 1
  - two
  - [3, 'four']
nested:
  inner: {a: 1, b: [p, q]}
  deeper:
    - k: v
      j: 0.10
7: seven
"""


def test_good_document_loads_to_exact_data() -> None:
    data = load_yaml(GOOD).data
    assert data == {
        "name": "Graham net-net",
        "margin": Decimal("0.57"),
        "years": 25,
        "delta": -3,
        "plus": 7,
        "big": Decimal("1.5e9"),
        "neg": Decimal("-2.0"),
        "nothing": None,
        "also_nothing": None,
        "Null_too": None,
        "empty": None,
        "flag": True,
        "off_flag": False,
        "quoted_no": "NO",
        "single_yes": "yes",
        "date": "2009-03-01",
        "octal_text": "012",
        "zero": 0,
        "sentence": "buy when price < 2/3 of net current assets",
        "colon_text": "1:30",
        "list": [1, "two", [3, "four"]],
        "nested": {"inner": {"a": 1, "b": ["p", "q"]}, "deeper": [{"k": "v", "j": Decimal("0.10")}]},
        "7": "seven",
    }
    assert list(data) == list(load_yaml(GOOD).data)  # file order kept


def test_scalar_types_are_exact() -> None:
    data = load_yaml(GOOD).data
    assert type(data["margin"]) is Decimal and str(data["margin"]) == "0.57"
    assert type(data["years"]) is int
    assert type(data["flag"]) is bool
    assert type(data["nested"]) is dict and type(data["list"]) is list
    assert str(data["nested"]["deeper"][0]["j"]) == "0.10"  # the exact text, not 0.1


def test_block_scalars_are_strings() -> None:
    data = load_yaml("a: |\n  NO\n  012\nb: >-\n  1e3\n  yes\nc: |-\n  x\n").data
    assert data == {"a": "NO\n012\n", "b": "1e3 yes", "c": "x"}


def test_json_surrogate_pair_escape_loads_as_one_character() -> None:
    assert load_yaml('a: "\\ud83d\\ude00!"\n').data == {"a": "\U0001f600!"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("- 1\n- b\n", [1, "b"], id="list"),
        pytest.param("hello\n", "hello", id="scalar"),
        pytest.param("", None, id="empty"),
        pytest.param("# only a comment\n", None, id="comment-only"),
    ],
)
def test_require_mapping_false_accepts_any_top_level(text: str, expected: Any) -> None:
    assert load_yaml(text, require_mapping=False).data == expected


def test_explicit_document_markers_are_one_document() -> None:
    assert load_yaml("---\na: 1\n...\n").data == {"a": 1}


# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------

POSITIONS = """\
name: plain words here
quoted: 'it''s a ''test'' x'
dq: "a\\tb \\u00e9 c"
gates:
  - id: g1
    when: |
      revenue > 10
        and margin >= 0.2
  - id: g2
    proceed: >-
      one two
      three
multi: first line
  second line
empty:
"""


@pytest.fixture()
def pos_doc() -> YamlDoc:
    return load_yaml(POSITIONS, "pos.yaml")


@pytest.mark.parametrize(
    ("path", "value_at", "key_at"),
    [
        pytest.param(("name",), (1, 7), (1, 1), id="plain"),
        pytest.param(("quoted",), (2, 9), (2, 1), id="single-quoted-at-quote"),
        pytest.param(("dq",), (3, 5), (3, 1), id="double-quoted-at-quote"),
        pytest.param(("gates",), (5, 3), (4, 1), id="block-list-at-first-dash"),
        pytest.param(("gates", 0), (5, 5), (5, 5), id="list-item-key-falls-back"),
        pytest.param(("gates", 1, "id"), (9, 9), (9, 5), id="key-in-item"),
        pytest.param(("gates", 0, "when"), (6, 11), (6, 5), id="literal-at-bar"),
        pytest.param(("gates", 1, "proceed"), (10, 14), (10, 5), id="folded-at-indicator"),
        pytest.param(("empty",), (15, 7), (15, 1), id="empty-value-after-colon"),
        pytest.param(("gates", 1, "proceed", 3), (10, 14), (10, 5), id="too-deep-falls-back"),
        pytest.param(("gates", 7, "id"), (5, 3), (4, 1), id="missing-index-falls-back"),
        pytest.param(("nope",), (1, 1), (1, 1), id="missing-key-falls-back-to-root"),
        pytest.param((), (1, 1), (1, 1), id="root"),
    ],
)
def test_locate_and_locate_key(
    pos_doc: YamlDoc, path: tuple[str | int, ...], value_at: tuple[int, int], key_at: tuple[int, int]
) -> None:
    assert pos_doc.locate(path) == value_at
    assert pos_doc.locate_key(path) == key_at


def _value(doc: YamlDoc, path: tuple[str | int, ...]) -> Any:
    value = doc.data
    for part in path:
        value = value[part]
    return value


# (path, offset, expected (line, column), the source text starting there)
IN_STRING: list[tuple[str, tuple[str | int, ...], int, tuple[int, int], str]] = [
    ("plain-start", ("name",), 0, (1, 7), "plain"),
    ("plain-word", ("name",), 6, (1, 13), "words"),
    ("plain-end", ("name",), 16, (1, 23), ""),
    ("single-start", ("quoted",), 0, (2, 10), "it''s"),
    ("single-escaped-quote", ("quoted",), 2, (2, 12), "''s"),
    ("single-after-escape", ("quoted",), 3, (2, 14), "s a"),
    ("single-after-two-escapes", ("quoted",), 8, (2, 20), "test"),
    ("single-after-three-escapes", ("quoted",), 14, (2, 27), "x'"),
    ("double-start", ("dq",), 0, (3, 6), "a\\t"),
    ("double-escape", ("dq",), 1, (3, 7), "\\tb"),
    ("double-after-escape", ("dq",), 2, (3, 9), "b "),
    ("double-unicode-escape", ("dq",), 4, (3, 11), "\\u00e9"),
    ("double-after-unicode", ("dq",), 6, (3, 18), 'c"'),
    ("literal-first-line", ("gates", 0, "when"), 0, (7, 7), "revenue"),
    ("literal-first-line-mid", ("gates", 0, "when"), 8, (7, 15), "> 10"),
    ("literal-more-indented", ("gates", 0, "when"), 13, (8, 7), "  and"),
    ("literal-second-line", ("gates", 0, "when"), 15, (8, 9), "and"),
    ("literal-last-char", ("gates", 0, "when"), 29, (8, 23), "0.2"),
    ("folded-first-line", ("gates", 1, "proceed"), 4, (11, 11), "two"),
    ("folded-second-line", ("gates", 1, "proceed"), 8, (12, 7), "three"),
    ("folded-space-at-line-end", ("gates", 1, "proceed"), 7, (11, 14), ""),
    ("multiline-plain-first", ("multi",), 6, (13, 14), "line"),
    ("multiline-plain-second", ("multi",), 11, (14, 3), "second"),
]


@pytest.mark.parametrize(
    ("path", "offset", "expected", "source_text"),
    [pytest.param(*row[1:], id=row[0]) for row in IN_STRING],
)
def test_locate_in_string(
    pos_doc: YamlDoc,
    path: tuple[str | int, ...],
    offset: int,
    expected: tuple[int, int],
    source_text: str,
) -> None:
    line, column = pos_doc.locate_in_string(path, offset)
    assert (line, column) == expected
    assert pos_doc.source_line(line)[column - 1 :].startswith(source_text)


def test_locate_in_string_checks_its_own_table(pos_doc: YamlDoc) -> None:
    # The hand-worked offsets above name the characters they claim to.
    assert _value(pos_doc, ("name",))[6:11] == "words"
    assert _value(pos_doc, ("quoted",))[8:12] == "test"
    assert _value(pos_doc, ("dq",))[4] == "\u00e9"
    assert _value(pos_doc, ("gates", 0, "when"))[13:18] == "  and"
    assert _value(pos_doc, ("gates", 1, "proceed"))[8:] == "three"
    assert _value(pos_doc, ("multi",))[11:] == "second line"


def test_locate_in_string_clamps_and_falls_back(pos_doc: YamlDoc) -> None:
    assert pos_doc.locate_in_string(("name",), -5) == (1, 7)
    assert pos_doc.locate_in_string(("name",), 999) == (1, 23)
    assert pos_doc.locate_in_string(("gates",), 3) == pos_doc.locate(("gates",))
    assert pos_doc.locate_in_string(("nope",), 3) == (1, 1)


def test_locate_in_string_literal_block_with_indent_indicator_and_keep() -> None:
    doc = load_yaml("a: |2\n\n     x y\n    z\nb: |+\n  p\n\n\nc: 1\n")
    assert doc.data == {"a": "\n   x y\n  z\n", "b": "p\n\n\n", "c": 1}
    assert doc.locate_in_string(("a",), 4) == (3, 6)  # "x" after kept indentation
    assert doc.locate_in_string(("a",), 10) == (4, 5)  # "z"
    # Just past the end stays on the block's last line, not on the next key.
    assert doc.locate_in_string(("a",), 12) == (4, 6)
    assert doc.locate_in_string(("b",), 4) == (8, 3)



def test_place_points_a_later_error_at_the_value_or_key_and_replaces_an_earlier_place() -> None:
    from ipb.errors import PerturbError

    doc = load_yaml("id: c\ninputs:\n  debt:\n    values: [low, high]\n", file="card.yaml")
    exc = PerturbError("two values read alike", file="other.yaml", line=9, column=9, source_line="x", name="debt")
    assert doc.place(exc, ("inputs", "debt", "values")) is exc
    # the '[' of line 4 (4 spaces and 'values: ' before it); name and message kept
    assert (exc.file, exc.line, exc.column, exc.source_line) == ("card.yaml", 4, 13, "    values: [low, high]")
    assert exc.name == "debt" and exc.render().endswith("\n                ^")
    doc.place(exc, ("inputs", "debt"), key=True)
    assert (exc.line, exc.column, exc.source_line) == (3, 3, "  debt:")
    # a path the file does not have: its nearest ancestor's value (the block mapping under inputs:, at its first key)
    missing = doc.place(PerturbError("x"), ("inputs", "cash", "values"))
    assert (missing.line, missing.column) == (3, 3)
    # error() is place() on a new LoadError
    made = doc.error("bad", ("inputs", "debt"), key=True, rule="r")
    assert isinstance(made, LoadError) and (made.line, made.column, made.rule) == (3, 3, "r")

def test_locate_in_string_across_folded_quoted_lines() -> None:
    doc = load_yaml("a: 'one\n  two\n\n  three'\nb: \"x\\\n   y\"\n")
    assert doc.data == {"a": "one two\nthree", "b": "xy"}
    assert doc.locate_in_string(("a",), 4) == (2, 3)  # "two"
    assert doc.locate_in_string(("a",), 3) == (1, 8)  # the folding space
    assert doc.locate_in_string(("a",), 8) == (4, 3)  # "three"
    assert doc.locate_in_string(("b",), 1) == (6, 4)  # "y" after an escaped line break


def test_locate_in_string_after_surrogate_pair_escape() -> None:
    doc = load_yaml('a: "\\ud83d\\ude00 x"\n')
    assert doc.locate_in_string(("a",), 2) == (1, 18)


def test_locate_with_crlf_line_endings() -> None:
    doc = load_yaml("a: 1\r\nb: 'x''y'\r\nc: |\r\n  one\r\n  two\r\n")
    assert doc.lines == ["a: 1", "b: 'x''y'", "c: |", "  one", "  two"]
    assert doc.locate(("b",)) == (2, 4)
    assert doc.locate_in_string(("b",), 2) == (2, 8)
    assert doc.locate_in_string(("c",), 5) == (5, 4)


def test_source_line_out_of_range(pos_doc: YamlDoc) -> None:
    assert pos_doc.source_line(1) == "name: plain words here"
    assert pos_doc.source_line(0) == ""
    assert pos_doc.source_line(999) == ""


def test_doc_error_points_at_value_or_key(pos_doc: YamlDoc) -> None:
    err = pos_doc.error("unknown field", ("gates", 1, "proceed"), key=True, rule="schema")
    assert (err.file, err.line, err.column, err.rule) == ("pos.yaml", 10, 5, "schema")
    assert err.source_line == "    proceed: >-"
    assert pos_doc.error("bad", ("dq",)).column == 5


def test_duplicate_key_keeps_positions_of_the_first() -> None:
    with pytest.raises(ErrorGroup) as info:
        load_yaml("a: 1\nb: NO\na: 2\n", collect=True)
    assert [e.rule for e in info.value.errors] == ["ambiguous-scalar", "duplicate-key"]


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------


def test_load_yaml_file_reads_utf8(tmp_path: Path) -> None:
    path = tmp_path / "card.yaml"
    path.write_text("name: Café\nmargin: 0.57\n", encoding="utf-8")
    doc = load_yaml_file(path)
    assert doc.data == {"name": "Café", "margin": Decimal("0.57")}
    assert doc.file == str(path)


def test_load_yaml_file_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "card.yaml"
    path.write_text("a: 1\nb: off\n", encoding="utf-8")
    with pytest.raises(LoadError) as info:
        load_yaml_file(path)
    assert (info.value.file, info.value.line, info.value.column) == (str(path), 2, 4)


def test_load_yaml_file_missing(tmp_path: Path) -> None:
    path = tmp_path / "missing.yaml"
    with pytest.raises(LoadError) as info:
        load_yaml_file(path)
    assert str(path) in info.value.message
    assert (info.value.file, info.value.rule) == (str(path), "file")


def test_load_yaml_file_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("a: 1\nname: Caf\u00e9\n".encode("latin-1"))
    with pytest.raises(LoadError) as info:
        load_yaml_file(path)
    assert (info.value.rule, info.value.line, info.value.column) == ("encoding", 2, 10)


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

# Characters YAML may hold raw: no controls (JSON escapes C0 ones), no
# surrogates, no Unicode line/paragraph separators, no non-characters.
_TEXT = st.text(
    st.characters(exclude_categories=("Cs", "Cc", "Zl", "Zp", "Cn"), include_characters="\n\t\r"),
    max_size=12,
)
_WORD = re.compile(r"[a-z]+(?: [a-z]+)*")

_scalars = (
    _TEXT
    | st.integers(-(10**12), 10**12)
    | st.booleans()
    | st.none()
    | st.decimals(allow_nan=False, allow_infinity=False, places=3, min_value=-10**6, max_value=10**6)
    | st.from_regex(_WORD, fullmatch=True)
)
_values = st.recursive(
    _scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_TEXT, children, max_size=4),
    max_leaves=20,
)
_documents = st.dictionaries(_TEXT, _values, max_size=6)


def _emit_scalar(value: Any, ascii_only: bool) -> str:
    if value is None:
        return "~"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, Decimal)):
        return format(value, "f") if isinstance(value, Decimal) else str(value)
    if len(value) >= 4 and _WORD.fullmatch(value) and value not in ("true", "false", "null"):
        return value  # plain: ordinary words stay strings
    return json.dumps(value, ensure_ascii=ascii_only)


def _emit(value: Any, indent: int, ascii_only: bool) -> list[str]:
    """A small block-style YAML emitter independent of the loader under test."""
    pad = " " * indent
    out: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            head = f"{pad}{json.dumps(key, ensure_ascii=ascii_only)}:"
            if isinstance(item, (dict, list)) and item:
                out.append(head)
                out.extend(_emit(item, indent + 2, ascii_only))
            else:
                out.append(f"{head} {_emit_inline(item, ascii_only)}")
    else:
        for item in value:
            if isinstance(item, (dict, list)) and item:
                out.append(f"{pad}-")
                out.extend(_emit(item, indent + 2, ascii_only))
            else:
                out.append(f"{pad}- {_emit_inline(item, ascii_only)}")
    return out


def _emit_inline(value: Any, ascii_only: bool) -> str:
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    return _emit_scalar(value, ascii_only)


@settings(max_examples=200, deadline=None)
@given(_documents, st.booleans())
def test_round_trip_of_emitted_documents(data: dict[str, Any], ascii_only: bool) -> None:
    """Every string loads composed (NFC, s52nfd): the document read back is the emitted one with its strings and keys
    in NFC; two keys of one mapping that differ only by normalisation are a duplicate-key error."""
    text = "\n".join(_emit(data, 0, ascii_only)) + "\n" if data else "{}\n"
    expected = _composed(data)
    if expected is None:
        with pytest.raises((LoadError, ErrorGroup)):
            load_yaml(text)
        return
    assert load_yaml(text).data == expected


def _composed(value: Any) -> Any:
    """``value`` with every string and key in NFC; None when two keys of one mapping become one."""
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, list):
        items = [_composed(v) for v in value]
        return None if any(i is None and v is not None for i, v in zip(items, value)) else items
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            key, item = _composed(k), _composed(v)
            if key in out or (item is None and v is not None):
                return None
            out[key] = item
        return out
    return value


_ONE_LINE = st.text(
    st.characters(exclude_categories=("Cs", "Cc", "Zl", "Zp", "Cn", "Cf")), min_size=1, max_size=20
)


@settings(max_examples=200, deadline=None)
@given(_ONE_LINE, st.integers(0, 19))
def test_locate_in_string_points_at_the_character_single_quoted(text: str, offset: int) -> None:
    doc = load_yaml("key: '" + text.replace("'", "''") + "'\n")
    assert doc.data["key"] == unicodedata.normalize("NFC", text)  # strings load composed (s52nfd)
    offset %= len(doc.data["key"])
    line, column = doc.locate_in_string(("key",), offset)
    assert doc.source_line(line)[column - 1] == text[compose(text).offset(offset)]  # the file's first char of the run


@settings(max_examples=200, deadline=None)
@given(_ONE_LINE, st.integers(0, 19), st.booleans())
def test_locate_in_string_points_at_the_character_double_quoted(
    text: str, offset: int, ascii_only: bool
) -> None:
    doc = load_yaml("key: " + json.dumps(text, ensure_ascii=ascii_only) + "\n")
    assert doc.data["key"] == unicodedata.normalize("NFC", text)  # strings load composed (s52nfd)
    offset %= len(doc.data["key"])
    line, column = doc.locate_in_string(("key",), offset)
    shown = doc.source_line(line)[column - 1 :]
    written = text[compose(text).offset(offset)]  # the file's first character of the run the loaded one came from
    # An escaped character is located at its backslash; others at themselves.
    assert shown.startswith(json.dumps(written, ensure_ascii=ascii_only)[1:-1])


@settings(max_examples=100, deadline=None)
@given(st.lists(_ONE_LINE.filter(lambda s: s.strip() == s), min_size=1, max_size=4), st.data())
def test_locate_in_string_points_at_the_character_literal_block(
    content: list[str], data: st.DataObject
) -> None:
    body = "".join(f"    {line}\n" for line in content)
    doc = load_yaml("outer:\n  key: |\n" + body)
    value = doc.data["outer"]["key"]
    written = "".join(f"{line}\n" for line in content)
    assert value == unicodedata.normalize("NFC", written)  # strings load composed (s52nfd)
    offset = data.draw(st.integers(0, len(value) - 1))
    line, column = doc.locate_in_string(("outer", "key"), offset)
    char = written[compose(written).offset(offset)]  # the file's first character of the run the loaded one came from
    if char == "\n":
        assert column - 1 == len(doc.source_line(line))
    else:
        assert doc.source_line(line)[column - 1] == char


@pytest.mark.parametrize(
    ("snippet", "hint"),
    [
        pytest.param("a:\n  b: 1\n c: 2\n", "check the indentation of line 3: it starts at column 2; the block being "
                     "read when it broke starts at column 1", id="key-between-two-levels"),
        pytest.param("inputs:\n  a:\n    type: number\n   description: x\n", "check the indentation of line 4: it "
                     "starts at column 4; the block being read when it broke starts at column 3", id="one-space-short"),
        pytest.param("a: b: c\n", "a ': ' inside a plain value starts a mapping: quote the value", id="colon-in-value"),
        pytest.param("a:\n  - x\n - y\n", "check the indentation of line 3", id="list-item-out-of-line"),
    ],
)
def test_layout_errors_say_what_to_look_at(snippet: str, hint: str) -> None:
    """The YAML reader's own words ("expected <block end>") are followed by what to check (s42user defect 5)."""
    with pytest.raises(LoadError) as info:
        load_yaml(snippet, "card.yaml")
    assert hint in info.value.message, info.value.message


def test_other_syntax_errors_carry_no_layout_hint() -> None:
    with pytest.raises(LoadError) as info:
        load_yaml("a: [1, 2\n", "card.yaml")
    assert "indentation" not in info.value.message and "quote the value" not in info.value.message
