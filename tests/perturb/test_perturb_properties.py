"""Perturbation laws over every bundled card (hypothesis).

Cards are being added to ``frameworks/`` all the time, so every property runs
over ``bundled_card_paths()`` and each card's scenarios in
``frameworks/scenarios/<card_id>/``, and skips (with the reason) a card that
an operator cannot apply to.

* every operator preserves the gate set, order and kill criteria, and an
  item's gold equals a fresh execution of its own scenario (read back from
  the item's JSON);
* metric substitution respects the declared ranges and steps;
* a gate declared ``monotone`` in an input never moves the other way when the
  input rises;
* a verdict flip flips, and the value one step short does not;
* temporal displacement never dates a fact after the scenario date;
* the question text contains every changed value, with its unit.
"""

from __future__ import annotations

import json
import random

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipb.engine.execute import execute
from ipb.engine.registry import compiled_card
from ipb.engine.scenario import facts_from_mapping
from ipb.errors import PerturbError
from ipb.perturb import build_frame, get_operator, item_schema, load_base
from ipb.perturb.items import build_item, dumps_item
from ipb.perturb.render import fact_sentence
from ipb.perturb.undisclosed import needed_undisclosed
from perturb_support import CARD_IDS, CARDS, FIXTURES, card_frame

ITEM_VALIDATOR = jsonschema.Draft202012Validator(item_schema())

SETTINGS = settings(max_examples=6, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
OPERATORS = ["metric", "sector", "temporal", "flip", "isolate"]
RANK = {"PROCEED": 0, "INCONCLUSIVE": 1, "REJECT": 2}
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def setup(card_id):
    frame, bases, reason = card_frame(card_id)
    if reason:
        pytest.skip(reason)
    return frame, bases


def applicable(frame, op):
    try:
        get_operator(op).check(frame)
    except PerturbError as exc:
        return exc.message
    return None


def apply(frame, base, op, seed):
    """The step, or None when this scenario has no candidate for the operator."""
    try:
        return get_operator(op)(frame, base, random.Random(seed))
    except PerturbError as exc:
        if exc.rule in ("no-candidate",):
            return None
        raise


@pytest.mark.parametrize("card_id", CARD_IDS)
@SETTINGS
@given(seed=seeds, op=st.sampled_from(OPERATORS), pick=st.integers(min_value=0, max_value=50))
def test_operator_preserves_structure_and_gold_is_execution(card_id, seed, op, pick):
    frame, bases = setup(card_id)
    if applicable(frame, op):
        return  # covered by test_every_card_reports_why_an_operator_does_not_apply
    base = bases[pick % len(bases)]
    card = frame.cards[0].card
    shape = [(g.number, g.id, g.name, g.kill_criterion) for g in card.gates]
    step = apply(frame, base, op, seed)
    if step is None:
        return
    assert [(g.number, g.id, g.name, g.kill_criterion) for g in card.gates] == shape
    item = json.loads(dumps_item(build_item(frame, base, step.scenario, [step], recipe=op, args=[None], seed=seed,
                                            attempt=0)))
    ITEM_VALIDATOR.validate(item)
    grp = item["grp"]
    assert [(g["gate"], g["name"]) for g in grp["gold_program"]] == [(n, name) for n, _, name, _ in shape]
    for g, (_, _, _, kill) in zip(grp["gold_program"], shape):
        label = g["kill_criterion"]
        assert label in (None, kill) or label.startswith(("terminated_by_gate_", "not_on_branch_", "not_reached"))
    fresh = execute(compiled_card(card_id), facts_from_mapping(card, item["scenario"]["facts"]),
                    scenario_id=item["id"], layer="L7").to_grp()
    assert fresh == grp and item["investment_verdict"] == fresh["investment_verdict"]
    for change in item["manifest"]["changes"]:
        spec = frame.inputs[change["input"]]
        if change["new"] is None:
            # a fact the operator dropped (s36fix: temporal drops a macro figure its regime does not give) is
            # not stated, and the question says it is undisclosed where the undisclosed rule names it: not an
            # input the stated sector omits, nor one no gate needs given the stated facts (stop 61 F6; hypothesis
            # found greenblatt_magic_formula_screen, seed 1, sector: net working capital dropped for a sector
            # that omits it, rightly unnamed)
            assert change["input"] not in item["scenario"]["facts"], change
            if needed_undisclosed(frame, step.scenario.facts, (change["input"],), step.scenario.sector):
                assert "not disclosed" in item["question"], change
            continue
        shown = fact_sentence(spec, step.scenario.facts.get(change["input"]))
        assert shown in item["question"], (change, item["question"])


@pytest.mark.parametrize("card_id", CARD_IDS)
@SETTINGS
@given(seed=seeds, pick=st.integers(min_value=0, max_value=50))
def test_metric_substitution_respects_declared_ranges(card_id, seed, pick):
    frame, bases = setup(card_id)
    if applicable(frame, "metric"):
        pytest.skip(applicable(frame, "metric"))
    base = bases[pick % len(bases)]
    step = apply(frame, base, "metric", seed)
    if step is None:
        return
    assert step.details["inputs"]
    for name in step.details["inputs"]:
        spec = frame.inputs[name]
        value = step.scenario.facts[name]
        lo, hi = spec.range
        assert lo <= value <= hi
        assert frame.grids[name].index_of(value) is not None, f"{name} = {value} is off the declared step"


def _monotone_declarations(frame):
    return [(g.number - 1, g.id, name, way) for g in frame.cards[0].card.gates for name, way in g.monotone.items()
            if name in frame.grids]


@pytest.mark.parametrize("card_id", CARD_IDS)
@SETTINGS
@given(seed=seeds, pick=st.integers(min_value=0, max_value=50), data=st.data())
def test_monotone_gates_never_move_the_other_way(card_id, seed, pick, data):
    frame, bases = setup(card_id)
    declared = _monotone_declarations(frame)
    if not declared:
        pytest.skip(f"card {card_id} declares no monotone gate on a ranged input")
    base = bases[pick % len(bases)]
    scenario = base
    if not applicable(frame, "metric"):
        step = apply(frame, base, "metric", seed)
        scenario = step.scenario if step is not None else base
    index, gate_id, name, way = data.draw(st.sampled_from(declared))
    grid = frame.grids[name]
    a, b = sorted(data.draw(st.lists(st.integers(0, grid.count - 1), min_size=2, max_size=2)))
    low = frame.profile({**scenario.facts, name: grid.value(a)})[index]
    high = frame.profile({**scenario.facts, name: grid.value(b)})[index]
    if way == "PROCEED":
        assert RANK[high] <= RANK[low], f"{gate_id}: raising {name} moved {low} -> {high}"
    else:
        assert RANK[high] >= RANK[low], f"{gate_id}: raising {name} moved {low} -> {high}"


@pytest.mark.parametrize("card_id", CARD_IDS)
@SETTINGS
@given(seed=seeds, pick=st.integers(min_value=0, max_value=50), perturb_first=st.booleans())
def test_verdict_flip_flips_and_one_step_short_does_not(card_id, seed, pick, perturb_first):
    frame, bases = setup(card_id)
    if applicable(frame, "flip"):
        pytest.skip(applicable(frame, "flip"))
    scenario = bases[pick % len(bases)]
    if perturb_first:
        step = apply(frame, scenario, "metric", seed)
        scenario = step.scenario if step is not None else scenario
    flip = apply(frame, scenario, "flip", seed)
    if flip is None:
        return
    d = flip.details
    name, spec, grid = d["input"], frame.inputs[d["input"]], frame.grids[d["input"]]
    boundary = flip.scenario.facts[name]
    before = frame.outcomes(scenario.facts)
    after = frame.outcomes(flip.scenario.facts)
    assert after != before
    old = scenario.facts[name]
    # the line (the nearest value that flips, s52sr13) flips and the value one grid step short of it does not
    from ipb.engine.scenario import convert_fact
    line = convert_fact(spec, d["line"])
    at_line = {**scenario.facts, name: line}
    if d.get("tied"):  # the inputs a rule ties to it follow it to the line, as the search moved them
        from ipb.perturb.deck_moves import follow
        at_line.update(follow(frame, scenario.facts, name, line, old) or {})
    assert frame.outcomes(at_line) != before
    short = line - grid.step if line > old else line + grid.step
    if (line > old and short <= old) or (line < old and short >= old):
        short = old  # the line is the first grid value past the base value
    assert frame.outcomes({**scenario.facts, name: short}) == before
    # the stated value is visibly past the line (SR13): moved back its display step less a grid step, it still flips
    from ipb.perturb.visible import back_value
    assert frame.outcomes({**flip.scenario.facts, name: back_value(boundary, grid.step, boundary > old)}) == after
    from ipb.perturb.values import literal
    assert d["boundary"] == literal(spec, boundary) and d["one_step_short"] == literal(spec, short)


def _dated_frames():
    out = [(cid,) for cid in CARD_IDS]
    return out


@pytest.mark.parametrize("card_id", CARD_IDS + [str(CARDS / "dated_card.yaml")])
@SETTINGS
@given(seed=seeds, pick=st.integers(min_value=0, max_value=50), probe=st.booleans())
def test_temporal_displacement_never_dates_a_fact_after_the_scenario(card_id, seed, pick, probe):
    if card_id.endswith(".yaml"):
        frame = build_frame([card_id], fm6_probe=probe)
        bases = (load_base(FIXTURES / "dated_base.yaml", frame),)
    else:
        frame0, bases = setup(card_id)
        frame = build_frame([frame0.cards[0]], fm6_probe=probe)
    if applicable(frame, "temporal"):
        pytest.skip(applicable(frame, "temporal"))
    step = apply(frame, bases[pick % len(bases)], "temporal", seed)
    if step is None:
        return
    scenario = step.scenario
    assert scenario.as_of is not None
    for name, value in scenario.facts.items():
        kind = frame.inputs[name].type
        if kind == "date":
            assert value <= scenario.as_of
        elif kind == "year":
            assert value <= scenario.as_of.year
    for name, published in scenario.published.items():
        assert published < scenario.as_of, (name, published, scenario.as_of)
    assert bool(frame.anachronisms(scenario.as_of)) == probe


@pytest.mark.parametrize("card_id", CARD_IDS)
def test_every_card_reports_why_an_operator_does_not_apply(card_id):
    frame, _, reason = card_frame(card_id)
    if reason.startswith(f"card {card_id} does not load"):
        pytest.skip(reason)
    for op in OPERATORS:
        message = applicable(frame, op)
        if message is not None:
            assert message.startswith(f"card {card_id} ") and len(message) > 40
