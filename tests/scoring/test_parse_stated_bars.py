"""Gates stated as a fact against a bar in a labelled line, with no verdict word (issue 13; scoring/parse/_stated_bars.py).

Every text here is written for this test and hand-labelled. The card is the magic-formula screen: gate 1 is the
market-cap floor (``market_cap >= $50M``), gate 4 the combined rank in the top group.
"""

from __future__ import annotations

import pytest

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._stated_bars import compared_verdict

CARD = "greenblatt_magic_formula_screen"


def _gates(text: str) -> dict[int, tuple[str | None, str]]:
    parsed = parse_response(text, CARD, embedder=None)
    return {g.gate: (g.verdict, g.how) for g in parsed.gates}


def _item(line: str) -> str:
    return f"Screen notes on Quarry Lane Mills (QLM).\n\n{line}\n- Holding plan: one year, then replaced.\n"


@pytest.mark.parametrize(("line", "gate", "verdict"), [
    ("- Size: market value $1.4 billion, well above the $50 million floor.", 1, vw.PROCEED),
    ("- Size: market value $31 million, a little short of the $50 million floor.", 1, vw.REJECT),
    ("- Combined rank: 9th of roughly 2,800 names, comfortably inside the top 30.", 4, vw.PROCEED),
    ("- Combined rank: 57th of roughly 2,800 names, outside the top 30.", 4, vw.REJECT),
    ("| Size | market value $1.4 billion, well above the $50 million floor |", 1, vw.PROCEED),
], ids=["floor-above", "floor-short-of", "top-n-inside", "top-n-outside", "table-row"])
def test_labelled_fact_against_a_bar_is_read_hedged(line: str, gate: int, verdict: str) -> None:
    got = _gates(_item(line))
    assert got[gate][0] == verdict
    assert got[gate][1].endswith("+stated-bar")


@pytest.mark.parametrize("line", [
    "- Size: market value $1.4 billion in 2021 and $30 million now, above the floor.",  # two figures that disagree
    "- Size: market value $30 million, above the floor.",  # the card's test on the figure contradicts the comparison
    "- Size: market value $1.4 billion.",  # a bare figure: no comparison with a bar
    "- Size: if the market value drops below the $50 million floor we sell.",  # a condition
    "- Size: market value $1.4 billion, not above the $50 million floor by our own count.",  # negated
    "- Size: the market value sits within 5% of the floor on a bad day.",  # a distance, not a side
], ids=["two-figures-disagree", "figure-vs-comparison", "bare-figure", "conditional", "negated", "within-of-distance"])
def test_no_reading_when_the_line_does_not_settle_it(line: str) -> None:
    got = _gates(_item(line))
    assert 1 not in got or not got[1][1].endswith("+stated-bar")


def test_a_verdict_word_is_left_to_the_verdict_readers() -> None:
    got = _gates(_item("- Size: market value $1.4 billion, above the $50 million floor; fails on liquidity."))
    assert not got[1][1].endswith("+stated-bar")


def test_the_note_names_the_figure_and_the_test() -> None:
    parsed = parse_response(_item("- Size: market value $1.4 billion, well above the $50 million floor."), CARD, embedder=None)
    note = next(n for n in parsed.notes if "+stated-bar" in n)
    assert "'$1.4 billion'" in note and "market_cap >=" in note


@pytest.mark.parametrize(("text", "higher", "want"), [
    ("debt runs 2.4 times equity, above his limit of 2", vw.REJECT, vw.REJECT),
    ("debt runs 0.8 times equity, under the ceiling", None, vw.PROCEED),
    ("returns of 21%, over the hurdle", None, vw.PROCEED),
    ("yield of 7%, above the threshold", None, None),  # a threshold has no side of its own and the card gives none
    ("yield of 7%, above the threshold", vw.PROCEED, vw.PROCEED),
    ("drawdown of 30%, above the floor", vw.REJECT, None),  # the card's direction contradicts the noun
    ("above the floor on sales, below the floor on margins", None, None),  # two comparisons that disagree
    ("ranked 40th, above the top 30", None, None),  # which side of a rank "above" means is not said
], ids=["limit-above", "ceiling-under", "hurdle-over", "threshold-no-side", "threshold-card-side",
        "noun-vs-card", "disagree", "top-n-above"])
def test_compared_verdict(text: str, higher: str | None, want: str | None) -> None:
    assert compared_verdict(text, higher) == want


def test_a_heading_alone_reads_its_sections_first_sentence() -> None:
    text = ("Screen notes on Quarry Lane Mills (QLM).\n\n## Size\nThe market value is $1.4 billion, well above the $50 million "
            "floor.\n\n## Combined rank\nIt ranks 57th of 2,800 names, outside the top 30. We keep looking.\n")
    got = _gates(text)
    assert (got[1][0], got[4][0]) == (vw.PROCEED, vw.REJECT)
    assert got[1][1].endswith("+stated-bar") and got[4][1].endswith("+stated-bar")


def test_a_heading_whose_first_sentence_compares_nothing_gets_no_reading() -> None:
    text = ("Screen notes on Quarry Lane Mills (QLM).\n\n## Size\nThe market value is $1.4 billion. It sits well above the "
            "$50 million floor.\n")
    got = _gates(text)
    assert 1 not in got or not got[1][1].endswith("+stated-bar")


# A band around a target (issue 13, s31): inside it the value is below the band's edge, so the card's direction says
# which side passes. For a gate that acts on drift beyond the band (a higher drift moves it to PROCEED), "inside the
# band" is its REJECT and "outside the band" its PROCEED; for a gate that wants a value kept small, the other way round.
@pytest.mark.parametrize(("text", "higher", "want"), [
    ("the largest drift is 3.1 points, inside the band", "PROCEED", "REJECT"),
    ("rising growth is 7 points over target, outside the rebalancing band", "PROCEED", "PROCEED"),
    ("tracking error of 1.2%, well within the tolerance", "REJECT", "PROCEED"),
    ("tracking error of 4%, outside our tolerance", "REJECT", "REJECT"),
], ids=["inside-drift", "outside-drift", "within-tolerance-small-is-good", "outside-tolerance-small-is-good"])
def test_a_band_takes_its_side_from_the_card(text: str, higher: str, want: str) -> None:
    assert compared_verdict(text, higher) == want


def test_a_band_with_no_side_from_the_card_is_no_reading() -> None:
    assert compared_verdict("the largest drift is 3.1 points, inside the band", None) is None


def test_a_gate_named_only_in_running_prose_reads_its_stated_bar() -> None:
    # a letter that names the size screen in a sentence of its own (no label, no verdict word): the comparison with the
    # stated floor is the gate's verdict, hedged
    text = ("I picked Castellan from the screen this quarter. Its market capitalisation is $640M, well above the $100 "
            "million minimum.\n\nSo Castellan is in.\n")
    gates = {g.gate: g for g in parse_response(text, "greenblatt_magic_formula_screen", embedder=False).gates}
    assert gates[1].verdict == "PROCEED" and gates[1].confidence <= 0.6


@pytest.mark.parametrize(("text", "higher", "want"), [
    ("both under his limits", "REJECT", "PROCEED"),
    ("each one above the floors we set", "PROCEED", "PROCEED"),
    ("two of them below the minimums", "PROCEED", "REJECT"),
    ("both well over the caps", "REJECT", "REJECT"),
], ids=["limits", "floors", "minimums", "caps"])
def test_a_bar_noun_in_the_plural_is_a_bar(text: str, higher: str, want: str) -> None:
    # regression: "Both under Graham's limits" was no comparison (the pattern knew only the singular nouns)
    assert compared_verdict(text, higher) == want


def test_a_labelled_gate_reads_the_comparison_in_its_next_sentence() -> None:
    # the label's sentence gives the figures, the next sentence on its line compares them with the card's limits
    text = ("Number of stocks: 16, fine.\n"
            "On price: the dearest holding trades at 18x trailing earnings and 22x its seven-year average. "
            "Both under his limits, though not by much.\n")
    gates = {g.gate: g for g in parse_response(text, "graham_defensive_portfolio_selection", embedder=False).gates}
    assert gates[7].verdict == "PROCEED" and "stated-bar" in gates[7].how


def test_the_next_sentence_is_not_read_when_it_names_another_gate() -> None:
    text = ("On price: the dearest holding trades at 18x trailing earnings and 22x its seven-year average. "
            "The dividend record is below the floor for two names.\n")
    gates = {g.gate: g for g in parse_response(text, "graham_defensive_portfolio_selection", embedder=False).gates}
    assert gates.get(7) is None or gates[7].verdict is None or "stated-bar" not in gates[7].how
