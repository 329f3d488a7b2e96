"""Lint ``source-year``: a source dated after the card's vintage end (issue 15, defect 11)."""

from __future__ import annotations

import pytest

from ipb.engine.card import load_card_text

CARD = """\
id: source_year_demo
investor: Test Investor
name: Source year demo
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: One test.
vintage: {{start: 1977, end: 1990}}
sources:
  - {{tier: 1, document: Early book, year: 1989}}
  - {{tier: 1, document: Later book, year: {card_year}{card_mark}}}
inputs:
  a: {{type: number}}
gates:
  - id: only
    name: Only test
    proceed: a > 0
    required_elements: [a]
    source: {{tier: 1, document: Gate book, year: {gate_year}{gate_mark}}}
"""


@pytest.mark.parametrize(
    ("card_year", "card_mark", "gate_year", "gate_mark", "warned"),
    [
        (1990, "", 1989, "", []),  # the vintage end itself is fine
        (1993, "", 1989, "", [(10, "Later book")]),
        (1993, ", after_vintage: retrospective", 1989, "", []),
        (1989, "", 2001, "", [(18, "Gate book")]),
        (1989, "", 2001, ", after_vintage: posthumous", []),
    ],
)
def test_a_source_after_the_vintage_end_is_warned_unless_marked(card_year, card_mark, gate_year, gate_mark, warned):
    card = load_card_text(CARD.format(card_year=card_year, card_mark=card_mark, gate_year=gate_year, gate_mark=gate_mark))
    got = [(w.line, w.name) for w in card.warnings if w.rule == "source-year"]
    assert got == warned
    for w in card.warnings:
        if w.rule == "source-year":
            assert "after the vintage end 1990" in w.render()


def test_an_open_vintage_never_warns():
    text = CARD.format(card_year=2020, card_mark="", gate_year=2021, gate_mark="").replace("end: 1990", "end: null")
    assert [w for w in load_card_text(text).warnings if w.rule == "source-year"] == []


def test_after_vintage_takes_only_the_three_reasons():
    from ipb.errors import IpbError

    with pytest.raises(IpbError):
        load_card_text(CARD.format(card_year=1993, card_mark=", after_vintage: because", gate_year=1989, gate_mark=""))
