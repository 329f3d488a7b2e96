"""Where ``ipb verify``'s time goes: CPU per item of each part of the check, on one core.

Run from the repository root, on an items file (``bench/perturb.py`` or ``ipb perturb`` makes one)::

    .venv/bin/python bench/verify_parts.py ITEMS.jsonl [--limit N] [--cards DIR]

The lines are read first (not timed); each is then checked in this process
(``ipb.perturb.verify._Checker.check``, pinned to one CPU, the cyclic garbage
collector off as in ``verify_items``). Each part below is wrapped to add up
the thread CPU time (``time.thread_time_ns``) of its calls. Parts nest: a
part's time includes the parts it calls (``_compare`` holds the GRP,
self-check, constraint and condition parts; ``problems`` holds
``render_question``), and every wrapper adds some 0.3 us a call, so the column
is for comparing parts, not for adding up. The schema check (jsonschema-rs,
a method of a compiled validator) is not wrapped: it is part of what the
line's total holds beyond the parts (about 6 us an item on the bench card).
The first line is checked once before timing (card compilation and the frame
are one-time costs).

A part that no longer exists under its name is reported as missing, not
timed; keep the list in step with ``perturb/verify*.py`` when they change.
"""

from __future__ import annotations

import argparse
import gc
import os
import time
from pathlib import Path
from typing import Any, Callable

#: (label, module, attribute path) of each timed part, in the order of the check.
PARTS = [
    ("read line (msgspec, write-back)", "ipb.perturb.verify", "parse_canonical_line"),
    ("compare (all below)", "ipb.perturb.verify", "_Checker._compare"),
    ("type the facts", "ipb.perturb.verify", "_Checker.typed"),
    ("constraints", "ipb.perturb.verify_memo", "ConstraintMemo.broken"),
    ("execute (grp_view)", "ipb.perturb.verify", "grp_view"),
    ("GRP compare", "ipb.perturb.verify_memo", "GrpMemo.grp_if_differs"),
    ("  GRP rendered (memo misses)", "ipb.perturb.verify_memo", "GrpMemo._template"),
    ("conditions B and C", "ipb.perturb.verify", "conditions_agree"),
    ("self-check", "ipb.perturb.verify_self", "SelfCheck.problems"),
    ("  question rendered", "ipb.perturb.verify_self", "render_question"),
    ("  id hashed", "ipb.perturb.verify_self", "expected_id"),
    ("  FM-6 and cutoff", "ipb.perturb.verify_self", "_date_problems"),
]


def _wrap(module: Any, path: str, spent: dict[str, list[int]], label: str) -> bool:
    *owners, name = path.split(".")
    owner = module
    for part in owners:
        owner = getattr(owner, part, None)
    if owner is None or not hasattr(owner, name):
        return False
    raw = owner.__dict__.get(name) if isinstance(owner, type) else None
    real: Callable[..., Any] = getattr(owner, name)
    tally = spent.setdefault(label, [0, 0])
    clock = time.thread_time_ns

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = clock()
        try:
            return real(*args, **kwargs)
        finally:
            tally[0] += clock() - start
            tally[1] += 1

    # a method read from its class is a plain function: the wrapper, set on the class, gets ``self`` the same way
    setattr(owner, name, staticmethod(timed) if isinstance(raw, staticmethod) else timed)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("items")
    parser.add_argument("--limit", type=int, default=0, help="check only the first N lines")
    parser.add_argument("--cards", action="append", default=[], help="card folder (as ipb verify --cards)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    import importlib

    from ipb.engine.registry import use_cards
    from ipb.perturb import verify as verify_mod

    path = Path(args.items)
    use_cards(args.cards, path)
    lines = [line for _, _, line in verify_mod._file_lines(path)]
    if args.limit:
        lines = lines[:args.limit]
    checker = verify_mod._Checker()
    checker.check(1, 1, lines[0])  # compile the cards, build the frame
    spent: dict[str, list[int]] = {}
    missing = [f"{module}.{attr}" for label, module, attr in PARTS
               if not _wrap(importlib.import_module(module), attr, spent, label)]
    gc.disable()
    start = time.thread_time_ns()
    bad = 0
    for n, line in enumerate(lines, start=1):
        bad += checker.check(n, n, line).status != "ok"
    total = time.thread_time_ns() - start
    gc.enable()
    count = len(lines)
    print(f"{count:,} lines of {path}, {bad} not ok; check: {total / count / 1e3:.1f} us an item of thread CPU "
          f"({total / 1e9:.2f} s), wrappers included")
    print(f"{'part':36s} {'us/item':>8s} {'calls':>9s} {'us/call':>8s} {'share':>6s}")
    for label, _, _ in PARTS:
        if label in spent:
            ns, calls = spent[label]
            print(f"{label:36s} {ns / count / 1e3:8.1f} {calls:9,d} {ns / max(calls, 1) / 1e3:8.1f} "
                  f"{ns / total:6.0%}")
    for name in missing:
        print(f"missing (not timed): {name}")


if __name__ == "__main__":
    main()
