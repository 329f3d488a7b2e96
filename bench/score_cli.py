"""``ipb score`` end to end on a 1 MB answer made of citations (issue 16), against a tiny answer and a baseline tree.

Issue 16 filed the citation pass as quadratic: a 1 MB answer of citations took 31 s to parse and 43 s
through ``ipb score``. The bar: every reproducer gives the right result within 2 s. This script
times the command as a user types it, in fresh processes, interleaved, in the same run:

* ``tiny``: a one-line answer ("(Graham, 1934, p. 12) ... Verdict: INVEST."): the cost of starting
  ``ipb score`` and scoring one short response;
* ``cites-1mb``: ``"(Graham, 1934, p. 12) [1] Security Analysis (1934) "`` repeated 20,000 times
  (1,020,000 characters on one line, the issue's reproducer);

each scored against the L7 item of ``tests/robustness/data/item_l7.jsonl`` with
``--no-embeddings --no-progress``, by this tree and by a baseline tree (default ``git archive
main``). Both trees run from a ``PYTHONPATH`` layout (see ``bench/parse_cli.py``), each with its own
card cache and bytecode cache (``PYTHONPYCACHEPREFIX``; ``PYTHONDONTWRITEBYTECODE`` is dropped, as an
installed package has its ``.pyc`` files), filled by a warm-up run. Printed per tree and input: the
median wall and CPU time (user + system), the ratio cites-1mb / tiny (how much the answer itself
costs) and baseline / this tree, the 1-minute load average before and after, and the verdict on
the 2 s bar for this tree's cites-1mb median wall time.

    .venv/bin/python bench/score_cli.py [--baseline main] [--rounds 5] [--json OUT]

Keep runs short on shared machines: 5 rounds x 2 inputs x 2 trees is about 40 s unloaded.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from parse_cli import RUN, baseline_tree, layout, timed  # the same tree layout and timer as bench/parse_cli.py

ROOT = Path(__file__).resolve().parents[1]
ITEMS = ROOT / "tests" / "robustness" / "data" / "item_l7.jsonl"
CITATION = "(Graham, 1934, p. 12) [1] Security Analysis (1934) "
REPEATS = 20_000
BAR_S = 2.0


def inputs(folder: Path) -> tuple[Path, dict[str, Path]]:
    """The items file (copied, with the card copies it was made with) and the two responses files (deterministic)."""
    items = folder / "items.jsonl"
    items.write_bytes(ITEMS.read_bytes())
    if (ITEMS.parent / "ipb-cards").is_dir():  # the item pins its card's hash: score reads the copy beside it
        shutil.copytree(ITEMS.parent / "ipb-cards", folder / "ipb-cards")
    item_id = json.loads(ITEMS.read_text(encoding="utf-8").splitlines()[0])["id"]
    answers = {"tiny": "(Graham, 1934, p. 12) The company trades below NCAV. Verdict: INVEST.",
               "cites-1mb": CITATION * REPEATS}
    out = {}
    for name, text in answers.items():
        path = folder / f"{name}.jsonl"
        path.write_text(json.dumps({"item_id": item_id, "model": "m", "condition": "A", "response": text}) + "\n",
                        encoding="utf-8")
        out[name] = path
    return items, out


def load() -> float:
    return os.getloadavg()[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", default="main", help="git ref of the baseline tree (default main)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        items, files = inputs(tmp)
        trees = {"this tree": layout(ROOT, tmp / "this"),
                 f"baseline ({args.baseline})": layout(baseline_tree(args.baseline, tmp / "base-src"), tmp / "base")}
        envs = {}
        for i, (name, path) in enumerate(trees.items()):
            env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            envs[name] = {**env, "PYTHONPATH": str(path), "PYTHONSAFEPATH": "1", "IPB_CACHE_DIR": str(tmp / f"cache{i}"),
                          "PYTHONPYCACHEPREFIX": str(tmp / f"pyc{i}"), "HF_HUB_OFFLINE": "1", "COLUMNS": "200"}
        walls: dict[str, dict[str, list[float]]] = {t: {f: [] for f in files} for t in trees}
        cpus: dict[str, dict[str, list[float]]] = {t: {f: [] for f in files} for t in trees}
        outputs: dict[str, dict[str, str]] = {t: {} for t in trees}

        def command(file: Path, out: Path) -> list[str]:
            return [sys.executable, "-c", RUN, "score", "--items", str(items), "--responses", str(file), "--out", str(out),
                    "--no-embeddings", "--no-progress"]

        for name in trees:  # warm-up: bytecode, card cache, page cache
            for label, file in files.items():
                timed(command(file, tmp / "warm"), envs[name], tmp / "stdout.txt")
        load_before = load()
        for _ in range(args.rounds):
            for label, file in files.items():
                for t, name in enumerate(trees):
                    out = tmp / f"out{t}-{label}"
                    wall, cpu = timed(command(file, out), envs[name], tmp / "stdout.txt")
                    walls[name][label].append(wall)
                    cpus[name][label].append(cpu)
                    outputs[name][label] = (out / "responses.jsonl").read_text(encoding="utf-8") if (out / "responses.jsonl").exists() else ""
        load_after = load()
        base_name = next(n for n in trees if n != "this tree")
        results: dict[str, object] = {"load_1min": [load_before, load_after], "rounds": args.rounds, "trees": {}}
        print(f"ipb score --no-embeddings, {args.rounds} rounds, load average {load_before:.2f} -> {load_after:.2f} "
              f"({os.cpu_count()} CPUs); median wall (CPU) seconds:")
        for name in trees:
            med = {f: statistics.median(walls[name][f]) for f in files}
            cmed = {f: statistics.median(cpus[name][f]) for f in files}
            results["trees"][name] = {"median_wall_s": med, "median_cpu_s": cmed, "wall_s": walls[name], "cpu_s": cpus[name]}  # type: ignore[index]
            print(f"  {name:<22} tiny {med['tiny']:6.3f} ({cmed['tiny']:.3f})   cites-1mb {med['cites-1mb']:6.3f} "
                  f"({cmed['cites-1mb']:.3f})   cites-1mb / tiny {med['cites-1mb'] / med['tiny']:.2f}x wall, "
                  f"{cmed['cites-1mb'] / cmed['tiny']:.2f}x CPU")
        this = results["trees"]["this tree"]  # type: ignore[index]
        base = results["trees"][base_name]  # type: ignore[index]
        for f in files:
            print(f"  {f}: baseline / this tree {base['median_wall_s'][f] / this['median_wall_s'][f]:.2f}x wall, "
                  f"{base['median_cpu_s'][f] / this['median_cpu_s'][f]:.2f}x CPU")
        same = all(outputs["this tree"][f] == outputs[base_name][f] for f in files)
        print(f"  responses.jsonl identical between the trees: {'yes' if same else 'NO'}")
        wall = this["median_wall_s"]["cites-1mb"]
        verdict = "met" if wall < BAR_S else "NOT met"
        print(f"  bar (cites-1mb under {BAR_S:.0f} s end to end): {verdict} on this machine "
              f"({wall:.3f} s wall, {this['median_cpu_s']['cites-1mb']:.3f} s CPU, load {load_after:.2f})")
        results["bar"] = {"seconds": BAR_S, "met": wall < BAR_S, "identical_outputs": same}
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
