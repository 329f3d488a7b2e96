"""Readings the stop-34 parser changes got wrong on texts written to break them (s34break; issue 13; paper §7.5).

Two kinds, each a general cause:

- The closing paragraph a decision label of another language opens ("结论：", "Conclusión:", "Fazit:") set the label as
  the final cue of its first sentence, so an outcome word there won over the decision a later sentence states: a
  conditional ("if the price halves, buy"), another investor's view, a list of options. An English "Conclusion:",
  also a French label, lost its earlier reading the same way ("Conclusion: Buffett would invest. We decline." read
  INVEST). The paragraph is now final without a cue of its own: its sentences are weighed as an English conclusion's.
- A run of N items read as the card's N gates by place (:mod:`ipb.scoring.parse._positional`) took rows that are not
  gates: a table of peer companies, another investor's checklist, and a list of the writer's own after every gate was
  already read by its name.

Every text was written for these tests; each expected reading was worked by hand against the card.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

GRAHAM = "graham_seven_tests_defensive"  # pass INVEST, fail DECLINE
LYNCH = "lynch_portfolio_story_review"  # 4 gates; pass HOLD, fail SELL
GRAHAM_BODY = (
    "Adequate Size of the Enterprise: PROCEED, sales near $9bn.\n"
    "Sufficiently Strong Financial Condition: REJECT, the current ratio is 1.3.\n"
    "Earnings Stability: PROCEED, ten years without a loss.\n\n"
)


@pytest.mark.parametrize("closing", [
    # conclusion: if the price fell below 20 it could be bought. For now, not buying.
    "结论：如果价格跌到 20 元以下，可以买入。目前不买。",
    # conclusion: Buffett would have bought back then, but by Graham's tests we do not buy.
    "结论：巴菲特当年会买入，但按格雷厄姆的标准，我们不买。",
    # conclusion: option one buy; option two wait; option three do not buy. We take option three.
    "结论：选项一，买入；选项二，观望；选项三，不买。我们选择选项三。",
    # Japanese: buy if the price halves; for now, pass.
    "結論：株価が半分になれば買い。現時点では見送り。",
    # Spanish: Buffett would say buy, but by Graham's criteria we would not buy it.
    "Conclusión: Buffett diría comprar, pero con los criterios de Graham no la compraríamos.",
    # German: another analyst recommends buying. We say: do not buy.
    "Fazit: Ein anderer Analyst empfiehlt Kaufen. Wir sagen: nicht kaufen.",
    # English (also a French label): another investor's buy, then our decline
    "Conclusion: Buffett would invest. We decline.",
    # French: if the price halves, buy. Today, do not buy.
    "Conclusion : si le cours baisse de moitié, acheter. Aujourd'hui, ne pas acheter.",
])
def test_first_sentence_of_a_labelled_close_does_not_outrank_the_decision(closing: str) -> None:
    assert parse_response(GRAHAM_BODY + closing, GRAHAM, embedder=False).final_verdict == "DECLINE"


def test_a_table_of_peer_companies_is_not_read_as_the_gates() -> None:
    text = ("Peers of Hanover Foods, for scale.\n\n"
            "| Company | P/E | Growth | Verdict |\n|---|---|---|---|\n"
            "| Acme Snacks | 12 | 15% | PASS |\n| Birch Bakery | 30 | 5% | FAIL |\n"
            "| Cedar Mills | 18 | 12% | PASS |\n| Dune Dairy | 25 | 3% | FAIL |\n\nWe keep Hanover Foods: HOLD.")
    r = parse_response(text, LYNCH, embedder=False)
    assert [g.how for g in r.gates if g.how.startswith("position")] == []


def test_another_investors_checklist_is_not_read_as_the_gates() -> None:
    text = ("For comparison, Buffett's own checklist on the same stock:\n"
            "1. Understandable business: PASS\n2. Favourable long-term economics: FAIL\n"
            "3. Able and honest managers: PASS\n4. Sensible price: FAIL\n\nFinal: HOLD.")
    r = parse_response(text, LYNCH, embedder=False)
    assert [g.gate for g in r.gates] == []
    assert len(r.invented_gates) == 4  # the titles stay what they were before the positional reading


def test_a_list_after_every_gate_was_named_keeps_its_own_titles() -> None:
    text = ("Story Broken or Fundamentals Deteriorated: PROCEED, the story holds.\n"
            "P/E Far Above the Growth Rate: PROCEED, growth 14% at a P/E of 12.\n"
            "Category-Specific Sell Signal: PROCEED, no exit signal yet.\n"
            "A Better Opportunity: PROCEED, no replacement researched.\n\n"
            "Risks I watch:\n- Input costs: fail if wheat doubles\n- Competition: pass for now\n- Debt: pass\n"
            "- Key man: fail if the founder leaves\n\nDecision: HOLD.")
    r = parse_response(text, LYNCH, embedder=False)
    assert [(g.gate, g.verdict, g.how) for g in r.gates] == [(k, "PROCEED", "name") for k in (1, 2, 3, 4)]
    assert r.invented_gates == ["Competition", "Debt"]  # as before the positional reading


@pytest.mark.parametrize("closing, want", [
    # the act judged, not done: read INVEST (0.60) in stop 34, None after; since stop 35 (0e5c02c, _judged.py) an act
    # judged wrong is the act refused, so the card's fail outcome
    ("Verdict: buying at this price would be a mistake.", "DECLINE"),
    ("5/ Verdict: buying here would be a mistake.", "DECLINE"),
    ("Verdict: buying, because the price is low.", "INVEST"),  # a reason after the act: the act is the decision
    ("Verdict: buying.", "INVEST"),
])
def test_an_act_after_a_decision_label_is_no_decision_when_a_judgement_follows(closing: str, want: str | None) -> None:
    assert parse_response(GRAHAM_BODY + closing, GRAHAM, embedder=False).final_verdict == want
