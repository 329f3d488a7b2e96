"""Words that judge nothing, given to a gate as its verdict (issue 13, which statement wins; paper §7.5).

Misreads of fresh text, each with the general cause fixed:

- a classifying gate's category value inside another gate's clause ("you'd be paying stalwart money for a sluggard" in
  the price gate's sentence) was that gate's PROCEED: a regime word is only its classifying gate's value;
- a forecast's path ("growing 8% for ten years, then fading to three") was read as the appraisal "fading";
- the noun "a defensive holding" was read as the thesis "holding";
- a one-word verdict ("Good.") closing a later paragraph of a section, a paragraph about another gate's facts, was the
  section gate's.

Short texts written for these tests; each was misread before the fix (the verdict in the comment).
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse._prose_vocabulary import appraisals

from tests.scoring.parse_support import read_gates

LYNCH = "lynch_six_category_framework"          # 1 classify (stalwart, slow grower ...), 2 price versus growth, 4 story check
BUFFETT = "buffett_acquisition_checklist"      # 4 intrinsic value (owner earnings valuation)
GRAHAM = "graham_defensive_portfolio_selection"  # 2 mix kept at its proportion, 3 high-grade bonds, 6 dividend record


@pytest.mark.parametrize("second", [
    "The payout is fine. The price isn't: (5 + 2) / 15 = 0.47. You'd pay stalwart money for a sluggard.",
    "The price isn't right: (5 + 2) / 15 = 0.47, so buyers pay stalwart money for a sluggard.",
    "Price against growth: you'd be paying stalwart money for a sluggard.",
])
def test_a_category_value_in_the_price_gates_clause_is_not_its_verdict(second: str) -> None:
    # before: gate 2 PROCEED from "stalwart"
    gates = dict(read_gates("Marlow Rail is a stalwart: earnings grew 11% a year for a decade.\n\n" + second, LYNCH))
    assert gates[1] == "PROCEED" and gates[2] is None


def test_the_category_value_still_places_the_case_for_the_classifying_gate() -> None:
    assert read_gates("Marlow Rail is a stalwart.", LYNCH) == [(1, "PROCEED")]


def test_a_figures_path_is_no_appraisal() -> None:
    # before: gate 4 REJECT from "fading"
    text = ("So I did an owner earnings valuation. Free cash flow is $210 million, growing 8% for ten years then fading "
            "to three, and I discount at 10%.")
    assert read_gates(text, BUFFETT) == [(4, None)]
    assert [(text[a:b], v) for a, b, v in appraisals(text, 0, len(text), None)] == []


@pytest.mark.parametrize(("clause", "want"), [
    ("margins are narrowing to 12%", []),
    ("the moat is fading", [("fading", "REJECT")]),       # no figure after it: the appraisal stands
    ("the moat is fading to nothing", [("fading", "REJECT")]),
])
def test_fading_to_a_figure_and_fading_alone(clause: str, want: list[tuple[str, str]]) -> None:
    assert [(clause[a:b], v) for a, b, v in appraisals(clause, 0, len(clause), None)] == want


def test_a_holding_as_a_noun_is_no_appraisal() -> None:
    # before: gate 6 PROCEED from "holding"
    text = "Dividends: Graham wanted 20 years of continuous dividends for a defensive holding. Fourteen of my sixteen have them."
    assert read_gates(text, GRAHAM) == [(6, None)]


@pytest.mark.parametrize(("clause", "want"), [
    ("for a defensive holding.", []),
    ("it is our largest holding.", []),
    ("the story is holding.", [("holding", "PROCEED")]),
    ("our thesis is holding.", [("holding", "PROCEED")]),
    ("the thesis still holding.", [("still holding", "PROCEED")]),
])
def test_holding_the_noun_and_holding_the_verb(clause: str, want: list[tuple[str, str]]) -> None:
    assert [(clause[a:b], v) for a, b, v in appraisals(clause, 0, len(clause), None)] == want


@pytest.mark.parametrize("drift", [
    "Drift from your 50% target: 58 - 50 = 8 points. Graham would restore the balance after about five. Inside the band? No.",
    "Drift from your 50% target: 58 - 50 = 8 points, beyond the five Graham allows.",
])
def test_a_one_word_verdict_closing_another_gates_paragraph_is_not_the_section_gates(drift: str) -> None:
    # before: gate 2 (drift) PROCEED from the "Good." that closes the bond paragraph
    text = ("Stock share: 58%. Is that between 25% and 75%? Yes.\n\n" + drift + "\n\n"
            "The bond side holds Treasury notes and a high-grade corporate bond fund. Nothing speculative. Good.\n")
    assert read_gates(text, GRAHAM) == [(1, "PROCEED"), (2, None), (3, "PROCEED")]


def test_a_one_word_verdict_in_the_sections_own_paragraph_stays_its() -> None:
    text = "Stock share: 58%. Is that between 25% and 75%? Yes.\n\nDrift from your 50% target: 52 - 50 = 2 points. Good.\n"
    assert dict(read_gates(text, GRAHAM))[2] == "PROCEED"


MUNGER = "munger_business_quality_price"  # 5 fair price


@pytest.mark.parametrize(("text", "want"), [
    # before: PROCEED from "met" inside the supposition
    ("Fair price: at 48x earnings the yield is about 2%. Even if the 15% growth target is met, the expected return is "
     "well short of 10% a year.", None),
    ("Fair price: even if we are generous with growth, it fails.", "REJECT"),  # the verdict after the supposition
    ("Fair price: it passes, even if only just.", "PROCEED"),                  # a concession after the verdict
])
def test_a_verdict_word_inside_an_even_if_supposition_finds_nothing(text: str, want: str | None) -> None:
    assert read_gates(text, MUNGER) == [(5, want)]
