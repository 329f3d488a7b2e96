"""Regression (contradictory facts): the two findings left by the second issue 18 review on the Greenblatt card.

The review (``/work/notes/s24qual.md``, final read) generated 1,000 items with
``ipb perturb --card greenblatt_magic_formula_screen --base
decline_outside_top_group.yaml --n 1000 --seed 2027`` and read 20 of them
(``random.Random(24)``). Two facts contradicted another fact or the date:

* item 7f16f541: EBIT $7.58B on an enterprise value of $30B (earnings yield
  25%) and $15.1B of capital (return on capital 50%) ranked 1,050th in the
  combined ranking, which sums the two yields' ranks;
* item 827bdaae: an enterprise value of $587B on 30 September 2008, when the
  largest listed company (Exxon Mobil) was worth about $400B;

and this review's own re-reads of fresh runs (``random.Random(25)``) found
two more kinds: item 454130a7, a return on capital of 11% ranked 30th, and a
5% yield with a 60% return ranked 2,286th-2,523rd (below the loss-makers);
and the last re-read two more: 23% and 76% ranked 1,050th (the first rule
started at 25%), and both yields weak (2.3% and 2%, 5% and 5%) ranked 1,050th.

Each test makes the same run and checks, with its own arithmetic on the
engine's reading of every item's facts, that the contradiction cannot occur
any more. Each failed on the card before its fix (7 items ranked below 100th
with both yields that high; 36 items stating a value above $390B; 22 of the
top 100 earning less than 15% on capital; 47 profitable items ranked below
2,000th; 249 weak ones in the top 1,500). No test pins the run's verdict mix: the flip recipe on this card
stops early ("exhausted") on most seeds, before and after these rules (see
the s24green note), so its INVEST count is a property of the perturbation
plan, not of the card.
"""

from __future__ import annotations

from decimal import Decimal as D

from perturb_support import review_run

CARD = "greenblatt_magic_formula_screen"
BASE = "decline_outside_top_group.yaml"
SEED = 2027  # the review's seed
B = D("1e9")

#: The largest listed company's market value on each date an item of the run can carry (author, from the share
#: price times the shares outstanding: Exxon Mobil closed near $77.7 on 30 September 2008 with about 5.1 billion
#: shares, about $395B). An item dated anywhere else fails the test until the table says how large a company could be.
LARGEST = {"2008-09-30": 390 * B}


def _run(base: str = BASE, n: int = 1000) -> tuple[tuple[dict, dict], ...]:
    return review_run(CARD, base, SEED, n)


def test_greenblatt_strong_yields_are_not_ranked_far_down():
    """Item 7f16f541: a 25% earnings yield with a 50% return on capital, ranked 1,050th (and this review's last
    re-read: 23% and 76%, 1,050th). By the sum of the two ranks such a stock ranks near the top 100 of 3,000, so
    no item with a yield of 20% or more and a return of 50% or more is ranked below 100th (13 items of the run
    broke it at 5420954, where the rule started at a 25% yield)."""
    ranked_low = 0
    for item, f in _run():
        if f["combined_rank_position"] <= 100:
            continue
        ranked_low += 1
        capital = f["net_working_capital"] + f["net_fixed_assets"]
        strong = (capital > 0 and f["ebit"] >= D("0.20") * f["enterprise_value"]
                  and f["ebit"] >= D("0.50") * capital)
        assert not strong, (item["id"], f["ebit"], f["enterprise_value"], capital, f["combined_rank_position"])
    assert ranked_low >= 500


def test_greenblatt_top_ranks_have_a_real_return_on_capital():
    """This review's re-read (``random.Random(25)``): EBIT $6.57B on $58.5B of capital (return on capital 11%)
    ranked 30th. The combined rank sums the return-on-capital rank too, so the top 100 earn at least 15% on
    positive tangible capital (22 items of the run broke it before the rule). The review run now has few items
    in the top 100 (its flips are rejected, see the module note), so a run from the top-ranked INVEST base
    exercises the rule too."""
    top = 0
    for item, f in _run() + _run("invest_midcap_industrial.yaml", 300):
        capital = f["net_working_capital"] + f["net_fixed_assets"]
        if f["combined_rank_position"] > 100 or capital <= 0:
            continue
        top += 1
        assert f["ebit"] >= D("0.15") * capital, (item["id"], f["ebit"], capital, f["combined_rank_position"])
    assert top >= 30


def test_greenblatt_profitable_stocks_rank_above_the_loss_makers():
    """This review's re-read of the final run: a 5% earnings yield with a 60% return on capital ranked 2,523rd,
    2,425th and 2,286th, below the loss-makers that rank last in both rankings (the card keeps them out of the
    top 2,000). A stock earning 4% or more on its enterprise value and 20% or more on positive capital ranks in
    the top 2,000 (47 items of the run broke it before the rule)."""
    low = 0
    for item, f in _run():
        if f["combined_rank_position"] <= 2000:
            continue
        low += 1
        capital = f["net_working_capital"] + f["net_fixed_assets"]
        # no positive capital: the return on it is unbounded, first in that ranking (the last re-read: 5%, 2,960th)
        earns = f["ebit"] >= D("0.04") * f["enterprise_value"] and (capital <= 0 or f["ebit"] >= D("0.20") * capital)
        assert not earns, (item["id"], f["ebit"], f["enterprise_value"], capital, f["combined_rank_position"])
    assert low >= 30


def test_greenblatt_weak_yields_are_not_ranked_above_the_median():
    """This review's last re-read: a 2.3% earnings yield with a 2% return on capital, and 5% with 5-6%, all
    ranked 1,050th of about 3,000. A stock whose two yields both sit below the middle of their rankings sits
    below the middle of the combined one, so no item with a yield under 6% and a return under 20% on positive
    capital ranks in the top 1,500 (249 items of the run broke it at 5420954)."""
    upper = 0
    for item, f in _run():
        if f["combined_rank_position"] > 1500:
            continue
        upper += 1
        capital = f["net_working_capital"] + f["net_fixed_assets"]
        weak = (capital > 0 and f["ebit"] < D("0.06") * f["enterprise_value"] and f["ebit"] < D("0.20") * capital)
        assert not weak, (item["id"], f["ebit"], f["enterprise_value"], capital, f["combined_rank_position"])
    assert upper >= 500


def test_greenblatt_dated_item_is_no_larger_than_the_largest_company_of_its_date():
    """Item 827bdaae: an enterprise value of $587B on 30 September 2008. Every dated item states a market value
    and an enterprise value at most the largest company's of that date."""
    dated = 0
    for item, f in _run():
        as_of = item["scenario"].get("as_of")
        if as_of is None:
            continue
        dated += 1
        assert as_of in LARGEST, (item["id"], as_of)
        for name in ("market_cap", "enterprise_value"):
            if name in f:
                assert f[name] <= LARGEST[as_of], (item["id"], as_of, name, f[name])
    assert dated >= 900
