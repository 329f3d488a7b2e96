"""KCCS comparison table: precision and recall of the structured matcher beside cosine only (issue 14 item 3).

Run from the repository root::

    .venv/bin/python bench/kccs_comparison.py [--no-model]

Prints, for the comparison table (kinds comparison, swap, direction of
``tests/scoring/data/kccs_pairs.json``), its swaps alone, and the whole
file, the confusion counts, precision and recall of
:class:`ipb.scoring.metrics.ElementMatcher` and of a cosine-only matcher at
the same threshold. ``--no-model`` uses the lexical HashingEncoder instead
of MiniLM (the cosine-only column then means little).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "tests" / "scoring" / "data" / "kccs_pairs.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-model", action="store_true")
    args = parser.parse_args()
    from ipb.scoring.embeddings import HashingEncoder, default_encoder
    from ipb.scoring.metrics.kccs_table import COMPARISON_KINDS, pair_scores

    encoder = HashingEncoder() if args.no_model else default_encoder()
    rows = json.loads(PAIRS.read_text())["pairs"]
    subsets = {
        "comparison table": [r for r in rows if r["kind"] in COMPARISON_KINDS],
        "swaps only": [r for r in rows if r["kind"] == "swap"],
        "whole file": rows,
    }
    print(f"{'subset':<18} {'n':>4} {'matcher':<20} {'P':>6} {'R':>6}  tp fp fn tn")
    for name, subset in subsets.items():
        pairs = [(r["gold"], r["detected"], r["match"]) for r in subset]
        for score in pair_scores(pairs, encoder):
            print(f"{name:<18} {score.n:>4} {score.matcher:<20} {score.precision:>6.3f} {score.recall:>6.3f}  "
                  f"{score.tp} {score.fp} {score.fn} {score.tn}")


if __name__ == "__main__":
    main()
