"""Wrong verdicts this stop's new rules gave on adversarial answers (issue 13, s28break class ``wrong-new``; paper §7.5).

A wrong verdict is worse than none, so each rule here makes a reading stand back (None) where the text does not decide
the gate or the final verdict for the company today. Every text was written for these tests in other words than the
breaker's cases; every expected reading was worked by hand against the bundled card.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._closing import other_object
from ipb.scoring.parse._past import in_the_past

MUNGER = "munger_business_quality_price"  # pass INVEST, fail DECLINE; gate 3 moat, 4 management, 5 price
GRAHAM = "graham_seven_tests_defensive"  # pass INVEST, fail DECLINE; gate 3 earnings stability
MARKS = "marks_market_cycle_positioning"


def _read(text: str, card: str) -> tuple[dict[int, str | None], str | None]:
    result = parse_response(text, card, embedder=False)  # (an answer naming no gate and no verdict is a parse failure)
    return {g.gate: g.verdict for g in result.gates}, result.final_verdict


# ---------------------------------------------------------------- the object of an action word after a cue

OBJECTS = [
    # "avoid" whose object is something else than the company: no DECLINE
    ("avoid-the-noise", "Summary: avoid the noise and own the compounder. Returns on capital are 28%.", {"DECLINE"}),
    ("avoid-debt", "In short: avoid margin, just hold the shares in cash.", {"DECLINE"}),
    ("avoid-the-crowd", "Decision: avoid the crowded trades; this one is a buy.", {"DECLINE"}),
]


@pytest.mark.parametrize(("text", "wrong"), [c[1:] for c in OBJECTS], ids=[c[0] for c in OBJECTS])
def test_an_action_on_another_object_is_no_verdict_on_the_company(text: str, wrong: set[str]) -> None:
    assert _read(text, MUNGER)[1] not in wrong


def test_an_action_on_the_company_still_counts() -> None:
    assert _read("Trustworthy Management: PROCEED.\n\nTL;DR: avoid the stock.", MUNGER)[1] == "DECLINE"
    assert _read("Trustworthy Management: PROCEED.\n\nDecision: avoid.", MUNGER)[1] == "DECLINE"


def test_other_object() -> None:
    assert other_object("Verdict: avoid the froth.", 14)
    assert other_object("Verdict: avoid leverage.", 14)
    assert not other_object("Verdict: avoid it.", 14)
    assert not other_object("Verdict: avoid for now.", 14)
    assert not other_object("Verdict: avoid entirely.", 14)


# ---------------------------------------------------------------- a buy question about something else, or narrowed later

QUESTIONS = [
    ("other-instrument", "Is it worth buying the preferreds? No. The common shares, at 10x, are another matter.", None),
    ("narrowed-later", "Would I buy at any price? No. At the current 9x? Yes.", None),
    ("narrowed-later-2", "Should you invest at 40x? No. And at 12x? Yes, happily.", None),
    ("plain-question", "Returns on capital are 25%.\n\nShould you buy? No.", "DECLINE"),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in QUESTIONS], ids=[c[0] for c in QUESTIONS])
def test_a_buy_question_must_be_about_the_company_and_the_last_answered(text: str, expected: str | None) -> None:
    assert _read(text, MUNGER)[1] == expected


# ---------------------------------------------------------------- verdicts of a past time

PAST = [
    ("past-too-rich", "In 2019 it was too rich for me at 55x earnings. Returns on capital are 22%.", MUNGER),
    ("past-avoid", "Back in 2008 the obvious decision was to avoid it. Margins have since doubled.", MUNGER),
    ("past-call", "In October 2022 the right call was to buy. Spreads are now tight and investors are euphoric.", MARKS),
    ("last-year", "Last year I thought it was a sell. The price has not moved since.", MUNGER),
    ("dated-pass", "We passed on it back in 2016. Returns on capital are 24% now.", MUNGER),
    ("dated-sale", "I sold the shares two years ago; the multiple has halved since.", MUNGER),
]


@pytest.mark.parametrize(("text", "card"), [c[1:] for c in PAST], ids=[c[0] for c in PAST])
def test_a_verdict_of_a_past_time_does_not_decide_today(text: str, card: str) -> None:
    assert _read(text, card)[1] is None


def test_in_the_past() -> None:
    t = "In May 2021 the stock looked like a sell."
    assert in_the_past(t, 0, t.index("a sell"))
    t = "In 2021 it was dear, but today it's a buy."
    assert not in_the_past(t, 0, t.index("a buy"))  # the sentence turns to today
    t = "In the 1986 letter Buffett was clear: buy."
    assert not in_the_past(t, 0, t.index("buy."))  # a document, not a time
    t = "Margins were 30% and it's a buy."
    assert not in_the_past(t, 0, t.index("a buy"))  # no past time opens the sentence


# ---------------------------------------------------------------- section readings that stand back

SECTIONS = [
    # a sarcasm marker opening the clause: the appraisal means its opposite, so no reading
    ("sarcasm-sure", "Fair Price: sure, 70 times sales is a bargain. A steal, really.", MUNGER, 5, {"PROCEED"}),
    ("sarcasm-oh-yes", "Trustworthy Management: oh yes, very honest people, the third restatement in four years.", MUNGER, 4, {"PROCEED"}),
    ("sarcasm-yeah-right", "Durable Competitive Advantage: yeah right, a durable moat, with five copycats this year.", MUNGER, 3, {"PROCEED"}),
    # "not run" about part of the data: the gate was run on the rest, no N/A
    ("not-run-part", "Earnings Stability: the check was not run for the years before 2012; since then no year lost money.", GRAHAM, 3,
     {"N/A"}),
    ("not-run-against-part", "Earnings Stability: the screen was not run against the pre-IPO years; every year after shows a profit.",
     GRAHAM, 3, {"N/A"}),
    # an item under a heading of risks that says it was checked and cleared
    ("red-flag-cleared", "Red flags\n- Trustworthy Management: looked into it, clean history.\n", MUNGER, 4, {"REJECT"}),
    ("concern-cleared", "Concerns:\n- Trustworthy Management - checked, fine.\n", MUNGER, 4, {"REJECT"}),
]


@pytest.mark.parametrize(("text", "card", "gate", "wrong"), [c[1:] for c in SECTIONS], ids=[c[0] for c in SECTIONS])
def test_a_section_reading_stands_back_where_the_text_does_not_say_it(text: str, card: str, gate: int, wrong: set[str]) -> None:
    assert _read(text, card)[0].get(gate) not in wrong


KEPT = [
    ("not-run-at-all", "Earnings Stability: not run this cycle.", GRAHAM, 3, "N/A"),
    ("red-flag-item", "Red flags\n- Trustworthy Management: the CFO left after a restatement.\n", MUNGER, 4, "REJECT"),
    ("plain-appraisal", "Fair Price: the multiple is a bargain at 9x earnings.", MUNGER, 5, "PROCEED"),
]


@pytest.mark.parametrize(("text", "card", "gate", "expected"), [c[1:] for c in KEPT], ids=[c[0] for c in KEPT])
def test_the_section_readings_still_read_plain_text(text: str, card: str, gate: int, expected: str) -> None:
    assert _read(text, card)[0].get(gate) == expected


# ---------------------------------------------------------------- an appraisal of another subject in the gate's section

SUBJECTS = [
    ("another-subject-then-moat", "Durable Competitive Advantage: the cash pile is solid, but the moat has eroded to nothing.", MUNGER, 3,
     {"PROCEED"}),
    ("another-subject-first", "Durable Competitive Advantage: their brand is strong in Asia; the moat elsewhere is gone.", MUNGER, 3,
     {"PROCEED"}),
]


@pytest.mark.parametrize(("text", "card", "gate", "wrong"), [c[1:] for c in SUBJECTS], ids=[c[0] for c in SUBJECTS])
def test_an_appraisal_of_another_subject_does_not_speak_for_the_gate(text: str, card: str, gate: int, wrong: set[str]) -> None:
    assert _read(text, card)[0].get(gate) not in wrong


def test_an_appraisal_of_the_gates_own_criterion_still_counts() -> None:
    text = "Durable Competitive Advantage: the moat is intact after a decade of price wars."
    assert _read(text, MUNGER)[0].get(3) == "PROCEED"


# ---------------------------------------------------------------- an answer to a question about another company

RIVALS = [
    ("rival", "Fair Price: 14x earnings, fine for this quality.\n\nAnd the competitor down the road? No, not a buy.", None),
    ("peer-yes", "Fair Price: 40x earnings, far too dear.\n\nWhat about its peer Delta Ltd? So yes, that one is a buy.", None),
    ("own-question", "Fair Price: 40x earnings, far too dear.\n\nIs the stock a buy? So no, not a buy.", "DECLINE"),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in RIVALS], ids=[c[0] for c in RIVALS])
def test_an_answer_to_a_question_about_another_company_is_not_the_final_verdict(text: str, expected: str | None) -> None:
    assert _read(text, MUNGER)[1] == expected
