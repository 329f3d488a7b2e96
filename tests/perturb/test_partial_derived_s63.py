"""A base stating a derived fact and one of its sources but not the other (s62 new user N9, fixed by s63join).

Bug kind: a stated fact silently dropped. The user's Fisher card derives ``operating_margin = operating_income /
sales``; a base stating income $36M and a 12% margin but no sales lost the margin in 27 of 40 items (every
``complete`` dropped a derived input with an unknown source), and the margin gate went INCONCLUSIVE. Now the stated
margin is kept as stated (never derived from an unknown source), a draw that moves the income while the sales stay
unknown is refused (the pair would no longer agree through the implied sales), a draw of the sales derives the margin
from both, and ``ipb check`` warns (``derived-partial``).
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app
from ipb.perturb.verify import verify_items
from tests.engine.card_support import screener_card_head

runner = CliRunner()

CARD = screener_card_head("s63_margin_screen", "Margin screen", "The screener checks growth, then the margin.") + """\
inputs:
  expected_sales_growth: {type: ratio, description: expected annual sales growth, range: [-10%, 40%], step: 1%}
  sales: {type: money, description: annual sales, range: [$50M, $20B], step: $10M}
  operating_income: {type: money, description: annual operating income, range: [-$2B, $8B], step: $10M}
  operating_margin: {type: ratio, description: operating margin, range: [-50%, 50%], step: 0.1%}
constraints:
  - id: margin_from_income
    derive: operating_margin
    value: operating_income / sales
gates:
  - id: growth
    name: Growth
    proceed: expected_sales_growth >= 10%
    kill_criterion: no_growth
    required_elements: [sales growth]
  - id: margin
    name: Margin
    proceed: operating_margin >= 10%
    kill_criterion: thin_margin
    required_elements: [operating margin]
"""

BASE = ("id: S63-PARTIAL\nlayer: L7\ncard: s63_margin_screen\nas_of: \"1985-06-28\"\n"
        "facts:\n  expected_sales_growth: 15%\n  operating_income: $36M\n  operating_margin: 12%\n")


def _files(tmp_path: Path) -> tuple[Path, Path]:
    card, base = tmp_path / "card.yaml", tmp_path / "base.yaml"
    card.write_text(CARD, encoding="utf-8")
    base.write_text(BASE, encoding="utf-8")
    return card, base


def test_a_stated_derived_fact_with_an_unknown_source_is_kept_in_every_item(tmp_path):
    # Before: most items stated no margin (the 12% was dropped with sales unknown) and the margin gate was
    # INCONCLUSIVE. Hand-worked: with sales unknown the pair stays $36M / 12% (implied sales $300M); where an item
    # states sales S, the margin is $36M-or-moved income over S, written to 0.1% (the step).
    card, base = _files(tmp_path)
    out = tmp_path / "run" / "items.jsonl"
    result = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--n", "30", "--seed", "2",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 30
    kept_pair = 0
    for record in records:
        facts = record["scenario"]["facts"]
        assert "operating_margin" in facts, facts  # stated in every item
        if "sales" not in facts:
            assert (facts["operating_income"], facts["operating_margin"]) == ("$36M", "12%"), facts
            kept_pair += 1
        else:
            income, sales = (_money(facts[n]) for n in ("operating_income", "sales"))
            margin = Decimal(facts["operating_margin"].rstrip("%")) / 100
            assert abs(margin - income / sales) <= Decimal("0.0005"), facts  # half the 0.1% step
    assert kept_pair > 0
    assert all("INCONCLUSIVE" not in json.dumps(r["gold"]) for r in records if "gold" in r)
    assert verify_items(out).ok


def _money(text: str) -> Decimal:
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("-$")
    scale = {"K": Decimal(10) ** 3, "M": Decimal(10) ** 6, "B": Decimal(10) ** 9}.get(digits[-1], Decimal(1))
    return sign * Decimal(digits.rstrip("KMB")) * scale


def test_check_warns_of_a_derived_fact_stated_without_a_source(tmp_path):
    card, base = _files(tmp_path)
    result = runner.invoke(app, ["check", str(card), str(base)])
    text = " ".join(result.output.split())
    assert result.exit_code == 0, text
    assert (f"{base}:8:21: warning: fact operating_margin is derived (constraint margin_from_income) but stated while "
            "its source sales is not: ipb perturb keeps it as stated, never derives it from an unknown source, and "
            "refuses draws that move operating_income without sales; state sales to let it move with its sources"
            ) in text
