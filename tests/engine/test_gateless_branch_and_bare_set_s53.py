"""Small findings (branch s53lint, s53newuser finding 12, the card-author part).

- ``same-verdicts`` warned on ``negative: {gates: [], pass: NO_BET, fail: NO_BET}``, a branch with no gates, which
  the schema makes state both outcomes and which can only be written so: no warning there now (fails without the
  fix); a branch with gates and one outcome still warns.
- ``--set payoff=2`` reads 2x while ``--set price=600`` is refused: kept, and documented (README, "Facts and --set
  values"): a ratio's or a multiple's unit does not change its number, money's scale would be a guess.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from ipb.engine.card import load_card_text
from ipb.engine.lint import lint_card
from ipb.engine.scenario import parse_assignment
from ipb.errors import LoadError

CARD = """\
id: s53_branch
investor: Test Investor
name: Branches
topology_type: conditional_branch
gate_logic: regime_dependent
decisive_default: true
topology_rationale: The edge decides which test applies.
vintage: {{start: 2000}}
sources: [{{tier: 1, document: Notes, year: 2000}}]
outcomes: {{pass: BET, fail: NO_BET}}
inputs:
  edge_size: {{type: ratio}}
  payoff: {{type: multiple}}
  price: {{type: money}}
gates:
  - id: edge_gate
    name: Edge
    classify:
      - {{regime: negative, when: edge_size <= 0%}}
      - {{regime: clear}}
    branches:
      negative: {negative}
      clear: {{gates: [size], pass: BET, fail: NO_BET}}
    required_elements: [edge]
  - id: size
    name: Size
    proceed: payoff >= 1x and price > $0
    required_elements: [size]
"""


def _same(negative: str) -> list[str]:
    card = load_card_text(CARD.format(negative=negative), "s53_branch.yaml")
    return [w.name for w in lint_card(card) if w.rule == "same-verdicts"]


def test_a_branch_without_gates_names_one_outcome_without_a_warning():
    assert _same("{gates: [], pass: NO_BET, fail: NO_BET}") == []


def test_a_branch_whose_gates_cannot_change_the_outcome_still_warns():
    assert _same("{gates: [size], pass: NO_BET, fail: NO_BET}") == ["negative"]


def test_set_reads_a_bare_multiple_and_refuses_bare_money():
    card = load_card_text(CARD.format(negative="{gates: [], pass: NO_BET, fail: NO_BET}"), "s53_branch.yaml")
    assert parse_assignment("payoff=2", card) == ("payoff", Decimal("2"))  # the number 2x is
    assert parse_assignment("payoff=2x", card) == ("payoff", Decimal("2"))
    assert parse_assignment("edge_size=0.05", card) == ("edge_size", Decimal("0.05"))  # 5%
    with pytest.raises(LoadError, match=r"price is money; '600' has no currency"):
        parse_assignment("price=600", card)
