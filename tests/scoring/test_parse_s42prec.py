"""Wrong readings at or above the 0.7 review bar that stop 42's breaker left open (break42; issue 13; paper §7.5).

- **One borrowed word of a gate's longer phrase** (``._vocabulary.partial_label``, break42 #8): on Graham's card
  "1. Market cap over $1B: pass" read gate 6 (Moderate P/E) PROCEED at 0.85 through "cap", a word of that gate's
  alias "earnings multiple cap" (a ceiling on the multiple), while "market" is no word of gate 6 at all. A label that
  shares one distinctive word with a gate beside words that are none of that gate's is read under the bar (0.95 x 0.7).
- **A verdict against another party's bar** (``._attributed._others_bar``, break42 #21): on Munger's card "My bar is
  15%; the fund's bar is 8%. ROIC was 12%, which clears the fund's bar" read gate 2 PROCEED at 0.85, though 12% is
  under the writer's (and the card's) 15%. When the answer states a bar of the writer's, a verdict measured against a
  bar another (common-noun) party owns is that party's (weak).
- **A list of the writer's own checks read by position** (``._positional._unconfirmed_titles``, break42 #7): on
  Munger's five-gate card "1. Check the logo: pass." ... "5. Check the app: fail." read gates 1-5 at 0.71 by place.
  A run in an English answer whose every title has content words, none of them any gate's, is read under the bar
  (0.95 x 0.75 x 0.9 = 0.64); a run titled in another language keeps 0.71.
- **"The answer is no" to a question naming neither outcome nor an act** (``._closing.question_before``, ``._final``'s
  ``guess``, break42 #15 remainder): on the bubble card "Is it time to worry? The answer is no." read BUBBLE_REDUCE_RISK
  at 0.81 ("no" taken as the fail outcome, the opposite of the writer's). The question's polarity is unknown, so the
  plain sense is a guess: read at most at level 2 (under the bar); a question naming an act or a state keeps its reading.

Answers written for these tests (no corpus text); each expected verdict worked by hand against the card named beside it.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response
from parse_support import gate_reading as _gate

GRAHAM = "graham_seven_tests_defensive"  # gate 6 Moderate P/E (alias "earnings multiple cap"); gate 1 Adequate Size
MUNGER = "munger_business_quality_price"  # gate 2 High Return on Capital (the card's bar: 15%)

#: The review bar: a reading at or above it is taken without review.
REVIEW_BAR = 0.7


@pytest.mark.parametrize("text", [
    "1. Market cap over $1B: pass\n",  # gate 6 PROCEED 0.855 before ("cap" of "earnings multiple cap")
    "Screen results\n- Market cap floor: pass\n",
    "Hard cap on leverage: pass\n",  # "cap" again, beside "hard" and "leverage": none of gate 6's words
])
def test_one_borrowed_word_of_a_gates_phrase_names_it_under_the_bar(text: str) -> None:
    reading = _gate(text, GRAHAM, 6)
    assert reading is None or reading[1] < REVIEW_BAR, reading


@pytest.mark.parametrize(("text", "confidence"), [
    ("1. Earnings multiple cap: pass\n", 0.95),  # the alias itself
    ("1. Moderate P/E: pass\n", 0.898),  # the gate's own name words ("words" reading, 0.95 x 0.945)
])
def test_a_label_in_the_gates_own_words_keeps_its_confidence(text: str, confidence: float) -> None:
    assert _gate(text, GRAHAM, 6) == ("PROCEED", confidence)


@pytest.mark.parametrize("text", [
    # 12% is under the writer's 15% (and the card's 15%): the pass is the fund's, read PROCEED 0.85 before
    "High Return on Capital\nMy bar is 15%; the fund's bar is 8%. ROIC was 12%, which clears the fund's bar.\n",
    "High Return on Capital\nOur hurdle is 15%. ROIC of 11% passes the bank's 8% hurdle.\n",
])
def test_a_verdict_against_another_partys_bar_is_not_the_writers(text: str) -> None:
    reading = _gate(text, MUNGER, 2)
    assert reading is not None and (reading[0] != "PROCEED" or reading[1] < REVIEW_BAR), reading


def test_the_writers_own_verdict_beside_another_partys_bar_wins() -> None:
    text = "High Return on Capital\nMy bar is 15%; the fund's bar is 8%. ROIC was 12%: it clears the fund's bar but fails mine.\n"
    reading = _gate(text, MUNGER, 2)
    assert reading is not None and reading[0] == "REJECT", reading


@pytest.mark.parametrize("text", [
    "High Return on Capital\nMy bar is 15%. ROIC was 22%, which clears my bar.\n",  # the writer's own bar
    "High Return on Capital\nROIC was 22%, which clears the fund's bar.\n",  # no bar of the writer's to set it apart
    "High Return on Capital\nMy bar is 15%. ROIC was 22%, which clears the card's bar.\n",  # the card's bar
])
def test_a_verdict_against_the_writers_or_the_cards_bar_keeps_its_confidence(text: str) -> None:
    assert _gate(text, MUNGER, 2) == ("PROCEED", 0.85)


#: Five numbered checks of the writer's own (a website review), one per line, on the five-gate Munger card.
OWN_CHECKS = ("1. Check the logo: pass.\n2. Check the font: pass.\n3. Check the colours: pass.\n4. Check the ads: pass.\n"
              "5. Check the app: fail.\n")


@pytest.mark.parametrize("text", [OWN_CHECKS, "Steps I took:\n" + OWN_CHECKS])  # 0.71 (0.95 x 0.75) before
def test_a_run_of_the_writers_own_checks_is_read_by_position_under_the_bar(text: str) -> None:
    parsed = parse_response(text, MUNGER, embedder=False)
    assert [(g.gate, g.how) for g in parsed.gates] == [(k, "position") for k in range(1, 6)]
    assert all(g.confidence < REVIEW_BAR for g in parsed.gates), [g.confidence for g in parsed.gates]


def test_a_run_titled_in_another_language_keeps_its_confidence() -> None:
    # German titles: the card's English words cannot confirm them, the place reading stays (gate 3 by its translation)
    text = ("1. Verständlich: bestanden.\n2. Rendite: bestanden.\n3. Burggraben: bestanden.\n4. Vorstand: bestanden.\n"
            "5. Preis: nicht bestanden.\n")
    parsed = parse_response(text, MUNGER, embedder=False)
    position = [g for g in parsed.gates if g.how == "position"]
    # 0.712 until s49lang: a reading by place alone now stays under the 0.7 review bar (PLACE_CAP, 0.69); it is kept
    assert position and all(g.confidence == 0.69 for g in position), [(g.gate, g.how, g.confidence) for g in parsed.gates]


BUBBLE = "dalio_bubble_detection_gauge"  # outcomes NO_BUBBLE (pass) and BUBBLE_REDUCE_RISK (fail)
#: Two gates of the bubble card read PROCEED (no warning sign), so the final rests on the closing answer.
BUBBLE_BODY = ("Prices High Relative to Traditional Measures: PROCEED, the P/E is near its 30-year median.\n"
               "New Buyers Entering the Market: PROCEED, account openings are flat.\n\n")


@pytest.mark.parametrize("closing", [
    "Is it time to worry? The answer is no.",  # BUBBLE_REDUCE_RISK 0.807 before: the opposite of the writer's
    "Is it time to worry? The answer is yes.",  # NO_BUBBLE 0.95 before: the opposite again
    "Is the market in good health? The answer is no.",  # a question whose "no" is the fail outcome: right, but a guess
])
def test_an_answer_to_a_question_naming_no_outcome_is_read_under_the_bar(closing: str) -> None:
    parsed = parse_response(BUBBLE_BODY + closing + "\n", BUBBLE, embedder=False)
    assert parsed.final_verdict is None or parsed.final_confidence < REVIEW_BAR, (parsed.final_verdict, parsed.final_confidence)


@pytest.mark.parametrize("closing", [
    "Should we cut risk? The answer is no.",  # the act names the outcome "no" turns down (break42 #14)
    "Is this a bubble? Our answer is no.",  # the state NO_BUBBLE denies (break42 #15)
    "The answer is no.",  # no question before: the plain sense, the card's fail outcome, is no guess
])
def test_an_answer_whose_polarity_is_known_keeps_its_confidence(closing: str) -> None:
    parsed = parse_response(BUBBLE_BODY + closing + "\n", BUBBLE, embedder=False)
    expected = "BUBBLE_REDUCE_RISK" if closing.startswith("The answer") else "NO_BUBBLE"
    assert parsed.final_verdict == expected and parsed.final_confidence >= REVIEW_BAR, (parsed.final_verdict, parsed.final_confidence)
