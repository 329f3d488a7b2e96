"""Ray checkpoints are data, checked before use (breaker3 findings 6 and 8; no Ray needed).

A checkpoint damaged on disk, written by another run or planted in the folder
must never reach the output: the shard is computed again and the store says
how many files it discarded and why. And nothing read back from the folder is
unpickled, so a file planted there cannot run code in the driver.
"""

from __future__ import annotations

import datetime as dt
import math
import pickle
from decimal import Decimal
from pathlib import Path

import pytest
from _fake_ray import FakeRay  # tests/distributed is on sys.path (no __init__.py)
from hypothesis import given, settings
from hypothesis import strategies as st
from ipb.distributed._codec import dumps, loads
from ipb.distributed.shards import Shard, ShardStore, run_shards


def _models(n):
    return [{"record": i, "model": "m1", "score": i / 3} for i in range(n)]


def _shards():
    return [Shard(f"bucket {b} of 3", _models, (b + 2,)) for b in range(3)]


def _expected():
    return [_models(b + 2) for b in range(3)]


def _file(folder: Path, key: str) -> Path:
    store = ShardStore(None, "")  # no folder: opening one of another run would empty it
    store.directory = folder
    return store._path(key)


def test_a_same_length_change_in_a_checkpoint_is_computed_again_and_said(tmp_path):
    """The breaker's case: ``m1`` -> ``m9`` inside one shard's payload, same length."""
    folder = tmp_path / "out.ipb-shards"
    assert run_shards(FakeRay(), _shards(), ShardStore(folder, "run")).results == _expected()
    path = _file(folder, "bucket 1 of 3")
    data = path.read_bytes()
    assert data.count(b"m1") == 3
    path.write_bytes(data.replace(b"m1", b"m9"))
    ray = FakeRay()
    store = ShardStore(folder, "run")
    run = run_shards(ray, _shards(), store)
    assert run.results == _expected()  # no m9 anywhere
    assert run.computed == ["bucket 1 of 3"] and run.resumed == ["bucket 0 of 3", "bucket 2 of 3"]
    assert [key for _, _, key, _, _ in ray.sent] == ["bucket 1 of 3"]
    assert store.discarded == {"damaged": 1}
    assert store.note() == (f"ray: discarded 1 file(s) in {folder} that could not be resumed (1 damaged: checksum, "
                            "run or format did not match); their shards were computed again")
    # the recomputed shard replaced the damaged file: the next rerun resumes all three and says nothing
    again = ShardStore(folder, "run")
    assert run_shards(FakeRay(), _shards(), again).resumed == [s.key for s in _shards()]
    assert again.note() is None


def test_no_single_flipped_byte_anywhere_in_a_checkpoint_is_ever_used(tmp_path):
    """Every byte of the file (magic, lengths, header, payload) in turn, each of 3 bit flips: never resumed."""
    folder = tmp_path / "c"
    ShardStore(folder, "run").put("k", _models(2))
    path = _file(folder, "k")
    good = path.read_bytes()
    for at in range(len(good)):
        for bit in (0x01, 0x20, 0x80):
            bad = bytearray(good)
            bad[at] ^= bit
            path.write_bytes(bytes(bad))
            store = ShardStore(folder, "run")
            assert store.get("k") == (False, None), (at, bit)
            assert sum(store.discarded.values()) == 1, (at, bit)
            assert not path.exists()  # deleted, so the recomputed result takes its place
    path.write_bytes(good)
    assert ShardStore(folder, "run").get("k") == (True, _models(2))


def test_a_checkpoint_of_another_runs_inputs_is_not_used(tmp_path):
    """A shard file copied from a run over other inputs (other fingerprint) into this run's folder, under the
    same key, is discarded; so is this run's file of one key renamed to another key's name."""
    mine, theirs = tmp_path / "mine", tmp_path / "theirs"
    ShardStore(mine, "run over inputs A").put("bucket 0 of 3", _models(2))
    ShardStore(theirs, "run over inputs B").put("bucket 0 of 3", [{"record": 0, "model": "m9", "score": 9.0}])
    _file(theirs, "bucket 0 of 3").replace(_file(mine, "bucket 0 of 3"))
    store = ShardStore(mine, "run over inputs A")
    assert store.get("bucket 0 of 3") == (False, None)
    assert store.discarded == {"another run": 1}

    ShardStore(mine, "run over inputs A").put("bucket 1 of 3", _models(3))
    _file(mine, "bucket 1 of 3").replace(_file(mine, "bucket 2 of 3"))
    store = ShardStore(mine, "run over inputs A")
    assert store.get("bucket 2 of 3") == (False, None)
    assert store.discarded == {"damaged": 1}


class _Planted:
    """Unpickling this runs ``Path.write_text(marker, "ran")``: what a planted pickle could do."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.write_text, (self.marker, "ran"))


def test_a_pickle_planted_in_the_folder_is_never_loaded(tmp_path, monkeypatch):
    """Planted as a stray file, as a shard's file, and inside a well-formed checkpoint whose digest is right (a
    forger who can write the folder can compute it): nothing is unpickled, every shard is computed again."""
    from ipb.distributed import shards

    folder = tmp_path / "out.ipb-shards"
    run_shards(FakeRay(), _shards(), ShardStore(folder, "run"))
    marker = tmp_path / "ran"
    evil = pickle.dumps(_Planted(marker))
    pickle.loads(evil)  # the payload works when unpickled ...
    assert marker.read_text() == "ran"
    marker.unlink()
    forged = ShardStore(folder, "run")
    forged.done.discard("bucket 1 of 3")
    _file(folder, "bucket 1 of 3").unlink()
    forged.put_packed("bucket 1 of 3", evil)  # a v3 header and a matching digest around pickle bytes
    (folder / "evil.pkl").write_bytes(evil)
    _file(folder, "bucket 0 of 3").write_bytes(evil)

    def refuse(*args, **kwargs):
        raise AssertionError("a checkpoint was unpickled")

    monkeypatch.setattr(pickle, "loads", refuse)
    monkeypatch.setattr(pickle, "load", refuse)
    monkeypatch.setattr(pickle, "Unpickler", refuse)
    ray = FakeRay()
    store = ShardStore(folder, "run")
    run = run_shards(ray, _shards(), store)
    assert not marker.exists()  # ... and was never run
    assert run.results == _expected()
    assert run.computed == ["bucket 0 of 3", "bucket 1 of 3"] and run.resumed == ["bucket 2 of 3"]
    assert store.discarded == {"damaged": 2, "not a checkpoint": 1}
    assert not (folder / "evil.pkl").exists()
    assert "pickle" not in shards.__dict__


def test_a_folder_of_another_run_is_emptied_and_counted(tmp_path):
    folder = tmp_path / "c"
    old = ShardStore(folder, "old")
    old.put("a", [1])
    old.put("b", [2])
    store = ShardStore(folder, "new")
    assert store.discarded == {"another run": 2} and not folder.exists()
    assert "2 another run" in store.note()


_plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text() | st.binary()
    | st.decimals(allow_nan=False) | st.dates(),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=5) | st.integers(), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(_plain)
def test_the_format_gives_back_an_equal_value_of_the_same_types(value):
    back = loads(dumps(value))
    assert back == value and repr(back) == repr(value)


def test_the_format_keeps_the_values_scoring_and_perturbation_return():
    from ipb.perturb.generation import Candidate
    from ipb.perturb.verify import RecordCheck

    value = {"c": Candidate(1, 2, 2**64 - 1, "INVEST", "{}", None, 3, (Decimal("-0.00"), None, "2020-01-01")),
             "v": RecordCheck(1, 2, "x", "ok", ["p"], [], ["c"], True), "big": -(2**80), "nan": float("nan"),
             "when": dt.datetime(2020, 1, 2, 3, tzinfo=dt.timezone.utc), "s": {1, 2}, "f": frozenset("ab"),
             (1, "k"): "tuple key"}
    back = loads(dumps(value))
    # a set of strings iterates in hash order, which PYTHONHASHSEED changes between processes: its repr is compared
    # apart, as equal members of the same type
    assert repr({k: v for k, v in back.items() if k not in ("nan", "f")}) == repr({k: v for k, v in value.items() if k not in ("nan", "f")})
    assert back["f"] == value["f"] and type(back["f"]) is frozenset and list(back) == list(value)
    assert math.isnan(back["nan"]) and type(back["c"]) is Candidate and type(back["v"]) is RecordCheck


def test_a_value_the_format_does_not_carry_is_an_error_naming_its_type():
    with pytest.raises(TypeError, match=r"builtins\.object"):
        dumps([object()])


def test_a_class_name_outside_the_list_is_refused_on_reading():
    import msgpack
    from ipb.distributed import _codec

    blob = msgpack.packb(msgpack.ExtType(2, dumps(["os.system", ["echo hi"]])))
    with pytest.raises(ValueError, match="os.system"):
        _codec.loads(blob)
