"""Gates read from a figure of the card's quantity and the writer's bar or judgement (issue 13; s45bars).

Expected values are worked by hand from the card's tests (``frameworks/graham_seven_tests_defensive.yaml``: gate 2
``current_assets >= 2 * current_liabilities and long_term_debt <= ...`` or, for a utility, ``long_term_debt <= 2 *
stock_equity``; gate 6 ``eps_3yr_avg > $0 and pe_3yr <= 15x`` with ``pe_3yr = price_per_share / eps_3yr_avg``;
``munger_business_quality_price`` gate 5 ``expected_return >= 10%``) and the figures in each text.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from ipb.engine.registry import compiled_card
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._figure_bars import FIGURE_HOW, Term, figure_terms, term_side

GRAHAM = "graham_seven_tests_defensive"


def _gates(text: str, card: str = GRAHAM) -> dict[int, tuple[str | None, str, float]]:
    parsed = parse_response(text, card, embedder=False)
    return {g.gate: (g.verdict, g.how, g.confidence) for g in parsed.gates}


def test_card_terms_read_a_multiple_of_another_input_as_a_ratio() -> None:
    # gate 2: current_assets >= 2 * current_liabilities is the current ratio against 2; long_term_debt <= 2 *
    # stock_equity is debt/equity against 2; gate 3 is one comparison with a plain number, the whole test
    terms = figure_terms(compiled_card(GRAHAM).card)
    assert [(t.names, t.op, t.value) for t in terms[2]] == [
        (("current_assets", "current_liabilities"), ">=", Decimal(2)),
        (("long_term_debt", "stock_equity"), "<=", Decimal(2)),
    ]
    assert [(t.names, t.op, t.value, t.alone) for t in terms[3]] == [(("years_with_earnings",), ">=", Decimal(10), True)]
    # a computed quantity is a term's quantity too: pe_3yr <= 15x, one part of an 'and'
    pe = [t for t in terms[6] if t.names == ("pe_3yr",)]
    assert [(t.op, t.value, t.unit, t.alone) for t in pe] == [("<=", Decimal(15), "multiple", False)]


def test_term_side_reads_the_writers_bar_in_the_cards_direction() -> None:
    roic = Term(2, ("return_on_capital",), ">=", Decimal("0.15"), "ratio", vw.PROCEED, True)
    # 31% against a 20% bar, higher passes: PROCEED; 12% against 20%: REJECT
    assert term_side(roic, Decimal("0.31"), Decimal("0.20")) == vw.PROCEED
    assert term_side(roic, Decimal("0.12"), Decimal("0.20")) == vw.REJECT


@pytest.mark.parametrize(
    ("text", "gate", "verdict"),
    [
        # 19 > 15 = the card's cap on P/E; the writer's "(max 15)" is an upper bound too and gives the same side; "x"
        ("P/E 19 (max 15) x", 6, vw.REJECT),
        # 0.4 <= 2 (the card's debt/equity cap); "under half": 0.4 < 0.5, the passing side of a cap
        ("Debt/equity 0.4, under half.", 2, vw.PROCEED),
        # 12 <= 15; "comfortably cheap" is a judgement of the passing side
        ("P/E of 12, comfortably cheap.", 6, vw.PROCEED),
    ],
)
def test_a_figure_and_the_writers_bar_or_judgement_meet_an_unnamed_gate(text: str, gate: int, verdict: str) -> None:
    got = _gates(text)
    assert got[gate][0] == verdict
    assert got[gate][1] == FIGURE_HOW
    assert got[gate][2] <= 0.55  # read against the card, not named: under the review bar


def test_a_discussed_gate_without_a_verdict_is_given_the_figures_side() -> None:
    # gate 5 of the Munger card is named by a heading and given no verdict word; 7% < 10% (the card's floor), and
    # "against 10% needed" (7% < 10%, a floor: "needed") is the failing side too: REJECT, hedged
    text = "## Expected return\nWe modelled it carefully. Expected return 7% against 10% needed."
    got = _gates(text, "munger_business_quality_price")
    assert got[5][0] == vw.REJECT
    assert FIGURE_HOW in got[5][1]
    assert got[5][2] <= 0.6


@pytest.mark.parametrize(
    "text",
    [
        "P/E 14 (max 12).",  # the card passes 14 (<= 15), the writer's cap of 12 fails it: they disagree, no reading
        "P/E 19 (min 15) x",  # a minimum on a figure the card caps: the writer's bar is not the card's
        "Key risks: P/E 19 could expand, well above 15.",  # a sentence on risks
        "In 2019 the P/E was 25, too high.",  # a dated, past figure
        "P/E 19.",  # a figure with no bar and no judgement
        "If the P/E rose to 19 it would be too high.",  # a condition
    ],
)
def test_no_gate_from_a_figure_without_an_agreeing_side_or_about_something_else(text: str) -> None:
    assert 6 not in _gates(text) or _gates(text)[6][0] is None


def test_a_verdict_stated_in_words_is_never_changed() -> None:
    # the gate is judged "pass" in words; the figure's side (19 > 15 fails) does not overwrite it
    got = _gates("Moderate P/E ratio: pass. P/E 19 (max 15) x")
    assert got[6][0] == vw.PROCEED
    assert FIGURE_HOW not in got[6][1]


@pytest.mark.parametrize(
    ("text", "gate", "verdict"),
    [
        # a multiple named by what it is a multiple of: pe_3yr is computed as price / three-year average EPS, so
        # "times average earnings" is the P/E; 1.3 <= 1.5 (price <= 1.5 * book) and "comfortably cheap" agrees
        ("It trades at 1.3 times book value, comfortably cheap.", 7, vw.PROCEED),
        # "Yes" answering the sentence's one figure: 11 <= 15, the passing side, so the answer and the card agree
        ("Yes, 11x average earnings.", 6, vw.PROCEED),
        ("No. 19x average earnings.", 6, vw.REJECT),  # 19 > 15: the failing side, and "No" agrees
    ],
)
def test_a_multiple_of_the_ratios_denominator_names_the_ratio(text: str, gate: int, verdict: str) -> None:
    got = _gates(text)
    assert got[gate][:2] == (verdict, FIGURE_HOW)


def test_an_answer_that_disagrees_with_the_cards_side_reads_nothing() -> None:
    # "No" on 11x: the card passes 11 (<= 15); the writer's side and the card's disagree, so no reading
    assert 6 not in _gates("No, 11x average earnings.")


def test_the_quantity_named_most_fully_wins_even_when_its_gate_is_read() -> None:
    # "P/E x P/B = 31" names gate 7's product (pe_times_pb: price, earnings, book), not gate 6's P/E (price, earnings);
    # gate 7 is read in words ("No"), so nothing is left for the figure to give gate 6 (parse_cases.yaml,
    # short-labels-that-are-part-of-one-gates-name)
    got = _gates("| Criterion | Figure | Pass? |\n|---|---|---|\n| Price to assets | P/E x P/B = 31 | No |\n")
    assert got.get(7, (None,))[0] == vw.REJECT
    assert 6 not in got
