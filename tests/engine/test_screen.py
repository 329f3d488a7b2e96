"""``ipb screen``: tables in, verdict columns out (issue 21).

Expected verdicts are worked by hand from Graham's seven tests (The Intelligent
Investor, ch. 14, as the bundled card states them) and checked against the
scalar engine row by row.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli._app import app
from ipb.engine.execute import execute
from ipb.engine.registry import compiled_card

pa = pytest.importorskip("pyarrow")
import pyarrow.csv as pcsv  # noqa: E402
import pyarrow.feather as feather  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

runner = CliRunner()
CARD = "graham_seven_tests_defensive"

#: A stock that passes all seven tests; then one that fails only the P/E test
#: (price 300 / EPS 10 = 30 > 15), and one whose dividend record is 19 years.
PASS = {"company_type": "industrial", "annual_sales": 500e6, "total_assets": 900e6, "current_assets": 400e6,
        "current_liabilities": 150e6, "long_term_debt": 200e6, "stock_equity": 600e6, "years_with_earnings": 10.0,
        "dividend_years": 25.0, "eps_3yr_avg": 10.0, "eps_3yr_avg_ten_years_ago": 6.0, "price_per_share": 120.0,
        "book_value_per_share": 100.0}
ROWS = [PASS, {**PASS, "price_per_share": 300.0}, {**PASS, "dividend_years": 19.0}]


def _table(rows: list[dict[str, object]]) -> "pa.Table":
    names = list(rows[0])
    return pa.table({n: [r.get(n) for r in rows] for n in names})


def _facts(row: dict[str, object]) -> dict[str, object]:
    return {k: v if isinstance(v, str) else Decimal(repr(v)) for k, v in row.items() if v is not None}


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".arrow"])
def test_screen_writes_the_verdicts_of_every_row(tmp_path: Path, suffix: str) -> None:
    src = tmp_path / f"in{suffix}"
    out = tmp_path / f"out{suffix}"
    table = _table(ROWS)
    {".parquet": pq.write_table, ".csv": pcsv.write_csv, ".arrow": feather.write_feather}[suffix](table, src)
    result = runner.invoke(app, ["screen", CARD, str(src), "--out", str(out)])
    assert result.exit_code == 0, result.output
    back = {".parquet": pq.read_table, ".csv": pcsv.read_csv, ".arrow": feather.read_table}[suffix](out)
    got = back.to_pydict()
    assert got["final_verdict"] == ["INVEST", "DECLINE", "DECLINE"]
    assert got["trigger"] == ["all_gates_cleared", "gate_6_reject", "gate_4_reject"]
    assert got["gate_6_moderate_pe"] == ["PROCEED", "REJECT", "PROCEED"]
    assert got["company_type"] == ["industrial"] * 3  # the table's own columns are kept
    compiled = compiled_card(CARD)
    for i, row in enumerate(ROWS):
        trace = execute(compiled, _facts(row))
        assert got["final_verdict"][i] == trace.outcome and got["trigger"][i] == trace.trigger
        assert [got[f"gate_{g.number}_{g.id}"][i] for g in compiled.card.gates] == trace.verdicts()
    # computed values: current ratio 400/150
    assert got["current_ratio"][0] == pytest.approx(400 / 150)
    if suffix != ".csv":
        import json

        meta = json.loads(back.schema.metadata[b"ipb.screen"])
        assert meta["version"] == 1 and meta["card"] == CARD and meta["rows"] == 3


def test_map_and_unit(tmp_path: Path) -> None:
    rows = [{**PASS, "sales_musd": PASS["annual_sales"] / 1e6} for _ in range(2)]
    for r in rows:
        del r["annual_sales"]
    rows[1]["sales_musd"] = 99.99  # $99.99M < $100M: too small
    src, out = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(_table(rows), src)
    result = runner.invoke(app, ["screen", CARD, str(src), "--out", str(out), "--map", "sales_musd=annual_sales",
                                 "--unit", "annual_sales=M", "--only-results"])
    assert result.exit_code == 0, result.output
    got = pq.read_table(out).to_pydict()
    assert "sales_musd" not in got
    assert got["gate_1_adequate_size"] == ["PROCEED", "REJECT"]


def test_unit_scaling_is_decimal_at_the_threshold(tmp_path: Path) -> None:
    """0.1 (B) is exactly $100M: the size test holds, as it does for the scalar engine."""
    src, out = tmp_path / "in.csv", tmp_path / "out.csv"
    pcsv.write_csv(_table([{**PASS, "annual_sales": 0.1}]), src)
    result = runner.invoke(app, ["screen", CARD, str(src), "-o", str(out), "--unit", "annual_sales=B"])
    assert result.exit_code == 0, result.output
    assert pcsv.read_csv(out).to_pydict()["gate_1_adequate_size"] == ["PROCEED"]


@pytest.mark.parametrize(
    "args, rows, message",
    [
        (["--map", "sales=annual_sales"], ROWS, "the table has no column 'sales'"),
        (["--map", "annual_sales=annual_sale"], ROWS, "has no input 'annual_sale' (did you mean 'annual_sales'?)"),
        (["--unit", "annual_sales=Q"], ROWS, "the scale must be one of"),
        (["--unit", "company_type=M"], ROWS, "input 'company_type' is not a number"),
        ([], [PASS, {**PASS, "company_type": "industral"}],
         "column 'company_type', row 1 (line 3): 'industral' is not a value of company_type"),
        ([], [PASS, {**PASS, "annual_sales": "lots"}], "column 'annual_sales', row 1 (line 3): 'lots' is not a money"),
        ([], [PASS, {**PASS, "annual_sales": "95%"}], "column 'annual_sales', row 1 (line 3): '95%' is not a money"),
        (["--map", "x"], ROWS, "must look like NAME=VALUE"),
    ],
    ids=["no-column", "no-input", "bad-scale", "unit-on-category", "category-value", "not-a-number", "wrong-unit", "bad-pair"],
)
def test_errors_name_the_column_and_row(tmp_path: Path, args: list[str], rows: list[dict[str, object]], message: str) -> None:
    src, out = tmp_path / "in.csv", tmp_path / "out.csv"
    lines = [",".join(rows[0])] + [",".join(str(r[k]) for k in rows[0]) for r in rows]
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["screen", CARD, str(src), "--out", str(out), *args])
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output
    assert not out.exists()


def test_text_cells_with_units_are_read_like_scenario_facts(tmp_path: Path) -> None:
    src, out = tmp_path / "in.csv", tmp_path / "out.csv"
    src.write_text("company_type,annual_sales,total_assets\nindustrial,$100M,\nindustrial,$99.99M,\nindustrial,,\n",
                   encoding="utf-8")  # total_assets: an empty column, unknown on every row
    result = runner.invoke(app, ["screen", CARD, str(src), "-o", str(out), "--only-results"])
    assert result.exit_code == 0, result.output
    assert pcsv.read_csv(out).to_pydict()["gate_1_adequate_size"] == ["PROCEED", "REJECT", "INCONCLUSIVE"]


def test_unknown_suffix_and_missing_file(tmp_path: Path) -> None:
    result = runner.invoke(app, ["screen", CARD, str(tmp_path / "in.xlsx"), "--out", str(tmp_path / "o.csv")])
    assert result.exit_code == 1 and "cannot tell the table format" in result.output
    result = runner.invoke(app, ["screen", CARD, str(tmp_path / "in.csv"), "--out", str(tmp_path / "o.csv")])
    assert result.exit_code == 1 and "no such table file" in result.output


@pytest.mark.parametrize("card_id", ["buffett_share_repurchase", "dalio_debt_supercycle_navigation",
                                     "dalio_bubble_detection_gauge"])
def test_typed_columns_dates_bools_regimes_agree_with_the_scalar_engine(tmp_path: Path, card_id: str) -> None:
    """Date32, bool, dictionary and float columns with nulls, through a Parquet file, row by row against ``execute``."""
    import datetime as dt
    import random

    from ipb.engine.columnar.table import read_table, screen_table

    compiled = compiled_card(card_id)
    rng = random.Random(7)
    rows: list[dict[str, object]] = []
    for _ in range(300):
        row: dict[str, object] = {}
        for name, spec in compiled.card.inputs.items():
            if rng.random() < 0.15:
                row[name] = None
            elif spec.values is not None:
                row[name] = rng.choice(spec.values)
            elif spec.expr_type.kind == "bool":
                row[name] = rng.random() < 0.5
            elif spec.expr_type.kind == "date":
                row[name] = dt.date(2005, 1, 1) + dt.timedelta(days=rng.randrange(7000))
            elif spec.range is not None and spec.step is not None:
                lo, hi = spec.range
                row[name] = float(lo + spec.step * rng.randrange(int((hi - lo) / spec.step) + 1))
            else:
                row[name] = rng.randrange(-50, 200) / 10
        rows.append(row)
    types = {name: (pa.date32() if spec.expr_type.kind == "date" else pa.bool_() if spec.expr_type.kind == "bool"
                    else pa.dictionary(pa.int8(), pa.string()) if spec.values is not None else pa.float64())
             for name, spec in compiled.card.inputs.items()}
    src = tmp_path / "in.parquet"
    pq.write_table(pa.table({n: pa.array([r[n] for r in rows], type=t) for n, t in types.items()}), src)
    got = screen_table(compiled, read_table(src), only_results=True).table.to_pydict()
    for i, row in enumerate(rows):
        facts = {k: (Decimal(repr(v)) if isinstance(v, float) else v) for k, v in row.items() if v is not None}
        trace = execute(compiled, facts)
        assert (got["final_verdict"][i], got["trigger"][i]) == (trace.outcome, trace.trigger), row
        assert [got[f"gate_{g.number}_{g.id}"][i] for g in compiled.card.gates] == trace.verdicts()
        if "regime" in got:
            assert got["regime"][i] == trace.regime


def test_a_repeated_column_or_an_input_mapped_twice_is_a_located_error(tmp_path: Path) -> None:
    """Adversarial pass: a CSV header naming a column twice gave a pyarrow traceback; two --map for one input
    silently kept the last."""
    src = tmp_path / "dup.csv"
    src.write_text("market_value,market_value,current_assets\n1,2,3\n", encoding="utf-8")
    result = runner.invoke(app, ["screen", "graham_net_net_screen", str(src), "--out", str(tmp_path / "o.csv")])
    assert result.exit_code == 1 and "two columns named 'market_value'" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "o.csv").exists()
    src.write_text("mv,cv,current_assets\n1,2,3\n", encoding="utf-8")
    result = runner.invoke(app, ["screen", "graham_net_net_screen", str(src), "--out", str(tmp_path / "o.csv"),
                                 "--map", "mv=market_value", "--map", "cv=market_value"])
    # options that contradict each other are a usage error (exit 2), like --unit X=M --unit X=B
    assert result.exit_code == 2 and "input 'market_value' is given two columns" in result.output
