"""Wild closings that state the decision as an act with no company name, stop 40 (issue 13; paper §7.5;
:mod:`ipb.scoring.parse._act_objects`, read by :mod:`ipb.scoring.parse._acted`).

The class these pin down (/work/notes/wild40.md, class F1): the writer's act is plain, but its object is the holding
("I'm keeping my shares", "I didn't buy a single note"), the act is in progress ("we're adding"), the subject is
dropped ("Adding today.", "Passing on this one."), or the writer speaks in the first person singular of a language
whose act list held only the plural ("no la compro", "non entro"). Every answer below was written for this test.
Each reading has its near miss: a gerund that is a clause's subject, a question, an object that is no holding, a
condition.
"""

from __future__ import annotations

import pytest

from parse_support import final_of
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._act_objects import gerund, gerund_acts, holding_object, progressive_acts

LYNCH = "lynch_portfolio_story_review"  # outcomes HOLD (pass) / SELL (fail)
LYNCH_BODY = (
    "Story Broken or Fundamentals Deteriorated: PROCEED, the clinics keep opening on plan.\n"
    "P/E Far Above the Growth Rate: PROCEED, 19 times for 21% growth.\n\n"
)
NETNET = "graham_net_net_screen"  # INVEST / DECLINE
NETNET_BODY = (
    "Price at Most Two-Thirds of Net Current Asset Value: PROCEED, the price is 58% of NCAV.\n"
    "Current Assets Not Dissipated by Losses: REJECT, three loss years have eaten a third of working capital.\n\n"
)
SOROS = "soros_conviction_weighted_position_sizing"  # SIZE_UP / CUT
SOROS_BODY = (
    "Thesis Confirmation: PROCEED, the central bank let the band widen twice.\n"
    "Payoff Asymmetry: PROCEED, five to one from here.\n\n"
)


@pytest.mark.parametrize(("body", "closing", "card", "expected"), [
    # a holding as the act's object
    (LYNCH_BODY, "Verdict: I'm keeping my shares and will rerun the check after the results.", LYNCH, "HOLD"),
    (LYNCH_BODY, "Time to sell the shares and bank the gain.", LYNCH, "SELL"),
    (NETNET_BODY, "So I did not buy a single note of it, and I will not.", NETNET, "DECLINE"),
    # the writer's act in progress, affirmed and negated
    (SOROS_BODY, "So we're adding it, from 2% to 8% of the fund.", SOROS, "SIZE_UP"),
    (NETNET_BODY, "I am not buying at this price.", NETNET, "DECLINE"),
    # a subjectless act opening a short sentence
    (SOROS_BODY, "Adding today.", SOROS, "SIZE_UP"),
    (NETNET_BODY, "Passing on this one.", NETNET, "DECLINE"),
    # the irregular past forms of buy and sell, negated or not
    (NETNET_BODY, "That is why I haven't bought it yet; I would rather wait.", NETNET, "DECLINE"),
    (LYNCH_BODY, "So we sold the stake this week.", LYNCH, "SELL"),
    # first person singular in Spanish and Italian, negated before the verb
    (NETNET_BODY, "El balance aguanta, pero quema caja. De momento no la compro.", NETNET, "DECLINE"),
    (NETNET_BODY, "Il bilancio regge ma brucia cassa. A questo prezzo non entro.", NETNET, "DECLINE"),
])
def test_a_wild_closing_act_is_the_final_verdict(body: str, closing: str, card: str, expected: str) -> None:
    assert final_of(body, closing, card) == expected


@pytest.mark.parametrize(("body", "closing", "card"), [
    (NETNET_BODY, "Buying here would be a mistake for most readers, though.", NETNET),  # the gerund is a subject
    (NETNET_BODY, "Passing on it now? I cannot tell yet.", NETNET),                     # a question
    (SOROS_BODY, "Adding to a loser is the one thing the process forbids, and this is no loser yet.", SOROS),  # a rule
    (NETNET_BODY, "I'd add the caveat that the data are old.", NETNET),  # the object is no holding
    (SOROS_BODY, "We're adding colour to the thesis in next week's note.", SOROS),  # an act in progress on no holding
    (LYNCH_BODY, "I first bought it in 2019 at half the price.", LYNCH),  # a dated act is the holding's history
])
def test_a_near_miss_states_no_final_verdict(body: str, closing: str, card: str) -> None:
    assert final_of(body, closing, card) is None


def test_an_act_in_progress_under_a_condition_is_no_decision() -> None:
    # "if" before the act: consider() leaves a conditional act open, as for every act (_final.py)
    assert final_of(NETNET_BODY, "If the losses stop, I'm buying.", NETNET) is None


@pytest.mark.parametrize(("closing", "expected"), [("Passing on this one.", "DECLINE"), ("Buying today.", "INVEST")])
def test_a_new_act_reading_stays_under_the_review_bar_alone(closing: str, expected: str) -> None:
    # a gerund act that no gate verdict backs (the one gate discussed has none) reads below the 0.7 review bar
    body = "Price at Most Two-Thirds of Net Current Asset Value: the price is 58% of NCAV.\n\n"
    result = parse_response(body + closing, NETNET, embedder=False)
    assert result.final_verdict == expected
    assert result.final_confidence < 0.7


@pytest.mark.parametrize(("verb", "form"), [
    ("add", "adding"), ("pass on", "passing on"), ("skip", "skipping"), ("exclude", "excluding"),
    ("exit", "exiting"), ("bet on", "betting on"), ("buy", "buying"), ("dump", "dumping"),
])
def test_gerund_forms(verb: str, form: str) -> None:
    assert gerund(verb) == form


def test_holding_object_takes_a_determiner_and_a_holding_noun() -> None:
    t = "keep my Bellarine shares; sell the idea; exit the rest of the position"
    assert t[5:holding_object(t, 5)] == "my Bellarine shares"
    assert holding_object(t, t.index("the idea")) is None
    start = t.index("the rest")
    assert t[start:holding_object(t, start)] == "the rest of the position"


def test_gerund_and_progressive_spans() -> None:
    t = "Adding today. We are not selling the stake."
    sentences = iter([(0, 13), (14, len(t))])
    assert [(t[s:e], side) for s, e, side in gerund_acts(t, sentences, {"add": 1, "sell": 0})] == [("Adding", 1)]
    assert [(t[s:e], side, t[o:]) for s, e, side, o in progressive_acts(t, 0, len(t), {"add": 1, "sell": 0})] == [
        ("selling", 0, "the stake.")]
