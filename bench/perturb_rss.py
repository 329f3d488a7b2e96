"""Issue 18 bar, line 4: the peak resident memory of ``ipb perturb`` and of ``ipb verify``, each its own process,
at 10k and at 100k items; the bar asks that the peak at 100k stay within 1.2x of the peak at 10k.

Run from the repository root (one size after the other, never two at once)::

    .venv/bin/python bench/perturb_rss.py [--sizes 10000,100000] [--card ID] [--base PATH] [--seed 0]
                                          [--workers 1] [--json OUT]

For each size N the script runs ``ipb perturb --card ID --base PATH --n N`` (the card's default operators,
no ``--ops``) writing a JSONL file to a temporary folder, then ``ipb verify`` on that file, each as a child
process of this one, and reads the child's peak resident set (``ru_maxrss`` from ``os.wait4``, KiB on
Linux) and its wall seconds. The parent never reads the items: on Linux a child's ``ru_maxrss`` starts at
the parent's own high-water mark when it is started (exec keeps it), so the parent stays small and its peak
is printed beside the figures. With ``--workers`` above 1 only the parent command is measured, not its
workers.

Output: one row per command and size (peak MiB, seconds, exit status) and the ratio of the largest size's
peak to the smallest's for each command, with "met" or "NOT met" against 1.2. Exit status 1 when a command
fails or a ratio is over 1.2.

References: issue 18 (streaming, memory flat in N); docs/perturbation.md.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CARD = "buffett_acquisition_checklist"
BASE = ROOT / "frameworks" / "scenarios" / CARD / "ipb_p_011_base.yaml"
TARGET = 1.2


#: The measuring parent, run as a fresh interpreter: a child forked from a large process (a test runner of 1.2 GB)
#: starts with the parent's resident pages, so ``ru_maxrss`` of a direct child is at least the parent's size. A fresh
#: interpreter is small; it forks and execs the command and writes "exit-code max-rss-KiB" to the descriptor it is given.
_MEASURE = """import os, sys
fd, argv = int(sys.argv[1]), sys.argv[2:]
pid = os.fork()
if pid == 0:
    os.close(fd)
    try:
        os.execv(argv[0], argv)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
os.write(fd, f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}".encode())
"""


def run_child(argv: list[str]) -> dict[str, Any]:
    """Run ``argv`` as a grandchild under a fresh measuring interpreter (:data:`_MEASURE`); its exit status, wall
    seconds, the tail of its stderr and its own peak resident MiB (``ru_maxrss`` of ``os.wait4`` in that small
    parent: neither the maximum over every child nor the pages inherited from this process)."""
    start = time.perf_counter()
    err = tempfile.TemporaryFile()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: stdout to /dev/null, stderr kept for the report; becomes the measuring parent
        try:
            os.close(read_end)
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            os.dup2(err.fileno(), 2)
            os.set_inheritable(write_end, True)
            os.execv(sys.executable, [sys.executable, "-c", _MEASURE, str(write_end), *argv])
        finally:
            os._exit(127)
    os.close(write_end)
    os.waitpid(pid, 0)
    with os.fdopen(read_end, "rb") as pipe:
        report = pipe.read().decode().split()
    err.seek(0)
    tail = err.read().decode(errors="replace")[-400:]
    err.close()
    rc, peak = (int(report[0]), round(int(report[1]) / 1024, 1)) if len(report) == 2 else (127, None)
    return {"rc": rc, "seconds": round(time.perf_counter() - start, 1), "peak_mib": peak, "stderr": tail}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000", help="comma-separated item counts (ascending)")
    parser.add_argument("--card", default=CARD)
    parser.add_argument("--base", type=Path, default=BASE)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None, help="also write the rows as JSON")
    args = parser.parse_args(argv)
    sizes = sorted(int(s) for s in args.sizes.split(",") if s)
    ipb = str(Path(sys.executable).with_name("ipb"))
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            out = Path(tmp) / f"items_{n}.jsonl"
            make = [ipb, "perturb", "--card", args.card, "--base", str(args.base), "--n", str(n),
                    "--seed", str(args.seed), "--out", str(out), "--workers", str(args.workers)]
            for command, line in (("perturb", make), ("verify", [ipb, "verify", str(out)])):
                row = {"command": command, "n": n, **run_child(line)}
                rows.append(row)
                print(f"{command} {n}: {row['peak_mib']} MiB peak, {row['seconds']} s, exit {row['rc']}",
                      file=sys.stderr, flush=True)
            out.unlink(missing_ok=True)
    print("| command | N | peak MiB | s | exit |\n|---|---|---|---|---|")
    for r in rows:
        print(f"| ipb {r['command']} | {r['n']} | {r['peak_mib']} | {r['seconds']} | {r['rc']} |")
    bad = [r for r in rows if r["rc"] != 0]
    ratios = {}
    for command in ("perturb", "verify"):
        got = [r for r in rows if r["command"] == command]
        ratios[command] = round(got[-1]["peak_mib"] / got[0]["peak_mib"], 3)
        print(f"{command}: peak at {got[-1]['n']} is {ratios[command]:.3f}x the peak at {got[0]['n']} "
              f"(target <= {TARGET}x): {'met' if ratios[command] <= TARGET else 'NOT met'}")
    parent = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    print(f"this script's own peak (a floor under every child's figure): {parent} MiB")
    for r in bad:
        print(f"FAILED: ipb {r['command']} {r['n']}: {r['stderr']}")
    if args.json is not None:
        args.json.write_text(json.dumps({"version": 1, "card": args.card, "base": str(args.base), "seed": args.seed,
                                         "rows": rows, "ratios": ratios, "parent_mib": parent}, indent=2),
                             encoding="utf-8")
    return 1 if bad or any(v > TARGET for v in ratios.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
