"""A gate's section that judges its facts without a verdict word (issue 13; :mod:`ipb.scoring.parse._section_reading`).

Answers written for these tests (no corpus text); every expected reading was worked by hand against the bundled card
named beside each constant. Each rule has guards beside it: a bare fact, a condition, two readings that disagree, a
requirement ("wants a margin of safety") give no verdict.
"""

from __future__ import annotations

import pytest

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._section_reading import question_answer
from parse_support import read_gates as _read

QUALITY = "munger_business_quality_price"  # 1 understandable, 2 return on capital (>= 15%), 3 advantage, 4 management, 5 price
BUBBLE = "dalio_bubble_detection_gauge"  # every gate watches for a warning sign (a reject test, no proceed test)
VALUE = "graham_intrinsic_value_margin_of_safety"  # 1 normal earnings, 2 growth, 3 value, 4 margin of safety
SPINOFF = "greenblatt_spinoff_checklist"  # 1 indifference, 2 insiders, 3 hidden value, 4 timing window


# ---------------------------------------------------------------- appraisals in a labelled section


@pytest.mark.parametrize(("text", "expected"), [
    # confirming points
    ("Return on capital: 21% on tangible equity through the cycle, which is ample.\n"
     "Management: the founders own 30% and have never issued options. Sound.\n",
     [(2, vw.PROCEED), (4, vw.PROCEED)]),
    # damning points, one of them a figure against the card's own bar (return_on_capital >= 15%)
    ("Return on capital: returns on capital have run at 7% for five years.\n"
     "Fair price: 45 times earnings is stretched.\n",
     [(2, vw.REJECT), (5, vw.REJECT)]),
    # a risk judged small or large, a shortfall
    ("Management: the chairman's related-party leases are a worry; governance risk here is high.\n"
     "Fair price: at 40x earnings the price leaves no margin of safety.\n",
     [(4, vw.REJECT), (5, vw.REJECT)]),
])
def test_a_labelled_section_that_appraises_its_facts_reads_as_that_verdict(text: str, expected: list[tuple[int, str]]) -> None:
    assert _read(text, QUALITY) == expected
    assert any(g.how.endswith("+section") for g in parse_response(text, QUALITY, embedder=False).gates)


def test_the_reading_is_marked_hedged_and_explained() -> None:
    text = "Return on capital: 21% through the cycle, which is ample.\nManagement: founders own 30%.\n"
    parsed = parse_response(text, QUALITY, embedder=False)
    gate = parsed.gates[0]
    assert gate.how.endswith("+section") and gate.verdict_span is None
    assert 0.0 <= gate.confidence <= 0.55
    assert any("+section" in note for note in parsed.notes)


@pytest.mark.parametrize("text", [
    # bare facts: no judgement
    "Return on capital: 12% last year.\nManagement: the founders own 30%.\n",
    # a condition
    "Return on capital: 21% last year.\nFair price: if the multiple fell to 12x it would be cheap.\n",
    # two appraisals that disagree
    "Return on capital: 21% last year.\nManagement: the managers are honest, but the pay plan is worrying.\n",
])
def test_facts_conditions_and_disagreements_give_no_verdict(text: str) -> None:
    assert all(verdict is None for _, verdict in _read(text, QUALITY))


# ---------------------------------------------------------------- margin of safety there or not


def test_no_margin_of_safety_is_damning_and_a_margin_asked_for_is_nothing() -> None:
    text = ("Earnings base: EPS averaged $3.10 over seven years.\n"
            "Margin of safety: two-thirds of value is $29; at $47 there is no margin of safety.\n")
    assert _read(text, VALUE) == [(1, None), (4, vw.REJECT)]
    text = ("Earnings base: EPS averaged $3.10 over seven years.\n"
            "Margin of safety: Graham wants a margin of safety of a third.\n")
    assert _read(text, VALUE) == [(1, None), (4, None)]


def test_inside_the_window_passes() -> None:
    text = ("Step 1: Institutional indifference. Index funds sold on day one; nobody covers the spinoff. PROCEED.\n"
            "Step 4: Timing window. Seven weeks after the distribution: inside the window.\n")
    assert _read(text, SPINOFF) == [(1, vw.PROCEED), (4, vw.PROCEED)]


# ---------------------------------------------------------------- a gate's question answered yes or no


@pytest.mark.parametrize(("question", "after", "watch", "verdict"), [
    ("Is the purpose to benefit continuing owners?", " - No. The buyback offsets option dilution.", False, vw.REJECT),
    ("Does the company have money it does not need?", " \u2013 Yes.", False, vw.PROCEED),
    ("Are purchases financed by high leverage?", "\n- NO \u2192 margin debt at its average.", True, vw.PROCEED),
    ("Are prices high against traditional measures?", "\n- YES \u2192 P/B 3.4.", True, vw.REJECT),
    ("Is the price too rich?", " Yes.", False, vw.REJECT),
    ("Understandable?", " Sure: it sells glue.", False, vw.PROCEED),
    # no answer: a word that opens a new clause, or nothing
    ("High return on capital?", " No one at the meeting asked.", False, None),
    ("Is it cheap?", " Hard to say.", False, None),
])
def test_question_answer(question: str, after: str, watch: bool, verdict: str | None) -> None:
    assert question_answer(question.lower(), after, watch) == verdict


def test_questions_of_a_watching_card_answered_yes_and_no() -> None:
    text = ("Q1: Are prices high relative to traditional measures?\n- YES \u2192 P/B of 3.4 against a median of 1.3.\n"
            "Q5: Are purchases financed by high leverage?\n- NO \u2192 margin lending near its ten-year average.\n")
    assert _read(text, BUBBLE) == [(1, vw.REJECT), (5, vw.PROCEED)]


# ---------------------------------------------------------------- a gate never reached


def test_a_gate_the_writer_never_got_to_is_not_reached() -> None:
    text = ("1. Understandable business: REJECT, a biotech with one unproven drug.\n"
            "2. Return on capital: never got to it.\n")
    assert _read(text, QUALITY) == [(1, vw.REJECT), (2, vw.NOT_REACHED)]


def test_each_gate_of_a_listing_the_writer_never_got_to_is_not_reached() -> None:
    text = ("1. Understandable business: REJECT, a biotech with one unproven drug.\n"
            "2. Return on capital: I won't even get to returns on capital, the moat or the price.\n")
    assert _read(text, QUALITY) == [(1, vw.REJECT), (2, vw.NOT_REACHED)]


# ---------------------------------------------------------------- multiples written in words against a multiple bar


SIZING = "soros_conviction_weighted_position_sizing"  # 2 payoff asymmetry (payoff_ratio >= 3, a multiple)


def test_multiples_in_words() -> None:
    # read by the one number reader (issue 13 item 2), as the section reading calls it where the convention is unknown
    from ipb.engine.numbers import scan_numbers

    text = "covered 12 times; a payoff of 4.5 to 1 or 3:1; 1,5 times; 2009 to 2019"
    assert [(float(n.value), text[n.span[0] : n.span[1]]) for n in scan_numbers(text, strict=True)
            if n.kind == "multiple"] == [(12.0, "12 times"), (4.5, "4.5 to 1"), (3.0, "3:1")]


@pytest.mark.parametrize(("payoff", "verdict"), [("the payoff ratio is 4.5 to 1.", vw.PROCEED),
                                                 ("the payoff ratio is about 2 to 1.", vw.REJECT),
                                                 ("the payoff ratio is 2 to 1 or 5 to 1, depending on the peg.", None)])
def test_a_payoff_written_n_to_1_against_the_cards_bar(payoff: str, verdict: str | None) -> None:
    text = f"Thesis confirmation: the central bank has stopped defending the band. PROCEED.\nPayoff asymmetry: {payoff}\n"
    assert dict(_read(text, SIZING)).get(2) == verdict


# Forms the one number reader reads that the section's own pattern missed or misread (issue 13 item 2): a ratio closing
# its sentence ("3:1."), a ratio in an aside's parentheses, "to one"; a range "from 2 to 1.5" is no multiple.
@pytest.mark.parametrize(("payoff", "verdict"), [("the payoff ratio is 3:1.", vw.PROCEED),
                                                 ("the payoff ratio (4 to one) justifies the size.", vw.PROCEED),
                                                 ("the payoff ratio is 2:1.", vw.REJECT),
                                                 ("the payoff ratio fell from 2 to 1.5 this year.", None)])
def test_a_payoff_ratio_read_by_the_one_number_reader(payoff: str, verdict: str | None) -> None:
    text = f"Thesis confirmation: the central bank has stopped defending the band. PROCEED.\nPayoff asymmetry: {payoff}\n"
    assert dict(_read(text, SIZING)).get(2) == verdict


# The answer's decimal convention decides a lone comma: "4,5 to 1" is 4.5 where the answer writes "3,5 %", and unread
# where nothing tells (a decimal, or a list of 4 and 5?).
@pytest.mark.parametrize(("payoff", "verdict"), [("the payoff ratio is 4,5 to 1; the margin is 3,5 %.", vw.PROCEED),
                                                 ("the payoff ratio is 2,5 to 1; the margin is 3,5 %.", vw.REJECT),
                                                 ("the payoff ratio is 4,5 to 1.", None)])
def test_a_payoff_ratio_with_a_decimal_comma(payoff: str, verdict: str | None) -> None:
    text = f"Thesis confirmation: the central bank has stopped defending the band. PROCEED.\nPayoff asymmetry: {payoff}\n"
    assert dict(_read(text, SIZING)).get(2) == verdict


# ---------------------------------------------------------------- lexicon entries the section reading added


@pytest.mark.parametrize(("closing", "verdict"), [
    ("The moat is real.", vw.PROCEED),
    ("The risk of substitution is real.", vw.REJECT),
    ("I like that.", vw.PROCEED),
    ("The odds are in our favour.", vw.PROCEED),
    ("The advantage is long-lived.", vw.PROCEED),
    ("Permanent loss looks remote.", vw.PROCEED),
])
def test_closing_appraisals_of_a_labelled_section(closing: str, verdict: str) -> None:
    text = f"Understandable business: it sells glue. PROCEED.\nDurable competitive advantage: switching costs. {closing}\n"
    assert dict(_read(text, QUALITY)).get(3) == verdict


# ---------------------------------------------------------------- strengths and risks headings as polarity


def test_a_gate_listed_under_strengths_or_risks_takes_that_polarity() -> None:
    text = ("## Strengths\n- Return on capital of 24% through the cycle, on little debt\n- Understandable business: it sells glue\n\n"
            "## Risks\n- Fair price: the shares trade at 31 times earnings\n")
    assert _read(text, QUALITY) == [(2, vw.PROCEED), (1, vw.PROCEED), (5, vw.REJECT)]


def test_json_strengths_and_concerns_lists() -> None:
    text = ('{"signal": "neutral", "strengths": ["understandable business: sells glue to carpenters"],\n'
            ' "concerns": ["return on capital has been falling for three years"]}')
    assert _read(text, QUALITY) == [(1, vw.PROCEED), (2, vw.REJECT)]


@pytest.mark.parametrize("text", [
    # a negation or a condition on the item
    "## Risks\n- Management: no concerns, founder-led for 30 years\n- Fair price: 31 times earnings\n",
    # the list ended before the gate's line
    "## Risks\n- Customer concentration\n\nManagement: founder-led for 30 years.\nFair price: 31 times earnings. REJECT.\n",
    # a singular topic label is no list of faults
    "Risk:\n- Management: founder-led for 30 years\n- Fair price: 31 times earnings. REJECT.\n",
])
def test_headings_that_give_no_polarity(text: str) -> None:
    assert dict(_read(text, QUALITY)).get(4) is None


# ---------------------------------------------------------------- records, coverage, absent signs; requirements are no facts


SEVEN = "graham_seven_tests_defensive"  # 1 size, 2 financial condition, 3 earnings stability, 4 dividends, ...


def test_a_record_without_a_break_and_a_requirement_of_one() -> None:
    text = "Size: sales of $2.1 billion. PROCEED.\nDividends: paid without interruption since 1971.\n"
    assert _read(text, SEVEN) == [(1, vw.PROCEED), (4, vw.PROCEED)]
    text = "Size: sales of $2.1 billion. PROCEED.\nDividends: paid since 2012. Graham asks for 20 years without a break.\n"
    assert _read(text, SEVEN) == [(1, vw.PROCEED), (4, None)]


def test_a_value_that_does_not_cover_the_price() -> None:
    card = "marks_distressed_debt"  # 3 bad-case recovery covers the price
    text = ("Distressed pricing: the notes yield 14% over Treasuries. PROCEED.\n"
            "Bad case: a piecemeal sale leaves 13 cents for the unsecureds; the bad case does not cover the price.\n")
    assert dict(_read(text, card)).get(3) == vw.REJECT


def test_no_sign_of_the_signal_a_gate_watches_for() -> None:
    text = ("Q1: Are prices high relative to traditional measures?\n- YES \u2192 P/B of 3.4 against a median of 1.3.\n"
            "Leverage: there is no sign of leveraged buying, with margin debt down for a year.\n")
    assert dict(_read(text, BUBBLE)).get(5) == vw.PROCEED
