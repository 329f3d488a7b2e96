"""Final verdicts stated as an act in progress, next, dated now, or recommended (issue 13, "final verdicts in the wild";
:mod:`ipb.scoring.parse._decided`).

Regression tests for the bug kind "a decision stated in the progressive or the future is read as no verdict": the
writer, the fund, or the investor profiled is buying, keeps buying, is adding shares, is selling or trimming the
position ("He is buying regardless.", "we'll keep buying", "Selling the position this week."), or an act dated today
("Bought today: ..."). A subject that is not the decider ("Insiders are buying"), a dated past ("In 2019 we were
buying"), a negation ("I'm not buying") and "buying" as a noun ("a buying opportunity") are not such a decision.
Every text is written for this file; each expected reading is hand-labelled.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

DCF = "buffett_owner_earnings_dcf"   # outcomes INVEST / DECLINE
BUYBACK = "buffett_share_repurchase"  # outcomes REPURCHASE / NO_REPURCHASE
OPENING = "Owner earnings are about $4 a share and the discount rate is 9%.\n\n"

CASES = [
    ("profiled-investor-is-buying", DCF, "She is buying anyway, lawsuit or not.", "INVEST"),
    ("keep-buying", DCF, "At these prices we will keep buying.", "INVEST"),
    ("have-been-buying", DCF, "We've been quietly buying since the spring sell-off and will go on.", "INVEST"),
    ("adding-shares", DCF, "We're adding the shares to our income portfolio.", "INVEST"),
    ("bought-today", DCF, "Bought today: Harrow Freight and Delmont Paper.", "INVEST"),
    ("selling-gerund", DCF, "Selling the whole position by Friday.", "DECLINE"),
    ("trimming-progressive", DCF, "The fund is trimming its stake over the coming month.", "DECLINE"),
]
BUYBACK_OPENING = "Funds: the parent keeps its reserve and the units get their capital.\nPrice: well below intrinsic value.\n\n"


@pytest.mark.parametrize(("card", "closing", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_an_act_in_progress_or_next_is_the_final_verdict(card: str, closing: str, want: str) -> None:
    assert parse_response(OPENING + closing + "\n", card, embedder=False).final_verdict == want


@pytest.mark.parametrize("closing", [
    "Insiders are buying, which proves nothing.",          # not the decider
    "In 2019 we were buying heavily.",                     # a dated past: the holding's history
    "Some call it a buying opportunity.",                  # "buying" as a noun
    "We are buying time while the audit finishes.",        # an idiom, not an act on the stock
], ids=["insiders", "dated-past", "noun", "buying-time"])
def test_buying_that_is_no_decision(closing: str) -> None:
    assert parse_response(OPENING + closing + "\n", DCF, embedder=False).final_verdict is None


def test_a_board_that_keeps_buying_its_shares_repurchases() -> None:
    text = BUYBACK_OPENING + "At these prices the board will keep buying.\n"
    assert parse_response(text, BUYBACK, embedder=False).final_verdict == "REPURCHASE"


def test_not_buying_stays_a_decline() -> None:
    assert parse_response(OPENING + "I'm not buying.\n", DCF, embedder=False).final_verdict == "DECLINE"


# A recommendation or approval of the card's outcome verb in its -ing form ("Staff recommends rebalancing"): the card's
# outcome, as "the portfolio needs rebalancing" is; a negated recommendation is the other outcome.
REBALANCING = "dalio_all_weather_rebalancing"  # outcomes REBALANCE / HOLD
DRIFT = "Risk drift: the largest environment is 7 points over its 25% budget, outside the band.\n\n"


@pytest.mark.parametrize(("closing", "want"), [
    ("Staff recommends that the Board approve rebalancing the sleeve in April.", "REBALANCE"),
    ("We recommend rebalancing at the next close.", "REBALANCE"),
    ("The committee approved rebalancing on Monday.", "REBALANCE"),
    ("I'd suggest rebalancing now.", "REBALANCE"),
    ("Staff does not recommend rebalancing this quarter.", "HOLD"),
], ids=["recommends-that-board-approve", "we-recommend", "approved", "suggest", "not-recommend"])
def test_a_recommended_outcome_verb_is_the_final_verdict(closing: str, want: str) -> None:
    assert parse_response(DRIFT + closing + "\n", REBALANCING, embedder=False).final_verdict == want
