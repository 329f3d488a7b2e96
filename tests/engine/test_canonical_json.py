"""canonical_json writes exactly what ``json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` writes.

Items, scenario keys and the hashed condition documents are written with it,
so a byte of difference would change every item id and hash. The property
test covers the kinds those documents hold (any Unicode text, control
characters and U+2028 included, ints of any size, bools, null, nested lists
and string-keyed dicts); values orjson refuses fall back to the standard
library and must still agree.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.engine._json import canonical_json

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-2**70, 2**70),
                    st.text(), st.text(alphabet=st.characters(max_codepoint=0x3000)))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=8), inner, max_size=6)), max_leaves=40)


def reference(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_canonical_json_equals_the_standard_library(value: object) -> None:
    assert canonical_json(value) == reference(value)


def test_worked_values() -> None:
    # keys sorted by code point (an accented key after ASCII), control characters as \\u00XX, U+2028 kept as is
    doc = {"é": 1, "b": ["\x01\x1f\u2028\"\\\n\t"], "a": 2**64, "A": None, "c": {"z": True, "y": False}}
    assert canonical_json(doc) == ('{"A":null,"a":18446744073709551616,"b":["\\u0001\\u001f\u2028\\"\\\\\\n\\t"],'
                                   '"c":{"y":false,"z":true},"é":1}')
    assert canonical_json(doc) == reference(doc)


# --------------------------------------------------------------------------- reading

from decimal import Decimal  # noqa: E402

from ipb.engine import _json as json_module  # noqa: E402
from ipb.engine._json import parse_json_line  # noqa: E402
from ipb.errors import LoadError  # noqa: E402

NUMBERS = st.one_of(st.integers(), st.integers(-2**80, 2**80),
                    st.decimals(allow_nan=False, allow_infinity=False, places=3).map(str).map(Decimal))
READ_VALUES = st.recursive(st.one_of(st.none(), st.booleans(), NUMBERS, st.text()), lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=6), inner, max_size=5)), max_leaves=30)


def standard(line: str) -> object:
    """The reader without orjson: the standard library with exact decimals."""
    saved = json_module._orjson
    json_module._orjson = None
    try:
        return parse_json_line(line, "f", 1)
    except LoadError as exc:
        return ("error", exc.message, exc.column)
    finally:
        json_module._orjson = saved


def fast(line: str) -> object:
    try:
        return parse_json_line(line, "f", 1)
    except LoadError as exc:
        return ("error", exc.message, exc.column)


@settings(max_examples=400, deadline=None)
@given(READ_VALUES, st.sampled_from([(",", ":"), (", ", ": "), (",\t", ":\n ")]))
def test_reading_with_orjson_equals_the_exact_standard_reader(value: object, separators: tuple[str, str]) -> None:
    line = json.dumps({"v": value}, separators=separators, ensure_ascii=False, default=str)
    assert repr(fast(line)) == repr(standard(line))


def test_reading_edge_cases_the_same_way() -> None:
    for line in ['{"a":1,"a":2}', '{"a":"\\ud800"}', '{"a":18446744073709551616}', '{"a":-9223372036854775809}',
                 '{"a":NaN}', '{"a":1}x', '{"a":1e5}', '{"a":[1, 2.50]}', '{"a":"x:1.5"}', '{"a":-0}',
                 '{"a": 12345678901234567890}', '{"a":"\\u00e9"}', '{"a":01}', '{"a":1,}']:
        assert repr(fast(line)) == repr(standard(line)), line
