"""Regressions of stop 41's adversarial review (break41; issue 13; paper §7.5): a verdict that is not the writer's read
at or above the 0.7 review bar, or the writer's own clear verdict pushed under it.

- **An act another wants done** (``._voice.urged_by_other``): "Bottom line: strategists urge clients to cut risk." read
  BUBBLE_REDUCE_RISK at 0.81, and s41finals' holding acts ("cut their equity exposure") carried the same misreading to
  a holding's weight; the writer's own urging ("we urge clients to ...") stays the writer's recommendation.
- **"per" + the case's own rule** (``._attributed._per_source``): "per the card's 15% bar, it passes" read as another's
  source (0.45), the possessive hiding the fact noun "card"; "bar", "threshold" and like words are the case's rule.
- **A dated recommendation label** (``._closing.CUE_LABEL``, ``._final_words``): "Recommendation to the fund in
  2019: decline." read DECLINE at 0.72, the cue's addressee running on over "in 2019"; an addressee is now words, not
  a time.
- **A label naming another party or time** (``._label_owner.label_of_another``): "Decision for the bears: decline.",
  "Their verdict:", "The committee's call in 2019:", "Analyst consensus: invest." read at 0.72-0.85 as the writer's
  decision (any short line label made its value the decision); now set aside. The writer's own labels ("Decision:",
  "Our call:", "Decision for the course portfolio:", "Verdict for Q3:") keep their confidence.
- **A requirement read as a result** (``._verdict_clauses.required``): "this test must be passed", "das Kriterium muss
  erfüllt sein" read PROCEED at 0.95 (since before stop 41); now weak (0.45), as a modal's verdict is.
- **Japanese polite forms that state no verdict today** (``grammar/languages.yaml`` ja ``guards``): s41lang's
  "問題ありません" (no problem) read PROCEED at 0.95 inside "問題ありませんとは言えません" (one cannot say there is no
  problem), and at 0.76 in the past ("問題ありませんでした", there was none then) or quoted from the company, outranking
  the writer's own "基準を満たしません" (it does not meet the standard) after it.

Answers written for these tests (no corpus text); each expected verdict worked by hand against the card named beside it.
"""

from __future__ import annotations

import pytest

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._voice import urged_by_other

BUBBLE = "dalio_bubble_detection_gauge"  # outcomes NO_BUBBLE (pass) and BUBBLE_REDUCE_RISK (fail)
GRAHAM = "graham_seven_tests_defensive"  # gate 4 Dividend Record (ja sidecar name 配当実績)

#: The review bar: a reading at or above it is taken without review.
REVIEW_BAR = 0.7

#: Two gates of the bubble card read PROCEED (no warning sign), so the answer's final rests on its closing sentence.
BUBBLE_BODY = ("Prices High Relative to Traditional Measures: PROCEED, the P/E is near its 30-year median.\n"
               "New Buyers Entering the Market: PROCEED, account openings are flat.\n\n")


def _final(closing: str) -> tuple[str | None, float]:
    parsed = parse_response(BUBBLE_BODY + closing + "\n", BUBBLE, embedder=False)
    assert parsed.status == "ok", parsed.reason
    return parsed.final_verdict, parsed.final_confidence


@pytest.mark.parametrize("closing", [
    "Bottom line: strategists urge clients to cut risk.",  # read BUBBLE_REDUCE_RISK at 0.81 before (no voice check)
    "Bottom line: critics want us to cut risk. We won't.",  # 0.81, the writer refusing in the next sentence
    "Bottom line: strategists urge clients to cut their equity exposure.",  # s41finals' holding act, 0.65
    "Bottom line: critics want us to trim our tech weighting. We won't.",  # 0.65
])
def test_an_act_another_urges_is_not_the_writers_decision(closing: str) -> None:
    verdict, confidence = _final(closing)
    assert verdict != "BUBBLE_REDUCE_RISK" or confidence < REVIEW_BAR, (verdict, confidence)
    assert verdict is None  # nothing else in these answers states a final


@pytest.mark.parametrize("closing", [
    "Bottom line: we are cutting our equity exposure.",  # the writer's own act, unchanged (0.81)
    "Bottom line: we urge clients to cut risk.",  # the writer's recommendation to another is the writer's verdict
    "Bottom line: it is time to cut risk.",
])
def test_the_writers_own_act_or_urging_still_counts(closing: str) -> None:
    assert _final(closing)[0] == "BUBBLE_REDUCE_RISK"


@pytest.mark.parametrize(("clause", "other"), [
    ("Bottom line: strategists urge clients to ", True),
    ("My broker told me to quickly ", True),  # an adverb between "to" and the act
    ("Staff recommends that the Board approve ", False),  # a memo's own recommendation (corpus n28, tuned)
    ("Staff urges the Board to ", False),
    ("Management expects to ", True),
    ("we urge clients to ", False),
    ("So we would like to ", False),
    ("You might want to ", False),  # the reader the writer addresses: the writer's advice
    ("Urge clients to ", False),  # no subject: the writer's imperative
    ("we decided to ", False),  # no verb of urging or wanting
])
def test_urged_by_other_reads_the_subject_of_the_urging(clause: str, other: bool) -> None:
    assert urged_by_other(clause) is other


@pytest.mark.parametrize(("section", "verdict"), [
    # one cannot say there is no problem: no verdict (was PROCEED 0.95)
    ("配当実績：問題ありませんとは言えません。2009年に無配でした。", None),
    # no problem then, but now it does not meet the standard (was PROCEED 0.76)
    ("配当実績：以前は問題ありませんでしたが、2009年に無配になり、基準を満たしません。", vw.REJECT),
    # the company says "no problem"; the writer: it does not meet it (was PROCEED 0.76)
    ("配当実績：会社は「問題ありません」と言うが、2009年に無配で、基準を満たしていません。", vw.REJECT),
    # a question is no verdict
    ("配当実績：問題ありませんか？ 2009年に無配でした。", None),
    # the plain polite forms stay verdicts (s41lang)
    ("配当実績：20年間無配なし、問題ありません。", vw.PROCEED),
    ("配当実績：2009年に無配、基準を満たしません。", vw.REJECT),
])
def test_japanese_polite_forms_in_the_past_quoted_or_denied_state_no_verdict(section: str, verdict: str | None) -> None:
    parsed = parse_response(section + "\n", GRAHAM, embedder=False)
    read = {g.gate: g for g in parsed.gates}
    assert 4 in read, parsed.reason
    assert read[4].verdict == verdict, (read[4].verdict, read[4].confidence)


MUNGER = "munger_business_quality_price"  # gate 2 High Return on Capital (at least 15%)


@pytest.mark.parametrize(("line", "verdict", "writers"), [
    # the card's own bar cited with a possessive or as a threshold: the writer's reading (s41finals read 0.45)
    ("High Return on Capital: per the card's 15% bar, it passes (22%).", vw.PROCEED, True),
    ("High Return on Capital: per the 15% threshold, it passes (22%).", vw.PROCEED, True),
    ("High Return on Capital: per the filing's figures, it passes (22%).", vw.PROCEED, True),
    # another's source stays another's (s41finals)
    ("High Return on Capital: per the bears, it fails.", vw.REJECT, False),
    ("High Return on Capital: per management's deck, it passes.", vw.PROCEED, False),
])
def test_per_the_cases_own_rule_is_the_writers_reading(line: str, verdict: str, writers: bool) -> None:
    parsed = parse_response(line + "\n", MUNGER, embedder=False)
    read = {g.gate: g for g in parsed.gates}
    assert read[2].verdict == verdict
    assert (read[2].confidence >= REVIEW_BAR) is writers, read[2].confidence


@pytest.mark.parametrize(("text", "confident"), [
    # the rule stated, not its result (read PROCEED 0.95 at d7bd97b and after): EPS +20% is short of Graham's third
    ("Earnings Growth: this test must be passed.\nEPS rose 20% in ten years.\n", False),
    ("Earnings Growth: the criterion has to be met.\nEPS rose 20% in ten years.\n", False),
    ("Gewinnwachstum: mindestens ein Drittel, das Kriterium muss erfüllt sein.\nDer Gewinn stieg in zehn Jahren um 20 %.\n", False),
    # a result stays a result
    ("Earnings Growth: passed, EPS rose 45% in ten years.\n", True),
    ("Earnings Growth: it must pass, and it does: EPS rose 45% in ten years.\n", True),
])
def test_a_requirement_is_no_confident_verdict(text: str, confident: bool) -> None:
    read = {g.gate: g for g in parse_response(text, GRAHAM, embedder=False).gates}
    assert 5 in read
    assert (read[5].verdict == vw.PROCEED and read[5].confidence >= REVIEW_BAR) is confident, (read[5].verdict, read[5].confidence)


#: Munger's five gates read, the price failing: a final rests on the closing line.
MUNGER_BODY = ("Understandable Business (Not Too Hard): PROCEED, it sells insurance.\n"
               "High Return on Capital: PROCEED, ROIC 22%.\n"
               "Fair Price: PROCEED, 12x earnings.\n\n")


@pytest.mark.parametrize(("closing", "final", "confident"), [
    # a recommendation of another time is no decision of today's (s41finals' cue label took "the fund in 2019" as its
    # addressee: DECLINE 0.72)
    ("Recommendation to the fund in 2019: decline.", None, False),
    # s41finals' labels themselves (tests/scoring/test_parse_holding_acts.py): unchanged
    ("Recommendation to the fund: decline.", "DECLINE", True),
    ("Recommendation to the fund of funds: decline.", "DECLINE", True),
])
def test_a_dated_recommendation_label_is_no_decision_of_today(closing: str, final: str | None, confident: bool) -> None:
    parsed = parse_response(MUNGER_BODY + closing + "\n", MUNGER, embedder=False)
    if final is None:
        assert parsed.final_verdict is None or parsed.final_confidence < REVIEW_BAR, (parsed.final_verdict, parsed.final_confidence)
    else:
        assert parsed.final_verdict == final and (parsed.final_confidence >= REVIEW_BAR) is confident


@pytest.mark.parametrize("closing", [
    "Decision for the bears: decline.",          # the label says whose decision: the bears'
    "Decision for the bears: pass.",             # the same through the label-pass path (a decline on a buy card)
    "Decision for the fund last year: decline.",  # another time
    "The committee's call in 2019: decline.",     # another time (and another's)
    "Their verdict: decline.",                    # a third party the text spoke of
    "**Their verdict:** decline.",
    "The bears' verdict: DECLINE.",
    "Bear case: decline.",                       # a side's scenario, no decision
    "Analyst consensus: invest.",                # read INVEST 0.85 before
    "Verdict back then: decline.",
])
def test_a_label_naming_another_party_is_no_decision_of_the_writers(closing: str) -> None:
    parsed = parse_response(MUNGER_BODY + closing + "\n", MUNGER, embedder=False)
    assert parsed.final_verdict is None or parsed.final_confidence < REVIEW_BAR, (parsed.final_verdict, parsed.final_confidence)


@pytest.mark.parametrize(("closing", "final"), [
    ("Decision: decline.", "DECLINE"),
    ("My decision: decline.", "DECLINE"),
    ("Our call: decline.", "DECLINE"),
    ("Decision for the course portfolio: decline.", "DECLINE"),
    ("Recommendation to the board: decline.", "DECLINE"),
    ("Bottom line: decline.", "DECLINE"),
    ("Verdict for Q3: decline.", "DECLINE"),
    ("My call for the fund: pass.", "DECLINE"),
    # a reply given to someone is the piece's answer (the corpus labels a columnist's reply so)
    ("Her answer to the member: decline.", "DECLINE"),
    # a sentence about another side, or the writer's own against theirs, opening the line: the writer's verdict
    # (a first version of the guard set these aside)
    ("The bears are wrong: invest.", "INVEST"),
    ("The bears miss the point: invest.", "INVEST"),
    ("Unlike the bears: invest.", "INVEST"),
    ("Despite the critics: invest.", "INVEST"),
])
def test_the_writers_own_label_keeps_its_confidence(closing: str, final: str) -> None:
    parsed = parse_response(MUNGER_BODY + closing + "\n", MUNGER, embedder=False)
    assert parsed.final_verdict == final and parsed.final_confidence >= REVIEW_BAR, (parsed.final_verdict, parsed.final_confidence)


def test_another_partys_label_leaves_the_writers_own_verdict_after_it() -> None:
    # the writer's own label after another's: never the bears' DECLINE (the reading may fall under the bar)
    parsed = parse_response(MUNGER_BODY + "Decision for the bears: decline.\nMy decision: invest.\n", MUNGER, embedder=False)
    assert parsed.final_verdict == "INVEST"
