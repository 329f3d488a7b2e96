"""A gate's name asked about is not its verdict (issue 13, "verdict given to the neighbouring gate"): an appraisal
word that is part of a gate's name or alias ("a *sensible* price", "a *durable* competitive advantage", "an
*attractive* price") inside a question names the gate; it does not judge it. Read as a verdict, it gave the asked-about
gate the appraisal of its own name and pushed the paragraph's real verdict to its neighbour. Rules only (no embedder).
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

BUFFETT = "buffett_acquisition_checklist"


def _read(text: str) -> list[tuple[int, str | None]]:
    return [(g.gate, g.verdict) for g in parse_response(text, BUFFETT, embedder=False).gates]


@pytest.mark.parametrize("text, gate", [
    ("Last, is it selling at a sensible price. The market wants $5.1bn for a business we value at $4.2bn.", 5),
    ("Is it trading at an attractive price? The market wants $5.1bn for a business we value at $4.2bn.", 5),
    ("And number two, does it have a durable competitive advantage. Customers leave after a year.", 2),
    ("So, can they keep a durable competitive advantage? Three rivals launched cheaper copies this spring.", 2),
])
def test_an_appraisal_inside_a_gate_name_asked_about_is_no_verdict(text: str, gate: int) -> None:
    assert _read(text) == [(gate, None)]


@pytest.mark.parametrize("text, read", [
    ("The shares sell at a sensible price: 30% below our value.", [(5, "PROCEED")]),
    ("That is not a margin of safety, that is paying twenty percent more than it is worth.", [(5, "REJECT")]),
    ("There is no durable competitive advantage here.", [(2, "REJECT")]),
])
def test_the_same_words_stated_stay_a_reading(text: str, read: list[tuple[int, str]]) -> None:
    assert _read(text) == read


def test_the_asked_gate_no_longer_takes_the_paragraphs_verdict_from_its_neighbour() -> None:
    text = ("And number four, is it selling at a sensible price. We value it at $4.2bn and the market wants $5.1bn. "
            "That is not a margin of safety.")
    assert _read(text) == [(5, "REJECT")]
