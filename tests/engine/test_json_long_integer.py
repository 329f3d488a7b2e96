"""Regression (Python's message leaking through a located error): a JSON Lines record with a huge integer.

Found by the s29break18 review (issue 18): ``ipb verify`` on an item whose fact was the integer 10^5000 said
"Exceeds the limit (4300 digits) for integer string conversion: value has 5001 digits; use
sys.set_int_max_str_digits() to increase the limit at column 1": Python's own advice, and a column that points
at the start of the line. The strict reader now names the number's length and points at it.
"""

from __future__ import annotations

import pytest

from ipb.engine._json import parse_json_line
from ipb.errors import LoadError


def test_a_huge_integer_is_a_located_error_in_our_words() -> None:
    line = '{"a": 1, "b": ' + "9" * 5000 + "}"
    with pytest.raises(LoadError) as info:
        parse_json_line(line, "items.jsonl", 3, record=2)
    err = info.value
    assert err.message == "record 2: a whole number written with 5,000 digits; ipb reads at most 4,300"
    assert (err.file, err.line, err.column) == ("items.jsonl", 3, 15)
    assert "sys.set_int_max_str_digits" not in err.render()


def test_long_integers_within_the_limit_still_read() -> None:
    assert parse_json_line('{"b": -' + "9" * 4300 + "}", "x", 1)["b"] == -int("9" * 4300)
