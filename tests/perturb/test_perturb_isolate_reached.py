"""Regression (s40user defect 3, isolate item whose gate the gold shows N/A): an ``isolate`` item always
reaches the gate it isolates.

Hand-worked card ``tests/perturb/cards/isolate_chain.yaml``: a linear chain of three gates, growth
(sales growth >= 10%), margin (operating margin >= 12%) and candor (reject when management is
"evasive"). Its base has sales growth 1%, margin 20%, candor "candid": gate 1 REJECTs, so gates 2 and 3
are N/A in the gold. Moving candor to "evasive" changes only gate 3's diagnostic verdict (PROCEED ->
REJECT), which the old generator wrote as an item whose gold shows gate 3 N/A; so did a margin below 12%
for gate 2. The only isolation the card's run can show is gate 1: sales growth moved to 10% or more
(REJECT -> PROCEED).
"""

from __future__ import annotations

import json
import random
from decimal import Decimal

import pytest

from ipb.errors import PerturbError
from ipb.perturb import Job, build_frame, generate, get_operator, load_base, parse_recipes
from ipb.perturb.targeted import UNREACHED
from perturb_support import CARDS, FIXTURES

CARD = str(CARDS / "isolate_chain.yaml")
BASE = FIXTURES / "isolate_chain_base.yaml"


@pytest.fixture(scope="module")
def frame_base():
    frame = build_frame([CARD])
    return frame, load_base(BASE, frame)


@pytest.mark.parametrize("gate", ["margin", "candor"])
def test_a_gate_after_the_stopping_gate_is_refused(frame_base, gate):
    frame, base = frame_base
    isolate = get_operator("isolate")
    with pytest.raises(PerturbError) as err:
        isolate(frame, base, random.Random(3), gate)  # attempt 0: the base itself, no anchor
    assert err.value.message.startswith(UNREACHED)
    assert f"isolate_chain/{gate}" in err.value.message


@pytest.mark.parametrize("seed", range(6))
def test_with_no_gate_named_only_the_reached_gate_is_isolated(frame_base, seed):
    frame, base = frame_base
    step = get_operator("isolate")(frame, base, random.Random(seed))
    d = step.details
    assert (d["gate"], d["input"], d["from"], d["verdict_before"], d["verdict_after"]) == (
        "growth", "sales_growth", "1%", "REJECT", "PROCEED")
    assert float(d["to"].rstrip("%")) >= 10


def test_a_reached_gate_is_isolated_as_before(frame_base):
    frame, base = frame_base
    grown = base.with_facts({**base.facts, "sales_growth": Decimal("0.15")})  # gates 1 and 2 proceed: 3 is reached
    step = get_operator("isolate")(frame, grown, random.Random(0), "candor")
    d = step.details
    assert (d["input"], d["from"], d["to"], d["verdict_before"], d["verdict_after"]) == (
        "management_candor", "candid", "evasive", "PROCEED", "REJECT")


GATES = ["growth", "margin", "candor"]


def _shown_gates(lines: list[str]) -> dict[str, int]:
    """Items per isolated gate, asserting each item's gold shows that gate with the operator's ``verdict_after``."""
    shown: dict[str, int] = {}
    for line in lines:
        item = json.loads(line)
        d = item["manifest"]["operators"][0]["details"]
        gold = item["grp"]["gold_program"][GATES.index(d["gate"])]
        assert gold["verdict"] == d["verdict_after"] != "N/A", (d, gold)
        shown[d["gate"]] = shown.get(d["gate"], 0) + 1
    return shown


def test_every_isolate_item_of_a_run_shows_its_gate():
    result = generate(Job((CARD,), str(BASE), 11, parse_recipes("isolate")), 40)
    assert len(result.lines) == 40
    # anchors (attempt 1 on) redraw one or two other inputs: those that lift sales growth to 10% reach gates 2 and 3
    assert set(_shown_gates(result.lines)) == set(GATES)


def test_a_named_gate_run_drops_the_unreached_attempts_and_counts_them():
    result = generate(Job((CARD,), str(BASE), 11, parse_recipes("isolate:candor")), 20)
    assert _shown_gates(result.lines) == {"candor": 20}
    (rep,) = result.recipes
    # attempt 0 is the base itself (gate 1 REJECTs): dropped, as is every anchor that leaves growth < 10%
    # or margin < 12%
    assert rep.unreached >= 1
    assert rep.items + rep.unreached + rep.duplicates + rep.rejected + rep.too_close <= rep.attempts
    assert rep.to_dict()["unreached"] == rep.unreached
    assert f"{rep.unreached} dropped: the isolated gate not reached" in result.summary()
