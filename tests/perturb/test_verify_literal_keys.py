"""s57speedver: ``ipb verify`` remembers each constraint's answer by the literals the item states (``"$5B"``), not by
their engine values (``Decimal('5E+9')``, whose hash is worked out again at every lookup).

The answers must be those of evaluating each constraint on the typed facts: a literal determines its value (one
card, one checker), so equal literal keys give equal answers, and a new literal of an old value is evaluated again.
"""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings, strategies as st

import ipb.perturb.verify as verify_mod
from ipb.engine import card as card_mod
from ipb.engine.registry import compiled_card
from ipb.perturb.verify_memo import ConstraintMemo
from perturb_support import BUFFETT

#: A software business that keeps every Buffett constraint, in the literals an item states.
FACTS = {"business_model": "subscription_software", "sector": "enterprise_software", "arr": "$5B",
         "gross_margin": "50%", "net_income": "$1B", "revenue_growth": "20%", "revenue_retention": "95%",
         "ev_to_arr": "10x", "macro_regime": "expansion"}


def _counted(monkeypatch) -> list[str]:
    """The ids of the constraints evaluated from now on, in order."""
    seen: list[str] = []
    real = card_mod.Constraint.broken

    def broken(self, facts):
        seen.append(self.id)
        return real(self, facts)
    monkeypatch.setattr(card_mod.Constraint, "broken", broken)
    return seen


def test_typed_hands_back_each_input_fact_by_its_literal():
    card = compiled_card(BUFFETT).card
    literals: dict = {}
    typed, mine = verify_mod._Checker(schema=False).typed(
        card, {"arr": "$5B", "ev_to_arr": 10, "not_an_input": "x"}, [], literals)
    # a string is its own key; another literal is keyed with its type (1 and true are equal keys of a dict)
    assert literals == {"arr": "$5B", "ev_to_arr": (int, 10)}
    assert typed["arr"] == Decimal("5E9") and mine == 2


def test_net_income_above_gross_profit_is_broken_and_remembered_by_its_literals(monkeypatch):
    card = compiled_card(BUFFETT).card
    checker = verify_mod._Checker(schema=False)
    memo = ConstraintMemo()

    def ask(facts):
        literals: dict = {}
        typed, _ = checker.typed(card, facts, [], literals)
        return [k.id for k in memo.broken(card, typed, literals)]

    assert ask(FACTS) == []
    # hand-worked: gross profit is $5B x 50% = $2.5B; $3B of net income is above it, and 60% of revenue is above the
    # 45% net margin bound ($2.25B); nothing else reads net income against a bound it passes
    assert ask({**FACTS, "net_income": "$3B"}) == ["net_income_within_gross_profit", "net_margin_plausible"]
    seen = _counted(monkeypatch)
    assert ask({**FACTS, "net_income": "$3B"}) == ["net_income_within_gross_profit", "net_margin_plausible"]
    assert seen == [], "every constraint reads only inputs: the same literals are answered from the memo"
    # the same value written another way is a new key: evaluated again, to the same answer
    assert ask({**FACTS, "net_income": "$3,000M"}) == ["net_income_within_gross_profit", "net_margin_plausible"]
    assert "net_income_within_gross_profit" in seen and "business_model_fits_sector" not in seen


def test_the_literal_memo_is_apart_from_the_value_memo(monkeypatch):
    """A remembered answer by literal is never read for a call by value (and the other way): their keys differ."""
    card = compiled_card(BUFFETT).card
    checker = verify_mod._Checker(schema=False)
    memo = ConstraintMemo()
    literals: dict = {}
    typed, _ = checker.typed(card, FACTS, [], literals)
    assert memo.broken(card, typed, literals) == []
    seen = _counted(monkeypatch)
    assert memo.broken(card, typed) == []
    assert len(seen) == len(card.constraints) == 25


@settings(max_examples=200, deadline=None)
@given(st.lists(st.fixed_dictionaries({}, optional={
    "net_income": st.sampled_from(["$0", "$1B", "$1,000M", "$3B", "$900B", "-$2B"]),
    "arr": st.sampled_from(["$1B", "$5B", "$5,000M", "$8B"]),
    "gross_margin": st.sampled_from(["20%", "90%", "90.0%"]),
    "business_model": st.sampled_from(["subscription_software", "banking"]),
}), min_size=1, max_size=12))
def test_the_memo_by_literals_answers_as_evaluating_each_constraint(facts_list):
    compiled = compiled_card(BUFFETT)
    checker = verify_mod._Checker(schema=False)
    memo = ConstraintMemo(limit=3)  # emptied often
    for facts in facts_list + facts_list:
        literals: dict = {}
        typed, _ = checker.typed(compiled.card, facts, [], literals)
        assert memo.broken(compiled.card, typed, literals) == [k for k in compiled.card.constraints
                                                                if k.broken(typed)]


def test_a_memo_that_mostly_misses_is_dropped_after_its_trial_and_the_answers_stay():
    """Hand case: 300 scenarios with a new net income each (and the rest fixed). A constraint that reads net income
    misses on every lookup (256 of the first 256 > half): its memo is dropped and it is evaluated directly; one that
    reads only the business model and the sector misses once and keeps its memo."""
    from ipb.perturb.verify_memo import MEMO_TRIAL

    card = compiled_card(BUFFETT).card
    checker = verify_mod._Checker(schema=False)
    memo = ConstraintMemo()
    answers = []
    rows = []
    for i in range(300):
        literals: dict = {}
        typed, _ = checker.typed(card, {**FACTS, "net_income": f"${1000 + 10 * i}M"}, [], literals)
        rows.append(typed)
        answers.append(memo.broken(card, typed, literals))
    plans = {p[0].id: p for p in memo._cards[id(card)][2]}
    assert MEMO_TRIAL == 256
    income = plans["net_income_within_gross_profit"]
    assert income[2] is None and income[3] == income[4] == MEMO_TRIAL  # not counted once dropped
    sector = plans["business_model_fits_sector"]
    assert sector[2] is not None and len(sector[2]) == 1 and sector[3] == 300 and sector[4] == 1
    # hand-worked: gross profit is $2.5B and the 45% net margin bound $2.25B; net income runs $1.00B..$3.99B
    assert answers == [[k for k in card.constraints if k.broken(typed)] for typed in rows]
    first_broken = next(i for i, a in enumerate(answers) if a)
    assert 1000 + 10 * first_broken == 2260  # the first above $2.25B
