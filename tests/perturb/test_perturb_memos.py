"""The per-run memos of generation and verification answer as the uncached code does.

``constraint_broken`` remembers a constraint's answer by the values it reads:
over many random scenarios of every bundled card with constraints, sharing one
memo, it must equal :meth:`ipb.engine.card.Constraint.broken` on each. The
verify deck memo (condition C per deck of cards) must give the same problems
as computing each item's conditions afresh, an edited question included.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipb.perturb.frame import constraint_broken
from ipb.perturb.items import condition_problems, conditions

from tests.engine.test_columnar import CARDS, compiled, scenarios

WITH_CONSTRAINTS = [p for p in CARDS if compiled(p).card.constraints]


def test_some_bundled_cards_have_constraints() -> None:
    assert len(WITH_CONSTRAINTS) >= 10


@pytest.mark.parametrize("path", WITH_CONSTRAINTS, ids=lambda p: p.stem)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_memoised_constraint_checks_equal_direct_ones(path: Path, data: st.DataObject) -> None:
    card = compiled(path).card
    rows = data.draw(scenarios(card), label="scenarios")
    memo: dict = {}
    for facts in rows + rows:
        for k in card.constraints:
            assert constraint_broken(memo, k, facts) == k.broken(facts), (k.id, facts)


def test_deck_memo_gives_the_same_condition_problems() -> None:
    cards = [{"id": "a", "investor": "Warren Buffett", "content_hash": "11"},
             {"id": "b", "investor": "Howard Marks", "content_hash": "22"}]
    good = {"question": "Q1", "manifest": {"cards": cards},
            "conditions": conditions("Q1", ["Warren Buffett", "Howard Marks"], cards)}
    edited = {**good, "question": "Q2"}
    other_deck = {**good, "manifest": {"cards": [{**cards[0], "content_hash": "33"}, cards[1]]}}
    decks: dict = {}
    for item in (good, edited, other_deck, good):
        assert condition_problems(item, decks) == condition_problems(item)
    assert condition_problems(good, decks) == []
    assert condition_problems(edited, decks) == [
        "condition B context differs from the item's question and investors (edited after it was made?)"]
    assert condition_problems(other_deck, decks) == [
        "condition C context differs from the item's cards (edited after it was made?)"]
