"""A JSON answer cut at the token limit (issue 13, layouts; paper §7.5; s52break #6): the complete pairs before the cut
are read; only the cut value is lost.

Answers written by hand on the two-gate Graham net-net card (gate 1 PROCEED, gate 2 REJECT, final DECLINE in each).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ipb.scoring._json_cut import closed_json
from ipb.scoring.parse import parse_response

CARD = str(Path(__file__).resolve().parents[2] / "frameworks" / "graham_net_net_screen.yaml")

WHOLE = ('{"gates": [{"gate": 1, "verdict": "PROCEED"}, {"gate": 2, "verdict": "REJECT"}],\n'
         ' "final_verdict": "DECLINE"')


def _read(text: str) -> tuple[dict[int, str | None], str | None]:
    d = parse_response(text, CARD, embedder=False).to_dict()
    return {g["gate"]: g["verdict"] for g in d["gates"]}, d["final_verdict"]


@pytest.mark.parametrize("text", [
    WHOLE,  # no closing brace
    f"```json\n{WHOLE}\n",  # nor a closing fence
    f"```json\n{WHOLE}\n```",  # the fence closed, the brace not
    WHOLE + ', "notes": "net income is -$6M, so the',  # an unterminated last string
    WHOLE + ', "notes":',  # a key with no value
    WHOLE + ",",  # cut right after a comma
])
def test_the_pairs_before_the_cut_are_read(text):
    assert _read(text) == ({1: "PROCEED", 2: "REJECT"}, "DECLINE")  # before: no gate read (a failure on the final alone)


def test_a_cut_inside_the_gates_keeps_the_complete_gate():
    gates, _ = _read('{"gates": [{"gate": 1, "verdict": "PROCEED"}, {"gate": 2, "verdict": "REJ')
    assert gates[1] == "PROCEED" and gates.get(2) is None


def test_a_closed_answer_reads_as_before():
    assert _read(WHOLE + "}") == ({1: "PROCEED", 2: "REJECT"}, "DECLINE")


@pytest.mark.parametrize("chunk, want", [
    ('{"a": 1', [('{"a": 1}', 7)]),
    ('{"a": [1, 2', [('{"a": [1, 2]}', 11), ('{"a": [1]}', 8)]),  # the whole, then before the last comma
    ('{"a": 1, "b": "te', [('{"a": 1}', 7)]),  # inside a string: before the comma
    ('{"a": 1, "b"', [('{"a": 1}', 7)]),  # a key without its colon
    ('{"a": "x, y', []),  # the comma is inside the string: nothing complete
    ('{"a": 1}', []),  # not cut
    ("plain text", []),
])
def test_closed_json(chunk, want):
    assert closed_json(chunk) == want
