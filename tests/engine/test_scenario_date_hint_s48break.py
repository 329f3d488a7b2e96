"""A scenario date that is not a quoted YYYY-MM-DD is told how to write one (s47break leftover 10, s48break).

Before, ``as_of: 2019`` was told "quote it ('2019')", and the quoted ``"2019"`` was then told only that it "does not
match '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'": following the first hint led to the second error, whose words were a regular
expression. Each broken date below is the author's own; the error keeps its file, line and column.
"""

from __future__ import annotations

import pytest

from ipb.engine.card import load_card_text
from ipb.engine.scenario import load_scenario_text
from ipb.errors import ErrorGroup, IpbError

CARD = load_card_text("""\
id: s48_dates
investor: Test Investor
name: Dates
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: One test.
decisive_default: true
vintage: {start: 2000}
sources: [{tier: 1, document: Test letter, year: 2000}]
inputs:
  moat: {type: bool}
gates:
  - id: moat_gate
    name: Moat
    proceed: moat
    required_elements: [durable advantage]
""", "dates.yaml")

HINT = "write the day as a quoted 'YYYY-MM-DD' (e.g. '2019-12-31') (at as_of)"

CASES = [
    ("2019", "YAML reads 2019 here as a whole number, but a date is expected: " + HINT),
    ('"2019"', "'2019' is not a date: " + HINT),
    ('"2019-7-1"', "'2019-7-1' is not a date: " + HINT),
    ("2019-07", "'2019-07' is not a date: " + HINT),
    ('"July 2019"', "'July 2019' is not a date: " + HINT),
    ("20190701", "YAML reads 20190701 here as a whole number, but a date is expected: " + HINT),
]


def _errors(as_of: str) -> list[IpbError]:
    text = f"id: s\ncard: s48_dates\nas_of: {as_of}\nfacts:\n  moat: true\n"
    with pytest.raises(ErrorGroup) as info:
        load_scenario_text(text, CARD, "s.yaml")
    return list(info.value.errors)


@pytest.mark.parametrize("as_of, message", CASES, ids=[c[0] for c in CASES])
def test_a_date_not_written_as_yyyy_mm_dd_is_told_how_to_write_it(as_of: str, message: str) -> None:
    [error] = _errors(as_of)
    assert str(error).startswith(f"s.yaml:3:8: load error: {message}"), str(error)


def test_a_quoted_day_still_loads() -> None:
    scenario = load_scenario_text("id: s\ncard: s48_dates\nas_of: '2019-12-31'\nfacts:\n  moat: true\n", CARD, "s.yaml")
    assert str(scenario.as_of) == "2019-12-31"
