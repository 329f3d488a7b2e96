"""An L8 item over two cards named alike is refused before any work (s48break leftover 3, s49break).

Two cards of one investor with one name (``Test Investor: Division attack``) made an L8 question that listed
"(Test Investor: Division attack; Test Investor: Division attack)": a model could not tell the two frameworks
apart and an answer could not be read back to either card. ``ipb perturb`` now names both card ids and asks for
another name; no items file is written. Cards that differ in name still make L8 items.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app

runner = CliRunner()

CARD = """\
id: CARD_ID
investor: Test Investor
name: CARD_NAME
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: Tests in order.
decisive_default: true
vintage: {start: 2000}
sources: [{tier: 1, document: Test letter, year: 2000}]
inputs:
  earnings: {type: money, range: [-$10M, $10M], step: $1M}
  price: {type: money, range: [$0, $100M], step: $10M}
  moat: {type: bool}
gates:
  - id: yield_gate
    name: Yield
    compute:
      ey: earnings / price
    proceed: ey > 5%
    required_elements: [yield]
  - id: moat_gate
    name: Moat
    proceed: moat
    required_elements: [moat]
"""

BASE = """\
id: s49_base
card: s49_one
as_of: "2010-01-01"
facts:
  earnings: $5M
  price: $40M
  moat: true
"""


def _write(tmp_path: Path, second_name: str) -> list[str]:
    one = tmp_path / "one.yaml"
    two = tmp_path / "two.yaml"
    one.write_text(CARD.replace("CARD_ID", "s49_one").replace("CARD_NAME", "Division attack"))
    two.write_text(CARD.replace("CARD_ID", "s49_two").replace("CARD_NAME", second_name))
    base = tmp_path / "base.yaml"
    base.write_text(BASE)
    return ["perturb", "-c", str(one), "-c", str(two), "-b", str(base), "--n", "2", "--ops", "metric"]


def test_two_cards_named_alike_are_refused_with_both_ids(tmp_path):
    out = tmp_path / "items.jsonl"
    result = runner.invoke(app, [*_write(tmp_path, "division ATTACK"), "--out", str(out)])  # case differs only
    assert result.exit_code == 1, result.output
    assert "cards s49_one and s49_two are both named 'Test Investor: division ATTACK'" in result.output, result.output
    assert "give one of them another name" in result.output
    assert "Traceback" not in result.output
    assert not out.exists()
    assert not (tmp_path / "ipb-cards").exists()


def test_two_cards_named_apart_still_make_l8_items(tmp_path):
    out = tmp_path / "items.jsonl"
    result = runner.invoke(app, [*_write(tmp_path, "Division defence"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    assert len(lines) == 2
    assert "(Test Investor: Division attack; Test Investor: Division defence)" in lines[0]
