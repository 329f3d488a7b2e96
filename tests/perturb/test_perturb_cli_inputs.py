"""Regression (bad CLI values of ipb perturb / ipb verify): found by the s29break18 review (issue 18).

Each bad value must give an error naming the flag and leave no output file
behind; before this fix ``--workers 0`` and ``--workers -3`` were taken
silently (as one worker).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from perturb_support import CARDS, FIXTURES

CARD = CARDS / "new_author_screen.yaml"
BASE = FIXTURES / "new_author_base.yaml"
runner = CliRunner()


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def inputs(tmp_path: Path) -> tuple[Path, Path]:
    """Copies of the card and base in ``tmp_path`` (so that a test may name them as outputs)."""
    card, base = tmp_path / "card.yaml", tmp_path / "base.yaml"
    card.write_text(CARD.read_text())
    base.write_text(BASE.read_text())
    return card, base


@pytest.mark.parametrize("value", ["0", "-3"])
def test_perturb_refuses_a_workers_count_below_one(inputs, tmp_path, value):
    card, base = inputs
    result = invoke("perturb", "-c", card, "-b", base, "--n", 3, "--workers", value, "--out", tmp_path / "x.jsonl")
    assert result.exit_code == 1 and f"--workers must be at least 1, not {value}" in result.output, result.output
    assert not (tmp_path / "x.jsonl").exists()


@pytest.mark.parametrize("value", ["0", "-3"])
def test_verify_refuses_a_workers_count_below_one(inputs, tmp_path, value):
    card, base = inputs
    items = tmp_path / "x.jsonl"
    assert invoke("perturb", "-c", card, "-b", base, "--n", 3, "--out", items).exit_code == 0
    result = invoke("verify", items, "--workers", value)
    assert result.exit_code == 1 and f"--workers must be at least 1, not {value}" in result.output, result.output
