"""Inputs written to break stop 35's final-verdict changes (s35break; issue 13, paper §7.5).

Hand-written closings on the Graham card (INVEST / DECLINE). Each reading was worked by hand: the verdict the writer
states, not a word their closing only mentions.
"""

from __future__ import annotations

import pytest

from parse_support import GRAHAM_BODY, final_of
from ipb.scoring.parse._judged import quoted_label

GRAHAM = "graham_seven_tests_defensive"

QUOTED = [
    # a final label quoted in running text names the form's field; it is no final cue (INVEST before this fix: the
    # quoted label made its sentence the final region, outranking the recommendation)
    ("spanish", "Recommendation: DECLINE.\n\nA 'Decisión final: invertir' would need a cheaper price.", "DECLINE"),
    ("french", "Recommendation: DECLINE.\n\nThe form's last field, \"Décision finale : investir\", is left for the committee.",
     "DECLINE"),
    ("english", "Recommendation: DECLINE.\n\nA 'Final decision: invest' would need a cheaper price.", "DECLINE"),
    # the writer's own labels still outrank the earlier recommendation
    ("own-label", "Recommendation: INVEST.\n\nDecisión final: no invertir.", "DECLINE"),
    ("quoted-line-alone", "Recommendation: INVEST.\n\n\"Final decision: DECLINE\"", "DECLINE"),
]


@pytest.mark.parametrize(("closing", "expected"), [c[1:] for c in QUOTED], ids=[c[0] for c in QUOTED])
def test_a_quoted_final_label_is_a_mention(closing: str, expected: str) -> None:
    assert final_of(GRAHAM_BODY, closing, GRAHAM) == expected


def test_quoted_label_spans() -> None:
    t = "A 'Decisión final: invertir' would need a cheaper price."
    assert quoted_label(t, t.index("Decisión"), t.index(":") + 1) is True
    j = '{"final_decision": "DECLINE"}'  # a JSON key closes its quote before the colon: a label
    assert quoted_label(j, 2, 16) is False
    assert quoted_label('He said "Final decision: ', 9, 23) is False  # the quote runs to the line's end: not closed


CONDITIONS = [
    # a final label became a final cue in 0e5c02c, so a verdict after one in a sentence opening with another language's
    # "if" outranked the recommendation (INVEST); the English "If the price halves, ..." was a condition already
    ("spanish-si", "Recommendation: DECLINE.\n\nSi el precio baja a la mitad, la decisión final: invertir.", "DECLINE"),
    ("portuguese-se", "Recommendation: DECLINE.\n\nSe o preço cair pela metade, decisão final: investir.", "DECLINE"),
    ("german-wenn", "Recommendation: DECLINE.\n\nWenn der Kurs sich halbiert, endgültige Entscheidung: investieren.", "DECLINE"),
    # "Si," answers (French "si", an unaccented Spanish "sí"): no condition; "si" inside the sentence is no condition
    ("si-comma", "Recommendation: INVEST.\n\nSi, decisión final: no invertir.", "DECLINE"),
    ("si-inside", "Recommendation: INVEST.\n\nEl precio es si acaso alto; decisión final: no invertir.", "DECLINE"),
]


@pytest.mark.parametrize(("closing", "expected"), [c[1:] for c in CONDITIONS], ids=[c[0] for c in CONDITIONS])
def test_a_sentence_opening_with_another_languages_if_is_a_condition(closing: str, expected: str) -> None:
    assert final_of(GRAHAM_BODY, closing, GRAHAM) == expected


@pytest.mark.parametrize(("closing", "expected"), [
    # a judgement on a condition refuses nothing (DECLINE before: judged_wrong stopped at "mistake")
    ("Verdict: INVEST would be a mistake only if the moat breaks, and it has not.", "INVEST"),
    ("Verdict: INVEST would be an error if the bank pulled its line, which it has not.", "INVEST"),
    # an unconditional judgement still refuses the act
    ("Verdict: INVEST would be a mistake at this price.", "DECLINE"),
])
def test_an_act_judged_wrong_on_a_condition_is_not_refused(closing: str, expected: str) -> None:
    assert final_of(GRAHAM_BODY, closing, GRAHAM) == expected


@pytest.mark.parametrize(("closing", "expected"), [
    # a condition, as a negation (0e5c02c), stops at a drawn consequence: the verdict after "so" is stated (None
    # before: the "if" anywhere in the sentence made the DECLINE a condition too)
    ("If it were cheaper we would invest, so DECLINE.", "DECLINE"),
    ("If it were cheaper, we would invest, so not now: DECLINE.", "DECLINE"),
    # the condition's own verdict stays a condition ("we would invest" is not read as INVEST)
    ("Recommendation: DECLINE. If it were cheaper, we would invest.", "DECLINE"),
    # a condition after the connective still conditions
    ("The margin is thin, so if the price falls we invest.", None),
])
def test_a_condition_stops_at_a_drawn_consequence(closing: str, expected: str | None) -> None:
    assert final_of(GRAHAM_BODY, closing, GRAHAM) == expected
