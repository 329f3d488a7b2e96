"""The bracket-depth scan shared by the JSON and YAML nesting limits (:mod:`ipb.engine._nesting`).

The oracle is independent of the scan: the nesting depth of a Python value
built by hypothesis, measured by recursion, against the scan of its JSON text.
"""

from __future__ import annotations

import doctest
import json
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import ipb.engine._nesting
from ipb.engine._json import MAX_JSON_DEPTH, json_depth_error
from ipb.engine._nesting import too_deep_at

_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')

_leaves = st.one_of(st.integers(), st.text(alphabet="ab[]{}\"\\", max_size=4), st.none())
_values = st.recursive(_leaves, lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.text(alphabet="k[{", max_size=2), inner, max_size=3), max_leaves=40)


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


@settings(max_examples=400, deadline=None)
@given(_values, st.integers(min_value=0, max_value=6))
def test_scan_agrees_with_the_depth_of_the_value(value: Any, limit: int) -> None:
    text = json.dumps(value)
    at = too_deep_at(text, _JSON_TOKENS, limit)
    assert (at is not None) == (_depth(value) > limit)
    if at is not None:
        assert text[at] in "[{"


def test_stray_closers_do_not_hide_a_deep_run() -> None:
    text = "]" * 50 + "[" * (MAX_JSON_DEPTH + 1)
    assert too_deep_at(text, _JSON_TOKENS, MAX_JSON_DEPTH) == 50 + MAX_JSON_DEPTH


def test_json_error_names_line_and_column_of_the_bracket() -> None:
    text = '{"a": 1,\n  "b": ' + "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1) + "}"
    error = json_depth_error(text, "x.jsonl", first_line=7)
    assert error is not None
    # the outer object is level 1, so the 100th "[" (column 8 + 99) is the 101st level
    assert (error.line, error.column) == (8, 8 + MAX_JSON_DEPTH - 1)


def test_docstring_examples() -> None:
    result = doctest.testmod(ipb.engine._nesting)
    assert result.failed == 0 and result.attempted > 0
