"""Turkish dotted and dotless I in any casing (issue 13; :func:`ipb.scoring._foreign_verdicts.fold_dotted_i`).

Python lower-cases "İ" to two characters (i and a combining dot) and "I" to "i" where Turkish reads "ı": before the
fold, a gate marked "KARŞILANMIYOR" (not met) in capitals was read as nothing, and every offset after an "İ" moved by one.
Sentences written for these tests; the same verdict in small letters, capitals and title case reads alike, and the
spans point at the word as written.
"""

from __future__ import annotations

import pytest

from ipb.scoring import _foreign_verdicts as fv
from ipb.scoring.parse import parse_response

GRAHAM = "graham_seven_tests_defensive"
DCF = "buffett_owner_earnings_dcf"


@pytest.mark.parametrize("mark", ["karşılanmıyor", "KARŞILANMIYOR", "Karşılanmıyor", "YETERSİZ", "Yetersiz", "UYGUN DEĞİL"])
def test_a_fail_in_any_casing(mark: str) -> None:
    text = f"İLK KRİTER (satış büyüklüğü): {mark}.\nKriter 2: karşılanıyor.\n"
    parsed = parse_response(text, GRAHAM, embedder=False)
    got = {g.gate: (g.verdict, text[slice(*g.verdict_span)]) for g in parsed.gates if g.verdict_span}
    assert got[1] == ("REJECT", mark) and got[2] == ("PROCEED", "karşılanıyor")


def test_offsets_after_a_capital_dotted_i_stay_put() -> None:
    """Ten "İ" before the gate do not shift its span (lower() would make each two characters)."""
    text = "İİİİİ İİİİİ\n\nKriter 3: BAŞARISIZ, zarar yılları var.\n"
    parsed = parse_response(text, GRAHAM, embedder=False)
    (gate,) = [g for g in parsed.gates if g.gate == 3]
    assert text[slice(*gate.verdict_span)] == "BAŞARISIZ" and gate.verdict == "REJECT"


@pytest.mark.parametrize(("closing", "want"), [("NİHAİ KARAR: ALIRIM", "INVEST"), ("Nihai karar: almam", "DECLINE"),
                                              ("NİHAİ KARAR: UZAK DUR", "DECLINE")])
def test_final_label_and_word_in_capitals(closing: str, want: str) -> None:
    assert parse_response("Owner earnings are fine.\n\n" + closing + "\n", DCF, embedder=False).final_verdict == want


def test_the_fold_keeps_length_and_other_languages() -> None:
    text = "İyi bir şirket; KARŞILANMIYOR; Ærlig; Ünlü; straße; İstanbul"
    folded = fv.fold_dotted_i(text)
    assert len(folded) == len(text) and folded == "Iyi bir şirket; KARŞILANMIYOR; Ærlig; Ünlü; straße; Istanbul"
    assert fv.fold_dotted_i("ılık ışık") == "ilik işik"
