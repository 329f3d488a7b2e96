"""``ipb perturb`` refuses a range whose values an item cannot state, instead of writing unreadable items (s48break).

A card may declare ``range: [0, "1e99"]``, which it reads; an item writes its facts in full ("34" and 97 zeros)
and the scenario reader reads at most ``MAX_DIGITS`` (60) digits. Before, ``ipb perturb`` wrote five items of which
``ipb verify`` could read one ("4 unreadable": "... is not a number: 99 digits; at most 60 are read"), and
``respond`` and ``score`` failed on the same facts. Now perturb stops with one error naming the input and its
range, and writes nothing. The cards are the test's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli._app import app
from ipb.engine.card import load_card_text
from ipb.perturb.values import input_grid
from ipb.errors import PerturbError

CARD = """\
id: s48_wide
investor: Test Investor
name: Wide range
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: One test.
decisive_default: true
vintage: {{start: 2000}}
sources: [{{tier: 1, document: Test letter, year: 2000}}]
inputs:
  big: {{type: {kind}, range: [{lo}, "{hi}"], step: "{step}"}}
gates:
  - id: size
    name: Size
    proceed: big > {mid}
    required_elements: [a large figure]
"""


def _spec(kind: str, lo: str, hi: str, step: str, mid: str):  # type: ignore[no-untyped-def]
    card = load_card_text(CARD.format(kind=kind, lo=lo, hi=hi, step=step, mid=mid), "wide.yaml")
    return card.inputs["big"]


@pytest.mark.parametrize("kind, lo, hi, step, mid, says", [
    ("number", "0", "1e99", "1e97", "1e98", "its range 0..1E+99 has values that an item cannot state: 1E+99 is written"),
    ("money", "$0", "$1e80", "$1e78", "$1e79", "its range 0..1E+80 has values that an item cannot state"),
])
def test_a_range_an_item_cannot_state_is_refused(kind: str, lo: str, hi: str, step: str, mid: str, says: str) -> None:
    with pytest.raises(PerturbError) as info:
        input_grid(_spec(kind, lo, hi, step, mid))
    assert says in info.value.message
    assert "at most 60 are read" in info.value.message


@pytest.mark.parametrize("kind, lo, hi, step, mid", [
    ("number", "0", "1e50", "1e48", "1e49"),  # 51 digits: read back
    ("money", "$0", "$1e60", "$1e58", "$1e59"),  # $1e60 is "$1" and 48 zeros "T": read back
])
def test_a_wide_range_an_item_can_state_has_its_grid(kind: str, lo: str, hi: str, step: str, mid: str) -> None:
    grid = input_grid(_spec(kind, lo, hi, step, mid))
    assert grid is not None and grid.count == 101


def test_perturb_writes_nothing_for_such_a_card(tmp_path: Path) -> None:
    card = tmp_path / "wide.yaml"
    card.write_text(CARD.format(kind="number", lo="0", hi="1e99", step="1e97", mid="1e98"), encoding="utf-8")
    base = tmp_path / "base.yaml"
    base.write_text('id: b\ncard: s48_wide\nas_of: "2010-01-01"\nfacts:\n  big: "1e98"\n', encoding="utf-8")
    out = tmp_path / "items.jsonl"
    result = CliRunner().invoke(app, ["perturb", "-c", str(card), "-b", str(base), "-n", "5", "-o", str(out)])
    # before: exit 0 and five items, four of which ipb verify could not read
    assert result.exit_code == 1, result.output
    assert "input 'big': its range 0..1E+99 has values that an item cannot state" in " ".join(result.output.split())
    assert not out.exists() and "Traceback" not in result.output
