"""Gates discussed in running prose, in other words (issue 13, gate references; scoring/parse/_prose.py).

Each text is written for this test; each expectation is a careful human reading of it, gate by gate. The first table
holds prose that names no gate (or names one in passing) and that a reader still reads gate by gate from the facts each
sentence states and the writer's appraisal of them; the second holds prose this reading must leave alone (a modifier, a
question, a condition, an idiom that doubts the appraisal, a sentence whose words fit two gates equally).
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._prose import appraisals, gate_of_clause, prose_vocabulary
from ipb.engine.registry import compiled_card

from tests.scoring.parse_support import read_gates

MUNGER = "munger_business_quality_price"  # 1 understandable, 2 return on capital, 3 durable advantage, 4 people, 5 price
STORY = "lynch_portfolio_story_review"  # 1 story intact, 2 price vs growth, 3 category exit signal, 4 better stock
SIZE = "soros_conviction_weighted_position_sizing"  # 1 thesis confirmation, 2 payoff asymmetry, 3 conviction size, 4 survival

READ = [
    pytest.param(
        MUNGER,
        "A family-owned maker of industrial adhesives. We fully understand what it sells and to whom (pass). The people "
        "who run it have been honest with owners through two bad years. The advantage behind its margins is eroding as "
        "the patents lapse.\n\nDECLINE.",
        [(1, "PROCEED"), (4, "PROCEED"), (3, "REJECT")],
        id="persona-voice-three-gates-by-their-facts",
    ),
    pytest.param(
        STORY,
        "I re-read the notes on the regional grocer this month. Nothing in the original story has broken: they still add "
        "twenty stores a year and comparable sales keep rising.\n\nHOLD.",
        [(1, "PROCEED")],
        id="story-not-broken-is-intact",
    ),
    pytest.param(
        STORY,
        "Same-store sales at the chain have fallen for a year. The category signal is what worries me now.\n\nSELL.",
        [(3, "REJECT")],
        id="a-worry-about-the-category-signal",
    ),
    pytest.param(
        SIZE,
        "Long the yen against the dollar since March. The payoff is asymmetric, about four to one, with little carry "
        "against us.\n\nSIZE_UP.",
        [(2, "PROCEED")],
        id="sentence-in-one-gates-words-takes-its-appraisal",
    ),
    pytest.param(
        MUNGER,
        "A regional airline. The model is simple enough: fly people, fill seats. Management pays itself in options that "
        "vest on the share price alone, which is misaligned.\n\nDECLINE.",
        [(1, "PROCEED"), (4, "REJECT")],
        id="simple-enough-and-misaligned",
    ),
    pytest.param(
        MUNGER,
        "A maker of farm equipment. Its circle of competence is fine for us, its return on capital is thin, and the rest "
        "we have not looked at.\n\nDECLINE.",
        [(1, "PROCEED"), (2, "REJECT")],
        id="one-sentence-listing-two-gates-read-part-by-part",
    ),
]


@pytest.mark.parametrize(("card", "text", "expected"), READ)
def test_prose_states_gates_by_their_facts_and_an_appraisal(card: str, text: str, expected: list[tuple[int, str]]) -> None:
    assert read_gates(text, card) == expected


LEFT_ALONE = [
    pytest.param(MUNGER, "Management had a strong quarter and raised guidance.\n\nDECLINE.", id="modifier-of-a-noun"),
    pytest.param(MUNGER, "Is the advantage behind the margins durable?\n\nDECLINE.", id="a-question-states-nothing"),
    pytest.param(STORY, "If the original story breaks we sell; so far nothing new.\n\nHOLD.", id="a-condition-states-nothing"),
    pytest.param(MUNGER, "Owner earnings are $40M against a market value of $300M, so it is cheap for a reason.\n\nDECLINE.",
                 id="cheap-for-a-reason-doubts-the-appraisal"),
    pytest.param(MUNGER, "At a market value of $9B on owner earnings of $300M, I'd pass at this price.",
                 id="the-investors-own-pass-is-a-decline-not-a-gate-pass"),
    pytest.param(MUNGER, "Management met analysts twice in March to walk through the plan.\n\nDECLINE.",
                 id="met-with-its-object-is-a-meeting"),
    pytest.param("graham_net_net_screen", "Final verdict: INVEST\nIn Graham's terms, the case rests on patience, margin of safety and Mr. Market.\n",
                 id="naming-the-margin-of-safety-concept-appraises-nothing"),
]


@pytest.mark.parametrize(("card", "text"), LEFT_ALONE)
def test_prose_without_a_statement_about_a_gate_reads_no_gate(card: str, text: str) -> None:
    result = parse_response(text, card, embedder=False)
    assert [(g.gate, g.verdict) for g in result.gates if g.verdict is not None] == []
    assert result.invented_gates == []


def test_a_clause_in_two_gates_words_of_equal_weight_names_neither() -> None:
    # "understand" is in gate 1's alias, "competitive" in gate 3's name: neither wins, and the clause does not inherit
    # the gate of the clause before it
    card = compiled_card(MUNGER).card
    clause = "we understand how it stays competitive"
    assert gate_of_clause(card, clause) is None and gate_of_clause(card, clause, ties=True) is not None
    text = f"The operator is easy to understand (pass), and {clause} (pass).\n\nINVEST."
    assert read_gates(text, MUNGER) == [(1, "PROCEED")]


def test_a_name_word_outweighs_an_element_word() -> None:
    # "capital" is in gate 2's name (weight 3), "earns" in gate 5's elements and inputs (owner earnings, weight 2)
    text = "The operator is easy to understand (pass), earns 17% on capital (pass).\n\nINVEST."
    assert read_gates(text, MUNGER) == [(1, "PROCEED"), (2, "PROCEED")]


def test_an_appraisal_verdict_has_no_verdict_span_and_says_how() -> None:
    text = "The advantage behind its margins is eroding as the patents lapse.\n\nDECLINE."
    result = parse_response(text, MUNGER, embedder=False)
    (gate,) = result.gates
    assert (gate.gate, gate.verdict, gate.verdict_span, gate.how) == (3, "REJECT", None, "substance+appraisal")
    assert any("'eroding'" in note for note in result.notes)


@pytest.mark.parametrize(("text", "expected"), [
    ("the story is not broken", [("broken", "PROCEED")]),
    ("nothing in the story has broken", [("has broken", "PROCEED")]),
    ("the moat is not merely durable", [("durable", "PROCEED")]),
    ("the thesis no longer holds", [("no longer holds", "REJECT")]),
    ("the trade is going against us", [("going against us", "REJECT")]),
    ("the price is too rich", [("too rich", "REJECT")]),
    ("unacceptable emissions", []),
    ("whether it holds is unclear", []),
    ("Graham stresses patience, margin of safety and Mr. Market", []),
    ("it leaves a wide margin of safety", [("a wide margin of safety", "PROCEED")]),
])
def test_appraisal_polarity_and_negation_scope(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(text[a:b], v) for a, b, v in appraisals(text, 0, len(text), None)] == expected


def test_prose_vocabulary_keeps_only_each_gates_own_words() -> None:
    vocab = prose_vocabulary(compiled_card(MUNGER).card)
    owners = {}
    for gate, words in vocab.items():
        for word in words:
            owners.setdefault(word, set()).add(gate)
    assert all(len(gates) == 1 for gates in owners.values())
    # a name word another gate's description also holds leans to the gate it names, by the difference in weight
    sizing = prose_vocabulary(compiled_card(SIZE).card)
    assert sizing[1].get("thesi") == 2 and all("thesi" not in sizing[g] for g in (2, 3, 4))
    assert all("lynch" not in words for words in prose_vocabulary(compiled_card(STORY).card).values())  # the investor's name
    assert vocab[2]["capital"] == 3 and vocab[2]["converg"] == 2 and vocab[3]["erod"] == 1  # name, element, description
    assert "busines" not in vocab[1]  # a word every card uses is no gate's
