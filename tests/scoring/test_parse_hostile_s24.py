"""Hostile and odd inputs for the parser code added in session 24 (issue 13): what broke, pinned.

Every text here was written for this file; the expected readings are labelled by hand. Regression kinds:

- *Long JSON strings*: a JSON string longer than 10,000 characters stopped the token scan of
  :func:`ipb.scoring._text.json_gate_objects`, which restarted inside the string. Gate objects after a long
  ``reasoning`` were then lost (the brace count no longer matched), and a string of escaped quotes made the scan
  cost about 10,000 steps per character: 9 s for 100 kB. Timings are in ``bench/parse.py``; the tests here count
  tokens.
- *Windows line ends*: the parser read ``\\r\\n`` as a line that ends in ``\\r``. A heading's invented-gate span
  took in the ``\\r``, or was only the ``\\r`` (``"Test7*\\r\\n"``). A blank line ``"\\r\\n"`` (or one of spaces)
  was no paragraph break for the readers that look for ``"\\n\\n"``, so a revising paragraph lost its revision.
  The law: an answer reads the same with ``\\n`` or ``\\r\\n`` line ends, and with spaces on its blank lines.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ipb.scoring import _text
from ipb.scoring.parse import parse_response
from ruamel.yaml import YAML

BUFFETT = "buffett_acquisition_checklist"
HERE = Path(__file__).parent


def _reading(text: str, card: str = BUFFETT) -> tuple[Any, ...]:
    r = parse_response(text, card, embedder=False)
    return ([(g.gate, g.verdict) for g in r.gates], r.invented_gates, r.final_verdict, r.status)


# --------------------------------------------------------------------------- long JSON strings

LONG_NOTE = "I have read ten years of filings and I can explain how each segment earns its money. " * 140


def _long_json(indent: int | None) -> str:
    gates = [{"gate": 1, "verdict": "PASS", "notes": LONG_NOTE},
             {"gate": 2, "verdict": "FAIL", "notes": "Two new rivals undercut prices last year."},
             {"gate": 5, "verdict": "FAIL", "notes": "The asking price is above my own value."}]
    return json.dumps({"gates": gates, "final_verdict": "DECLINE"}, indent=indent)


@pytest.mark.parametrize("indent", [None, 2], ids=["compact", "indented"])
def test_gate_objects_after_a_long_json_string_are_read(indent: int | None) -> None:
    text = _long_json(indent)
    assert len(LONG_NOTE) > 10_000
    objects = _text.json_gate_objects(text, 0, len(text))
    assert [o.number for o in objects] == [1, 2, 5]
    assert all(text[o.start] == "{" and text[o.end - 1] == "}" for o in objects)
    assert _reading(text) == ([(1, "PROCEED"), (2, "REJECT"), (5, "REJECT")], [], "DECLINE", "ok")


def test_a_string_of_escaped_quotes_is_one_token() -> None:
    # the scan must step over a JSON string in one match, never restart inside it (that cost ~10,000 steps a character)
    text = '{"reasoning": "' + '\\"' * 30_000 + '"}'
    assert json.loads(text)  # valid JSON
    tokens = [m.span() for m in _text._JSON_TOKEN.finditer(text)]
    assert tokens == [(0, 1), (1, 12), (14, 14 + 2 + 60_000), (len(text) - 1, len(text))]


# --------------------------------------------------------------------------- Windows line ends, blank lines with spaces

@pytest.mark.parametrize(("text", "label"), [
    ("Test7*\r\n", "Test7"),
    ("Test 7\r\n", "Test 7"),
    ("### Gate 9\r\nFAIL\r\n", "Gate 9"),
    ("1. Circle of Competence: PASS\r\n### Gate 9\r\nIt fails.\r\n", "Gate 9"),
], ids=["bold-tail", "bare", "heading", "after-a-gate"])
def test_an_invented_gate_span_holds_its_label_not_the_carriage_return(text: str, label: str) -> None:
    r = parse_response(text, BUFFETT, embedder=False)
    assert [text[s:e] for s, e in (g.span for g in r.invented)] == [label]


# A revising paragraph after a blank line: the later verdict for gate 5 wins (labelled by hand).
REVISION = (
    "Verdict: INVEST\n"
    "\n"
    "1. Circle of Competence: a plain grocery wholesaler, easy to follow. PROCEED.\n"
    "5. Margin of Safety: the price is 70% of my value estimate. PROCEED.\n"
    "\n"
    "Update after reading the lease notes: the store leases add debt I had left out, so the price is\n"
    "95% of value. Margin of Safety: REJECT.\n"
    "\n"
    "Revised verdict: DECLINE.\n"
)


@pytest.mark.parametrize("variant", ["lf", "crlf", "spaced-blank-lines", "tab-blank-lines"])
def test_a_revision_after_a_blank_line_wins_whatever_the_line_ends(variant: str) -> None:
    text = {"lf": REVISION, "crlf": REVISION.replace("\n", "\r\n"), "spaced-blank-lines": REVISION.replace("\n\n", "\n   \n"),
            "tab-blank-lines": REVISION.replace("\n\n", "\n\t \n")}[variant]
    assert _reading(text) == ([(1, "PROCEED"), (5, "REJECT")], [], "DECLINE", "ok")


GOLDEN = [c for c in YAML(typ="safe").load((HERE / "cases" / "parse_cases.yaml").read_text(encoding="utf-8"))
          if c.get("embedder") != "fake" and "\n" in c["text"]]


def _shape(text: str, card: str) -> tuple[Any, ...]:
    r = parse_response(text, card, embedder=False)
    return (_reading(text, card), [len(g.elements) for g in r.gates], [text[slice(*g.mention)] for g in r.gates],
            [text[slice(*g.span)].strip() for g in r.invented])


@pytest.mark.parametrize("case", GOLDEN, ids=lambda c: c["id"])
def test_law_crlf_reads_as_lf_on_the_golden_cases(case: dict[str, Any]) -> None:
    text = case["text"]
    assert _shape(text.replace("\n", "\r\n"), case["card"]) == _shape(text, case["card"])


@given(st.text(alphabet=st.sampled_from(list("ab \t\r\n-*#:")), max_size=60))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_plain_spacing_blank_lines_are_bare_and_offsets_kept(text: str) -> None:
    out = _text.plain_spacing(text)
    assert len(out) == len(text)
    assert "\r" not in out
    assert "\n \n" not in out and "\n\t\n" not in out
    # every character that is not spacing stays where it was
    assert [(i, c) for i, c in enumerate(out) if not c.isspace()] == [(i, c) for i, c in enumerate(text) if not c.isspace()]
    # a line's indent is kept: the character after each newline that precedes text is the same
    for i, c in enumerate(text):
        if c == "\n" and i + 1 < len(text) and not text[i + 1].isspace():
            assert out[i] == "\n"
