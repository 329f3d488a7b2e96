"""Regression (bad CLI values of ipb perturb / ipb verify): found by the s29break18 review (issue 18).

Each bad value must give an error naming the flag and leave no output file
behind; before these fixes ``--workers 0`` and ``--workers -3`` were taken
silently, ``--report`` naming a folder or a missing folder failed only after
the items file was written (exit 1 with a complete items file: a partial
output), and ``--out``/``--report`` naming the base scenario, a card file or
each other overwrote that file (the user's card replaced by the JSON report).
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
    # an option's value, not a file that failed to load (s43user: it was labelled "load error")
    assert "argument error" in result.output and "load error" not in result.output, result.output
    assert not (tmp_path / "x.jsonl").exists()


@pytest.mark.parametrize("value", ["0", "-3"])
def test_verify_refuses_a_workers_count_below_one(inputs, tmp_path, value):
    card, base = inputs
    items = tmp_path / "x.jsonl"
    assert invoke("perturb", "-c", card, "-b", base, "--n", 3, "--out", items).exit_code == 0
    result = invoke("verify", items, "--workers", value)
    assert result.exit_code == 1 and f"--workers must be at least 1, not {value}" in result.output, result.output
    assert "argument error" in result.output and "load error" not in result.output, result.output


@pytest.mark.parametrize("report, words", [
    ("{tmp}", "--report"),
    ("{tmp}/plain/report.json", "--report"),  # below a regular file (a missing folder is made: s29user18)
])
def test_an_unwritable_report_leaves_no_items_file(inputs, tmp_path, report, words):
    card, base = inputs
    (tmp_path / "plain").write_text("a file\n", encoding="utf-8")
    items = tmp_path / "x.jsonl"
    result = invoke("perturb", "-c", card, "-b", base, "--n", 3, "--out", items,
                    "--report", report.format(tmp=tmp_path))
    assert result.exit_code == 1 and words in result.output, result.output
    assert not items.exists(), "the run failed, so no items file may be left"
    assert not (tmp_path / "ipb-cards").exists()


@pytest.mark.parametrize("out, report, clobbered", [
    ("base.yaml", None, "base.yaml"),
    ("card.yaml", None, "card.yaml"),
    ("x.jsonl", "card.yaml", "card.yaml"),
    ("x.jsonl", "base.yaml", "base.yaml"),
    ("x.jsonl", "x.jsonl", None),
])
def test_outputs_never_overwrite_the_inputs_or_each_other(inputs, tmp_path, out, report, clobbered):
    card, base = inputs
    before = {p.name: p.read_text() for p in (card, base)}
    args = ["perturb", "-c", card, "-b", base, "--n", 3, "--out", tmp_path / out]
    if report is not None:
        args += ["--report", tmp_path / report]
    result = invoke(*args)
    assert result.exit_code == 1, result.output
    assert "--out" in result.output or "--report" in result.output, result.output
    assert {p.name: p.read_text() for p in (card, base)} == before
    if clobbered is None:
        assert not (tmp_path / out).exists()


@pytest.mark.parametrize("date, words", [
    ("2999-01-01", "outside the career of investor"),
    ("1800-01-01", "outside the framework vintage"),
])
def test_a_base_dated_outside_the_vintage_is_refused_at_its_date(inputs, tmp_path, date, words):
    """Found by the s29break18 review: the vintage error named the base file but no line or column."""
    card, base = inputs
    base.write_text(f'as_of: "{date}"\n' + base.read_text())
    result = invoke("perturb", "-c", card, "-b", base, "--n", 3, "--out", tmp_path / "x.jsonl")
    assert result.exit_code == 1 and words in result.output, result.output
    assert f"{base}:1:8:" in result.output, result.output
