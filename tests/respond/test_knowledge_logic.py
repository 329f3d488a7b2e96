"""The condition B/C logic line states how the engine runs the card (respond/knowledge.py ``_logic_sentence``).

Stop 47's blind writer (SOURCES-x.md, NBIM half (a)) found that the card text of a parallel conjunction card told
models "the first REJECT ends the analysis (later gates N/A)" while the engine (engine/execute.py, paper §7.3
parallel_threshold) runs every gate, so the gold of such a card has verdicts after a REJECT that the prompt told the
model not to give.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from ipb.engine.execute import execute
from ipb.engine.registry import bundled_card_paths, compiled_card
from ipb.engine.scenario import load_scenario
from ipb.respond.knowledge import card_text

ROOT = Path(__file__).resolve().parents[2]
CARDS = [compiled_card(str(p)).id for p in bundled_card_paths()]


def _logic_line(card_id: str) -> str:
    lines = [line for line in card_text(compiled_card(card_id).card).splitlines() if line.startswith("Logic:")]
    assert len(lines) == 1
    return lines[0]


def test_graham_seven_tests_line_says_every_gate_runs() -> None:
    line = _logic_line("graham_seven_tests_defensive")
    assert "evaluate every gate" in line
    assert "later gates N/A" not in line
    assert "DECLINE" in line


def test_glamour_stock_keeps_verdicts_after_the_dividend_kill() -> None:
    # Worked by hand from the scenario: 15 dividend years < 20 -> gate 4 REJECT; EPS 2.50 against 1.00 is +150%
    # (> one third) -> gate 5 PROCEED; P/E 100/2.50 = 40 > 15 -> gate 6 REJECT; P/B 8x and 40 x 8 = 320 > 22.5 -> gate 7
    # REJECT. Gate 5 after the gate 4 REJECT is what the old line told models to mark N/A.
    compiled = compiled_card("graham_seven_tests_defensive")
    scen = load_scenario(ROOT / "frameworks/scenarios/graham_seven_tests_defensive/glamour_growth_stock.yaml",
                         compiled.card)
    trace = execute(compiled, scen.facts)
    assert trace.verdicts()[3:] == ["REJECT", "PROCEED", "REJECT", "REJECT"]
    assert trace.outcome == "DECLINE"


def test_a_chain_still_says_the_first_reject_ends_it() -> None:
    line = _logic_line("buffett_acquisition_checklist")
    assert compiled_card("buffett_acquisition_checklist").card.topology_type == "linear_sequential"
    assert "the first REJECT ends the analysis" in line


@pytest.mark.parametrize("card_id", CARDS)
def test_no_card_says_later_gates_are_na_when_the_engine_runs_them(card_id: str) -> None:
    compiled = compiled_card(card_id)
    folder = ROOT / "frameworks" / "scenarios" / card_id
    runs_past_reject = False
    for path in sorted(folder.glob("*.yaml")):
        verdicts = execute(compiled, load_scenario(path, compiled.card).facts).verdicts()
        if "REJECT" in verdicts:
            after = verdicts[verdicts.index("REJECT") + 1:]
            runs_past_reject |= any(v != "N/A" for v in after)
    if runs_past_reject:
        assert "later gates N/A" not in _logic_line(card_id)
