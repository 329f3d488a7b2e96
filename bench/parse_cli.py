"""``ipb parse CARD FILE --format json`` end to end on 5 MB of repeated years (issue 16), against a baseline tree.

Issue 16 filed ``ipb parse --format json`` on 5 MB of repeated years at 73 s and 6.6 GB, and a
later pass at 6.3 s (about 2.9 s start-up, 0.63 s parse, the rest output). The bar: under 2 s end
to end. This script times the command as a user types it, in fresh processes, interleaved with the
same command of a baseline tree (default: ``git archive main``), in the same run:

* ``years-prose``: ``"In 1999 the firm earned more than in 2001. "`` repeated to 5 MB;
* ``years-list``: the years 1900-2019 separated by spaces, repeated to 5 MB (4 million digits).

Both trees run as ``python -c 'from ipb.cli import main; main()' parse CARD FILE --format json``
with ``PYTHONPATH`` pointing at a package layout built from the tree (pyproject's ``package-dir``
as symlinks), each with its own fresh card cache filled by a warm-up run. Printed per input: the
median wall time of each tree, the ratio baseline / this tree, the output size, and one in-process
split of this tree (imports, card, parse, JSON encoding) so the remaining cost is visible.

    .venv/bin/python bench/parse_cli.py [--baseline main] [--rounds 5] [--card graham_net_net_screen] [--json OUT]

Keep runs short on shared machines: the default is 5 rounds per tree and input (about a minute).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIZE = 5_000_000

RUN = "import sys; sys.argv[0] = 'ipb'; from ipb.cli import main; sys.exit(main())"

SPLIT = r"""
import sys, time, json
t0 = time.perf_counter()
import ipb.cli
from ipb.cli._app import app  # noqa: F401
t1 = time.perf_counter()
import ipb.cli.commands.parse as command
t2 = time.perf_counter()
from ipb.engine import registry
card = registry.loaded_card(sys.argv[1]) if hasattr(registry, "loaded_card") else registry.compiled_card(sys.argv[1]).card
t3 = time.perf_counter()
text = open(sys.argv[2], "rb").read().decode("utf-8", errors="replace")
parsed = command.parse_response(text, card)
t4 = time.perf_counter()
out = json.dumps(parsed.to_dict(), indent=2, ensure_ascii=False)
t5 = time.perf_counter()
print(json.dumps({"import_cli": t1 - t0, "import_command": t2 - t1, "card": t3 - t2, "parse": t4 - t3, "json": t5 - t4}))
"""


def inputs(folder: Path) -> dict[str, Path]:
    """The two 5 MB answers (deterministic)."""
    sentence = "In 1999 the firm earned more than in 2001. "
    prose = (sentence * (SIZE // len(sentence) + 1))[:SIZE]
    years = " ".join(str(1900 + i % 120) for i in range(SIZE // 5 + 1))[:SIZE]
    out = {}
    for name, text in (("years-prose", prose), ("years-list", years)):
        path = folder / f"{name}.txt"
        path.write_text(text, encoding="utf-8")
        out[name] = path
    return out


def layout(tree: Path, into: Path) -> Path:
    """A folder for ``PYTHONPATH`` in which ``import ipb`` finds ``tree``'s packages (pyproject's ``package-dir``)."""
    config = tomllib.loads((tree / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    dirs: dict[str, str] = config.get("package-dir", {})
    top = into / "ipb"
    top.mkdir(parents=True)
    for entry in (tree / dirs.get("ipb", "ipb")).iterdir():
        (top / entry.name).symlink_to(entry)
    for package, folder in dirs.items():
        if package == "ipb" or package.count(".") != 1:
            continue
        link = top / package.split(".", 1)[1]
        if not link.exists():
            link.symlink_to(tree / folder)
    return into


def baseline_tree(ref: str, into: Path) -> Path:
    """``git archive REF`` unpacked into ``into``."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", ref], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def timed(cmd: list[str], env: dict[str, str], out: Path) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one run of ``cmd``, stdout into ``out``.

    The run's working folder is ``out``'s: from the repository root, ``import ipb`` would find
    the work tree's ``ipb/`` folder before ``PYTHONPATH``.
    """
    start = time.perf_counter()
    with out.open("wb") as sink:
        proc = subprocess.Popen(cmd, env=env, stdout=sink, stderr=subprocess.DEVNULL, cwd=out.parent)
        _, _, usage = os.wait4(proc.pid, 0)
        proc.returncode = 0
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", default="main", help="git ref of the baseline tree (default main)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--card", default="graham_net_net_screen")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        files = inputs(tmp)
        trees = {"this tree": layout(ROOT, tmp / "this"),
                 f"baseline ({args.baseline})": layout(baseline_tree(args.baseline, tmp / "base-src"), tmp / "base")}
        envs = {}
        for i, (name, path) in enumerate(trees.items()):
            envs[name] = {**os.environ, "PYTHONPATH": str(path), "PYTHONSAFEPATH": "1", "IPB_CACHE_DIR": str(tmp / f"cache{i}"), "HF_HUB_OFFLINE": "1"}
        results: dict[str, dict[str, object]] = {}
        for label, file in files.items():
            cmd = [sys.executable, "-c", RUN, "parse", args.card, str(file), "--format", "json"]
            times: dict[str, list[float]] = {name: [] for name in trees}
            cpus: dict[str, list[float]] = {name: [] for name in trees}
            sizes: dict[str, int] = {}
            for name in trees:  # warm-up: card cache, lark's parser cache, page cache
                timed(cmd, envs[name], tmp / "out.json")
            for _ in range(args.rounds):
                for name in trees:
                    wall, cpu = timed(cmd, envs[name], tmp / "out.json")
                    times[name].append(wall)
                    cpus[name].append(cpu)
                    sizes[name] = (tmp / "out.json").stat().st_size
            split = subprocess.run([sys.executable, "-c", SPLIT, args.card, str(file)], env=envs["this tree"],
                                   capture_output=True, text=True, check=True, cwd=tmp)
            medians = {name: statistics.median(ts) for name, ts in times.items()}
            cpu_medians = {name: statistics.median(ts) for name, ts in cpus.items()}
            base_name = next(n for n in trees if n != "this tree")
            this, base = medians["this tree"], medians[base_name]
            results[label] = {"median_s": medians, "median_cpu_s": cpu_medians, "runs_s": times, "cpu_s": cpus,
                              "output_bytes": sizes, "ratio_baseline_over_this": base / this,
                              "cpu_ratio_baseline_over_this": cpu_medians[base_name] / cpu_medians["this tree"],
                              "split_this_tree_s": json.loads(split.stdout)}
            print(f"{label} ({file.stat().st_size:,} bytes), {args.rounds} rounds, median wall (CPU) time:")
            for name in trees:
                print(f"  {name:<20} {medians[name]:6.3f} s ({cpu_medians[name]:.3f} s CPU)   output {sizes[name]:>11,} bytes   "
                      f"(wall {', '.join(f'{t:.2f}' for t in times[name])})")
            print(f"  baseline / this tree: {base / this:.2f}x wall, {cpu_medians[base_name] / cpu_medians['this tree']:.2f}x CPU; "
                  f"bar (under 2 s end to end): {'met' if this < 2.0 else 'NOT met'} on this machine")
            print("  this tree, in one process: " + ", ".join(f"{k} {v:.3f} s" for k, v in results[label]["split_this_tree_s"].items()))  # type: ignore[union-attr]
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
