"""s50rfix2: s50review's kinds on share repurchase, Soros, Lynch, Klarman, Greenblatt and Munger (issue 18).

Counts over 'ipb perturb --card C --base B --n 1000 --seed 10707' before -> after (the bases s50review read,
/tmp/s50review/bases.txt) are in /work/notes/s50rfix2.md. Each test below fails without its fix (checked by putting
the previous file back, never by stashing).
"""

from __future__ import annotations

import pytest

import ipb
from ipb.engine.card import constraint_errors
from ipb.engine.registry import compiled_card

P, I, R = "PROCEED", "INCONCLUSIVE", "REJECT"


def _broken(card: str, facts: dict) -> list[str]:
    return [e.constraint_id for e in constraint_errors(compiled_card(card), facts)]


# --------------------------------------------------------------------------- M12 (gold): pay stated as misaligned
#
# s50review M12 (313 of 1,000 items on management_record_missing): "Do managers' pay and ownership reward long-run
# value per share? No." left gate 4 INCONCLUSIVE, and the final gold was INVEST. The lead's ruling: a stated "No" is
# stated contrary evidence, as mixed honesty is, so gate 4 rejects. Gate 5 by hand: $2.58B / $50B = 5.16% + 5% growth
# = 10.16% >= the 10% hurdle (PROCEED); $2.5B / $50B = 5% + 5% = 10% (PROCEED, at the edge).

MUNGER = "munger_business_quality_price"
_M12 = {"competitive_advantage": "durable", "incentives_aligned": False, "long_run_growth": "5%",
        "market_value": "$50B", "owner_earnings": "$2.58B", "return_on_capital": "40%", "understandable": True}


def _verdicts(card: str, facts: dict):
    trace = ipb.execute(card, facts)
    grp = trace.to_grp()
    return [g["verdict"] for g in grp["gold_program"]], grp["investment_verdict"], grp["verdict_trigger"]


@pytest.mark.parametrize("facts, expected, what", [
    (_M12, ([P, P, P, R, P], "DECLINE", "gate_4_reject"),
     "s50review M12 #2, MUNGER-QP-004-b80ab67e6486bc9f: pay 'No', integrity undisclosed (was INVEST)"),
    ({**_M12, "owner_earnings": "$2.5B", "return_on_capital": "42%", "management_integrity": "trustworthy"},
     ([P, P, P, R, P], "DECLINE", "gate_4_reject"),
     "s50review M12 #6, MUNGER-QP-004-699ca72b7b1f5bc4: honest and candid people, pay 'No' (was INVEST)"),
    ({k: v for k, v in _M12.items() if k != "incentives_aligned"} | {"management_integrity": "trustworthy"},
     ([P, P, P, I, P], "INVEST", "all_gates_cleared"),
     "pay unstated: missing evidence, the gate stays undecided and the analysis continues (paper s7.3)"),
    ({**_M12, "incentives_aligned": True}, ([P, P, P, I, P], "INVEST", "all_gates_cleared"),
     "aligned pay, integrity undisclosed: still undecided"),
    ({**_M12, "incentives_aligned": True, "management_integrity": "trustworthy"}, ([P] * 5, "INVEST", "all_gates_cleared"),
     "trustworthy and aligned: passes"),
])
def test_munger_gate_4_rejects_pay_stated_not_to_reward_long_run_value(facts, expected, what):
    verdicts, final, trigger = _verdicts(MUNGER, facts)
    assert (verdicts, final, trigger) == expected, what


def test_munger_bundled_record_missing_scenario_now_fails_gate_4_on_its_pay_plan():
    """The card's own base (short-term revenue bonuses, so incentives_aligned false; no record on the new chief
    executive): gate 4 REJECT, gate 5 REJECT ($1B / $50B = 2% + 5% = 7% < 10%), trigger gate 4."""
    from perturb_support import SCENARIOS
    import yaml

    doc = yaml.safe_load((SCENARIOS / MUNGER / "management_record_missing.yaml").read_text())
    assert doc["expected"] == {"verdict": "DECLINE", "trigger": "gate_4_reject", "verdicts": [P, P, P, R, R]}
    facts = {k: v for k, v in doc["facts"].items()}
    assert _verdicts(MUNGER, facts) == ([P, P, P, R, R], "DECLINE", "gate_4_reject")
