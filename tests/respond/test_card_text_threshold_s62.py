"""Condition C's threshold line says what the executor decides (s62 new user N1).

A card counting 4 of 5 PROCEEDs with ``min_weight: 7`` and weight 4 on an integrity gate was told to the model as
"at least 4 gate(s) giving PROCEED (or a total weight of at least 7)". The executor (``engine.execute._threshold``)
meets the threshold only when the PROCEEDing gates weigh at least 7: four light gates PROCEEDing without the heavy
one weigh 4 and give DO_NOT_BUY, where a model following the line's "or" says BUY. The line now states the weight,
the fewest gates that reach it and, where some sets of that many fall short, that too. Fails on the old line.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

from ipb.engine.card import load_card_text
from ipb.engine.execute import execute
from ipb.engine.graph import compile_card
from ipb.respond.knowledge import card_text

GATES = (("integrity", 4), ("growth", 1), ("margins", 1), ("research", 1), ("people", 1))

CARD = """\
id: s62_heavy_integrity
investor: Test Investor
name: Heavy integrity gate
topology_type: parallel_threshold
gate_logic: weighted_threshold_4_of_5
decisive_default: true
topology_rationale: Five points side by side; integrity weighs as much as the other four.
vintage: {start: 1960}
sources: [{tier: 1, document: Notes, year: 1960}]
outcomes: {pass: BUY, fail: DO_NOT_BUY}
threshold: {count: PROCEED, at_least: 4, min_weight: 7}
inputs:
""" + "".join(f"  {name}: {{type: bool}}\n" for name, _ in GATES) + "gates:\n" + "".join(
    f"  - {{id: g_{name}, name: {name.title()}, weight: {w}, proceed: {name}, required_elements: [{name}]}}\n"
    for name, w in GATES)


def _threshold_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("Threshold:"))


def test_the_line_states_the_weight_and_that_four_light_gates_fall_short():
    card = compile_card(load_card_text(CARD, "s62_heavy.yaml")).card
    assert _threshold_line(card_text(card)) == (
        "Threshold: the final verdict is decided by the weight of the gates giving PROCEED: together they must weigh "
        "at least 7 (a gate weighs 1 unless a weight is listed with it), so at least 4 gate(s), and not every 4 of "
        "them weigh enough.")
    assert "  - weight 4" in card_text(card).splitlines()


def test_the_rule_the_line_states_is_the_executors_on_every_assignment():
    compiled = compile_card(load_card_text(CARD, "s62_heavy.yaml"))
    need = Fraction(re.search(r"weigh at least (\d+)", _threshold_line(card_text(compiled.card))).group(1))
    assert need == 7
    for values in itertools.product((True, False), repeat=len(GATES)):
        facts = {name: v for (name, _), v in zip(GATES, values)}
        weight = sum(w for (_, w), v in zip(GATES, values) if v)
        expected = "BUY" if weight >= need else "DO_NOT_BUY"
        assert execute(compiled, facts).outcome == expected, facts
    # the case the old "or" line got wrong: four light gates PROCEED, four gates counted, weight 4 < 7
    light = {name: name != "integrity" for name, _ in GATES}
    assert execute(compiled, light).outcome == "DO_NOT_BUY"


def test_weights_that_any_set_of_the_fewest_reaches_say_no_more():
    # three gates of weight 1/3 with min_weight 1 (docs/robustness.md): all three, and no "not every"
    card = CARD.replace("weighted_threshold_4_of_5", "weighted_threshold_3_of_3").replace(
        "at_least: 4, min_weight: 7", "at_least: 3, min_weight: 1")
    card = card.split("inputs:\n")[0] + "inputs:\n" + "".join(
        f"  {n}: {{type: bool}}\n" for n in ("a", "b", "c")) + "gates:\n" + "".join(
        f"  - {{id: g_{n}, name: {n.upper()}, weight: 1/3, proceed: {n}, required_elements: [{n}]}}\n"
        for n in ("a", "b", "c"))
    line = _threshold_line(card_text(compile_card(load_card_text(card, "s62_thirds.yaml")).card))
    assert line == ("Threshold: the final verdict is decided by the weight of the gates giving PROCEED: together they "
                    "must weigh at least 1 (a gate weighs 1 unless a weight is listed with it), so at least 3 gate(s).")


def test_unweighted_cards_keep_the_count_line():
    from ipb.engine.registry import compiled_card

    for card_id, n, count in (("dalio_bubble_detection_gauge", 4, "REJECT"), ("marks_risk_return_assessment", 3, "PROCEED")):
        assert _threshold_line(card_text(compiled_card(card_id).card)) == (
            f"Threshold: the final verdict is decided by at least {n} gate(s) giving {count}.")
