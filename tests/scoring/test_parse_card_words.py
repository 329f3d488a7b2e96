"""Verdicts in the words real analyses use: closing idioms, a checklist's "?" mark, appraisals as a clause's
predicate, materiality, and sentence ends after "+1.2pp." (issue 13, item 2: labels with answers, final verdicts in
the wild, verdict-word senses).

Answers written for these tests; every expected reading was worked by hand against the bundled card named beside
each constant. Guards (a rule that must not fire) sit beside each positive test.
"""

from __future__ import annotations

import pytest

from ipb.scoring._sentences import sentence_spans
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._predicate import predicative
from parse_support import read_gates as _read

QUALITY = "munger_business_quality_price"  # 1 understandable, 2 return on capital, 3 advantage, 4 management, 5 price; INVEST / DECLINE
SEVEN = "graham_seven_tests_defensive"  # 1 size, 2 financial condition, 3 earnings stability, 4 dividends, 5 growth, 6 P/E, 7 P/B
MACHINE = "dalio_economic_machine_positioning"  # 1 growth vs expectations (proceed only), 2 inflation vs expectations, ...; TILT / HOLD_BALANCED_MIX
SIZING = "soros_conviction_weighted_position_sizing"  # 1 thesis confirmation, ...; SIZE_UP / CUT

_GATES = ("Gate 1 - Understandable Business: PROCEED. It makes labels.\n"
          "Gate 2 - High Return on Capital: PROCEED. ROIC of 21%.\n"
          "Gate 5 - Fair Price: REJECT. 38x earnings.\n\n")


def _final(text: str, card: str = QUALITY) -> str | None:
    return parse_response(text, card, embedder=False).final_verdict


# ---------------------------------------------------------------- 1. closing idioms for the final verdict


@pytest.mark.parametrize(("closing", "final"), [
    ("I wouldn't touch it.", "DECLINE"),
    ("We would not go near the shares.", "DECLINE"),
    ("Steer clear.", "DECLINE"),
    ("A hard pass for us.", "DECLINE"),
    ("Count me out.", "DECLINE"),
    ("Uninvestable, in my view.", "DECLINE"),
    ("This is a buy.", "INVEST"),
    ("It is a buy below $40.", "DECLINE"),  # a limit under today's price, as for a bare BUY
    ("Worth owning.", "INVEST"),
    ("Not worth owning.", "DECLINE"),  # negation flips the idiom
    ("I'm a buyer here.", "INVEST"),
    ("Avoid for now.", "DECLINE"),  # a report word opening the closing sentence of a last paragraph that names no gate
])
def test_a_closing_idiom_is_the_final_verdict(closing: str, final: str) -> None:
    assert _final(_GATES + closing + "\n") == final


def test_a_stated_outcome_word_outranks_an_idiom() -> None:
    text = _GATES + "Friends who own it say it is worth owning. Final verdict: DECLINE.\n"
    assert _final(text) == "DECLINE"


def test_an_idiom_inside_a_gate_sentence_without_a_cue_is_no_final_verdict() -> None:
    # "worth owning" after "is" in the middle of the analysis, no "I"/"we"/verdict cue: no final verdict read from it
    text = "Gate 3 - Durable Competitive Advantage: the brand is worth owning for its pricing power. PROCEED.\n"
    assert _final(text) is None


def test_a_buy_signal_is_not_a_buy() -> None:
    assert _final(_GATES + "It is a buy signal on the chart, but I'd wait.\n") != "INVEST"


# ---------------------------------------------------------------- 2. a checklist line opened by "?"


def test_a_leading_question_mark_is_inconclusive_and_the_label_is_read() -> None:
    text = ("\u2705 Adequate size: sales $1.9bn\n"
            "? P/E: 14.1x on a three-year average that includes a one-off gain\n"
            "- ? Dividend record: 19 of the last 20 years found so far\n"
            "\u274c Price to assets: P/B 2.1, product 29.6\n\n"
            "Overall: DECLINE\n")
    assert _read(text, SEVEN) == [(1, "PROCEED"), (6, "INCONCLUSIVE"), (4, "INCONCLUSIVE"), (7, "REJECT")]


def test_a_question_mark_mark_yields_to_a_committed_word_on_its_line() -> None:
    text = "? P/E: 14.1x on the three-year average; it passes, if only just.\n"
    assert _read(text, SEVEN) == [(6, "PROCEED")]


def test_a_question_ending_a_line_is_no_mark() -> None:
    text = "P/E: is 14.1x moderate enough?\nPrice to assets: P/B 1.2, product 16.9. PROCEED.\n"
    assert (6, "INCONCLUSIVE") not in _read(text, SEVEN)


# ---------------------------------------------------------------- 3. appraisals as a clause's predicate


@pytest.mark.parametrize(("words", "expected"), [
    (["incentives", "are"], False),
    (["both"], False),
    (["the", "thesis", "is", "clearly"], False),
    (["leverage", "is", "not"], True),
    (["the", "moat", "isn't"], True),
    (["0", "9pp", "which", "is"], False),
    (["a"], None),  # "a strong franchise": inside a noun phrase
    (["the", "figure", "that", "is"], None),  # a relative clause is no short subject
    (["the", "one", "line", "of", "the", "report", "nobody", "reads", "is"], None),  # a subject longer than six words
    ([], None),
])
def test_predicative(words: list[str], expected: bool | None) -> None:
    assert predicative(words) is expected


def test_a_predicate_appraisal_is_a_hedged_verdict() -> None:
    text = ("Thesis check: we are long regional lenders on wider margins. Deposit costs rose as fast as loan yields, "
            "so the thesis is contradicted, not merely delayed.\n")
    assert _read(text, SIZING) == [(1, "REJECT")]


def test_a_denied_predicate_flips() -> None:
    text = "Financial condition: current ratio 2.4; long-term debt is not excessive.\n"
    assert _read(text, SEVEN) == [(2, "PROCEED")]


def test_an_appraisal_inside_a_noun_phrase_is_still_no_verdict() -> None:
    text = "Financial condition: a strong quarter for orders, current ratio 1.4.\n"
    assert _read(text, SEVEN) == [(2, None)]
    # the figure set against the bar's own figure is the gate's verdict (stop 29, _stated_bars._AGAINST), and "strong"
    # still adds no PROCEED that would contradict it
    text = "Financial condition: a strong quarter for orders, current ratio 1.4 against the 2.0 minimum.\n"
    assert _read(text, SEVEN) == [(2, "REJECT")]


def test_a_committed_word_outranks_a_predicate_appraisal() -> None:
    text = "Financial condition: the order book is strong. Current ratio 1.4 against 2.0: FAIL.\n"
    assert _read(text, SEVEN) == [(2, "REJECT")]


def test_a_conditional_predicate_states_nothing() -> None:
    text = "Financial condition: if the covenant is waived the balance sheet is strong. Current ratio 1.9.\n"
    assert _read(text, SEVEN) == [(2, None)]


# ---------------------------------------------------------------- 4. materiality, and "+1.2pp." ending a sentence


@pytest.mark.parametrize(("answer", "verdict"), [
    ("+1.2pp vs what is discounted. Material.", "PROCEED"),  # the gate's condition (a material gap) holds: it proceeds
    ("+1.2pp, which is material.", "PROCEED"),
    ("+0.2pp. Immaterial.", "REJECT"),
    ("+0.2pp; the gap is not material.", "REJECT"),
    ("+0.2pp; the gap isn't material.", "REJECT"),
])
def test_materiality_reads_through_the_gates_condition(answer: str, verdict: str) -> None:
    assert _read("Growth surprise: " + answer + "\n", MACHINE) == [(1, verdict)]


def test_a_material_noun_phrase_is_no_verdict() -> None:
    assert _read("Growth surprise: a material gap may open next year; +0.4pp today.\n", MACHINE) == [(1, None)]


def test_a_unit_glued_to_a_number_ends_a_sentence_but_pages_do_not() -> None:
    t = "Gap +1.2pp. Favourable. See pp. 12-14 of the deck."
    assert [t[s:e] for s, e in sentence_spans(t, 0, len(t))] == ["Gap +1.2pp.", "Favourable.", "See pp. 12-14 of the deck."]


def test_materiality_says_nothing_for_a_gate_whose_named_condition_is_not_its_pass() -> None:
    # klarman_downside_first_process gate 2 "Margin of Safety" has a reject test: "Material." could mean either
    text = "Margin of safety: price $30 against a $41 value. Material.\n"
    assert _read(text, "klarman_downside_first_process") == [(2, None)]


# ---------------------------------------------------------------- 5. price appraisals; a closing label's verdict


@pytest.mark.parametrize(("answer", "verdict"), [
    ("38x earnings. Expensive.", "REJECT"),
    ("11x earnings; the stock is cheap.", "PROCEED"),
    ("24x earnings. Not cheap.", "REJECT"),  # the appraisal denied
    ("9x earnings, undervalued.", "PROCEED"),
])
def test_price_appraisals(answer: str, verdict: str) -> None:
    assert _read("Fair price: " + answer + "\n", QUALITY) == [(5, verdict)]


def test_cheap_for_a_reason_is_no_verdict() -> None:
    assert _read("Fair price: at 6x it is cheap for a reason.\n", QUALITY) == [(5, None)]


def test_a_verdict_word_after_a_label_in_the_closing_sentence_is_the_final_verdict() -> None:
    text = ("1. Circle of competence: ice cream, simple. PROCEED.\n3. Management integrity: the CFO left mid-sale. "
            "INCONCLUSIVE.\n\nNot ready to decide: INCONCLUSIVE until we have heard the CFO.\n")
    assert _final(text, "buffett_acquisition_checklist") == "INCONCLUSIVE"


def test_materiality_reads_for_a_pass_named_gate_with_a_kill_criterion_too() -> None:
    # graham_intrinsic_value_margin_of_safety gate 4 "Margin of Safety" has a proceed test and no reject test
    text = "Margin of safety: price $30 against a Graham value of $47. Material.\n"
    assert _read(text, "graham_intrinsic_value_margin_of_safety") == [(4, "PROCEED")]


# ---------------------------------------------------------------- 6. a gate's name asked as a question and answered


def test_a_gate_name_asked_and_answered_is_its_verdict() -> None:
    text = ("Understandable business? Yes: it sells glue to carpenters.\n"
            "High return on capital? No - ROIC has been 7% for five years.\n"
            "Is there a durable advantage? Sure, the switching costs are real.\n"
            "Fair price? Unknown until the audited accounts are out.\n")
    assert _read(text, QUALITY) == [(1, "PROCEED"), (2, "REJECT"), (3, "PROCEED"), (5, "INCONCLUSIVE")]


def test_a_gate_named_by_its_failure_asked_and_answered_reads_in_the_failures_sense() -> None:
    # lynch_portfolio_story_review gate 1 "Story Broken or Fundamentals Deteriorated": the question names the failure
    # ("broken"), so "No" says the story holds (PROCEED) and "Yes" that it broke (REJECT); until s24embed this was left
    # unread (None), which issue 13 lists as a misread (scoring/parse/_answered.py, _ANSWERED)
    assert _read("Story broken? No. Sales still grow 10% a year.\n", "lynch_portfolio_story_review") == [(1, "PROCEED")]
    assert _read("Story broken? Yes. Sales fell 10% this year.\n", "lynch_portfolio_story_review") == [(1, "REJECT")]


def test_an_answer_that_opens_a_new_clause_is_no_answer() -> None:
    # "No one ..." answers nothing: the word after "No" is the subject of a new clause
    text = "High return on capital? No one at the meeting asked. ROIC was 19%.\n"
    assert _read(text, QUALITY) == [(2, None)]


def test_a_predicate_whose_subject_is_another_gates_criterion_is_not_this_gates_verdict() -> None:
    # only gate 2 is named; "the advantage is not durable" appraises gate 3's criterion, so gate 2 keeps no verdict from it
    text = "Return on capital: 28% on tangible equity over the cycle. Trouble is, the advantage is not durable.\n"
    assert _read(text, QUALITY) == [(2, None)]
