"""Stop 60 (s60tune): causes of misreadings found on the n56 blind set's tuned split, each pinned on a short answer
written for this test (not taken from the corpus). Each reading test fails on the tree before its fix."""

from __future__ import annotations

import time

import pytest

from ipb.scoring._text import classify_line
from ipb.scoring.parse import parse_response


def _read(text: str, card: str) -> tuple[list[tuple[int, str | None]], str | None]:
    r = parse_response(text, card, embedder=False)
    assert r.status == "ok", r.reason
    return [(g.gate, g.verdict) for g in r.gates], r.final_verdict


# ------------------------------------------- layout: a gate written as a record of code, one "key = value" a line

HCL_BLOCKS = '''```hcl
gate "circle_of_competence" {
  order   = 1
  verdict = "PROCEED"
  note    = "a paint maker; plain economics"
}

gate "economic_moat" {
  order   = 2
  verdict = "REJECT"
  note    = "customers switch supplier on price every season"
}
```
'''

TOML_TABLES = '''```toml
[[gate]]
name = "Circle of Competence"
verdict = "PROCEED"

[[gate]]
name = "Economic Moat"
verdict = "REJECT"
```
'''

LISP_FORMS = '''```lisp
(review
  (gate 1 "Source of Mispricing"
    :verdict PROCEED
    :why "index deletion forced holders to sell")
  (gate 2 "Conservative Business Valuation"
    :verdict REJECT
    :why "the value rests on a growth forecast"))
```
'''


def test_hcl_blocks_give_each_gate_its_verdict_field() -> None:
    # before: the "order = 1" line closed the gate's section, so neither verdict field was read
    gates, _ = _read(HCL_BLOCKS, "buffett_acquisition_checklist")
    assert gates == [(1, "PROCEED"), (2, "REJECT")]


def test_toml_tables_give_each_gate_its_verdict_field() -> None:
    gates, _ = _read(TOML_TABLES, "buffett_acquisition_checklist")
    assert gates == [(1, "PROCEED"), (2, "REJECT")]


def test_lisp_keyword_fields_give_each_gate_its_verdict() -> None:
    gates, _ = _read(LISP_FORMS, "klarman_deep_value_identification")
    assert gates == [(1, "PROCEED"), (2, "REJECT")]


def test_key_value_verdict_under_a_plain_title() -> None:
    text = "Circle of Competence\nverdict = PROCEED\n\nEconomic Moat\nverdict = REJECT\n"
    gates, _ = _read(text, "buffett_acquisition_checklist")  # before: a parse failure (no gate had anything of its own)
    assert gates == [(1, "PROCEED"), (2, "REJECT")]


# ------------------------------------------- layout: AsciiDoc / wiki section titles written with "="

ASCIIDOC = '''= Harbour toll road (March)

== Lens 1: Price Relative to Value
Price $9.1B against a value of $7.0B: we would pay 130% of what it is worth.

[WARNING]
====
REJECT.
====

== Lens 2: Prospective Return Versus Risk
Expected return 11% against Treasuries at 3%: eight points of premium.

[TIP]
====
PROCEED.
====
'''


def test_asciidoc_titles_are_headings_and_hold_their_sections() -> None:
    # before: "== Lens 1: ..." was a label line and the body line with a colon a sibling label that closed the section
    gates, _ = _read(ASCIIDOC, "marks_risk_return_assessment")
    assert gates == [(1, "REJECT"), (2, "PROCEED")]


@pytest.mark.parametrize("line, level", [("== Lens 1: Price", 2), ("= Harbour Toll Road =", 1), ("=== Day 3 ===", 3)])
def test_equals_titles_classify_as_headings(line: str, level: int) -> None:
    got = classify_line(line, 0, len(line))
    assert (got.kind, got.level) == ("heading", level)


@pytest.mark.parametrize("line", ["= $25B, so the gap is positive", "= owner earnings   $48M", "= EPS x 28.5 today",
                                  "= 1,200 x (8.5 + 2 x 6)", "=== "])
def test_calculation_lines_are_not_headings(line: str) -> None:
    assert classify_line(line, 0, len(line)).kind != "heading"


def test_equals_title_check_is_linear() -> None:
    for line in ("= A" + " " * 200_000 + "x", "= A" + " x" * 100_000, "== " + "=" * 200_000):
        t0 = time.perf_counter()
        classify_line(line, 0, len(line))
        assert time.perf_counter() - t0 < 0.5
