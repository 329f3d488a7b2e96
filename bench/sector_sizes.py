"""Count perturbed items whose money facts are out of scale for their sector and date (s45items, issue 18).

An item breaks the class when, on its decision date, it states a company figure above what the largest company
of its sector could state that year: the figure's bound in ``frameworks/regimes.yaml`` (``sizes.largest`` for a
market value, the ``sizes.figures`` table without ``when`` that lists the input by name otherwise) times the
sector's share (``sizes.sectors.shares``). It also counts the items above the plain all-company bound. Undated
items are counted apart: with no date there is no era to compare with.

This reads the YAML file and the items' JSON itself (PyYAML, its own table look-ups and money parser), not
through ``ipb.perturb``, so a mistake in the registry's reading of the table does not hide from the count. It
reads inputs by the names the file lists, not by label phrases (the bundled cards' size inputs all have listed
names).

Usage::

    .venv/bin/python bench/sector_sizes.py ITEMS.jsonl [ITEMS.jsonl ...] [--regimes frameworks/regimes.yaml]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from decimal import Decimal
from pathlib import Path

import yaml

_SCALE = {"K": Decimal(10) ** 3, "M": Decimal(10) ** 6, "B": Decimal(10) ** 9, "T": Decimal(10) ** 12}


def money(text: object) -> Decimal | None:
    """``$1.5B`` -> 1500000000; None for anything that is not a dollar amount.

    >>> money("$1.5B"), money("-$20M"), money("$40"), money("40%")
    (Decimal('1.5E+9'), Decimal('-2.0E+7'), Decimal('40'), None)
    """
    if not isinstance(text, str):
        return None
    m = re.fullmatch(r"(-?)\$(-?[0-9][0-9,]*(?:\.[0-9]+)?)([KMBT]?)", text.strip())
    if m is None:
        return None
    value = Decimal(m.group(2).replace(",", "")) * _SCALE.get(m.group(3), Decimal(1))
    return -value if m.group(1) else value


def at_year(rows: list, year: int, read=money) -> Decimal:
    """The larger of the listed rows around ``year`` (the first before the first row, the last after the last).

    >>> at_year([[1990, "$80B"], [1995, "$130B"]], 1992), at_year([[1990, "$80B"]], 1950)
    (Decimal('1.30E+11'), Decimal('8.0E+10'))
    """
    before = [read(v) for y, v in rows if y <= year]
    after = [read(v) for y, v in rows if y >= year]
    return max(before[-1:] + after[:1])


def tables(regimes: dict) -> tuple[dict[str, list], dict[str, list], list[str]]:
    """(input name -> its bound rows, sector value -> share rows, sector inputs) from the regimes file."""
    sizes = regimes["sizes"]
    bounds = {name: sizes["largest"] for name in sizes["inputs"]}
    for figure in sizes.get("figures") or ():
        if not figure.get("when"):
            for name in figure["inputs"]:
                bounds.setdefault(name, figure["largest"])
    sectors = sizes.get("sectors") or {}
    shares = {v: t["share"] for t in sectors.get("shares") or () for v in t["values"]}
    return bounds, shares, list(sectors.get("inputs") or ())


def breaks(item: dict, bounds: dict, shares: dict, sector_inputs: list) -> tuple[list[str], list[str]]:
    """(facts above the sector's bound, facts above the all-company bound) of one dated item."""
    scenario = item["scenario"]
    year = int(scenario["as_of"][:4])
    facts = scenario["facts"]
    sector = next((facts[n] for n in sector_inputs if isinstance(facts.get(n), str)), None)
    share = at_year(shares[sector], year, lambda v: Decimal(str(v))) if sector in shares else Decimal(1)
    by_sector, by_all = [], []
    for name, text in facts.items():
        value = money(text)
        if value is None or name not in bounds:
            continue
        bound = at_year(bounds[name], year)
        if value > bound:
            by_all.append(f"{name} {text}")
        elif value > bound * share:
            by_sector.append(f"{name} {text} ({sector} {year}: over {share} x {bound / _SCALE['B']:f}B)")
    return by_sector, by_all


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("items", nargs="+", type=Path)
    ap.add_argument("--regimes", type=Path, default=Path("frameworks/regimes.yaml"))
    ap.add_argument("--show", type=int, default=3, help="examples printed per file")
    args = ap.parse_args(argv)
    bounds, shares, sector_inputs = tables(yaml.safe_load(args.regimes.read_text(encoding="utf-8")))
    for path in args.items:
        items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        dated = [i for i in items if i["scenario"].get("as_of")]
        found = [(i, *breaks(i, bounds, shares, sector_inputs)) for i in dated]
        sector = [f for f in found if f[1]]
        whole = [f for f in found if f[2]]
        print(f"{path.name}: {len(items)} items, {len(dated)} dated; above the sector's bound {len(sector)}, "
              f"above the all-company bound {len(whole)}, undated {len(items) - len(dated)}")
        for item, why, _ in sector[:args.show]:
            print(f"  {item['id']}: {'; '.join(why)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
