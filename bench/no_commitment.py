"""Answers that commit to nothing against honest partial answers: the s32break section-2 table, reproduced.

Run from the repository root::

    .venv/bin/python bench/no_commitment.py [--n 30] [--seed 0] [--before]

Writes ``--n`` balanced Buffett items (``ipb perturb --balance``, L7, §6) into a temporary folder, then scores
eight synthetic respondents on them with embeddings off (``ScoreOptions(embeddings=False)``, 200 resamples) and
prints each respondent's mean L7 composite, BASP-strict (§7.15) and coverage:

* ``mediocre0/1``: all six gates, each right with probability 0.6; final right with probability 0.6;
* ``partial0..2``: gates 1-4 only, each right with probability 0.7; final right with probability 0.6;
* ``unknown`` / ``notsure``: "unknown" / "I'm not sure." after every gate name and as the final verdict;
* ``allproceed``: PROCEED on every gate, final INVEST.

``--before`` scores as if every answer committed (the rule before stop 32: ``unknown`` earned 0.350 / 0.175 on the
gate list alone). Each respondent's random choices take a seed derived from its name and ``--seed``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path

from typer.testing import CliRunner

import ipb.scoring.run as run
from ipb.cli import app
from ipb.scoring.run import ScoreOptions, score_responses
from ipb.scoring.summary import leaderboard, summarize

CARD = "buffett_acquisition_checklist"
BASE = Path(__file__).resolve().parents[1] / "frameworks" / "scenarios" / CARD / "ipb_p_011_base.yaml"
NAMES = ["Circle of Competence", "Economic Moat", "Management Integrity", "Intrinsic Value Estimation",
         "Margin of Safety", "Holding Period Economics"]
WRONG = {"PROCEED": "REJECT", "REJECT": "PROCEED", "INCONCLUSIVE": "PROCEED", "N/A": "PROCEED"}
MODELS = ["mediocre0", "mediocre1", "partial0", "partial1", "partial2", "unknown", "notsure", "allproceed"]


def _answer(verdicts: list[str], final: str) -> str:
    return "\n".join(f"Gate {i + 1} ({NAMES[i]}): {v}" for i, v in enumerate(verdicts)) + f"\nFinal verdict: {final}\n"


def _respond(model: str, item: dict, rng: random.Random) -> str:
    gold = {g["gate"]: g["verdict"] for g in item["grp"]["gold_program"]}
    final = item["grp"]["investment_verdict"]
    other = "INVEST" if final != "INVEST" else "DECLINE"
    if model == "unknown":
        return _answer(["unknown"] * 6, "unknown")
    if model == "notsure":
        return _answer(["I'm not sure."] * 6, "I'm not sure.")
    if model == "allproceed":
        return _answer(["PROCEED"] * 6, "INVEST")
    gates, p = (range(1, 7), 0.6) if model.startswith("mediocre") else (range(1, 5), 0.7)
    verdicts = [gold.get(k, "PROCEED") if rng.random() < p else WRONG.get(gold.get(k, ""), "REJECT") for k in gates]
    return _answer(verdicts, final if rng.random() < 0.6 else other)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--before", action="store_true", help="score as if every answer committed (the rule before stop 32)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "items.jsonl"
        made = CliRunner().invoke(app, ["perturb", "--card", CARD, "--base", str(BASE), "--n", str(args.n),
                                        "--seed", str(args.seed), "--balance", "--out", str(out)])
        if made.exit_code != 0:
            print(made.output, file=sys.stderr)
            return 1
        items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
    records = []
    for model in MODELS:
        rng = random.Random(f"{model}-{args.seed}")
        records += [{"item_id": it["id"], "model": model, "condition": "A", "response": _respond(model, it, rng)}
                    for it in items]
    if args.before:
        run.commits = lambda *a, **k: True  # type: ignore[assignment]
    options = ScoreOptions(embeddings=False, n_resamples=200)
    summary = summarize(score_responses(items, records, options), options=options)
    print(f"{len(items)} items, {'before' if args.before else 'after'} the no_commitment rule")
    for row in leaderboard(summary):
        print(f"{row['model']:11s} composite {row['layer_composite']['mean']:.3f}  "
              f"BASP-strict {row['basp_strict']['mean']:.3f}  coverage {row['coverage']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
