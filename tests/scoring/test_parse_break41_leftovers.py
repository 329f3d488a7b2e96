"""Whose verdict, and which label names a gate: the stop-41 breaker's leftovers (s42left, /work/notes/break41.md).

Every input is mine, in the shape of the breaker's; each expected reading is worked by hand (who commits to the
verdict, what the label is about). Precision first: where the writer's own verdict is absent, the expected reading is
none or one under the 0.7 review bar, never another's verdict at confidence.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._voice import quoted_in_cjk_report

LYNCH = "lynch_six_category_framework"
#: The review bar of ``ipb score --min-confidence`` (docs/scoring.md).
BAR = 0.7


def _gate(text: str, card: str, number: int) -> tuple[str | None, float]:
    """(verdict, confidence) of gate ``number`` in the rules-only reading of ``text``; (None, 0.0) when unread."""
    for g in parse_response(text, card, embedder=False).gates:
        if g.gate == number:
            return g.verdict, g.confidence
    return None, 0.0


# --- item 13: a verdict quoted in a Chinese or Japanese report of another's words ------------------------------------

@pytest.mark.parametrize("text,number,verdict,sure", [
    # the analyst's quoted pass, then the writer's own fail: the writer's REJECT wins (was PROCEED 0.53)
    ("株価：アナリストは「合格」と言うが、私は不合格と判断する。\n負債：少ない、合格。\n", 2, "REJECT", None),
    ("类型：分析师认为“通过”，但我们认为不通过。\n负债：很少，通过。\n", 1, "REJECT", None),
    # the quoted word alone: another's, so under the bar
    ("株価：アナリストは「合格」と言う。\n負債：少ない、合格。\n", 2, "PROCEED", False),
    ("类型：分析师认为“通过”。\n负债：很少，通过。\n", 1, "PROCEED", False),
    # the writer quoting its own judgement keeps it (0.67: a gate named by a term only stays under the bar anyway)
    ("株価：私は「合格」と判断する。\n負債：少ない、合格。\n", 2, "PROCEED", None),
])
def test_a_cjk_quoted_verdict_of_another_does_not_win(text: str, number: int, verdict: str, sure: bool | None) -> None:
    got, conf = _gate(text, LYNCH, number)
    assert got == verdict
    if sure is False:
        assert conf < 0.5  # the weak level of another speaker's word (0.45 x the term factor)
    elif sure is None:
        assert conf >= 0.5


@pytest.mark.parametrize("text,word,expected", [
    ("株価：アナリストは「合格」と言うが、私は不合格と判断する。", "合格", True),
    ("市場は『合格』と評価しているが、", "合格", True),
    ("类型：分析师认为“通过”，但我们认为不通过。", "通过", True),
    ("我们认为“通过”。", "通过", False),  # the writer's own subject
    ("判定：「合格」", "合格", False),  # a quotation with no report around it
    ("「合格」", "合格", False),
    ("アナリストは合格と言う", "合格", False),  # no quotation marks: left to the other rules
])
def test_quoted_in_cjk_report(text: str, word: str, expected: bool) -> None:
    start = text.index(word)
    assert quoted_in_cjk_report(text, 0, start, start + len(word)) is expected


# --- "Management's recommendation: invest." (break41 leftover, read 0.95): the company's own position ----------------

MUNGER = "munger_business_quality_price"
_MUNGER_BODY = "Understandable Business (Not Too Hard): PROCEED.\nHigh Return on Capital: PROCEED.\nFair Price: REJECT.\n\n"


@pytest.mark.parametrize("tail,final", [
    ("Management's recommendation: invest.", None),  # the company's management on its own stock: no verdict of the writer
    ("Management recommendation: invest.", None),
    ("The CEO's decision: invest.", None),
    ("Our recommendation: decline.", "DECLINE"),  # the writer's own label keeps its reading
    ("Recommendation: decline.", "DECLINE"),
])
def test_a_decision_label_owned_by_the_company_is_not_the_writers(tail: str, final: str | None) -> None:
    got = parse_response(_MUNGER_BODY + tail, MUNGER, embedder=False)
    assert got.final_verdict == final
    if final is not None:
        assert got.final_confidence >= BAR
    alone = parse_response(tail, MUNGER, embedder=False)
    assert alone.final_verdict == final


# --- item 12: a term heading a label about something else names no gate ---------------------------------------------

GRAHAM = "graham_seven_tests_defensive"


@pytest.mark.parametrize("text,card,number,verdict", [
    # the fund's risk class, the study's price, the sample's size: the term is not the label's subject (were 0.67)
    ("Categoría de riesgo del fondo: 4 de 7, aprobado.\n\nDeuda: baja, aprobado.\n", LYNCH, 1, None),
    ("Preis der Studie: kostenlos, bestanden.\nVerschuldung: hoch, nicht bestanden.\n", LYNCH, 2, None),
    ("Dimensione del campione: 500 titoli, superato.\nDividendi: pagati ogni anno dal 1995, superato.\n", GRAHAM, 1, None),
    ("ファンドの株価：高い、不合格。\n負債：少ない、合格。\n", LYNCH, 2, None),
    # the same terms heading a label about the company keep their gate
    ("Categoría de la empresa: stalwart, aprobado.\n\nDeuda: baja, aprobado.\n", LYNCH, 1, "PROCEED"),
    ("Preis der Aktie: zu hoch, nicht bestanden.\nVerschuldung: gering, bestanden.\n", LYNCH, 2, "REJECT"),
    ("Dimensione dell'azienda: grande, superato.\nDividendi: pagati ogni anno dal 1995, superato.\n", GRAHAM, 1, "PROCEED"),
    ("会社の株価：高い、不合格。\n負債：少ない、合格。\n", LYNCH, 2, "REJECT"),
])
def test_a_term_must_head_its_label(text: str, card: str, number: int, verdict: str | None) -> None:
    assert _gate(text, card, number)[0] == verdict


# --- item 8: another's appraisal that the writer denies right after -------------------------------------------------

BUYBACK = "buffett_share_repurchase"
_AMPLE = "Ample Funds Beyond Business Needs\n"


@pytest.mark.parametrize("body,verdict,at_most", [
    # management's word, denied: the writer's verdict is the denial, under the bar (was PROCEED 0.65)
    ("Management calls the cash position comfortable. We do not: $3B of debt falls due next year against $2B of cash.\n",
     "REJECT", 0.5),
    ("The bulls say the balance sheet is fine; I disagree.\n", "REJECT", 0.5),  # was PROCEED 0.45
    # management's word alone: another's appraisal, weak (was 0.65 as the writer's own)
    ("Management calls the cash position comfortable.\n", "PROCEED", 0.5),
    # the writer's own appraisal keeps its hedged reading
    ("The cash position is comfortable.\n", "PROCEED", 0.7),
])
def test_an_appraisal_of_another_is_not_the_writers(body: str, verdict: str, at_most: float) -> None:
    got, conf = _gate(_AMPLE + body, BUYBACK, 1)
    assert got == verdict
    assert 0.3 <= conf < at_most


@pytest.mark.parametrize("text,expected", [
    ("They call it cheap. We do not.", True),
    ("Sie nennen es cheap. Wir nicht.", True),
    ("They call it cheap; I disagree.", True),
    ("They call it cheap, but we don't agree.", True),
    ("They call it cheap. Not so.", True),
    ("They call it cheap. I don't think the price matters.", False),  # the writer's clause runs on: no denial
    ("They call it cheap, and I agree.", False),
    ("They call it cheap.\nWe do not own it.", False),
])
def test_denied_by_writer(text: str, expected: bool) -> None:
    from ipb.scoring.parse._denied import denied_by_writer

    assert denied_by_writer(text, text.index("cheap") + 5, len(text)) is expected


def test_a_noun_call_or_describe_is_no_verb_of_saying() -> None:
    """"growth call:" (a label) and "margins describe a moat" are no other speaker (a first version that listed "call"
    and "describe" as reporting verbs cut right readings on the corpus's tuned split to 0.34: n36, n24)."""
    from ipb.scoring.parse._attributed import attributed

    t = "Credit cycle confirms growth call: fails."
    assert attributed(t, 0, t.index("fails"), t.index("fails") + 5) is None
    t = "Management calls it adequate."
    assert attributed(t, 0, t.index("adequate"), t.index("adequate") + 8) == "speaker"


# --- German frames (separable verb, verb + test) and Italian "supera" + test -----------------------------------------

@pytest.mark.parametrize("section,verdict", [
    ("Das Unternehmen fällt bei der Stabilität klar durch.", "REJECT"),  # the separable verb, an adverbial between
    ("Die Aktie besteht den Test nicht.", "REJECT"),  # verb + its test, negated after (negators_after)
    ("Die Aktie besteht den Test.", "PROCEED"),
    ("L'azienda supera il test.", "PROCEED"),
    ("L'azienda non supera il test.", "REJECT"),
    # no verdict: a negator inside the frame, "durch" a preposition, "supera" as "exceeds", "besteht" as "exists"
    ("Das Unternehmen fällt bei der Stabilität nicht durch.", None),
    ("Der Kurs fällt seit Monaten durch schwache Zahlen.", None),
    ("Il debito supera il capitale.", None),
    ("Es besteht die Gefahr, dass der Gewinn sinkt.", None),
])
def test_frames_read_a_verb_with_words_between(section: str, verdict: str | None) -> None:
    assert _gate(f"Earnings Stability\n{section}\n", GRAHAM, 3)[0] == verdict
