"""The card shown in README.md loads, compiles and behaves as the README says."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

from ipb.engine.card import load_card_text
from ipb.engine.execute import execute
from ipb.engine.graph import compile_card

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_card() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Writing a framework card", 1)[1]
    return re.search(r"```yaml\n(.*?)```", section, re.S).group(1)


def test_readme_card_runs():
    compiled = compile_card(load_card_text(readme_card(), "README.md"))
    facts = {"price": Decimal(200), "ncav": Decimal(300), "earnings_positive": True}
    assert execute(compiled, facts).outcome == "INVEST"
    facts["price"] = Decimal(201)
    trace = execute(compiled, facts)
    assert (trace.outcome, trace.trigger) == ("DECLINE", "gate_1_reject")
    trace = execute(compiled, {"price": Decimal(200), "ncav": Decimal(300)})
    assert trace.verdicts() == ["PROCEED", "INCONCLUSIVE"] and trace.outcome == "INVEST"
