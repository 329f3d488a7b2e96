"""Typographic apostrophes (regression: a curly apostrophe lost the negation of a contraction).

Most model output and most published prose write contractions with U+2019
("doesn’t pass"), some with U+2018, U+02BC or the full-width apostrophe, and a
few with a backtick typed for the apostrophe ("don`t"). The parser read
``doesn’t pass`` as PROCEED while ``doesn't pass`` was REJECT: every negation
reader was written for the ASCII form. :func:`ipb.scoring._text.plain_spacing`
now makes all these forms plain, character for character, so spans stay
offsets into the answer as written.

The readings below are hand-labelled from texts written for this test; the
law at the end checks that swapping apostrophes never changes a reading, on
the golden parser cases, the synthetic faithful answers of every bundled item
and generated answer-like text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ipb.scoring import _text
from ipb.scoring.parse import parse_response
from ruamel.yaml import YAML

BUFFETT = "buffett_acquisition_checklist"  # 1 Circle of Competence, 2 Economic Moat, 3 Management Integrity, 5 Margin of Safety
HERE = Path(__file__).parent
#: The apostrophes written for ``'``: right and left single quotation marks, modifier letter apostrophe, full-width.
FORMS = ["\u2019", "\u2018", "\u02bc", "\uff07"]

#: (answer with ASCII apostrophes, its gates as (gate, verdict), its final verdict), labelled by hand.
NEGATED = [
    ("Circle of Competence: the business doesn't pass this test.", [(1, "REJECT")], None),
    ("Circle of Competence: it isn't met.", [(1, "REJECT")], None),
    ("Circle of Competence: it won't pass.", [(1, "REJECT")], None),
    ("Circle of Competence: it didn't pass.", [(1, "REJECT")], None),
    ("Circle of Competence: it hasn't passed.", [(1, "REJECT")], None),
    ("Circle of Competence: it wouldn't pass.", [(1, "REJECT")], None),
    ("Circle of Competence: it wasn't met.", [(1, "REJECT")], None),
    ("Circle of Competence: this criterion can't be passed.", [(1, "REJECT")], None),
    ("Circle of Competence: the business doesn't fail it.", [(1, "PROCEED")], None),
    ("Margin of Safety: the price doesn't leave one; it isn't a pass.", [(5, "REJECT")], None),
    ("Gate 2 doesn't apply here; Gate 1 PROCEED.", [(2, "N/A"), (1, "PROCEED")], None),
    ("Gate 1 PROCEED. Final verdict: we won't invest.", [(1, "PROCEED")], "DECLINE"),
    ("Gate 1 PROCEED. I wouldn't touch it.", [(1, "PROCEED")], "DECLINE"),
    ("Gate 1 PROCEED. I wouldn't hesitate to buy.", [(1, "PROCEED")], "INVEST"),
    ("Gate 1 PROCEED. This isn't an INVEST.", [(1, "PROCEED")], "DECLINE"),
    ("Gate 1 PROCEED. Final verdict: it's a DECLINE, not an INVEST.", [(1, "PROCEED")], "DECLINE"),
]


def _reading(text: str, card: str = BUFFETT, embedder: Any = False) -> tuple[str, list[tuple[int, str | None]], str | None]:
    r = parse_response(text, card, embedder=embedder)
    return r.status, [(g.gate, g.verdict) for g in r.gates], r.final_verdict


@pytest.mark.parametrize("form", FORMS, ids=["U+2019", "U+2018", "U+02BC", "U+FF07"])
@pytest.mark.parametrize("text,gates,final", NEGATED, ids=[t for t, _, _ in NEGATED])
def test_a_negated_contraction_reads_the_same_with_every_apostrophe(text: str, gates: list[tuple[int, str]],
                                                                    final: str | None, form: str) -> None:
    assert _reading(text) == ("ok", gates, final)
    assert _reading(text.replace("'", form)) == ("ok", gates, final)


@pytest.mark.parametrize("typed", ["`", "\u00b4"])
def test_a_backtick_or_accent_typed_for_the_apostrophe_is_one(typed: str) -> None:
    assert _reading(f"Circle of Competence: it doesn{typed}t pass. Final verdict: we won{typed}t invest.") == (
        "ok", [(1, "REJECT")], "DECLINE")


def test_code_fences_and_inline_code_keep_their_backticks() -> None:
    text = "```\nGate 1: PROCEED\n```\nand `Gate 2` REJECT"
    assert _text.plain_spacing(text) == text
    assert _text.plain_spacing("don`t, isn\u00b4t, `x`") == "don't, isn't, `x`"


def test_spans_stay_offsets_into_the_answer_as_written() -> None:
    text = "Circle of Competence: it doesn\u2019t pass.\nFinal verdict: we won\u2019t invest, I\u2019m afraid."
    r = parse_response(text, BUFFETT, embedder=False)
    [gate] = r.gates
    assert (gate.verdict, gate.verdict_span, text[33:37]) == ("REJECT", (33, 37), "pass")  # the word, after "doesn’t "
    assert (r.final_verdict, r.final_verdict_span, text[63:69]) == ("DECLINE", (63, 69), "invest")  # after "won’t "


def test_an_attribution_quoted_with_curly_single_quotes_keeps_the_claim_as_written() -> None:
    text = "Buffett wrote that \u2018a moat\u2019s width matters\u2019."
    [a] = parse_response(text, BUFFETT, embedder=False).attributions
    assert a.claim == "a moat\u2019s width matters" and a.claim in text[a.span[0] : a.span[1]]


# --------------------------------------------------------------------------- the law: ' and ’ are one character to the parser

GOLDEN = YAML(typ="safe").load((HERE / "cases" / "parse_cases.yaml").read_text(encoding="utf-8"))


def _faithful() -> list[tuple[str, str]]:
    from ipb.respond.synthetic import bundled_items, synthetic_responses

    items = bundled_items()
    return [(i["card"], r["response"])
            for i, r in zip(items, synthetic_responses(items, corruptions=["none"]))]


def _same_reading(text: str, card: str, embedder: Any = False) -> None:
    for form in FORMS:
        assert _reading(text.replace("'", form), card, embedder) == _reading(text, card, embedder), form


@pytest.mark.parametrize("case", [c for c in GOLDEN if "'" in c["text"] and c.get("embedder") != "fake"],
                         ids=lambda c: c["id"])
def test_law_on_the_golden_cases(case: dict[str, Any]) -> None:
    _same_reading(case["text"], case["card"])


def test_law_on_the_synthetic_faithful_answers() -> None:
    answers = [(card, text) for card, text in _faithful() if "'" in text]
    assert len(answers) >= 100  # the law is exercised, not vacuous
    for card, text in answers:
        r = parse_response(text, card, embedder=False)
        curly = parse_response(text.replace("'", "\u2019"), card, embedder=False)
        assert ([(g.gate, g.verdict) for g in curly.gates], curly.final_verdict) == (
            [(g.gate, g.verdict) for g in r.gates], r.final_verdict), card


_PIECES = ["Circle of Competence", "Economic Moat", "Margin of Safety", "Gate 3", "Gate 4:", "doesn't ", "isn't ", "won't ",
           "can't ", "wouldn't ", "hasn't ", "don't ", "n't ", "it's ", "'Pass'", "'", "pass", "fails", "met", "PROCEED",
           "REJECT", "invest", "buy", "touch it", "Final verdict: ", "DECLINE", "INVEST", ". ", "; ", ": ", "\n", " -> ", " "]


@given(st.lists(st.one_of(st.sampled_from(_PIECES), st.text(max_size=4)), max_size=30).map("".join))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_law_on_generated_answers(text: str) -> None:
    _same_reading(text, BUFFETT)
