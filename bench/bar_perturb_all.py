"""Issue 18 bar, line 1: ``ipb perturb --card ID --base S --n N`` with no ``--ops`` succeeds on every bundled card
and every scenario it bundles, and ``ipb verify`` passes each output.

Run from the repository root::

    .venv/bin/python bench/bar_perturb_all.py [--n 1000] [--seed 0] [--bases bar|all] [--cards buffett_,marks_] [--json OUT]

For each bundled card (``ipb.engine.registry.bundled_card_paths``) and each
scenario under ``frameworks/scenarios/<card id>/`` (``--bases all``, the
default), or the bar's sample (``--bases bar``: every card's first scenario in
name order and the second of ten cards drawn with ``--seed``), the script runs
the two commands through the CLI itself (``typer.testing.CliRunner``, in this process,
so the cards compile once), with the card's default operators, and prints one
row per run:

* **items**: items written (N unless the command failed);
* **shortfall**: N minus items (0 on a passing row);
* **operator mix**: items per recipe, from the run's ``--report``;
* **verify**: ``ok`` when ``ipb verify`` exits 0, else its summary line;
* **rejections**: candidates refused for breaking a card (or deck) constraint,
  over all attempts, all recipes together (``constraint_rejections`` of the
  report), and the recipe with the most;
* **s**: wall seconds for generate + verify (a loaded machine inflates them).

A base dated outside its card's vintage is refused by ``ipb perturb`` with a
located error that names ``--fm6-probe`` (paper FM-6: such a base is a probe of
the framework outside its era); the script then runs the probe and marks the
row "(FM-6 probe)".

Exit status 1 when any command fails. Seeds are fixed (``--seed``), so two runs
write the same items.

References: paper section 4.3 (perturbation operators); docs/perturbation.md.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "frameworks" / "scenarios"


def bundled_runs(only: list[str]) -> list[tuple[str, Path]]:
    """(card id, scenario path) for every bundled card and each scenario it bundles, sorted; ``only``: id prefixes."""
    from ipb.engine.registry import bundled_card_paths

    runs = []
    for path in sorted(bundled_card_paths(), key=lambda p: Path(p).stem):
        card = Path(path).stem
        if only and not any(card.startswith(p) for p in only):
            continue
        for base in sorted((SCENARIOS / card).glob("*.yaml")):
            runs.append((card, base))
    return runs


#: Cards whose second scenario ``--bases bar`` adds (issue 18 bar line 1: a second base for 10 cards).
SECOND_BASES = 10


def bar_runs(only: list[str], seed: int) -> list[tuple[str, Path]]:
    """The bar's sample of :func:`bundled_runs`: each card's first scenario (name order), and the second scenario
    of :data:`SECOND_BASES` cards drawn with ``random.Random(seed)`` among those bundling two or more."""
    by_card: dict[str, list[Path]] = {}
    for card, base in bundled_runs(only):
        by_card.setdefault(card, []).append(base)
    two = sorted(card for card, bases in by_card.items() if len(bases) > 1)
    seconds = set(random.Random(seed).sample(two, min(SECOND_BASES, len(two))))
    return [(card, base) for card, bases in by_card.items() for base in bases[:2 if card in seconds else 1]]


def one_run(card: str, base: Path, n: int, seed: int, folder: Path) -> dict[str, Any]:
    """Generate N items on ``card``/``base`` and verify them, both through the CLI; the row's fields."""
    from typer.testing import CliRunner

    from ipb.cli import app

    runner = CliRunner()
    out, report = folder / "items.jsonl", folder / "report.json"
    for stale in (out, report):
        stale.unlink(missing_ok=True)
    start = time.perf_counter()
    args = ["perturb", "--card", card, "--base", str(base), "--n", str(n), "--seed", str(seed), "--out", str(out),
            "--report", str(report)]
    made = runner.invoke(app, args)
    row: dict[str, Any] = {"card": card, "base": base.name, "n": n, "items": 0, "mix": "", "verify": "not run",
                           "rejected": 0, "attempts": 0, "worst": "", "ok": False, "note": ""}
    if made.exit_code != 0 and "outside the framework vintage" in made.output:
        # a base dated outside the card's vintage is refused by design (a located error naming --fm6-probe);
        # the bar then asks that the FM-6 probe run succeed and verify
        row["note"] = "outside the card's vintage: refused without --fm6-probe (by design), row is the probe run"
        made = runner.invoke(app, [*args, "--fm6-probe"])
    if made.exit_code != 0:
        row["verify"] = "perturb failed: " + " ".join(made.output.split())[:160]
        row["seconds"] = round(time.perf_counter() - start, 1)
        return row
    rep = json.loads(report.read_text(encoding="utf-8"))
    recipes = rep["recipes"]
    row["items"] = sum(r["items"] for r in recipes)
    row["mix"] = " ".join(f"{r['recipe']}:{r['items']}" for r in recipes)
    row["rejected"] = sum(r["constraint_rejections"] for r in recipes)
    row["attempts"] = sum(r["attempts"] for r in recipes)
    worst = max(recipes, key=lambda r: r["constraint_rejections"])
    if worst["constraint_rejections"]:
        row["worst"] = f"{worst['recipe']} {worst['constraint_rejections']}/{worst['attempts']}"
    checked = runner.invoke(app, ["verify", str(out)])
    row["ok"] = checked.exit_code == 0
    last = [line for line in checked.output.splitlines() if line.startswith("verified ")]
    row["verify"] = "ok" if row["ok"] else (last[-1] if last else " ".join(checked.output.split())[:160])
    row["seconds"] = round(time.perf_counter() - start, 1)
    return row


def table(rows: list[dict[str, Any]]) -> str:
    """A Markdown table of the rows (one per card and base)."""
    head = "| card | base | items | shortfall | operator mix | verify | rejections (all / attempts; worst recipe) | s |"
    lines = [head, "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        share = f"{r['rejected']}/{r['attempts']}" + (f" ({100 * r['rejected'] / r['attempts']:.1f}%)"
                                                       if r["attempts"] else "")
        base = r["base"] + (" (FM-6 probe)" if r.get("note") else "")
        lines.append(f"| {r['card']} | {base} | {r['items']} | {r['n'] - r['items']} | {r['mix']} | {r['verify']} | "
                     f"{share}{'; ' + r['worst'] if r['worst'] else ''} | {r.get('seconds', '')} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="items per run (the bar: 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bases", choices=("all", "bar"), default="all",
                        help="all: every bundled scenario; bar: each card's first and ten cards' second (seeded)")
    parser.add_argument("--cards", default="", help="comma-separated card id prefixes (default: all)")
    parser.add_argument("--json", type=Path, default=None, help="also write the rows as JSON")
    args = parser.parse_args(argv)
    only = [p for p in args.cards.split(",") if p]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        runs = bar_runs(only, args.seed) if args.bases == "bar" else bundled_runs(only)
        for card, base in runs:
            row = one_run(card, base, args.n, args.seed, Path(tmp))
            rows.append(row)
            print(f"{card} {base.name}: {row['items']} items ({args.n - row['items']} short), verify {row['verify']}, "
                  f"{row['rejected']}/{row['attempts']} rejected, {row['seconds']} s", file=sys.stderr, flush=True)
    print(table(rows))
    failed = [r for r in rows if not r["ok"] or r["items"] != args.n]
    probes = sum(1 for r in rows if r.get("note"))
    print(f"\n{len(rows)} runs (N={args.n}, seed {args.seed}): {len(rows) - len(failed)} passed, {len(failed)} failed"
          f"; {probes} base(s) outside their card's vintage run as FM-6 probes")
    if args.json is not None:
        args.json.write_text(json.dumps({"version": 1, "n": args.n, "seed": args.seed, "rows": rows}, indent=2),
                             encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
