"""Final verdicts stated in everyday closing words (issue 13, "final-verdict-wild"; paper §7.5).

Real analyses rarely close with the card's outcome word. They close with a decision in plain words
("we stay on the sidelines", "the fund keeps its holding"), with a rating on a scale ("Rating: Reduce",
"Interest level: No Interest") or with a verb whose subject is the one who decides ("I'd be selling this
one"). A careful reader takes those as the verdict and still refuses conditionals, policies ("the fund
divests any issuer that ...") and compounds ("sell-side analysts"). Every text here was written for these
tests, and every expected verdict was worked by hand against the bundled card's outcomes.
"""

from __future__ import annotations

import pytest

from ipb.scoring import verdict_words as vw
from parse_support import GRAHAM_BODY, final_of as _final

GRAHAM = "graham_seven_tests_defensive"  # pass INVEST, fail DECLINE
NBIM = "nbim_gpfg_exclusion_screen"  # pass HOLD, fail DIVEST
LYNCH = "lynch_portfolio_story_review"  # pass HOLD, fail SELL

NBIM_BODY = (
    "Mandate Investment Universe: PROCEED, a listed equity outside Norway.\n"
    "Product-Based Exclusion Criteria: PROCEED, no weapons, tobacco or coal exposure.\n"
    "Council on Ethics Conduct-Based Exclusion: PROCEED, no recommendation on file.\n\n"
)
LYNCH_BODY = (
    "Story Broken or Fundamentals Deteriorated: PROCEED, same-store sales still grow 6%.\n"
    "P/E Far Above the Growth Rate: PROCEED, 18x earnings against 16% growth.\n\n"
)


# ---------------------------------------------------------------- closing sentences in plain words

PLAIN_CLOSINGS = [
    ("so-not-qualify", "So it does not qualify for the defensive portfolio.", "DECLINE"),
    ("not-qualify-as", "The stock doesn't qualify as a defensive holding this year.", "DECLINE"),
    ("qualifies-for", "It qualifies for the defensive list.", "INVEST"),
    ("sidelines", "We stay on the sidelines until the balance sheet is repaired.", "DECLINE"),
    ("too-hard-pile", "For me this one goes into the too-hard pile.", "DECLINE"),
    ("not-for-us", "Not for us at today's price.", "DECLINE"),
    ("id-be-selling", "Holding it today, I'd be selling this one.", "DECLINE"),
    ("not-buying", "We will not be buying the shares.", "DECLINE"),
    ("buying", "We are buying a starter position.", "INVEST"),
]


@pytest.mark.parametrize(("closing", "expected"), [c[1:] for c in PLAIN_CLOSINGS], ids=[c[0] for c in PLAIN_CLOSINGS])
def test_a_plain_closing_sentence_states_the_final_verdict(closing: str, expected: str) -> None:
    assert _final(GRAHAM_BODY, closing, GRAHAM) == expected


# ---------------------------------------------------------------- the one who decides as subject

def test_the_fund_as_subject_keeps_its_holding() -> None:
    # HOLD is the card's pass outcome; "keeps its holding" is an everyday phrase for it (OUTCOME_SYNONYMS)
    assert _final(NBIM_BODY, "The fund keeps its holding.", NBIM) == "HOLD"


def test_the_fund_as_subject_sells_its_stake() -> None:
    assert _final(NBIM_BODY, "Given the new finding, the fund should sell its stake.", NBIM) == "DIVEST"


def test_the_writer_keeps_holding() -> None:
    assert _final(LYNCH_BODY, "I'd keep holding it.", LYNCH) == "HOLD"


def test_a_lower_case_outcome_word_after_the_fund_is_its_decision() -> None:
    # "divest" is the card's own fail outcome in lower case; the fund as subject makes it the decision
    assert _final(NBIM_BODY, "On balance the fund will divest.", NBIM) == "DIVEST"


# ---------------------------------------------------------------- rating scales

RATINGS = [
    ("reduce", "Rating: Reduce", "DECLINE"),
    ("trim", "Recommendation - Trim", "DECLINE"),
    ("no-interest", "Interest level: No Interest", "DECLINE"),
    ("strong-interest", "Interest level: Strong Interest", "INVEST"),
    ("underweight", "Rating: Underweight", "DECLINE"),
    ("accumulate", "Recommendation \u2014 Accumulate", "INVEST"),
    ("middle-some-interest", "Interest level: Some Interest", None),  # the middle of a scale decides neither
    ("middle-neutral", "Rating: Neutral", "INCONCLUSIVE"),  # a stated neutral rating commits to neither outcome (as JSON's "signal": "neutral")
]


@pytest.mark.parametrize(("line", "expected"), [c[1:] for c in RATINGS], ids=[c[0] for c in RATINGS])
def test_a_rating_line_maps_its_scale_step_to_an_outcome(line: str, expected: str | None) -> None:
    assert _final(GRAHAM_BODY, line, GRAHAM) == expected


def test_a_rating_scale_step_is_no_verdict_as_a_bare_word() -> None:
    # "reduce" and "strong interest" in prose are no rating: only as a rating's value
    closing = "Management plans to reduce debt, and there is strong interest from bidders for the unit."
    assert _final(GRAHAM_BODY, closing, GRAHAM) is None


def test_the_rating_scale_is_part_of_the_synonym_table_and_a_card_overrides_it() -> None:
    table = vw.synonym_table("INVEST", "DECLINE", {"INVEST": ("trim",)})
    assert table["reduce"] == "DECLINE" and table["strong interest"] == "INVEST"
    assert table["trim"] == "INVEST"


# ---------------------------------------------------------------- never a verdict

NOT_VERDICTS = [
    ("rule", GRAHAM_BODY, "A defensive stock must pass every one of the seven tests.", GRAHAM),
    ("condition", GRAHAM_BODY, "If it does not qualify for the index, the fund would sell.", GRAHAM),
    ("hypothetical", GRAHAM_BODY, "Were the price lower, we'd be buying.", GRAHAM),
    ("exit-if", GRAHAM_BODY, "We would exit if the debt rose above net current assets.", GRAHAM),
    ("policy-must", NBIM_BODY, "The fund must divest any company that breaches the criteria.", NBIM),
    ("policy-any", NBIM_BODY, "The fund divests any issuer that the Ministry excludes.", NBIM),
    ("sell-side", GRAHAM_BODY, "We sell-side analysts often disagree with this screen.", GRAHAM),
    ("long-term", GRAHAM_BODY, "In conclusion, long-term holders have done well with the name.", GRAHAM),
    ("market-sidelines", GRAHAM_BODY, "Investors stayed on the sidelines in 2022, so the multiple compressed.", GRAHAM),
]


@pytest.mark.parametrize(("body", "closing", "card"), [c[1:] for c in NOT_VERDICTS], ids=[c[0] for c in NOT_VERDICTS])
def test_a_condition_a_policy_or_a_compound_is_never_the_final_verdict(body: str, closing: str, card: str) -> None:
    assert _final(body, closing, card) is None


def test_a_stated_verdict_outranks_a_score_it_conflicts_with() -> None:
    closing = "Model score 71%, but it fails the one test that must pass, so we stay on the sidelines."
    assert _final(GRAHAM_BODY, closing, GRAHAM) == "DECLINE"
