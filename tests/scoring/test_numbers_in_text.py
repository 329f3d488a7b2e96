"""Numbers in answers (issue 13 item 2, "numbers"): found by scoring._numbers, valued by the one reader (engine.numbers)."""

from __future__ import annotations

import pytest

from ipb.engine.numbers import read_number
from ipb.scoring._numbers import find_numbers
from ipb.scoring.parse import parse_response


@pytest.mark.parametrize(
    "text, want",
    [
        ("Net income was ($7M) last year.", [("($7M)", -7_000_000.0, "money")]),
        ("Operating margin (3.5)% after the write-down.", [("(3.5)%", -0.035, "ratio")]),
        ("Retention (95%) is strong.", [("95%", 0.95, "ratio")]),  # an aside in parentheses, not a negative
        ("Capex of €1.234,5m and a £3bn pension gap.", [("€1.234,5m", 1_234_500_000.0, "money:EUR"), ("£3bn", 3e9, "money:GBP")]),
        ("Debt of 12m EUR, cash of $-2B.", [("12m EUR", 12e6, "money:EUR"), ("$-2B", -2e9, "money")]),
        ("Price $1.25B at 10x, 2/3 of NCAV.", [("$1.25B", 1.25e9, "money"), ("10x", 10.0, "multiple"), ("2/3", 0.6667, "fraction")]),
    ],
)
def test_numbers_are_found_with_their_sign_scale_and_currency(text: str, want: list[tuple[str, float, str]]) -> None:
    got = [(n.text, n.value, n.unit) for n in find_numbers(text)]
    assert got == want
    for n in find_numbers(text):
        assert text[n.start : n.end] == n.text


def test_the_parser_and_the_scenario_reader_agree_on_a_value() -> None:
    """One reader: the value the parser reports is the value a scenario fact written the same way has."""
    for written in ("($7M)", "(3.5)%", "€1.234,5m", "$-2B", "$1.25B"):
        [found] = find_numbers(f"x {written} y")
        assert found.value == float(read_number(written).value)


def test_a_euro_amount_is_never_matched_as_dollars() -> None:
    """Regression (currencies matched as US dollars): a card element "price {price}" (money, USD) is not read from €50B."""
    text = "1. Circle of Competence: PROCEED.\n5. Margin of Safety: REJECT - price €50B against intrinsic ~€25B.\nFinal verdict: DECLINE"
    parsed = parse_response(text, "buffett_acquisition_checklist", embedder=False)
    assert [n.unit for n in parsed.numbers] == ["money:EUR", "money:EUR"]
    assert "price $50B" not in parsed.gates[1].elements
    dollars = parse_response(text.replace("€", "$"), "buffett_acquisition_checklist", embedder=False)
    assert "price $50B" in dollars.gates[1].elements


@pytest.mark.parametrize(
    "text, want",
    [
        # found by the pattern, valued by the one reader: exact, then one rounding to a float. The parser's own
        # float arithmetic read "66.017 billion" as 66016999999.99999 and "137.00015455 million" as 137000154.54999998
        ("Sales of 66.017 billion units.", [("66.017 billion", 66_017_000_000.0, "number")]),
        ("A backlog of 0.29 million orders.", [("0.29 million", 290_000.0, "number")]),
        ("Units: 137.00015455 million.", [("137.00015455 million", 137_000_154.55, "number")]),
        ("Margin of 1,234.5 percent, then −12.5 pct and 3.5x.", [("1,234.5 percent", 12.345, "ratio"),
                                                             ("−12.5 pct", -0.125, "ratio"), ("3.5x", 3.5, "multiple")]),
    ],
)
def test_figures_without_money_are_valued_by_the_one_reader(text: str, want: list[tuple[str, float, str]]) -> None:
    assert [(n.text, n.value, n.unit) for n in find_numbers(text)] == want
    for n in find_numbers(text):
        plain = n.text.replace("\u2212", "-").replace(",", "").replace(" percent", "%").replace(" pct", "%")
        assert n.value == float(read_number(plain).value)


def test_the_element_matcher_values_quantities_by_the_one_reader() -> None:
    """Metrics' quantities (element F1, KCCS) are found by their own pattern and valued by engine.numbers: exact,
    then one rounding, so "$4.1B" is 4.1e9 (the float arithmetic gave 4099999999.9999995) and "3.7%" 0.037 (was
    0.037000000000000005); a figure beyond the reader's limits (more than 60 digits) is no quantity, as in a scenario."""
    from ipb.scoring.metrics._matching import extract_quantities

    got = [(q.value, q.unit) for q in extract_quantities("price $4.1B, margin 3.7%, 2.5 per cent, 3 times, 1/4 of 12.5 million")]
    assert got == [(4.1e9, "money"), (0.037, "ratio"), (0.025, "ratio"), (3.0, "multiple"), (0.25, "plain"), (12.5e6, "plain")]
    assert extract_quantities("1" * 70 + " units") == []


def test_figures_in_another_scripts_digits_stay_read() -> None:
    """Regression (routing through the one reader): the reader asks a typed value for ASCII digits, but an answer's
    figures in Arabic-Indic or fullwidth digits are figures, as the parser's own arithmetic read them before."""
    from ipb.scoring.metrics._matching import extract_quantities
    from ipb.scoring.parse._stated_bars import compared_verdict

    got = [(n.text, n.value, n.unit) for n in find_numbers("margin \u0663\u0665% at \u0661\u0662x, ROE \uff11\uff14%")]
    assert got == [("\u0663\u0665%", 0.35, "ratio"), ("\u0661\u0662x", 12.0, "multiple"), ("\uff11\uff14%", 0.14, "ratio")]
    assert [(q.value, q.unit) for q in extract_quantities("\u0663\u0665% and \u0661\u0662x")] == [(0.35, "ratio"), (12.0, "multiple")]
    assert compared_verdict("\u0661\u0664% a year against our \u0661\u0660% hurdle", None) == "PROCEED"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # a spaced dash after a word or label separates it from the figure (a new user's "Yes - 28% ROCE" read -28%)
        ("Yes - 28% ROCE", [("28%", 0.28)]),
        ("Gate 2 - 15% margin", [("15%", 0.15)]),
        ("Pass - 28% ROCE", [("28%", 0.28)]),
        ("Pass \u2013 $5M upside", [("$5M", 5_000_000.0)]),
        ("Yes \u2212 28%", [("28%", 0.28)]),
        # signs stay signs: unspaced, unicode minus, after a word that asks for a value, after a colon, at the start
        ("-28%", [("-28%", -0.28)]),
        ("\u221228%", [("\u221228%", -0.28)]),
        ("Yes -28% ROCE", [("-28%", -0.28)]),
        ("a swing from 5% to - 3%", [("5%", 0.05), ("- 3%", -0.03)]),
        ("margin fell by - 2%", [("- 2%", -0.02)]),
        ("ROCE: - 3%", [("- 3%", -0.03)]),
        ("- 28% at the start", [("- 28%", -0.28)]),
        ("growth was - 4%", [("- 4%", -0.04)]),
    ],
)
def test_a_spaced_dash_after_a_word_is_no_minus_sign(text: str, want: list[tuple[str, float]]) -> None:
    """Regression (sign read across a separator dash): a hyphen, minus or en dash with a space on both sides after a
    word or label ("Yes - 28%") is punctuation, not the figure's sign; "-28%", "to - 3%", "ROCE: - 3%" stay negative."""
    assert [(n.text, n.value) for n in find_numbers(text)] == want

