"""Stop 47's parser work on s46break's leftovers and the n44 blind batch's tuned English answers (s47parse).

Expected readings worked by hand against the card munger_business_quality_price (gates: 1 Understandable Business,
2 High Return on Capital, 3 Durable Competitive Advantage, 4 Trustworthy Management with Aligned Incentives, 5 Fair
Price; outcomes INVEST / DECLINE). Rules only (embedder off), as in ``parse_support``.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

from tests.scoring.parse_support import gate_reading, read_gates

MUNGER = "munger_business_quality_price"


def _final(text: str, card: str = MUNGER) -> tuple[str | None, float]:
    parsed = parse_response(text, card, embedder=False)
    assert parsed.status == "ok", parsed.reason
    return parsed.final_verdict, parsed.final_confidence


# -- s46break 7: one gate labelled twice in one line, with two verdicts ------------------------------------------------
# The corpus README: "A gate stated twice carries the verdict that wins (the later committed one, a correction, ...)".
# Written on two lines the later label already won (PROCEED 0.57); in one line the first label's word won at 0.76,
# above the review bar, though the answer contradicts itself. Now the later label's verdict, below 0.8 either way.

@pytest.mark.parametrize(("text", "later"), [
    ("Fair Price: REJECT. Fair Price: PROCEED.", "PROCEED"),                 # s46break 7 (was REJECT 0.76)
    ("Fair Price: PROCEED. Fair Price: REJECT.", "REJECT"),                  # s46break 7 reversed (was PROCEED 0.76)
    # three phrasings of my own
    ("**Fair Price**: REJECT at 45x. **Fair Price**: PROCEED after the drop to 14x.", "PROCEED"),
    ("Fair Price: PROCEED on last year's multiple. Fair Price: REJECT on today's 45x.", "REJECT"),
    ("Fair Price: REJECT at 45x earnings! __Fair Price__: PROCEED at 14x after the fall.", "PROCEED"),
])
def test_a_gate_labelled_twice_in_a_line_reads_the_later_label(text, later):
    verdict, confidence = gate_reading(text, MUNGER, 5)
    assert verdict == later
    assert confidence < 0.8  # two verdicts on one gate: they compete


def test_the_two_line_form_is_unchanged():
    assert gate_reading("Fair Price: REJECT\nFair Price: PROCEED", MUNGER, 5) == ("PROCEED", 0.57)


@pytest.mark.parametrize("text", [
    "Fair Price: PROCEED. At 14x it is fair. Fair Price: PROCEED.",          # the same verdict twice: no contest
    "Fair Price: PROCEED. At a fair price: the buyback adds to it.",          # no label of the gate restated
])
def test_a_restatement_that_agrees_or_no_restatement_stays_clean(text):
    verdict, confidence = gate_reading(text, MUNGER, 5)
    assert verdict == "PROCEED"
    assert confidence >= 0.8


# -- s46break 8: a JSON list of (name, verdict) rows -------------------------------------------------------------------
# Each row is a pair, the way an object's key and value are: the first item names the gate, the second is its verdict.
# Before, only the first row was read (REJECT 0.51), or the text was a parse failure.

@pytest.mark.parametrize(("text", "expected"), [
    ('[["Fair Price", "REJECT"], ["High Return on Capital", "PROCEED"]]', [(5, "REJECT"), (2, "PROCEED")]),  # s46break 8
    ('[["Gate 1","PROCEED"],["Gate 2","REJECT"]]', [(1, "PROCEED"), (2, "REJECT")]),  # the brief's form
    # three of my own: booleans as values, a fenced block over several lines, a final-verdict row
    ('[["Gate 1", true], ["Gate 5", false]]', [(1, "PROCEED"), (5, "REJECT")]),
    ('```json\n[\n  ["Durable Competitive Advantage", "pass"],\n  ["Fair Price", "fail"]\n]\n```', [(3, "PROCEED"), (5, "REJECT")]),
    ('[["Gate 2", "PROCEED"], ["Gate 5", "REJECT"], ["Final verdict", "DECLINE"]]', [(2, "PROCEED"), (5, "REJECT")]),
])
def test_a_json_list_of_rows_reads_every_row(text, expected):
    assert read_gates(text, MUNGER) == expected


def test_a_final_verdict_row_is_the_final_verdict():
    assert _final('[["Gate 2", "PROCEED"], ["Gate 5", "REJECT"], ["Final verdict", "DECLINE"]]')[0] == "DECLINE"


def test_a_list_of_figures_is_no_list_of_rows():
    # pairs of numbers name no gate: the list says nothing, and the sentence after it is read as before
    assert read_gates('[[2019, 14.2], [2020, 15.1]]\nFair Price: REJECT at 45x.', MUNGER) == [(5, "REJECT")]


# -- s45break 11, third form: "INVEST... no, DECLINE" --------------------------------------------------------------
# The writer breaks off and repairs the outcome. Three dots before a lower-case word no longer end the sentence (as the
# one-character ellipsis never did), and a "no" between breaks repairs: it negates nothing (it read "no, DECLINE" as a
# refused DECLINE, INVEST). The repaired word wins, below the review bar (two outcomes in one sentence).

@pytest.mark.parametrize("closing", [
    "Final verdict: INVEST... no, DECLINE.",          # s45break 11 / s46parse "Left" (was INVEST 0.43)
    # three phrasings of my own
    "Final verdict: INVEST, wait, no, DECLINE.",
    "Final verdict: INVEST \u2014 no: DECLINE.",
    "Final verdict: INVEST\u2026 hmm, no, DECLINE.",
])
def test_an_outcome_broken_off_with_no_is_repaired(closing):
    outcome, confidence = _final("Fair Price: REJECT.\n" + closing)
    assert outcome == "DECLINE"
    assert confidence < 0.8


@pytest.mark.parametrize(("closing", "outcome"), [
    ("Final verdict: DECLINE, no doubt.", "DECLINE"),                   # "no doubt" is no repair
    ("Final verdict: no, we will not INVEST.", "DECLINE"),             # "no" opening the answer; "not INVEST" negated
    ("Final verdict: DECLINE... with no hesitation.", "DECLINE"),      # the ellipsis goes on; "no" negates a noun
])
def test_no_that_repairs_nothing_reads_as_before(closing, outcome):
    assert _final("Fair Price: REJECT.\n" + closing)[0] == outcome


# -- n44-mmc01-small-spread-neutral: the card's own name as the answer's title ------------------------------------------
# marks_market_cycle_positioning is named "Marks Market Cycle Positioning Framework"; gate 2's aliases include "cycle
# positioning". A title that writes the card's name named gate 2 first, so the order read [2, 1] for an answer that
# takes gate 1 first. A gate word inside the card's name names the card.

MARKS = "marks_market_cycle_positioning"
_MARKS_BODY = ("Gate 1: Take the Market's Temperature\nThe spread is 5.7%, between the cut-offs. Verdict: PROCEED\n\n"
               "Gate 2: Position Against the Pendulum\nThe posture is defensive, not balanced. Verdict: REJECT\n")


@pytest.mark.parametrize("title", [
    "Marks Market Cycle Positioning Framework\n\n",                           # the corpus case's shape
    # three of my own
    "# Marks Market Cycle Positioning Framework \u2014 my reading\n\n",
    "Marks Market Cycle Positioning Framework\nAnswer for the Ardent fund\n\n",
    "**MARKS MARKET CYCLE POSITIONING FRAMEWORK** (worked answer)\n\n",
])
def test_the_cards_name_as_a_title_names_no_gate(title):
    assert read_gates(title + _MARKS_BODY, MARKS) == [(1, "PROCEED"), (2, "REJECT")]


def test_a_gate_alias_outside_the_cards_name_still_names_the_gate():
    text = "Cycle positioning: the posture is defensive in a neutral market, REJECT.\n" + _MARKS_BODY
    assert [g for g, _ in read_gates(text, MARKS)][0] == 2
