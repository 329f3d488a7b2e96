"""An outcome told as the decider's move to its destination (issue 13, final verdicts in the wild; :mod:`._destination`).

Short texts written for these tests, on the cards whose outcomes name a destination (Dalio's economic machine:
TILT_TO_COMMODITIES_AND_EMERGING_MARKETS, TILT_TO_NOMINAL_BONDS ...; the debt supercycle: ROTATE_TO_GOVERNMENT_BONDS,
ROTATE_TO_CASH_AND_GOLD; CPPIB: REDIRECT_TO_PASSIVE). The move is read in other verbs than the outcome's and with the
thing moved between the verb and the destination; a move that is nobody's decision (a textbook's, the market's), a
condition, or a destination that fits two outcomes equally reads nothing.
"""

from __future__ import annotations

import pytest

from ipb.engine.registry import compiled_card
from ipb.scoring._text import lowered, scan
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._destination import TRIGGERS, destination_outcomes

MACHINE = "dalio_economic_machine_positioning"
DEBT = "dalio_debt_supercycle_navigation"
CPPIB = "cppib_total_portfolio_active_strategy"


def _moves(card: str, text: str) -> list[str]:
    return [o for _, _, o in destination_outcomes(compiled_card(card).card, text, scan(text, lowered(text), TRIGGERS))]


@pytest.mark.parametrize(("card", "text", "want"), [
    (MACHINE, "So we shifted a third of the risk budget toward nominal government bonds last week.", "TILT_TO_NOMINAL_BONDS"),
    (MACHINE, "We are putting most of the tilt into equities and credit.", "TILT_TO_EQUITIES_AND_CREDIT"),
    (DEBT, "I've switched the whole sleeve into cash and some gold.", "ROTATE_TO_CASH_AND_GOLD"),
    (DEBT, "The fund will rotate its core holdings into long-dated government bonds.", "ROTATE_TO_GOVERNMENT_BONDS"),
    (CPPIB, "The sleeve is to be redirected to a passive mandate by June.", "REDIRECT_TO_PASSIVE"),
    (CPPIB, "Its capital will be wound down into the passive book.", "REDIRECT_TO_PASSIVE"),
], ids=["shifted-toward", "putting-into", "switched-into", "fund-will-rotate", "passive-redirected", "wound-down-into"])
def test_the_deciders_move_names_the_outcome(card: str, text: str, want: str) -> None:
    assert _moves(card, text) == [want]


@pytest.mark.parametrize(("card", "text"), [
    (MACHINE, "The textbook move is into nominal bonds when growth falls."),        # nobody's decision
    (MACHINE, "Last spring the index moved into equities and credit territory."),   # the market's move
    (DEBT, "We moved the meeting to Tuesday; bonds and gold came up."),            # the destination in another sentence
    (MACHINE, "We moved the cash into bonds."),                                     # "bonds" alone names no outcome whole
])
def test_no_decision_no_destination(card: str, text: str) -> None:
    assert _moves(card, text) == []


def test_final_verdict_from_a_move_in_running_prose() -> None:
    text = ("Growth is falling and inflation with it, so the quadrant favours bonds.\n\n"
            "What we did: we moved 40% of portfolio risk into nominal bonds and kept the rest spread out.\n")
    assert parse_response(text, MACHINE, embedder=False).final_verdict == "TILT_TO_NOMINAL_BONDS"


def test_a_conditional_move_is_no_final_verdict() -> None:
    text = ("Growth is falling and inflation with it, so the quadrant favours bonds.\n\n"
            "If the data confirm it next month, we will move 40% of portfolio risk into nominal bonds.\n")
    assert parse_response(text, MACHINE, embedder=False).final_verdict != "TILT_TO_NOMINAL_BONDS"
