"""A trace and its gate results make no reference cycle (s56mem, memory flat in N).

``ipb perturb`` and ``ipb verify`` run with the cyclic garbage collector off
(young generations collected every 4,096 items), so a trace caught in a cycle
with its gate results was never freed during a run: on the Buffett card some
1,100 such traces piled up every 3,000 items and the run's peak memory grew
with N. Bug kind: memory held by a reference cycle.
"""

from __future__ import annotations

import gc
import weakref

from ipb.engine.execute import NOT_REACHED, execute
from ipb.engine.registry import compiled_card
from ipb.engine.scenario import facts_from_mapping

FACTS = {"business_model": "subscription_software", "sector": "enterprise_software", "gross_margin": "90%",
         "revenue_retention": "95%", "revenue_growth": "25%", "net_income": "$0", "arr": "$5B", "ev_to_arr": "10x",
         "macro_regime": "expansion"}


def _freed_without_the_collector(diagnostic: bool) -> bool:
    compiled = compiled_card("buffett_acquisition_checklist")
    was = gc.isenabled()
    gc.disable()
    try:
        trace = execute(compiled, facts_from_mapping(compiled.card, FACTS), diagnostic=diagnostic)
        assert len(trace.gates) == len(compiled.card.gates)  # the gate results are built (and cached)
        trace.to_grp()
        ref = weakref.ref(trace)
        del trace
        return ref() is None  # freed by reference counting alone; a cycle would keep it until a collection
    finally:
        if was:
            gc.enable()


def test_a_trace_with_its_gates_built_is_freed_by_reference_counting():
    assert _freed_without_the_collector(diagnostic=False)


def test_a_diagnostic_trace_is_freed_by_reference_counting():
    assert _freed_without_the_collector(diagnostic=True)


def test_a_gate_result_kept_after_its_trace_still_reads_its_values():
    """The gate results read the environments through the trace's scene, which they keep alive."""
    compiled = compiled_card("buffett_acquisition_checklist")
    trace = execute(compiled, facts_from_mapping(compiled.card, FACTS), diagnostic=True)
    expected = [(r.verdict, r.values, r.computed) for r in trace.gates]
    env, diagnostic_env = trace.env, trace.diagnostic_env
    results = list(trace.gates)
    del trace
    assert [(r.verdict, r.values, r.computed) for r in results] == expected
    assert any(values for _, values, _ in expected)
    # a skipped gate of a diagnostic trace reads the diagnostic environment, the others the trace's own
    assert any(r.verdict is NOT_REACHED for r in results)
    assert all(r._env() is (diagnostic_env if r.verdict is NOT_REACHED else env) for r in results)
    assert diagnostic_env is not None and diagnostic_env is not env
    again = execute(compiled, facts_from_mapping(compiled.card, FACTS))
    assert again.diagnostic_env is None and again.gates[0]._env() is again.env
