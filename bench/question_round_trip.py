"""Issue 18 bar, line 3: every fact of every item can be read back from its question, at N items per card.

Run from the repository root::

    .venv/bin/python bench/question_round_trip.py [--n 1000] [--seed 11] [--cards buffett_,marks_]

The suite's test (``tests/perturb/test_perturb_questions.py``,
``test_question_round_trip_on_a_1000_item_run_over_every_card``) makes 1,000 items over all cards together
(36 a card); this script makes N items on each bundled card's first base (the test's ``first_base``) with
the card's default operators and checks each question with the test's own reader (``parse_back``: each
input's sentence found once, its value read back equal to the item's fact, no words left over, and no
snake_case token in the question). One line per card (items, failures) and the first failure of each card;
exit status 1 when any item fails.

References: paper section 4.3; docs/perturbation.md (questions).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests" / "perturb"


def questions_test() -> ModuleType:
    """The suite's question tests loaded as a module (their folder on ``sys.path`` for ``perturb_support``)."""
    sys.path.insert(0, str(TESTS))
    spec = importlib.util.spec_from_file_location("ipb_round_trip_tests", TESTS / "test_perturb_questions.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_card(t: ModuleType, card_id: str, n: int, seed: int) -> tuple[int, list[str]]:
    """Items made on ``card_id``'s first base and the failures, ``"item id: reason"``."""
    from ipb.perturb import Job, build_frame, generate

    frame = build_frame([card_id])
    made, failures = 0, []
    for line in generate(Job((card_id,), t.first_base(card_id), seed), n).lines:
        item = json.loads(line)
        made += 1
        try:
            snake = t.SNAKE.search(item["question"])
            assert snake is None, f"snake_case token {snake.group(0) if snake else ''!r}"
            got, want = t.parse_back(frame, item["question"]), t.item_facts(frame, item)
            assert got == want, "facts read back differ: " + ", ".join(
                f"{k}: {got.get(k)!r} != {want.get(k)!r}" for k in sorted(set(got) | set(want)) if got.get(k) != want.get(k))
        except AssertionError as why:
            failures.append(f"{item['id']}: {why}")
    return made, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="items per card (the bar: 1000)")
    parser.add_argument("--seed", type=int, default=11, help="the suite test's seed")
    parser.add_argument("--cards", default="", help="comma-separated card id prefixes (default: all)")
    args = parser.parse_args(argv)
    t = questions_test()
    only = [p for p in args.cards.split(",") if p]
    cards = [c for c in t.CARD_IDS if not only or any(c.startswith(p) for p in only)]
    start, total, failed = time.process_time(), 0, 0
    for card_id in cards:
        made, failures = check_card(t, card_id, args.n, args.seed)
        total, failed = total + made, failed + len(failures)
        print(f"{card_id}: {made} items, {len(failures)} failed" + (f"; first: {failures[0][:300]}" if failures else ""),
              flush=True)
    print(f"{total} items on {len(cards)} cards (N={args.n} a card, seed {args.seed}): {failed} failed; "
          f"{time.process_time() - start:.1f} s CPU")
    return 1 if failed or total < args.n * len(cards) else 0


if __name__ == "__main__":
    sys.exit(main())
