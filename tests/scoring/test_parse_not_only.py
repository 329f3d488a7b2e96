"""Regression (a "not only" act read as a negated act; s39 breaker, issue 13, paper §7.5).

"Nous n'achetons pas seulement pour le dividende : nous achetons" says the writer buys, for more than one reason;
the negation is of the scope ("pas seulement", not only), not of the act. It read DECLINE. Closings written for this
test; the plain negations keep their reading. Expected values worked by hand.
"""

from __future__ import annotations

import pytest

from parse_support import final_of

DCF = "buffett_owner_earnings_dcf"  # outcomes INVEST / DECLINE
BODY = ("1. Owner Earnings: $2.0bn. PROCEED\n2. Discounted Intrinsic Value: $29bn. PROCEED\n"
        "3. Margin of Safety: 31% below value. PROCEED\n\n")

CLOSINGS = [
    ("fr-pas-seulement", "Nous n'achetons pas seulement pour le dividende: nous achetons.", "INVEST"),
    ("fr-pas-uniquement", "Nous n'achetons pas uniquement pour le dividende, nous achetons pour la valeur.", "INVEST"),
    ("de-nicht-nur", "Wir kaufen nicht nur wegen der Dividende: wir kaufen.", "INVEST"),
    ("pt-nao-so", "Não compramos só pelo dividendo: compramos.", "INVEST"),
    ("es-no-solo", "No compramos solo por el dividendo: compramos.", "INVEST"),
    ("it-non-solo", "Non compriamo solo per il dividendo: compriamo.", "INVEST"),
    ("en-not-only", "We do not buy only for the dividend: we buy.", "INVEST"),
    ("en-not-just", "We are not buying just for the dividend; we are buying.", "INVEST"),
    ("es-plain-negation", "No compramos.", "DECLINE"),
    ("en-not-buy-then-only-later", "We do not buy; only later, below $40.", "DECLINE"),
    ("fr-plain-negation", "Nous n'achetons pas.", "DECLINE"),
    ("fr-negation-then-reason", "Nous n'achetons pas: le prix est trop haut.", "DECLINE"),
    ("de-plain-negation", "Wir kaufen nicht.", "DECLINE"),
]


@pytest.mark.parametrize(("closing", "want"), [c[1:] for c in CLOSINGS], ids=[c[0] for c in CLOSINGS])
def test_a_negated_scope_is_not_a_negated_act(closing: str, want: str) -> None:
    assert final_of(BODY, closing, DCF) == want


# s39break: the act's object between it and the "not only" word ("we don't buy it just for ...") was read as a
# negated act (DECLINE, runner-up INVEST); a joining word or a "not only" of the reason keeps the act negated.
OBJECT_CLOSINGS = [
    ("en-object-between", "Final verdict: we don't buy it just for the dividend, we buy it for the moat.", "INVEST"),
    ("es-object-between", "No compramos la acción solo por el dividendo: compramos.", "INVEST"),
    ("en-join-then-only", "Final verdict: we do not buy it and only watch.", "DECLINE"),
    ("en-not-only-of-the-reason", "We would not buy it not only because of the price but because of the debt.", "DECLINE"),
]


@pytest.mark.parametrize(("closing", "want"), [c[1:] for c in OBJECT_CLOSINGS], ids=[c[0] for c in OBJECT_CLOSINGS])
def test_an_object_between_the_act_and_its_not_only_word(closing: str, want: str) -> None:
    assert final_of(BODY, closing, DCF) == want
