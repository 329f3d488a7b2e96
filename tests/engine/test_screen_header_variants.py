"""``ipb screen`` says when a header that differs only in case or spaces is not read (breaker 3, finding 9): beside
the exact header (or a --map column) it is ignored, and two such headers of one input are ambiguous."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app

pytest.importorskip("pyarrow")
CARD = "graham_net_net_screen"
REST = "current_assets,total_liabilities,preferred_stock,net_income"


def _screen(tmp_path: Path, header: str, row: str, *extra: str) -> tuple[str, str]:
    src, out = tmp_path / "in.csv", tmp_path / "out.csv"
    src.write_text(f"{header},{REST}\n{row},45,12,3,1\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["screen", CARD, str(src), "--out", str(out), *extra])
    assert result.exit_code == 0, result.output
    verdict = out.read_text(encoding="utf-8").splitlines()[1]
    return verdict, " ".join(result.output.split())  # the console wraps long lines


def test_a_case_variant_beside_the_exact_header_is_said_to_be_ignored(tmp_path):
    # NCAV = 45 - 12 - 3 = 30; 2/3 of it is 20: market value 20 passes, 999 would not
    verdict, said = _screen(tmp_path, "market_value,MARKET_VALUE ", "20,999")
    assert "INVEST" in verdict
    assert ("not read, as another column is: 'MARKET_VALUE ' (differs from input 'market_value' only in case or "
            "spaces; market_value is read from column 'market_value')") in said


def test_a_case_variant_beside_a_mapped_column_is_said_to_be_ignored(tmp_path):
    verdict, said = _screen(tmp_path, " market_value,mv", "999,20", "--map", "mv=market_value")
    assert "INVEST" in verdict
    assert "' market_value' (differs from input 'market_value' only in case or spaces; market_value is read from column 'mv')" in said


def test_two_case_variants_are_said_to_be_ambiguous_with_the_map_that_picks_one(tmp_path):
    verdict, said = _screen(tmp_path, "MARKET_VALUE,Market_Value", "20,999")
    assert "INCONCLUSIVE" in verdict  # neither is read
    assert ("unknown on every row (no column): market_value (ambiguous: columns 'MARKET_VALUE', 'Market_Value' each "
            "differ from it only in case or spaces, so none is read; pick one with --map, e.g. "
            "--map 'MARKET_VALUE=market_value')") in said


def test_a_single_variant_is_read_and_nothing_is_said_ignored(tmp_path):
    verdict, said = _screen(tmp_path, "Market_Value ", "20")
    assert "INVEST" in verdict and "not read" not in said and "ambiguous" not in said
