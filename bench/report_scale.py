"""``ipb report`` at scale: time and page size for many models, as ratios against a small run in the same process.

s48break scored 500 models with one record each: ``ipb report`` took 3 min 17 s and wrote a 37 MB page, most of it
one matplotlib radar per model. This script makes score records for N models x M L7 items (values drawn from a
seeded generator, some refusals and run errors among them), summarises them with ``ipb.scoring.summary.summarize``
and times :func:`ipb.report.html.write_report` on each, then prints per N the wall and CPU time, the page's bytes,
and each as a ratio against the baseline N (the first), beside the linear ratio N x M / (N0 x M). A report that
scales linearly keeps both ratios near the linear one (a constant part, the first charts, keeps them below it).

    .venv/bin/python bench/report_scale.py [--models 10,50,200,500] [--items 2] [--seed 0] [--json OUT]

To time another tree (e.g. main before a change), run a copy of this file from outside the work tree with
``PYTHONPATH`` set to that tree's layout (``bench/parse_cli.py``'s ``layout``).

About 2 minutes on two shared cores with the defaults.
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

AXES = ("ogrs_k", "kccs", "sap@3", "ivp", "ckca", "gra", "verdict_acc", "basp_strict", "basp_conjunction")


def _record(n: int, model: str, item: int, rng: random.Random) -> dict[str, Any]:
    base = {"kind": "ipb.score.response", "version": 1, "record": n, "source": f"responses.jsonl:{n}",
            "item_id": f"L7-{item}", "model": model, "condition": "A", "condition_key": "A", "layer": "L7",
            "flags": {}, "error": None}
    target = {"card": "graham_seven_tests_defensive", "investor": "Benjamin Graham", "topology": "linear_sequential",
              "flags": {}}
    draw = rng.random()
    if draw < 0.05:  # asked, never answered
        return dict(base, status="unscored", outcome="unusable", reason_code="sample_error", reason="server: HTTP 500",
                    metrics={}, targets=[dict(target, status="unscored", outcome="unusable",
                                              reason_code="sample_error", metrics={})])
    if draw < 0.10:  # a refusal
        return dict(base, status="unscored", outcome="refusal", reason_code="refusal", reason="refused", metrics={},
                    targets=[dict(target, status="unscored", outcome="refusal", reason_code="refusal", metrics={})])
    metrics = {name: round(rng.random(), 4) for name in AXES}
    metrics["layer_composite"] = round(rng.random(), 4)
    return dict(base, status="scored", outcome="scored", reason_code=None, reason=None, metrics=metrics,
                targets=[dict(target, status="scored", outcome="scored", metrics=dict(metrics))])


def _results(folder: Path, n_models: int, n_items: int, seed: int) -> Path:
    from ipb.scoring.options import ScoreOptions
    from ipb.scoring.summary import summarize

    rng = random.Random(f"{seed}/{n_models}/{n_items}")
    records = [_record(m * n_items + i + 1, f"model-{m:04d}", i, rng) for m in range(n_models) for i in range(n_items)]
    summary = summarize(records, options=ScoreOptions(seed=seed, n_resamples=100, embeddings=False))
    folder.mkdir(parents=True)
    (folder / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    (folder / "responses.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="10,50,200,500", help="model counts, the first is the baseline")
    parser.add_argument("--items", type=int, default=2, help="L7 items per model")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args(argv)
    counts = [int(c) for c in args.models.split(",") if c.strip()]
    if not counts or min(counts) <= 0 or args.items <= 0:
        parser.error("--models needs positive counts and --items a positive number")

    from ipb.report.html import write_report

    rows = []
    with tempfile.TemporaryDirectory(prefix="ipb-report-scale-") as tmp:
        for n in counts:
            folder = _results(Path(tmp) / f"m{n}", n, args.items, args.seed)
            out = Path(tmp) / f"m{n}.html"
            wall, cpu = time.perf_counter(), time.process_time()
            write_report(folder, out)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            rows.append({"models": n, "items": args.items, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3),
                         "bytes": out.stat().st_size})
    base = rows[0]
    print(f"{'models':>6} {'wall s':>8} {'cpu s':>8} {'MB':>8} {'linear':>7} {'cpu x':>7} {'bytes x':>8}")
    for row in rows:
        row["linear_ratio"] = round(row["models"] / base["models"], 3)
        row["cpu_ratio"] = round(row["cpu_s"] / base["cpu_s"], 3) if base["cpu_s"] > 0 else None
        row["bytes_ratio"] = round(row["bytes"] / base["bytes"], 3)
        print(f"{row['models']:>6} {row['wall_s']:>8.2f} {row['cpu_s']:>8.2f} {row['bytes'] / 1e6:>8.2f} "
              f"{row['linear_ratio']:>7.1f} {row['cpu_ratio'] or 0:>7.2f} {row['bytes_ratio']:>8.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
