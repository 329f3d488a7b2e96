"""Regression (a pass only in appearance read as a confident PROCEED; s39lang2, issue 13, paper §7.5 verdict-word senses).

"Criterio 1: cumple solo en apariencia" (meets it only in appearance) read PROCEED at confidence 0.85. A pass word
qualified in its clause by "only on paper", "in name only", "technically (but)" or a translation of them
(``appearance`` in ``grammar/languages.yaml``, :data:`ipb.scoring.verdict_words.APPEARANCE`) is now INCONCLUSIVE with a
hedged confidence; the writer's later committed verdict still wins ("technically passes, but ... it fails" is REJECT;
"on paper the numbers pass; in fact they pass too" is PROCEED), and a denied hedge ("not only on paper") is no hedge.
Every sentence was written for this test; the expected readings were worked by hand.
"""

from __future__ import annotations

import pytest

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response

GRAHAM = "graham_seven_tests_defensive"
P, R, I = vw.PROCEED, vw.REJECT, vw.INCONCLUSIVE
#: A second gate line after the one under test, committed, so that each answer holds a plain reading beside it.
TAIL = "\nGate 2: PROCEED.\n"

CASES = [
    ("en-only-on-paper", "Gate 1: passes only on paper.", I),
    ("en-in-name-only", "Gate 1: meets the bar in name only.", I),
    ("en-nominally", "Gate 1: nominally passes.", I),
    ("en-technically-then-fails", "Gate 1: technically passes, but revenue is inflated by one-offs; it fails.", R),
    ("en-on-paper-then-commits", "Gate 1: on paper the numbers pass; in fact they pass too.", P),
    ("en-denied-hedge", "Gate 1: PROCEED, not only on paper.", P),
    ("en-plain-pass", "Gate 1: passes.", P),
    ("es-solo-en-apariencia", "Criterio 1: cumple solo en apariencia.", I),
    ("es-sobre-el-papel", "Criterio 1: sobre el papel cumple.", I),
    ("es-no-solo", "Criterio 1: cumple, y no solo en apariencia: cumple.", P),
    ("fr-sur-le-papier", "Critère 1 : respecté sur le papier seulement.", I),
    ("fr-en-apparence", "Critère 1 : en apparence satisfait.", I),
    ("de-nur-auf-dem-papier", "Kriterium 1: nur auf dem Papier erfüllt.", I),
    ("de-dem-anschein-nach", "Kriterium 1: erfüllt, nur dem Anschein nach.", P),  # the comma closes the clause: a later aside
    ("de-nur-dem-anschein-nach-im-satz", "Kriterium 1: nur dem Anschein nach erfüllt.", I),
    ("de-nicht-nur", "Kriterium 1: nicht nur auf dem Papier erfüllt.", P),
    ("it-sulla-carta", "Criterio 1: soddisfatto solo sulla carta.", I),
    ("pt-so-no-papel", "Critério 1: atende só no papel.", I),
    ("nb-paa-papiret", "Kriterium 1: oppfylt bare på papiret.", I),
    ("da-paa-papiret", "Kriterium 1: opfyldt kun på papiret.", I),
    ("sv-paa-papperet", "Kriterium 1: uppfyllt bara på papperet.", I),
    ("ru-na-bumage", "Критерий 1: выполнено только на бумаге.", I),
    ("ru-formalno", "Критерий 1: формально соответствует.", I),
    ("vi-tren-giay-to", "Tiêu chí 1: đáp ứng trên giấy tờ.", I),
    ("pl-na-papierze", "Kryterium 1: spełnione tylko na papierze.", I),
    ("pl-pozornie", "Kryterium 1: pozornie spełnia.", I),
    ("tr-kagit-uzerinde", "Kriter 1: kağıt üzerinde karşılanıyor.", I),
    ("tr-kagit-uzerinde-capital-i", "Kriter 1: KAĞIT ÜZERİNDE karşılanıyor.", I),
    ("id-di-atas-kertas", "Kriteria 1: terpenuhi di atas kertas.", I),
    ("ar-ala-al-waraq", "المعيار 1: مستوفى على الورق فقط.", I),
    ("hi-kagaz-par", "मानदंड 1: केवल काग़ज़ पर उत्तीर्ण।", I),
    ("zh-biaomian", "第1关：表面上符合。", I),
    ("zh-plain", "第1关：符合。", P),
    ("ja-meimoku", "第1基準：名目上は適合。", I),
    ("ko-seoryusang", "1단계: 서류상 통과.", I),
    ("th-bon-kradat", "เกณฑ์ที่ 1: ผ่านเกณฑ์บนกระดาษเท่านั้น", I),
]


@pytest.mark.parametrize(("text", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_pass_only_in_appearance_is_no_confident_proceed(text: str, want: str) -> None:
    result = parse_response(text + TAIL, GRAHAM, embedder=False)
    gates = {g.gate: g for g in result.gates}
    assert gates[1].verdict == want, [(g.gate, g.verdict, g.confidence) for g in result.gates]
    assert gates[2].verdict == P
    if want == I:
        assert gates[1].confidence is not None and gates[1].confidence <= 0.6
