"""Speed of the outcome scan behind the undecided final verdict (``ipb.scoring.parse._undecided``; issue 13 s63).

Run from the repository root::

    .venv/bin/python bench/undecided_scan.py [--kb 2500] [--repeat 3] [--card buffett_acquisition_checklist]

:func:`~ipb.scoring.parse._undecided.undecided_end` reads two things off the card's outcome words (paper §7.5: the
final verdict is the last committed statement): outcomes offered as alternatives and an outcome called unsettled.
Until s63 each scanned the whole answer with the card's outcome pattern, ``(?i)\\b(?:...)`` over several hundred
alternatives (every language's outcome words), and a pathological answer of repeated years ("1986 1987 " for 2.5 MB)
took about 12 s of CPU per scan. Now the two share one scan (``outcome_mentions``) and the pattern opens with a
lookahead for the first characters of its words.

This script times, in one run on the same text, the baseline (copies of the s62 functions below, with the s62
pattern rebuilt by removing the lookahead) against the current code: CPU seconds (``time.process_time``, best of
``--repeat``) and their ratio, for the pathological text and for an ordinary answer repeated to the same size. It
also checks that both give the same spans (the readings must not change). Timings are CPU time on a shared machine:
compare ratios, not seconds.
"""

from __future__ import annotations

import argparse
import gc
import re
import time
from typing import Callable

from ipb.engine.registry import compiled_card
from ipb.scoring.parse import _undecided as u
from ipb.scoring.parse._card import _index


def _old_alternatives(text: str, outcome_re: re.Pattern[str], outcome_of: dict[str, str]) -> list[tuple[int, int]]:
    """s62's ``alternatives``: its own scan of the whole text (copied; the span logic is unchanged in s63)."""
    found: list[tuple[int, int, str]] = []
    for m in outcome_re.finditer(text):
        key = re.sub(r"[ \t_:-]+", "_", m.group(0).strip().upper())
        outcome = outcome_of.get(key) or (outcome_of.get(key[:-1]) if key.endswith("S") else None)
        if outcome is not None:
            found.append((m.start(), m.end(), outcome))
            if len(found) >= u._MAX_MENTIONS:
                break
    return u.alternatives(text, outcome_re, outcome_of, [(a, b, o) for a, b, o in found])


def _old_unsettled(text: str, outcome_re: re.Pattern[str]) -> list[tuple[int, int]]:
    """s62's ``unsettled``: its own scan of the whole text (copied)."""
    spans: list[tuple[int, int]] = []
    for k, m in enumerate(outcome_re.finditer(text)):
        if k >= u._MAX_MENTIONS:
            break
        stop = u._SENTENCE_END.search(text, m.end())
        found = u.UNSETTLED.search(text, m.end(), stop.start() if stop else len(text))
        if found is not None:
            spans.append((m.start(), found.end()))
    return spans


def _best(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        gc.disable()
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
        gc.enable()
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kb", type=int, default=2500, help="size of each text in KB (default 2500: the 2.5 MB reproducer)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--card", default="buffett_acquisition_checklist")
    args = ap.parse_args()
    ix = _index(compiled_card(args.card).card)
    new_re = ix.outcome_re
    assert new_re is not None
    old_re = re.compile(re.sub(r"^\(\?i\)\(\?=\[[^\]]*\]\)", "(?i)", new_re.pattern), new_re.flags)
    assert old_re.pattern != new_re.pattern, "the lookahead was not found: update this script"
    ordinary = ("Gate 1: PROCEED - we understand the business.\nGate 5: REJECT - the price is too high. "
                "Possibly AVOID, possibly BUY; we would not call it settled. Final verdict: probably DECLINE, "
                "but that is not a final call.\n\n")
    size = args.kb * 1000
    texts = {"years ('1986 1987 ')": ("1986 1987 " * (size // 10)), "ordinary answer, repeated": ordinary * (size // len(ordinary))}
    print(f"card {args.card}; outcome pattern {len(new_re.pattern):,} characters; CPU seconds, best of {args.repeat}")
    print(f"{'text':28} {'KB':>6} {'s62 (two scans)':>16} {'s63 (one scan)':>15} {'ratio':>8}  same spans")
    for name, text in texts.items():
        t_old, old = _best(lambda: _old_alternatives(text, old_re, ix.outcome_of) + _old_unsettled(text, old_re), args.repeat)
        def new() -> object:
            mentions = u.outcome_mentions(text, new_re, ix.outcome_of)
            return u.alternatives(text, new_re, ix.outcome_of, mentions) + u.unsettled(text, new_re, mentions)
        t_new, cur = _best(new, args.repeat)
        print(f"{name:28} {len(text) // 1000:>6} {t_old:>16.3f} {t_new:>15.3f} {t_old / max(t_new, 1e-9):>7.1f}x  {old == cur}")


if __name__ == "__main__":
    main()
