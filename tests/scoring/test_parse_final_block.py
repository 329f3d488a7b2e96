"""The closing paragraph an answer in another language opens with a decision label (issue 13, final verdicts on fresh
text; paper §7.5; ``scoring/parse/_final_block.py``).

"结论：", "結論：", "결론:", "Conclusión:" open the answer's close as "Conclusion:" does: the decision may stand anywhere
in that paragraph, not only right after the label. A per-criterion label inside a gate's paragraph stays that gate's,
and a closing sentence that marks criteria met and unmet ("条件 1、2 满足，条件 3 不满足") is a tally, no decision.
Every text was written for these tests; each expected verdict was worked by hand against the card's outcomes.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._final_block import closing_block

GRAHAM = "graham_seven_tests_defensive"  # pass INVEST, fail DECLINE
LYNCH = "lynch_portfolio_story_review"  # pass HOLD, fail SELL
GRAHAM_BODY = (
    "Adequate Size of the Enterprise: PROCEED, revenue is about $9bn.\n"
    "Sufficiently Strong Financial Condition: REJECT, current assets cover current liabilities only 1.3 times.\n"
    "Earnings Stability: PROCEED, no loss year in the decade.\n\n"
)
LYNCH_BODY = (
    "Story Broken or Fundamentals Deteriorated: PROCEED, same-store sales still grow 6%.\n"
    "P/E Far Above the Growth Rate: REJECT, 38x earnings against 15% growth.\n\n"
)


def _final(text: str, card: str) -> str | None:
    return parse_response(text, card, embedder=False).final_verdict


@pytest.mark.parametrize("closing, card, want", [
    # conclusion: cheap at first sight, not at a second look. Not buying.
    ("结论：表面上便宜，仔细看并不便宜。不买。", GRAHAM, "DECLINE"),
    # conclusion: in the top 30 this period; buy in tranches as planned
    ("结论：本期排名前 30，按计划分批买入。", GRAHAM, "INVEST"),
    # overall conclusion: fails (a prefix before the label, a gate word for the decision)
    ("总结论：不通过。价格没有留出余地。", GRAHAM, "DECLINE"),
    # Japanese: the story lives but the price ran ahead. Sell.
    ("結論：ストーリーは生きているが、株価が先に行きすぎた。売り。", LYNCH, "SELL"),
    # Korean: conclusion: sell Hanul Foods, switch to the cheaper peer
    ("결론: 한울식품 매도, 더 싼 종목으로 교체.", LYNCH, "SELL"),
])
def test_foreign_closing_label_opens_the_final_region(closing: str, card: str, want: str) -> None:
    body = GRAHAM_BODY if card == GRAHAM else LYNCH_BODY
    assert _final(body + closing, card) == want


def test_without_the_label_the_same_word_mid_paragraph_is_not_read() -> None:
    # the same closing sentence with no decision label: "不买" follows another clause of a plain paragraph, as before
    assert _final(GRAHAM_BODY + "表面上便宜，仔细看并不便宜。不买。", GRAHAM) is None


def test_a_label_inside_a_gate_paragraph_is_that_gates() -> None:
    t = "1. 护城河\n结论：通过\n2. 安全边际\n结论：不通过"
    assert closing_block(t, t.index("2.")) is None  # no blank line before it: inside the gate's paragraph
    assert closing_block(t + "\n\n结论：不买。", t.index("2.")) == (len(t) + 2, len(t) + 4, len(t) + 8)


def test_a_label_before_the_last_gate_is_not_the_close() -> None:
    t = "结论：先看三项。\n\n1. 护城河：通过\n\n2. 安全边际：不通过"
    assert closing_block(t, t.index("2.")) is None


def test_a_tally_of_criteria_met_and_unmet_states_no_decision() -> None:
    # conclusion: conditions 1 and 2 met, condition 3 not met -- both senses in one sentence: no decision read
    text = GRAHAM_BODY + "结论：条件 1、2 满足，条件 3 不满足。"
    assert _final(text, GRAHAM) is None
    # one sense alone is still the decision ("conclusion: not met")
    assert _final(GRAHAM_BODY + "结论：不满足。", GRAHAM) == "DECLINE"


@pytest.mark.parametrize("closing, want", [
    # German: result: a good business, not at this price. No buy -- onto the watch list.
    ("Ergebnis: Ein gutes Unternehmen, aber nicht zu diesem Preis.\nKein Kauf, auf die Beobachtungsliste.", "DECLINE"),
    # Spanish: conclusion: the company is good, the cushion too thin. Today we would not buy it.
    ("Conclusión: la empresa es buena, pero el margen es corto. Hoy no la compraríamos.", "DECLINE"),
])
def test_closing_words_of_other_languages(closing: str, want: str) -> None:
    assert _final(GRAHAM_BODY + closing, GRAHAM) == want


@pytest.mark.parametrize("closing, want", [
    ("5/ Verdict: buying the shares, a 3% starter.", "INVEST"),
    ("Decision: selling the position this week.", "DECLINE"),
    ("**Call** - passing.", "DECLINE"),
    ("Decision: passing.", "DECLINE"),
])
def test_an_act_as_a_decision_labels_value(closing: str, want: str) -> None:
    assert _final(GRAHAM_BODY + closing, GRAHAM) == want


@pytest.mark.parametrize("closing", [
    "Insider action: buying heavily in the last quarter.",
    "Analyst view: buying.",
])
def test_another_partys_act_after_a_label_is_no_decision(closing: str) -> None:
    # s34read must-fix 3: the insiders' or the analysts' buying is their act, not the answer's decision (the label
    # names someone else); before the fix both read INVEST
    assert _final(GRAHAM_BODY + closing, GRAHAM) is None


def test_an_act_without_its_decider_or_a_label_stays_unread() -> None:
    # "buying" after a noun, no label and no decider: a description ("the fund's buying power"), never a verdict
    assert _final(GRAHAM_BODY + "Analysts note heavy buying the shares saw in March.", GRAHAM) is None


SOROS = "soros_reflexive_hypothesis_trade_construction"  # pass TAKE_POSITION, fail ABANDON_HYPOTHESIS


def test_an_outcome_verb_inflected_from_a_root_ending_in_e() -> None:
    # TAKE_POSITION said as its decider's act in the progressive: "taking" does not start with "take"
    body = "Hypothesis: the lenders' loop is self-reinforcing. Test position: on, 1% short.\n\n"
    assert _final(body + "Serve: we are taking the position.", SOROS) == "TAKE_POSITION"
    assert _final(body + "We are taking the position.", SOROS) == "TAKE_POSITION"
    # not the decider: a report of someone else's trade is no decision
    assert _final(body + "Rivals were taking the position last year.", SOROS) is None
