"""JSON answers that state an input's figure under a key that names a gate (issue 13, s24break findings 4 and 5).

Every text here was written for this file; the readings are labelled by hand. Regression kinds:

- *Fact keys as gates*: ``"market_cap": "$3.4bn"`` or ``"return_on_capital": 0.42`` ahead of the answer's checks
  detected the gate with no verdict stated, set its place in the order (first, before the checks that judge it), and a
  bullish signal then entailed a PROCEED for a gate nothing judged. A key whose value is only a figure (or, for one of
  the card's input names, a short value with no verdict word) states an input: it sets no gate's place in the order
  ahead of the checks that judge it, and no final verdict entails a verdict for it. After the gate is named it is read
  as before, inside the gate's section.
- *Fact keys detect their gate* (s28, the corpus README's convention that a bare fact is a discussed gate labelled
  ``-``): a key that is one of the card's inputs (snake_case, spaced or hyphenated) detects the one gate that reads
  it, with no verdict (``how`` ``fact``); a value that judges makes the key that gate's label.
- *Attributions in JSON strings*: ``"note": "Buffett wrote that moats matter"}`` gave the claim ``moats matter",``:
  the claim ran to the end of the line, past the string's closing quote.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

GREENBLATT = "greenblatt_magic_formula_screen"  # 1 market-cap floor, 2 sector exclusions, 3 formula ratios, 4 rank, 5 holding
BUFFETT = "buffett_acquisition_checklist"


def _gates(text: str, card: str = GREENBLATT) -> list[tuple[int, str | None]]:
    return [(g.gate, g.verdict) for g in parse_response(text, card, embedder=False).gates]


SCREEN_ROW = """{
  "ticker": "QRS",
  "market_cap": "$3.4bn",
  "return_on_capital": 0.42,
  "earnings_yield": "11.8%",
  "checks": {
    "sector_exclusions": "pass",
    "market_cap_floor": "pass",
    "formula_ratios": "pass"
  },
  "signal": "bullish"
}"""


def test_figures_ahead_of_the_checks_do_not_set_the_order() -> None:
    # the checks object judges the gates, in its own order; the figures above it only state inputs
    assert _gates(SCREEN_ROW) == [(2, "PROCEED"), (1, "PROCEED"), (3, "PROCEED")]


@pytest.mark.parametrize("text", [
    '{"ticker": "QRS", "market_cap": 3.4e9, "return_on_capital": 0.42, "sector_exclusions": "pass", "signal": "bullish"}',
    '{\n  "ticker": "QRS",\n  "market_cap": "$3.4bn",\n  "return_on_capital": "42%",\n  "sector_exclusions": "pass",\n'
    '  "signal": "bullish"\n}',
], ids=["compact-numbers", "indented-figure-strings"])
def test_a_gate_stated_only_by_its_figures_is_detected_with_no_verdict(text: str) -> None:
    # only the sector gate is judged; the size and formula gates are discussed by their figures (the corpus README's
    # '-': s28 changed this pin, which read them as not detected) and the bullish signal entails no verdict for them
    parsed = parse_response(text, GREENBLATT, embedder=False)
    assert [(g.gate, g.verdict, g.how) for g in parsed.gates] == [(1, None, "fact"), (3, None, "fact"), (2, "PROCEED", "id")]
    assert parsed.final_verdict == "INVEST"


@pytest.mark.parametrize("key", ["current_ratio", "current ratio", "Current-Ratio"], ids=["snake", "spaced", "hyphen"])
def test_an_input_key_with_a_figure_detects_its_gate(key: str) -> None:
    # Graham's gate 2 (adequate financial condition) reads current_ratio; gate 6 reads pe_3yr
    text = '{"ticker": "ABC", "%s": 2.6, "pe_3yr": "12x", "decision": "buy"}' % key
    parsed = parse_response(text, "graham_seven_tests_defensive", embedder=False)
    assert [(g.gate, g.verdict, g.how) for g in parsed.gates] == [(2, None, "fact"), (6, None, "fact")]
    assert text[slice(*parsed.gates[0].mention)].strip('"') == key


def test_an_input_key_whose_value_judges_labels_its_gate() -> None:
    text = '{"ticker": "ABC", "current_ratio": "1.4 (fail)", "dividend_years": 25, "decision": "avoid"}'
    parsed = parse_response(text, "graham_seven_tests_defensive", embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(2, "REJECT"), (4, None)]
    assert parsed.gates[1].how == "fact"


@pytest.mark.parametrize("key", ["price_per_share", "eps_3yr_avg"])
def test_an_input_several_gates_read_detects_none(key: str) -> None:
    # guard: Graham's price_per_share is read by gates 6 and 7 (P/E and P/E x P/B), eps_3yr_avg by gates 5-7; field keys
    # (ticker, confidence, summary) are no inputs either
    text = '{"ticker": "ABC", "%s": 41.5, "confidence": 80, "summary": "fine", "signal": "bullish"}' % key
    parsed = parse_response(text, "graham_seven_tests_defensive", embedder=False)
    assert parsed.gates == [] and parsed.status == "parse_failure"


def test_a_figure_after_its_gate_was_named_stays_in_that_gates_section() -> None:
    text = '{\n  "market_cap_floor": "pass",\n  "market_cap": "$3.4bn",\n  "sector_exclusions": "pass",\n  "signal": "bullish"\n}'
    parsed = parse_response(text, GREENBLATT, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (2, "PROCEED")]
    assert parsed.gates[0].elements == ["market cap $3.4B"]  # the figure is read as the size gate's element


def test_a_key_with_a_verdict_still_labels_its_gate() -> None:
    # guard: a value that judges ("pass", "fail: ...") is no fact
    text = '{"market_cap_floor": "fail: $180M is under the floor", "sector_exclusions": "pass", "signal": "bearish"}'
    assert _gates(text) == [(1, "REJECT"), (2, "PROCEED")]


@pytest.mark.parametrize("tail", ['"}', '", "x": 1}', '",\n  "y": 2\n}'], ids=["brace", "next-pair", "next-line"])
def test_an_attribution_in_a_json_string_ends_at_the_closing_quote(tail: str) -> None:
    text = '{"gates": [{"gate": 1, "verdict": "PASS"}], "note": "Buffett wrote that moats matter' + tail
    parsed = parse_response(text, BUFFETT, embedder=False)
    assert [(a.investor, a.claim) for a in parsed.attributions] == [("Warren Buffett", "moats matter")]
    assert text[slice(*parsed.attributions[0].span)] == "Buffett wrote that moats matter"
