"""s58speedgen: a deferred near duplicate is built once and spooled (ipb.perturb._spool), not rebuilt.

Until stop 58 the ``defer`` mode kept each near duplicate's (recipe, attempt) and ran its operator a second time
after the visibly new items (``Generator.line``); near duplicates are a larger share of a longer run (676 of 2,000
bench items, 5,002 of 10,000), so the cost per item grew with N. The bytes are pinned by test_perturb_bytes and
test_perturb_near_s53dup (the deferred lines are the lines an in-place run builds).
"""

from __future__ import annotations

import pytest

import ipb.perturb.generation as gen
from ipb.perturb import Job, generate
from ipb.perturb._spool import LineSpool
from perturb_support import SCENARIOS

MARKS = "marks_market_cycle_positioning"
BASE = SCENARIOS / MARKS / "hot_defensive_2007.yaml"


def test_spool_reads_back_in_order_and_removes_its_file():
    spool = LineSpool()
    assert list(spool.drain()) == [] and len(spool) == 0  # nothing added: no file made
    lines = ['{"a": 1}', "", '{"q": "caf\u00e9 \u2014 5%"}', "x" * 70_000]
    for line in lines:
        spool.add(line)
    assert len(spool) == 4
    handle = spool._file
    assert handle is not None
    out = list(spool.drain())
    assert out == lines and handle.closed and len(spool) == 0
    assert list(spool.drain()) == []  # read once


def test_spool_refuses_a_line_with_a_newline_and_close_drops_the_rest():
    spool = LineSpool()
    with pytest.raises(ValueError, match="newline"):
        spool.add('{"a":\n1}')
    spool.add("one")
    handle = spool._file
    spool.close()
    assert handle.closed and len(spool) == 0 and list(spool.drain()) == []


def test_a_deferred_near_duplicate_runs_its_operator_once(monkeypatch):
    # s53dup's run: Marks's cycle card, hot_defensive_2007, seed 3, 300 items, 199 of them near duplicates
    calls = {"scenario": 0, "line": 0}
    scenario, line = gen.Generator.scenario, gen.Generator.line

    def counted_scenario(self, r, j):
        calls["scenario"] += 1
        return scenario(self, r, j)

    def counted_line(self, r, j):
        calls["line"] += 1
        return line(self, r, j)

    monkeypatch.setattr(gen.Generator, "scenario", counted_scenario)
    monkeypatch.setattr(gen.Generator, "line", counted_line)
    monkeypatch.setattr(gen, "DEFAULT_NEAR", "defer")
    result = generate(Job((MARKS,), str(BASE), 3, ()), 300)
    admitted = sum(r.near_admitted for r in result.recipes)
    assert admitted == 199 and len(result.lines) == 300
    # one scenario an attempt: none rebuilt for the second pass (before s58speedgen: attempts + admitted, and
    # Generator.line called once per admitted near duplicate)
    assert calls == {"scenario": sum(r.attempts for r in result.recipes), "line": 0}
