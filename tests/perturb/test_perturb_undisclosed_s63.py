"""Stop 63 (issue 18 bar line 2, the stop 61 review's F6 remnant): an undisclosed input read by a gate the stated
facts leave undecided is named "not disclosed" only when some value of it can change that gate's verdict given the
stated facts (perturb/undisclosed.py ``needed_undisclosed``, ``probe_values``). Before s63items every undisclosed
input such a gate read was named: Lynch's story check on an asset play asked the cycle position, the recovery plan,
the ten-year P/E and the dividend record (IPB-LYN-SC-003-c757119981952a75 in the stop 62 review's draw).

Every case is worked by hand from frameworks/lynch_six_category_framework.yaml on the bundled base
decline_fast_grower_overpriced.yaml (battered No, cyclical No, hidden assets $0, market value $1.5B, growth 25%,
yield 0%, P/E 40x, debt share 74%, room to expand Yes, technology).
"""

from __future__ import annotations

import random
from decimal import Decimal
from itertools import product
from typing import Any

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from ipb.engine.execute import execute
from ipb.engine.logic import Verdict
from ipb.perturb.frame import base_from_facts, build_frame, load_base
from ipb.perturb.render import render_question
from ipb.perturb.sector_registry import stated_omissions
from ipb.perturb.undisclosed import needed_undisclosed
from perturb_support import SCENARIOS

CARD = "lynch_six_category_framework"
FRAME = build_frame([CARD])
BASE = dict(load_base(SCENARIOS / CARD / "decline_fast_grower_overpriced.yaml", FRAME).facts)
# IPB-LYN-SC-003-c757119981952a75: hidden assets $3.52B against a $1.5B market value, 6.5% yield at 5.5x, debt 10%
ASSET_PLAY = {**BASE, "hidden_asset_value": Decimal("3.52e9"), "dividend_yield": Decimal("0.065"),
              "pe_ratio": Decimal("5.5"), "debt_share": Decimal("0.10")}


def _named(facts: dict[str, Any]) -> tuple[str, ...]:
    missing = tuple(n for n in FRAME.inputs if n not in facts)
    return needed_undisclosed(FRAME, facts, missing)


def test_an_asset_play_is_asked_only_its_total_debt():
    # classify: not battered, not cyclical, hidden $3.52B >= $1.5B: asset_play. The story check's asset-play test
    # `hidden_asset_value - total_debt >= market_cap` is open with the total debt undisclosed (total debt 0 passes
    # it: $3.52B >= $1.5B; $30B fails it); every other disjunct is false on category asset_play whatever its input
    assert _named(ASSET_PLAY) == ("total_debt",)
    text = render_question(FRAME, base_from_facts(FRAME, ASSET_PLAY))
    assert [line for line in text.splitlines() if "not disclosed" in line] == ["The total debt is not disclosed."]


def test_an_undetermined_category_is_asked_what_decides_it_not_the_cycle_position():
    # hidden assets undisclosed: asset_play (hidden >= $1.5B) or fast grower (25% >= 20%). Hidden $0 makes a fast
    # grower with room to expand, so the story check proceeds: the hidden value changes it. The cycle position
    # cannot (the card's cycle_position_is_of_a_cyclical forbids stating it for a company stated not cyclical), nor
    # the total debt alone (hidden - debt >= cap stays unknown with hidden unknown), nor the recovery plan
    facts = {k: v for k, v in ASSET_PLAY.items() if k != "hidden_asset_value"}
    assert _named(facts) == ("hidden_asset_value",)


def test_a_company_stated_not_cyclical_is_not_asked_its_cycle_position_with_its_distress_unknown():
    # battered undisclosed: growth 25% cannot be a battered company's (a_distressed_company_is_no_fast_grower), so
    # its only value is No: asset play, and the total debt is what the story check waits on. Before s63items:
    # distressed plus every input the story check reads (7 more), the cycle position among them
    facts = {k: v for k, v in ASSET_PLAY.items() if k != "distressed"}
    assert _named(facts) == ("distressed", "total_debt")


def test_a_turnaround_with_a_plan_is_asked_its_cash_and_bank_debt_together():
    # battered Yes, growth 5%, plan Yes: turnaround; `turnaround_plan and cash >= bank_debt` needs both figures: no
    # single one changes the gate, the pair does (cash $10B against bank debt 0 proceeds, 0 against $20B rejects)
    facts = {**ASSET_PLAY, "distressed": True, "earnings_growth": Decimal("0.05"), "turnaround_plan": True}
    assert _named(facts) == ("cash", "bank_debt")
    # the plan undisclosed: No rejects the story check whatever the cash; the cash and bank debt alone cannot
    facts.pop("turnaround_plan")
    assert _named(facts) == ("turnaround_plan",)


def _verdicts(facts: dict[str, Any]) -> dict[str, Verdict]:
    trace = execute(FRAME.cards[0], FRAME.facts_for(0, facts), diagnostic=True)
    return {r.gate.id: (r.diagnostic_verdict if r.verdict is Verdict.NOT_REACHED else r.verdict) for r in trace.gates}


def _values(name: str) -> list[Any]:
    """Values of ``name`` searched by the property below, independently of ``probe_values``: a bool both, a
    category each, a number about 30 evenly spaced points of its grid."""
    spec = FRAME.inputs[name]
    if spec.type == "bool":
        return [True, False]
    if spec.type == "category":
        return list(spec.values or ())
    grid = FRAME.grids[name]
    stride = max(1, grid.count // 30)
    return [grid.value(k) for k in range(0, grid.count, stride)] + [grid.hi]


def _pivotal(facts: dict[str, Any], name: str, missing: list[str]) -> bool:
    """Whether some value of ``name`` changes the verdict of a gate reading it, the gate's other undisclosed inputs
    each unknown or at one of a few values (every combination, or 100 of them drawn with ``random.Random(0)``)."""
    for gate_key in FRAME.consumers[name]:
        gate = gate_key.split("/", 1)[1]
        others = [m for m in missing if m != name and gate_key in FRAME.consumers.get(m, ())]
        combos = list(product(*[[None, *_few(m)] for m in others]))
        if len(combos) > 100:
            combos = random.Random(0).sample(combos, 100)
        for combo in combos:
            given_ = {**facts, **{m: w for m, w in zip(others, combo) if w is not None}}
            before = _verdicts(given_)[gate]
            if any(_verdicts({**given_, name: v})[gate] != before for v in _values(name)):
                return True
    return False


def _few(name: str) -> list[Any]:
    """The other undisclosed input's values: every bool or category value, a number's every 10th search point."""
    values = _values(name)
    return values if FRAME.inputs[name].type in ("bool", "category") else values[::10] + [values[-1]]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sets(st.sampled_from(sorted(k for k in ASSET_PLAY if k != "sector")), max_size=4),
       st.booleans(), st.booleans())
def test_every_input_named_not_disclosed_can_change_some_gates_verdict(dropped, distressed, plan):
    # the law: a named input has a value that changes the verdict of some gate reading it, given the stated facts
    # (the gate's other undisclosed inputs unknown or set: Lynch's cash matters only beside a bank debt)
    facts = {**ASSET_PLAY, "distressed": distressed, "turnaround_plan": plan}
    if distressed:
        facts["earnings_growth"] = Decimal("0.05")
    for name in dropped:
        facts.pop(name, None)
    missing = [n for n in FRAME.inputs if n not in facts]
    # stated facts that leave an undisclosed bool no value (a plan of Yes, growth 25%, battered undisclosed: the
    # plan needs a battered company, the growth one that is not) are no scenario any operator makes
    assume(all(any(not FRAME.violations({**facts, n: v}) for v in (True, False))
               for n in missing if FRAME.inputs[n].type == "bool"))
    named = _named(facts)
    assert not set(named) & stated_omissions(FRAME, facts, None)
    for n in named:
        assert _pivotal(facts, n, missing), (n, sorted(facts))
