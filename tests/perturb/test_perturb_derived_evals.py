"""How often Greenblatt's derived place is computed (s34slow, issue 18: 224-285 s for 1,000 items of the card).

The place (``combined_rank_from_the_two_yields``, a long exact expression) was computed ~215 times an item,
most of them for probes of a feasible-set search that a rule reading no derived input already refused, and each
computation read ``ebit`` 11 times (the same ``max(ebit, $0)`` written nine times). The counts here are calls,
not seconds; each bound fails on the code before s34slow (215 an item, 11 reads).
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from ipb.engine import card as card_module
from ipb.engine.registry import compiled_card
from ipb.perturb import Job, generate
from perturb_support import SCENARIOS
from tests.engine.reads_support import CountingReads

CARD = "greenblatt_magic_formula_screen"
BASE = SCENARIOS / CARD / "decline_outside_top_group.yaml"


def _derive() -> card_module.Constraint:
    return next(k for k in compiled_card(CARD).card.constraints if k.derive == "combined_rank_position")


def test_one_computation_of_the_place_reads_each_fact_once_per_distinct_call():
    """EBIT appears in two distinct calls (max(ebit, $0) and max(-ebit, $0)): two reads, not eleven; capital's two
    inputs in one call (max(nwc + nfa, $1M)), written eleven times: one read each (11 each before); the enterprise
    value is no call's argument but a name in two fourth powers and a divisor: 9 reads, as before. The value is the hand-worked
    place: y = 5%, c = 25%: r_e = 2400 / (1 + (5/7)^4) = 1904.3, r_c = 2400 / 2 = 1200, mean 1552.2 -> 1552."""
    facts = CountingReads(ebit=D("5e8"), enterprise_value=D("1e10"), net_working_capital=D("1e9"), net_fixed_assets=D("1e9"))
    assert _derive().value_for(facts) == 1552
    assert facts.reads == {"ebit": 2, "enterprise_value": 9, "net_working_capital": 1, "net_fixed_assets": 1}


def test_the_place_is_computed_at_most_375_times_an_item(monkeypatch: pytest.MonkeyPatch):
    """20 items from the first base at seed 0. On the card as s34slow measured it: 4,289 computations (214 an item)
    before its change, 2,441 (122) after. The card's two stop-34 rules (tangible capital vs EBIT, market cap vs
    EBIT) refuse more draws, so more probes: 9,245 (462 an item) on the code before s34slow, 5,814 (291) after
    (measured by the lead at merge); the bound of 375 an item sits between (memos warmed by other tests only
    lower it)."""
    calls = [0]
    original = card_module.Constraint.value_for

    def counted(self: card_module.Constraint, facts: object, exact: bool = False) -> object:
        if self.derive == "combined_rank_position":
            calls[0] += 1
        return original(self, facts, exact)  # type: ignore[arg-type]

    monkeypatch.setattr(card_module.Constraint, "value_for", counted)
    result = generate(Job((CARD,), str(BASE), 0), 20)
    assert len(result.lines) == 20
    assert 0 < calls[0] <= 375 * 20, calls[0]
