"""Tick boxes (issue 13, options offered; paper §7.5; s52break #5): of options laid out in boxes, only the ticked one is
the writer's verdict; an option after an empty box is offered, not taken.

Answers written by hand on the two-gate Graham net-net card; each expected reading is the ticked box's word.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._tick_boxes import boxed_icon, unticked

CARD = str(Path(__file__).resolve().parents[2] / "frameworks" / "graham_net_net_screen.yaml")


def _read(text: str) -> tuple[dict[int, str | None], str | None]:
    d = parse_response(text, CARD, embedder=False).to_dict()
    return {g["gate"]: g["verdict"] for g in d["gates"]}, d["final_verdict"]


@pytest.mark.parametrize("gate2, final, want", [
    ("[ ] PROCEED [x] REJECT", "[ ] INVEST [x] DECLINE", ("REJECT", "DECLINE")),  # was PROCEED and INVEST (the first word)
    ("\u2610 PROCEED \u2611 REJECT", "\u2610 INVEST \u2611 DECLINE", ("REJECT", "DECLINE")),  # ballot boxes; ☑ is no icon here
    ("[X] PROCEED [ ] REJECT", "[x] INVEST [ ] DECLINE", ("PROCEED", "INVEST")),  # the first one ticked keeps its reading
    ("[] REJECT [x] PROCEED", "INVEST", ("PROCEED", "INVEST")),
])
def test_the_ticked_option_is_read(gate2, final, want):
    gates, got = _read(f"Gate 1: PROCEED.\nGate 2: {gate2}\nFinal verdict: {final}")
    assert (gates[1], gates[2], got) == ("PROCEED", *want)


def test_a_task_list_reads_its_ticked_item():
    gates, _ = _read("Gate 1: PROCEED.\nGate 2:\n- [ ] PROCEED\n- [x] REJECT\n\nFinal verdict: DECLINE")
    assert gates[2] == "REJECT"  # was PROCEED 0.51


def test_a_form_with_every_box_empty_states_nothing():
    gates, _ = _read("Gate 1: PROCEED.\nGate 2: [ ] PROCEED [ ] REJECT\nFinal verdict: INVEST")
    assert gates.get(2) is None and gates[1] == "PROCEED"


def test_the_box_readers():
    t = "Gate 2: [ ] PROCEED [x] REJECT"
    assert unticked(t, t.index("PROCEED")) and not unticked(t, t.index("REJECT"))
    assert not unticked("Gate 1: PROCEED", 8) and not unticked("[see note] PROCEED", 11)
    t = "\u2610 PROCEED \u2611 REJECT"
    assert unticked(t, 2) and boxed_icon(t, 10, 11, {2, 12})
    assert not boxed_icon("\u2611 34 names", 0, 1, {5})  # ☑ before a figure stays a status icon
