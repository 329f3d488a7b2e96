"""Shared fixtures: a small items file made by ``ipb perturb`` and faithful answers to it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "frameworks" / "scenarios" / "buffett_acquisition_checklist" / "ipb_p_011_base.yaml"


@pytest.fixture(scope="session")
def items_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from typer.testing import CliRunner

    from ipb.cli import app

    out = tmp_path_factory.mktemp("items") / "items.jsonl"
    result = CliRunner().invoke(app, ["perturb", "--card", "buffett_acquisition_checklist", "--base", str(BASE),
                                      "--n", "3", "--seed", "7", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="session")
def items(items_file: Path) -> list[dict]:
    return [json.loads(line) for line in items_file.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="session")
def gold_answers(items: list[dict]) -> dict[str, str]:
    """item id -> a faithful answer rendered from the item's gold program."""
    from ipb.respond.synthetic import synthetic_responses

    return {r["item_id"]: r["response"] for r in synthetic_responses(items, corruptions=["none"], seed=0)}
