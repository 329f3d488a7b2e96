"""Regressions of stop 42's adversarial review (break42; issue 13; paper §7.5): a verdict that is not the writer's read
at or above the 0.7 review bar, or outranking the writer's own.

- **A verdict quoted from another speaker** (``._attributed.quoted_speaker``): 'The analyst writes: "Valuation:
  passed".' read PROCEED at 0.85 under the card's "Fair Price" heading; in German („...“) and Italian («...») the quoted
  word outranked the writer's own rejection after it. The quoted label's own colon cut the clause, so the reporting
  verb before the quotation was never seen. A verdict inside a quotation that another speaker's clause opens is now
  that speaker's (weak, 0.45); the writer quoting themself ("We wrote: "pass"") keeps it.
- **A line label naming another company** (``._attributed._label_of_another``): "Dividend history of the competitor:
  pass." read the Graham card's gate 4 PROCEED at 0.95 (by the alias "dividend history"), as did the German
  "Dividendenhistorie des Konkurrenten: bestanden."; a label comparing the case's own company with its peers
  ("Dividend record versus peers: pass") stays the writer's verdict.
- **A final decision quoted from, or labelled as, another speaker's** (``._final_checks`` through
  ``._attributed.quoted_speaker``; ``._label_owner`` speaker labels): 'Der Börsenbrief schreibt: „Entscheidung:
  INVEST“.' read INVEST at 0.85, and "The bank recommends: invest. We decline." read INVEST at 0.85 over the
  writer's own decline (a reporting or advising verb closing a label names its speaker); "We recommend:", "Staff
  recommends:" (a memo's house) and "The card says:" stay the writer's.
- **A result that did not happen, or no longer holds** (``._verdict_clauses.counterfactual``, ``._attributed``'s
  "until"): "it would have passed in 2015", "wäre bestanden", "hätte bestanden" read PROCEED at 0.95 (a perfect
  conditional or a past subjunctive states what did not happen); "passed until 2009, when the dividend was suspended"
  read PROCEED at 0.95 (a past result limited to a time gone). Both are weak now; "it would pass: EPS grew 40%" and
  "passed; paid without a break from 1990 until 2024" keep 0.95.
- **Another company as the verdict's subject** (``._attributed._another_company``): "the competitor fails; ours passes"
  read REJECT at 0.76 and "Der Konkurrent fällt durch" REJECT at 0.95; only the possessive ("the competitor's fails")
  was set aside before.
- **"The answer is no" to a question about an act** (``._closing.asked_outcome``): on the bubble card "Should we cut
  risk? The answer is no." read BUBBLE_REDUCE_RISK at 0.81 (the plain "no" taken as the fail outcome, the opposite
  of the writer's), as did the indirect "Clients keep asking whether to cut risk. Our answer is no."; the question's
  risk act now names the outcome the answer turns down, and a question about the state an outcome denies ("Is this a
  bubble?" beside NO_BUBBLE) asks for the other outcome.
- **A condition in another language** (``._verdict_clauses._CONDITIONALS``, ``supposed``): "Gewinnwachstum: Wenn der
  Gewinn um ein Drittel steigt, ist der Test bestanden." read PROCEED at 0.95 (the English "if" words only set a
  supposition apart); the unambiguous "if" words of ``languages.yaml`` now do too, and "auch wenn" / "selbst wenn"
  concede as "even if" does.
- **A clause the writer denies** (``._verdict_clauses.DENIED_THAT``): "it is not true that it fails the test; EPS grew
  50%" read REJECT at 0.95, and s42left's Italian frame read "non è vero che non supera il test" REJECT at 0.85; the
  verdict turns over, read with a reservation (under the bar).

Answers written for these tests (no corpus text); each expected verdict worked by hand against the card named beside it.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

GRAHAM = "graham_seven_tests_defensive"  # gate 4 Dividend Record (alias "dividend history"; de "Dividendenhistorie")
MUNGER = "munger_business_quality_price"  # gate 5 Fair Price

#: The review bar: a reading at or above it is taken without review.
REVIEW_BAR = 0.7


def _gate(text: str, card: str, gate: int) -> tuple[str | None, float]:
    parsed = parse_response(text, card, embedder=False)
    assert parsed.status == "ok", parsed.reason
    found = [g for g in parsed.gates if g.gate == gate]
    assert found, [g.gate for g in parsed.gates]  # the gate itself is still found: only its verdict is another's
    return found[0].verdict, found[0].confidence


@pytest.mark.parametrize("text", [
    'Fair Price\nThe analyst writes: "Valuation: passed".\n',  # read PROCEED 0.85 before
    "Fair Price\nDer Analyst schreibt: \u201eBewertung: bestanden\u201c.\n",  # 0.85
    "Fair Price\nL'analista scrive: \u00abValutazione: superato\u00bb.\n",  # 0.85
    "Fair Price\nThe broker's note says: \u201cPrice test: PASS\u201d.\n",
])
def test_a_verdict_quoted_from_another_speaker_is_not_taken_at_the_bar(text: str) -> None:
    verdict, confidence = _gate(text, MUNGER, 5)
    assert verdict == "PROCEED" and confidence < REVIEW_BAR, (verdict, confidence)


@pytest.mark.parametrize("text", [
    # the writer's own "too expensive" (52x against a fair multiple) outranks the analyst's quoted pass: read PROCEED
    # 0.68 before, the quotation taken as the writer's
    'Fair Price\nThe analyst writes: "Valuation: passed". We see it differently: 50x earnings is too expensive.\n',
    # Portuguese: "reprovado" (failed) is the writer's; the quoted "aprovado" was PROCEED 0.51 over it
    'Fair Price\nO analista escreve: "Avaliação: aprovado". Discordamos: 50x lucros é caro demais, reprovado.\n',
])
def test_the_writers_own_verdict_outranks_a_quoted_one(text: str) -> None:
    assert _gate(text, MUNGER, 5)[0] == "REJECT"


@pytest.mark.parametrize("text", [
    'Fair Price\nWe wrote in March: "Fair Price: PASS", and we stand by it: 12x earnings.\n',  # the writer's own words
    'Fair Price: "PASS" (12x earnings).\n',  # quotation marks of emphasis, no speaker
])
def test_the_writers_own_quoted_verdict_keeps_its_confidence(text: str) -> None:
    verdict, confidence = _gate(text, MUNGER, 5)
    assert verdict == "PROCEED" and confidence >= REVIEW_BAR, (verdict, confidence)


@pytest.mark.parametrize("text", [
    "Dividend history of the competitor: pass.\nOur company cut its dividend in 2009.\n",  # PROCEED 0.95 before
    "Dividendenhistorie des Konkurrenten: bestanden.\n",  # 0.95 through the German alias
    "Rival's dividend record: pass.\n",
])
def test_a_label_naming_another_company_is_not_the_cases_verdict(text: str) -> None:
    verdict, confidence = _gate(text, GRAHAM, 4)
    assert verdict != "PROCEED" or confidence < REVIEW_BAR, (verdict, confidence)


@pytest.mark.parametrize("text", [
    "Dividend record versus peers: pass (paid without a break since 1950).\n",  # the case's company compared
    "Dividend Record: pass, unlike the competitor's.\n",  # another company after the verdict, not in the label
    "Dividend Record: pass.\n",
])
def test_a_label_about_the_cases_own_company_keeps_its_verdict(text: str) -> None:
    verdict, confidence = _gate(text, GRAHAM, 4)
    assert verdict == "PROCEED" and confidence >= REVIEW_BAR, (verdict, confidence)


#: Five gates of the Munger card read PROCEED, so a final INVEST agrees with them (the agreement raises its confidence).
MUNGER_BODY = ("Understandable Business: PASS\nHigh Return on Capital: PASS\nDurable Competitive Advantage: PASS\n"
               "Trustworthy Management with Aligned Incentives: PASS\nFair Price: PASS\n\n")


def _final(closing: str) -> tuple[str | None, float]:
    parsed = parse_response(MUNGER_BODY + closing + "\n", MUNGER, embedder=False)
    assert parsed.status == "ok", parsed.reason
    return parsed.final_verdict, parsed.final_confidence


@pytest.mark.parametrize(("closing", "theirs"), [
    ("Der B\u00f6rsenbrief schreibt: \u201eEntscheidung: INVEST\u201c.", "INVEST"),  # read INVEST 0.85 before
    ("The bank recommends: invest. We decline.", "INVEST"),  # INVEST 0.85, the writer's decline lost
    ("Die Bank empfiehlt: Kaufen. Wir lehnen ab.", "INVEST"),  # INVEST 0.95
    ("The bank recommends: decline.", "DECLINE"),
])
def test_another_speakers_decision_is_not_the_writers_final(closing: str, theirs: str) -> None:
    verdict, confidence = _final(closing)
    assert verdict != theirs, (verdict, confidence)
    assert confidence < REVIEW_BAR  # the writer's own decline, where read, rests on one short sentence


@pytest.mark.parametrize("closing", [
    "We recommend: invest.",
    "Staff recommends: invest.",  # a memo names its own house so (corpus n28 board memorandum)
    "I would say: invest.",
    "The card says: invest when every gate passes. Decision: invest.",
])
def test_the_writers_own_recommendation_label_keeps_its_final(closing: str) -> None:
    verdict, confidence = _final(closing)
    assert verdict == "INVEST" and confidence >= REVIEW_BAR, (verdict, confidence)


@pytest.mark.parametrize(("text", "gate"), [
    ("Earnings Growth: it would have passed in 2015. Today growth is 5% over ten years.\n", 5),  # PROCEED 0.95 before
    ("Gewinnwachstum: w\u00e4re bestanden, wenn der Gewinn um ein Drittel gestiegen w\u00e4re.\n", 5),  # 0.95
    ("Gewinnwachstum: h\u00e4tte bestanden.\n", 5),  # 0.95
    ("Dividend Record: passed until 2009, when the dividend was suspended.\n", 4),  # 0.95: a result that no longer holds
])
def test_a_result_that_did_not_happen_or_no_longer_holds_is_not_taken_at_the_bar(text: str, gate: int) -> None:
    verdict, confidence = _gate(text, GRAHAM, gate)
    assert verdict != "PROCEED" or confidence < REVIEW_BAR, (verdict, confidence)


@pytest.mark.parametrize(("text", "gate", "verdict"), [
    ("Earnings Growth: would have passed ten years ago; today EPS growth is 5%, so it fails.\n", 5, "REJECT"),  # 0.76 before
    ("Dividend Record: it passed until the 2009 suspension; it fails now.\n", 4, "REJECT"),  # PROCEED 0.76 before
    ("Earnings Growth: it would pass: EPS grew 40% in ten years.\n", 5, "PROCEED"),  # a verdict, not a counterfactual
    ("Dividend Record: passed; paid without a break from 1990 until 2024.\n", 4, "PROCEED"),  # "until" after the facts
])
def test_the_writers_verdict_of_today_is_read_at_the_bar(text: str, gate: int, verdict: str) -> None:
    got, confidence = _gate(text, GRAHAM, gate)
    assert got == verdict and confidence >= REVIEW_BAR, (got, confidence)


@pytest.mark.parametrize("text", [
    "Gewinnwachstum: Der Konkurrent f\u00e4llt durch.\n",  # REJECT 0.95 before (the case's company is not named)
    "Earnings Growth: the competitor fails.\n",
])
def test_another_company_as_the_subject_is_not_the_cases_verdict(text: str) -> None:
    verdict, confidence = _gate(text, GRAHAM, 5)
    assert verdict != "REJECT" or confidence < REVIEW_BAR, (verdict, confidence)


@pytest.mark.parametrize("text", [
    "Earnings Growth: the competitor fails; ours passes with +50%.\n",  # REJECT 0.76 before
    "Earnings Growth: peers fail; this company passes with +50%.\n",
    "Earnings Growth: unlike the competitor, it passes.\n",
])
def test_the_cases_own_company_outranks_another_as_subject(text: str) -> None:
    verdict, confidence = _gate(text, GRAHAM, 5)
    assert verdict == "PROCEED" and confidence >= REVIEW_BAR, (verdict, confidence)


BUBBLE = "dalio_bubble_detection_gauge"  # outcomes NO_BUBBLE (pass) and BUBBLE_REDUCE_RISK (fail)
#: Two gates of the bubble card read PROCEED (no warning sign), so the final rests on the closing answer.
BUBBLE_BODY = ("Prices High Relative to Traditional Measures: PROCEED, the P/E is near its 30-year median.\n"
               "New Buyers Entering the Market: PROCEED, account openings are flat.\n\n")


@pytest.mark.parametrize(("closing", "outcome"), [
    ("Should we cut risk? The answer is no.", "NO_BUBBLE"),  # BUBBLE_REDUCE_RISK 0.81 before: inverted
    ("Should we trim our equity allocation? The answer is no.", "NO_BUBBLE"),  # 0.81 before
    ("Bottom line: clients keep asking whether to cut risk. Our answer is no.", "NO_BUBBLE"),  # 0.81 before
    ("Clients keep asking whether to cut risk. Our answer is yes.", "BUBBLE_REDUCE_RISK"),
    ("Is this a bubble? Our answer is no.", "NO_BUBBLE"),  # BUBBLE_REDUCE_RISK 0.81 before: the state NO_BUBBLE denies
    ("Are we in a bubble? The answer is no.", "NO_BUBBLE"),
    ("Is this a bubble? Our answer is yes.", "BUBBLE_REDUCE_RISK"),
])
def test_an_answer_to_a_question_about_an_act_takes_the_acts_outcome(closing: str, outcome: str) -> None:
    parsed = parse_response(BUBBLE_BODY + closing + "\n", BUBBLE, embedder=False)
    assert parsed.final_verdict == outcome, (parsed.final_verdict, parsed.final_confidence)


@pytest.mark.parametrize("text", [
    "Gewinnwachstum: Wenn der Gewinn um ein Drittel steigt, ist der Test bestanden.\n",  # PROCEED 0.95 before
    "Gewinnwachstum: Wenn der Gewinn um ein Drittel steigt, besteht es den Test.\n",  # 0.95 (s42left's frame)
    "Earnings Growth: if earnings rise by a third, it passes.\n",  # (English: none before too)
])
def test_a_verdict_inside_a_condition_states_nothing(text: str) -> None:
    assert _gate(text, GRAHAM, 5)[0] is None


@pytest.mark.parametrize("text", [
    "Gewinnwachstum: Auch wenn die Marge sinkt, ist der Test bestanden: +50 %.\n",  # a concession, then the verdict
    "Earnings Growth: even if margins dip, it passes.\n",
    "Gewinnwachstum: bestanden, der Gewinn stieg um 50 %.\n",
])
def test_a_verdict_after_a_concession_stands(text: str) -> None:
    verdict, confidence = _gate(text, GRAHAM, 5)
    assert verdict == "PROCEED" and confidence >= REVIEW_BAR, (verdict, confidence)


@pytest.mark.parametrize(("text", "verdict"), [
    ("Earnings Growth: it is not true that it fails the test; EPS grew 50%.\n", "PROCEED"),  # REJECT 0.95 before
    ("Crescita degli utili: non \u00e8 vero che non supera il test; cresce del 50%.\n", "PROCEED"),  # REJECT 0.85
    ("Earnings Growth: it is not true that it passes; EPS grew 5%.\n", "REJECT"),
])
def test_a_denied_clause_turns_its_verdict_over_with_a_reservation(text: str, verdict: str) -> None:
    got, confidence = _gate(text, GRAHAM, 5)
    assert got == verdict and confidence < REVIEW_BAR, (got, confidence)
