"""s60speed (issue 18, bar line 4): a generation run drops its cards' remembered whole GRPs when it ends.

The compiled card outlives the run (the registry keeps it), and ``Trace.to_grp``'s memo of whole programs on it (up
to 4,000, which ``ipb verify`` never reads) was carried into a verification in the same process: on the bench card a
10,000-item run then its verification in one process peaked at 90.2 MiB, 88.2 with them dropped. These tests fail
before the change (the memo still holds the run's programs afterwards; ``forget_rendered`` did not exist).
"""

from __future__ import annotations

from decimal import Decimal

from ipb._files import write_lines_atomic
from ipb.engine.execute import _plan, execute
from ipb.engine.grp_view import forget_rendered, grp_view
from ipb.engine.registry import compiled_card
from ipb.perturb import Job, parse_recipes
from ipb.perturb.generation import GenerationRun, write_items
from perturb_support import BUFFETT, BUFFETT_BASE


def job() -> Job:
    return Job((BUFFETT,), str(BUFFETT_BASE), 7, parse_recipes("metric,flip"))


def test_a_finished_run_leaves_no_whole_gold_program_remembered(tmp_path):
    plan = _plan(compiled_card(BUFFETT))
    seen = []
    out = tmp_path / "items.jsonl"
    # the memo fills while the run builds its items (checked on the way), and is empty once the run is over
    run = GenerationRun(job(), 60)

    def watched():
        for line in run.lines():
            seen.append(len(plan.programs))
            yield line

    write_lines_atomic(out, watched())
    assert len(seen) == 60 and max(seen) > 0, "the items' GRPs were remembered while they were built"
    assert len(plan.programs) == 0 and len(plan.entries) > 0, "the gate entries (verify reads them) stay"
    assert write_items(tmp_path / "again.jsonl", job(), 60).written == 60
    assert (tmp_path / "again.jsonl").read_bytes() == out.read_bytes()
    assert len(plan.programs) == 0


def test_forget_rendered_counts_what_it_drops_and_changes_no_grp():
    c = compiled_card(BUFFETT)
    forget_rendered(c)
    facts = {"price": Decimal("4E10"), "net_income": Decimal("2E9")}
    first = grp_view(c, facts).to_grp("q", "L7")
    whole = execute(c, facts, scenario_id="q", layer="L7").to_grp()
    held = len(_plan(c).programs)
    assert held > 0 and len(_plan(c).entries) > 0
    assert forget_rendered(c) == held and forget_rendered(c) == 0 and len(_plan(c).entries) > 0
    assert grp_view(c, facts).to_grp("q", "L7") == first == whole
