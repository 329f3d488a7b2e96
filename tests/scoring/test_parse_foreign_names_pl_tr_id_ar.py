"""Gate names in Polish, Turkish, Indonesian and Arabic (s39lang2, issue 13; paper §7.5): the sidecars of the most-used
cards give them, and the parser places a gate by them.

Short answers written for these tests to Buffett's acquisition checklist (1 circle of competence, 2 moat, 3 management,
4 intrinsic value, 5 margin of safety, 6 holding period): three gates named in that language, without numbers and out
of the card's order, so only the names can place them. The Turkish answers are also written in capitals, where a
plain lower-casing would turn "I" into "i" and "İ" into "i̇" (two characters); both are folded one for one
(:func:`ipb.scoring._foreign_verdicts.fold_dotted_i`). Expected readings worked by hand.
"""

from __future__ import annotations

import pytest

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response

BUFFETT = "buffett_acquisition_checklist"
P, R = vw.PROCEED, vw.REJECT

ANSWERS = {
    "pl": ("- Margines bezpieczeństwa: spełnione. Cena leży 30% poniżej naszej wyceny.\n"
           "- Uczciwość zarządu: nie spełnia. Zarząd dwukrotnie zmienił sprawozdania.\n"
           "- Krąg kompetencji: spełnione. Prosty biznes detaliczny.\n"),
    "tr": ("- Güvenlik marjı: karşılanıyor. Fiyat değerimizin %30 altında.\n"
           "- Yönetimin dürüstlüğü: karşılanmıyor. Yönetim raporları iki kez değiştirdi.\n"
           "- Yetkinlik çemberi: karşılanıyor. Basit bir perakende işi.\n"),
    "id": ("- Margin keamanan: terpenuhi. Harga 30% di bawah nilai kami.\n"
           "- Integritas manajemen: tidak terpenuhi. Manajemen dua kali mengubah laporan.\n"
           "- Lingkaran kompetensi: terpenuhi. Bisnis ritel yang sederhana.\n"),
    "ar": ("- هامش الأمان: مستوفى. السعر أقل من تقديرنا بنسبة 30%.\n"
           "- نزاهة الإدارة: غير مستوفى. غيرت الإدارة التقارير مرتين.\n"
           "- دائرة الكفاءة: مستوفى. نشاط تجزئة بسيط.\n"),
}
WANT = [(5, P), (3, R), (1, P)]


@pytest.mark.parametrize("language", sorted(ANSWERS))
def test_gates_named_in_the_language_are_placed_by_their_names(language: str) -> None:
    parsed = parse_response(ANSWERS[language], BUFFETT, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == WANT
    assert {g.how for g in parsed.gates} == {"translation"}


def test_turkish_names_in_capitals_fold_the_dotted_and_dotless_i() -> None:
    text = ANSWERS["tr"].replace("Güvenlik marjı", "GÜVENLİK MARJI").replace("Yetkinlik çemberi", "YETKİNLİK ÇEMBERİ")
    parsed = parse_response(text, BUFFETT, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == WANT



@pytest.mark.parametrize("title", ["Yatırım ufku", "YATIRIM UFKU"])
def test_a_turkish_name_with_a_dotless_i_in_its_stem(title: str) -> None:
    # "yatırım" (investment) keeps its "ı" in the matched stem: the answer is folded to "yatirim", so the name must be too
    parsed = parse_response(ANSWERS["tr"] + f"- {title}: karşılanıyor. Uzun vadede tutmayı planlıyoruz.\n", BUFFETT, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [*WANT, (6, P)]


@pytest.mark.parametrize(("card", "text", "want"), [
    # Dalio's bubble gauge: 3 new buyers, 5 leveraged purchases; Munger's lenses: 3 mathematics, 1 economics
    ("dalio_bubble_detection_gauge", "- Zakupy na kredyt: spełnione. Dług maklerski rośnie.\n- Nowi kupujący: nie spełnia.\n",
     [(5, P), (3, R)]),
    ("munger_opportunity_evaluation", "- Matematik merceği: karşılanıyor.\n- Ekonomi merceği: karşılanmıyor.\n", [(3, P), (1, R)]),
    ("dalio_bubble_detection_gauge", "- المشترون الجدد: مستوفى.\n- الشراء بالاقتراض: غير مستوفى.\n", [(3, P), (5, R)]),
    ("munger_opportunity_evaluation", "- Lensa matematika: terpenuhi.\n- Lensa ekonomi: tidak terpenuhi.\n", [(3, P), (1, R)]),
], ids=["pl-dalio", "tr-munger", "ar-dalio", "id-munger"])
def test_more_cards_named_in_the_new_languages(card: str, text: str, want: list[tuple[int, str]]) -> None:
    assert [(g.gate, g.verdict) for g in parse_response(text, card, embedder=False).gates] == want
