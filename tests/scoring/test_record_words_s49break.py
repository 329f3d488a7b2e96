"""Two record errors of ``ipb score`` said what was wrong in words that misled (s49break).

- A line of three NUL bytes (a responses file padded or damaged on disk) was "not JSON: Expecting value at column
  1", which reads like a typo in the JSON; it now also counts the NUL bytes on the line.
- A record whose ``response`` is the number 5 was "the record has a int 'response', not text"; it now says "an int".
"""

from __future__ import annotations

from ipb.respond.synthetic import bundled_items
from ipb.scoring.adapters import _json_object
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.run import ScoreOptions, score_responses


def test_a_line_of_nul_bytes_is_named_as_such():
    record = _json_object(2, "r.jsonl:2", "\x00\x00\x00")
    assert record.data is None
    assert record.error.message == ("line 2 is not JSON: Expecting value at column 1; the line holds 3 NUL byte(s) "
                                    "(a file padded or damaged on disk?)")


def test_a_line_cut_off_still_says_so():
    record = _json_object(2, "r.jsonl:2", '{"a": ')
    assert "the line stops mid-way" in record.error.message
    assert "NUL" not in record.error.message


def test_a_number_response_is_an_int():
    [item] = [i for i in bundled_items(["graham_net_net_screen"])][:1]
    options = ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=10)
    [record] = score_responses([item], [{"item_id": item["id"], "model": "m", "condition": "A", "response": 5}],
                               options)
    assert record["status"] == "unscored"
    assert record["reason"] == "the record has an int 'response', not text"
