"""FMDP calibration on labelled answers: each detector's precision and recall beside the paper's Table 15 (issue 14 item 4).

Run from the repository root::

    .venv/bin/python bench/fmdp_calibration.py [--results DIR] [--gold-model synthetic-gold] [--no-model]

1. **Corpus** (``tests/scoring/corpus/*.yaml``, labels in ``expect.failure_modes``;
   format ``tests/scoring/corpus/README.md``): every answer is parsed against
   its card (``ipb.scoring.parse.parse_response``) and scored against a gold
   program built from its own gate labels (the card's gates, the labelled
   verdicts, N/A for gates it does not discuss, the card's required elements
   and kill gates), as an L7 item without a scenario year or a ground-truth
   year (so FM-2 and FM-6 rarely apply: they are counted as not applicable).
   For each FM: true and false positives, false negatives, precision,
   recall, and the false-positive rate on the faithful answers (no label),
   beside the paper's precision and recall (§7.11, Table 15).
2. **Faithful answers for every card** (``--results DIR``, an ``ipb score``
   output): the responses of ``--gold-model`` (the demo's gold respondent
   renders each item's gold program faithfully) are faithful by
   construction: per card, each FM's false-positive rate among the answers
   where it applies, and the share of those answers that pass BASP-strict
   (every evaluated gate passed: the conjunction).

Bars (issue 14): the gold respondent passes BASP-strict on >= 98% of the
items; each FM's false-positive rate on faithful answers <= 2% per card.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "scoring" / "corpus"
#: Table 15 (§7.11): calibration precision and recall of each algorithmic rule (n=200).
PAPER_TABLE_15 = {
    "FM-1": (0.762, 0.516), "FM-2": (0.786, None), "FM-3": (0.765, 0.459),
    "FM-4": (0.667, None), "FM-5": (0.824, None), "FM-6": (0.750, None),
}


def _gold(card: Any, labels: list[str]) -> dict[str, Any]:
    verdicts = {}
    for entry in labels:
        number, _, verdict = str(entry).partition(" ")
        if verdict in ("PROCEED", "REJECT", "INCONCLUSIVE"):
            verdicts[int(number)] = verdict
    program = []
    for gate in card.gates:
        verdict = verdicts.get(gate.number, "N/A")
        program.append({"gate": gate.number, "name": gate.name, "verdict": verdict,
                        "kill_criterion": gate.kill_criterion,
                        "required_elements": list(gate.required_elements) if verdict != "N/A" else [],
                        "kill_triggered": verdict == "REJECT" and gate.kill_criterion is not None})
    return {"framework": card.id, "gold_program": program, "investment_verdict": None}


def corpus_rows(encoder: Any) -> list[dict[str, Any]]:
    """One row per corpus answer: its labels and the FM flags that fired."""
    from ruamel.yaml import YAML

    from ipb.engine.registry import compiled_card
    from ipb.scoring.composite import score_case
    from ipb.scoring.metrics import Case
    from ipb.scoring.parse import parse_response

    yaml = YAML(typ="safe")
    rows = []
    for path in sorted(CORPUS.glob("*.yaml")):
        for case in yaml.load(path.read_text(encoding="utf-8")) or []:
            card = compiled_card(case["card"]).card
            parsed = parse_response(case["text"], card, embedder=encoder).to_dict()
            parsed["text"] = case["text"]  # as ipb score gives the detectors the answer's text
            labels = set(case["expect"].get("failure_modes") or ())
            row = {"id": case["id"], "card": case["card"], "split": case.get("split"), "labels": sorted(labels),
                   "status": parsed.get("status"), "fired": [], "applicable": []}
            if parsed.get("status") == "ok":
                c = Case.for_card(_gold(card, case["expect"].get("gates") or []), parsed, card, encoder=encoder,
                                  layer="L7")
                flags = score_case(c).flags
                row["fired"] = sorted(k for k, f in flags.items() if f.fired)
                row["applicable"] = sorted(k for k, f in flags.items() if f.applicable)
            rows.append(row)
    return rows


def corpus_table(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for fm, (paper_p, paper_r) in PAPER_TABLE_15.items():
        scored = [r for r in rows if r["status"] == "ok" and fm in r["applicable"]]
        tp = sum(1 for r in scored if fm in r["fired"] and fm in r["labels"])
        fp = sum(1 for r in scored if fm in r["fired"] and fm not in r["labels"])
        fn = sum(1 for r in scored if fm not in r["fired"] and fm in r["labels"])
        faithful = [r for r in scored if not r["labels"]]
        fp_faithful = sum(1 for r in faithful if fm in r["fired"])
        out.append({"fm": fm, "n_applicable": len(scored), "tp": tp, "fp": fp, "fn": fn,
                    "precision": tp / (tp + fp) if tp + fp else None, "recall": tp / (tp + fn) if tp + fn else None,
                    "n_faithful": len(faithful), "fp_rate_faithful": fp_faithful / len(faithful) if faithful else None,
                    "paper_precision": paper_p, "paper_recall": paper_r})
    return out


def gold_table(results: Path, model: str) -> dict[str, Any]:
    """Per card: each FM's false-positive rate on the gold respondent's answers, and the BASP-strict pass share."""
    per_card: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    items: dict[str, bool] = {}
    for line in (results / "responses.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        if r.get("model") != model:
            continue
        passed = r.get("status") == "scored" and all(
            (t.get("basp_strict") or {}).get("conjunction") is not False for t in r.get("targets") or ())
        items[f"{r.get('item_id')}|{r.get('condition')}|{r.get('record')}"] = passed
        for t in r.get("targets") or ():
            card = str(t.get("card"))
            for fm, flag in (t.get("flags") or {}).items():
                if flag.get("applicable"):
                    per_card[card][fm]["n"] += 1
                    per_card[card][fm]["fired"] += int(bool(flag.get("fired")))
    return {"n_items": len(items), "basp_strict_pass": sum(items.values()) / len(items) if items else None,
            "cards": {c: {fm: {"n": v["n"], "fp_rate": v["fired"] / v["n"]} for fm, v in sorted(fms.items())}
                      for c, fms in sorted(per_card.items())}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, help="an ipb score output folder (responses.jsonl) with a gold respondent")
    parser.add_argument("--gold-model", default="synthetic-gold")
    parser.add_argument("--no-model", action="store_true", help="lexical HashingEncoder instead of MiniLM")
    parser.add_argument("--json", type=Path, help="also write the tables here")
    args = parser.parse_args()
    from ipb.scoring.embeddings import CachedEncoder, HashingEncoder, default_encoder

    encoder = CachedEncoder(HashingEncoder()) if args.no_model else default_encoder()
    rows = corpus_rows(encoder)
    table = corpus_table(rows)
    n_ok = sum(1 for r in rows if r["status"] == "ok")
    print(f"corpus: {len(rows)} answers, {n_ok} parsed, {sum(1 for r in rows if not r['labels'])} labelled faithful")
    print(f"{'FM':<5} {'n':>4} {'tp':>3} {'fp':>3} {'fn':>3} {'P':>6} {'R':>6} {'FP/faithful':>12}   paper P / R")
    fmt = lambda v: "   —  " if v is None else f"{v:6.3f}"  # noqa: E731
    for t in table:
        recall = "—" if t["paper_recall"] is None else f"{t['paper_recall']:.3f}"
        paper = f"{t['paper_precision']:.3f} / {recall}"
        print(f"{t['fm']:<5} {t['n_applicable']:>4} {t['tp']:>3} {t['fp']:>3} {t['fn']:>3} {fmt(t['precision'])} "
              f"{fmt(t['recall'])} {fmt(t['fp_rate_faithful']):>12}   {paper}")
    out: dict[str, Any] = {"corpus": table, "corpus_rows": rows}
    if args.results is not None:
        gold = gold_table(args.results, args.gold_model)
        out["gold"] = gold
        print(f"\ngold respondent {args.gold_model!r}: {gold['n_items']} answers, BASP-strict pass "
              f"{fmt(gold['basp_strict_pass'])}")
        worst = []
        for card, fms in gold["cards"].items():
            for fm, v in fms.items():
                if v["fp_rate"] > 0.02:
                    worst.append((card, fm, v))
        print(f"FM false-positive rate on faithful answers > 2%: {len(worst)} (card, FM) pair(s)")
        for card, fm, v in worst:
            print(f"  {card:<45} {fm}: {v['fp_rate']:.3f} of {v['n']}")
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
