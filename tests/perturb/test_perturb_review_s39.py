"""Regression (contradicting facts): the frequent kinds of review39 (issue 18, bar line 2; seed 9393).

The review (``/work/notes/review39.md``) read 20 items per card of 1,000-item runs (``ipb perturb --card CARD --base
<first base in ls order> --n 1000 --seed 9393``) and counted each problem kind over the whole run. Each kind taken
here is closed by a general rule of card data, checked on a reviewed item (by id, with its facts) that breaks it and
a real or worked neighbour the rule keeps:

1. S1, soros_reflexive_hypothesis_trade_construction (108 of 1,000): "have prices and events moved the way the trade
   bet? No" beside "2 successive moves in the trade's favour". ``a_failed_hypothesis_had_no_favourable_move``.
"""

from __future__ import annotations

import pytest

from perturb_support import assert_rule_case

SOROS = "soros_reflexive_hypothesis_trade_construction"

# review39 SOROS #2: not borne out, yet two favourable moves counted
_SOROS_A22 = {"confirmation_rounds": "2", "feedback_loop": "self_correcting", "hypothesis_confirmed": False,
              "initial_position": "5%", "loss_budget": "3%", "max_position": "25%", "prevailing_bias": "unclear",
              "stop_distance": "30.5%"}

CASES = [
    # S1: SOR-RHT-004-a22355d644c3cedb refused; the same trade with no move counted kept (the bundled
    # hypothesis_not_confirmed_abandon shape), and one move refused; a confirmed hypothesis with two moves kept
    (SOROS, "a_failed_hypothesis_had_no_favourable_move", _SOROS_A22, True),
    (SOROS, "a_failed_hypothesis_had_no_favourable_move", {**_SOROS_A22, "confirmation_rounds": "0"}, False),
    (SOROS, "a_failed_hypothesis_had_no_favourable_move", {**_SOROS_A22, "confirmation_rounds": "1"}, True),
    (SOROS, "a_failed_hypothesis_had_no_favourable_move", {**_SOROS_A22, "hypothesis_confirmed": True}, False),
]


@pytest.mark.parametrize("card, rule, facts, refused", CASES,
                         ids=[f"{c[1]}-{'refused' if c[3] else 'kept'}-{i}" for i, c in enumerate(CASES)])
def test_each_rule_refuses_its_item_and_keeps_its_neighbour(card, rule, facts, refused):
    assert_rule_case(card, rule, facts, refused)
