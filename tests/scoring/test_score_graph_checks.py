"""``ipb score`` refuses a card that fails the graph-level checks of ``compile_card``, as ``ipb verify`` does
(breaker 3, finding 5: scoring had loaded cards without building their graph, so a card with a forward re-entry
was scored)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.card import load_card

ROOT = Path(__file__).resolve().parents[2]
ITEM = ROOT / "tests" / "robustness" / "data" / "item_l7.jsonl"  # an L7 item pinned to its card's hash
#: the net-net card as the item was made with it (kept beside the item, as ``ipb perturb`` keeps card copies)
CARD = ITEM.parent / "ipb-cards" / "f5a6f77f830a7c352641809f3a0aafd4962bac420a9a18e1a0d73c166e4bd15a.yaml"
NAME = "graham_net_net_screen.yaml"
FORWARD = "    reentry: {to: no_asset_dissipation, while: net_income < $0, max_iterations: 2}\n"


def _setup(tmp_path: Path, bad: bool) -> tuple[Path, Path, Path]:
    lines = CARD.read_text(encoding="utf-8").splitlines(keepends=True)
    text = "".join(lines[:75] + ([FORWARD] if bad else []) + lines[75:])
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / NAME).write_text(text, encoding="utf-8")
    old, new = load_card(CARD).content_hash, load_card(cards / NAME).content_hash  # loads: the graph is not built
    item_text = ITEM.read_text(encoding="utf-8")
    assert old in item_text
    items = tmp_path / "items.jsonl"
    items.write_text(item_text.replace(old, new), encoding="utf-8")
    item_id = json.loads(item_text.splitlines()[0])["id"]
    responses = tmp_path / "responses.jsonl"
    responses.write_text(json.dumps({"item_id": item_id, "model": "m", "condition": "A",
                                     "response": "1. Net-net test: PROCEED\nFinal verdict: INVEST"}) + "\n",
                         encoding="utf-8")
    return cards, items, responses


@pytest.mark.parametrize("bad", [True, False], ids=["forward-reentry", "bundled-text"])
def test_score_refuses_a_card_that_verify_refuses(bad, tmp_path, monkeypatch):
    for var in ("IPB_CACHE_DIR", "IPB_BASE_URL", "IPB_EMBED_CACHE", "RAY_ADDRESS"):
        monkeypatch.delenv(var, raising=False)
    cards, items, responses = _setup(tmp_path, bad)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["score", "-i", str(items), "-r", str(responses), "-o", str(out),
                                      "--cards", str(cards), "--no-embeddings", "--no-progress", "--resamples", "5"])
    assert result.exit_code == (1 if bad else 0), result.output  # nothing scored: rc 1
    record = json.loads((out / "responses.jsonl").read_text(encoding="utf-8"))
    checked = CliRunner().invoke(app, ["verify", str(items), "--cards", str(cards), "--format", "json"])
    problems = json.loads(checked.stdout)["problems"]
    if not bad:
        assert record["outcome"] != "unusable" and checked.exit_code == 0 and problems == []
        return
    reason = "re-entry from 'two_thirds_of_ncav' must loop back to an earlier gate, not 'no_asset_dissipation'"
    assert checked.exit_code == 1 and reason in problems[0]["problems"][0]
    assert record["outcome"] == "unusable" and record["error"]["rule"] == "unknown_card"
    assert f"{cards / NAME}:76:" in record["error"]["message"] and reason in record["error"]["message"]
    assert "scored 0 of 1" in result.stdout + result.stderr
