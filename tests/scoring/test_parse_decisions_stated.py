"""Final verdicts stated as acts or outcomes, not verdict words (issue 13, "final verdicts in the wild"; paper §7.5).

Regression tests for the bug kind "a decision stated as what was done is read as no verdict, or as the opposite
verdict through a stray buy/sell word": "So we bought in.", "goes into the model portfolio", "stays on the watch
list", "Committee decision: no position for now.", "decided not to fund", "the stake is to be sold", "the capital
will be redirected to passive", "needs revising", "Passing.", "Bubble: reduce risk.", "For now: take the pilot
position.", "We stay balanced.", another investor's JSON verdict, and purpose infinitives ("the proposal to buy")
that are no verdict. Every text is written for this file; each expected reading is hand-labelled.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

CASES = [
    # (id, card, text, expected final verdict)
    ("bought-in-after-policy", "klarman_downside_first_process",
     "We never buy what we cannot defend in a slump, so Brackley Mills sat on our list for years.\n\n"
     "Downside assessment: in a bad year the shares would be worth 410p against our 450p entry, a 9% loss.\n"
     "Margin of safety: conservative value 700p, so we pay 64% of it.\n\n"
     "Last month the price finally came to us. So we bought in.\n", "INVEST"),
    ("starter-position-notes", "klarman_downside_first_process",
     "downside assessment: worst case 18% below cost - ok.\nmargin of safety: 60% of value - ok.\n\n"
     "all three fine. bought a starter position at 12.10, adding below 11.\n", "INVEST"),
    ("model-portfolio-entry", "greenblatt_magic_formula_screen",
     "Quenby Tools\n\n- Market-capitalisation floor: $900 million, above our minimum.\n"
     "- Earnings yield and return on capital: 14% and 41%.\n- Combined rank: 9th.\n\n"
     "Quenby goes into the model portfolio on Monday.\n", "INVEST"),
    ("watch-list", "greenblatt_magic_formula_screen",
     "Market-capitalisation floor: fine at $3 billion. Earnings yield and return on capital: 7% and 15%.\n"
     "Combined rank: 57th, outside the group we buy.\n\nFenwick stays on the watch list until its rank improves.\n",
     "DECLINE"),
    ("not-a-buy-under-the-strategy", "greenblatt_magic_formula_screen",
     "The market-capitalisation floor is cleared. Combined rank in the top group? No, it ranks 44th, so it is not a buy "
     "under the strategy this quarter.\n", "DECLINE"),
    ("committee-no-position", "klarman_downside_first_process",
     "| Test | Finding |\n|---|---|\n| Downside assessment | bad-case loss 12% |\n| Margin of safety | 71% of value |\n\n"
     "Committee decision: no position for now. Bring it back when the price is nearer 60% of value.\n", "DECLINE"),
    ("decided-not-to-fund", "pif_dual_kill_investment_screen",
     "The sovereign fund has decided not to fund the marina extension, officials said. The project fits the portfolio "
     "investment policy, but the IRR hurdle of 8% was missed, with a projected 3.9%.\n", "DECLINE"),
    ("board-decided-to-exclude", "nbim_gpfg_exclusion_screen",
     "Council on Ethics conduct-based exclusion: the Council found severe environmental damage and recommended "
     "exclusion. The Executive Board decided to exclude the company from the fund in March.\n", "DIVEST"),
    ("stake-to-be-sold", "nbim_gpfg_exclusion_screen",
     "Mandate investment universe: a listed equity, in scope. Product-based exclusion criteria: it makes cluster "
     "munitions, which excludes it.\n\nAnswer to the desk: the stake is to be sold within the divestment period.\n",
     "DIVEST"),
    ("redirected-to-passive", "cppib_total_portfolio_active_strategy",
     "The sleeve beat its risk-equivalent benchmark by 1.1% a year, but the factor substitutability test failed: "
     "cheap factor exposures explain nearly all of it. The capital will be redirected to passive factor mandates.\n",
     "REDIRECT_TO_PASSIVE"),
    ("needs-revising", "graham_defensive_portfolio_selection",
     "Stock-bond allocation: 68% in stocks, inside 25% to 75%. Fine.\n"
     "Mix kept at its chosen proportion: it was set at 50%, so the drift is 18 points. Not kept.\n\n"
     "Until the extra stocks are sold the portfolio needs revising.\n", "REVISE"),
    ("passing-alone", "greenblatt_spinoff_checklist",
     "The parent is shedding a small unit and index funds sold it. Insiders, though, sold half their grants within a "
     "month. Without the insiders on our side I don't want to own it. Passing.\n", "DECLINE"),
    ("bubble-colon-outcome", "dalio_bubble_detection_gauge",
     "Prices high relative to traditional measures: yes.\nNew buyers entering the market: yes.\n"
     "Purchases financed by high leverage: yes.\nBroadly bullish sentiment: yes.\n\nBubble: reduce risk.\n",
     "BUBBLE_REDUCE_RISK"),
    ("advice-label-get-out", "dalio_debt_supercycle_navigation",
     "Long-term debt cycle phase: late. Two thirds of the state's debt is owed in a currency its central bank cannot print, and the policy rate is 19%.\n\n"
     "The desk's advice to clients: get out of local-currency assets before the summer rollover.\n",
     "EXIT_LOCAL_CURRENCY_ASSETS"),
    ("for-now-take-position", "soros_reflexive_hypothesis_trade_construction",
     "The prevailing bias treats shipping lessors as safe. A self-reinforcing feedback loop runs through their "
     "lenders. Whether the market confirms it is still to be seen. For now: take the pilot position.\n",
     "TAKE_POSITION"),
    ("we-stay-balanced", "marks_market_cycle_positioning",
     "Take the market's temperature: three hot readings and three cold ones, so the market is neutral, not hot.\n"
     "Position against the pendulum: in a neutral market the balanced mix fits.\n\nWe stay balanced.\n", "BALANCED"),
    ("neutral-signal-then-first-person-pass", "munger_business_quality_price",
     '{"signal": "neutral", "confidence": 55, "reasoning": "A simple business with high return on capital and a '
     'durable competitive advantage. The fair price test fails: a 5% expected return is under the 10% I need. '
     "I'll pass at this price and look again lower.\"}\n", "DECLINE"),
    ("other-investor-json", "graham_intrinsic_value_margin_of_safety",
     '{"researchers": {\n  "benjamin_graham": {"analysis": "Margin of safety: the price is above two-thirds of the '
     'formula value.", "verdict": "AVOID"},\n  "philip_fisher": {"analysis": "Great research pipeline.", '
     '"verdict": "BUY"}\n}}\n', "DECLINE"),
    ("outcome-declined", "klarman_downside_first_process",
     "Downside assessment: passed narrowly. Position sizing and portfolio risk: at 9% the bad case costs 2.6% of the "
     "fund, over our 2% budget.\n\nOutcome: declined as proposed.\n", "DECLINE"),
    ("decision-against", "buffett_share_repurchase",
     "1. Ample funds beyond business needs? Yes.\n2. Purpose serves continuing owners? No, it offsets option "
     "dilution.\n\nDecision: against.\n", "NO_REPURCHASE"),
    ("proposal-to-buy-is-no-verdict", "klarman_downside_first_process",
     "The team's proposal to buy Dunmore Glass came to the panel on Monday. Downside assessment: the bad case loses "
     "30%, over our 25% line. That is where the review stopped; the margin of safety was not examined.\n", None),
    ("disclosure-is-no-verdict", "greenblatt_magic_formula_screen",
     "The market-capitalisation floor is met and the combined rank is 6th, inside the top group. I would buy it.\n\n"
     "Disclosure: I have no position in the shares.\n", "INVEST"),
]


@pytest.mark.parametrize(("card", "text", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_stated_decision_is_the_final_verdict(card: str, text: str, expected: str | None) -> None:
    result = parse_response(text, card, embedder=False)
    assert result.status == "ok", result.reason
    assert result.final_verdict == expected


def test_company_list_item_is_no_invented_gate() -> None:
    """A numbered list of companies with tickers, each with a verdict word, names companies, not gates the card lacks
    (bug kind: a company name read as an invented gate, FM-1 false positive)."""
    text = ("Two candidates from this month's screen.\n\n"
            "1. Harrowgate Mills (HGM) passes the market-capitalisation floor and its combined rank is 8th, in the top group.\n"
            "2. Pellam Shipping (PLSH) fails: a combined rank of 61st.\n\n"
            "Harrowgate goes into the model portfolio.\n")
    result = parse_response(text, "greenblatt_magic_formula_screen", embedder=False)
    assert [i.name for i in result.invented] == []
    assert result.final_verdict == "INVEST"


def test_decided_module_examples() -> None:
    """The examples in :mod:`ipb.scoring.parse._decided` (relative clauses, purpose infinitives, company labels) and of
    its decision labels, whose :func:`decision_label_before` lives in :mod:`ipb.scoring.parse._closing` since stop 28
    (its 4 example lines moved with it: 10 in all, as before)."""
    import doctest

    import ipb.scoring.parse._closing as closing
    import ipb.scoring.parse._decided as decided

    decided_result = doctest.testmod(decided)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    for test in finder.find(closing.decision_label_before, "decision_label_before", globs={"decision_label_before": closing.decision_label_before}):
        runner.run(test)
    label_counts = runner.summarize(verbose=False)
    assert decided_result.attempted + label_counts.attempted >= 10
    assert decided_result.failed == 0 and label_counts.failed == 0
