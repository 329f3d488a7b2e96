"""Why perturbed items break a constraint after a move: counts of ``redraw_if_broken``'s work (issue 18 item 7).

Run from the repository root::

    .venv/bin/python bench/redraw_breaks.py [--n 3000] [--ops metric,sector,temporal,flip] [--seed 0]

It makes N items as ``bench/perturb.py`` does (the bundled Buffett card, the
IPB-P-011 base, ``write_items`` with one worker) with
:func:`ipb.perturb.feasible.redraw_if_broken` and
:func:`ipb.perturb.feasible.feasible_intervals` wrapped to count, without
changing what they return or the random numbers they draw:

* **calls**: draws handed to ``redraw_if_broken`` (metric and sector moves,
  the flip's anchor repair), and of them the ones no constraint reaches and
  the ones that break at least one constraint (those go on to a feasible-set
  search, or to its memo);
* per input: the breaking draws, the grid's size (values; grids of more than
  ``EXACT_LIMIT`` values are probed, not checked value by value), the
  searches actually run (memo misses), probes per search and how many
  intervals the searches found;
* per input and constraint: how often the constraint was one that the draw
  broke (a draw may break several; era bounds on a quotient, paper §6.5 and
  ``frameworks/regimes.yaml``, are labelled ``era bound``).

The counts are of calls, not seconds: they are the same on a loaded machine.
Nothing is timed; the items file goes to a temporary folder.
"""

from __future__ import annotations

import argparse
import collections
import tempfile
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
CARD = "buffett_acquisition_checklist"
BASE = ROOT / "frameworks" / "scenarios" / CARD / "ipb_p_011_base.yaml"


def measure(n: int, ops: str = "metric,sector,temporal,flip", seed: int = 0) -> dict[str, Any]:
    """Counts of one run of ``n`` items (see the module docstring); a dict of plain counters."""
    import ipb.perturb.feasible as feasible
    import ipb.perturb.generation as gen
    import ipb.perturb.operators as operators
    from ipb.perturb import Job, parse_recipes

    calls: collections.Counter[str] = collections.Counter()
    by_input: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    by_rule: collections.Counter[tuple[str, str]] = collections.Counter()
    labels: dict[Any, str] = {}
    current: list[str | None] = [None]
    real_redraw, real_intervals = feasible.redraw_if_broken, feasible.feasible_intervals

    def label(fn: Callable[..., Any]) -> str:
        return labels.get(fn) or ("era bound" if "era_checks" in getattr(fn, "__qualname__", "") else
                                  getattr(fn, "__qualname__", repr(fn)))

    def redraw(frame: Any, facts: Any, name: str, rng: Any, avoid: Any, pending: Any = (), day: Any = None,
               within: Any = None) -> Any:
        if not labels:
            labels.update({k.expr.fn: k.id for c in frame.cards for k in c.card.constraints})
        checks = feasible.constraint_checks(frame, name)
        if day is not None:
            checks = feasible._with_era(frame, name, day, checks)
        if pending and checks:
            checks = feasible.checks_without_pending(frame, name, tuple(pending), checks)
        calls["calls"] += 1
        if not checks:
            calls["no constraint reaches the input"] += 1
        else:
            broken = [label(fn) for fn, _ in checks if fn(facts) is False]  # the checks are pure: no side effect
            if broken:
                calls["breaking draws"] += 1
                row = by_input[name]
                row["breaking draws"] += 1
                row["grid values"] = frame.grids[name].count
                for rule in broken:
                    by_rule[(name, rule)] += 1
        current[0] = name
        try:
            return real_redraw(frame, facts, name, rng, avoid, pending, day, within)
        finally:
            current[0] = None

    def intervals(ok: Callable[[int], bool], count: int, near: Any = None) -> Any:
        asked = [0]

        def counted(k: int) -> bool:
            asked[0] += 1
            return ok(k)
        found = real_intervals(counted, count, near)
        if current[0] is not None:
            row = by_input[current[0]]
            row["searches"] += 1
            row["probes"] += asked[0]
            row[f"searches finding {min(len(found), 2)}{'+' if len(found) >= 2 else ''} intervals"] += 1
        return found

    # targeted._repair imports redraw_if_broken from feasible when called, operators at import: both patched
    patched = [(feasible, "redraw_if_broken", redraw), (operators, "redraw_if_broken", redraw),
               (feasible, "feasible_intervals", intervals)]
    held = [(module, name, getattr(module, name)) for module, name, _ in patched]
    try:
        for module, name, fn in patched:
            setattr(module, name, fn)
        job = Job((CARD,), str(BASE), seed, parse_recipes(ops))
        with tempfile.TemporaryDirectory() as folder:
            gen.write_items(Path(folder) / "items.jsonl", job, n, workers=1)
    finally:
        for module, name, fn in held:
            setattr(module, name, fn)
    return {"n": n, "calls": dict(calls), "by_input": {k: dict(v) for k, v in by_input.items()},
            "by_rule": [(name, rule, count) for (name, rule), count in by_rule.most_common()]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=3000)
    parser.add_argument("--ops", default="metric,sector,temporal,flip")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    out = measure(args.n, args.ops, args.seed)
    print(f"{out['n']} items, {CARD}, ops {args.ops}, seed {args.seed}")
    for key, value in out["calls"].items():
        print(f"  {key:<34} {value:>8,}")
    print("\ninput                breaking  grid values  searches  probes/search  intervals found (0 / 1 / 2+)")
    for name, row in sorted(out["by_input"].items(), key=lambda kv: -kv[1].get("breaking draws", 0)):
        searches = row.get("searches", 0)
        per = row.get("probes", 0) / searches if searches else 0.0
        found = " / ".join(str(row.get(f"searches finding {k} intervals", 0)) for k in ("0", "1", "2+"))
        print(f"{name:<20} {row.get('breaking draws', 0):>8,} {row.get('grid values', 0):>12,} {searches:>9,}"
              f" {per:>14.1f}  {found}")
    print("\ninput                constraint broken by the draw (a draw may break several)          count")
    for name, rule, count in out["by_rule"]:
        print(f"{name:<20} {rule:<64} {count:>6,}")


if __name__ == "__main__":
    main()
