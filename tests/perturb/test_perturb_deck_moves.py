"""Joint moves across an L8 deck's rules (issue 18, stop 30; bug kind: tied inputs never vary).

On the bundled deck base (``tests/fixtures/new_user/l8_deck_base.yaml``: the dividend card's
``sector`` and ``debt_to_equity`` tied to Graham's ``company_type``, ``long_term_debt`` and
``stock_equity``) every draw had to keep the rules with the partners fixed: before this change,
in 1,000 items (seed 7) the sector and the company type never moved (the sector recipe was
exhausted: 100% of its attempts broke the rule) and debt to equity moved in 6 items. Now an
operator that moves one side moves the other with it. Checked here by our own arithmetic
(``_contradictions`` of test_perturb_deck), by ``ipb verify``, and across worker counts.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from test_perturb_deck import CARD, DECK, GRAHAM, _contradictions, _items, _perturb, runner

from ipb.cli import app
from ipb.engine.registry import compiled_card
from ipb.perturb.deck_moves import move_tied
from ipb.perturb.frame import build_frame, load_base

TIED = ("sector", "company_type", "debt_to_equity", "long_term_debt", "stock_equity")


def test_tied_inputs_take_several_values_and_no_deck_rule_breaks_over_1000_items(tmp_path):
    out, report = tmp_path / "deck.jsonl", tmp_path / "report.json"
    result = _perturb(DECK, out, 1000, "--report", str(report))
    assert result.exit_code == 0, result.output
    items = _items(out)
    assert len(items) == 1000
    assert [i["id"] for i in items if _contradictions(i["scenario"]["facts"])] == []
    values = {n: Counter(str(i["scenario"]["facts"][n]) for i in items) for n in TIED}
    # measured (seed 7): sector 6 values, company type 2, debt to equity 56, debt 160, equity 93
    assert len(values["sector"]) >= 4 and len(values["company_type"]) == 2, values
    assert len(values["debt_to_equity"]) >= 20, values["debt_to_equity"]
    assert len(values["long_term_debt"]) >= 20 and len(values["stock_equity"]) >= 20
    assert values["company_type"]["industrial"] >= 100  # before: 0 (the sector recipe was exhausted)
    # every joint move is recorded with the step and counted in the summary, per recipe
    tied = Counter(i["manifest"]["recipe"] for i in items
                   if any("tied" in op["details"] for op in i["manifest"]["operators"]))
    doc = json.loads(report.read_text(encoding="utf-8"))
    assert {r["recipe"]: r["tied_moves"] for r in doc["recipes"] if r["tied_moves"]} == dict(tied)
    assert tied["sector"] >= 200 and tied["metric"] >= 20, tied
    assert "moved inputs tied by a deck rule together" in result.output
    for i in items:
        for op in i["manifest"]["operators"]:
            for name, literal in op["details"].get("tied", {}).items():
                assert str(i["scenario"]["facts"][name]) == literal  # the recorded value is the item's
    checked = runner.invoke(app, ["verify", "--card", f"weiss_dividend_growth_screen={CARD}", str(out)])
    assert checked.exit_code == 0, checked.output
    assert "verified 1000 of 1000" in checked.output and "0 breaking a card constraint" in checked.output


def test_joint_moves_give_the_same_bytes_in_1_and_2_workers(tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert _perturb(DECK, one, 1000).exit_code == 0
    assert _perturb(DECK, two, 1000, "--workers", "2").exit_code == 0
    assert one.read_bytes() == two.read_bytes()


def test_a_debt_move_derives_the_ratio_or_the_equity_and_a_sector_move_the_company_type():
    frame = build_frame([compiled_card(str(CARD)), compiled_card(GRAHAM)])
    base = load_base(DECK, frame)
    facts = dict(base.facts)
    old = facts["long_term_debt"]
    facts["long_term_debt"] = old * 2  # $1B on $300M of equity at 1.65x: the rule breaks
    # Graham's card (stop 33) keeps debt plus equity within total assets: the base's $800M would refuse every
    # move of this $1B debt, so the assets grow with it (this test is about the deck's debt / equity tie)
    facts["total_assets"] = facts["total_assets"] * 3
    seen = set()
    for seed in range(40):
        moved = move_tied(frame, facts, ("long_term_debt",), random.Random(seed), fixed=("long_term_debt",),
                          before={"long_term_debt": old})
        assert moved and set(moved) <= {"debt_to_equity", "stock_equity"}, moved
        after = {**facts, **moved}
        assert abs(after["debt_to_equity"] * after["stock_equity"] - after["long_term_debt"]) <= 5_000_000
        seen |= set(moved)
    assert seen == {"debt_to_equity", "stock_equity"}  # either side of the tie gives
    facts = dict(base.facts, sector="technology")
    moved = move_tied(frame, facts, ("sector",), random.Random(0), fixed=("sector",))
    assert moved == {"company_type": "industrial"}
    # nothing broken, nothing moved (and no random number used)
    rng = random.Random(3)
    state = rng.getstate()
    assert move_tied(frame, dict(base.facts), ("sector",), rng) == {}
    assert rng.getstate() == state
