"""The verdicts a question offers include INCONCLUSIVE where the undisclosed facts can leave the card undecided (stop 32).

Regression (question offers no right answer): a new user's conjunction card, every gate decisive, made
items whose gold was INCONCLUSIVE (the return on capital undisclosed, trigger gate_4_inconclusive) while
the question asked for "the final verdict (INVEST or PASS)". The question now offers INCONCLUSIVE when a
decisive gate, or every gate, reads an undisclosed input; it reads the card and the undisclosed inputs,
never the gold, and the bundled byte-pinned runs are unchanged (tests/perturb/test_perturb_bytes.py).
"""

from __future__ import annotations

import json

import pytest

from ipb.perturb import Job, generate
from ipb.perturb.frame import base_from_facts, build_frame, load_base
from ipb.perturb.render import render_question

from perturb_support import BUFFETT, BUFFETT_BASE, CARDS, FIXTURES



def _task(question: str) -> str:
    return question.rsplit("give the final verdict ", 1)[1]


@pytest.mark.parametrize("left_out, offered", [
    ((), "(INVEST or DECLINE)."),                          # every fact stated: a conjunction decides
    (("management_record",), "(INVEST or DECLINE)."),      # read only by the management gate, which is not decisive
    (("ev_to_arr",), "(INVEST, DECLINE or INCONCLUSIVE)."),  # the price, read by the decisive valuation gates
])
def test_inconclusive_is_offered_when_a_decisive_gate_reads_an_undisclosed_input(left_out, offered):
    frame = build_frame([BUFFETT])
    stated = {**load_base(BUFFETT_BASE, frame).facts, "management_record": "candid_owner_oriented"}  # IPB-P-011, all stated
    facts = {k: v for k, v in stated.items() if k not in left_out}
    assert _task(render_question(frame, base_from_facts(frame, facts))) == offered


def test_every_item_with_an_inconclusive_gold_is_offered_inconclusive():
    card = str(CARDS / "dhandho_new_user.yaml")
    result = generate(Job((card,), str(FIXTURES / "dhandho_unknown_roic.yaml"), 5), 20, allow_short=True)
    items = [json.loads(line) for line in result.lines]
    golds = {item["investment_verdict"] for item in items}
    assert "INCONCLUSIVE" in golds, "the run must hold an undecided item, or this test cannot fail"
    for item in items:
        roic_stated = "return_on_capital" in item["scenario"]["facts"]
        expected = "(INVEST or PASS)." if roic_stated else "(INVEST, PASS or INCONCLUSIVE)."
        assert _task(item["question"]) == expected, item["id"]
        if item["investment_verdict"] == "INCONCLUSIVE":
            assert not roic_stated


def test_an_l8_card_inconclusive_on_every_item_gets_a_note_naming_its_unstated_inputs(tmp_path):
    """A new user (stop 32) put Klarman's downside card beside their own base: Klarman was INCONCLUSIVE on every item
    (the base states only the downside value the two cards share) and the summary did not say why."""
    card = str(CARDS / "dhandho_new_user.yaml")
    base = tmp_path / "base.yaml"
    base.write_text("id: dhandho_l8\nfacts:\n  operating_years: 25\n  business_simplicity: simple\n"
                    "  share_price_drawdown: 70%\n  return_on_capital: 22%\n  market_value: $400M\n"
                    "  intrinsic_value: $1B\n  downside_value: $350M\n", encoding="utf-8")
    result = generate(Job((card, "klarman_downside_first_process"), str(base), 3), 20, allow_short=True)
    assert result.per_card["klarman_downside_first_process"] == {"INCONCLUSIVE": 20}
    (note,) = [n for n in result.notes if "on every item" in n]
    assert note.startswith("card klarman_downside_first_process is INCONCLUSIVE on every item: the base does not state "
                           "purchase_price, conservative_value, position_weight, which its gates read")
    assert not any(n.startswith("card dhandho_new_user") for n in result.notes)  # its verdicts move
