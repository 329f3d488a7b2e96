"""A framework card handed over where a scenario is asked for says so once (s43user, a benchmark builder's first
``ipb perturb --card C --base frameworks/C.yaml``: thirteen "unknown field ... in the scenario" errors, one per card
field, and none said the file was a card).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli._app import app

ROOT = Path(__file__).resolve().parents[2]
CARD_ID = "graham_seven_tests_defensive"
CARD = ROOT / "frameworks" / f"{CARD_ID}.yaml"


def _gates_line() -> int:
    return next(n for n, line in enumerate(CARD.read_text(encoding="utf-8").splitlines(), 1) if line == "gates:")


@pytest.mark.parametrize("args", [
    ["run", CARD_ID, str(CARD)],
    ["perturb", "--card", CARD_ID, "--base", str(CARD), "--n", "2"],
])
def test_a_card_given_as_a_scenario_is_named_a_card_once(tmp_path: Path, args: list[str]) -> None:
    if args[0] == "perturb":
        args = [*args, "--out", str(tmp_path / "items.jsonl")]
    out = CliRunner().invoke(app, args)
    assert out.exit_code == 1
    assert f"{CARD}:{_gates_line()}:1: load error: this file is a framework card (it has gates), not a scenario" in out.output
    assert "unknown field" not in out.output and out.output.count("load error") == 1
    assert "Traceback" not in out.output
    assert list(tmp_path.iterdir()) == []  # no partial file


def test_a_scenario_with_a_gates_field_but_facts_is_still_a_scenario(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("card: graham_seven_tests_defensive\nfacts: {}\ngates: []\ninputs: []\n", encoding="utf-8")
    out = CliRunner().invoke(app, ["run", CARD_ID, str(path)])
    assert out.exit_code == 1 and "framework card" not in out.output and "unknown field 'gates'" in out.output
