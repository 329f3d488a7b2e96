"""Gate verdicts said as the investor's or the reader's approval, as a missed target and as a measure not yet taken
(issue 13, stop 38, wild analyses; paper §7.5).

Blog posts close a criterion with what the card's investor or the reader would make of the facts ("Lynch would like
that.", "exactly what Soros looks for", "exactly the discount you want"; "Graham would balk at this."), with a figure
that "misses the target", or leave it open because a quantity "cannot be sized yet". Every text here was written for
these tests; the expected readings were worked by hand against the bundled cards. The readings are hedged: a committed
verdict word of the same section outranks them.
"""

from __future__ import annotations

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response

LYNCH = "lynch_six_category_framework"  # 1 category, 2 price versus growth, 3 balance sheet, 4 story check
SPINOFF = "greenblatt_spinoff_checklist"  # 1 institutional indifference, 2 insider incentives, 3 hidden value, 4 timing
DISTRESSED = "marks_distressed_debt"  # 1 pricing, 2 capital structure, 3 bad-case recovery, 4 return, 5 legal/process
ALL_WEATHER = "dalio_all_weather_portfolio_construction"  # 1 four environments, 2 risk parity, 3 leverage


def _read(text: str, card: str) -> dict[int, str | None]:
    result = parse_response(text, card, embedder=False)
    assert result.status == "ok", result.reason
    return {g.gate: g.verdict for g in result.gates}


def _said(text: str) -> list[tuple[str, str]]:
    """(verdict, words) of every verdict word of the vocabulary that counts in any context."""
    out = []
    for m in vw.VERDICT_PATTERN.finditer(text):
        key = next(k for k, v in m.groupdict().items() if v is not None)
        out.append((vw.VERDICT_WORDS[int(key[1:])].verdict, m.group()))
    return out


LYNCH_POST = (
    "Harbour Pet Supply, Lynch style\n\n"
    "Price versus growth: P/E of 16 on earnings growing 23% a year, so the multiple sits well under the growth rate. "
    "Lynch would like that.\n\n"
    "Balance sheet strength: $40M of net cash and no bank debt.\n"
)


def test_the_investor_would_like_it() -> None:
    assert _read(LYNCH_POST, LYNCH)[2] == "PROCEED"


def test_the_investor_would_not_like_it() -> None:
    text = LYNCH_POST.replace("so the multiple sits well under", "so the multiple sits well over").replace(
        "Lynch would like that.", "Lynch would not like that.")
    assert _read(text, LYNCH)[2] == "REJECT"


def test_the_investor_would_balk() -> None:
    text = LYNCH_POST.replace("Lynch would like that.", "Lynch would balk at paying that.")
    assert _read(text, LYNCH)[2] == "REJECT"


def test_a_committed_word_outranks_the_approval() -> None:
    # "fails" is the writer's own committed verdict on the gate; the investor's liking is hedged and yields
    text = LYNCH_POST.replace("Lynch would like that.", "Lynch would like that. Still, on our stricter rule it fails.")
    assert _read(text, LYNCH)[2] == "REJECT"


SPINOFF_POST = (
    "Weekly spin-off notes: Carrow Tools\n\n"
    "Institutional indifference. Carrow is too small for the parent's index, so the index funds have been "
    "selling since day one and nobody covers it. That is exactly the indifference you want.\n\n"
    "Insider incentives. The new CEO was paid mostly in Carrow options.\n"
)


def test_exactly_what_the_reader_wants() -> None:
    assert _read(SPINOFF_POST, SPINOFF)[1] == "PROCEED"


def test_approval_words_need_a_person_who_wants_and_a_closed_clause() -> None:
    assert _said("That is exactly what Soros looks for.") == [(vw.PROCEED, "exactly what Soros looks for")]
    assert _said("exactly the fit Marks describes: careful when others are careless") == [
        (vw.PROCEED, "exactly the fit Marks describes")]
    assert _said("exactly what a value investor wants.")[0][0] == vw.PROCEED
    # someone in the case wanting something, a look, a wish for more, a bar the writer would like: no verdict
    for text in ("It is exactly what it looks like.", "exactly what management wants, not what holders need.",
                 "exactly what cyclicals look like at the top", "I would like to see more data.",
                 "leverage of 2.1x, above the 1.5x I would like;"):
        assert _said(text) == [], text


def test_a_missed_target_fails() -> None:
    text = ("My own All Weather build\n\n"
            "The leverage. Equalising the returns needs 1.8x; my account allows 1.3x, and at 1.3x the expected "
            "return is about 4%, which misses the target I set.\n")
    assert _read(text, ALL_WEATHER)[3] == "REJECT"
    assert _said("which misses our target.") == [(vw.REJECT, "misses our target")]
    assert _said("the target price was missed") == []


def test_a_measure_not_taken_yet_is_open() -> None:
    text = ("Desk note: Pelham Rail 8% secured notes\n\n"
            "Legal and process risk. A Chapter 11 filing looks likely; the sponsor may try to move assets out of our "
            "collateral. We cannot size this risk yet.\n")
    assert _read(text, DISTRESSED)[5] == "INCONCLUSIVE"
    said = _said("We cannot quantify the dilution yet.")
    assert said == [(vw.INCONCLUSIVE, "cannot quantify")]


MAGIC = "greenblatt_magic_formula_screen"  # 1 size floor, 2 excluded sectors, 3 earnings yield and return on capital


def test_the_facts_called_strong_numbers() -> None:
    text = ("Magic formula, step by step: Pellam Tools\n\n"
            "3. Earnings Yield and Return on Capital\n\n"
            "EBIT of $90M on an enterprise value of $700M is an earnings yield near 13%, and return on capital is 38%. "
            "Both are strong numbers.\n")
    assert _read(text, MAGIC)[3] == "PROCEED"
    assert _read(text.replace("Both are strong numbers.", "These are weak figures."), MAGIC)[3] == "REJECT"


def test_an_appraisal_with_an_empty_noun_only_as_a_predicate() -> None:
    assert _said("That's the prevailing bias, and it's a strong one: analysts repeat it.") == [(vw.PROCEED, "it's a strong one")]
    # an appraisal of a noun that is not the facts ("a strong quarter"), a sign of something named after it, or one that
    # runs on: no verdict
    for text in ("It was a strong quarter.", "it is a good sign that margins rose.", "it was a strong one for the sector"):
        assert _said(text) == [], text
