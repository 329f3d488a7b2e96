"""Deck rules that chain (issue 18, stop 30; bug kind: a joint move that cannot reach past one rule).

The new user's deck base ties debt to equity to long-term debt over stock equity. A third rule
that ties those two to Graham's total assets (``total_assets`` between their sum and the sum
plus $100M) chains the deck: A ties B, B ties C. A joint move drew one partner with every other
input fixed, so the last partner had to meet both rules at once (two narrow bands that seldom
meet) and nothing moved: in 400 items (seed 7) the sector recipe made 6 of its 100 items
(426 of 456 attempts broke ``sector_matches_company_type`` and the debt rule together), against
100 of 100 on the base without the third rule. Partners now reach along the chain: the inputs
of deck rules that read a partner move after it, so the far end of the chain gives last.
"""

from __future__ import annotations

import json
from decimal import Decimal

from test_perturb_deck import CARD, DECK, _contradictions, _items, _money, _perturb, runner

from ipb.cli import app

CHAIN_RULE = """  - id: balance_sheet_adds_up
    require: total_assets >= long_term_debt + stock_equity and total_assets <= long_term_debt + stock_equity + $100M
    description: Total assets are the long-term debt and equity plus at most $100M of current liabilities.
"""


def _chain_base(tmp_path):
    text = DECK.read_text(encoding="utf-8")
    assert "  total_assets: $800M\n" in text
    base = tmp_path / "chain.yaml"
    base.write_text(text.replace("  total_assets: $800M\n", "  total_assets: $850M\n") + CHAIN_RULE,
                    encoding="utf-8")
    return base


def _adds_up(facts: dict) -> bool:
    """Our own reading of the third rule."""
    total = _money(facts["long_term_debt"]) + _money(facts["stock_equity"])
    return total <= _money(facts["total_assets"]) <= total + Decimal("100E6")


def test_a_chained_deck_keeps_every_rule_and_the_sector_recipe_makes_its_share(tmp_path):
    out, report = tmp_path / "chain.jsonl", tmp_path / "report.json"
    result = _perturb(_chain_base(tmp_path), out, 400, "--report", str(report))
    assert result.exit_code == 0, result.output
    items = _items(out)
    assert [i["id"] for i in items if _contradictions(i["scenario"]["facts"])] == []
    assert [i["id"] for i in items if not _adds_up(i["scenario"]["facts"])] == []
    recipes = {r["recipe"]: r for r in json.loads(report.read_text(encoding="utf-8"))["recipes"]}
    assert recipes["sector"]["items"] >= 90, recipes["sector"]  # before: 6 (exhausted, 93% broke a rule)
    # the far end of the chain moved in some joint move (total assets recorded in details.tied)
    far = [i for i in items for op in i["manifest"]["operators"] if "total_assets" in op["details"].get("tied", {})]
    assert far, "total assets never moved with the debt and the equity"
    checked = runner.invoke(app, ["verify", "--card", f"weiss_dividend_growth_screen={CARD}", str(out)])
    assert checked.exit_code == 0, checked.output
    assert "0 breaking a card constraint" in checked.output


def test_a_chained_deck_gives_the_same_bytes_in_1_and_2_workers(tmp_path):
    base = _chain_base(tmp_path)
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert _perturb(base, one, 300).exit_code == 0
    assert _perturb(base, two, 300, "--workers", "2").exit_code == 0
    assert one.read_bytes() == two.read_bytes()
