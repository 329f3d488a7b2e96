"""Issue 16 leftovers (helper s16d): the 1 MB citations answer's linear passes, and breaker2 §2 finding 13 / breaker 12.

Each law is checked against an independent implementation (the pre-fix code kept here as the oracle, or the
standard library); each row fails on the code before the fix.
"""

from __future__ import annotations

import json
import math
import re
import sys
import types
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from ipb.cli._app import app
from ipb.engine._json import MAX_JSON_DEPTH, json_depth_error
from ipb.respond.client import message_text
from ipb.scoring import _sentences, _text
from ipb.scoring._numbers import _OTHER, _OTHER_PAREN, find_numbers
from ipb.scoring.run import dumps_record
from typer.testing import CliRunner

# --------------------------------------------------------------------------- oracles: the code before the fix


def _old_sentence_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    out = []
    pos = start
    for m in _text._SENTENCE_END.finditer(text, start, end):
        if not any(c.isalpha() for c in text[pos : m.start()]):
            continue
        # the later rules of sentence_spans' docstring, restated plainly: a "?"/"!" closing inside an open bracket
        # ends no sentence, and three dots before a lower-case word or a self-repair are a pause
        if text[m.start()] in "?!" and ")" in m.group() and text.count("(", start, m.start()) > text.count(")", start, m.start()):
            continue
        if m.group().startswith("...") and (_sentences._LOWER_NEXT.match(text, m.end(), end)
                                            or _sentences._REPAIR_NEXT.match(text, m.end(), end)):
            continue
        if text[m.start()] == ".":
            w = m.start()
            k = w
            while k > pos and (text[k - 1].isalpha() or text[k - 1] == "."):
                k -= 1
            initial = w - k == 1 and text[k].isupper() and (k == pos or text[k - 1].isspace())
            word = text[k:w].lower()
            # the two rules of 8ad97b9/93b1223 (issue 13), restated: a unit glued to a number ("5p.") is no
            # abbreviation, and "no."/"p."/"vol." (and the like) abbreviate only when a number follows
            glued = k > pos and text[k - 1].isdigit()
            rest = text[m.end():].lstrip(" \t")
            numbered_only = word in {"no", "p", "pp", "vol", "ch", "sec", "fig"}
            number_follows = rest[:1].isdigit() or (rest[:1] in "(#" and rest[1:2].isdigit())
            if (word in _text._ABBREV and not glued and (number_follows or not numbered_only)) or initial:
                continue
        s, e = _text._trim(text, pos, m.end())
        if s < e:
            out.append((s, e))
        pos = m.end()
    s, e = _text._trim(text, pos, end)
    if s < e:
        out.append((s, e))
    return out


_OLD_BRACKETS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')


def _old_depth_error(text: str) -> tuple[int, int] | None:
    depth = 0
    for m in _OLD_BRACKETS.finditer(text):
        ch = m.group(0)
        if ch in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                before = text[: m.start()]
                return before.count("\n") + 1, m.start() - (before.rfind("\n") + 1) + 1
        elif ch in "]}":
            depth -= 1
    return None


# --------------------------------------------------------------------------- linear passes, same results

_PROSE = st.lists(st.sampled_from(list("ab Ap.!?\"')]*_1 \n") + ["e.g.", "p. 12", "U.S.", "Dr.", "vs.", "x.y.z.w.v.u.t.s.r.",
                                                                  "Securities.", " approx. "]),
                  max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(_PROSE)
@example("ae.g... a")  # ci52d: three dots before a lower-case word are a pause
@example("p. 12p. 12")  # "12p." is a unit glued to a number: a sentence ends there
@example("The market said no. Abandon it. See p. 12. Then vol. 3")
def test_sentence_spans_are_the_old_spans(text):
    line = text.replace("\n", " ")
    assert list(_text.sentence_spans(line, 0, len(line))) == _old_sentence_spans(line, 0, len(line))


def test_sentence_spans_of_a_megabyte_of_abbreviations_is_linear():
    line = "(Graham, 1934, p. 12) [1] Security Analysis (1934) " * 20_000
    spans = list(_text.sentence_spans(line, 0, len(line)))  # quadratic before: every "p." re-read the line from 0
    assert spans == [(0, len(line) - 1)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=list('[]{}"\\ab,:\n'), max_size=400), st.integers(0, 3))
def test_the_json_depth_check_finds_the_old_place(text, extra):
    deep = "[" * (MAX_JSON_DEPTH + extra) + text
    err = json_depth_error(deep, "x.jsonl")
    old = _old_depth_error(deep) if deep.count("[") + deep.count("{") > MAX_JSON_DEPTH else None
    assert (None if err is None else (err.line, err.column)) == old


_MONEYISH = st.lists(st.sampled_from(list("(()$1234567890,. %)ab\t-") + ["US$", "(3)%", "($5M)", "million", "(1,234.5)%", " bn"]),
                     max_size=30).map("".join)


@settings(max_examples=500, deadline=None)
@given(_MONEYISH)
def test_accounting_negatives_are_found_as_before_without_a_currency_mark(text):
    assert [m.span() for m in _OTHER_PAREN.finditer(text)] == [m.span() for m in _OTHER.finditer(text)]


def test_accounting_negatives_and_euros_still_read():
    found = [(n.text, n.value, n.unit) for n in find_numbers("a loss of ($7M) and (12)% and €5M")]
    assert found == [("($7M)", -7_000_000.0, "money"), ("(12)%", -0.12, "ratio"), ("€5M", 5_000_000.0, "money:EUR")]


# --------------------------------------------------------------------------- (a) float noise in score records


def _rounded(value):
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        rounded = float(f"{value:.15g}")
        return rounded if math.isfinite(rounded) else value
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


@pytest.mark.parametrize("value, written", [
    (0.1 + 0.2, "0.3"), (0.2750000000000001, "0.275"), (0.17500000000000002, "0.175"), (0.7000000000000002, "0.7"),
    (0.8999999999999999, "0.9"), (1 / 3, "0.333333333333333"), (2e10 + 1e-6, "20000000000.0"), (-0.0, "-0.0"),
    (1e-300, "1e-300"), (float("inf"), "null"), (7, "7"), (12345678901234567, "12345678901234567"),
])
def test_record_floats_are_written_to_fifteen_digits(value, written):
    assert dumps_record({"v": value}) == '{"v":' + written + "}"


def test_strings_that_look_like_noisy_floats_are_kept():
    record = {"response": 'the "ratio" is 0.30000000000000004 \\ "x":0.1000000000000000055', "v": 0.1 + 0.2}
    back = json.loads(dumps_record(record))
    assert back == {"response": record["response"], "v": 0.3}


_JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(alphabet=list('0.123456789e"\\:,x'), max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(_JSONISH)
def test_a_record_reads_back_as_its_values_rounded_to_fifteen_digits(value):
    back = json.loads(dumps_record({"x": value}))["x"]
    assert back == _rounded(value)
    assert dumps_record({"x": back}) == dumps_record({"x": value})  # idempotent


# --------------------------------------------------------------------------- (b) content parts that are bare strings


@pytest.mark.parametrize("content, text", [
    (["1. Gate: PROCEED", "\nFinal verdict: BUY"], "1. Gate: PROCEED\nFinal verdict: BUY"),
    (["a", {"type": "text", "text": "b"}, {"type": "image_url", "image_url": {"url": "x"}}], "ab"),
    ([{"type": "text", "text": {"value": "a", "annotations": []}}, "b"], "ab"),
    ([{"type": "text", "text": 5}, "b"], "b"),
    ([{"type": "refusal", "refusal": "no"}], None),
])
def test_bare_string_parts_are_text(content, text):
    assert message_text(content) == text


# --------------------------------------------------------------------------- (c) screen headers in another case

pa = pytest.importorskip("pyarrow")
CARD = "graham_seven_tests_defensive"
PASS = {"company_type": "industrial", "annual_sales": 500e6, "total_assets": 900e6, "current_assets": 400e6,
        "current_liabilities": 150e6, "long_term_debt": 200e6, "stock_equity": 600e6, "years_with_earnings": 10.0,
        "dividend_years": 25.0, "eps_3yr_avg": 10.0, "eps_3yr_avg_ten_years_ago": 6.0, "price_per_share": 300.0,
        "book_value_per_share": 100.0}


def _screen(tmp_path: Path, headers: dict[str, str]) -> tuple[dict[str, list[object]], str]:
    import pyarrow.csv as pcsv

    src, out = tmp_path / "in.csv", tmp_path / "out.csv"
    pcsv.write_csv(pa.table({headers.get(k, k): [v] for k, v in PASS.items()}), src)
    result = CliRunner().invoke(app, ["screen", CARD, str(src), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return pcsv.read_csv(out).to_pydict(), result.output


def test_a_header_in_another_case_or_with_spaces_is_read_and_said(tmp_path):
    exact, _ = _screen(tmp_path, {})
    got, said = _screen(tmp_path, {"price_per_share": "Price_Per_Share ", "eps_3yr_avg": "EPS_3YR_AVG"})
    assert exact["final_verdict"] == got["final_verdict"] == ["DECLINE"]  # P/E 30 > 15: needs both columns
    assert got["trigger"] == exact["trigger"] == ["gate_6_reject"]
    assert "differs only in case or spaces" in said and "price_per_share <- 'Price_Per_Share '" in said
    assert "unknown on every row" not in said


def test_an_unknown_input_suggests_the_closest_header(tmp_path):
    got, said = _screen(tmp_path, {"price_per_share": "PRICE_PER_SHR"})
    assert got["gate_6_moderate_pe"] == ["INCONCLUSIVE"]
    assert "unknown on every row (no column): price_per_share (did you mean column 'PRICE_PER_SHR'?" in said
    assert "--map 'PRICE_PER_SHR=price_per_share'" in said


# --------------------------------------------------------------------------- (d) the encoder load is announced


def test_the_encoder_load_is_announced_before_it_starts(monkeypatch, tmp_path):
    from ipb.scoring import _load_notice
    from ipb.scoring.embeddings import SentenceTransformerEncoder

    events: list[str] = []

    class FakeModel:
        def __init__(self, path, device=None):
            events.append("load")

    fake = types.ModuleType("sentence_transformers")
    fake.SentenceTransformer = FakeModel  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "sentence_transformers", fake)
    monkeypatch.setattr(_load_notice, "_LOAD_NOTICES", {})
    _load_notice.on_model_load(lambda message: events.append(message))
    SentenceTransformerEncoder(model_path=str(tmp_path))._load()
    assert len(events) == 2 and events[1] == "load"
    assert events[0].startswith("loading the sentence encoder (all-MiniLM-L6-v2) for embedding-based matching")
