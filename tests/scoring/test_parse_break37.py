"""Stop 37 break tests (issue 13, final verdicts in other languages; paper §7.5): closings written for these tests
that the stop's readings got wrong. Each negated closing has its plain counterpart, which must keep its reading.
Expected values were worked by hand (no corpus text).
"""

from __future__ import annotations

import pytest

from parse_support import final_of
from ipb.scoring.parse import parse_response

DCF = "buffett_owner_earnings_dcf"  # outcomes INVEST / DECLINE
BODY = ("1. Owner Earnings: $2.0bn. PROCEED\n2. Discounted Intrinsic Value: $29bn. PROCEED\n"
        "3. Margin of Safety: none at the price. REJECT\n\n")

CLOSINGS = [
    # German puts "nicht" at the end of the clause, after the object: the act is negated
    ("de-object-then-nicht", "Fazit: Wir kaufen die Aktie nicht.", "DECLINE"),
    ("de-long-object-then-nicht", "Wir kaufen die Aktie von Müller heute nicht.", "DECLINE"),
    ("de-plain", "Fazit: Wir kaufen die Aktie.", "INVEST"),
    ("de-nicht-inside-object", "Fazit: Wir kaufen die nicht teure Aktie.", "INVEST"),
    # Japanese negates the verb with a suffix: 買いません is "we do not buy"
    ("ja-kaimasen", "結論：今回は買いません。", "DECLINE"),
    ("ja-kai-label", "結論：買い。", "INVEST"),
]


@pytest.mark.parametrize(("closing", "want"), [c[1:] for c in CLOSINGS], ids=[c[0] for c in CLOSINGS])
def test_negated_act_in_another_language(closing: str, want: str) -> None:
    assert final_of(BODY, closing, DCF) == want


@pytest.mark.parametrize("closing", ["Fazit: Wir kaufen die Aktie nicht.", "結論：今回は買いません。"])
def test_a_negated_closing_is_never_a_confident_invest(closing: str) -> None:
    result = parse_response(BODY + closing, DCF, embedder=False)
    assert not (result.final_verdict == "INVEST" and result.final_confidence >= 0.5)


# ---------------------------------------------------------------- a final read from a question (paper §7.5)

MET = ("1. Owner Earnings: $2.0bn. PROCEED\n2. Discounted Intrinsic Value: $29bn. PROCEED\n"
       "3. Margin of Safety: 31% below value. PROCEED\n\n")


def test_an_outcome_inside_a_quoted_question_is_no_final() -> None:
    # the closing quote after the "?" still ends a question
    assert final_of(MET, 'You asked "should we DECLINE?"', DCF) is None
    assert final_of(MET, "You asked: should we DECLINE?", DCF) is None


def test_no_to_a_question_that_names_the_fail_outcome_is_not_that_outcome() -> None:
    # "no" answers "should we DECLINE?": the writer does not decline
    assert final_of(MET, 'You asked "should we DECLINE?" The answer is no.', DCF) == "INVEST"
    assert final_of(MET, "Should we INVEST? The answer is no.", DCF) == "DECLINE"
    # a question that names no outcome keeps the plain reading: "no" is the card's fail outcome
    assert final_of(MET, "Is this the one for us? The answer is no.", DCF) == "DECLINE"


# ---------------------------------------------------------------- "would not hesitate to buy" in other languages

@pytest.mark.parametrize(("closing", "want"), [
    ("Conclusión: no dudaría en comprar.", "INVEST"),
    ("Conclusion : je n'hésiterais pas à acheter.", "INVEST"),
    ("Fazit: Wir würden nicht zögern zu kaufen.", "INVEST"),
    # a plain negation before the verb still declines
    ("Conclusión: no vamos a comprar.", "DECLINE"),
])
def test_a_negated_hesitation_is_no_negation(closing: str, want: str) -> None:
    assert final_of(MET, closing, DCF) == want
