"""Stop 46's parser work on the n43 blind batch's tuned answers and on s45break's leftovers (s46parse).

Expected readings worked by hand against the cards (munger_business_quality_price: gate 2 High Return on Capital,
gate 5 Fair Price; outcomes INVEST / DECLINE). Rules only (embedder off), as in ``parse_support``.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

from tests.scoring.parse_support import gate_reading

MUNGER = "munger_business_quality_price"


def _final(text: str, card: str = MUNGER) -> tuple[str | None, float]:
    parsed = parse_response(text, card, embedder=False)
    assert parsed.status == "ok", parsed.reason
    return parsed.final_verdict, parsed.final_confidence


# -- s45break 7, 8: a gate verdict the writer disowns in words the parser did not know ---------------------------------

@pytest.mark.parametrize("text", [
    "Fair Price: PROCEED. That call was wrong: at 45x it is REJECT.",        # s45break 7
    "Fair Price: PROCEED (just kidding) \u2014 REJECT.",                     # s45break 8
    # three phrasings of my own
    "Fair Price: PROCEED. That verdict was an error: at 45x, REJECT.",
    "Fair Price: PROCEED, only kidding, REJECT at 45x.",
    "Fair Price: PROCEED. I was wrong there: it is REJECT at 45x.",
])
def test_a_disowned_gate_verdict_gives_way_to_the_repair(text):
    verdict, confidence = gate_reading(text, MUNGER, 5)
    assert verdict == "REJECT"  # was PROCEED 0.76: the label's first word outranked the repair
    assert confidence < 0.8  # two verdicts on one gate: a repair read, not a clean statement


@pytest.mark.parametrize("text", [
    "Fair Price: we were wrong about the moat last year; it passes at 14x.",  # wrong *about* something else
    "Fair Price: PROCEED. We were wrong to worry about the multiple.",        # no second verdict to repair to
])
def test_wrong_about_something_else_is_no_repair(text):
    assert gate_reading(text, MUNGER, 5)[0] == "PROCEED"


# -- s45break 11: the final verdict repaired in its own sentence -------------------------------------------------------

@pytest.mark.parametrize("closing", [
    "Final verdict: INVEST \u2014 I mean DECLINE.",              # s45break 11, was INVEST 0.43
    "Final verdict: INVEST \u2014 on reflection, DECLINE.",      # s45break 11, was INVEST 0.43
    "Final verdict: INVEST, I meant DECLINE.",                   # my own
])
def test_a_repaired_final_verdict_is_the_later_word(closing):
    outcome, confidence = _final("Fair Price: REJECT.\n" + closing)
    assert outcome == "DECLINE"
    assert confidence < 0.8  # two outcomes in one sentence: never a clean final


def test_i_mean_it_is_no_repair():
    assert _final("Fair Price: REJECT.\nFinal verdict: DECLINE, and I mean it.")[0] == "DECLINE"


# -- s45break 14: French present tense ("échoue", "réussit"), as the participles "échoué" / "réussi" were read -----------

def test_french_present_tense_verdicts():
    text = "Fair Price: échoue \u2014 le P/E de 45 est trop élevé.\nHigh Return on Capital: réussit (ROIC 28 %)."
    assert gate_reading(text, MUNGER, 5)[0] == "REJECT"   # was None 0.25
    assert gate_reading(text, MUNGER, 2)[0] == "PROCEED"  # was None 0.25


@pytest.mark.parametrize("text, gate, verdict", [
    # three of my own
    ("Fair Price: il échoue nettement, 45 fois les bénéfices.", 5, "REJECT"),
    ("High Return on Capital: les deux divisions réussissent, ROIC 28 %.", 2, "PROCEED"),
    ("Fair Price: le titre ne réussit pas ce test (P/E 45).", 5, "REJECT"),  # negated, listed as a whole
])
def test_french_present_tense_phrasings(text, gate, verdict):
    assert gate_reading(text, MUNGER, gate)[0] == verdict


def test_french_failure_negated_after_the_verb_is_not_a_failure():
    # "n'échoue pas": the negator follows the verb, where the French words are not negated; unread rather than REJECT
    assert gate_reading("High Return on Capital: n'échoue pas, ROIC 28 %.", MUNGER, 2)[0] != "REJECT"
