"""Regression (s39user, a new user's card): two inputs that a question states in the same words.

An F-score card described ``leverage`` as "long-term debt over average total assets" and ``leverage_prior`` as
"long-term debt over average total assets, prior year". A label is read from a description's first clause, which
the comma ends, so both facts were written "The ratio of long-term debt to average total assets is N%." and every
item asked a model to compare two numbers it could not tell apart (gate "Falling leverage" reads exactly that
pair). ``ipb check``, ``ipb perturb`` and ``ipb verify`` all passed. ``ipb check`` now reports it at the second
input's name (file:line:col) and ``ipb perturb`` refuses the card before any work; a ``label:`` mends it.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app
from ipb.perturb.frame import build_frame
from ipb.perturb.question_facts import item_facts, read_question_facts

runner = CliRunner()

CARD = """\
id: leverage_pair_screen
investor: Joseph Piotroski
name: Leverage Pair Screen
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: Two tests in order.
vintage: {start: 2000, end: null}
sources:
  - {tier: 1, document: "Value Investing", year: 2000}
outcomes: {pass: BUY, fail: AVOID}
inputs:
  roa:
    type: ratio
    description: return on assets
    range: [-20%, 30%]
    step: 0.5%
  leverage:
    type: ratio
    description: long-term debt over average total assets
    range: [0%, 80%]
    step: 1%
  leverage_prior:
    type: ratio
    description: long-term debt over average total assets, prior year
    range: [0%, 80%]
    step: 1%
gates:
  - id: positive_roa
    name: Positive return on assets
    proceed: roa > 0%
    required_elements: [ROA]
  - id: falling_leverage
    name: Falling leverage
    proceed: leverage < leverage_prior
    required_elements: [leverage change]
"""

BASE = """\
card: leverage_pair_screen
expected:
  verdict: AVOID
  verdicts: [PROCEED, REJECT]
facts:
  roa: 6%
  leverage: 30%
  leverage_prior: 28%
"""


def _files(tmp_path: Path, card: str = CARD) -> tuple[Path, Path]:
    (tmp_path / "card.yaml").write_text(card)
    (tmp_path / "base.yaml").write_text(BASE)
    return tmp_path / "card.yaml", tmp_path / "base.yaml"


def test_check_reports_the_pair_at_the_second_input(tmp_path):
    card, base = _files(tmp_path)
    result = runner.invoke(app, ["check", str(card), str(base)])
    assert result.exit_code == 1, result.output
    line = CARD.splitlines().index("  leverage_prior:") + 1  # 22
    assert f"card.yaml:{line}:3:" in result.output, result.output
    assert ("inputs 'leverage' and 'leverage_prior' are both stated as "
            "'The ratio of long-term debt to average total assets is {value}.'") in result.output


def test_perturb_refuses_the_card_and_writes_nothing(tmp_path):
    card, base = _files(tmp_path)
    out = tmp_path / "items.jsonl"
    result = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--n", "3", "--seed", "1",
                                 "--out", str(out)])
    assert result.exit_code == 1 and "card.yaml:22:3:" in result.output, result.output
    assert not out.exists()


def test_a_label_mends_it_and_the_questions_read_back(tmp_path):
    labelled = CARD.replace("    description: long-term debt over average total assets, prior year\n",
                            "    description: long-term debt over average total assets, prior year\n"
                            "    label: prior-year leverage\n")
    card, base = _files(tmp_path, labelled)
    assert runner.invoke(app, ["check", str(card), str(base)]).exit_code == 0
    out = tmp_path / "items.jsonl"
    result = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--n", "4", "--seed", "1",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    frame = build_frame([str(card)])
    for line in out.read_text().splitlines():
        item = json.loads(line)
        facts = item["scenario"]["facts"]
        paragraph = item["question"].split("\n")[0]
        assert f"The prior-year leverage is {facts['leverage_prior']}." in paragraph
        assert f"The ratio of long-term debt to average total assets is {facts['leverage']}." in paragraph
        assert read_question_facts(frame, item["question"]) == item_facts(frame, item)


def test_verify_reports_items_made_before_the_refusal(tmp_path, monkeypatch):
    """Items an older ipb wrote for such a card re-render to the same words, so ``ipb verify`` passed them; it now
    says why each cannot be read, and exits 1."""
    import ipb.cli.commands.perturb as perturb_command

    card, base = _files(tmp_path)
    monkeypatch.setattr(perturb_command, "_refuse_value_words", lambda cards: None)  # as before the refusal
    out = tmp_path / "items.jsonl"
    made = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--n", "3", "--seed", "1",
                               "--out", str(out)])
    assert made.exit_code == 0, made.output
    first = json.loads(out.read_text().splitlines()[0])
    assert first["question"].count("The ratio of long-term debt to average total assets is ") == 2
    monkeypatch.undo()
    result = runner.invoke(app, ["verify", str(out)])
    assert result.exit_code == 1, result.output
    assert "question: inputs 'leverage' and 'leverage_prior' are both stated as" in result.output
    assert "3 disagreeing with themselves" in result.output, result.output
