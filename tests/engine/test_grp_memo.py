"""The GRP entry memo of :meth:`ipb.engine.execute.Trace.to_grp` never serves another scenario's text.

Entries are remembered per card, keyed by the gate's verdicts and the values
its computed text and elements show. The property test renders the GRPs of
many random scenarios with the memo warm (each scenario may hit an entry of
an earlier one) and again with the memo emptied before each scenario (every
entry rendered afresh): they must be equal, for every bundled card and every
test card, in normal and diagnostic mode. Scenarios come from
``test_columnar``'s strategies (unknown facts, grid values, edges).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipb.engine.execute import _plan, execute

from tests.engine.test_columnar import CARDS, compiled, scenarios


@pytest.mark.parametrize("path", CARDS, ids=lambda p: p.stem)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_memoised_grp_equals_a_fresh_one(path: Path, data: st.DataObject) -> None:
    card = compiled(path)
    rows = data.draw(scenarios(card.card), label="scenarios")
    rows = rows + rows[:3]  # the same scenario again: every entry is a hit
    diagnostic = data.draw(st.booleans(), label="diagnostic")
    warm = [execute(card, facts, diagnostic=diagnostic, scenario_id="s").to_grp() for facts in rows]
    fresh = []
    for facts in rows:
        _plan(card).entries.clear()
        _plan(card).programs.clear()  # and the whole programs remembered (a fresh render of every entry)
        fresh.append(execute(card, facts, diagnostic=diagnostic, scenario_id="s").to_grp())
    assert warm == fresh


def test_a_served_entry_is_a_copy() -> None:
    card = compiled(CARDS[0])
    first = execute(card, {}).to_grp()
    first["gold_program"][0]["required_elements"].append("edited")
    first["gold_program"][0]["verdict"] = "edited"
    again = execute(card, {}).to_grp()
    assert "edited" not in again["gold_program"][0]["required_elements"]
    assert again["gold_program"][0]["verdict"] != "edited"


@pytest.mark.parametrize("path", CARDS[:6], ids=lambda p: p.stem)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_shared_grp_equals_the_copied_one(path: Path, data: st.DataObject) -> None:
    """``to_grp(shared=True)`` (the generator's path: remembered entries given without copies) is the same value
    as ``to_grp()``, memo warm or cold; and the copied GRP stays the caller's own after a shared one was served."""
    card = compiled(path)
    rows = data.draw(scenarios(card.card), label="scenarios")
    for facts in rows + rows[:3]:
        shared = execute(card, facts, scenario_id="s").to_grp(shared=True)
        copied = execute(card, facts, scenario_id="s").to_grp()
        assert shared == copied
        if copied["gold_program"]:
            copied["gold_program"][0]["verdict"] = "edited"
            copied["gold_program"][0]["required_elements"].append("edited")
            assert execute(card, facts, scenario_id="s").to_grp(shared=True) == shared
            assert "edited" not in shared["gold_program"][0]["required_elements"]
