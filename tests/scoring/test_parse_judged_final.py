"""Final verdicts stated against an act or after a negated premise (issue 13, stop 35; paper §7.5).

Hand-written closings on the Graham card (INVEST / DECLINE): an act judged wrong is refused ("buying would be a
mistake", in four languages), a negation before a drawn consequence does not reach it ("It is not, so we decline"),
and a final decision label of another language ("Decisión final:") outranks an earlier recommendation as "Final
decision:" does.
"""

from __future__ import annotations

import pytest

from parse_support import GRAHAM_BODY, final_of
from ipb.scoring.parse._judged import consequence_end, judged_wrong

GRAHAM = "graham_seven_tests_defensive"

CLOSINGS = [
    ("consequence-after-negation", "If the price were below $20 we would invest. It is not, so we decline.", "DECLINE"),
    ("consequence-capitals", "If the price were below $20 we would INVEST. It is not, so we DECLINE.", "DECLINE"),
    ("therefore-after-negation", "The margin of safety is not there; therefore DECLINE.", "DECLINE"),
    ("still-negated-before-act", "So we would not invest.", "DECLINE"),
    ("judged-english-label", "Conclusion: buying would be a mistake.", "DECLINE"),
    ("judged-english-outcome-word", "Verdict: INVEST would be a mistake.", "DECLINE"),
    ("judged-negated", "Verdict: INVEST would not be a mistake.", "INVEST"),
    ("judged-spanish", "Conclusión: comprar sería un error.", "DECLINE"),
    ("judged-french", "Conclusion : acheter serait une erreur.", "DECLINE"),
    ("judged-german-lower", "Fazit: kaufen wäre ein Fehler.", "DECLINE"),
    ("french-act-stands", "Conclusion : acheter.", "INVEST"),
    ("judged-german", "Fazit: Kaufen wäre ein Fehler.", "DECLINE"),
    ("judged-chinese", "结论：买入是错误的。", "DECLINE"),
    ("not-judged-because", "Verdict: INVEST, because the consensus is wrong about the margins.", "INVEST"),
    ("final-label-spanish", "Recommendation: INVEST.\n\nDecisión final: no invertir.", "DECLINE"),
    ("final-label-french", "Recommendation: INVEST.\n\nDécision finale : ne pas investir.", "DECLINE"),
    ("final-label-portuguese", "Recommendation: INVEST.\n\nDecisão final: não investir.", "DECLINE"),
    ("buy-list", "So there you have it: Corbel checks the boxes and it goes on our buy list.", "INVEST"),
    ("buy-list-negated", "It is not going on our buy list.", "DECLINE"),
    ("final-label-german", "Empfehlung: INVESTIEREN.\n\nEndgültige Entscheidung: ablehnen.", "DECLINE"),
]


@pytest.mark.parametrize(("closing", "expected"), [c[1:] for c in CLOSINGS], ids=[c[0] for c in CLOSINGS])
def test_judged_acts_consequences_and_final_labels(closing: str, expected: str) -> None:
    assert final_of(GRAHAM_BODY, closing, GRAHAM) == expected


def test_a_rating_followed_by_an_english_error_is_not_judged() -> None:
    text = "Rating: BUY with an error band of 10%."
    assert judged_wrong(text, text.index(" with"), len(text)) is False


def test_a_foreign_mistake_word_counts_only_after_a_foreign_act() -> None:
    assert judged_wrong("Comprar sería un error.", 7, 23) is True
    assert judged_wrong("Hold sería un error.", 4, 20) is False  # "hold" is no word of another language's acts


def test_a_negator_inside_the_judgement_keeps_the_act() -> None:
    assert judged_wrong("Kaufen wäre kein Fehler.", 6, 24) is False
    assert judged_wrong("买入不是错误的。", 2, 8) is False


def test_the_consequence_starts_at_its_connective() -> None:
    text = "The price is not below $20, so we "
    assert consequence_end(text) == text.index("so we")
    assert consequence_end("It is so cheap that we ") == 0  # "so" as a degree word draws nothing
    assert consequence_end("not so much ") == 0
