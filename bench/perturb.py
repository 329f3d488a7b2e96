"""Throughput of perturbed-item generation and verification, from 1k to 100k items.

Run from the repository root::

    .venv/bin/python bench/perturb.py [--sizes 1000,10000,100000] [--workers 2] [--cpus 2]
                                      [--ops metric,sector,temporal,flip] [--seed 0] [--json OUT]

For each size N it times, on the bundled Buffett card and the IPB-P-011 base
scenario (paper Appendix A.2):

* **generate**: :func:`ipb.perturb.generate` making N distinct items (operators,
  execution with full gold programs, question text, manifests, JSON lines),
  plus the atomic write of the JSONL file;
* **verify**: :func:`ipb.perturb.verify_items` reading the file back, checking
  every line against the item schema and re-executing every item against
  the card, comparing the gold field by field.

A run fails (exit 1) if any item does not verify. The target from the issue:
100,000 verified items (generated and verified) in under 60 s on two cores;
``--cpus 2`` pins the process and its workers to two CPUs where the machine
has more. Figures are wall-clock seconds from ``time.perf_counter`` for one
pass (generation is deterministic, so there is no warm-up to discard beyond
the first card compile, which is done before timing).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ipb.engine.registry import compiled_card
from ipb.perturb import Job, generate, parse_recipes, verify_items, write_lines
from ipb.perturb.generation import Generator

ROOT = Path(__file__).resolve().parents[1]
CARD = "buffett_acquisition_checklist"
BASE = ROOT / "frameworks" / "scenarios" / CARD / "ipb_p_011_base.yaml"
RESULTS_VERSION = 1
TARGET_N = 100_000
TARGET_S = 60.0


def pin(cpus: int | None) -> str:
    """Restrict this process (and the workers it forks) to the first ``cpus`` CPUs it may use."""
    if not cpus or not hasattr(os, "sched_setaffinity"):
        return "not pinned"
    allowed = sorted(os.sched_getaffinity(0))
    chosen = set(allowed[:cpus])
    os.sched_setaffinity(0, chosen)
    return f"pinned to CPUs {sorted(chosen)} of {len(allowed)}"


def cpu_seconds() -> float:
    """User + system CPU time of this process and of its finished worker processes."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run_size(n: int, job: Job, workers: int, folder: Path) -> dict[str, Any]:
    out = folder / f"items_{n}.jsonl"
    cpu0, start = cpu_seconds(), time.perf_counter()
    result = generate(job, n, workers=workers, generator=Generator(job))
    write_lines(out, result.lines)
    gen_s, gen_cpu = time.perf_counter() - start, cpu_seconds() - cpu0
    cpu0, start = cpu_seconds(), time.perf_counter()
    check = verify_items(out, workers=workers)
    verify_s, verify_cpu = time.perf_counter() - start, cpu_seconds() - cpu0
    return {
        "generate_cpu_s": round(gen_cpu, 3),
        "verify_cpu_s": round(verify_cpu, 3),
        "load_before": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
        "n": n,
        "generate_s": round(gen_s, 3),
        "generate_per_s": round(n / gen_s, 1),
        "verify_s": round(verify_s, 3),
        "verify_per_s": round(n / verify_s, 1),
        "total_s": round(gen_s + verify_s, 3),
        "verified_per_s": round(n / (gen_s + verify_s), 1),
        "bytes": out.stat().st_size,
        "verdicts": result.verdicts,
        "recipes": {r.recipe: r.items for r in result.recipes},
        "mismatched": len(check.mismatched),
        "unreadable": len(check.errors),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="Comma-separated item counts.")
    parser.add_argument("--workers", type=int, default=2, help="Worker processes for generation and verification.")
    parser.add_argument("--cpus", type=int, default=2, help="Pin to this many CPUs (0: do not pin).")
    parser.add_argument("--ops", default="metric,sector,temporal,flip")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None, help="Also write the figures as JSON.")
    args = parser.parse_args(argv)
    console = Console(highlight=False, width=160)
    cpu = pin(args.cpus)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    compiled_card(CARD)  # compile once before timing
    job = Job((CARD,), str(BASE), args.seed, parse_recipes(args.ops))
    try:
        import jsonschema_rs  # type: ignore[import-not-found]  # noqa: F401
        schema_checker = "jsonschema-rs (messages from jsonschema)"
    except ImportError:
        schema_checker = "jsonschema"
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            rows.append(run_size(n, job, args.workers, Path(tmp)))
            console.print(f"N={n}: {rows[-1]['total_s']} s", markup=False)
    table = Table(title=f"ipb perturb + verify, {CARD}, ops {args.ops}, {args.workers} workers, {cpu}",
                  title_justify="left")
    for col in ("items", "generate s", "generated/s", "verify s", "verified/s", "total s", "items/s end to end",
                "growth vs first", "CPU s"):
        table.add_column(col, justify="right")
    first = rows[0]["verified_per_s"] if rows else 1
    for r in rows:
        table.add_row(f"{r['n']:,}", f"{r['generate_s']:.2f}", f"{r['generate_per_s']:,.0f}", f"{r['verify_s']:.2f}",
                      f"{r['verify_per_s']:,.0f}", f"{r['total_s']:.2f}", f"{r['verified_per_s']:,.0f}",
                      f"{r['verified_per_s'] / first:.2f}x", f"{r['generate_cpu_s'] + r['verify_cpu_s']:.1f}")
    console.print(table)
    bad = [r for r in rows if r["mismatched"] or r["unreadable"]]
    target = next((r for r in rows if r["n"] == TARGET_N), None)
    if target is not None:
        met = target["total_s"] < TARGET_S
        console.print(f"target: {TARGET_N:,} verified items in under {TARGET_S:.0f} s: "
                      f"{'met' if met else 'NOT met'} ({target['total_s']:.1f} s)", markup=False)
    console.print(f"schema check: {schema_checker}; CPU s is user + system time of the run and its workers "
                  "(over 2 it is the wall time two otherwise idle cores would need); load average before: "
                  + ", ".join(str(r["load_before"]) for r in rows), markup=False)
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        doc = {
            "version": RESULTS_VERSION,
            "card": CARD,
            "ops": args.ops,
            "seed": args.seed,
            "workers": args.workers,
            "cpu": cpu,
            "schema_checker": schema_checker,
            "python": platform.python_version(),
            "platform": platform.platform(),
            "ipb": metadata.version("ipb"),
            "target": {"n": TARGET_N, "seconds": TARGET_S},
            "rows": rows,
        }
        args.json.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if bad:
        console.print(f"{len(bad)} size(s) had items that did not verify", markup=False)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
