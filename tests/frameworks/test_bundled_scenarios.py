"""Every bundled scenario's recorded verdict equals the engine's, and every bundled card is clean."""

from __future__ import annotations

import pytest

from ipb.engine.execute import execute
from ipb.engine.registry import bundled_card_paths, bundled_scenario_paths, compiled_card
from ipb.engine.scenario import check_expected, load_scenario

SCENARIOS = bundled_scenario_paths()


@pytest.mark.parametrize("path", SCENARIOS, ids=[f"{p.parent.name}/{p.stem}" for p in SCENARIOS])
def test_scenario_gives_its_recorded_verdict(path):
    card_id = path.parent.name
    compiled = compiled_card(card_id)
    scenario = load_scenario(path, compiled.card)
    assert scenario.card in (None, card_id), "a scenario lives in the folder of its card"
    assert scenario.expected, f"{path} records no expected verdict"
    trace = execute(compiled, scenario.facts)
    assert check_expected(scenario, trace.outcome, trace.trigger, trace.verdicts(), iterations=trace.iterations) == []


@pytest.mark.parametrize("path", bundled_card_paths(), ids=lambda p: p.stem)
def test_bundled_card_has_no_warnings_and_its_file_is_named_by_id(path):
    card = compiled_card(str(path)).card
    assert card.id == path.stem
    assert [w.render() for w in card.warnings] == []


def test_every_card_has_scenarios():
    with_scenarios = {p.parent.name for p in SCENARIOS}
    assert {p.stem for p in bundled_card_paths()} <= with_scenarios
