"""How a verdict is read once its gate is found (issue 13: negation scope, verdict-word senses, which statement
wins, final verdicts in the wild, verdicts the final verdict entails).

Every answer here is written for this test, in my own words. Each test names the reading rule it pins down; the
expected readings are what a careful human reader takes from the text. Guard tests keep each rule inside its edges.
"""

from __future__ import annotations

import pytest
from ipb.engine.registry import compiled_card
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._entailed import ENTAILED_FACTOR, entailed_gates
from ipb.scoring.parse._types import GateTrace

SPINOFF = "greenblatt_spinoff_checklist"  # conjunction, INVEST / DECLINE
MACHINE = "dalio_economic_machine_positioning"  # regime_dependent: gate 4 classifies, gate 5 is every branch's gate
BUFFETT = "buffett_acquisition_checklist"  # conjunction, six gates
SEVEN = "graham_seven_tests_defensive"
BUBBLE = "dalio_bubble_detection_gauge"  # weighted threshold


def _parse(text: str, card: str):
    return parse_response(text, compiled_card(card).card, embedder=False)


def _gates(text: str, card: str) -> dict[int, str | None]:
    return {g.gate: g.verdict for g in _parse(text, card).gates}


# --------------------------------------------------------------------------- verdicts the final verdict entails

PERSONA = ('{"agent": "joel_greenblatt", "signal": "%s", "confidence": 71, "reasoning": "Institutional indifference: the spun-off '
           'unit is a tenth of the parent and pays nothing, so index funds must dump it. Insider incentives: the new CEO holds 4%% '
           'and took options instead of salary. Valuation versus peers: 7x EBIT against 12x."}')


def test_a_fact_only_bullish_answer_passes_every_gate_it_discusses() -> None:
    parsed = _parse(PERSONA % "bullish", SPINOFF)
    assert parsed.final_verdict == "INVEST"
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED")]
    for g in parsed.gates:
        assert g.how.endswith("+entailed") and g.verdict_span is None  # no verdict word states it
        assert g.confidence == pytest.approx(ENTAILED_FACTOR * parsed.final_confidence, abs=1e-3)
    assert any("clears them" in note for note in parsed.notes)


def test_a_bearish_answer_entails_no_gate_verdict() -> None:
    parsed = _parse(PERSONA % "bearish", SPINOFF)
    assert parsed.final_verdict == "DECLINE"
    assert all(g.verdict is None for g in parsed.gates)  # any one of them may be the gate that failed


def test_a_stated_verdict_is_never_overwritten() -> None:
    text = ("Institutional indifference: the unit is small and unloved. REJECT, there is no forced selling at all.\n"
            "Insider incentives: the CEO holds 4% of the shares.\n\nVerdict: INVEST.")
    assert _gates(text, SPINOFF) == {1: "REJECT", 2: "PROCEED"}


def test_a_gate_left_out_of_a_numbered_verdict_list_stays_undecided() -> None:
    text = ("Gate 1 PROCEED (a paint maker we understand); Gate 2 PROCEED; Gate 3 PROCEED; Gate 4 intrinsic value ~$9B; "
            "Gate 5 PROCEED ($6B against $9B); Gate 6 PROCEED. INVEST.")
    assert _gates(text, BUFFETT)[4] is None


def test_a_branch_outcome_entails_only_its_branch_and_the_common_gates() -> None:
    card = compiled_card(MACHINE).card
    traces = [GateTrace(n, f"g{n}", None, (0, 1), (0, 1), "name") for n in (1, 4, 5)]
    assert entailed_gates(card, traces, "TILT_TO_NOMINAL_BONDS", (5, 9), 0.85) == 3
    assert [t.verdict for t in traces] == ["PROCEED"] * 3
    assert entailed_gates(card, [GateTrace(5, "g5", None, (0, 1), (0, 1), "name")], "HOLD_BALANCED_MIX", (5, 9), 0.85) == 0


@pytest.mark.parametrize("final, confidence", [("INVEST", 0.35), (vw.INCONCLUSIVE, 0.95), (None, 0.0)])
def test_a_weak_inconclusive_or_missing_final_verdict_entails_nothing(final, confidence) -> None:
    card = compiled_card(SPINOFF).card
    traces = [GateTrace(1, "g1", None, (0, 1), (0, 1), "name")]
    assert entailed_gates(card, traces, final, (3, 4) if final else None, confidence) == 0 and traces[0].verdict is None


def test_a_threshold_card_entails_nothing() -> None:
    card = compiled_card(BUBBLE).card
    traces = [GateTrace(1, "g1", None, (0, 1), (0, 1), "name")]
    assert entailed_gates(card, traces, card.outcomes["pass"], (3, 4), 0.95) == 0


# --------------------------------------------------------------------------- negation scope and word senses


@pytest.mark.parametrize("line, verdict", [
    ("Bond component: a high-yield fund, not high grade, REJECT", "REJECT"),       # the negation closes at its comma
    ("Bond component: no junk, no preferreds, PROCEED", "PROCEED"),
    ("Bond component: it does not, on these figures, pass", "REJECT"),             # a comma right after the negator: still negated
    ("Bond component: No, it fails the quality rule", "REJECT"),                    # "No," answers; it does not negate
])
def test_negation_stops_at_the_comma_that_closes_the_negated_phrase(line: str, verdict: str) -> None:
    card = "graham_defensive_portfolio_selection"
    text = "Allocation: 50% stocks. PROCEED\n" + line + "\n\nVerdict: REVISE"
    assert _gates(text, card)[3] == verdict


@pytest.mark.parametrize("tail, verdict", [
    ("The three-of-five bar is nowhere near met.", "REJECT"),
    ("The bar is far from met.", "REJECT"),
    ("The bar is met.", "PROCEED"),
])
def test_nowhere_near_and_far_from_negate(tail: str, verdict: str) -> None:
    text = "Moat: subscriptions renew at 96%. " + tail + "\n\nMargin of safety: $4B against $7B. PROCEED"
    assert _gates(text, BUFFETT)[2] == verdict


@pytest.mark.parametrize("answer, verdict", [("Not broken.", "PROCEED"), ("Not attractive.", "REJECT"), ("Broken.", "REJECT")])
def test_an_appraisal_denied_alone_in_its_clause_is_read_flipped(answer: str, verdict: str) -> None:
    text = f"1. Circle of competence: we know dental supply well. {answer}\n2. Moat: retention 92%. PROCEED\n\nINVEST"
    parsed = _parse(text, BUFFETT)
    gate = next(g for g in parsed.gates if g.gate == 1)
    assert gate.verdict == verdict and gate.confidence < 0.85  # hedged: an appraisal, not a verdict word


def test_a_first_pass_is_an_attempt_and_a_modal_label_is_not_the_writers() -> None:
    text = ("| Step | Reading |\n|---|---|\n| Circle of competence | insurers we know | PROCEED |\n| Moat | see below | |\n\n"
            "A first pass might mark the moat test PROCEED because the brand is old.\n\n"
            "It is not. Rivals undercut it by 20% and customers switch freely. Moat: REJECT.\n\nDECLINE")
    parsed = _parse(text, BUFFETT)
    moat = next(g for g in parsed.gates if g.gate == 2)
    assert moat.verdict == "REJECT"


def test_a_pass_the_writer_gives_is_still_a_pass() -> None:
    assert _gates("Moat: a quick look shows retention at 95%, so it passes.\nMargin of safety: REJECT.\n\nDECLINE", BUFFETT)[2] == "PROCEED"


# --------------------------------------------------------------------------- labels with answers: icons read with their detail


@pytest.mark.parametrize("line, verdict", [
    ("\u2705 Dividend record: 17 years (fails the 20-year bar)", "REJECT"),
    ("\u2705 Dividend record: assumed to pass, no data", "INCONCLUSIVE"),
    ("\u274c Dividend record: 31 years unbroken, passes", "PROCEED"),
    ("\u2705 Dividend record: 31 years unbroken", "PROCEED"),                       # nothing contradicts the mark
    ("\u2705 Dividend record: 31 years, never a failure to pay", "PROCEED"),       # a negated word is too weak to overrule it
])
def test_a_status_icon_is_read_with_the_detail_on_its_line(line: str, verdict: str) -> None:
    text = "\u2705 Adequate size: sales $2.1bn\n" + line + "\n\u274c Earnings growth: EPS fell\n\nOverall: DECLINE"
    assert _gates(text, SEVEN)[4] == verdict


def test_a_verdict_word_pinned_to_a_gate_by_a_preposition_is_that_gates() -> None:
    text = ("Debt in own currency, no kill at gate 1 -> phase: deleveraging -> gate 2 REJECT.\n\n"
            "No REJECT at gate 1; the REJECT at gate 2 decides the stance. STAY_DEFENSIVE.")
    assert _gates(text, "dalio_debt_supercycle_navigation") == {1: "PROCEED", 2: "REJECT"}


# --------------------------------------------------------------------------- final verdicts in the wild

REBAL = "dalio_all_weather_rebalancing"  # outcomes REBALANCE / HOLD
SIZING = "soros_conviction_weighted_position_sizing"  # outcomes SIZE_UP / CUT
CYCLE = "marks_market_cycle_positioning"  # branch outcomes INCREASE_RISK, AGGRESSIVE, ...
PIF = "pif_dual_kill_investment_screen"  # outcomes INVEST / DECLINE


def _final(text: str, card: str) -> str | None:
    return _parse(text, card).final_verdict


@pytest.mark.parametrize("closing, outcome", [
    ("No rebalance this quarter.", "HOLD"),           # the outcome word, denied, opening the closing sentence
    ("Rebalance before month end.", "REBALANCE"),
    ("rebalance costs would be 9 bp either way.", None),  # lower case, not opening as a verdict: a noun in passing
])
def test_an_outcome_word_opening_the_closing_sentence_is_the_verdict(closing: str, outcome: str | None) -> None:
    text = ("Drift: the largest gap is 2 points, inside the 5-point band, so the drift gate REJECTS.\n\n"
            "The other two checks are not reached.\n\n" + closing)
    if closing[0].islower():
        text = text.replace("\n\n" + closing, "\n\nFor the record, " + closing)
    assert _final(text, REBAL) == outcome


def test_a_position_description_is_not_a_rating() -> None:
    text = ("Position: long copper miners, 2% of the fund, up 14%.\n\n| Check | Pass? |\n|---|---|\n"
            "| Thesis confirmed | Yes |\n| Payoff asymmetry | No |\n\nMost of the move is gone. Cut the position and bank the gain.")
    assert _final(text, SIZING) == "CUT"


def test_signal_long_alone_is_still_a_rating() -> None:
    text = "Thesis confirmed: yes, PROCEED. Payoff asymmetry: 4 to 1, PROCEED.\n\nSignal: long."
    assert _final(text, SIZING) == "SIZE_UP"


def test_the_first_outcome_after_a_final_cue_is_the_verdict_and_a_later_one_elaborates() -> None:
    text = ("Temperature: cold, spreads at 9%.\nPosture fit: REJECT, defensive in a cold market.\n\n"
            "Recommendation: increase risk, moving the book toward aggressive in steps.")
    assert _final(text, CYCLE) == "INCREASE_RISK"


def test_a_corrected_outcome_in_the_same_sentence_still_wins() -> None:
    text = "Posture fit: REJECT.\n\nRecommendation: aggressive; correction, increase risk step by step."
    assert _final(text, CYCLE) == "INCREASE_RISK"


def test_declined_unless_is_todays_verdict_but_invest_if_is_a_condition() -> None:
    base = "Policy fit: PROCEED. Vision 2030 alignment fails. "
    assert _final(base + "The deal is declined unless it is re-booked in the other portfolio.", PIF) == "DECLINE"
    assert _final(base + "We would INVEST if it were re-booked in the other portfolio.", PIF) is None


def test_the_answer_is_no() -> None:
    text = "Downside assessment: REJECT, a 40% loss in the bad case. Margin of safety not assessed; the answer is no."
    assert _final(text, "klarman_downside_first_process") == "DECLINE"


def test_temporal_while_is_no_concession() -> None:
    text = ("Universe: listed equity, fine. Product criteria: none apply. PROCEED. The bank has not taken a risk-based decision to sell.\n\n"
            "A sustainable investor could keep a small position while engaging with the board: HOLD (underweight).")
    assert _final(text, "nbim_gpfg_exclusion_screen") == "HOLD"


# --------------------------------------------------------------------------- verdict-word senses, answered labels, N/A phrases


@pytest.mark.parametrize("sentence", [
    "The failed takeover of a rival in 2019 cost the board some credibility.",
    "The sector's failed breakout and a rejected rally in May are only tape-reading.",
    "Its passed resolution on buybacks changes nothing here.",
])
def test_a_participle_before_its_noun_is_no_verdict(sentence: str) -> None:
    text = f"Moat: switching costs are high.\n\n{sentence}\n\nMargin of safety: $3B against $5B. PROCEED"
    assert _gates(text, BUFFETT).get(2) is None


@pytest.mark.parametrize("sentence, verdict", [
    ("Moat: the test failed by a wide margin.", "REJECT"),     # "failed by": the verb, not a describing participle
    ("Moat: the moat test failed.", "REJECT"),
    ("Moat: the gate passed easily.", "PROCEED"),
])
def test_a_participle_that_is_the_verb_is_still_a_verdict(sentence: str, verdict: str) -> None:
    assert _gates(sentence + "\nMargin of safety: PROCEED.", BUFFETT)[2] == verdict


def test_a_result_recalled_in_a_with_clause_is_weak() -> None:
    card = "graham_intrinsic_value_margin_of_safety"
    text = ("Normal earnings: $2.40 over six years, PROCEED.\nGrowth estimate: 25% against a record of 22%, REJECT.\n\n"
            "With g rejected, the formula value and the margin of safety are not computed.\n\nDECLINE.")
    gates = _gates(text, card)
    assert gates[2] == "REJECT" and gates[3] == "N/A"


@pytest.mark.parametrize("answer, verdict", [("No", "REJECT"), ("Yes", "PROCEED"), ("Unknown", "INCONCLUSIVE")])
def test_an_eligible_label_with_its_answer(answer: str, verdict: str) -> None:
    card = "nbim_gpfg_exclusion_screen"
    text = (f"Investment universe \u2014 eligible? {answer}. The company is listed in Oslo.\n"
            "Product criteria: no tobacco, no weapons. PROCEED.\n\nAnswer: DIVEST.")
    assert _gates(text, card)[1] == verdict


@pytest.mark.parametrize("word, verdict", [("Aligned.", "PROCEED"), ("Misaligned.", "REJECT"), ("Contradicted.", "REJECT"),
                                           ("Not aligned.", "REJECT"), ("Aligned with the plan.", None)])
def test_alignment_appraisals_alone(word: str, verdict: str | None) -> None:
    card = "pif_dual_kill_investment_screen"
    text = f"Portfolio: infrastructure, permitted. PROCEED\nIRR: 9% against 8%. PROCEED\nVision 2030: localises membranes. {word}\n\nDECLINE"
    assert _gates(text, card).get(3) == verdict


def test_confirms_closing_a_line_is_a_hedged_pass() -> None:
    text = "**Growth:** +1.2pp vs discounted. PROCEED\n**Credit:** impulse +1.5% of GDP \u2192 confirms\n\n**Decision:** HOLD_BALANCED_MIX"
    parsed = _parse(text, MACHINE)
    credit = next(g for g in parsed.gates if g.gate == 3)
    assert credit.verdict == "PROCEED" and credit.confidence < 0.85


def test_a_question_in_brackets_does_not_end_the_sentence_that_gives_the_verdict() -> None:
    text = ("The purchase notes are missing. Without them the first gate (story broken?) is INCONCLUSIVE.\n\n"
            "- Price versus growth: PEG 1.2. No trigger.\n- Category signal: still opening stores. No trigger.\n\nINCONCLUSIVE overall.")
    assert _gates(text, "lynch_portfolio_story_review")[1] == "INCONCLUSIVE"


# --------------------------------------------------------------------------- which gate a verdict word speaks for


def test_a_hard_wrapped_line_continues_its_gates_section() -> None:
    text = ("Funds: $58bn of cash against a $15bn reserve. PROCEED.\n\n"
            "Purpose: the board wants to offset dilution from option grants. That is not a\n"
            "reason Buffett accepts: buying high to cover issuing low. REJECT.\n\nSo: no buyback.")
    gates = _gates(text, "buffett_share_repurchase")
    assert gates[4] == "REJECT"


def test_a_new_label_line_after_a_full_stop_still_opens_its_own_section() -> None:
    text = ("Funds: $58bn of cash against a $15bn reserve. PROCEED.\n"
            "Purpose: the board wants to offset dilution from option grants.\n"
            "verdict on purpose: REJECT.\n\nSo: no buyback.")
    assert _gates(text, "buffett_share_repurchase")[4] == "REJECT"


def test_a_verdict_in_the_bracket_after_a_gates_name_is_that_gates() -> None:
    text = ("Dear partners,\n\nForced selling by index funds is our source of mispricing (PROCEED). We paid 58% of a "
            "conservative value\n(margin of safety: PROCEED). Proceeds from two sales will be paid out: our catalyst (PROCEED).\n\nWe invest.")
    gates = _gates(text, "klarman_deep_value_identification")
    assert gates.get(4) == "PROCEED" and gates.get(1) == "PROCEED"


def test_a_sub_item_under_a_gates_list_item_is_its_detail_not_an_invented_gate() -> None:
    text = ("1) Pricing\n   a. 42 cents, spread ~1,850bp over UST\n   \u2192 distressed, not merely stressed. PROCEED\n"
            "2) Where value breaks\n   a. Reorg EV = $900M\n   c. Class face = $800M \u2192 base recovery 62.5%\n"
            "   \u2192 value reaches the class; these notes are the fulcrum. PROCEED\n"
            "3) Bad case\n   b. Recovery 45% vs 42 price \u2192 still get our money back. PROCEED\n\nRec: INVEST")
    parsed = _parse(text, "marks_distressed_debt")
    assert parsed.invented == [] and {g.gate: g.verdict for g in parsed.gates} == {1: "PROCEED", 2: "PROCEED", 3: "PROCEED"}


def test_an_unknown_item_at_the_gates_own_level_is_still_invented() -> None:
    text = ("1) Pricing: distressed, 40 cents. PROCEED\n2) Where value breaks: the notes are the fulcrum. PROCEED\n"
            "3) Dividend policy of the issuer: generous. PROCEED\n\nRec: INVEST")
    assert [g.name for g in _parse(text, "marks_distressed_debt").invented] != []


# --------------------------------------------------------------------------- which statement wins: a second profile's list


PROFILES = ("Profile A - Graham's defensive investor\n1. Stock share 80% -> REJECT (above 75%)\n2. Drift 2 points -> PROCEED\n"
            "7. Highest P/E 21x -> PROCEED\nProfile A verdict: REVISE\n\n"
            "Profile B - aggressive growth investor (not Graham)\n1. Stock share 80% -> PROCEED (up to 95% allowed)\n"
            "7. P/E limits -> not applied\nProfile B verdict: APPROVE\n")


def test_a_second_profiles_list_does_not_overwrite_the_first() -> None:
    parsed = _parse(PROFILES, "graham_defensive_portfolio_selection")
    gates = {g.gate: g.verdict for g in parsed.gates}
    assert gates[1] == "REJECT" and gates[7] == "PROCEED" and parsed.final_verdict == "REVISE"
    assert parsed.final_runner_up == "APPROVE"  # kept as the runner-up, never dropped


def test_a_conclusion_after_the_profiles_still_counts() -> None:
    text = PROFILES + "\nOverall: APPROVE; the growth profile is the client's real one.\n"
    assert _parse(text, "graham_defensive_portfolio_selection").final_verdict == "APPROVE"


def test_one_profile_only_sets_nothing_aside() -> None:
    text = "Profile A - defensive investor\n1. Stock share 80% -> REJECT\n2. Drift 2 points -> PROCEED\nVerdict: REVISE\n"
    assert _gates(text, "graham_defensive_portfolio_selection")[1] == "REJECT"


def test_a_revisit_in_a_later_paragraph_wins_even_across_a_wrapped_line() -> None:
    text = ("Tests 1 and 2: both PROCEED, $3.6B of cash against a $1.0B reserve; shares at $88 against $104.\n"
            "Test 3: PROCEED, no published cap.\nTest 4: PROCEED, per-share value for continuing owners.\n\n"
            "Test 2, once more: the $104 assumes the mine restarts. Without it the value is\n"
            "$92 and the price is 0.96x: REJECT.\n\nDecision: NO_REPURCHASE for now.")
    assert _gates(text, "buffett_share_repurchase")[2] == "REJECT"
