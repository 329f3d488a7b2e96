"""``ipb screen`` lists every bad cell of a table, not only the first (s47break leftover 9, s48break).

Before, a table with bad cells in three columns gave one error, the first column's first bad cell; fixing it and
running again showed the next. Now every column's bad cells are listed (a number column's text cells each, up to
MAX_BAD_CELLS; a true/false or category column's first bad cell), each at its CSV line, and nothing is written.
The card and the tables are the test's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli._app import app

pytest.importorskip("pyarrow")

CARD = """\
id: s48_screen
investor: Test Investor
name: Screen attack
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: Tests in order.
decisive_default: true
vintage: {start: 2000}
sources: [{tier: 1, document: Test letter, year: 2000}]
inputs:
  earnings: {type: money, range: [-$10M, $10M], step: $1M}
  price: {type: money, range: [$1M, $100M], step: $1M}
  moat: {type: bool}
gates:
  - id: yield_gate
    name: Yield
    compute:
      ey: earnings / price
    proceed: ey > 5%
    required_elements: [earnings over price]
  - id: moat_gate
    name: Moat
    proceed: moat
    required_elements: [durable advantage]
"""


def _screen(tmp_path: Path, rows: list[str]) -> tuple[int, str, Path]:
    card = tmp_path / "screen.yaml"
    card.write_text(CARD, encoding="utf-8")
    table, out = tmp_path / "t.csv", tmp_path / "out.csv"
    table.write_text("name,earnings,price,moat\n" + "\n".join(rows) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["screen", str(card), str(table), "--out", str(out)])
    return result.exit_code, " ".join(result.output.split()), out


def test_bad_cells_in_three_columns_are_all_listed(tmp_path: Path) -> None:
    code, output, out = _screen(tmp_path, ["A,$5M,$50M,true", "B,abc,$50M,true", "C,$5M,xyz,maybe", "D,$5M,$10M,false"])
    assert code == 1 and not out.exists() and "Traceback" not in output
    # before: only the first of these three
    assert "column 'earnings', row 1 (line 3): 'abc' is not a money" in output
    assert "column 'price', row 2 (line 4): 'xyz' is not a money" in output
    assert "column 'moat', row 2 (line 4): 'maybe' is not true or false" in output
    assert "3 errors" in output


def test_every_bad_cell_of_one_number_column_is_listed(tmp_path: Path) -> None:
    code, output, out = _screen(tmp_path, ["A,abc,$50M,true", "B,$5M,$50M,true", "C,12 apples,$50M,true"])
    assert code == 1 and not out.exists()
    assert "column 'earnings', row 0 (line 2): 'abc' is not a money" in output
    assert "column 'earnings', row 2 (line 4): '12 apples' is not a money" in output
    assert "2 errors" in output


def test_a_number_column_of_text_is_cut_short(tmp_path: Path) -> None:
    from ipb.engine.columnar.table import MAX_BAD_CELLS

    rows = [f"R{i},bad{i},$50M,true" for i in range(MAX_BAD_CELLS + 5)]
    code, output, _ = _screen(tmp_path, rows)
    assert code == 1
    assert f"'bad{MAX_BAD_CELLS - 1}' is not a money" in output and f"'bad{MAX_BAD_CELLS}'" not in output
    assert f"{MAX_BAD_CELLS} errors" in output


def test_one_bad_cell_is_one_error_as_before(tmp_path: Path) -> None:
    code, output, out = _screen(tmp_path, ["A,$5M,$50M,true", "B,$5M,$50M,perhaps"])
    assert code == 1 and not out.exists()
    assert "column 'moat', row 1 (line 3): 'perhaps' is not true or false" in output
    assert "errors" not in output


def test_a_good_table_is_screened(tmp_path: Path) -> None:
    code, output, out = _screen(tmp_path, ["A,$5M,$50M,true", "B,-$5M,$50M,true"])
    assert code == 0 and out.exists(), output
    # hand-worked: 5/50 = 10% > 5% and a moat -> INVEST; -5/50 = -10% -> REJECT at gate 1 -> DECLINE
    assert "INVEST 1" in output and "DECLINE 1" in output
