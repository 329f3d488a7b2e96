"""s60speed2: two repeats of the same work per probe removed from generation (issue 18, item 7).

Each test counts calls of the repeated work, so it fails on the code before the change; the answers
themselves are checked against the plain computation.
"""
from __future__ import annotations

from decimal import Decimal

from ipb.perturb.feasible import _probe
from ipb.perturb.frame import build_frame
from ipb.perturb.values import Grid


class CountingGrid(Grid):
    """A grid that counts how often each of its values is made."""

    def value(self, k: int) -> Decimal:
        self.made.append(k)  # type: ignore[attr-defined]
        return super().value(k)


def test_a_probe_makes_its_grid_value_once_for_all_the_checks_that_ask_it():
    frame = build_frame(["buffett_acquisition_checklist"])
    grid = CountingGrid(Decimal(0), Decimal(1), Decimal(9))  # 0 .. 9
    object.__setattr__(grid, "made", [])
    checks = ((lambda env: env["x"] >= 2, frozenset({"x"})),
              (lambda env: env["x"] <= env["cap"], frozenset({"x", "cap"})),
              (lambda env: env["x"] != 5, frozenset({"x"})))
    ok = _probe(frame, {"x": Decimal(0), "cap": Decimal(7)}, "x", grid, checks)
    # by hand: 2 <= x <= 7 and x != 5
    assert [k for k in range(10) if ok(k)] == [2, 3, 4, 6, 7]
    # each k made once though three checks read it (was once per check asked: 0, 1, 5, 8, 9 stop early)
    assert sorted(grid.made) == list(range(10))
    grid.made.clear()  # type: ignore[attr-defined]
    assert [k for k in range(10) if ok(k)] == [2, 3, 4, 6, 7]  # remembered rows: no value made again
    assert grid.made == []
