"""Issue 18 (s57era): sector items whose facts are out of their date's range, over every bundled dated base.

Run from the repository root::

    .venv/bin/python bench/count_sector_era.py [--n 300] [--seed 5701] [--cards lynch_,graham_] [--json OUT]

For every bundled card and each of its scenarios with an ``as_of`` date, the script runs
``ipb perturb --ops sector --n N --seed S --allow-short`` through the CLI in this process (a card sector
substitution does not apply to is skipped, and a base outside its card's vintage runs as an FM-6 probe), then
reads each dated item (its ``context.as_of``) and counts it out of era when one of these holds:

1. **the sector did not exist as a listed industry at the date**: the item's sector is ``enterprise_software``
   dated before 1980 (packaged business software was sold by a handful of small firms in the 1970s; the first
   software companies listed on the New York Stock Exchange, Cullinane among them, date from about 1978-80, and the
   industry's listings came with the 1980s [author, from memory]);
2. **a multiple above or below its era's range for the sector**: the sector's modern range (``frameworks/sectors.yaml``,
   ``ranges:``) multiplied by the era's factor written in :data:`ERA_FACTORS` below, which this script holds on its
   own so the count does not read the table the operator enforces;
3. **a regime bound**: any anachronism ``frameworks/regimes.yaml`` reports for the item's facts at its date (since
   dates of category values, size bounds, the ``multiples:`` bounds), read through ``RegimeRegistry.anachronisms``.

ERA_FACTORS (author estimates from the usual market histories, [M: from memory, not looked up]): the sector ranges
are written for the markets of about 2005-2025, when the S&P 500 sold at about 15-25 times trailing earnings, 2.5-4
times book and 1.5-2.5 times sales. 1974-1982: the market sold at 7-12 times earnings, near book (1-1.4 times) and
about 0.4-0.6 times sales, so the factors are 0.5 (earnings), 0.35 (book), 0.3 (sales). 1983-1990: 10-20 times
earnings, 1.5-2.5 times book, 0.6-1 times sales: 0.7, 0.55, 0.45. 1991-1995: 15-22 times earnings, 2.5-3.5 times
book, about 1 times sales: 0.85, 0.8, 0.6. Before 1974 (1962-73): 15-20 times earnings, about 2 times book, about
1 times sales: 0.85, 0.6, 0.5. From 1996 the modern ranges hold (factor 1).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "frameworks" / "scenarios"

#: (first year, last year, {metric id: factor}) on the modern sector range of a multiple.
ERA_FACTORS: list[tuple[int, int, dict[str, Decimal]]] = [
    (1900, 1973, {"pe_ratio": Decimal("0.85"), "price_to_book": Decimal("0.6"), "ev_to_arr": Decimal("0.5")}),
    (1974, 1982, {"pe_ratio": Decimal("0.5"), "price_to_book": Decimal("0.35"), "ev_to_arr": Decimal("0.3")}),
    (1983, 1990, {"pe_ratio": Decimal("0.7"), "price_to_book": Decimal("0.55"), "ev_to_arr": Decimal("0.45")}),
    (1991, 1995, {"pe_ratio": Decimal("0.85"), "price_to_book": Decimal("0.8"), "ev_to_arr": Decimal("0.6")}),
]
#: Sector id -> the first year it is a listed industry.
SECTOR_FROM = {"enterprise_software": 1980}


def dated_bases(only: list[str]) -> list[tuple[str, Path]]:
    from ipb.engine.registry import bundled_card_paths

    import yaml

    out = []
    for path in sorted(bundled_card_paths(), key=lambda p: Path(p).stem):
        card = Path(path).stem
        if only and not any(card.startswith(p) for p in only):
            continue
        for base in sorted((SCENARIOS / card).glob("*.yaml")):
            if "as_of" in (yaml.safe_load(base.read_text(encoding="utf-8")) or {}):
                out.append((card, base))
    return out


def factor(metric: str, year: int) -> Decimal:
    for first, last, table in ERA_FACTORS:
        if first <= year <= last:
            return table.get(metric, Decimal(1))
    return Decimal(1)


def problems(item: dict[str, Any], card: Any, sectors: Any, regimes: Any) -> list[str]:
    """Why a dated sector item is out of its era (empty: it is not)."""
    from ipb.perturb.values import read_literal

    context = item["manifest"]["context"]
    if not context.get("as_of") or not context.get("sector"):
        return []
    when = dt.date.fromisoformat(context["as_of"])
    sector = sectors.get(context["sector"])
    found = []
    if when.year < SECTOR_FROM.get(sector.id, 0):
        found.append(f"sector {sector.id} before {SECTOR_FROM[sector.id]}")
    inputs = card.inputs
    facts = {}
    for name, text in item["scenario"]["facts"].items():
        spec = inputs.get(name)
        if spec is not None:
            facts[name] = read_literal(spec, text) if isinstance(text, str) and spec.type not in ("category",
                                                                                                  "bool") else text
            if facts[name] is None:
                facts[name] = text
    resampled = item["manifest"]["operators"][0]["details"].get("resampled", [])
    for name in resampled:
        metric = sectors.metric_for(inputs[name])
        f = factor(metric.id, when.year) if metric is not None else Decimal(1)
        if metric is None or f == 1 or metric.id not in sector.ranges:
            continue
        lo, hi = sector.ranges[metric.id]
        # a business model's own range is read in place of the sector's (sectors.yaml models:)
        for model_name in ("business_model",):
            model = facts.get(model_name)
            if isinstance(model, str) and metric.id in sectors.models.get(model, {}):
                lo, hi = sectors.models[model][metric.id]
        value = facts.get(name)
        if isinstance(value, Decimal) and not lo * f <= value <= hi * f:
            found.append(f"{name} {item['scenario']['facts'][name]} outside {lo * f:g}-{hi * f:g} in {when.year}")
    found.extend(str(p) for p in regimes.anachronisms(inputs, facts, when))
    return found


def one_base(card_id: str, base: Path, n: int, seed: int, folder: Path) -> dict[str, Any]:
    """Run the sector operator on one dated base; the row (items, dated items, out of era, examples)."""
    from typer.testing import CliRunner

    from ipb.cli import app
    from ipb.engine.card import load_card
    from ipb.engine.registry import bundled_card_paths
    from ipb.perturb.registries import bundled_regimes, bundled_sectors

    out = folder / "items.jsonl"
    out.unlink(missing_ok=True)
    args = ["perturb", "--card", card_id, "--base", str(base), "--ops", "sector", "--n", str(n), "--seed", str(seed),
            "--allow-short", "--out", str(out)]
    runner = CliRunner()
    made = runner.invoke(app, args)
    row: dict[str, Any] = {"card": card_id, "base": base.name, "items": 0, "dated": 0, "out": 0, "examples": [],
                           "note": ""}
    if made.exit_code != 0 and "outside the framework vintage" in made.output:
        row["note"] = "FM-6 probe"
        made = runner.invoke(app, [*args, "--fm6-probe"])
    if made.exit_code != 0:
        row["note"] = " ".join(made.output.split())[:140]
        return row
    card = load_card(next(p for p in bundled_card_paths() if Path(p).stem == card_id))
    sectors, regimes = bundled_sectors(), bundled_regimes()
    for line in out.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        row["items"] += 1
        if item["manifest"]["context"].get("as_of"):
            row["dated"] += 1
        found = problems(item, card, sectors, regimes)
        if found:
            row["out"] += 1
            if len(row["examples"]) < 3:
                row["examples"].append(f"{item['manifest']['context']['as_of']} {item['manifest']['context']['sector']}: "
                                       + "; ".join(found))
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--seed", type=int, default=5701)
    parser.add_argument("--cards", default="", help="comma-separated card id prefixes (default: all)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    only = [p for p in args.cards.split(",") if p]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for card_id, base in dated_bases(only):
            row = one_base(card_id, base, args.n, args.seed, Path(tmp))
            rows.append(row)
            if row["items"]:
                print(f"{card_id} {base.name}: {row['items']} items, {row['dated']} dated, {row['out']} out of era "
                      f"{row['examples'][:1]}", file=sys.stderr, flush=True)
    ran = [r for r in rows if r["items"]]
    total = sum(r["items"] for r in ran)
    dated = sum(r["dated"] for r in ran)
    out = sum(r["out"] for r in ran)
    print(f"{len(rows)} dated bases, {len(ran)} where sector substitution applies: {total} items, {dated} dated, "
          f"{out} out of era (seed {args.seed}, n {args.n})")
    if args.json is not None:
        args.json.write_text(json.dumps({"version": 1, "n": args.n, "seed": args.seed, "rows": rows}, indent=2),
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
