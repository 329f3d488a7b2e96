"""Where ``ipb perturb``'s time goes: CPU per item of each part of generation, on one core.

Run from the repository root::

    .venv/bin/python bench/generate_parts.py [--n 20000] [--ops metric,sector,temporal,flip] [--seed 0]

It makes N items as ``bench/perturb.py`` does (the bundled Buffett card, the
IPB-P-011 base, ``write_items`` with one worker, the process pinned to one
CPU) with each part below wrapped to add up the thread CPU time
(``time.thread_time_ns``) of its calls, as ``bench/verify_parts.py`` does for
``ipb verify``. Parts nest: a part's time includes the parts it calls
(``attempt`` holds everything from drawing to the item's line; ``build_item``
holds execution, the GRP, the question and the conditions; an operator holds
its own draws, repairs and flip search), and every wrapper adds some 0.3 us a
call, so the column is for comparing parts, not for adding up. The
"per item" column divides by the items written, so a part that every attempt
pays (drawing, keys) is charged for the duplicates and rejected attempts too.
``write_items`` minus ``attempt`` is the run's bookkeeping (the stream,
diversity sample, key set) and the writing of the file.

Card compilation and the frame are built before timing. A part that no longer
exists under its name is reported as missing, not timed; keep the list in
step with ``perturb/`` when it changes.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import tempfile
import time
import types
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

ROOT = Path(__file__).resolve().parents[1]
CARD = "buffett_acquisition_checklist"
BASE = ROOT / "frameworks" / "scenarios" / CARD / "ipb_p_011_base.yaml"

#: (label, module, attribute path) of each timed part, roughly in the order of an attempt. The module is the one
#: whose namespace the caller looks the name up in (``build_item`` is called from ``generation``).
PARTS = [
    ("write_items (whole run)", "ipb.perturb.generation", "write_items"),
    ("attempt (all below)", "ipb.perturb.generation", "Generator.attempt"),
    ("scenario: seed rng + operators", "ipb.perturb.generation", "Generator.scenario"),
    ("  seed random.Random(str)", "ipb.perturb.generation", "random.Random"),
    ("  op metric", "operator", "metric"),
    ("  op sector", "operator", "sector"),
    ("  op temporal", "operator", "temporal"),
    ("  op flip (all below)", "operator", "flip"),
    ("    flip: draw anchor", "ipb.perturb.targeted", "_anchor"),
    ("    flip: repair", "ipb.perturb.targeted", "_repair"),
    ("    flip: dead-move screen", "ipb.perturb.targeted", "_dead_move"),
    ("    flip: search (_first_flip)", "ipb.perturb.targeted", "_first_flip"),
    ("      find_flip", "ipb.perturb.flip_search", "_find_flip"),
    ("    flip: constraint screen", "ipb.perturb.frame", "Frame.breaks_constraint"),
    ("  derived inputs (complete)", "ipb.perturb.frame", "Frame.complete"),
    ("fact literals", "ipb.perturb.generation", "fact_literals"),
    ("relevant key (dup key)", "ipb.perturb.generation", "relevant_key"),
    ("anachronisms (dated items)", "ipb.perturb.registries", "RegimeRegistry.anachronisms"),
    ("constraints (violations_from)", "ipb.perturb.frame", "Frame.violations_from"),
    ("changed count", "ipb.perturb.frame", "Frame.changed"),
    ("raw point (diversity)", "ipb.perturb.generation", "raw_point"),
    ("scenario key (id)", "ipb.perturb.generation", "scenario_key"),
    ("build_item (all below)", "ipb.perturb.generation", "build_item"),
    ("  execute card", "ipb.perturb.items", "execute"),
    ("  GRP (Trace.to_grp)", "ipb.engine.execute", "Trace.to_grp"),
    ("  question rendered", "ipb.perturb.items", "render_question"),
    ("  conditions B and C", "ipb.perturb.items", "_frame_conditions"),
    ("  id hashed", "ipb.perturb.items", "item_id"),
    ("  change literals", "ipb.perturb.items", "cached_text"),
    ("serialise (dumps_item)", "ipb.perturb.generation", "dumps_item"),
    ("diversity sample", "ipb.perturb.runs", "Diversity.add"),
    ("key set add", "ipb.perturb.keyset", "KeySet.add"),
]


def _timer(real: Callable[..., Any], tally: list[int]) -> Callable[..., Any]:
    clock = time.thread_time_ns

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = clock()
        try:
            return real(*args, **kwargs)
        finally:
            tally[0] += clock() - start
            tally[1] += 1

    return timed


def _wrap(module_name: str, path: str, tally: list[int], undo: list[Callable[[], None]]) -> bool:
    """Wrap one part to add its thread CPU to ``tally``; ``undo`` gets what puts the original back."""
    if module_name == "operator":  # the registry holds the function: wrap the registered copy
        from ipb.perturb import operators

        info = operators._OPERATORS.get(path)
        if info is None:
            return False
        operators._OPERATORS[path] = replace(info, fn=_timer(info.fn, tally))
        undo.append(lambda: operators._OPERATORS.__setitem__(path, info))
        return True
    module = importlib.import_module(module_name)
    *owners, name = path.split(".")
    owner: Any = module
    for part in owners:
        owner = getattr(owner, part, None)
    if owner is None or not hasattr(owner, name):
        return False
    timed = _timer(getattr(owner, name), tally)
    if owner is random:  # never patch the random module itself: give generation a copy whose Random is timed
        module.random = types.SimpleNamespace(Random=timed)  # type: ignore[attr-defined]
        undo.append(lambda: setattr(module, "random", random))
        return True
    held = owner.__dict__.get(name, _ABSENT)
    setattr(owner, name, staticmethod(timed) if isinstance(held, staticmethod) else timed)
    # a name the owner only inherited is deleted again, not set on it
    undo.append((lambda: delattr(owner, name)) if held is _ABSENT else (lambda: setattr(owner, name, held)))
    return True


_ABSENT = object()


@contextmanager
def timed_parts(parts: Sequence[tuple[str, str, str]] = PARTS) -> Iterator[tuple[dict[str, list[int]], list[str]]]:
    """Wrap ``parts`` for the duration: yields ``{label: [thread CPU ns, calls]}`` and the parts not found."""
    spent: dict[str, list[int]] = {}
    missing: list[str] = []
    undo: list[Callable[[], None]] = []
    try:
        for label, module, attr in parts:
            if not _wrap(module, attr, spent.setdefault(label, [0, 0]), undo):
                missing.append(f"{module}.{attr}")
        yield spent, missing
    finally:
        for put_back in reversed(undo):
            put_back()


def measure(n: int, ops: str = "metric,sector,temporal,flip", seed: int = 0, out: Path | None = None,
            ) -> tuple[Any, int, dict[str, list[int]], list[str]]:
    """Make ``n`` bench items (to ``out``, else a scratch file) with the parts timed: the run's report, its
    thread CPU in ns, each part's ``[ns, calls]`` and the parts not found. The card and frame are built first."""
    import ipb.perturb.generation as gen
    from ipb.engine.registry import compiled_card
    from ipb.perturb import Job, parse_recipes

    compiled_card(CARD)
    job = Job((CARD,), str(BASE), seed, parse_recipes(ops))
    generator = gen.Generator(job)  # the frame and base, before timing
    with tempfile.TemporaryDirectory() as folder, timed_parts() as (spent, missing):
        start = time.thread_time_ns()
        result = gen.write_items(out or Path(folder) / "items.jsonl", job, n, workers=1, generator=generator)
        total = time.thread_time_ns() - start
    return result, total, spent, missing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--ops", default="metric,sector,temporal,flip")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    result, total, spent, missing = measure(args.n, args.ops, args.seed)
    count = result.written
    attempts = sum(r.attempts for r in result.recipes)
    print(f"{count:,} items ({attempts:,} attempts) on {CARD}, ops {args.ops}: "
          f"{total / count / 1e3:.1f} us an item of thread CPU ({total / 1e9:.2f} s), wrappers included")
    print(f"{'part':36s} {'us/item':>8s} {'calls':>9s} {'us/call':>8s} {'share':>6s}")
    for label, _, _ in PARTS:
        ns, calls = spent.get(label, [0, 0])
        if calls:
            print(f"{label:36s} {ns / count / 1e3:8.1f} {calls:9,d} {ns / calls / 1e3:8.1f} {ns / total:6.0%}")
    for name in missing:
        print(f"missing (not timed): {name}")


if __name__ == "__main__":
    main()
