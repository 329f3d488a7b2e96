"""Issue 18 item 4, the cheap second pass (s53dup). s52dup treated a near duplicate as a miss, hunted on for visibly
new items until every recipe ran out, then re-ran every attempt to admit near duplicates: up to 8x main's time
(buffett_share_repurchase 16 s -> 128 s at --n 1000); the hunt alone was 6x (8 times main's attempts). Now a
recipe takes a near duplicate as main does, counts it towards its share and puts it off: only its (recipe, attempt)
is kept, and it is rebuilt after the visibly new items. The strict rule on request: ``--no-near-duplicates`` hunts
as s52dup did, refuses near duplicates and reports the shortfall.

The run: Marks's market-cycle card from hot_defensive_2007 at ``--seed 3`` (the s52newuser command), which has
fewer visibly new items than 300 (134: tests/perturb/test_perturb_near_s52dup.py).
"""

from __future__ import annotations

import json
import re

import pytest

import ipb.perturb.generation as gen
from ipb.errors import PerturbError
from ipb.perturb import Job, generate
from perturb_support import SCENARIOS

MARKS = "marks_market_cycle_positioning"
BASE = SCENARIOS / MARKS / "hot_defensive_2007.yaml"
N = 300


def _job(strict: bool = False) -> Job:
    # s53dup's mode, the default until s58fill made "fill" the default: now --near-duplicates defer
    return Job((MARKS,), str(BASE), 3, (), strict_near=strict, near=None if strict else "defer")


def test_near_duplicates_are_mains_items_put_last_at_mains_cost(monkeypatch):
    deferred = generate(_job(), N)
    # the near rule patched out (every near key new): the run as main makes it, near duplicates in place
    fresh = iter(range(10**9))
    monkeypatch.setattr(gen, "near_key", lambda *args: next(fresh))
    plain = generate(_job(), N)
    admitted = sum(r.near_admitted for r in deferred.recipes)
    assert 0 < admitted < N and sum(r.near_admitted for r in plain.recipes) == 0
    assert sorted(deferred.lines) == sorted(plain.lines)  # the same items
    first = set(deferred.lines[:N - admitted])  # visibly new first, then the near duplicates, each in main's order
    assert deferred.lines == [x for x in plain.lines if x in first] + [x for x in plain.lines if x not in first]
    # no attempt beyond main's: each near duplicate is rebuilt from its (recipe, attempt), not hunted past
    # (s52dup's hunt, now --no-near-duplicates, makes 2,593 attempts for the 134 visibly new items alone; main
    # makes 1,310 for all 300, 194 of them near duplicates)
    assert [r.attempts for r in deferred.recipes] == [r.attempts for r in plain.recipes]
    assert deferred.verdicts == plain.verdicts
    assert deferred.diversity.changed == plain.diversity.changed


def test_the_one_recipe_warning_by_hand():
    from ipb.perturb.runs import Generation, RecipeReport

    reports = [RecipeReport("metric", 167, items=50, exhausted=True), RecipeReport("flip", 167, items=20,
                                                                                     exhausted=True),
               RecipeReport("isolate", 166, items=430)]
    # 430 / 500 = 0.86 >= 0.85; metric and flip are short of their shares of 167
    assert Generation([], 500, reports, {}, False, [], written=500).dominant() == (
        "WARNING: isolate made 430 of 500 items (86%); short of their shares: metric 50 of 167 (exhausted), "
        "flip 20 of 167 (exhausted)")
    reports[2].items, reports[0].items = 420, 60  # 420 / 500 = 0.84: no warning
    assert Generation([], 500, reports, {}, False, [], written=500).dominant() is None


def test_the_second_pass_bytes_do_not_depend_on_workers(monkeypatch):
    one = generate(_job(), N)
    monkeypatch.setattr(gen, "POOL_MIN", 0)  # worker processes even for a small run, the rebuilt lines too
    two = generate(_job(), N, workers=2)
    assert sum(r.near_admitted for r in one.recipes) > 0
    assert two.lines == one.lines
    assert two.verdicts == one.verdicts and two.summary() == one.summary()


def test_strict_diversity_is_a_shortfall_naming_the_near_duplicates():
    with pytest.raises(PerturbError, match=r"only \d+ distinct items can be made of the 300 requested .*"
                                            r"near duplicate\(s\) dropped") as caught:
        generate(_job(True), N)
    assert caught.value.rule == "shortfall"


def test_the_cli_flag_refuses_near_duplicates(tmp_path):
    from typer.testing import CliRunner

    from ipb.cli import app

    out = tmp_path / "items.jsonl"
    args = ["perturb", "-c", MARKS, "-b", str(BASE), "--n", str(N), "--seed", "3", "--out", str(out)]
    refused = CliRunner().invoke(app, args + ["--no-near-duplicates"])
    assert refused.exit_code == 1 and "near duplicate(s) dropped" in refused.output and not out.exists()
    short = CliRunner().invoke(app, args + ["--no-near-duplicates", "--allow-short"])
    assert short.exit_code == 0, short.output
    written = len(out.read_text().splitlines())
    assert 0 < written < N and "admitted within a visible step" not in short.output
    assert f"SHORTFALL: only {written} distinct items" in short.output
    default = CliRunner().invoke(app, args)
    assert default.exit_code == 0 and re.search(rf"WARNING: \d+ of {N} items are within a visible step of an item of "
                                                r"the same recipe, written after the others", default.output)
    assert all(json.loads(line)["id"] for line in out.read_text().splitlines())
