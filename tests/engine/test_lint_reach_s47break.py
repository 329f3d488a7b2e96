"""``never-fires`` for a gate that can never PROCEED because of a computed value (s46break leftover 10, s47break).

`ipb check` said nothing about a gate whose ``proceed`` reads a computed value and can hold in no scenario, nor
about one whose ``proceed`` is ``... and market_value < $0`` beside a range of [$1M, $500M]: every scenario
stopped there and the gates after it were never reached. The warnings are now given on the pass side only (a
guard such as ``reject: earnings_yield <= 0`` stays quiet). Every expected value is worked by hand from the
snippet: lines and columns counted in HEAD + body (1-based; the column of the criterion's first character).
"""

from __future__ import annotations

import pytest

from ipb.engine.card import load_card_text
from ipb.engine.lint_reach import lint_reach

HEAD = """\
id: s47reach
investor: Test Investor
name: Reach
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: Tests in order.
vintage: {start: 2000}
sources: [{tier: 1, document: Test letter, year: 2000}]
inputs:
  pe: {type: multiple, range: [2x, 40x], step: 0.5x}
  market_value: {type: money, range: [$1M, $500M], step: $1M}
  current_assets: {type: money, range: [$1M, $1B], step: $1M}
  fine_value: {type: money, range: [$1M, $500M], step: $0.1M}
gates:
"""

CASES = [
    # 1 / pe is at most 1 / 2x = 50% on [2x, 40x]: above 60% never holds (HEAD is 14 lines: the proceed is
    # line 19, column 14)
    ("computed-yield-never-passes", """\
  - id: yield_gate
    name: Yield Gate
    compute:
      earnings_yield: 1 / pe
    proceed: earnings_yield > 60%
    required_elements: [yield]
""", [("never-fires", 19, 14)]),
    # the net-net shape of s46break: market value is at least $1M, so "< $0" never holds, and the whole reads
    # two inputs of 500 and 1000 grid points (too many to try together)
    ("part-never-holds", """\
  - id: ncav_gate
    name: Ncav Gate
    compute:
      ncav: current_assets - $10M
    proceed: market_value <= 2/3 * ncav and market_value < $0
    required_elements: [ncav]
""", [("never-fires", 19, 14)]),
    # controls: 1 / 20x = 5%, so "earnings_yield >= 5%" holds for pe <= 20x
    ("computed-passes", """\
  - id: yield_gate
    name: Yield Gate
    compute:
      earnings_yield: 1 / pe
    proceed: earnings_yield >= 5%
    required_elements: [yield]
""", []),
    # a guard on a computed value never REJECTs by design: still quiet
    ("computed-guard-quiet", """\
  - id: yield_gate
    name: Yield Gate
    compute:
      earnings_yield: 1 / pe
    reject: earnings_yield <= 0
    required_elements: [yield]
""", []),
    # a narrow band of a computed value over an input tried at a few points (4,991 grid points): 2 * $388.8M =
    # $777.6M is inside it, so the gate does PROCEED there; the few points tried miss it, so no "never"
    ("coarse-computed-band", """\
  - id: size
    name: Size
    compute:
      doubled: 2 * fine_value
    proceed: doubled >= $777M and doubled <= $778M
    required_elements: [size]
""", []),
]


@pytest.mark.parametrize("name,body,expected", CASES, ids=[c[0] for c in CASES])
def test_never_proceeds_over_computed_values(name: str, body: str, expected: list[tuple[str, int, int]]) -> None:
    found = lint_reach(load_card_text(HEAD + body, "s47reach.yaml"))
    assert [(w.rule, w.line, w.column) for w in found] == expected


def test_message_names_the_part_that_never_holds() -> None:
    (w,) = lint_reach(load_card_text(HEAD + CASES[1][1], "s47reach.yaml"))
    text = str(w)
    assert "gate 'ncav_gate' never PROCEEDs" in text
    assert "its part 'market_value < $0'" in text
    assert "combinations of market_value" in text


def test_message_for_a_computed_value_counts_the_whole_grid() -> None:
    # pe from 2x to 40x by 0.5x: (40 - 2) / 0.5 + 1 = 77 points
    (w,) = lint_reach(load_card_text(HEAD + CASES[0][1], "s47reach.yaml"))
    assert "gate 'yield_gate' never PROCEEDs: proceed criterion 'earnings_yield > 60%' holds in none of the 77 " \
           "combinations of pe" in str(w)


def test_a_card_of_many_computed_gates_reads_each_computed_value_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # 60 gates, each computing a value over pe (77 points) and reading market_value (500 points: tried coarsely).
    # The first version of this check asked every computed value's inputs at every criterion tried: 60 gates x 3
    # criteria (the whole and its two parts) x 60 values = 10,800 calls (a 300-gate card took 37 s, 1.9 s before).
    # Once per card: 60, plus one per criterion tried (at most 3 per gate) = at most 240.
    import ipb.engine.lint_reach as module

    body = "".join(f"""\
  - id: g{i}
    name: Gate {i}
    compute:
      v{i}: pe * {i + 1}
    proceed: v{i} <= {40 * (i + 1)}x and market_value >= $2M
    required_elements: [pe]
""" for i in range(60))
    card = load_card_text(HEAD + body, "s47reach.yaml")
    calls = 0
    real = module._inputs_read

    def counted(*args: object) -> object:
        nonlocal calls
        calls += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "_inputs_read", counted)
    assert lint_reach(card) == []
    assert calls <= 240
