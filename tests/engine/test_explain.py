"""``ipb explain`` (issue 17, item 2): the sub-expressions that decided each gate, with their values.

Values are worked by hand from the bundled cards' criteria.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.explain import explain
from ipb.engine.registry import compiled_card

M = Decimal(10) ** 6


def test_a_rejected_comparison_shows_each_operand_with_its_value():
    # NCAV = 45 - 12 - 3 = $30M; two-thirds of it $20M; $25M <= $20M is false -> REJECT
    e = explain(compiled_card("graham_net_net_screen"),
                {"market_value": 25 * M, "current_assets": 45 * M, "total_liabilities": 12 * M, "preferred_stock": 3 * M})
    gate = e.gates[0]
    assert gate.verdict == "REJECT" and gate.note == "kill: price_above_two_thirds_ncav"
    ((label, part),) = gate.criteria
    assert (label, part.shown, part.value) == ("proceed", "market_value $25M <= 2/3 * ncav $20M", False)
    assert [(p.shown, p.value) for p in gate.computed] == [
        ("ncav = current_assets - total_liabilities - preferred_stock", 30 * M), ("price_ceiling = 2/3 * ncav", 20 * M)]
    # gate 2 was never reached; its unknown fact is marked
    assert e.gates[1].lines()[1:] == ["  reject: net_income ? < $0: unknown", "  unknown facts: net_income"]
    assert e.outcome == "DECLINE"


def test_an_inconclusive_gate_names_the_missing_fact_that_would_decide_it():
    # preferred stock unknown -> NCAV unknown. Tried on the values the card's rules leave: since s54rfix the
    # preferred stock is at most the current assets ($45M; preferred_within_current_assets), so [$0, $45M], not its
    # whole range [$0, $100M]: $0 gives NCAV $33M, ceiling $22M, $15M <= $22M PROCEED; $45M gives NCAV -$12M ->
    # REJECT. (Before: $0, $50M and $100M, the last two above the current assets.)
    e = explain(compiled_card("graham_net_net_screen"),
                {"market_value": 15 * M, "current_assets": 45 * M, "total_liabilities": 12 * M, "net_income": M})
    gate = e.gates[0]
    assert gate.verdict == "INCONCLUSIVE"
    assert gate.unknown == ["preferred_stock"]
    assert gate.deciders == {"preferred_stock": [("$0", "PROCEED"), ("$45M", "REJECT")]}
    assert "  proceed: market_value $15M <= 2/3 * ncav ?: unknown" in gate.lines()


def test_a_compound_criterion_is_broken_into_its_comparisons():
    e = explain(compiled_card("munger_opportunity_evaluation"), {"return_on_capital": Decimal("0.20")})
    gate = e.gates[0]
    label, part = gate.criteria[1]
    assert label == "proceed" and part.value is None
    assert [(p.shown, p.value) for p in part.parts] == [
        ("return_on_capital 20% >= return_on_capital_floor 15%", True),
        ('competitive_advantage ? == "durable"', None)]
    assert gate.deciders == {"competitive_advantage": [("durable", "PROCEED"), ("eroding", "REJECT"), ("none", "REJECT")]}
    # a bool gate: only the value that rejects decides it alone
    assert e.gates[1].deciders == {"bias_driven_thesis": [("true", "REJECT")], "incentives_aligned": [("false", "REJECT")]}


def test_explain_command_text_and_json():
    runner = CliRunner()
    args = ["explain", "graham_net_net_screen", "--set", "market_value=$25M", "--set", "current_assets=$45M",
            "--set", "total_liabilities=$12M", "--set", "preferred_stock=$3M"]
    text = runner.invoke(app, args, catch_exceptions=False)
    assert text.exit_code == 0
    assert "proceed: market_value $25M <= 2/3 * ncav $20M: false" in text.output
    assert "Final verdict: DECLINE (trigger: gate_1_reject)" in text.output
    data = json.loads(runner.invoke(app, [*args, "-f", "json"], catch_exceptions=False).output)
    assert data["gates"][0]["criteria"][0]["value"] == "false"
    assert data["gates"][1]["unknown"] == ["net_income"]


def test_what_if_values_respect_the_cards_constraints():
    # Regression (new-user report 2, finding 10): explain tried operating cash flow at the top of its range
    # ($3B on $1B of assets) although the card requires operating_cash_flow <= total_assets.
    # Test card: cfo range [-$200M, $600M] step $20M, constraint cfo <= total_assets; assets $500M here.
    # Trials: -$200M (holds), $200M (mid, holds), $600M (breaks) -> refused; the nearest grid value that holds
    # is $500M (= -$200M + 35 * $20M). Gate positive_cfo: cfo > 0.
    from pathlib import Path

    card = compiled_card(str(Path(__file__).resolve().parents[1] / "perturb" / "cards" / "fscore_new_author.yaml"))
    facts = {"net_income": 30 * M, "total_assets": 500 * M, "revenue": 1200 * M, "current_ratio": Decimal("1.8"),
             "current_ratio_prior": Decimal("1.5"), "shares_issued": False}
    e = explain(card, facts)
    gate = e.gates[1]
    assert gate.verdict == "INCONCLUSIVE"
    assert gate.deciders == {"operating_cash_flow": [("-$200M", "REJECT"), ("$200M", "PROCEED"), ("$500M", "PROCEED")]}
    assert gate.refused == {"operating_cash_flow": [("$600M", ["cfo_below_assets"])]}
    assert ("  not tried for operating_cash_flow (the card's constraints rule them out with the known facts): "
            "$600M (breaks cfo_below_assets)") in gate.lines()
    doc = e.to_dict()["gates"][1]
    assert doc["refused"] == {"operating_cash_flow": [{"value": "$600M", "breaks": ["cfo_below_assets"]}]}
    # with no constraint in play (assets $3B) every trial value is tried and nothing is refused
    wide = explain(card, {**facts, "total_assets": 3000 * M}).gates[1]
    assert wide.refused == {} and [v for v, _ in wide.deciders["operating_cash_flow"]] == ["-$200M", "$200M", "$600M"]


# -- stop 33 (s33user): where the missing fact's grid switches the gate, not only three probes of its range

TEMPLETON = Path(__file__).resolve().parents[1] / "perturb" / "cards" / "templeton_new_user.yaml"


def test_an_inconclusive_gate_names_the_boundary_of_its_missing_fact():
    # future P/E = $18 / eps <= 5x holds from eps = $3.6 (18 / 3.6 = 5 exactly) on the $0.1 grid; $3.5 gives
    # 5.14x. Before, explain tried $0.1 (REJECT) and $18 (PROCEED) and left the author to find $3.6.
    facts = {"market_sentiment": "pessimistic", "share_price": Decimal(18), "five_year_high": Decimal(45),
             "debt_to_equity": Decimal("0.6"), "position_weight": Decimal("0.04")}
    e = explain(compiled_card(str(TEMPLETON)), facts)
    gate = e.gates[2]
    assert gate.verdict == "INCONCLUSIVE"
    assert gate.deciders == {"eps_in_five_years": [("$0.1", "REJECT"), ("$18", "PROCEED")]}
    assert gate.boundaries == {"eps_in_five_years": [(("$3.5", "REJECT"), ("$3.6", "PROCEED"))]}
    assert ("  eps_in_five_years switches it between neighbouring values of its grid: eps_in_five_years = $3.5 "
            "-> REJECT; eps_in_five_years = $3.6 -> PROCEED") in gate.lines()
    doc = e.to_dict()["gates"][2]
    assert doc["boundaries"] == {"eps_in_five_years": [[{"value": "$3.5", "verdict": "REJECT"},
                                                        {"value": "$3.6", "verdict": "PROCEED"}]]}


def test_the_net_net_boundary_is_hand_worked():
    # $15M <= 2/3 * ($45M - $12M - preferred) holds while preferred <= $10.5M: $10M PROCEED, $11M REJECT
    e = explain(compiled_card("graham_net_net_screen"),
                {"market_value": 15 * M, "current_assets": 45 * M, "total_liabilities": 12 * M, "net_income": M})
    assert e.gates[0].boundaries == {"preferred_stock": [(("$10M", "PROCEED"), ("$11M", "REJECT"))]}
    # a gate whose tried values all agree has no boundary to report
    e = explain(compiled_card("graham_net_net_screen"),
                {"market_value": 25 * M, "current_assets": 45 * M, "total_liabilities": 12 * M})
    assert e.gates[0].deciders["preferred_stock"][0][1] == "REJECT" and e.gates[0].boundaries == {}


def test_a_tried_value_off_the_grid_still_brackets_the_boundary():
    # stop 33 review: the right end's "ceiling" was Decimal's -(-x // 1), which truncates toward zero, i.e. a floor.
    # With $10.7M tried (REJECT: 2/3 * $22.3M = $14.87M < $15M), its floor $10M on the $1M grid is PROCEED again,
    # and the $10M / $11M switch went unreported.
    from ipb.engine._trials import _boundaries

    card = compiled_card("graham_net_net_screen")
    facts = {"market_value": 15 * M, "current_assets": 45 * M, "total_liabilities": 12 * M}
    got = _boundaries(card, facts, "preferred_stock", 1, [(Decimal(0), "PROCEED"), (Decimal("10.7e6"), "REJECT")])
    assert got == [((Decimal("10000000"), "PROCEED"), (Decimal("11000000"), "REJECT"))]
