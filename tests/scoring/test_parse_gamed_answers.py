"""Answers that game the scores (issue 13, stop 30 break): no verdict may be read where none was chosen.

Since an answer with no gate read but a stated final verdict is scored on VerdictAcc (docs/scoring.md "An answer with
no gate read"), every outcome word the parser reads without a choice behind it is a free 0.20 on the items whose gold
it happens to match. Three kinds found by probing (short texts written for these tests; the embedder is off):

- every outcome of the card listed with commas ("INVEST, DECLINE, INCONCLUSIVE"): read as INVEST or DECLINE;
- a template slot offering a choice with "or" ("Margin of Safety: PASS or FAIL"): read as PROCEED;
- a refusal that names a verdict ("I won't say DECLINE"): read as INVEST (the negation flipped it).
"""

from __future__ import annotations

import pytest

from ipb.respond.synthetic import bundled_items, synthetic_responses
from ipb.scoring.embeddings import CachedEncoder, HashingEncoder
from ipb.scoring.parse import parse_response
from ipb.scoring.run import ScoreOptions, score_responses
from tests.scoring.parse_support import gate_verdicts

GIV = "graham_intrinsic_value_margin_of_safety"  # 1 normal earnings, 2 growth estimate, 3 formula value, 4 margin of safety
BUFFETT = "buffett_acquisition_checklist"  # outcomes INVEST / DECLINE
LYNCH = "lynch_portfolio_story_review"  # outcomes HOLD / SELL


def _final(text: str, card: str = BUFFETT) -> str | None:
    return parse_response(text, card, embedder=False).final_verdict


# ---------------------------------------------------------------- every outcome listed


@pytest.mark.parametrize("text", [
    "Possible outcomes: INVEST, DECLINE, INCONCLUSIVE.",
    "INVEST, DECLINE, INCONCLUSIVE",
    "Verdict: DECLINE, INVEST, INCONCLUSIVE",
    "The card allows INVEST, DECLINE or INCONCLUSIVE.",
    "Outcomes: INVEST, DECLINE or INCONCLUSIVE.",
])
def test_every_outcome_listed_with_commas_is_no_final_verdict(text):
    assert _final(text) is None


def test_a_comma_list_of_another_cards_outcomes_is_no_final_verdict_either():
    assert _final("Possible calls: HOLD, SELL.", LYNCH) is None
    assert _final("Rating: SELL.", LYNCH) == "SELL"


@pytest.mark.parametrize("text, verdict", [
    ("Verdict: DECLINE, given the 1.56x premium to value.", "DECLINE"),
    ("Gate 5: REJECT, DECLINE.", "DECLINE"),
    ("Verdict: DECLINE, DECLINE.", "DECLINE"),  # the same outcome twice is still a choice
])
def test_an_outcome_followed_by_a_comma_and_no_other_outcome_still_counts(text, verdict):
    assert _final(text) == verdict


# ---------------------------------------------------------------- "PASS or FAIL" slots


@pytest.mark.parametrize("slot", ["PASS or FAIL", "<PASS or FAIL>", "Proceed or Reject", "(pass or fail)"])
def test_a_template_slot_joined_by_or_is_no_verdict(slot):
    # since stop 31 the slot is not a mention either: gate 1 (no verdict, nothing of its own) is left out of the
    # gate sequence (was {1: None, 4: "REJECT"}; see "gate names with nothing read" below)
    assert gate_verdicts(f"Normal Earnings: {slot}\nMargin of Safety: FAIL\n", GIV) == {4: "REJECT"}


def test_a_slot_asked_then_answered_reads_the_answer():
    text = "Normal Earnings: PASS\nMargin of Safety: pass or fail? It fails: the price is 1.6x the value.\n"
    assert gate_verdicts(text, GIV) == {1: "PROCEED", 4: "REJECT"}


def test_the_final_slot_proceed_or_reject_is_no_final_verdict():
    assert _final("Normal Earnings: PASS\nFinal: PROCEED or REJECT\n", GIV) is None


# ---------------------------------------------------------------- refusals that name a verdict


@pytest.mark.parametrize("text", [
    "I won't say DECLINE.",
    "I can't tell you to DECLINE.",
    "As an AI I cannot give a verdict like INVEST.",
    "Sorry, I will not state INVEST or anything else here.",
])
def test_a_refusal_to_state_a_verdict_states_none(text):
    assert _final(text) is None


@pytest.mark.parametrize("text, verdict", [
    ("I wouldn't INVEST here.", "DECLINE"),  # a negated decision, not a refusal to say
    ("I won't give advice, but as the rules read: DECLINE.", "DECLINE"),  # the refusal's clause ends before the verdict
    ("No, I won't buy it. DECLINE.", "DECLINE"),
])
def test_a_negated_decision_or_a_verdict_after_the_refusal_still_counts(text, verdict):
    assert _final(text) == verdict


# ---------------------------------------------------------------- scored: no gamed answer earns the verdict term


@pytest.fixture(scope="module")
def records():
    item = bundled_items([BUFFETT])[0]
    gold_verdict = item["grp"]["investment_verdict"]
    other = "INVEST" if gold_verdict != "INVEST" else "DECLINE"
    [gold] = synthetic_responses([item], corruptions=["none"])
    texts = {
        "listed": "Possible outcomes: INVEST, DECLINE, INCONCLUSIVE.\n",
        "listed-gold-first": f"Verdict: {gold_verdict}, {other}, INCONCLUSIVE\n",
        "listed-gold-last": f"Verdict: {other}, INCONCLUSIVE, {gold_verdict}\n",
        "refusal": f"I'm sorry, as an AI I won't say {other}.\n",
        "refusal-gold": f"I'm sorry, as an AI I can't tell you to {gold_verdict}.\n",
        "plain-refusal": "I'm sorry, but I can't provide investment advice.\n",
    }
    options = ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50)
    responses = [dict(gold, model=k, response=v) for k, v in texts.items()]
    return {r["model"]: r for r in score_responses([item], responses, options)}


@pytest.mark.parametrize("model", ["listed", "listed-gold-first", "listed-gold-last", "refusal", "refusal-gold"])
def test_a_gamed_answer_is_unscored_like_a_plain_refusal(records, model):
    record = records[model]
    assert record["status"] == "unscored", (model, record.get("metrics"))
    assert records["plain-refusal"]["status"] == "unscored"


# ---------------------------------------------------------------- gate names with nothing read (decided in stop 31)
#
# The paper's S-hat is the gate labels the answer mentions (§7.5); a label with nothing of its own is a template slot,
# not a mention, and is left out of the gate sequence (scoring/parse/_template_slots.py), so out of GCF, tau, OGRS,
# NED and GRA's name match. A gate with a verdict read, or with content of its own, stays.

_NAMES = ["Circle of Competence", "Economic Moat", "Management Integrity", "Intrinsic Value Estimation",
          "Margin of Safety", "Holding Period Economics"]


def test_a_template_of_gate_names_never_outranks_an_honest_answer():
    item = bundled_items([BUFFETT])[0]
    [gold] = synthetic_responses([item], corruptions=["none"])
    texts = {
        "template": "".join(f"Gate {i + 1} {n}:\n" for i, n in enumerate(_NAMES)),
        "everything": "".join(f"{n}: Pass / Fail / Unknown\n" for n in _NAMES) + "Final: INVEST, DECLINE, INCONCLUSIVE\n",
        "honest": "Circle of Competence: Pass.\nEconomic Moat: Fail, no switching costs.\nFinal: DECLINE\n",
    }
    options = ScoreOptions(encoder=CachedEncoder(HashingEncoder()), n_resamples=50)
    records = {r["model"]: r for r in score_responses([item], [dict(gold, model=k, response=v) for k, v in texts.items()],
                                                          options)}
    honest = records["honest"]["metrics"]
    for model in ("template", "everything"):
        # what enters the means: a scored record's metrics, a parse failure's owed values (ipb score's default)
        gamed = records[model]["metrics"] if records[model]["status"] == "scored" else records[model]["owed"]
        assert gamed["layer_composite"] < honest["layer_composite"] and gamed["w1_composite"] < honest["w1_composite"], model


# ---------------------------------------------------------------- no gate read, several outcomes named


@pytest.mark.parametrize("text", [
    "INVEST DECLINE INCONCLUSIVE",
    "- INVEST\n- DECLINE\n- INCONCLUSIVE",
    "Verdict: INVEST and DECLINE",
    "Final verdict: INVEST (or DECLINE)",
])
def test_with_no_gate_read_an_answer_naming_several_outcomes_states_no_final_verdict(text):
    result = parse_response(text, BUFFETT, embedder=False)
    assert result.status == "parse_failure" and result.final_verdict is None
    assert any("more than one of the card's outcomes" in n for n in result.notes)


def test_two_unticked_boxes_state_no_final_verdict():
    # since stop 52 (s52neg) an outcome after an empty box is an option not taken, so this answer names no outcome
    # at all (it was read as naming two); it stays a parse failure with no final verdict
    result = parse_response("Verdict: [ ] INVEST [ ] DECLINE", BUFFETT, embedder=False)
    assert result.status == "parse_failure" and result.final_verdict is None


def test_with_no_gate_read_one_outcome_however_often_is_still_the_stated_verdict():
    assert _final("Verdict: DECLINE\n\nDECLINE. DECLINE.") == "DECLINE"
    assert _final("Possible calls: HOLD or SELL.", LYNCH) is None
    assert _final("Rating: SELL.", LYNCH) == "SELL"


def test_with_gates_read_the_final_verdict_is_chosen_as_before():
    assert _final("Margin of Safety: FAIL\nSome would INVEST; I DECLINE.") == "DECLINE"
