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


def test_the_bar_sample_is_each_cards_first_base_and_ten_seconds() -> None:
    bench = load_bench("bar_perturb_all.py")
    runs = bench.bar_runs([], 0)
    cards = sorted({p.name for p in (ROOT / "frameworks" / "scenarios").iterdir() if p.is_dir()})
    assert len(runs) == len(cards) + 10  # 28 cards' first bases, and 10 cards' second
    by_card: dict[str, list[str]] = {}
    for card, base in runs:
        by_card.setdefault(card, []).append(base.name)
    assert sorted(by_card) == cards
    for card, names in by_card.items():
        bundled = sorted(p.name for p in (ROOT / "frameworks" / "scenarios" / card).glob("*.yaml"))
        assert names == bundled[:len(names)] and len(names) in (1, 2)
    assert sum(len(n) == 2 for n in by_card.values()) == 10
    assert bench.bar_runs([], 0) == runs  # seeded: the same draw twice
    assert {c for c, b in bench.bar_runs([], 1)} == set(cards)
    assert [b.name for c, b in bench.bar_runs(["pif_"], 0)] in (
        sorted(p.name for p in (ROOT / "frameworks" / "scenarios" / "pif_dual_kill_investment_screen").glob("*.yaml"))[:k]
        for k in (1, 2))


def test_a_failed_row_shows_its_shortfall() -> None:
    bench = load_bench("bar_perturb_all.py")
    row = {"card": "c", "base": "b.yaml", "n": 1000, "items": 0, "mix": "", "verify": "perturb failed: x",
           "rejected": 0, "attempts": 0, "worst": "", "ok": False, "note": ""}
    assert "| c | b.yaml | 0 | 1000 |  | perturb failed: x |" in bench.table([row])
