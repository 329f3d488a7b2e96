"""Layouts of the n27 batch as general phenomena (issue 13): screener record lines, labels with a parenthetical
detail, offered choices and unrendered placeholders, camelCase JSON keys, a thread printed twice.

Short texts written for these tests (not corpus texts); the embedder is off.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._layout import unwrap_hard_wrapped
from tests.scoring.parse_support import gate_verdicts

GIV = "graham_intrinsic_value_margin_of_safety"  # 1 normal earnings, 2 growth estimate, 3 formula value, 4 margin of safety
BUFFETT = "buffett_acquisition_checklist"  # 1 circle of competence, 2 moat, 3 management, 4 value, 5 margin of safety


# ---------------------------------------------------------------- screener lines: "label (detail): Pass"


@pytest.mark.parametrize("text", [
    "Normal earnings (five-year average EPS $3.10, no loss year): Pass\nGrowth estimate (7% expected against a 5% record): Fail\n",
    "Average earnings (mean of the last five years, $2.40 a share): PASS\nExpected growth rate (9% a year vs 4% achieved): FAIL\n",
    "Earning power (seven-year mean EPS of 1.85, steady): Pass\nGrowth assumption (12% projected, far above the 6% track record): Fail\n",
])
def test_screener_record_lines_are_two_records_each_with_its_verdict(text):
    assert unwrap_hard_wrapped(text) == text  # two records, never one wrapped sentence
    assert gate_verdicts(text, GIV) == {1: "PROCEED", 2: "REJECT"}


def test_a_wrapped_sentence_after_a_record_line_still_joins():
    text = "Normal earnings: Pass and the growth estimate for the next seven years is\nmodest at 4% a year, so it passes.\n"
    assert "\n" not in unwrap_hard_wrapped(text).rstrip("\n")


@pytest.mark.parametrize("text,gate,verdict", [
    ("Safety margin (price $30 against a value of $52): Pass\n", 4, "PROCEED"),
    ("Moat (pricing power, 40-year brand, switching costs): Fail\n", 2, "REJECT"),
])
def test_a_label_with_a_parenthetical_detail_names_its_gate(text, gate, verdict):
    card = GIV if gate == 4 else BUFFETT
    assert gate_verdicts("Screen for KELP\n\n" + text, card).get(gate) == verdict


# ---------------------------------------------------------------- offered choices and unrendered placeholders


@pytest.mark.parametrize("slot", ["PASS/FAIL", "<PASS/FAIL>", "[PASS | FAIL]", "PROCEED / REJECT", "Pass / Fail",
                                  "{verdict}", "{{ gate1.verdict }}", "[VERDICT]", "<verdict>"])
def test_a_template_slot_is_no_verdict(slot):
    text = f"Normal Earnings: {slot}\nMargin of Safety: FAIL\n"
    # since stop 31 the slot is no mention either: gate 1 is left out of the gate sequence (was {1: None, 4: "REJECT"};
    # tests/scoring/test_parse_template_slots.py)
    assert gate_verdicts(text, GIV) == {4: "REJECT"}


def test_a_verdict_beside_a_slash_that_is_not_a_choice_still_counts():
    assert gate_verdicts("Normal Earnings: PASS / 5-yr EPS $3.10\nMargin of Safety: FAIL\n", GIV) == {1: "PROCEED", 4: "REJECT"}


def test_an_unrendered_final_verdict_is_none():
    for slot in ("{final_verdict}", "{{ verdict }}", "INVEST / DECLINE", "INVEST|DECLINE"):
        result = parse_response(f"Normal Earnings: PASS\nMargin of Safety: FAIL\n\nFinal verdict: {slot}\n", GIV, embedder=False)
        assert result.final_verdict is None, slot


# ---------------------------------------------------------------- JSON records


@pytest.mark.parametrize("text", [
    '{"ticker": "KELP", "normalEarnings": "pass", "growthEstimate": "fail", "marginOfSafety": true}',
    '{\n  "ticker": "KELP",\n  "normal_earnings": "pass",\n  "growth_estimate": "fail",\n  "margin_of_safety": true\n}',
    '{\n  "ticker": "KELP",\n  "normal-earnings": "PASS",\n  "growth-estimate": "FAIL",\n  "margin-of-safety": true\n}',
])
def test_json_keys_in_any_case_style_name_their_gates(text):
    assert gate_verdicts(text, GIV) == {1: "PROCEED", 2: "REJECT", 4: "PROCEED"}


@pytest.mark.parametrize("text,want", [
    ('{"drift_check": false, "motive_check": true, "cost_check": true}', {1: "REJECT", 2: "PROCEED", 3: "PROCEED"}),
    ('{"driftCheck": true, "costCheck": false, "is_cyclical": true}', {1: "PROCEED", 3: "REJECT"}),
])
def test_a_key_named_by_part_of_a_gate_name_takes_its_yes_or_no_as_the_verdict(text, want):
    assert gate_verdicts(text, "dalio_all_weather_rebalancing") == want  # 1 risk drift, 2 strategic motive, 3 implementation cost


def test_a_camel_case_key_that_names_no_gate_states_nothing():
    assert gate_verdicts('{"normalEarnings": "pass", "isCyclical": true, "marginOfSafety": false}', GIV) == {1: "PROCEED", 4: "REJECT"}


# ---------------------------------------------------------------- a thread with every post printed twice


def test_a_post_printed_twice_is_one_statement():
    posts = ["1/ Looking at KELP with the Graham checklist.",
             "2/ Normal earnings: the five-year average EPS is $3.10, a fair base. Pass.",
             "3/ Growth: 7% expected against a 5% record is too rich. Fail.",
             "4/ Margin of safety: price $30 against a value of $52, so it clears. Pass.",
             "5/ Verdict: DECLINE"]
    once = "\n\n".join(posts) + "\n"
    twice = "\n\n".join(p + "\n\n" + p for p in posts) + "\n"
    a, b = (parse_response(t, GIV, embedder=False) for t in (once, twice))
    assert [(g.gate, g.verdict) for g in b.gates] == [(g.gate, g.verdict) for g in a.gates] == [(1, "PROCEED"), (2, "REJECT"), (4, "PROCEED")]
    assert a.final_verdict == b.final_verdict == "DECLINE"


# ---------------------------------------------------------------- run-in heads: "Permanent loss. Ninety-two percent ..."

MARKS_RR = "marks_risk_return_assessment"  # 1 price vs value, 2 return vs risk, 3 permanent loss, 4 second-level, 5 pendulum


def test_run_in_heads_label_their_paragraphs():
    text = ("Memo on the office REIT.\n\n"
            "Price and value. At 18 the shares trade well below the 26 a share the leases support.\n\n"
            "Return for risk. We expect 12% a year against 4% on government bonds.\n\n"
            "Permanent loss. Ninety percent of the space is let on long leases.\n")
    result = parse_response(text, MARKS_RR, embedder=False)
    assert [g.gate for g in result.gates][:3] == [1, 2, 3]
    assert [g.how for g in result.gates][:2] == ["fuzzy", "fuzzy"]


@pytest.mark.parametrize("text", [
    "Note on KELP.\n\nNo. Nobody here is calling the cycle.\n\nThanks. We will write again next week.\n",
    "Note on KELP.\n\nThe fix is cheap. It goes through this week.\n",
])
def test_a_short_opening_sentence_is_no_run_in_head(text):
    result = parse_response(text, MARKS_RR, embedder=False)
    assert not [g for g in result.gates if g.how == "fuzzy"] and not result.invented_gates


# ---------------------------------------------------------------- scope appraisals: "which its policy permits"

PIF = "pif_dual_kill_investment_screen"  # 1 portfolio policy fit, 2 IRR hurdle, 3 Vision 2030 alignment


@pytest.mark.parametrize("clause,verdict", [
    ("The stake sits in the fund's International Strategic portfolio, which its investment policy permits.", "PROCEED"),
    ("The stake sits in the International Strategic portfolio; its policy allows it.", "PROCEED"),
    ("Casino stakes are not permitted in any portfolio, so this one is out.", "REJECT"),
])
def test_what_the_rules_let_in_or_keep_out_is_the_scope_gate_verdict(clause, verdict):
    text = f"PIF stake in a port operator.\n\n{clause}\n\nThe projected IRR of 12% clears the 10% hurdle.\n"
    assert gate_verdicts(text, PIF).get(1) == verdict
