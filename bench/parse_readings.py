"""Every reading the parser gives, as one JSON line per answer, to prove a change reads the same (issue 13, speed work).

Run from the repository root, once per tree, then compare::

    .venv/bin/python bench/parse_readings.py --out /tmp/branch.jsonl [--embedder off|on|both]
    /work/main/.venv/bin/python bench/parse_readings.py --out /tmp/main.jsonl
    .venv/bin/python bench/parse_readings.py --compare /tmp/main.jsonl /tmp/branch.jsonl

Answers read (each keyed by where it comes from, never by its text, so a
held-out corpus answer is compared without being shown):

* every case of ``tests/scoring/corpus/*.yaml``, or of ``--corpus DIR`` (all splits: this is a byte
  comparison of two parsers, not a measurement of accuracy);
* the golden cases of ``tests/scoring/cases/parse_cases.yaml``;
* every synthetic answer of :func:`ipb.respond.synthetic.synthetic_responses`
  (the bundled items, every corruption, seed 7: the faithful answers among them);
* ``bench/parse.py``'s ``--n`` synthetic answers (seed 0) and its 1 MB
  inputs (realistic and pathological; with the embedder off only).

Each line is ``{"key": ..., "config": "off"|"on", "sha256": ..., "reading": ParsedResponse.to_dict()}``
(the 1 MB readings are kept as their digest only). ``--compare`` prints the
keys whose readings differ and exits 1 if any does, 0 when all are the same;
``--compare A B --ignore-confidence`` compares them without their confidence
numbers (dumps written before this option lack the field it needs).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
DEFAULT_CORPUS = ROOT / "tests" / "scoring" / "corpus"


def _answers(n: int, corpus_dir: Path = DEFAULT_CORPUS) -> Iterator[tuple[str, Any, str, bool]]:
    """(key, card, text, big) for every answer compared."""
    import random

    from ruamel.yaml import YAML

    import parse as bench_parse  # bench/parse.py
    from ipb.engine.registry import compiled_card
    from ipb.respond.synthetic import bundled_items, synthetic_responses

    yaml = YAML(typ="safe")
    for path in sorted(corpus_dir.glob("*.yaml")):
        for k, case in enumerate(yaml.load(path.read_text(encoding="utf-8")) or []):
            yield f"corpus/{path.name}/{k}/{case.get('id')}", case["card"], case["text"], False
    golden = yaml.load((ROOT / "tests" / "scoring" / "cases" / "parse_cases.yaml").read_text(encoding="utf-8"))
    for k, case in enumerate(golden):
        yield f"golden/{k}", case["card"], case["text"], False
    items = bundled_items()
    by_item = {item["id"]: item for item in items}
    for k, record in enumerate(synthetic_responses(items, seed=7)):
        card = by_item[record["item_id"]]["card"] if "card" in by_item[record["item_id"]] else record.get("card")
        names = "+".join(c["name"] for c in record.get("corruptions", []))
        yield f"synthetic/{k}/{record['item_id']}/{names}", card, record["response"], False
    rng = random.Random(0)
    cards = bench_parse._cards()
    corpus = [(c, bench_parse.synthetic_answer(c, rng)) for c in (rng.choice(cards) for _ in range(n))]
    for k, (card, text) in enumerate(corpus):
        yield f"bench/{k}", card, text, False
    realistic = "\n\n".join(t for _, t in corpus)
    while len(realistic) < bench_parse.MB:
        realistic += "\n\n" + realistic
    buffett = compiled_card("buffett_acquisition_checklist").card
    yield "megabyte/realistic", buffett, realistic[: bench_parse.MB], True
    for name, text in bench_parse.pathological().items():
        yield f"megabyte/{name}", buffett, text, True


def _without_confidence(reading: dict[str, Any]) -> dict[str, Any]:
    """``reading`` without its confidence numbers (each gate's ``confidence`` and ``final_confidence``): what it read."""
    out = {k: v for k, v in reading.items() if k != "final_confidence"}
    if isinstance(out.get("gates"), list):
        out["gates"] = [{k: v for k, v in g.items() if k != "confidence"} if isinstance(g, dict) else g for g in out["gates"]]
    return out


def _dump(out: Path, n: int, configs: list[str], corpus_dir: Path = DEFAULT_CORPUS) -> int:
    from ipb.scoring.parse import default_embedder, parse_response

    model = default_embedder() if "on" in configs else None
    count = 0
    with out.open("w", encoding="utf-8") as fh:
        for key, card, text, big in _answers(n, corpus_dir):
            for config in configs:
                if big and config == "on":
                    continue
                reading = parse_response(text, card, embedder=False if config == "off" else model).to_dict()
                blob = json.dumps(reading, sort_keys=True, ensure_ascii=False)
                bare = json.dumps(_without_confidence(reading), sort_keys=True, ensure_ascii=False)
                row = {"key": key, "config": config, "sha256": hashlib.sha256(blob.encode("utf-8")).hexdigest(),
                       "sha256_without_confidence": hashlib.sha256(bare.encode("utf-8")).hexdigest(),
                       "reading": None if big else reading}
                fh.write(json.dumps(row, sort_keys=True, ensure_ascii=False) + "\n")
                count += 1
    print(f"wrote {count} readings to {out}")
    return 0


def _compare(a: Path, b: Path, ignore_confidence: bool = False) -> int:
    field = "sha256_without_confidence" if ignore_confidence else "sha256"

    def rows(path: Path) -> dict[tuple[str, str], str]:
        return {(r["key"], r["config"]): r[field] for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())}

    left, right = rows(a), rows(b)
    differ = sorted(k for k in left.keys() | right.keys() if left.get(k) != right.get(k))
    for key, config in differ:
        print(f"differs: {key} (embedder {config})")
    print(f"{len(left)} and {len(right)} readings; {len(differ)} differ" + (" (confidence numbers left out)" if ignore_confidence else ""))
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--n", type=int, default=2000, help="bench/parse.py synthetic answers")
    ap.add_argument("--embedder", choices=["off", "on", "both"], default="off")
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="folder of corpus YAML files (a copy without a blind batch)")
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"))
    ap.add_argument("--ignore-confidence", action="store_true",
                    help="with --compare: compare the readings without their confidence numbers (a change to confidence "
                         "alone then shows no difference; run without it to see which readings' confidence moved)")
    args = ap.parse_args(argv)
    if args.compare:
        return _compare(*args.compare, ignore_confidence=args.ignore_confidence)
    if args.out is None:
        ap.error("--out or --compare is required")
    configs = ["off", "on"] if args.embedder == "both" else [args.embedder]
    return _dump(args.out, args.n, configs, args.corpus)


if __name__ == "__main__":
    sys.exit(main())
