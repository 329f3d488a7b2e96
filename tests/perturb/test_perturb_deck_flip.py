"""The verdict flip moves the inputs an L8 deck rule ties to the flipped one (issue 18, stop 31;
bug kind: a one-input boundary that breaks the deck's rules).

On the bundled deck base (``tests/fixtures/new_user/l8_deck_base.yaml``: debt to equity tied to Graham's
long-term debt over stock equity) the flip searched along one input with the others fixed, so a flip
along the debt, the equity or the ratio broke the tie: 498 of 749 flip attempts (66.5%) were rejected,
402 of them for ``deck/debt_to_equity_is_debt_over_equity`` (1,000 items, seed 7). Now the partners
follow each probed value through the rule (:func:`ipb.perturb.deck_moves.follow`).
"""

from __future__ import annotations

import json
from decimal import Decimal

from test_perturb_deck import CARD, DECK, GRAHAM, _contradictions, _items, _perturb, runner

from ipb.cli import app
from ipb.perturb.deck_moves import follow
from ipb.perturb.frame import build_frame, load_base
from ipb.perturb.operators import find_flip


def _frame():
    frame = build_frame([str(CARD), GRAHAM])
    return frame, load_base(DECK, frame)


def test_follow_moves_the_ratio_with_the_debt_by_the_rule():
    frame, base = _frame()
    facts = base.facts  # long-term debt $500M, stock equity $300M, debt to equity 1.65
    # the debt to $600M: the ratio follows to 2.00 (600/300), the grid value within $5M of the debt
    assert follow(frame, facts, "long_term_debt", Decimal("600000000"), facts["long_term_debt"]) == {
        "debt_to_equity": Decimal("2.00")}
    # a move that keeps the tie moves nothing: $502M is within $5M of 1.65 x $300M = $495M
    assert follow(frame, facts, "long_term_debt", Decimal("498000000"), facts["long_term_debt"]) == {}
    # the same value always gets the same partners (no random number): the search's probes are repeatable
    again = follow(frame, facts, "stock_equity", Decimal("250000000"), facts["stock_equity"])
    assert again == follow(frame, facts, "stock_equity", Decimal("250000000"), facts["stock_equity"])
    assert again is not None and again.keys() == {"debt_to_equity"}


def test_a_flip_along_a_tied_input_states_its_partners_and_keeps_the_rule():
    frame, base = _frame()
    flip = find_flip(frame, base.facts, "long_term_debt")
    assert flip is not None and flip.tied, flip
    facts = {**base.facts, flip.input: flip.boundary, **dict(flip.tied)}
    assert frame.violations(facts) == []
    assert frame.outcomes(facts) != frame.outcomes(base.facts)  # the boundary, with its partners, flips


def test_flip_items_on_the_deck_keep_every_rule_and_few_attempts_are_rejected(tmp_path):
    out, report = tmp_path / "flip.jsonl", tmp_path / "report.json"
    result = _perturb(DECK, out, 200, "--ops", "flip", "--report", str(report))
    assert result.exit_code == 0, result.output
    items = _items(out)
    assert len(items) == 200
    assert [i["id"] for i in items if _contradictions(i["scenario"]["facts"])] == []
    (flip,) = json.loads(report.read_text(encoding="utf-8"))["recipes"]
    assert not [e for e in flip["errors"] if "deck/" in e], flip["errors"]  # before: 402 of 749 attempts
    assert flip["rejection_rate"] < 0.25, flip  # measured 14.2% (200 items, seed 7; card rules); before 66.5%
    tied = [i for i in items if "tied" in i["manifest"]["operators"][0]["details"]]
    assert flip["tied_moves"] == len(tied) >= 50, flip
    for i in tied:
        details = i["manifest"]["operators"][0]["details"]
        for name, literal in details["tied"].items():
            assert str(i["scenario"]["facts"][name]) == literal
    checked = runner.invoke(app, ["verify", "--card", f"weiss_dividend_growth_screen={CARD}", str(out)])
    assert checked.exit_code == 0, checked.output
    assert "verified 200 of 200" in checked.output
