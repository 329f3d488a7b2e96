"""``ipb demo``: the whole pipeline runs end to end into its output folder (small settings)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.registry import bundled_card_paths


def test_demo_runs_the_pipeline(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    result = CliRunner().invoke(app, ["demo", str(out), "--n", "1", "--no-embeddings", "--resamples", "100"])
    assert result.exit_code == 0, result.output
    n_cards = len(bundled_card_paths())
    for name in ("items.jsonl", "responses.jsonl", "results/summary.json", "results/responses.jsonl", "report.html",
                 "cards/ipb_p_011_base.png"):
        assert (out / name).is_file(), name
    assert len(list((out / "cards").glob("*.svg"))) == n_cards
    items = [json.loads(line) for line in (out / "items.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sum(1 for i in items if i.get("layer") == "L4") == n_cards
    summary = json.loads((out / "results" / "summary.json").read_text(encoding="utf-8"))
    assert set(summary["groups"]["model"]) == {"synthetic-gold", "synthetic-light", "synthetic-medium",
                                                "synthetic-heavy"}
    assert summary["counts"]["invalid"] == 0
    assert summary["deltas"] is not None and summary["deltas"]["conditions"] == ["A", "B", "C"]
    gold = summary["groups"]["model"]["synthetic-gold"]["metrics"]["gra"]["mean"]
    heavy = summary["groups"]["model"]["synthetic-heavy"]["metrics"]["gra"]["mean"]
    assert gold > heavy
    assert "Report:" in result.output and str((out / "report.html").resolve()) in result.output.replace("\n", "")
    assert "IPB-P-011" in result.output and "checked" in result.output
