"""s58speedver: a ``require:`` constraint that ``ipb verify`` evaluates directly (no memo: it reads a computed value,
or its memo by literals missed too often in its trial) is its compiled function's answer, called without
``Constraint.broken``'s two extra calls; the answers are those of ``Constraint.broken``.
"""

from __future__ import annotations

from decimal import Decimal

import ipb.perturb.verify as verify_mod
from ipb.engine import card as card_mod
from ipb.engine.registry import compiled_card
from ipb.perturb.verify_memo import MEMO_TRIAL, ConstraintMemo
from perturb_support import BUFFETT

FACTS = {"business_model": "subscription_software", "sector": "enterprise_software", "arr": "$5B",
         "gross_margin": "50%", "net_income": "$1B", "revenue_growth": "20%", "revenue_retention": "95%",
         "ev_to_arr": "10x", "macro_regime": "expansion"}


def test_dropped_memos_evaluate_the_compiled_function_with_the_same_answers(monkeypatch):
    """Hand case: 300 scenarios with a new net income each (the rest fixed, as in test_verify_literal_keys). After
    the trial the constraints reading net income have no memo; from then on ``Constraint.broken`` is called for
    none of them (their compiled functions answer), and the answers stay those of ``Constraint.broken``: by hand,
    gross profit is $5B x 50% = $2.5B and the 45% net margin bound $2.25B, so net income above $2.25B breaks
    ``net_margin_plausible`` and above $2.5B ``net_income_within_gross_profit`` too."""
    card = compiled_card(BUFFETT).card
    checker = verify_mod._Checker(schema=False)
    memo = ConstraintMemo()
    rows = []
    for i in range(MEMO_TRIAL + 44):
        literals: dict = {}
        typed, _ = checker.typed(card, {**FACTS, "net_income": f"${1000 + 10 * i}M"}, [], literals)
        memo.broken(card, typed, literals)
    dropped = {p[0].id for p in memo._cards[id(card)][2] if p[2] is None}
    assert {"net_income_within_gross_profit", "net_margin_plausible"} <= dropped
    called: list[str] = []
    real = card_mod.Constraint.broken

    def broken(self, facts):
        called.append(self.id)
        return real(self, facts)
    monkeypatch.setattr(card_mod.Constraint, "broken", broken)
    answers = []
    for income in ("$2,200M", "$2,300M", "$2,600M", "-$6B"):
        literals = {}
        typed, _ = checker.typed(card, {**FACTS, "net_income": income}, [], literals)
        rows.append(typed)
        answers.append([k.id for k in memo.broken(card, typed, literals)])
    assert not set(called) & dropped, called
    monkeypatch.setattr(card_mod.Constraint, "broken", real)
    assert answers == [[k.id for k in card.constraints if k.broken(typed)] for typed in rows]
    assert answers[0] == []
    assert answers[1] == ["net_margin_plausible"]
    assert answers[2] == ["net_income_within_gross_profit", "net_margin_plausible"]
    # -$6B is below -1 x revenue ($5B): the net margin rule's other side
    assert "net_margin_plausible" in answers[3]
    assert rows[3]["net_income"] == Decimal("-6E9")
