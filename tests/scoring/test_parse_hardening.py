"""Parser reproducers of issue 16 (hangs, blow-ups, a whole answer lost to one byte), each with its bound.

Speed itself is measured in bench/parse.py; here each reproducer runs under a
generous alarm (a hang fails the test instead of stalling the suite) and the
result is checked by hand-worked values.
"""

from __future__ import annotations

import random
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ipb.scoring.parse as parse_module
from ipb.engine.registry import compiled_card
from ipb.scoring import _text
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._citations import MAX_CITATION_CHARS, _Spans
from ipb.scoring.parse._element_spec import _template_pattern
from parse_support import bounded

CARD = compiled_card("buffett_acquisition_checklist").card


def test_a_megabyte_of_citations_on_one_line_is_read_linearly() -> None:
    """Regression (quadratic citation pass: 31 s): each citation was checked against every earlier one,
    and the line start was searched back to the text's start for each."""
    one = "See the 1986 letter to shareholders (1986, ch. 3), *Security Analysis* (1934). "
    text = "Gate 1: PROCEED. " + one * (1_000_000 // len(one))
    with bounded(30):
        parsed = parse_response(text, CARD, embedder=False)
    assert parsed.gates[0].gate == 1
    docs = [c.document for c in parsed.citations]
    # each repetition cites the letter and the book once (the book's title pass and the known-book pass agree)
    assert docs.count("letter to shareholders") == docs.count("Security Analysis") == 1_000_000 // len(one)


@given(st.lists(st.tuples(st.integers(0, 5000), st.integers(1, MAX_CITATION_CHARS)), max_size=60), st.integers(0, 6000))
@settings(max_examples=300, deadline=None)
def test_citation_spans_index_equals_a_scan_of_every_span(spans: list[tuple[int, int]], pos: int) -> None:
    index = _Spans()
    for start, length in spans:
        index.add((start, start + length))
    assert index.holds(pos) == any(start <= pos < start + length for start, length in spans)


def test_years_are_read_up_to_a_bound_and_say_so() -> None:
    """Regression (5 MB of repeated years: 73 s and 6.6 GB through ipb parse --format json): years are bounded."""
    bound = parse_module.MAX_YEARS
    parsed = parse_response("Gate 1: PROCEED\n" + "In 1986, " * (bound + 100), CARD, embedder=False)
    assert len(parsed.years_found) == bound
    assert parsed.years == [1986]
    assert f"more than {bound} year mentions: only the first {bound} were read" in parsed.notes


def test_past_the_character_bound_the_opening_and_the_end_are_read() -> None:
    bound = parse_module.MAX_CHARS
    filler = "1986 1987 " * ((bound + 500_000) // 10)
    text = "Gate 1: REJECT - outside the circle.\n" + filler + "\nFinal verdict: DECLINE"
    with bounded(30):
        parsed = parse_response(text, CARD, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "REJECT")]
    assert parsed.final_verdict == "DECLINE"
    assert any(n.startswith(f"{len(text)} characters, over the bound of {bound}") for n in parsed.notes)
    assert all(0 <= y.span[0] < y.span[1] <= len(text) and text[y.span[0] : y.span[1]] == str(y.year) for y in parsed.years_found)


SYMBOLS = types.SimpleNamespace(
    symbols={
        **{k: types.SimpleNamespace(kind="number", unit="money", values=None) for k in "abcd"},
        **{k: types.SimpleNamespace(kind="text", unit=None, values=None) for k in "wxyz"},
    }
)


@pytest.mark.parametrize("template", ["value {a}{b}{c}{d}", "{a} {b} {c} {d}", "{w}{x}{y}{z}", "{w}{a}{x}{b}", "{a},{b},{c},{d}"])
def test_adjacent_template_fields_stay_linear_on_long_digit_runs(template: str) -> None:
    """Regression (a card element with four adjacent fields and 400 digits in an answer: over 120 s)."""
    pattern, _ = _template_pattern(template, SYMBOLS)
    assert pattern is not None
    with bounded(10):
        for text in ("value " + "9" * 4000 + "z", "value " + "9," * 4000 + "z", "value " + "9 " * 4000 + "z"):
            pattern.search(text)


@pytest.mark.parametrize(
    "template, text, fields",
    [
        ("price {a} against value {b}", "price $50B against value $25B", ("$50B", "$25B")),
        ("{a}, and {b}", "$5B, and $1,250M", ("$5B", "$1,250M")),
        ("{a} {b}", "1,234.5 6", ("1,234.5", "6")),
        ("{w} of {a}", "net cash of $3B", ("net cash", "$3B")),
    ],
)
def test_linear_template_fields_still_read_what_the_engine_renders(template: str, text: str, fields: tuple[str, ...]) -> None:
    pattern, slots = _template_pattern(template, SYMBOLS)
    assert pattern is not None
    m = pattern.search(text)
    assert m is not None and tuple(m.group(group) for group, *_ in slots) == fields


def test_a_stray_nul_byte_does_not_make_an_answer_binary() -> None:
    """Regression (one NUL byte made a whole answer a parse failure "binary data")."""
    text = "Gate 1: PROCEED\x00 - subscription software we understand.\nGate 5: REJECT\nFinal verdict: DECLINE"
    parsed = parse_response(text, CARD, embedder=False)
    assert parsed.ok
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (5, "REJECT")]
    assert parsed.final_verdict == "DECLINE"
    assert _text.binary_reason("Gate 1: PROCEED\x00\x00\x00 ok") == "binary data: contains NUL bytes"
    assert _text.binary_reason("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR") == "binary data: contains NUL bytes"


def test_nul_bytes_keep_offsets() -> None:
    rng = random.Random(3)
    text = "".join(rng.choice(["Gate 1: PROCEED ", "\x00", "Gate 2: REJECT ", "\u00a0"]) for _ in range(40))
    assert len(_text.plain_spacing(text)) == len(text)
    assert "\x00" not in _text.plain_spacing(text)
