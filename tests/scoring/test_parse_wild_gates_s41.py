"""Wild analyses that judge a found gate in the writer's own words (issue 13, class G-A of /work/notes/wild40.md).

Two general mechanisms, not one phrasing each: a graded answer to a gate's question ("Mostly.", "Not really.", "Not
yet.") is a hedged yes or no, read with the question's polarity (:func:`ipb.scoring.parse._section_reading.question_answer`);
and everyday evaluative words of the appraisal lexicon (``grammar/appraisals.yaml``: "excellent", "plenty", "worse", "more
than I like", "the setup you want", "modest" read with the gate's direction), negation and conditions applied as for every
appraisal. Every reading is hedged: under the 0.7 review bar.

Answers written for these tests (no corpus text); each expected verdict worked by hand against the card named beside it.
"""

from __future__ import annotations

import pytest

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._prose_vocabulary import appraisals
from ipb.scoring.parse._section_reading import question_answer
from parse_support import read_gates as _read

QUALITY = "munger_business_quality_price"  # 1 understandable, 2 return on capital (>= 15%), 3 advantage, 4 management, 5 price
BUBBLE = "dalio_bubble_detection_gauge"  # every gate watches for a warning sign (a reject test, no proceed test)

#: The review bar: a reading the parser is not sure of carries less.
REVIEW_BAR = 0.7


@pytest.mark.parametrize(("question", "after", "watch", "verdict"), [
    # a graded yes: the question asks for the good state
    ("Is the thesis still intact?", " Mostly. Two of the three plants run at plan.", False, vw.PROCEED),
    ("Are returns on capital above the bar?", " Largely, yes: 18% in eight of ten years.", False, vw.PROCEED),
    ("Is the story holding up?", " So far. Orders rose again.", False, vw.PROCEED),
    # a graded no
    ("Is the price well under what it is worth?", " Not yet. At $52 we pay 90% of value.", False, vw.REJECT),
    ("Is the balance sheet conservative?", " Not really: net debt is 4x EBITDA.", False, vw.REJECT),
    ("Is management candid in its letters?", " Hardly.", False, vw.REJECT),
    # a graded no to a question about a fault or a warning sign: the gate passes
    ("Has the growth run ended?", " Not yet. New stores still pay back in a year.", False, vw.PROCEED),
    ("Are buyers borrowing to buy?", " Not really.", True, vw.PROCEED),
    ("Is the price too rich?", " Mostly, yes.", False, vw.REJECT),
    # words that grade both ways are no answer
    ("Is the moat intact?", " Partly. One region lost share.", False, None),
    ("Is the margin of safety enough?", " Barely.", False, None),
])
def test_a_graded_answer_to_a_gates_question(question: str, after: str, watch: bool, verdict: str | None) -> None:
    assert question_answer(question.lower(), after, watch) == verdict


def test_a_graded_answer_in_an_answer_reads_hedged() -> None:
    text = ("Is the business easy to understand? Mostly. It rents forklifts by the day.\n\n"
            "Is the competitive advantage durable? Not really. Two rivals now match its prices.\n")
    parsed = parse_response(text, QUALITY, embedder=False)
    read = {g.gate: g for g in parsed.gates}
    assert (read[1].verdict, read[3].verdict) == (vw.PROCEED, vw.REJECT)
    assert read[1].how.endswith("+section")
    assert all(0.0 < g.confidence < REVIEW_BAR for g in (read[1], read[3]))


@pytest.mark.parametrize(("clause", "direction", "said"), [
    # everyday words by polarity
    ("the founders own 30% and take no bonus. excellent", None, [("excellent", vw.PROCEED)]),
    ("cash covers two years of losses, plenty", None, [("plenty", vw.PROCEED)]),
    ("the test case survives", None, [("survives", vw.PROCEED)]),
    ("3% of the account fits with room", None, [("fits", vw.PROCEED)]),
    ("that is the setup you want", None, [("the setup you want", vw.PROCEED)]),
    ("the leverage pays for itself", None, [("pays for itself", vw.PROCEED)]),
    ("the payout ratio is worse than that", None, [("worse", vw.REJECT)]),
    ("the tenant list is uncomfortable", None, [("uncomfortable", vw.REJECT)]),
    # a limit of the writer's own
    ("42 times earnings is more than i like to pay", None, [("more than i like to pay", vw.REJECT)]),
    ("the drawdown is higher than we would accept", None, [("higher than we would accept", vw.REJECT)]),
    # negation flips
    ("the debt load is not alarming", None, [("alarming", vw.PROCEED)]),
    ("the result is not comfortable", None, [("comfortable", vw.REJECT)]),
    # size words only with the gate's direction (higher leverage: REJECT)
    ("leverage of 1.6x is modest", vw.REJECT, [("modest", vw.PROCEED)]),
    ("leverage of 1.6x is modest", None, []),
    ("debt is hefty", vw.REJECT, [("hefty", vw.REJECT)]),
    # no verdict: a modifier of another noun, a condition, what the framework asks for
    ("an excellent quarter for the whole sector", None, []),
    ("if the spread stays comfortable we add", None, []),
    ("buffett wants a comfortable cushion", None, []),
    # "good" and "bad" are not read: names and comparisons in wild text
    ("repurchases are only as good as the price paid", None, []),
    ("the bad case leaves 27 cents", None, []),
    ("plenty of states left to enter", None, []),
    ("for better or worse the plan is set", None, []),
])
def test_everyday_appraisals(clause: str, direction: str | None, said: list[tuple[str, str]]) -> None:
    assert [(clause[a:b], v) for a, b, v in appraisals(clause, 0, len(clause), direction)] == said


@pytest.mark.parametrize(("text", "expected"), [
    ("Management: the founders own 30% and take a salary of $90k. Excellent.\n"
     "Fair price: 44 times owner earnings, more than I like to pay for anything.\n",
     [(4, vw.PROCEED), (5, vw.REJECT)]),
    ("Return on capital: 23% on tangible capital for ten years. That is the setup you want.\n"
     "Fair price: the price is not alarming, 13 times earnings.\n",
     [(2, vw.PROCEED), (5, vw.PROCEED)]),
])
def test_a_labelled_section_in_everyday_words_reads_hedged(text: str, expected: list[tuple[int, str]]) -> None:
    assert _read(text, QUALITY) == expected
    assert all(g.confidence < REVIEW_BAR for g in parse_response(text, QUALITY, embedder=False).gates)


def test_a_watching_gate_answered_not_really_passes() -> None:
    text = "Q5: Are purchases financed by high leverage?\nNot really. Margin debt sits at its ten-year average.\n"
    assert _read(text, BUBBLE) == [(5, vw.PROCEED)]


ALL_WEATHER = "dalio_all_weather_portfolio_construction"  # 1 four environments, 2 risk balance, 3 leverage


@pytest.mark.parametrize(("closing", "verdict"), [
    # a concessive "if" only grades the appraisal
    ("So the leverage pays for itself, if only just.", vw.PROCEED),
    ("The leverage is sound, if barely.", vw.PROCEED),
    # a real condition states no verdict
    ("It pays for itself if rates stay put.", None),
    ("The leverage is sound if the spread holds.", None),
])
def test_a_concessive_if_is_no_condition(closing: str, verdict: str | None) -> None:
    text = ("**Leverage:** To lift the bond side the plan levers the Treasuries 1.5 times. Financing costs 4.1%; "
            f"the bonds earn 4.6%. {closing}\n")
    assert _read(text, ALL_WEATHER) == [(3, verdict)]


@pytest.mark.parametrize("middle", [
    "not tiny, not alarming",
    "not modest; not alarming",
    "neither a bargain nor uncomfortable",
])
def test_two_denials_side_by_side_are_the_writers_middle_and_no_verdict(middle: str) -> None:
    # each denial alone would be read ("not alarming": PROCEED); side by side they are the writer's in-between
    text = ("| Criterion | Weight | Our view |\n|---|---|---|\n| Understandable | 20% | sells glue; clear |\n"
            f"| Fair price | 30% | 19 times owner earnings: {middle} |\n")
    assert dict(_read(text, QUALITY))[5] is None


def test_a_denial_then_a_contrast_is_still_read() -> None:
    text = "Fair price: 11 times owner earnings. Not alarming at all; cheap, if anything.\n"
    assert _read(text, QUALITY) == [(5, vw.PROCEED)]
