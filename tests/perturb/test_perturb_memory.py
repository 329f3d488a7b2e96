"""Memory flat in N (issue 18 item 7): what a run keeps per item, and that keeping less changed no answer.

The run's duplicate detection (:class:`ipb.perturb.keyset.KeySet`) and the
verifier's repeated-id detection (``_IdLog``) hold a few bytes per item
instead of Python objects; the tests check both against plain Python
containers (an independent implementation) and bound the bytes they hold
with :mod:`tracemalloc`.
"""

from __future__ import annotations

import json
import random
import tracemalloc

import pytest
from hypothesis import given, settings, strategies as st

import ipb.perturb.verify as verify_mod
from ipb.perturb import verify_items
from ipb.perturb.keyset import KeySet
from perturb_support import BUFFETT, BUFFETT_BASE
from ipb.perturb import Job, parse_recipes
from ipb.perturb.generation import write_items

TOP = 2**64
keys = st.one_of(st.integers(0, 40), st.sampled_from([0, 1, TOP - 2, TOP - 1, 2**63, 2**63 - 1]),
                 st.integers(0, TOP - 1))


@settings(max_examples=200, deadline=None)
@given(ops=st.lists(st.tuples(st.booleans(), keys), max_size=300), limit=st.integers(1, 9))
def test_keyset_answers_as_a_set_does(ops, limit):
    """Law: any sequence of adds and lookups answers exactly as a Python ``set`` (merges at any size)."""
    mine, plain = KeySet(limit=limit), set()
    for is_add, key in ops:
        if is_add:
            mine.add(key)
            plain.add(key)
        assert (key in mine) == (key in plain)
        assert len(mine) == len(plain)
    assert list(mine) == sorted(plain)
    assert all(k in mine for k in plain)
    mine.clear()
    assert len(mine) == 0 and all(k not in mine for k in plain)


@pytest.mark.parametrize("bad", [-1, TOP, 1.5, "7"])
def test_keyset_refuses_what_is_not_a_64_bit_key(bad):
    with pytest.raises(ValueError, match=r"\[0, 2\*\*64\)"):
        KeySet().add(bad)
    assert bad not in KeySet([3])


def test_keyset_holds_about_8_bytes_a_key():
    """100,000 keys in at most 16 bytes each (a ``set`` of ``int`` takes about 70: this fails with one)."""
    rng = random.Random(1)
    values = [rng.getrandbits(64) for _ in range(100_000)]
    tracemalloc.start()
    try:
        held = KeySet(values)
        size, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(held) == len(set(values))
    assert size / len(values) < 16


# ------------------------------------------------------------------ repeated item ids in verify


@pytest.fixture(scope="module")
def items_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("mem") / "items.jsonl"
    write_items(out, Job((BUFFETT,), str(BUFFETT_BASE), 0, parse_recipes("metric")), 40)
    return out


def _with_repeats(items_file, tmp_path):
    """The 40 items with lines 3 and 17 written again further down (a repeated id each)."""
    lines = items_file.read_text(encoding="utf-8").splitlines()
    lines = lines[:25] + [lines[2]] + lines[25:33] + [lines[16], lines[2]] + lines[33:]
    out = tmp_path / "repeats.jsonl"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out, [json.loads(t)["id"] for t in lines]


def _expected(ids):
    """Independent oracle: (record, line of its first use) of each record whose id an earlier record used."""
    first: dict[str, int] = {}
    found = []
    for record, ident in enumerate(ids, start=1):
        if ident in first:
            found.append((record, first[ident]))
        else:
            first[ident] = record
    return found


def _repeats(result):
    return [(c.record, int(c.problems[-1].split("first on line ")[1].split(")")[0]))
            for c in result.checks if c.status == "duplicate"]


@pytest.mark.parametrize("workers", [1, 2])
def test_repeated_ids_are_found_exactly(items_file, tmp_path, monkeypatch, workers):
    path, ids = _with_repeats(items_file, tmp_path)
    monkeypatch.setattr(verify_mod, "POOL_MIN", 0)
    result = verify_items(path, workers=workers)
    assert _expected(ids) == [(26, 3), (35, 17), (36, 3)]
    assert _repeats(result) == _expected(ids)
    assert result.total == 43 and len(result.duplicates) == 3


def test_a_hash_shared_by_different_ids_marks_nothing(items_file, tmp_path, monkeypatch):
    """Every id hashed to the same 64 bits: only the ids that really repeat are marked (exact, not by hash)."""

    class Same:
        def __init__(self, *args, **kwargs):
            pass

        def digest(self):
            return b"\x00" * 8

    monkeypatch.setattr(verify_mod, "blake2b", Same)
    assert verify_items(items_file).ok and not verify_items(items_file).duplicates
    path, ids = _with_repeats(items_file, tmp_path)
    assert _repeats(verify_items(path)) == _expected(ids)


# ------------------------------------------------------------------ verify's constraint memo (s56mem)


def test_the_constraint_memo_is_bounded_per_constraint():
    """s56mem: ``ipb verify`` kept up to 4,096 answers per constraint, 25 memos on the Buffett card (some 30 MB when
    all were full, reached only after tens of thousands of items: the peak grew with N). Now each memo keeps at most
    :data:`CONSTRAINT_MEMO_LIMIT` (1,024) answers. Hand bound: an entry is a key tuple of at most four (type, value)
    pairs (40 + 8 x 4 bytes; the pairs are shared by the constraints of one scenario) and its dict slot, under 256
    bytes; 25 x 1,024 x 256 B = 6.4 MiB. 4,096 distinct scenarios fed to the old limit held 10.6 MiB (fails)."""
    from ipb.engine.registry import compiled_card
    from ipb.perturb.verify_memo import CONSTRAINT_MEMO_LIMIT, ConstraintMemo

    card = compiled_card(BUFFETT).card
    checker = verify_mod._Checker(schema=False)
    rows = [checker.typed(card, {
        "business_model": "subscription_software", "sector": "enterprise_software",
        "gross_margin": f"{60 + i % 37}%", "revenue_retention": f"{80 + i % 19}%", "revenue_growth": f"{i % 41}%",
        "net_income": f"${i}M", "arr": f"${1000 + 7 * i}M", "ev_to_arr": f"{1 + i % 23}x",
        "macro_regime": "expansion"})[0] for i in range(4 * CONSTRAINT_MEMO_LIMIT)]
    memo = ConstraintMemo()
    tracemalloc.start()
    try:
        answers = [memo.broken(card, typed) for typed in rows]
        size, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert CONSTRAINT_MEMO_LIMIT == 1024 and len(card.constraints) == 25
    assert max(len(held) for _, _, held in memo._cards[id(card)][1]) <= CONSTRAINT_MEMO_LIMIT
    assert size < 25 * 1024 * 256
    # the answers are those of evaluating each constraint (the memo was emptied three times on the way)
    assert answers == [[k for k in card.constraints if k.broken(typed)] for typed in rows]
