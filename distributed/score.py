"""``ipb score`` on Ray: records sharded by (model, condition, item or question group), encoder in actors.

Sharding. Two things in :func:`ipb.scoring.run.score_records` look across
records: a repeated response (same item, model, condition, epoch, card,
corruptions) is a ``duplicate`` of the *first* one, and IVP / pairwise SDI
(paper §7.9) compare the responses of one model and condition to the items
of one ``question_group``. So every record goes to the shard of its key

    (model, condition, "group", question_group)   when its item has a question group,
    (model, condition, "item", item_id)            otherwise,

hashed (SHA-256) into ``buckets`` buckets; a record that cannot be read goes
by its record number. The buckets are sent largest first, so the CPUs
finish together. Within a bucket records keep their input order, so the
first of two duplicates is the first in the file, as in a local run. Each
bucket is one Ray task that calls :func:`score_records` on its records; the
driver puts the records back in input order, builds the summary (bootstrap
CIs with the run's seed) and writes both files atomically, exactly as
:func:`~ipb.scoring.run.run_score` does, so the bytes are the local run's.

Encoder. With embeddings, the sentence encoder lives in a pool of Ray actors
(:class:`EncoderActor`, one model load per actor, by default one actor per
node); the tasks send each shard's distinct sentences to an actor in one
call. With ``embed_cache`` the actors read and write the on-disk cache
(:mod:`ipb.distributed.embed_cache`). The bundled MiniLM encoder computes
each text alone on one torch thread
(:class:`~ipb.scoring.embeddings.SentenceTransformerEncoder`), so a vector
does not depend on the shard, the batch or the process that computed it,
and the files are the local run's with embeddings too (on machines of one
CPU kind; across kinds, share the on-disk cache); see docs/scale-out.md.

Checkpoints and faults: see :mod:`ipb.distributed.shards`; the folder is
``OUT.ipb-shards`` beside the output folder.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from ipb._files import file_sha256
from ipb.distributed._ray import connect
from ipb.distributed.shards import (Shard, ShardRun, ShardStore, fingerprint, stream_shards,
                                    writable_checkpoint_dir)
from ipb.scoring.adapters import InputRecord
from ipb.scoring.run import (ItemSet, RunResult, ScoredLines, ScoreOptions, canonical_condition, run_score,
                             score_records, scored_lines)

__all__ = ["EncoderActor", "PoolEncoder", "shard_key", "score_ray", "RayScorer", "RECORDS_PER_SHARD"]

#: Records per bucket, on average (the number of buckets is ceil(records / this)). About a second of work on one
#: CPU: small enough that the CPUs of a small cluster finish together, large enough that the per-task cost (the
#: records sent, the result returned, a checkpoint file) stays small against it.
RECORDS_PER_SHARD = 250


class EncoderActor:
    """A Ray actor holding one sentence encoder (loaded once), optionally behind the disk cache.

    Parameters
    ----------
    encoder : Encoder or None
        The encoder to hold; None: the bundled all-MiniLM-L6-v2
        (:class:`~ipb.scoring.embeddings.SentenceTransformerEncoder`).
    cache_dir : str, optional
        Folder of the on-disk embedding cache.
    """

    def __init__(self, encoder: Any = None, cache_dir: str | None = None) -> None:
        from ipb.scoring.embeddings import SentenceTransformerEncoder

        inner = encoder if encoder is not None else SentenceTransformerEncoder()
        if cache_dir:
            from ipb.distributed.embed_cache import DiskCachedEncoder

            inner = DiskCachedEncoder(inner, cache_dir)
        self.encoder = inner

    def encode(self, sentences: list[str]) -> Any:
        import numpy as np

        return np.asarray(self.encoder.encode(sentences), dtype=np.float64)


class PoolEncoder:
    """An encoder that sends each call to one actor of an :class:`EncoderActor` pool.

    The actor is chosen by a hash of the first sentence, so concurrent
    shards spread over the pool; every actor holds the same model.
    """

    def __init__(self, actors: Sequence[Any]) -> None:
        self.actors = list(actors)

    def encode(self, sentences: Sequence[str]) -> Any:
        import numpy as np
        import ray

        if not sentences:
            return np.zeros((0, 0))
        pick = int(hashlib.sha256(sentences[0].encode("utf-8", "surrogatepass")).hexdigest()[:8], 16)
        return ray.get(self.actors[pick % len(self.actors)].encode.remote(list(sentences)))


def shard_key(record: InputRecord, items: ItemSet) -> str:
    """The stable key that keeps together the records scoring compares with each other.

    >>> from ipb.scoring.run import ItemSet
    >>> shard_key(InputRecord(3, "r.jsonl:3", {"item_id": "x", "model": "m", "condition": "a"}), ItemSet({}, [], ""))
    '["m", "A", "item", "x"]'
    """
    data = record.data
    if record.error is not None or data is None:
        return json.dumps(["record", record.number])
    item_id = data.get("item_id")
    if isinstance(item_id, int) and not isinstance(item_id, bool):
        item_id = str(item_id)
    model = data.get("model") if isinstance(data.get("model"), str) and data["model"].strip() else None
    condition = data.get("condition")
    condition = canonical_condition(condition) if isinstance(condition, str) and condition.strip() else None
    prepared = items.items.get(item_id) if isinstance(item_id, str) else None
    group = prepared.item.get("question_group") if prepared is not None else None
    if isinstance(group, str):
        return json.dumps([model, condition, "group", group])
    return json.dumps([model, condition, "item", item_id if isinstance(item_id, (str, type(None))) else repr(item_id)])


def bucket_of(key: str, buckets: int) -> int:
    """The bucket of a shard key: SHA-256 of the key modulo ``buckets`` (the same on every machine)."""
    return int(hashlib.sha256(key.encode("utf-8")).hexdigest()[:16], 16) % buckets


_ITEMSETS: dict[str, ItemSet] = {}


def _itemset(ref: Any, run: str, source: str) -> ItemSet:
    """Worker side: the run's ItemSet, rebuilt once per process from the raw items (compiled cards do not pickle)."""
    found = _ITEMSETS.get(run)
    if found is None:
        import ray

        from ipb.scoring.items import _prepare_item

        raw = ray.get(ref[0]) if isinstance(ref, list) else ref
        found = ItemSet({}, [], source)
        cache: dict[str, Any] = {}
        for ident, line, item in raw:
            found.items[ident] = _prepare_item(item, line, source, cache)
        _ITEMSETS.clear()
        _ITEMSETS[run] = found
    return found


def _score_bucket(items_ref: Any, run: str, source: str, records: list[InputRecord],
                  options: ScoreOptions, sources_ref: list[Any] | None = None,
                  digest: str = "") -> tuple[list[str], list[dict[str, Any]]]:
    """Worker side: :func:`score_records` on one bucket's records, returned as each record's line of
    ``responses.jsonl`` and its summary view (:func:`~ipb.scoring.run.scored_lines`): the driver only places them.

    With ``sources_ref`` (the driver's :class:`~ipb.distributed.perturb.CardSources`) the worker searches the
    driver's ``--cards`` folders and the items' own card copies (``ipb-cards/``), placed on this node when its
    file system lacks them, as the local run does; set for every bucket, since a worker process also runs other
    jobs' tasks.
    """
    if sources_ref is not None:
        import ray

        from ipb.distributed.perturb import _placed
        from ipb.engine.registry import use_cards

        _, dirs, items_path = _placed(ray.get(sources_ref[0]), digest)
        use_cards(dirs, items_path)
    scored = scored_lines(score_records(_itemset(items_ref, run, source), records, options))
    return scored.lines, scored.views


class RayScorer:
    """A ``scorer`` for :func:`~ipb.scoring.run.run_score` that scores buckets as Ray tasks.

    Parameters
    ----------
    ray : module
        Connected ``ray``.
    store_dir : path or None
        Checkpoint folder (None: no resume).
    run_parts : list
        What names the run besides the records (response file hash, format...), for the checkpoint fingerprint.
    encoders : int, optional
        Encoder actors (default: one per alive node).
    embed_cache : path, optional
        On-disk embedding cache folder for the actors.
    records_per_shard : int
    max_retries : int
    """

    def __init__(self, ray: Any, store_dir: Path | None, run_parts: list[Any], *, encoders: int | None = None,
                 embed_cache: str | None = None, records_per_shard: int = RECORDS_PER_SHARD,
                 max_retries: int = 3, sources: Any = None) -> None:
        self.ray = ray
        self.sources = sources
        self.store_dir = store_dir
        self.run_parts = run_parts
        self.encoders = encoders
        self.embed_cache = embed_cache
        self.records_per_shard = records_per_shard
        self.max_retries = max_retries
        self.store: ShardStore | None = None
        self.computed = 0
        self.resumed = 0

    def _pool(self, options: ScoreOptions) -> ScoreOptions:
        import dataclasses

        if not options.embeddings:
            return options
        count = self.encoders or max(1, sum(1 for n in self.ray.nodes() if n.get("Alive")))
        # num_cpus=0: an actor reserving a CPU for its lifetime would starve the scoring tasks on a
        # small cluster (two actors on two CPUs leave none); it works only while a task waits on it,
        # and Ray gives a task's CPU back while it waits in ray.get.
        actor = self.ray.remote(num_cpus=0, max_restarts=3, max_task_retries=3)(EncoderActor)
        actors = [actor.remote(options.encoder, self.embed_cache) for _ in range(count)]
        return dataclasses.replace(options, encoder=PoolEncoder(actors))

    def __call__(self, items: ItemSet, records: Iterable[InputRecord], options: ScoreOptions, *,
                 progress: Callable[[str, int, int | None], None] | None = None) -> ScoredLines:
        records = list(records)
        buckets = max(1, -(-len(records) // self.records_per_shard))
        members: list[list[int]] = [[] for _ in range(buckets)]
        for index, record in enumerate(records):
            members[bucket_of(shard_key(record, items), buckets)].append(index)
        run = fingerprint("score", self.run_parts, items.sha256, options.describe(), buckets)
        self.store = ShardStore(self.store_dir, run)
        raw = [(ident, p.line, p.item) for ident, p in items.items.items()]
        items_ref = [self.ray.put(raw)]  # in a list: Ray passes it on as a reference, not the value
        remote_options = self._pool(options)
        sources_ref = [self.ray.put(self.sources)] if self.sources is not None else None
        digest = self.sources.digest() if self.sources is not None else ""
        # largest bucket first: Ray starts tasks in the order they are sent, so the CPUs finish close together
        # (buckets differ in size: records are hashed by their key, and a question group goes whole)
        order = sorted((b for b, idx in enumerate(members) if idx), key=lambda b: (-len(members[b]), b))
        shards = [Shard(f"bucket {b} of {buckets}", _score_bucket,
                        (items_ref, run, items.source, [records[i] for i in members[b]], remote_options, sources_ref,
                         digest))
                  for b in order]
        done = 0

        def tick(finished: int, total: int) -> None:
            if progress is not None:
                progress("score", finished, total)

        lines: list[str | None] = [None] * len(records)
        views: list[dict[str, Any] | None] = [None] * len(records)
        status = ShardRun([])
        # merged as the buckets arrive (in sending order), while the workers score the later ones
        stream = stream_shards(self.ray, shards, self.store, max_retries=self.max_retries, on_done=tick, run=status)
        for position, (texts, parts) in enumerate(stream):
            for i, text, view in zip(members[order[position]], texts, parts):
                lines[i] = text
                views[i] = view
                done += 1
        self.computed, self.resumed = len(status.computed), len(status.resumed)
        assert done == len(records) and all(v is not None for v in views)
        return ScoredLines(lines, views)  # type: ignore[arg-type]


def score_ray(items_path: str | Path, responses_path: str | Path | Sequence[str | Path], out_dir: str | Path,
              options: ScoreOptions | None = None, *, format: str = "auto", model: str | None = None,
              condition: str | None = None, address: str | None = None, encoders: int | None = None,
              embed_cache: str | None = None, records_per_shard: int = RECORDS_PER_SHARD, max_retries: int = 3,
              progress: Callable[[str, int, int | None], None] | None = None,
              cards_dirs: Sequence[str | Path] = ()) -> tuple[RunResult, RayScorer]:
    """:func:`~ipb.scoring.run.run_score` with the records scored on Ray; the same files.

    The workers look card ids up where the local run does: the ``cards_dirs``
    (``--cards``), the driver's ``IPB_CARDS`` folders and the copies beside
    the items file, shipped from the driver (:class:`~ipb.distributed.perturb.CardSources`).

    Returns
    -------
    (RunResult, RayScorer)
        The run's result and the scorer (shards computed and resumed).

    Raises
    ------
    DistributedError
        Ray missing or unreachable; buckets that failed their retries (by
        key); nothing is written then, and the finished buckets are kept in
        ``OUT.ipb-shards`` for a rerun.
    LoadError
        As :func:`run_score`.
    """
    shards_dir = writable_checkpoint_dir(out_dir)  # an output path without a folder beside it is refused before Ray starts
    ray = connect(address)
    options = options or ScoreOptions()
    from ipb.scoring.sources import response_files

    given = [responses_path] if isinstance(responses_path, (str, Path)) else list(responses_path)
    parts: list[Any] = [x for p in response_files(given) for x in (file_sha256(p), str(p))] + [format, model, condition]
    from ipb.distributed.perturb import CardSources

    sources = CardSources.gather({}, list(cards_dirs), items_path)
    scorer = RayScorer(ray, shards_dir, parts, encoders=encoders, embed_cache=embed_cache,
                       records_per_shard=records_per_shard, max_retries=max_retries, sources=sources)
    result = run_score(items_path, responses_path, out_dir, options, format=format, model=model,
                       condition=condition, progress=progress, scorer=scorer)
    if scorer.store is not None:
        scorer.store.remove()
    return result, scorer
