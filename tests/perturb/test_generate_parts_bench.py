"""``bench/generate_parts.py`` (issue 18 item 7): every part it times still exists under its name, timing a run
changes none of its bytes, and the wrappers are taken off afterwards (a stale part list would silently time
nothing; a wrapper left on would slow every later run in the process)."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from tests.scoring.bench_support import load_bench

N = 300


def _current(module: str, path: str) -> Any:
    if module == "operator":
        from ipb.perturb import operators

        return operators._OPERATORS[path].fn
    owner: Any = importlib.import_module(module)
    for part in path.split("."):
        owner = getattr(owner, part)
    return owner


def test_every_part_is_found_and_put_back() -> None:
    bench = load_bench("generate_parts.py")
    before = [_current(module, path) for _, module, path in bench.PARTS]
    with bench.timed_parts() as (spent, missing):
        assert missing == []
        wrapped = [_current(module, path) for _, module, path in bench.PARTS]
    after = [_current(module, path) for _, module, path in bench.PARTS]
    assert all(w is not b for w, b in zip(wrapped, before))  # each part really was wrapped
    assert all(a is b for a, b in zip(after, before))  # and put back


def test_timed_run_writes_the_same_bytes_and_counts_every_attempt(tmp_path: Path) -> None:
    bench = load_bench("generate_parts.py")
    import ipb.perturb.generation as gen
    from ipb.perturb import Job, parse_recipes

    timed_out, plain_out = tmp_path / "timed.jsonl", tmp_path / "plain.jsonl"
    result, total, spent, missing = bench.measure(N, out=timed_out)
    gen.write_items(plain_out, Job((bench.CARD,), str(bench.BASE), 0, parse_recipes("metric,sector,temporal,flip")),
                    N, workers=1)
    assert timed_out.read_bytes() == plain_out.read_bytes()
    assert missing == [] and result.written == N and total > 0
    attempts = sum(r.attempts for r in result.recipes)
    # s53dup put a near duplicate off and derived its scenario once more to rebuild it after the visibly new items;
    # since s58speedgen its line is built once, in its attempt, and spooled (perturb/_spool.py), so every scenario is
    # derived exactly once an attempt even though the run writes near duplicates (at N = 300: 396 attempts, 28 near
    # duplicates written last, 396 derivations, where 424 were made before)
    deferred = sum(r.near_admitted for r in result.recipes)
    assert deferred > 0  # the run does write near duplicates, so a rebuild would show in the counts below
    assert spent["attempt (all below)"][1] == attempts
    assert spent["scenario: seed rng + operators"][1] == attempts
    assert spent["  seed random.Random(str)"][1] == attempts
    assert spent["build_item (all below)"][1] == N == spent["serialise (dumps_item)"][1]
    assert spent["write_items (whole run)"][1] == 1
    for label in ("  op metric", "  op sector", "  op flip (all below)", "    flip: draw anchor"):
        assert spent[label][1] > 0, label
    # a part's time is within the time of the part that calls it
    assert spent["build_item (all below)"][0] <= spent["attempt (all below)"][0] <= spent["write_items (whole run)"][0]
