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
