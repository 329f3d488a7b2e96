"""A card of the user's own, outside the package, through inspect_ai and lm-evaluation-harness.

Regression (wrong count, issue 13 new-user finding, stop 30): ``ipb perturb --card my_card.yaml``
copies the card beside the items (``ipb-cards/<sha256>.yaml``) and ``ipb score`` finds it there,
but the inspect_ai task and the lm-eval hooks scored every answer to such an item 0 with "card
... does not exist" (inspect: unscored in the score's metadata; lm-eval: a silent 0), and
refused condition C outright. The card is Terry Smith's three rules, written for this test.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.registry import use_cards, use_items

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "new_user13"
CARD = FIXTURES / "cards" / "smith_fundsmith_three_rules.yaml"
BASE = FIXTURES / "cards" / "smith_consumer_staple.yaml"


@pytest.fixture()
def own_items(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """Two items of the user's card, made as the README says, in a folder of their own, and a
    faithful answer to each (item id -> text)."""
    from ipb.respond.synthetic import synthetic_responses

    out = tmp_path / "run" / "items.jsonl"
    result = CliRunner().invoke(app, ["perturb", "--card", str(CARD), "--base", str(BASE), "--n", "2", "--seed", "7",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert list((out.parent / "ipb-cards").glob("*.yaml")), "perturb copies the card beside the items"
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
    use_items(out, pin=False)
    answers = {r["item_id"]: r["response"] for r in synthetic_responses(items, corruptions=["none"], seed=0)}
    use_cards()  # forget every card folder: only what the integration itself registers may count
    yield out, answers
    use_cards()


def test_inspect_task_asks_condition_c_and_scores_gold_answers_to_an_own_card(own_items):
    own_items, answers = own_items
    pytest.importorskip("inspect_ai", reason="inspect_ai not installed (pip install 'ipb[inspect]')")
    from ipb.integrations.answers import score_answer
    from ipb.integrations.inspect_task import samples_for

    samples = samples_for(own_items, "A,C")
    assert len(samples) == 4
    assert any("Fundsmith" in str(m.content) for m in samples[1].input)  # condition C injects the card
    for sample in samples:
        item = sample.metadata["item"]
        scored = score_answer(item, answers[item["id"]])  # what the task's scorer runs, in the same process
        assert scored.status == "scored", scored.reason
        assert scored.values["verdict_acc"] == 1.0


def test_lm_eval_task_folder_carries_the_card_and_its_hooks_score_gold_answers(own_items, tmp_path):
    own_items, answers = own_items
    from ipb.integrations.lm_eval import write_task

    folder = tmp_path / "task"
    files = write_task(own_items, folder, conditions="A,C")
    copies = sorted((folder / "ipb-cards").glob("*.yaml"))
    assert [c.name for c in copies] == [c.name for c in sorted((own_items.parent / "ipb-cards").glob("*.yaml"))]
    assert set(copies) <= set(files)
    use_cards()  # lm-eval runs the hooks in its own process: nothing of the writer's registry carries over
    spec = importlib.util.spec_from_file_location("ipb_hooks_own_card", folder / "ipb_hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    docs = [json.loads(line) for line in (folder / "ipb_l7.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(docs) == 4
    for doc in docs:
        assert hooks.process_results(doc, [answers[doc["item_id"]]]) == {"verdict_acc": 1.0, "gra": 1.0, "ogrs": 1.0}
