"""``bench/bar_perturb_all.py`` (issue 18 bar, line 1): the runs it makes are every bundled card's bundled scenarios,
and one run's row carries the items, the operator mix, the verify result and the constraint rejections."""

from __future__ import annotations

from pathlib import Path

from tests.scoring.bench_support import load_bench

ROOT = Path(__file__).resolve().parents[2]


def test_the_runs_are_each_card_with_each_scenario_it_bundles() -> None:
    bench = load_bench("bar_perturb_all.py")
    runs = bench.bundled_runs([])
    assert len(runs) == len(list((ROOT / "frameworks" / "scenarios").glob("*/*.yaml")))
    assert all(base.parent.name == card for card, base in runs)
    assert [b.name for c, b in bench.bundled_runs(["marks_distressed"])] == sorted(
        p.name for p in (ROOT / "frameworks" / "scenarios" / "marks_distressed_debt").glob("*.yaml"))


def test_one_row(tmp_path) -> None:
    bench = load_bench("bar_perturb_all.py")
    base = ROOT / "frameworks" / "scenarios" / "marks_market_cycle_positioning" / "cold_aggressive_2008.yaml"
    row = bench.one_run("marks_market_cycle_positioning", base, 12, 0, tmp_path)
    assert row["ok"] and row["verify"] == "ok" and row["items"] == 12
    recipes = [part.split(":")[0] for part in row["mix"].split()]
    assert recipes == ["metric", "flip", "isolate"]  # the card's default operators (no --ops)
    assert sum(int(part.split(":")[1]) for part in row["mix"].split()) == 12
    assert 0 <= row["rejected"] <= row["attempts"]
    assert "| marks_market_cycle_positioning | cold_aggressive_2008.yaml | 12 |" in bench.table([row])
