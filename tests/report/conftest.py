"""A small scored run for the report tests, built once per session.

Items: perturbed L7 items for three cards of different topologies (linear,
parallel n-of-m, conditional branch) and one L4 item per card. Respondents:
three synthetic models, one of them under conditions A, B and C, plus
records that must survive the page unharmed: a response that cannot be
parsed and a model whose name is markup.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from ipb.engine.execute import execute
from ipb.engine.registry import compiled_card
from ipb.engine.scenario import load_scenario
from ipb.perturb import Job, generate, parse_recipes
from report_fixtures import HOSTILE_MODEL, HOSTILE_TEXT

ROOT = Path(__file__).resolve().parents[2]
CARDS = {
    "buffett_acquisition_checklist": ("ipb_p_011_base.yaml", "metric,flip"),
    "dalio_bubble_detection_gauge": (None, "metric,flip"),
    "marks_market_cycle_positioning": (None, "metric,flip"),
}


def _items() -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for card_id, (base_name, ops) in CARDS.items():
        folder = ROOT / "frameworks" / "scenarios" / card_id
        base = folder / base_name if base_name else sorted(folder.glob("*.yaml"))[0]
        compiled = compiled_card(card_id)
        scen = load_scenario(base, compiled.card)
        items.append({"id": f"L4-{card_id}", "layer": "L4", "card": card_id, "full_reconstruction": True,
                      "question_group": "L4", "grp": execute(compiled, scen.facts, layer="L4").to_grp()})
        result = generate(Job((card_id,), str(base), 3, parse_recipes(ops), False), 4, allow_short=True)
        items.extend(json.loads(line) for line in result.lines)
    return items


def _responses(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from ipb.respond.synthetic import synthetic_responses

    menus = {
        "model-gold": ["none"],
        "model-mixed": ["none", "flip_verdict", "drop_gate", "omit_kill_element", "invent_gate"],
        HOSTILE_MODEL: ["drop_gate+flip_final", "swap_gates+invent_gate"],
    }
    out: list[dict[str, Any]] = []
    for model, menu in menus.items():
        conditions = ("A", "B", "C") if model == "model-mixed" else ("A",)
        for condition in conditions:
            for item in items:
                rng = random.Random(f"{model}/{condition}/{item['id']}")
                spec = rng.choice(menu if condition == "A" else menu[:2])
                out.append(synthetic_responses([item], corruptions=[spec], seed=1, model=model,
                                               condition=condition)[0])
    out.append(_prompted(items[1]))
    out.append({"item_id": items[1]["id"], "model": "model-gold", "condition": "A", "response": HOSTILE_TEXT})
    out.append({"item_id": items[2]["id"], "model": "model-gold", "condition": "A", "response": "   "})
    return out


#: The model of the one record written as ``ipb respond`` writes it (prompt set and hash, no messages).
PROMPTED_MODEL = "model-prompted"


def _prompted(item: dict[str, Any]) -> dict[str, Any]:
    """A condition A record as ``ipb respond`` writes it, with the messages it sent."""
    from ipb.respond.prompts import RESPOND_PROMPTS, load_prompts
    from ipb.respond.synthetic import synthetic_responses

    [answer] = synthetic_responses([item], corruptions=["none"], seed=1, model=PROMPTED_MODEL, condition="A")
    prompts = load_prompts(RESPOND_PROMPTS)
    messages = [{"role": "system", "content": prompts.render("system")},
                {"role": "user", "content": prompts.render("user-A", question=item["question"])}]
    return {"item_id": item["id"], "model": PROMPTED_MODEL, "condition": "A", "response": answer["response"],
            "status": "ok", "prompt_version": RESPOND_PROMPTS, "prompt_hash": prompts.hash(["system", "user-A"]),
            "settings": {"cot": False, "temperature": 0.0}, "messages": messages}


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with items.jsonl, responses.jsonl and results/ (what ipb score writes)."""
    from ipb.scoring.run import ScoreOptions, run_score

    folder = tmp_path_factory.mktemp("report-run")
    items = _items()
    (folder / "items.jsonl").write_text("".join(json.dumps(i, sort_keys=True) + "\n" for i in items), encoding="utf-8")
    responses = _responses(items)
    (folder / "responses.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in responses),
                                            encoding="utf-8")
    run_score(folder / "items.jsonl", folder / "responses.jsonl", folder / "results",
              ScoreOptions(seed=7, embeddings=False, n_resamples=300))
    return folder


@pytest.fixture(scope="session")
def report_path(run_dir: Path) -> Path:
    """The report page of :func:`run_dir`."""
    from ipb.report.html import write_report

    out = run_dir / "report.html"
    write_report(run_dir / "results", out, title="ipb test report")
    return out
