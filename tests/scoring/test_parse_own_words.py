"""Gate verdicts said in the writer's own words on wild analyses (issue 13, stop 37; paper §7.5).

Blog posts and newsletters answer a criterion's question with "Yes, ..." after the facts, close a criterion with a
one-word appraisal standing as its own sentence after a sentence that explains the rule, leave a criterion open
("an open question", "too early to tell"), and say how things in general fare ("most buybacks fail here") before
judging the case. Every text here was written for these tests; the expected readings were worked by hand against
the bundled cards.
"""

from __future__ import annotations

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._verdict_clauses import generic_subject

BUYBACK = "buffett_share_repurchase"  # 1 ample funds, 2 price below value, 3 published limit, 4 purpose
MUNGER = "munger_business_quality_price"  # 1 understandable, 2 returns, 3 advantage, 4 management, 5 fair price
KLARMAN = "klarman_deep_value_identification"  # 1 mispricing, 2 valuation, 3 margin of safety, 4 catalyst
GRAHAM_PORTFOLIO = "graham_defensive_portfolio_selection"  # 7 price limit relative to earnings


def _read(text: str, card: str) -> dict[int, str | None]:
    result = parse_response(text, card, embedder=False)
    assert result.status == "ok", result.reason
    return {g.gate: g.verdict for g in result.gates}


STEPS = (
    "Would Buffett back the Lindqvist Foods buyback?\n\n"
    "Step 1: Does the company have cash it does not need?\n\n"
    "A good way to think about it is a family budget: bills first, savings after. Lindqvist holds $300M of cash "
    "against a capex plan that is already funded. Yes, the surplus is real.\n\n"
    "Step 2: Is the share price well below what the business is worth?\n\n"
    "Most buybacks fail at this step. The shares trade at $20 and our owner-earnings value is $29, a gap of about "
    "31%. Yes.\n"
)


def test_heading_question_answered_by_a_sentence_opening_on_yes() -> None:
    # the sentence with a colon inside the paragraph is prose, not a label that ends Step 1's section; "Yes, ..."
    # opening a later sentence answers the step's question
    assert _read(STEPS, BUYBACK)[1] == "PROCEED"


def test_opening_no_answers_the_question_too() -> None:
    text = STEPS.replace("Yes, the surplus is real.", "No, every dollar of it is committed to the new kiln.")
    assert _read(text, BUYBACK)[1] == "REJECT"


def test_how_things_usually_fare_is_not_the_case_verdict() -> None:
    # "Most buybacks fail at this step" says nothing of Lindqvist: the step's own "Yes." is its verdict
    assert _read(STEPS, BUYBACK)[2] == "PROCEED"


def test_the_case_own_items_failing_still_count() -> None:
    text = ("Portfolio review, rule by rule.\n\n"
            "Price limit relative to earnings: two of our holdings fail the 25x limit on average earnings.\n")
    assert _read(text, GRAHAM_PORTFOLIO)[7] == "REJECT"


def test_generic_subject_words() -> None:
    assert generic_subject(["this", "is", "where", "most", "buybacks"])
    assert generic_subject(["many", "cheap", "spin-offs"])
    assert not generic_subject(["most", "criteria"])  # the case's checks
    assert not generic_subject(["most", "of", "the", "bonds"])
    assert not generic_subject(["two", "holdings"])


def test_open_question_is_inconclusive() -> None:
    text = ("Halvorsen Shipping through Klarman's lens\n\n"
            "Catalyst: no sale process and no activist yet. The catalyst is an open question.\n")
    assert _read(text, KLARMAN)[4] == "INCONCLUSIVE"
    text = text.replace("The catalyst is an open question.", "Too early to tell.")
    assert _read(text, KLARMAN)[4] == "INCONCLUSIVE"


def test_a_closed_question_is_no_verdict() -> None:
    text = ("Halvorsen Shipping through Klarman's lens\n\n"
            "Catalyst: the sale process closes in May. It is not an open question.\n")
    assert _read(text, KLARMAN).get(4) != "INCONCLUSIVE"


UNDERSTAND = (
    "A Munger check on Tarrow Glass\n\n"
    "1. Can we understand it?\n"
    "Why it counts: Munger's too-hard pile is where most mistakes live.\n"
    "Tarrow makes bottles for brewers on five-year contracts. Understandable.\n\n"
    "2. Does it earn high returns on capital?\n"
    "Ten-year average 27%. Clears it.\n"
)


def test_a_one_word_appraisal_closing_the_section_is_the_last_word() -> None:
    # the rule's "too-hard pile" (REJECT in the appraisal lexicon) is set aside by the writer's own closing "Understandable."
    assert _read(UNDERSTAND, MUNGER)[1] == "PROCEED"


def test_disagreeing_readings_without_a_closing_word_give_none() -> None:
    text = UNDERSTAND.replace(" Understandable.", " Easy to understand for a brewer.")
    assert _read(text, MUNGER)[1] is None
