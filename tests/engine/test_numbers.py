"""The one number reader (ipb.engine.numbers) and facts read through it (issue 16, issue 13 item 2)."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.engine.expressions import MONEY, RATIO, MULTIPLE, NUMBER
from ipb.engine.card import InputSpec
from ipb.engine.numbers import MAX_EXPONENT, Number, NumberError, format_number, read_number, scan_numbers
from ipb.engine.registry import compiled_card
from ipb.engine.scenario import convert_fact, load_scenario_text, parse_assignment
from ipb.errors import ErrorGroup, LoadError

# text -> (value, kind, currency), worked by hand.
READINGS = [
    ("($7M)", D(-7_000_000), "money", "USD"),
    ("(3.5)%", D("-0.035"), "percent", None),
    ("(3.5%)", D("-0.035"), "percent", None),
    ("$-2B", D(-2_000_000_000), "money", "USD"),
    ("-$2B", D(-2_000_000_000), "money", "USD"),
    ("\u22125", D(-5), "number", None),
    ("(12)", D(-12), "number", None),
    ("5 tn", D(5 * 10**12), "number", None),
    ("5TN", D(5 * 10**12), "number", None),
    ("3bn", D(3 * 10**9), "number", None),
    ("3 Bn", D(3 * 10**9), "number", None),
    ("2mn", D(2 * 10**6), "number", None),
    ("7m", D(7 * 10**6), "number", None),
    ("7M", D(7 * 10**6), "number", None),
    ("4k", D(4000), "number", None),
    ("4K", D(4000), "number", None),
    ("2 billion", D(2 * 10**9), "number", None),
    ("$1.25B", D(1_250_000_000), "money", "USD"),
    ("US$3", D(3), "money", "USD"),
    ("USD 5", D(5), "money", "USD"),
    ("5 USD", D(5), "money", "USD"),
    ("€1.234,5", D("1234.5"), "money", "EUR"),
    ("EUR 2,5 mn", D(2_500_000), "money", "EUR"),
    ("£3.5bn", D(3_500_000_000), "money", "GBP"),
    ("12 GBP", D(12), "money", "GBP"),
    ("1,234.5", D("1234.5"), "number", None),
    ("1.234,5", D("1234.5"), "number", None),
    ("1,234", D(1234), "number", None),
    ("1.234", D("1.234"), "number", None),
    ("3,5", D("3.5"), "number", None),
    ("1,234,567", D(1234567), "number", None),
    ("1.234.567", D(1234567), "number", None),
    ("1\u202f234", D(1234), "number", None),
    ("5e-3", D("0.005"), "number", None),
    ("1.5E9", D(1_500_000_000), "number", None),
    ("25%", D("0.25"), "percent", None),
    ("12.5 %", D("0.125"), "percent", None),
    ("10x", D(10), "multiple", None),
    ("2.5\u00d7", D("2.5"), "multiple", None),
    # multiples in words (issue 13 item 2: the parser's section reading read these with its own pattern)
    ("12 times", D(12), "multiple", None),
    ("31 Times", D(31), "multiple", None),
    ("4.5 to 1", D("4.5"), "multiple", None),
    ("4.5 to one", D("4.5"), "multiple", None),
    ("3:1", D(3), "multiple", None),
    ("3 : 1", D(3), "multiple", None),
    ("1,234 times", D(1234), "multiple", None),
    ("  42  ", D(42), "number", None),
    (".5", D("0.5"), "number", None),
]


@pytest.mark.parametrize("text, value, kind, currency", READINGS, ids=[r[0] for r in READINGS])
def test_reading(text: str, value: D, kind: str, currency: str | None) -> None:
    got = read_number(text)
    assert (got.value, got.kind, got.currency) == (value, kind, currency)
    assert isinstance(got.value, D)
    assert got.span == (len(text) - len(text.lstrip()), len(text.rstrip()))


def test_decimal_comma_hint() -> None:
    assert read_number("1.234", decimal_comma=True).value == 1234
    assert read_number("1,234", decimal_comma=True).value == D("1.234")


# text -> 1-based column the error points at.
REFUSED = [
    ("2009-03-01", 5),      # a date is not money
    ("1/0", 2),             # an expression is not a literal
    ("$1e9999999", 4),      # exponent beyond the limit
    ("1e101", 1),
    ("$5%", 3),             # money cannot be a percentage
    ("(-5)", 2),            # sign inside accounting parentheses
    ("(5", 1),
    ("5)", 2),
    ("$5 EUR", 4),          # two currencies
    ("", 1),
    ("abc", 1),
    ("1,23,4", 1),          # groups must come in threes
    ("5k%", 2),             # a scale on a percentage
    ("NaN", 1),
    ("inf", 1),
    ("1" * 61, 1),          # too many digits
    ("1" * 300, 1),         # too long to read at all
    ("3:2", 2),             # a ratio to another number than one is no multiple
    ("10:15", 3),           # a time of day
    ("2 to 1.5", 2),        # a range
    ("$5 times", 4),        # money cannot be a multiple
    ("5m times", 2),        # a scale on a multiple
    ("(3:1)", 1),           # parentheses round a ratio in words are an aside, never a negative
]


@pytest.mark.parametrize("text, column", REFUSED, ids=[r[0][:12] or "empty" for r in REFUSED])
def test_refused(text: str, column: int) -> None:
    with pytest.raises(NumberError) as info:
        read_number(text)
    assert info.value.column == column and info.value.line == 1
    assert info.value.rule == "number"


def test_limits_are_inclusive() -> None:
    assert read_number(f"1e{MAX_EXPONENT}").value == D(10) ** MAX_EXPONENT
    assert read_number(f"1e-{MAX_EXPONENT}").value == D(1).scaleb(-MAX_EXPONENT)
    with pytest.raises(NumberError):
        read_number(f"1e{MAX_EXPONENT + 1}")


def test_scan_numbers_in_prose() -> None:
    found = [(n.value, n.kind, n.currency) for n in scan_numbers("Loss of ($7M) vs €3bn; margin (3.5)%; 1,2,3.")]
    assert found == [(D(-7_000_000), "money", "USD"), (D(3 * 10**9), "money", "EUR"), (D("-0.035"), "percent", None)]


def test_scan_multiples_in_words() -> None:
    text = "covered 12 times; a payoff (4.5 to 1) or 3:1. From 2 to 1.5 at 10:15; 1,5 times"
    found = [(n.value, text[n.span[0] : n.span[1]]) for n in scan_numbers(text, strict=True) if n.kind == "multiple"]
    assert found == [(D(12), "12 times"), (D("4.5"), "4.5 to 1"), (D(3), "3:1")]
    assert [n.value for n in scan_numbers(text, 20, 40)] == [D("4.5")]  # the window [20, 40) only
    assert [n.value for n in scan_numbers("1,5 times") if n.kind == "multiple"] == [D("1.5")]  # not strict: the decimal


_multiple_values = st.decimals(min_value=D(0), max_value=D("1e6"), places=3, allow_nan=False, allow_infinity=False)
_multiple_forms = st.sampled_from(["{} times", "{} to 1", "{} to one", "{}:1", "{} : 1", "{}x"])


@settings(max_examples=300, deadline=None)
@given(_multiple_values, _multiple_forms, st.text(max_size=30), st.text(max_size=30))
def test_multiples_in_words_read_and_scan(value: D, form: str, before: str, after: str) -> None:
    # read: the value and the whole span; formatted (12x) it reads back the same
    text = form.format(value)
    got = read_number(text)
    assert (got.value, got.kind, got.span) == (value, "multiple", (0, len(text)))
    assert read_number(format_number(got)).value == value
    # scan: never raises inside any prose, spans in bounds and in order; between spaces the form is found whole
    prose = f"{before} {text} {after}"
    spans = [n.span for n in scan_numbers(prose)]
    assert all(0 <= a < b <= len(prose) for a, b in spans) and spans == sorted(spans)
    at = len(before) + 1
    if not any(c.isdigit() or c in "$€£()" for c in before[-1:] + after[:2]):
        assert (at, at + len(text)) in spans


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("0123456789 .,:;()$x×%tTimesonO-"), max_size=60), st.integers(0, 60),
       st.integers(0, 60), st.booleans())
def test_scan_numbers_never_raises_and_stays_in_its_window(text: str, start: int, end: int, strict: bool) -> None:
    for n in scan_numbers(text, start, end, strict=strict):
        assert start <= n.span[0] < n.span[1] <= min(end, len(text)) and n.kind in ("number", "money", "percent", "multiple")


_kinds = st.sampled_from(["number", "money", "percent", "multiple"])
_values = st.decimals(min_value=D("-1e30"), max_value=D("1e30"), places=6, allow_nan=False, allow_infinity=False)


@settings(max_examples=400, deadline=None)
@given(_values, _kinds, st.sampled_from(["USD", "EUR", "GBP"]))
def test_format_round_trips(value: D, kind: str, currency: str) -> None:
    number = Number(value, kind, currency if kind == "money" else None, (0, 0))
    back = read_number(format_number(number))
    assert (back.value, back.kind, back.currency) == (value, kind, number.currency)


# perturb writes values of at most 28 significant digits (its Decimal context); beyond that
# perturb.values.literal rounds, which is noted in the issue-16 report for the perturb owner.
_item_values = st.decimals(min_value=D("-1e15"), max_value=D("1e15"), places=6, allow_nan=False, allow_infinity=False)


@settings(max_examples=400, deadline=None)
@given(_item_values, st.sampled_from([("money", MONEY), ("ratio", RATIO), ("multiple", MULTIPLE), ("number", NUMBER)]))
def test_item_literals_round_trip(value: D, spec_type: tuple[str, object]) -> None:
    # The exact text perturb writes into items reads back to the same value.
    from ipb.perturb.values import literal

    spec = InputSpec("x", spec_type[0], spec_type[1])  # type: ignore[arg-type]
    text = literal(spec, value)
    assert convert_fact(spec, text) == value


# ---------------------------------------------------------------- facts are literals of their input's type

_SCENARIO = """id: S1
card: graham_net_net_screen
facts:
  market_value: $200M
  net_income: {net_income}
"""


def test_accounting_negative_fact() -> None:
    card = compiled_card("graham_net_net_screen").card
    scenario = load_scenario_text(_SCENARIO.format(net_income="($7M)"), card, "s.yaml")
    assert scenario.facts["net_income"] == D(-7_000_000)


@pytest.mark.parametrize("raw, rule", [('"2009-03-01"', "fact-type"), ("1/0", "fact-type"), ("€5M", "fact-currency"),
                                       ("$1e9999999+$1", "fact-type")])
def test_bad_money_fact_is_located(raw: str, rule: str) -> None:
    card = compiled_card("graham_net_net_screen").card
    with pytest.raises(ErrorGroup) as info:
        load_scenario_text(_SCENARIO.format(net_income=raw), card, "s.yaml")
    (err,) = info.value.errors
    assert (err.file, err.line, err.column, err.rule) == ("s.yaml", 5, 15, rule)


@pytest.mark.parametrize("text", ["net_income=1/0", "net_income=$1e9999999+$1", "net_income=2009-03-01",
                                  "net_income=2/3", "net_income=$5 * 2"])
def test_set_is_a_literal_never_an_expression(text: str) -> None:
    card = compiled_card("graham_net_net_screen").card
    with pytest.raises(LoadError) as info:
        parse_assignment(text, card)
    assert info.value.file == "--set"


def test_set_accepts_accounting_forms() -> None:
    card = compiled_card("graham_net_net_screen").card
    assert parse_assignment("net_income=($7M)", card) == ("net_income", D(-7_000_000))
    assert parse_assignment("net_income=$-2B", card) == ("net_income", D(-2_000_000_000))
