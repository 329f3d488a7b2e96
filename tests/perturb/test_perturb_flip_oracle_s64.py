"""s64range (issue 18 bar line 2): the two oracles of test_perturb_shortcuts that the business-model range rule
(``sectors/model_range``) seemed to break, worked by hand. Neither was a fault of the code:

* the flip memo oracle searched a tied input alone. Buffett's ARR is read by the ``tie: true`` rule
  ``a_large_subscription_business_earns_a_profit`` (past $10B of subscription revenue the net income is positive),
  so :func:`find_flip` moves the income with it (:func:`~ipb.perturb.flip_search._find_tied_flip`); the memo
  (:meth:`Frame.line_key`) gave what a fresh frame's search gives. The rule only moved the oracle's random anchors
  onto one where that matters.
* ``Frame.violations_from`` reads a registry rule that the reference itself breaks as holding
  (:func:`~ipb.perturb.sector_registry.base_states`), and the bundled base ``moat_between_thresholds`` states
  subscription software at a 50% gross margin; :meth:`Frame.violations` of a scenario alone cannot know the base.
"""

from __future__ import annotations

from decimal import Decimal

from ipb.perturb.operators import metric_inputs  # noqa: F401  (before targeted, which operators imports at its end)
from ipb.perturb.flip_search import _find_flip, find_flip
from ipb.perturb.frame import build_frame, load_base
from ipb.perturb.sector_registry import MODEL_RANGE_LABEL, SECTOR_RANGE_LABEL
from ipb.perturb.targeted import _first_flip
from perturb_support import BUFFETT, SCENARIOS

# the anchor test_first_flip_memo_gives_the_search_of_every_name_order met (its 180th, from ipb_p_011_b): the base's
# income moved to a $1.05B loss and its regime to a credit crisis
ANCHOR = {"business_model": "subscription_software", "sector": "enterprise_software", "gross_margin": Decimal("0.90"),
          "revenue_retention": Decimal("0.95"), "revenue_growth": Decimal("0.15"),
          "net_income": Decimal("-1050000000"), "arr": Decimal("5000000000"), "ev_to_arr": Decimal("3"),
          "macro_regime": "credit_crisis"}


def test_a_flip_along_arr_moves_the_income_the_tie_rule_ties_to_it():
    frame = build_frame([BUFFETT])
    before = frame.outcomes(ANCHOR)
    assert before == ("DECLINE",)  # gate 6: a loss in a credit crisis
    # ARR alone, the income kept at a loss: no value flips the verdict (the oracle's old answer)
    assert _find_flip(frame, ANCHOR, "arr", frame.grids["arr"], ANCHOR["arr"], None, before, 0) is None
    flip = find_flip(frame, ANCHOR, "arr", before=before, scan_limit=0)
    # up to $10.0B the tie does not bind and the loss stays; at $10.1B the income follows the revenue's $5.1B rise
    # (-$1.05B + $5.1B = $4.05B, on the income's grid $4.0B) and gate 6 clears: INVEST
    assert (flip.direction, flip.short, flip.boundary, flip.after) == (
        "up", Decimal("10000000000"), Decimal("10100000000"), ("INVEST",))
    assert flip.tied == (("net_income", Decimal("4000000000")),)
    assert frame.outcomes({**ANCHOR, "arr": flip.boundary, "net_income": Decimal("4000000000")}) == ("INVEST",)
    assert frame.outcomes({**ANCHOR, "arr": flip.short}) == ("DECLINE",)


def test_the_flip_memo_gives_a_fresh_frames_search():
    # the memo by line_key is filled from another scenario first (the base's own income); the anchor's answer is
    # then the one a frame that never searched gives, through find_flip and through _first_flip's own memo
    warm = build_frame([BUFFETT])
    base = {**ANCHOR, "net_income": Decimal("0"), "macro_regime": "expansion"}
    for name in ("arr", "ev_to_arr", "revenue_growth", "gross_margin", "revenue_retention"):
        find_flip(warm, base, name, scan_limit=0)
    fresh = build_frame([BUFFETT])
    for name in ("arr", "ev_to_arr", "revenue_growth", "gross_margin", "revenue_retention"):
        assert find_flip(warm, ANCHOR, name, scan_limit=0) == find_flip(fresh, ANCHOR, name, scan_limit=0), name
    order = ["revenue_growth", "arr", "revenue_retention", "ev_to_arr", "gross_margin"]
    assert _first_flip(warm, ANCHOR, order, ["net_income", "macro_regime"]).input == "arr"


def test_a_bundled_base_outside_its_models_range_keeps_its_moves():
    frame = build_frame([BUFFETT])
    base = load_base(SCENARIOS / BUFFETT / "moat_between_thresholds.yaml", frame).facts
    assert (base["business_model"], base["gross_margin"]) == ("subscription_software", Decimal("0.50"))
    # s65sector: its 85% retention is also below enterprise software's 95-125% (sectors/sector_range, exempt alike)
    assert frame.violations(base) == [MODEL_RANGE_LABEL, SECTOR_RANGE_LABEL]
    moved = {**base, "ev_to_arr": Decimal("4")}
    # the scenario alone breaks the rule; read from its base, which broke it already, the move is not refused
    assert frame.violations(moved) == [MODEL_RANGE_LABEL, SECTOR_RANGE_LABEL]
    assert frame.violations_from(base, moved, ["ev_to_arr"]) == []
    assert not frame.breaks_constraint(base, moved, ["ev_to_arr"])
    # and a move of the margin itself is read the same way: the base's rule is not asked again
    lower = {**base, "gross_margin": Decimal("0.55")}  # 40% would break the card's own enterprise-software rule
    assert frame.violations_from(base, lower, ["gross_margin"]) == []
