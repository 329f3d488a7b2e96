"""Soft numbering words, grouped labels with one verdict per gate, and a decision cue inside a line (issue 13).

Answers written for these tests, modelled on the adversarial tester's and the new user's findings (breaker 3
findings 1 and 2, new user 3 finding 2), never copied from the corpus; every expected reading was worked by hand
against the bundled card named beside each constant.
"""

from __future__ import annotations

from ipb.scoring.parse import parse_response
from parse_support import read_gates as _read

BUYBACK = "buffett_share_repurchase"  # 1 ample funds, 2 price below value, 3 published price limit, 4 purpose; REPURCHASE / NO_REPURCHASE
QUALITY = "munger_business_quality_price"  # five gates; INVEST / DECLINE
SEVEN = "graham_seven_tests_defensive"  # seven tests; INVEST / DECLINE
MARKS = "marks_risk_return_assessment"  # five lenses ("five lenses", "One lens of an n-of-m join")

_BUYBACK_BODY = ("Gate 1 - Ample Funds: PROCEED. Cash of $9B covers every operating need twice over.\n"
                 "Gate 2 - Price Below Value: PROCEED. Shares at $41 against a value near $60.\n"
                 "Gate 3 - Published Price Limit: PROCEED. The board set a ceiling of $48.\n"
                 "Gate 4 - Purpose: PROCEED. The buyback serves the owners who stay.\n\n"
                 "Final verdict: REPURCHASE\n")
_QUALITY_BODY = ("Gate 1 - Understandable Business: PROCEED. It sells industrial glue.\n"
                 "Gate 2 - High Return on Capital: PROCEED. ROIC of 22%.\n"
                 "Gate 3 - Durable Competitive Advantage: PROCEED.\n"
                 "Gate 4 - Trustworthy Management: PROCEED.\n"
                 "Gate 5 - Fair Price: REJECT. 40x earnings.\n\n"
                 "Final verdict: DECLINE\n")


# ---------------------------------------------------------------- 1. "Question 4", "Condition 4" in prose


def test_a_request_numbered_question_opening_the_answer_is_no_gate() -> None:
    text = "Question 3 from the shareholder letter: is a buyback sensible now?\n\n" + _BUYBACK_BODY
    assert _read(text, BUYBACK) == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED"), (4, "PROCEED")]


def test_a_question_number_with_of_the_is_no_gate_on_a_five_gate_card() -> None:
    text = "Question 2 of the memo asks whether we should own it.\n\n" + _QUALITY_BODY
    assert [g for g, _ in _read(text, QUALITY)] == [1, 2, 3, 4, 5]


def test_a_loan_condition_in_prose_is_no_gate() -> None:
    text = ("Gate 1: PROCEED. A plain business.\nGate 2: PROCEED. Returns of 19%.\nGate 3: PROCEED.\n"
            "Condition 4 of the credit agreement was waived in 2021, which we mention for completeness.\n"
            "Gate 5: REJECT. Far too dear.\n\nFinal verdict: DECLINE")
    assert _read(text, QUALITY) == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED"), (5, "REJECT")]


def test_a_condition_label_whose_section_judges_is_a_gate() -> None:
    text = ("Condition 1: PROCEED. We understand it.\nCondition 2: REJECT, returns of 6%.\n"
            "Condition 3 -\nThe moat is narrow. REJECT.\n\nFinal verdict: DECLINE")
    assert _read(text, QUALITY) == [(1, "PROCEED"), (2, "REJECT"), (3, "REJECT")]


def test_a_question_label_with_no_verdict_is_no_gate_on_a_card_that_has_no_questions() -> None:
    text = "Question 2: should we buy it at all?\n\n" + _QUALITY_BODY
    assert [g for g, _ in _read(text, QUALITY)] == [1, 2, 3, 4, 5]


def test_a_card_that_calls_its_gates_lenses_reads_lens_numbers_in_prose() -> None:
    # the Marks card counts its gates as "five lenses": "Lens 2 is favourable" names its second gate
    result = parse_response("Lens 1 clearly passes: price is 30% under value. Lens 2 fails, the premium is thin.\n\n"
                            "Final verdict: DECLINE", MARKS, embedder=False)
    assert [(g.gate, g.verdict) for g in result.gates][:2] == [(1, "PROCEED"), (2, "REJECT")]
    # ... but never before "of the": our review's own numbering
    result = parse_response("Lens 3 of our internal review was skipped.\nLens 1: PROCEED.\nLens 2: PROCEED.\n\nDECLINE",
                            MARKS, embedder=False)
    assert [g.gate for g in result.gates] == [1, 2]


# ---------------------------------------------------------------- 2. grouped labels


def test_a_grouped_label_with_respectively_gives_each_gate_its_own_verdict() -> None:
    text = ("Tests 3 and 4: PROCEED and REJECT respectively. Profits every year; the dividend stopped in 2015.\n"
            "Tests 1, 2: PROCEED\nTest 5: PROCEED\nTest 6: PROCEED\nTest 7: PROCEED\n\nFinal verdict: DECLINE")
    assert _read(text, SEVEN)[:2] == [(3, "PROCEED"), (4, "REJECT")]


def test_a_grouped_label_with_a_comma_list_of_verdicts_distributes_them_in_order() -> None:
    text = ("Tests 4 and 5: REJECT, PROCEED\nTests 1-3: PROCEED\nTest 6: PROCEED\nTest 7: PROCEED\n\nFinal verdict: DECLINE")
    assert _read(text, SEVEN)[:2] == [(4, "REJECT"), (5, "PROCEED")]


def test_a_grouped_label_with_one_verdict_gives_it_to_every_gate() -> None:
    text = "Tests 4 and 5: both REJECT.\nTests 1-3: PROCEED\nTest 6: PROCEED\nTest 7: PROCEED\n\nFinal verdict: DECLINE"
    assert _read(text, SEVEN)[:2] == [(4, "REJECT"), (5, "REJECT")]


def test_a_grouped_label_with_more_verdicts_than_gates_is_not_split_and_says_so() -> None:
    text = ("Tests 4 and 5: REJECT, PROCEED, REJECT\nTests 1-3: PROCEED\nTest 6: PROCEED\nTest 7: PROCEED\n\n"
            "Final verdict: DECLINE")
    result = parse_response(text, SEVEN, embedder=False)
    assert [(g.gate, g.verdict) for g in result.gates][:2] == [(4, "REJECT"), (5, "REJECT")]
    assert any("states 3 verdicts for 2 gates" in n for n in result.notes)


def test_an_out_of_range_gate_in_a_grouped_label_is_an_invented_gate() -> None:
    result = parse_response("Gates 2 and 12: REJECT\nGate 1: PROCEED\n\nFinal verdict: DECLINE", QUALITY, embedder=False)
    assert [(g.gate, g.verdict) for g in result.gates] == [(2, "REJECT"), (1, "PROCEED")]
    assert result.invented_gates == ["Gate 12"]


# ---------------------------------------------------------------- 3. a decision cue inside a line


def test_a_lower_case_outcome_after_a_decision_cue_inside_a_line_is_the_final_verdict() -> None:
    body = _BUYBACK_BODY.replace("Final verdict: REPURCHASE\n", "")
    text = body + "The shares trade at 1.3x our value, well above any sensible limit. Decision: no repurchase."
    result = parse_response(text.replace("PROCEED. Shares at $41 against a value near $60", "REJECT. Shares above value"),
                            BUYBACK, embedder=False)
    assert result.final_verdict == "NO_REPURCHASE"


def test_a_mixed_case_outcome_after_a_verdict_cue_inside_a_line_is_the_final_verdict() -> None:
    body = _QUALITY_BODY.replace("Final verdict: DECLINE\n", "")
    result = parse_response(body + "Nothing else matters at 40x. Verdict: decline.", QUALITY, embedder=False)
    assert result.final_verdict == "DECLINE"
    result = parse_response(body + "Everything else is fine; my recommendation - Decline", QUALITY, embedder=False)
    assert result.final_verdict == "DECLINE"


def test_an_outcome_word_in_running_prose_without_a_cue_is_still_not_read_as_lower_case() -> None:
    body = _QUALITY_BODY.replace("Final verdict: DECLINE\n", "").replace("Gate 5 - Fair Price: REJECT. 40x earnings.", "Gate 5 - Fair Price: unclear.")
    result = parse_response(body + "Some funds decline to own glue makers. The decision is yours.", QUALITY, embedder=False)
    assert result.final_verdict != "DECLINE"


def test_an_ordinal_condition_in_prose_still_counts_the_cards_gates() -> None:
    text = ("The shares change hands at half of net current assets, so the first condition is met. But the losses of "
            "$5M a year eat those assets, and the second condition fails.\n\nDECLINE")
    assert _read(text, "graham_net_net_screen") == [(1, "PROCEED"), (2, "REJECT")]


def test_a_grouped_label_is_not_split_by_the_conclusion_in_a_later_paragraph() -> None:
    # the section's one stated verdict (N/A) goes to both gates; the closing INCONCLUSIVE is the final verdict's
    text = ("Value added: 11.8% against 9.0% for the benchmark. PROCEED.\n\n"
            "Factor substitutability: no regression was supplied, so this gate is INCONCLUSIVE.\n\n"
            "Net of costs and risk budget: not applicable until the residual alpha is known.\n\n"
            "I would neither allocate nor redirect yet. INCONCLUSIVE until the attribution is in.")
    reading = _read(text, "cppib_total_portfolio_active_strategy")
    assert reading[2:] == [(3, "N/A"), (4, "N/A")]
