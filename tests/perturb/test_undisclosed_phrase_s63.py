"""An undisclosed bool whose ``phrase:`` asks is named by that question's clause (s62 new user N14, s63join).

Bug kind: a name in words where the card gives a natural one. Fisher's ``integrity_doubts`` (no label, the phrase
"Has management's integrity towards shareholders been called into question? {value}.") was listed as "the
integrity doubts" in the question's not-disclosed sentence.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app
from ipb.perturb.verify import verify_items
from tests.engine.card_support import screener_card_head

runner = CliRunner()

CARD = screener_card_head("s63_integrity_screen", "Integrity screen", "Growth, then integrity.") + """\
inputs:
  expected_sales_growth: {type: ratio, description: expected annual sales growth, range: [-10%, 40%], step: 1%}
  integrity_doubts:
    type: bool
    phrase: "Has management's integrity towards shareholders been called into question? {value}."
gates:
  - id: growth
    name: Growth
    proceed: expected_sales_growth >= 10%
    kill_criterion: no_growth
    required_elements: [sales growth]
  - id: integrity
    name: Integrity
    proceed: not integrity_doubts
    kill_criterion: doubtful_integrity
    required_elements: [integrity]
"""

BASE = ("id: S63-INTEGRITY\nlayer: L7\ncard: s63_integrity_screen\nas_of: \"1985-06-28\"\n"
        "facts:\n  expected_sales_growth: 15%\n")


def test_the_not_disclosed_sentence_names_a_bool_by_its_phrase(tmp_path: Path) -> None:
    # Before: "The integrity doubts are not disclosed." (the name in words, made plural by "doubts")
    card, base = tmp_path / "card.yaml", tmp_path / "base.yaml"
    card.write_text(CARD, encoding="utf-8")
    base.write_text(BASE, encoding="utf-8")
    out = tmp_path / "run" / "items.jsonl"
    result = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--n", "4", "--seed", "3",
                                 "--ops", "metric", "--out", str(out)])
    assert result.exit_code == 0, result.output
    questions = [json.loads(line)["question"] for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(questions) == 4
    for question in questions:
        assert ("Whether management's integrity towards shareholders has been called into question is not "
                "disclosed.") in question, question
        assert "integrity doubts" not in question
    assert verify_items(out).ok
