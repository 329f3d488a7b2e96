"""``grp_view`` (the engine's GRP-only entry point) against the full execution, on every bundled and test card.

Laws checked on drawn scenarios (``test_columnar``'s strategies: unknown
facts, grid values, range edges), each against :func:`execute`, which this
module does not share code paths with beyond the executor itself:

* ``grp_view(c, f).to_grp(sid, layer) == execute(c, f, scenario_id=sid, layer=layer).to_grp()``;
  verdicts, outcome and trigger equal the trace's;
* ``header()`` is the GRP less ``question_id``, ``layer`` and ``gold_program``;
  ``entry(i)`` is its i-th gate entry, also with the entry memo emptied first;
* two scenarios with one :attr:`GrpView.key` have one GRP, and two gates with
  one :meth:`GrpView.entry_key` one entry (the soundness of ``ipb verify``'s
  memo); pairs of scenarios that differ in one fact make such collisions
  frequent.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipb.engine.execute import _plan, execute
from ipb.engine.grp_view import grp_names, grp_view
from ipb.engine.registry import compiled_card

from tests.engine.test_columnar import CARDS, _value, compiled, scenarios


def _variants(card: Any, data: st.DataObject, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each row again with one input changed (or left out): keys often equal, GRPs must follow."""
    names = sorted(card.inputs)
    out = []
    for row in rows:
        name = data.draw(st.sampled_from(names), label="changed input")
        value = data.draw(st.one_of(st.none(), _value(card.inputs[name])), label="new value")
        changed = {k: v for k, v in row.items() if k != name}
        if value is not None:
            changed[name] = value
        out.append(changed)
    return out


@pytest.mark.parametrize("path", CARDS, ids=lambda p: p.stem)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_grp_view_renders_what_execute_renders(path: Path, data: st.DataObject) -> None:
    card = compiled(path)
    rows = data.draw(scenarios(card.card), label="scenarios")
    rows = rows + _variants(card.card, data, rows)
    sid = data.draw(st.sampled_from([None, "IPB-X-1"]), label="scenario id")
    layer = data.draw(st.sampled_from([None, "L7", "L8"]), label="layer")
    by_key: dict[Any, dict[str, Any]] = {}
    by_entry: dict[Any, dict[str, Any]] = {}
    for facts in rows:
        before = dict(facts)
        trace = execute(card, facts, scenario_id=sid, layer=layer)
        grp = trace.to_grp()
        view = grp_view(card, facts)
        assert facts == before  # not modified
        assert view.to_grp(sid, layer) == grp
        assert [v.value for v in view.verdicts] == trace.verdicts()
        assert (view.outcome, view.trigger) == (trace.outcome, trace.trigger)
        assert view.header() == {k: v for k, v in grp.items() if k not in ("question_id", "layer", "gold_program")}
        assert [view.entry(i) for i in range(len(card.card.gates))] == grp["gold_program"]
        _plan(card).entries.clear()
        assert [view.entry(i) for i in range(len(card.card.gates))] == grp["gold_program"]
        bare = {k: v for k, v in grp.items() if k not in ("question_id", "layer")}
        assert by_key.setdefault(view.key, bare) == bare
        for i, entry in enumerate(grp["gold_program"]):
            assert by_entry.setdefault(view.entry_key(i), entry) == entry


def test_a_key_differs_when_a_shown_value_differs_in_value_or_presence() -> None:
    card = compiled_card("buffett_acquisition_checklist")
    assert "price" in grp_names(card.card)  # computed: ev_to_arr * arr
    base = {"arr": Decimal("5E9"), "ev_to_arr": Decimal("10"), "net_income": Decimal("1E9")}
    same = grp_view(card, dict(base)).key
    assert grp_view(card, dict(base)).key == same
    assert grp_view(card, {**base, "ev_to_arr": Decimal("10.0")}).key == same  # the same number: the same text
    assert grp_view(card, {**base, "ev_to_arr": Decimal("11")}).key != same
    assert grp_view(card, {"arr": Decimal("5E9"), "net_income": Decimal("1E9")}).key != same  # price unknown


def test_a_returned_entry_is_a_copy() -> None:
    card = compiled_card("buffett_acquisition_checklist")
    view = grp_view(card, {"arr": Decimal("5E9"), "ev_to_arr": Decimal("10"), "net_income": Decimal("1E9")})
    first = view.entry(4)
    first["required_elements"].append("edited")
    first["verdict"] = "edited"
    again = view.entry(4)
    assert "edited" not in again["required_elements"] and again["verdict"] != "edited"
    assert view.to_grp()["gold_program"][4] == again

