"""Perturbed-item generation and verification: time and peak memory from 10k to 100k items, against a baseline.

Run from the repository root::

    .venv/bin/python bench/perturb.py [--sizes 10000,100000] [--baseline main] [--workers 1]
                                      [--ops metric,sector,temporal,flip] [--seed 0] [--json OUT]
                                      [--card ID[,ID...]] [--base SCENARIO.yaml] [--instructions]

For each size N and each code version (this tree, and the git revision
``--baseline`` unpacked with ``git archive`` into a temporary folder) a fresh
Python process, pinned to one CPU, makes N distinct items on the bundled
Buffett card and the IPB-P-011 base (paper Appendix A.2; ``--card`` and
``--base`` name others, several comma-separated cards for an L8 set), writes
them to a JSONL file and verifies the file (schema check and re-execution of
every item). It reports:

* **generate s** and **verify s**: wall-clock seconds (``time.perf_counter``);
* **peak MiB**: the process's peak resident memory (``ru_maxrss``), which the
  issue asks to stay within 1.2x from 10k to 100k items;
* **ratio**: baseline time over this tree's time at the same N, measured in
  the same run (above 1: this tree is faster); also the same ratio of the
  process's CPU time (``time.process_time``, fields ``generate_cpu_s`` and
  ``verify_cpu_s``), which a loaded machine disturbs less than wall time,
  and generation CPU seconds per 1,000 items with their ratio new/old;
* **same bytes**: whether the two item files have the same SHA-256 (a change
  meant only to be faster must keep every byte; s64speed). A baseline whose
  item format differs reads "NO" for that reason alone.
* **attempts** (s65speed): per recipe, items written, attempts made, and of
  those the constraint rejections and duplicates (attempts per item), and for
  ``flip`` the anchors drawn: screened unsearched (the dead-move screen),
  searched, and repaired (:func:`ipb.perturb.targeted._anchor`, counted by a
  wrapper; the counts are the same with and without ``--instructions``);
* **instructions** (``--instructions``, s65speed): generation alone under
  valgrind's cachegrind, less a run of N=0 for the start-up, per item and as
  the ratio new/old. A loaded machine does not move them (CPU time moves by
  a few percent); about 100x slower than a plain run, so use small N.

The last lines extrapolate this tree's generation CPU per 1,000 items to
100,000 items on one core (a long run's attempts per item rise, so it is a
floor).

The baseline writes the item format of its own version (questions, manifests
and all); both sides make the same number of items with the same recipes.
The targets from the issue: 100,000 items generated and verified in at most
20 s on one core, peak memory at 100k within 1.2x of that at 10k. A run
fails (exit 1) if any item does not verify.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CARD = "buffett_acquisition_checklist"
BASE = ROOT / "frameworks" / "scenarios" / CARD / "ipb_p_011_base.yaml"
RESULTS_VERSION = 5  # 3: CPU seconds per row; 4: cards, base and each file's sha256; 5: attempts, instructions
TARGET_N = 100_000
TARGET_S = 20.0
TARGET_MEMORY = 1.2


def child(n: int, ops: str, seed: int, workers: int, folder: Path, cards: str = CARD,
          base: str = str(BASE)) -> dict[str, Any]:
    """One measurement in this process (the parent starts one process per size and version).

    ``cards``: card ids separated by commas (several: an L8 set); ``base``: the base scenario file."""
    if hasattr(os, "sched_setaffinity") and workers == 1:
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    import ipb.perturb.generation as gen
    from ipb.engine.registry import compiled_card
    from ipb.perturb import Job, parse_recipes, verify_items

    ids = tuple(cards.split(","))
    for card in ids:
        compiled_card(card)  # compile before timing
    anchors = _count_anchors()
    job = Job(ids, base, seed, parse_recipes(ops) if ops else ())  # '': each card's default operators
    out = folder / f"items_{n}.jsonl"
    start, cpu = time.perf_counter(), time.process_time()
    if hasattr(gen, "write_items"):
        result = gen.write_items(out, job, n, workers=workers)
    else:  # the code before streaming: lines held, then written
        from ipb.perturb import write_lines
        result = gen.generate(job, n, workers=workers)
        write_lines(out, result.lines)
    gen_s, gen_cpu = time.perf_counter() - start, time.process_time() - cpu
    start, cpu = time.perf_counter(), time.process_time()
    check = verify_items(out, workers=workers)
    verify_s, verify_cpu = time.perf_counter() - start, time.process_time() - cpu
    return {
        "n": n,
        "generate_s": round(gen_s, 3),
        "verify_s": round(verify_s, 3),
        "total_s": round(gen_s + verify_s, 3),
        "generate_cpu_s": round(gen_cpu, 3),
        "verify_cpu_s": round(verify_cpu, 3),
        "peak_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "bytes": out.stat().st_size,
        "sha256": hashlib.sha256(out.read_bytes()).hexdigest(),
        "verified": check.ok,
        "recipes": {r.recipe: r.items for r in result.recipes},
        "attempts": {r.recipe: {"items": r.items, "attempts": r.attempts, "rejected": r.rejected,
                                "duplicates": r.duplicates} for r in result.recipes},
        "flip_anchors": dict(anchors),
    }


def _count_anchors() -> dict[str, int]:
    """Counts of the flip's anchors (:func:`ipb.perturb.targeted._anchor`) in this process, by what became of
    them: ``screened`` (dropped unsearched by the dead-move screen), ``searched``, ``none`` (no neighbour
    found), and ``repairs`` (:func:`~ipb.perturb.targeted._repair` calls). Empty for a tree without them."""
    counts = {"screened": 0, "searched": 0, "none": 0, "repairs": 0}
    try:
        from ipb.perturb import targeted
    except ImportError:  # pragma: no cover - a tree before the flip's anchors
        return counts
    if not hasattr(targeted, "_anchor") or not hasattr(targeted, "_repair"):
        return counts
    anchor, repair = targeted._anchor, targeted._repair

    def counted_anchor(*a: Any, **k: Any) -> Any:
        moved, changed = anchor(*a, **k)
        counts["screened" if moved is None else "searched" if changed else "none"] += 1
        return moved, changed

    def counted_repair(*a: Any, **k: Any) -> Any:
        counts["repairs"] += 1
        return repair(*a, **k)
    targeted._anchor, targeted._repair = counted_anchor, counted_repair  # type: ignore[assignment]
    return counts


def instructions(n: int, ops: str, seed: int, cards: str, base: str) -> None:
    """Generation alone (no verify, one worker), for a run under cachegrind (``--instructions``)."""
    import ipb.perturb.generation as gen
    from ipb.perturb import Job, parse_recipes

    job = Job(tuple(cards.split(",")), base, seed, parse_recipes(ops) if ops else ())
    if n:
        gen.write_items(Path("items_cg.jsonl"), job, n, workers=1)


def unpack(revision: str, folder: Path) -> Path:
    """``git archive REVISION`` unpacked into ``folder/src`` and an ``ipb`` package tree in ``folder/pkg``."""
    src = folder / "src"
    src.mkdir(parents=True)
    tar = folder / "src.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(tar), revision], check=True)
    with tarfile.open(tar) as archive:
        archive.extractall(src, filter="data")
    return layout(src, folder / "pkg")


def layout(src: Path, pkg_root: Path) -> Path:
    """An ``ipb`` package tree in ``pkg_root`` whose modules are ``src``'s (symbolic links), for ``PYTHONPATH``.

    The editable install maps ``ipb.perturb`` and the other folders to the checkout it was installed from; a
    git worktree that shares its ``.venv`` would otherwise measure that checkout's code as "this tree"
    (s61speed: from a worktree, both rows ran /work/main's code)."""
    pkg = pkg_root / "ipb"
    pkg.mkdir(parents=True)
    mapping = {"engine": "engine", "cli": "cli", "respond": "respond", "scoring": "scoring", "report": "report",
               "neighbours": "neighbours", "perturb": "perturb", "frameworks": "frameworks", "grammar": "grammar",
               "distributed": "distributed", "integrations": "integrations"}
    for entry in (src / "ipb").iterdir():
        (pkg / entry.name).symlink_to(entry)
    for name, where in mapping.items():
        if (src / where).is_dir() and not (pkg / name).exists():
            (pkg / name).symlink_to(src / where)
    return pkg_root


def measure(n: int, args: argparse.Namespace, path: Path | None, folder: Path) -> dict[str, Any]:
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = str(path)
    code = ("import json, importlib.util as u; from pathlib import Path; "
            "s = u.spec_from_file_location('bench_perturb', %r); b = u.module_from_spec(s); s.loader.exec_module(b); "
            "print(json.dumps(b.child(%d, %r, %d, %d, Path(%r), %r, %r)))"
            % (str(Path(__file__)), n, args.ops, args.seed, args.workers, str(folder), args.card, args.base))
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=folder)
    if run.returncode != 0:
        raise SystemExit(f"measurement of N={n} failed:\n{run.stderr[-3000:]}")
    row: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    if path is not None:
        check = subprocess.run([sys.executable, "-c", "import ipb.perturb, sys; print(ipb.perturb.__file__)"],
                               env=env, capture_output=True, text=True, cwd=folder)
        row["code"] = check.stdout.strip()
    for stale in Path(folder).glob("items_*.jsonl"):
        stale.unlink()
    return row


def _load() -> str:
    """The 1-minute load average, for the record of a timing on a shared machine."""
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "n/a"


def measure_instructions(n: int, args: argparse.Namespace, path: Path | None, folder: Path) -> int:
    """Instructions of generating ``n`` items (cachegrind's ``I refs``) with the code at ``path``."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = str(path)
    code = ("import importlib.util as u; "
            "s = u.spec_from_file_location('bench_perturb', %r); b = u.module_from_spec(s); s.loader.exec_module(b); "
            "b.instructions(%d, %r, %d, %r, %r)" % (str(Path(__file__)), n, args.ops, args.seed, args.card, args.base))
    run = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=folder)
    found = [line for line in run.stderr.splitlines() if "I" in line and "refs:" in line]
    if run.returncode != 0 or not found:
        raise SystemExit(f"cachegrind of N={n} failed:\n{run.stderr[-3000:]}")
    for stale in Path(folder).glob("items_cg.jsonl"):
        stale.unlink()
    return int(found[-1].split("refs:")[1].replace(",", "").strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000", help="Comma-separated item counts.")
    parser.add_argument("--baseline", default="main", help="Git revision to compare with ('' for none).")
    parser.add_argument("--workers", type=int, default=1, help="Worker processes (1: one core, the issue's target).")
    parser.add_argument("--ops", default="metric,sector,temporal,flip", help="Recipes ('' for the cards' defaults).")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--card", default=CARD, help="Card id(s), comma-separated (several: an L8 set).")
    parser.add_argument("--base", default=str(BASE), help="Base scenario file.")
    parser.add_argument("--json", type=Path, default=None, help="Also write the figures as JSON.")
    parser.add_argument("--instructions", action="store_true",
                        help="Also count generation's instructions under cachegrind (start-up taken off).")
    args = parser.parse_args(argv)
    args.base = str(Path(args.base).resolve())  # each child runs in a folder of its own
    sizes = [int(s) for s in args.sizes.split(",") if s]
    rows: dict[str, list[dict[str, Any]]] = {"this tree": [], args.baseline: []} if args.baseline else {"this tree": []}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        old = unpack(args.baseline, folder / "baseline") if args.baseline else None
        mine_path = layout(ROOT, folder / "this_tree")
        work = folder / "work"
        work.mkdir()
        for n in sizes:
            rows["this tree"].append(measure(n, args, mine_path, work))
            print(f"this tree N={n}: {rows['this tree'][-1]}", flush=True)
            if old is not None:
                rows[args.baseline].append(measure(n, args, old, work))
                print(f"{args.baseline} N={n}: {rows[args.baseline][-1]}", flush=True)
        if args.instructions:
            for code, path in (("this tree", mine_path), (args.baseline, old)):
                if not code or (code != "this tree" and path is None):
                    continue
                start = measure_instructions(0, args, path, work)
                for row in rows[code]:
                    row["instructions"] = measure_instructions(row["n"], args, path, work) - start
                    row["instructions_startup"] = start
                    print(f"{code} N={row['n']}: {row['instructions']:,} instructions (start-up {start:,})",
                          flush=True)
    print()
    print(f"ipb perturb + verify, {args.card}, base {Path(args.base).name}, ops {args.ops}, seed {args.seed}, "
          f"{args.workers} worker(s), one process per row")
    print(f"{'code':12} {'items':>8} {'generate s':>11} {'verify s':>9} {'total s':>8} {'peak MiB':>9} {'MiB/item':>9}")
    for code, code_rows in rows.items():
        for r in code_rows:
            print(f"{code:12} {r['n']:>8,} {r['generate_s']:>11.2f} {r['verify_s']:>9.2f} {r['total_s']:>8.2f} "
                  f"{r['peak_mib']:>9.1f} {r['peak_mib'] / r['n'] * 1024:>8.2f}K")
    mine = rows["this tree"]
    if args.baseline:
        for a, b in zip(mine, rows[args.baseline]):
            print(f"N={a['n']:,}: baseline/this tree time ratio {b['total_s'] / a['total_s']:.2f} "
                  f"(generate {b['generate_s'] / a['generate_s']:.2f}, verify {b['verify_s'] / a['verify_s']:.2f}); "
                  f"peak memory ratio {b['peak_mib'] / a['peak_mib']:.2f}")
            if "generate_cpu_s" in a and "generate_cpu_s" in b:
                ca, cb = a["generate_cpu_s"] + a["verify_cpu_s"], b["generate_cpu_s"] + b["verify_cpu_s"]
                print(f"N={a['n']:,}: baseline/this tree CPU-time ratio {cb / ca:.2f} "
                      f"(this tree {ca:.2f} s, baseline {cb:.2f} s of process CPU; steadier than wall "
                      f"time on a shared machine)")
                per_a, per_b = a["generate_cpu_s"] / a["n"] * 1000, b["generate_cpu_s"] / b["n"] * 1000
                print(f"N={a['n']:,}: generation CPU per 1,000 items: this tree {per_a:.3f} s, baseline "
                      f"{per_b:.3f} s (ratio new/old {per_a / per_b:.3f})")
            if "sha256" in a and "sha256" in b:
                print(f"N={a['n']:,}: same bytes as the baseline: {'yes' if a['sha256'] == b['sha256'] else 'NO'}")
    for code, code_rows in rows.items():
        for r in code_rows:
            for recipe, a in r.get("attempts", {}).items():
                print(f"{code:12} N={r['n']:,} {recipe}: {a['items']:,} items, {a['attempts']:,} attempts "
                      f"({a['attempts'] / max(1, a['items']):.2f} an item), {a['rejected']:,} rejected by a "
                      f"constraint, {a['duplicates']:,} duplicates")
            anchors = r.get("flip_anchors") or {}
            if any(anchors.values()):
                print(f"{code:12} N={r['n']:,} flip anchors: {anchors['screened']:,} screened unsearched, "
                      f"{anchors['searched']:,} searched, {anchors['none']:,} none found, "
                      f"{anchors['repairs']:,} repairs")
    if args.baseline:
        for a, b in zip(mine, rows[args.baseline]):
            if "instructions" in a and "instructions" in b:
                ia, ib = a["instructions"] / a["n"], b["instructions"] / b["n"]
                print(f"N={a['n']:,}: instructions per item: this tree {ia / 1e6:.2f}M, baseline {ib / 1e6:.2f}M "
                      f"(ratio new/old {ia / ib:.3f})")
    for r in mine:
        per = r["generate_cpu_s"] / r["n"] * 1000
        print(f"N={r['n']:,}: this tree's generation CPU, {per:.3f} s per 1,000 items, extrapolates to "
              f"{per * TARGET_N / 1000:.0f} s for {TARGET_N:,} items on one core (a floor: attempts per item rise "
              f"in a long run; load average {_load()})")
    by_n = {r["n"]: r for r in mine}
    if 10_000 in by_n and TARGET_N in by_n:
        growth = by_n[TARGET_N]["peak_mib"] / by_n[10_000]["peak_mib"]
        print(f"memory: peak at 100k is {growth:.2f}x the peak at 10k (target <= {TARGET_MEMORY}x): "
              f"{'met' if growth <= TARGET_MEMORY else 'NOT met'}")
    if TARGET_N in by_n:
        t = by_n[TARGET_N]["total_s"]
        print(f"time: 100k generated and verified in {t:.1f} s (target <= {TARGET_S:.0f} s on one core): "
              f"{'met' if t <= TARGET_S else 'NOT met'}; load average before the run: "
              f"{os.getloadavg()[0] if hasattr(os, 'getloadavg') else 'n/a'}")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        doc = {"version": RESULTS_VERSION, "card": args.card, "base": args.base, "ops": args.ops, "seed": args.seed,
               "workers": args.workers,
               "baseline": args.baseline, "python": platform.python_version(), "platform": platform.platform(),
               "rows": rows}
        args.json.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    bad = [r for code_rows in rows.values() for r in code_rows if not r["verified"]]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
