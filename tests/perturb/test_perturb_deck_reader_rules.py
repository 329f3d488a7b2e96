"""The bundled decks tie what a careful reader would tie across their cards (issue 18, stop 31; bug kind:
an L8 question pairs figures no deck rule relates).

Before these rules, 1,000 items of each deck (seed 7, no ``--ops``) stated, on the new user's deck, a dividend
raised for more consecutive years than it had been paid at all, or a payout ratio that disagrees with the
dividend yield, the price and the earnings by more than a factor of two; and on the Pabrai, Greenblatt and
Munger deck, owner earnings above EBITDA (owner earnings $5.4B beside EBIT $1.5B). Each rule is checked
here by our own arithmetic on the items' stated facts (not through ipb's constraint code).
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest
from test_perturb_deck import CARD, DECK, GRAHAM, _items, runner

from ipb.cli import app

HERE18 = Path(__file__).resolve().parents[1] / "fixtures" / "new_user18"
DECK18 = HERE18 / "l8_deck_base.yaml"
CARDS = {
    "dividend": ["--card", str(CARD), "--card", GRAHAM],
    "pabrai": ["--card", str(HERE18 / "pabrai_dhandho_checklist.yaml"), "--card", "greenblatt_magic_formula_screen",
               "--card", "munger_business_quality_price"],
}
BASES = {"dividend": DECK, "pabrai": DECK18}


SCALE = {"": 1, "K": 10**3, "M": 10**6, "B": 10**9, "T": 10**12}


def _money(text: str) -> Decimal:
    """``"$500M"`` -> 500000000, ``"-$0.05"`` -> -0.05 (our own reading, independent of ipb's)."""
    m = re.fullmatch(r"(-?)\$([\d.,]+)([KMBT]?)", text)
    assert m, text
    return Decimal(m.group(1) + m.group(2).replace(",", "")) * SCALE[m.group(3)]


def _ratio(text: str) -> Decimal:
    """``"6.5%"`` -> 0.065."""
    m = re.fullmatch(r"(-?[\d.]+)%", text)
    assert m, text
    return Decimal(m.group(1)) / 100


def reader_breaks(deck: str, facts: dict) -> list[str]:
    """The deck rules of stop 31 that ``facts`` (the item's stated literals) break, by our own arithmetic."""
    out = []
    if deck == "dividend":
        if int(facts["dividend_years"]) < int(facts["consecutive_raise_years"]):
            out.append("raise_streak_within_dividend_record")
        implied = _ratio(facts["payout_ratio"]) * _money(facts["eps_3yr_avg"])
        from_yield = _ratio(facts["dividend_yield"]) * _money(facts["price_per_share"])
        if not from_yield / 2 <= implied <= 2 * from_yield:
            out.append("payout_matches_yield_price_and_earnings")
    else:
        if _money(facts["owner_earnings"]) > _money(facts["ebitda"]) + 50 * 10**6:
            out.append("owner_earnings_within_ebitda")
    return out


def test_reader_breaks_by_hand():
    good = {"dividend_years": "40", "consecutive_raise_years": "22", "payout_ratio": "70%", "eps_3yr_avg": "$2.4",
            "dividend_yield": "6.5%", "price_per_share": "$18"}  # 0.70 x 2.40 = 1.68 against 0.065 x 18 = 1.17
    assert reader_breaks("dividend", good) == []
    assert reader_breaks("dividend", {**good, "dividend_years": "21"}) == ["raise_streak_within_dividend_record"]
    # 2.5% x $83.25 = $2.08 a share from the yield; 70% of $2.40 is $1.68: within a factor of two
    assert reader_breaks("dividend", {**good, "dividend_yield": "2.5%", "price_per_share": "$83.25"}) == []
    # 1% x $18 = $0.18 against $1.68: more than twice
    assert reader_breaks("dividend", {**good, "dividend_yield": "1%"}) == ["payout_matches_yield_price_and_earnings"]
    assert reader_breaks("pabrai", {"owner_earnings": "$2.05B", "ebitda": "$2B"}) == []
    assert reader_breaks("pabrai", {"owner_earnings": "-$820M", "ebitda": "$10M"}) == []
    assert reader_breaks("pabrai", {"owner_earnings": "$5.4B", "ebitda": "$2B"}) == ["owner_earnings_within_ebitda"]


@pytest.mark.parametrize("deck", ["dividend", "pabrai"])
def test_every_item_of_a_bundled_deck_keeps_the_reader_rules(tmp_path, deck):
    out = tmp_path / f"{deck}.jsonl"
    result = runner.invoke(app, ["perturb", *CARDS[deck], "--base", str(BASES[deck]), "--n", "400", "--seed", "7",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    items = _items(out)
    assert len(items) == 400
    assert [(i["id"], reader_breaks(deck, i["scenario"]["facts"])) for i in items
            if reader_breaks(deck, i["scenario"]["facts"])] == []
    # non-vacuity: the figures the rules read move
    read = {"dividend": ("dividend_years", "consecutive_raise_years", "payout_ratio", "dividend_yield",
                         "price_per_share", "eps_3yr_avg"), "pabrai": ("owner_earnings", "ebitda")}[deck]
    for name in read:
        assert len({i["scenario"]["facts"][name] for i in items}) >= 3, name
    assert all([r["id"] for r in i["manifest"]["deck"]["constraints"]][-1] in (
        "payout_matches_yield_price_and_earnings", "owner_earnings_within_ebitda") for i in items)


THREE = Path(__file__).resolve().parent / "fixtures" / "l8_three_investors.yaml"


def three_breaks(facts: dict) -> list[str]:
    """The stop-32 rules of the three-investor deck (Buffett, Marks, Dalio) that ``facts`` break, by hand.

    A rule is judged only where the facts it reads are stated: a temporal move drops a market-state fact the new
    regime does not set (s56fixdsc), and a fact that is not stated cannot contradict another.
    """
    out = []

    def stated(*names: str) -> bool:
        return all(name in facts for name in names)

    low, high = Decimal("0.4"), Decimal("0.6")
    if stated("investor_psychology", "sentiment_percentile"):
        mood, bullish = facts["investor_psychology"], _ratio(facts["sentiment_percentile"])
        if (mood in ("euphoric", "optimistic") and bullish < low) or (mood == "euphoric" and bullish < Decimal("0.7")):
            out.append("optimism_reads_as_bullish_sentiment")
        if (mood in ("fearful", "panicked") and bullish > high) or (mood == "panicked" and bullish > Decimal("0.3")):
            out.append("fear_reads_as_bearish_sentiment")
    if stated("capital_availability", "leverage_percentile") and facts["capital_availability"] == "tight" \
            and _ratio(facts["leverage_percentile"]) > Decimal("0.75"):
        out.append("tight_capital_is_not_leveraged_buying")
    if stated("macro_regime") and facts["macro_regime"] == "credit_crisis" and (
            facts.get("capital_availability") == "loose"
            or ("high_yield_spread" in facts and _ratio(facts["high_yield_spread"]) < Decimal("0.06"))):
        out.append("credit_crisis_means_tight_credit")
    if stated("macro_regime") and facts["macro_regime"] in ("recession", "pandemic_shock") and (
            facts.get("investor_psychology") in ("euphoric", "optimistic")
            or ("high_yield_spread" in facts and _ratio(facts["high_yield_spread"]) < Decimal("0.05"))):
        out.append("recession_means_wide_spreads_and_no_optimism")  # s61review
    return out


def test_three_breaks_by_hand():
    calm = {"investor_psychology": "optimistic", "sentiment_percentile": "75%", "capital_availability": "loose",
            "leverage_percentile": "95%", "macro_regime": "expansion", "high_yield_spread": "3.1%"}
    assert three_breaks(calm) == []
    assert three_breaks({**calm, "sentiment_percentile": "39%"}) == ["optimism_reads_as_bullish_sentiment"]
    assert three_breaks({**calm, "investor_psychology": "euphoric", "sentiment_percentile": "69%"}) == [
        "optimism_reads_as_bullish_sentiment"]
    assert three_breaks({**calm, "investor_psychology": "panicked", "sentiment_percentile": "31%"}) == [
        "fear_reads_as_bearish_sentiment"]
    assert three_breaks({**calm, "capital_availability": "tight"}) == ["tight_capital_is_not_leveraged_buying"]
    assert three_breaks({**calm, "macro_regime": "credit_crisis"}) == ["credit_crisis_means_tight_credit"]
    assert three_breaks({**calm, "macro_regime": "credit_crisis", "capital_availability": "normal",
                         "high_yield_spread": "6%"}) == []
    # a dropped fact breaks nothing, and the rules on the facts still stated are still judged
    dropped = {k: v for k, v in calm.items() if k not in ("investor_psychology", "capital_availability")}
    assert three_breaks({**dropped, "sentiment_percentile": "39%"}) == []
    assert three_breaks({**dropped, "macro_regime": "credit_crisis", "high_yield_spread": "4%"}) == [
        "credit_crisis_means_tight_credit"]
    # s61review (IPB-L8-THREE-479451ca88dc9b06): a recession beside a 3.1% spread and an optimistic mood
    assert three_breaks({**calm, "macro_regime": "recession"}) == ["recession_means_wide_spreads_and_no_optimism"]
    assert three_breaks({**calm, "macro_regime": "recession", "investor_psychology": "fearful",
                         "sentiment_percentile": "50%", "high_yield_spread": "4.95%"}) == [
        "recession_means_wide_spreads_and_no_optimism"]
    assert three_breaks({**calm, "macro_regime": "pandemic_shock", "investor_psychology": "fearful",
                         "sentiment_percentile": "50%", "high_yield_spread": "5%"}) == []
    assert three_breaks({**dropped, "macro_regime": "recession", "high_yield_spread": "9%"}) == []


def test_every_item_of_the_three_investor_deck_keeps_its_rules(tmp_path):
    """Before the fixture's block (stop 32), 37 of 400 items (seed 7, no --ops) broke one of these rules."""
    out = tmp_path / "three.jsonl"
    result = runner.invoke(app, ["perturb", "--card", "buffett_acquisition_checklist", "--card",
                                 "marks_market_cycle_positioning", "--card", "dalio_bubble_detection_gauge",
                                 "--base", str(THREE), "--n", "300", "--seed", "7", "--out", str(out)])
    assert result.exit_code == 0, result.output
    items = _items(out)
    assert [(i["id"], three_breaks(i["scenario"]["facts"])) for i in items
            if three_breaks(i["scenario"]["facts"])] == []
    for name in ("investor_psychology", "sentiment_percentile", "capital_availability", "leverage_percentile",
                 "macro_regime"):
        stated = [i["scenario"]["facts"][name] for i in items if name in i["scenario"]["facts"]]
        assert len(stated) >= 250, (name, len(stated))  # most items state it: the rules above are judged
        assert len(set(stated)) >= 2, name  # the rules' figures move
