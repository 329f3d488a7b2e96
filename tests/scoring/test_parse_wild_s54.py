"""Wild layouts of the n51 batch's tuned half (s54wild, issue 13; paper §7.5 reading, §7.11 FM-1 invented gates).

The rules, each stated once in its module:

* a label whose value names a card gate by its number ("- caption: ..., step 2 passes") is where that gate's statement
  stands, not a gate the card lacks (:func:`ipb.scoring.parse._sub_labels.names_numbered_gate`);
* the top row of a pipe table drawn with no ``|---|`` rule, with no digit and no verdict in it and two rows or more of
  as many cells under it, is the table's header ("Indicator | Reading | Signal present |"), not a gate
  (:func:`ipb.scoring.parse._sub_labels.header_row`);
* a step "not run" (its clause closing there, or "because ...") is not reached, N/A, as "not evaluated" is
  (:data:`ipb.scoring._gate_words.VERDICT_WORDS`);
* an outcome its own sentence calls unsettled after it ("likely INVEST, though ... before treating that as settled",
  "DECLINE for now, but that's not a final call") is no final verdict (:data:`ipb.scoring.parse._undecided.UNSETTLED`);
* the case kept or taken off the buy list ("stays off my buy list") is the fail outcome, as "on our buy list" is the
  pass one (:mod:`ipb.scoring.parse._decided`).

The tests that pin a rule's limit (a gate number in passing, a judged top row, "does not run out of money",
unsettled words in another sentence, "on our buy list") pass without the fixes too; every other test fails without its fix.

Every text here is written for this file; each expected reading is worked by hand in its comment.
"""

from __future__ import annotations

from ipb.engine.registry import compiled_card
from ipb.scoring.parse import parse_response

#: dalio_all_weather_portfolio_construction: gate 1 Four-Environment Asset Mapping, 2 Risk Parity Balance,
#: 3 leverage feasibility; steps are its gates by number.
ALL_WEATHER = "dalio_all_weather_portfolio_construction"
#: dalio_bubble_detection_gauge: seven gauges, 1 Prices High Relative to Traditional Measures ... 7 Stimulative Monetary
#: Policy Inflating the Bubble.
BUBBLE = "dalio_bubble_detection_gauge"


def _parse(card_id: str, text: str):
    return parse_response(text, compiled_card(card_id).card, embedder=False)


def test_slide_parts_naming_a_step_by_number_are_no_invented_gates() -> None:
    # A deck specification: each slide's bullets say where a statement goes (a banner, a footnote strip) and the
    # statement names the step by number. By hand: step 1 passes (1 PROCEED), step 2 fails (2 REJECT); "banner in
    # green" and "footnote strip" are places on a slide, not gates the card lacks: no invented gate.
    text = ("Slide A - Mapping\n"
            "- a 2x2 grid, one quadrant per environment\n"
            "- banner in green: every environment has an asset, step 1 passes\n"
            "Slide B - Risk\n"
            "- bars for the four risk shares: 40%, 30%, 20%, 10%\n"
            "- footnote strip: the 40% share is over the 35% cap, so step 2 fails\n")
    parsed = _parse(ALL_WEATHER, text)
    assert parsed.invented_gates == []
    got = {g.gate: g.verdict for g in parsed.gates}
    assert got.get(1) == "PROCEED" and got.get(2) == "REJECT"


def test_a_gate_number_in_passing_leaves_the_label_an_invented_gate() -> None:
    # The rule needs the step's verdict right after its number: "ESG overlay: FAIL, ..., unlike step 2" names step 2
    # only in passing, and "ESG overlay" is no card gate and is judged, so it stays an invented gate (FM-1).
    text = ("- Four-Environment Asset Mapping: PASS, an asset for every environment\n"
            "- Risk Parity Balance: PASS, shares of 26%, 25%, 24%, 25%\n"
            "- ESG overlay: FAIL, two holdings are coal miners, unlike step 2 where nothing is screened\n")
    parsed = _parse(ALL_WEATHER, text)
    assert parsed.invented_gates == ["ESG overlay"]


def test_the_header_row_of_a_table_without_a_rule_is_no_invented_gate() -> None:
    # A help page's table with no |---| rule under its first row. Its third column is headed "Signal present", words
    # that judge a gauge on this card, so the header row looked judged. By hand: the first row names the columns
    # ("Measure", "Level", "Signal present"); "Measure" is no gate and nothing is invented. The rows are gauges 1, 3
    # and 4.
    text = ("Measure | Level | Signal present |\n"
            "Prices High Relative to Traditional Measures | 93rd percentile | Yes |\n"
            "New Buyers Entering the Market | 40th percentile | No |\n"
            "Broadly Bullish Sentiment | 85th percentile | Yes |\n"
            "Three of the gauges are read here.\n")
    parsed = _parse(BUBBLE, text)
    assert parsed.invented_gates == []
    assert [g.gate for g in parsed.gates] == [1, 3, 4]


def test_a_judged_top_row_is_a_row_not_a_header() -> None:
    # The top row carries a verdict ("FAIL"), so it is a row: "Insider selling" is no card gate and is judged, an
    # invented gate, even though the table has no |---| rule.
    text = ("Insider selling | FAIL |\n"
            "Prices High Relative to Traditional Measures | REJECT |\n"
            "New Buyers Entering the Market | PROCEED |\n")
    parsed = _parse(BUBBLE, text)
    assert [n.lower() for n in parsed.invented_gates] == ["insider selling"]


#: soros_conviction_weighted_position_sizing: 1 Thesis Confirmation, 2 Payoff Asymmetry, 3 Conviction-Weighted Size,
#: 4 Survival First.
SOROS = "soros_conviction_weighted_position_sizing"


def test_steps_not_run_are_not_reached() -> None:
    # A step-by-step answer that stops early. By hand: step 1 confirmed (PROCEED), step 2 fails (REJECT), steps 3 and
    # 4 "not run" because of it: not reached (N/A), as "not evaluated" would be.
    text = ("Step 1 - Thesis Confirmation: confirmed, orders up 12% on the quarter. PROCEED\n"
            "Step 2 - Payoff Asymmetry: $9 up against $5 down, 1.8 to 1, under 3 to 1. REJECT\n"
            "Step 3 - Conviction-Weighted Size: not run, because step 2 failed.\n"
            "Step 4 - Survival First: not run.\n")
    got = {g.gate: g.verdict for g in _parse(SOROS, text).gates}
    assert got == {1: "PROCEED", 2: "REJECT", 3: "N/A", 4: "N/A"}


def test_not_run_going_on_is_no_verdict() -> None:
    # "does not run out of cash" goes on after "run": a fact about the firm, no N/A. By hand: gate 4 is discussed
    # with its verdict stated as PROCEED ("survives"), never N/A.
    text = ("Survival First: with $40M of cash the fund does not run out of money in a 50% drawdown; it survives. PROCEED\n")
    got = {g.gate: g.verdict for g in _parse(SOROS, text).gates}
    assert got == {4: "PROCEED"}


#: marks_risk_return_assessment: outcomes INVEST (pass) / DECLINE (fail); 1 Price Relative to Value.
MARKS = "marks_risk_return_assessment"


def test_an_outcome_its_own_sentence_calls_unsettled_is_no_final() -> None:
    # By hand: the writer names INVEST and, in the same sentence, says it is not to be treated as settled: no final
    # verdict is committed (the label convention: hedges commit to none). Gate 1 stays PROCEED.
    text = ("Price Relative to Value: PROCEED, $60M for $90M of value.\n\n"
            "Final verdict: likely INVEST, though I would have the value estimate audited before treating that as "
            "settled.\n")
    parsed = _parse(MARKS, text)
    assert parsed.final_verdict is None
    assert {g.gate: g.verdict for g in parsed.gates} == {1: "PROCEED"}


def test_it_is_not_final_withdraws_the_outcome_before_it() -> None:
    # "DECLINE, but that's not a final call" in one sentence: by hand, no final verdict.
    text = "Price Relative to Value: REJECT, $95M for $90M of value.\n\nDECLINE for now, but that's not a final call.\n"
    assert _parse(MARKS, text).final_verdict is None


def test_unsettled_words_in_another_sentence_leave_the_outcome() -> None:
    # The unsettled phrase is about the estimate in a later sentence, not the outcome: by hand, INVEST stands.
    text = ("Price Relative to Value: PROCEED, $60M for $90M of value.\n\nFinal verdict: INVEST. The appraisal will be "
            "redone next year before treating it as final.\n")
    assert _parse(MARKS, text).final_verdict == "INVEST"


#: graham_seven_tests_defensive: outcomes INVEST / DECLINE; 7 Moderate Ratio of Price to Assets.
GRAHAM = "graham_seven_tests_defensive"


def test_off_the_buy_list_is_the_fail_outcome() -> None:
    # A blog post ends with the writer's act: the company stays off the buy list. By hand: the decline, DECLINE.
    text = ("Test 7, Moderate Ratio of Price to Assets: 2.1 times book and 14 x 2.1 = 29.4, over 22.5. It fails.\n\n"
            "Ashgrove Textiles stays off my buy list for now.\n")
    assert _parse(GRAHAM, text).final_verdict == "DECLINE"


def test_on_the_buy_list_is_still_the_pass_outcome() -> None:
    # The counterpart was read before this change and still is: "goes on our buy list" is INVEST.
    text = ("Test 7, Moderate Ratio of Price to Assets: 1.2 times book and 12 x 1.2 = 14.4, under 22.5. It passes.\n\n"
            "Ashgrove Textiles goes on our buy list.\n")
    assert _parse(GRAHAM, text).final_verdict == "INVEST"
