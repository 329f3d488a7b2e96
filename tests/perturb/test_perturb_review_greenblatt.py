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
2,000th; 249 weak ones in the top 1,500). The last of these rules left the run with 994/0/6 DECLINE/INCONCLUSIVE/INVEST
items (s24green): the place was a drawn input, so every INVEST flip moved it
alone and broke a rule. The card now derives the place from the two yields
(constraint ``combined_rank_from_the_two_yields``, s25green), so a flip moves
EBIT, the enterprise value or the capital and the place with them; the last
tests check that formula against an implementation of its own, its bases, the
rules above for every value, and the run's verdict mix.
"""

from __future__ import annotations

from decimal import Decimal as D
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from ipb.engine.registry import compiled_card
from ipb.engine.scenario import load_scenario
from perturb_support import SCENARIOS, review_run

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


def _ranked(base: str = BASE, n: int = 1000) -> tuple[tuple[dict, dict], ...]:
    """The items of the run that state a place (s36rules: a move to financials drops the capital, so the item states
    no place; ``test_greenblatt_every_item_states_the_place_of_its_yields`` checks that every other item does)."""
    return tuple((item, f) for item, f in _run(base, n) if "combined_rank_position" in f)


def test_greenblatt_strong_yields_are_not_ranked_far_down():
    """Item 7f16f541: a 25% earnings yield with a 50% return on capital, ranked 1,050th (and this review's last
    re-read: 23% and 76%, 1,050th). By the sum of the two ranks such a stock ranks near the top 100 of 3,000, so
    no item with a yield of 20% or more and a return of 50% or more is ranked below 100th (13 items of the run
    broke it at 5420954, where the rule started at a 25% yield)."""
    ranked_low = 0
    for item, f in _ranked():
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
    for item, f in _ranked() + _ranked("invest_midcap_industrial.yaml", 300):
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
    for item, f in _ranked():
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
    for item, f in _ranked():
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


def _place(ebit: D, ev: D, capital: D) -> int:
    """The combined-ranking place of the card's formula (YAML comment of ``combined_rank_from_the_two_yields``),
    written here from the formula, not from the card's expression: the mean of an earnings-yield rank
    2400 / (1 + (y / 7%)^4) and a return-on-capital rank 2400 / (1 + (c / 25%)^5) (yields floored at 0, capital at
    $1M), each plus 600 * min(1, loss / (10% of EV), resp. (50% of capital)), rounded half up, at least 1."""
    e, v, k = Fraction(ebit), Fraction(ev), max(Fraction(capital), Fraction(10**6))
    y, c, loss = max(e, 0) / v, max(e, 0) / k, max(-e, 0)
    r_e = 2400 / (1 + (y / Fraction(7, 100)) ** 4) + 600 * min(1, loss / (v / 10))
    r_c = 2400 / (1 + (c / Fraction(25, 100)) ** 5) + 600 * min(1, loss / (k / 2))
    mean = (r_e + r_c) / 2
    return max(1, int(mean + Fraction(1, 2)))


def _derived() -> object:
    card = compiled_card(CARD).card
    return next(k for k in card.constraints if k.derive == "combined_rank_position")


# base: (place stated, by hand). Review base: y = 5%, (5/7)^4 = 0.2603, r_e = 1904.3; c = 60%, 2.4^5 = 79.63,
# r_c = 29.77; mean 967.0. Midcap: y = 23%, (23/7)^4 = 116.6, r_e = 20.41; c = 230/240 = 95.8%, 3.833^5 = 826.5,
# r_c = 2.90; mean 11.66 -> 12. Rank 45: y = 16.5%, 30.87, r_e = 75.30; c = 68.75%, 2.75^5 = 157.3, r_c = 15.16;
# mean 45.23 -> 45. Inconclusive: y = 28%, 4^4 = 256, r_e = 9.34; c = 70/60, 4.667^5 = 2213, r_c = 1.08; 5.21 -> 5.
BASES = {"decline_outside_top_group.yaml": 967, "invest_midcap_industrial.yaml": 12,
         "decline_rank_45_inside_top_decile.yaml": 45, "inconclusive_holding_plan_unstated.yaml": 5}


def test_greenblatt_bases_state_the_place_of_their_yields():
    """Each base states the place the card derives (worked by hand above), and the regional bank, which states no
    capital, has none to derive."""
    card = compiled_card(CARD).card
    k = _derived()
    for name, place in BASES.items():
        facts = load_scenario(SCENARIOS / CARD / name, card).facts
        assert facts["combined_rank_position"] == place, name
        assert k.value_for(facts) == place == _place(facts["ebit"], facts["enterprise_value"],
                                                     facts["net_working_capital"] + facts["net_fixed_assets"]), name
    bank = load_scenario(SCENARIOS / CARD / "decline_regional_bank.yaml", card).facts
    assert k.value_for(bank) is None and "combined_rank_position" not in bank


def test_greenblatt_every_item_states_the_place_of_its_yields():
    """Regression (rank-only flips): every item of the review run that states EBIT, EV and capital states the
    place those give, whatever operator made it (the flips included)."""
    seen = 0
    for item, f in _run():
        if not all(n in f for n in ("ebit", "enterprise_value", "net_working_capital", "net_fixed_assets")):
            assert "combined_rank_position" not in f, item["id"]
            continue
        seen += 1
        capital = f["net_working_capital"] + f["net_fixed_assets"]
        assert f["combined_rank_position"] == _place(f["ebit"], f["enterprise_value"], capital), item["id"]
    assert seen >= 900


def test_greenblatt_review_run_has_a_usable_verdict_mix():
    """The review base (967th, DECLINE) gave 994/0/6 DECLINE/INCONCLUSIVE/INVEST at s24green: now a flip moves the
    yields and the place together, and at least a fifth of the run is INVEST and a fifth DECLINE (seed 2027: 672/8/320;
    2028: see the s25green note)."""
    verdicts = [item["investment_verdict"] for item, _ in _run()]
    assert verdicts.count("INVEST") >= 200 and verdicts.count("DECLINE") >= 200, (
        verdicts.count("DECLINE"), verdicts.count("INCONCLUSIVE"), verdicts.count("INVEST"))


MONEY_STEP = 5 * 10**6


@settings(max_examples=400, deadline=None)
@given(ebit=st.integers(-200, 10_000), ev=st.integers(1, 25_000), nwc=st.integers(-1_000, 10_000),
       nfa=st.integers(0, 40_000))
def test_greenblatt_derived_place_keeps_every_rank_rule(ebit, ev, nwc, nfa):
    """Law: for any EBIT, EV and capital on the card's grids, the derived place keeps the author-inferred rules the
    re-reads asked for (the arithmetic of the tests above and of test_perturb_review_second_pass), so a derived
    place never makes the card reject its own item: top 100 needs a 10% yield, top 500 7%, top 1,000 4%, top
    2,000 a profit, top 100 a 15% return on positive capital; 20% and 50% are in the top 100; 4% with 20% (or no
    positive capital) in the top 2,000; under 6% with under 20% below 1,500th."""
    f = {"ebit": D(ebit * MONEY_STEP), "enterprise_value": D(ev * 10**7), "net_working_capital": D(nwc * MONEY_STEP),
         "net_fixed_assets": D(nfa * MONEY_STEP)}
    p = _derived().value_for(f)
    e, v = f["ebit"], f["enterprise_value"]
    capital = f["net_working_capital"] + f["net_fixed_assets"]
    assert p == _place(e, v, capital) and 1 <= p <= 3000
    assert not (p <= 100 and e < D("0.10") * v) and not (p <= 500 and e < D("0.07") * v)
    assert not (p <= 1000 and e < D("0.04") * v) and not (p <= 2000 and e <= 0)
    assert not (p <= 100 and capital > 0 and e < D("0.15") * capital)
    assert not (p > 100 and capital > 0 and e >= D("0.20") * v and e >= D("0.50") * capital)
    assert not (p > 2000 and e >= D("0.04") * v and (capital <= 0 or e >= D("0.20") * capital))
    assert not (p <= 1500 and capital > 0 and e < D("0.06") * v and e < D("0.20") * capital)
