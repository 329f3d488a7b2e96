"""A writer's own numbered titles that line up with the card's gates in order (issue 13, class G-B: the gate is never
found; scoring/parse/_aligned.py, read by scoring/parse/_positional.py).

Answers written for these tests (never corpus copies), on the bundled card ``marks_risk_return_assessment`` (1 price
relative to value, 2 prospective return versus risk, 3 risk of permanent loss, 4 second-level thinking, 5 position of
the pendulum). Titles 2, 4 and 5 hold words only their place's gate uses ("return", "think", "pendulum"); titles 1 and
3 hold none of any gate's, so only the list's order places them. The item bodies state facts and no verdict word, so
the run does not pass :mod:`._positional`'s verdict rule: only the alignment reads it.
"""

from __future__ import annotations

from ipb.engine.registry import compiled_card
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._aligned import ALIGNED, aligned

MARKS = "marks_risk_return_assessment"

TITLES = ["What are we paying?", "Is the return worth the risk?", "What is the worst case?",
          "What does everyone else think?", "Where is the pendulum?"]
BODIES = ["We put the shares at $70 on normal margins; they trade at $45.",
          "From $45 to $70 over four years is about 12% a year, against 4% on ten-year notes.",
          "A second plant closure would leave the brand with one customer.",
          "Analysts mostly rate it a hold and nobody we spoke to owns it.",
          "Spreads are tight and new issues are back."]


def _numbered(titles: list[str]) -> str:
    items = "".join(f"{k}. {t}\n{b}\n\n" for k, (t, b) in enumerate(zip(titles, BODIES), start=1))
    return "Brenlow Foods, through our risk checklist\n\n" + items


def test_titles_that_confirm_their_place_read_the_whole_numbered_run_by_place() -> None:
    result = parse_response(_numbered(TITLES), MARKS, embedder=False)
    assert result.status == "ok", result.reason
    assert [g.gate for g in result.gates] == [1, 2, 3, 4, 5]
    # titles 1 and 3 name no gate: only the run's alignment found them
    found = {g.gate: g for g in result.gates}
    assert found[1].how.startswith(ALIGNED) and found[3].how.startswith(ALIGNED)


def test_a_gate_met_by_alignment_stays_under_the_review_bar() -> None:
    text = _numbered(TITLES).replace("on normal margins; they trade at $45.", "on normal margins; they trade at $45. PASS")
    gates = {g.gate: g for g in parse_response(text, MARKS, embedder=False).gates}
    assert gates[1].how.startswith(ALIGNED) and gates[1].verdict == "PROCEED"
    assert gates[1].confidence < 0.7


def test_a_title_in_another_gates_words_breaks_the_alignment() -> None:
    # the pendulum question in place 2 and the return question in place 5: not the card's order
    swapped = [TITLES[0], TITLES[4], TITLES[2], TITLES[3], TITLES[1]]
    gates = parse_response(_numbered(swapped), MARKS, embedder=False).gates
    assert all(not g.how.startswith(ALIGNED) for g in gates)
    assert 1 not in {g.gate for g in gates} and 3 not in {g.gate for g in gates}


def test_one_confirming_title_is_too_few() -> None:
    card = compiled_card(MARKS).card
    assert not aligned(card, ["Cheap?", "Is the return worth the risk?", "Worst case", "Others", "Timing"], [None] * 5)
    # three of five confirm, none contradicts: aligned
    assert aligned(card, TITLES, [None] * 5)


def test_a_title_tied_between_two_gates_breaks_the_alignment() -> None:
    card = compiled_card(MARKS).card
    # "pendulum" (gate 5) and "think" (gate 4): weight 3 and 5 in place 4, another gate's words at the same time
    assert not aligned(card, [TITLES[0], TITLES[1], TITLES[2], "Where does the pendulum leave what others think?",
                              TITLES[4]], [None] * 5)
    assert not aligned(card, TITLES, [None, None, None, None, 4])  # item 5 matched to gate 4 by name


def test_a_bulleted_run_is_not_read_by_alignment() -> None:
    # bullets have no count of the writer's own: the alignment reads numbered runs only
    text = "Brenlow Foods\n\n" + "".join(f"- {t} {b}\n" for t, b in zip(TITLES, BODIES))
    gates = parse_response(text, MARKS, embedder=False).gates
    assert all(not g.how.startswith(ALIGNED) for g in gates)


# ---------------------------------------------------------------- paragraphs that open with a question

LYNCH = "lynch_portfolio_story_review"  # 1 story broken, 2 P/E far above growth, 3 category sell signal, 4 better opportunity

QUESTION_PARAGRAPHS = [
    "Is the thesis still true? The clinics keep opening, eleven this year, and rents are flat.",
    "What about the price? It trades at 41 times earnings for 15% growth.",
    "Where is it in its life? Same-store sales still rise in the oldest towns.",
    "Is anything better on offer? A cement maker I follow, but I have not done the work.",
]


def _paragraphs(paragraphs: list[str]) -> str:
    return "Rereading my notes on Kestrel Clinics\n\nI bought it in 2022 and look again every spring.\n\n" + "\n\n".join(paragraphs) + "\n"


def test_question_paragraphs_that_ask_the_cards_gates_in_order_are_read_by_place() -> None:
    # questions 1 ("thesis") and 4 ("better") hold words only their place's gate uses; 2 and 3 none: two of four
    # confirm their place and none names another gate, so all four paragraphs are the card's gates in order
    result = parse_response(_paragraphs(QUESTION_PARAGRAPHS), LYNCH, embedder=False)
    assert result.status == "ok", result.reason
    assert [g.gate for g in result.gates] == [1, 2, 3, 4]
    found = {g.gate: g for g in result.gates}
    assert found[3].how.startswith(ALIGNED) and found[3].confidence < 0.7


def test_question_paragraphs_out_of_the_cards_order_are_not_read_by_place() -> None:
    # the "better on offer" question first: gate 4's words in place 1
    swapped = [QUESTION_PARAGRAPHS[3], QUESTION_PARAGRAPHS[1], QUESTION_PARAGRAPHS[2], QUESTION_PARAGRAPHS[0]]
    gates = parse_response(_paragraphs(swapped), LYNCH, embedder=False).gates
    assert all(not g.how.startswith(ALIGNED) for g in gates)


def test_a_question_run_longer_than_the_card_is_not_read_by_place() -> None:
    five = QUESTION_PARAGRAPHS + ["Would I buy it today? Probably not at this price."]
    gates = parse_response(_paragraphs(five), LYNCH, embedder=False).gates
    assert all(not g.how.startswith(ALIGNED) for g in gates)


def test_a_list_of_rules_judged_elsewhere_by_their_number_is_not_read_by_alignment() -> None:
    # regression (a gate's verdict lost): the numbered list states the writer's rules and "Rule 1:" judges the first
    # one further down; anchoring the list would take gate 1's section from the judgement to the rule's statement
    text = _numbered(TITLES) + "Rule 1: no problem at all, the discount is a real one.\n"
    gates = parse_response(text, MARKS, embedder=False).gates
    assert all(not g.how.startswith(ALIGNED) for g in gates)
