"""Issue 18 bar, line 3: every fact of every item can be read back from its question, at N items per card.

Run from the repository root::

    .venv/bin/python bench/question_round_trip.py [--n 1000] [--seed 11] [--cards buffett_,marks_]

The suite's test (``tests/perturb/test_perturb_questions.py``,
``test_question_round_trip_on_a_1000_item_run_over_every_card``) makes 1,000 items over all cards together
(36 a card); this script makes N items on each bundled card's first base (its ``*base.yaml``, else its first
scenario) with the card's default operators and checks each question with the package's reader, the one the
test uses (:func:`ipb.perturb.question_facts.read_question_facts`: each input's sentence found once, its value
read back equal to the item's fact, no words left over), and that no snake_case token is in the question. Any
error on an item (not only a mismatch) is a failure with the item's id; a card whose items cannot be made is a
failure with the card's id. One line per card (items, failures) and the first failure of each card; exit
status 1 when any item fails or fewer than N a card were made. The checks are plain ``if`` tests, so they hold
under ``python -O``.

References: paper section 4.3; docs/perturbation.md (questions).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any

from ipb.engine.registry import bundled_card_paths, bundled_scenario_paths
from ipb.perturb import Frame, Job, build_frame, generate
from ipb.perturb.question_facts import SNAKE_TOKEN, item_facts, read_question_facts

Reader = Callable[[Frame, str], Mapping[str, Any]]


def first_base(card_id: str) -> str:
    """The bundled scenario the bench starts ``card_id``'s items from: its ``*base.yaml``, else its first by name."""
    paths = [p for p in bundled_scenario_paths() if p.parent.name == card_id]
    return str(next((p for p in paths if p.name.endswith("base.yaml")), paths[0]))


def item_failure(frame: Frame, item: Mapping[str, Any], read: Reader) -> str | None:
    """Why ``item``'s question does not read back to its facts, or None when it does."""
    snake = SNAKE_TOKEN.search(item["question"])
    if snake is not None:
        return f"snake_case token {snake.group(0)!r}"
    got, want = read(frame, item["question"]), item_facts(frame, item)
    if got != want:
        return "facts read back differ: " + ", ".join(
            f"{k}: {got.get(k)!r} != {want.get(k)!r}" for k in sorted(set(got) | set(want)) if got.get(k) != want.get(k))
    return None


def check_card(card_id: str, n: int, seed: int, read: Reader = read_question_facts) -> tuple[int, list[str]]:
    """Items made on ``card_id``'s first base and the failures, ``"item id: reason"`` (``"card id: ..."`` when
    the items cannot be made). ``read`` is the question reader (a test passes a wrong one)."""
    try:
        frame = build_frame([card_id])
        lines = generate(Job((card_id,), first_base(card_id), seed), n).lines
    except Exception as exc:  # a card that cannot be made is that card's failure, not the end of the run
        return 0, [f"{card_id}: items not made: {type(exc).__name__}: {exc}"]
    made, failures = 0, []
    for line in lines:
        item = json.loads(line)
        made += 1
        try:
            why = item_failure(frame, item, read)
        except Exception as exc:  # a reader error on one item (QuestionReadError or any other) fails that item only
            why = f"{type(exc).__name__}: {exc}"
        if why is not None:
            failures.append(f"{item.get('id', f'{card_id} item {made}')}: {why}")
    return made, failures


def main(argv: list[str] | None = None) -> int:
    """Check N items a card on the chosen cards; 0 when every item reads back, else 1."""
    parser = argparse.ArgumentParser(description=(__doc__ or "Questions read back to their facts.").splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="items per card (the bar: 1000)")
    parser.add_argument("--seed", type=int, default=11, help="the suite test's seed")
    parser.add_argument("--cards", default="", help="comma-separated card id prefixes (default: all)")
    args = parser.parse_args(argv)
    only = [p for p in args.cards.split(",") if p]
    cards = [c for c in (p.stem for p in bundled_card_paths()) if not only or any(c.startswith(p) for p in only)]
    start, total, failed = time.process_time(), 0, 0
    for card_id in cards:
        made, failures = check_card(card_id, args.n, args.seed)
        total, failed = total + made, failed + len(failures)
        print(f"{card_id}: {made} items, {len(failures)} failed" + (f"; first: {failures[0][:300]}" if failures else ""),
              flush=True)
    print(f"{total} items on {len(cards)} cards (N={args.n} a card, seed {args.seed}): {failed} failed; "
          f"{time.process_time() - start:.1f} s CPU")
    return 1 if failed or total < args.n * len(cards) else 0


if __name__ == "__main__":
    sys.exit(main())
