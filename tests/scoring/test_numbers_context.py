"""Numbers whose value depends on their writing or their context (issue 13, numbers; :mod:`ipb.scoring._numbers`).

Short texts written for these tests. A percentage alone in parentheses, "(28%)", is an accounting negative where the
context says so (a fall or loss word before it, a label or cell it stands in, a word asking for a value) and an aside
elsewhere; dollar amounts keep their scale word in any case ("$3m", "$2 Bn", "$7 MM"), and a currency code before or
after an amount ("USD 5bn", "12m USD", "USD $5M") is US dollars, all read by the one number reader
(:func:`ipb.engine.numbers.read_number`, no arithmetic of the finder's own).
"""

from __future__ import annotations

import pytest

from ipb.scoring._numbers import find_numbers


def _values(text: str) -> list[tuple[str, float, str]]:
    return [(n.text, n.value, n.unit) for n in find_numbers(text)]


@pytest.mark.parametrize("text", [
    "Revenue fell (28%) in the year.",            # a fall verb
    "Bookings were down sharply (28%) on last year.",  # "down" two words before
    "The division posted a decline (28%).",       # a fall noun
    "EPS growth: (28%)",                          # a value after a label
    "| FY2024 | (28%) |",                         # a table cell
    "Free cash flow growth was (28%) last year.", # a word asking for a value
    "a change of (28%) in volumes",
])
def test_a_parenthesised_percentage_in_a_fall_or_accounting_context_is_negative(text: str) -> None:
    assert [(t, v) for t, v, _ in _values(text)] == [("28%", -0.28)]


@pytest.mark.parametrize("text", [
    "Margins stayed strong (28%) through the cycle.",
    "A majority (28%) of the float is held by insiders.",  # an aside: the share, not a negative
    "Revenue fell. Margins (28%) held up.",       # the fall is in another sentence
    "sales fell 5%; gross margin (28%) held",     # ... or another clause
])
def test_a_parenthesised_percentage_as_an_aside_keeps_its_sign(text: str) -> None:
    assert _values(text)[-1][:2] == ("28%", 0.28)


def test_accounting_negatives_written_as_such_stay_negative_once() -> None:
    # "(3.5)%" and "(-3%)" are negative by their writing: never negated twice by a fall word before them
    assert _values("Operating margin fell to (3.5)% after the write-down.") == [("(3.5)%", -0.035, "ratio")]
    assert _values("Sales fell (-3%) on the year.") == [("-3%", -0.03, "ratio")]


@pytest.mark.parametrize(("text", "want"), [
    ("Buybacks of $3m a quarter", ("$3m", 3e6)),
    ("a $2b write-off", ("$2b", 2e9)),
    ("sales of $5 Billion", ("$5 Billion", 5e9)),
    ("EBITDA $7 MM", ("$7 MM", 7e6)),
    ("net cash $3 Mn", ("$3 Mn", 3e6)),
    ("market cap $1.2 Trillion", ("$1.2 Trillion", 1.2e12)),
    ("debt of -$2 bn", ("-$2 bn", -2e9)),
], ids=["m", "b", "Billion", "MM", "Mn", "Trillion", "signed-bn"])
def test_a_dollar_scale_word_counts_in_any_case(text: str, want: tuple[str, float]) -> None:
    # regression: the finder's pattern knew only "M", "B", "T", "K", "k" and lower-case words, so "$3m" was $3
    assert _values(text) == [(*want, "money")]


@pytest.mark.parametrize(("text", "want"), [
    ("Revenue of USD 5bn", [("USD 5bn", 5e9, "money")]),
    ("a 12m USD facility", [("12m USD", 12e6, "money")]),
    ("a USD $5M tender", [("USD $5M", 5e6, "money")]),  # the code repeats the sign: once, not refused
    ("EUR 12m and USD 3m", [("EUR 12m", 12e6, "money:EUR"), ("USD 3m", 3e6, "money")]),
])
def test_a_us_dollar_code_is_dollars(text: str, want: list[tuple[str, float, str]]) -> None:
    assert _values(text) == want
