"""Stop 50's parser work on the n47 blind batch's English answers (s50parse).

Expected readings worked by hand against graham_seven_tests_defensive (1 Adequate Size of the Enterprise, 2
Sufficiently Strong Financial Condition, 3 Earnings Stability, 4 Dividend Record, 5 Earnings Growth, 6 Moderate
Price/Earnings Ratio, 7 Moderate Ratio of Price to Assets; seven gates). Rules only (embedder off). Each behaviour has
the brief's input, three phrasings of my own, and controls.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

SEVEN = "graham_seven_tests_defensive"
OPENING = "Adequate size passes. The current ratio of 1.4 fails the financial condition test. "


def _readings(text: str, card: str = SEVEN) -> dict[int, str | None]:
    parsed = parse_response(text, card, embedder=False)
    assert parsed.status == "ok", parsed.reason
    return {g.gate: g.verdict for g in parsed.gates}


# -- the writer's gate numbers in brackets after a group of gates ----------------------------------------------------
# s49parse "Left": "the remaining checks (4-7) are not needed" gave no N/A to 4-7. The group ("the remaining checks")
# was read, but the bracket stood between it and "are not needed", so no verdict followed it directly and the group
# was dropped as idle. The bracket's numbers now say which gates the group is, and the group's mention runs over the
# bracket. With gates 1 and 2 named before, "the remaining checks" alone would be 3-7; the bracket says 4-7, and the
# writer's numbers win.

@pytest.mark.parametrize(("text", "na_gates"), [
    # the brief's phrasing: gate 3 is not named, the writer's bracket says 4-7
    (OPENING + "The remaining checks (4-7) are not needed.", (4, 5, 6, 7)),
    # three phrasings of my own
    (OPENING + "The other tests (3 to 7) do not apply.", (3, 4, 5, 6, 7)),
    (OPENING + "The remaining five tests (gates 3\u20137) are moot.", (3, 4, 5, 6, 7)),
    (OPENING + "All the other checks (3, 4, 5, 6 and 7) are not needed.", (3, 4, 5, 6, 7)),
])
def test_a_bracketed_range_after_a_group_of_gates_names_those_gates(text, na_gates):
    readings = _readings(text)
    assert readings.get(1) == "PROCEED"
    for gate in na_gates:
        assert readings.get(gate) == "N/A", (gate, readings)
    # no gate outside the bracket takes the group's verdict
    assert all(v != "N/A" for g, v in readings.items() if g not in na_gates)


@pytest.mark.parametrize("text", [
    # a bracket naming a gate the card lacks (8, 9) is not the group's numbers: nothing is read as N/A
    OPENING + "The remaining checks (3-9) are not needed.",
    # a stated count that disagrees with the bracket (four against five numbers) names nothing
    OPENING + "The remaining four checks (3-7) are not needed.",
])
def test_a_bracket_that_cannot_be_the_groups_gates_gives_no_reading(text):
    readings = _readings(text)
    assert not any(v == "N/A" for v in readings.values()), readings
    assert not any(g > 7 for g in readings)
