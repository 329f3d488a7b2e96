"""New-user report s58 (issue 18, publishable items): the findings fixed by s59userB.

F-C16 (bug kind: a release from several bases asks one question twice, and nothing removes the repeats): runs of
one card from several bases concatenated hold items repeating an earlier item's id or scenario, which ``ipb
verify`` reports (exit 1); the docs asked the publisher to remove them by hand. ``ipb join`` does it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.perturb.join import join_items
from ipb.perturb.verify import verify_items

runner = CliRunner()

#: A two-gate card of the test's own (no bundled card, so ``ipb verify`` must find it in ipb-cards/).
CARD = """\
id: s59b_join_screen
investor: Test Screener
name: Join screen
topology_type: linear_sequential
gate_logic: conjunction
decisive_default: true
topology_rationale: The screener checks the price, then leverage.
vintage: {start: 1970, end: null}
sources:
  - {tier: 1, document: "A test card", year: 1970}
outcomes: {pass: BUY, fail: PASS}
inputs:
  pe_ratio: {type: multiple, description: price over trailing earnings, range: [2x, 40x], step: 0.5x}
  debt_to_equity: {type: ratio, description: long-term debt over equity, range: [0%, 200%], step: 5%}
gates:
  - id: price
    name: Price
    proceed: pe_ratio <= 15x
    kill_criterion: dear
    required_elements: [P/E]
  - id: leverage
    name: Leverage
    proceed: debt_to_equity <= 60%
    kill_criterion: levered
    required_elements: [debt to equity]
"""


def _base(ident: str) -> str:
    return (f"id: {ident}\nlayer: L7\ncard: s59b_join_screen\nas_of: \"1985-06-30\"\n"
            "facts:\n  pe_ratio: 10x\n  debt_to_equity: 40%\n")


def _digest(ident: str) -> str:
    return ident.rsplit("-", 1)[1]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Two 40-item runs of the card from two bases with the same facts and date (so the runs share some scenarios),
    each into its own folder with its ipb-cards/ copy."""
    tmp = tmp_path_factory.mktemp("join")
    card = tmp / "card.yaml"
    card.write_text(CARD, encoding="utf-8")
    parts = []
    for name, seed in (("S59B-ONE", "3"), ("S59B-TWO", "5")):
        base = tmp / f"{name}.yaml"
        base.write_text(_base(name), encoding="utf-8")
        out = tmp / name / "items.jsonl"
        result = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--n", "40", "--seed", seed,
                                     "--ops", "metric", "--out", str(out)])
        assert result.exit_code == 0, result.output
        parts.append(out)
    return parts


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_concatenated_runs_fail_verify_and_the_joined_file_passes(runs, tmp_path):
    one, two = (_lines(p) for p in runs)
    first_digests = {_digest(json.loads(line)["id"]) for line in one}
    # the second run's lines whose scenario the first made, found here by the id's digest
    repeats = [line for line in two if _digest(json.loads(line)["id"]) in first_digests]
    assert 0 < len(repeats) < len(two)
    cat = tmp_path / "cat" / "items.jsonl"
    cat.parent.mkdir()
    cat.write_text("\n".join(one + two) + "\n", encoding="utf-8")
    (cat.parent / "ipb-cards").mkdir()
    for copy in (runs[0].parent / "ipb-cards").iterdir():
        (cat.parent / "ipb-cards" / copy.name).write_bytes(copy.read_bytes())
    assert len(verify_items(cat).duplicates) == len(repeats)  # what the publisher met

    out = tmp_path / "release" / "items.jsonl"  # a folder without ipb-cards/: join copies the card there
    result = runner.invoke(app, ["join", str(runs[0]), str(runs[1]), "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert f"kept {len(two) - len(repeats)}, dropped {len(repeats)} ({len(repeats)} repeating an earlier item's scenario: {len(repeats)} first in {runs[0]})" in text
    assert f"{len(one) + len(two) - len(repeats)} item(s) of {len(one) + len(two)} from 2 file(s)" in text
    # every line of the first run, then the second's new ones, byte for byte and in order
    assert _lines(out) == one + [line for line in two if line not in repeats]
    checked = verify_items(out)
    assert checked.ok and checked.total == len(one) + len(two) - len(repeats), checked.to_dict()
    assert sorted(p.name for p in (out.parent / "ipb-cards").iterdir()) == sorted(
        p.name for p in (runs[0].parent / "ipb-cards").iterdir())


def test_a_file_given_twice_drops_every_repeated_id(runs, tmp_path):
    out = tmp_path / "twice.jsonl"
    result = join_items([runs[0], runs[0]], out, copy_cards=False)
    assert (result.kept, result.files[1].dropped_ids, result.files[1].dropped_scenarios) == (40, 40, 0)
    assert out.read_bytes() == runs[0].read_bytes()


def test_a_malformed_line_names_file_and_line_and_writes_nothing(runs, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(_lines(runs[0])[0] + "\n\n{\"id\": \"x\", oops}\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    out.write_text("old\n", encoding="utf-8")
    result = runner.invoke(app, ["join", str(runs[1]), str(bad), "--out", str(out)])
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert f"{bad}:3:" in text and "line 3 is not valid JSON" in text and "Traceback" not in text
    assert out.read_text(encoding="utf-8") == "old\n"  # the old file untouched
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out")] == []  # no temporary file left
    not_item = tmp_path / "list.jsonl"
    not_item.write_text("[1, 2]\n", encoding="utf-8")
    result = runner.invoke(app, ["join", str(not_item), "--out", str(tmp_path / "o2.jsonl")])
    assert result.exit_code == 1 and f"{not_item}:1:" in result.output and "not an item object" in result.output
    assert not (tmp_path / "o2.jsonl").exists()


def test_join_refuses_an_empty_out_and_its_own_input(runs, tmp_path):
    result = runner.invoke(app, ["join", str(runs[0]), "--out", ""])
    assert result.exit_code == 1 and "--out is empty" in result.output
    result = runner.invoke(app, ["join", str(runs[0]), "--out", str(runs[0])])
    assert result.exit_code == 1 and "never writes over its own inputs" in " ".join(result.output.split())
