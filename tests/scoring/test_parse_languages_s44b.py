"""Thai, Hebrew, Arabic, Hindi, Vietnamese and Indonesian (s44langB, issue 13; paper §7.5): key nouns per concept
(``grammar/gate_terms.yaml``), appraisal words (``grammar/appraisals_foreign.yaml``), a Hebrew block of verdict words
(``grammar/languages.yaml``), Hebrew names in every sidecar, and the Hebrew and Arabic particles written onto a name
(:mod:`ipb.scoring._proclitics`).

Every answer and phrase here was written for these tests (none is corpus text); the expected readings are worked by hand
from the card's gate order: Buffett's acquisition checklist 1 circle of competence, 2 moat, 3 management, 4 intrinsic
value, 5 margin of safety, 6 holding period; Lynch's six categories 1 category, 2 price versus growth, 3 balance sheet,
4 category story check.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ipb.engine.card import load_card
from ipb.engine.registry import bundled_card_paths
from ipb.scoring import _proclitics
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse import parse_response
from ipb.scoring.parse._foreign_appraisals import foreign_appraisals
from ipb.scoring.parse._foreign_names import foreign_name_pattern
from ipb.scoring.parse._foreign_terms import term_names

FRAMEWORKS = Path(bundled_card_paths()[0]).parent
BUFFETT = "buffett_acquisition_checklist"
P, R = vw.PROCEED, vw.REJECT


def _read(text: str, card: str = BUFFETT) -> list[tuple[int, str]]:
    return [(g.gate, g.verdict) for g in parse_response(text, card, embedder=False).gates]


# -- Hebrew: the sidecar's names and the verdict words of the new block ----------------------------------------------

def test_hebrew_names_and_verdict_words_place_three_gates_out_of_order() -> None:
    text = ("- מרווח ביטחון: עובר. המחיר נמוך ב-30% מההערכה שלנו.\n"
            "- יושרת ההנהלה: נכשל. ההנהלה שינתה את הדוחות פעמיים.\n"
            "- מעגל הכשירות: עובר. עסק קמעונאי פשוט.\n")
    assert _read(text) == [(5, P), (3, R), (1, P)]


def test_hebrew_negated_verdict_and_a_name_carrying_particles() -> None:
    # "והחפיר הכלכלי" is ו (and) + ה (the) on both words of "חפיר כלכלי"; "לא עומד בקריטריון" does not meet the criterion
    text = ("- מעגל הכשירות: עובר.\n"
            "- והחפיר הכלכלי: לא עומד בקריטריון. המתחרים מעתיקים את המוצר תוך שנה.\n")
    assert _read(text) == [(1, P), (2, R)]


def test_hebrew_moving_on_is_no_pass() -> None:
    # "עובר לשלב הבא" (moves on to the next step) is the guard's continuation, no verdict of gate 1
    parsed = parse_response("- מעגל הכשירות: עובר לשלב הבא אחרי הבדיקה.\n", BUFFETT, embedder=False)
    assert [g.verdict for g in parsed.gates if g.gate == 1 and g.verdict == P] == []


def test_a_hebrew_gate_noun_numbers_a_gate() -> None:
    assert _read("שלב 2: נכשל. אין יתרון תחרותי.\nשלב 5: עובר.\n") == [(2, R), (5, P)]


# -- Arabic: particles on the sidecar's names --------------------------------------------------------------------------

def test_arabic_names_after_the_conjunction_and_the_article() -> None:
    # "وهامش الأمان" (and the margin of safety), "والقيمة الجوهرية" (and the intrinsic value): و before each name
    text = "- وهامش الأمان: مستوفى.\n- والقيمة الجوهرية: غير مستوفى. التقدير أعلى من السعر بقليل فقط.\n"
    assert _read(text) == [(5, P), (4, R)]


@pytest.mark.parametrize(("name", "text", "found"), [
    ("חוב", "והחוב גדל", True),            # ו + ה
    ("חוב", "רחוב ראשי", False),           # ר is no particle: "street"
    ("חוב", "חובה לבדוק", False),          # a longer word: "duty"
    ("ערך פנימי", "הערך הפנימי גבוה", True),  # the article on both words
    ("مديونية", "والمديونية مرتفعة", True),  # و + ال
    ("مديونية", "امديونية", False),          # ا is no particle
    ("قيمة جوهرية", "القيمة الجوهرية", True),
])
def test_particles_written_onto_a_name(name: str, text: str, found: bool) -> None:
    assert (re.search("(?i)" + foreign_name_pattern(name), text) is not None) is found


def test_only_hebrew_and_arabic_carry_particles() -> None:
    assert _proclitics.attaches("מאזן") and _proclitics.attaches("ميزانية")
    assert not any(_proclitics.attaches(w) for w in ("งบดุล", "बैलेंस शीट", "nợ vay", "utang", "Bilanz"))


# -- key nouns per concept -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("term", ["งบดุล", "מאזן", "ميزانية عمومية", "बैलेंस शीट", "bảng cân đối kế toán", "neraca"])
def test_the_balance_sheet_noun_of_each_language_goes_to_lynchs_balance_sheet_gate(term: str) -> None:
    card = load_card(FRAMEWORKS / "lynch_six_category_framework.yaml")
    assert term in term_names(card, set())[3]


@pytest.mark.parametrize("term", ["ส่วนเผื่อความปลอดภัย", "מרווח ביטחון", "هامش الأمان", "सुरक्षा मार्जिन", "biên an toàn",
                                  "margin keamanan"])
def test_the_margin_of_safety_noun_of_each_language_goes_to_buffetts_gate_5(term: str) -> None:
    card = load_card(FRAMEWORKS / f"{BUFFETT}.yaml")
    assert term in term_names(card, set())[5]


# -- appraisal words -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    ("ราคาไม่แพง", [P]),                       # Thai: ไม่ (not) before แพง (dear)
    ("งบดุลแข็งแกร่ง", [P]),
    ("ราคาแพงเกินไป", [R]),
    ("המניה יקרה מדי", [R]),                    # Hebrew: too dear
    ("המאזן לא חלש", [P]),                      # not weak
    ("הוא ביקרה את המפעל", []),                 # "ביקרה" (visited) holds "יקרה" (dear) after a particle: not read
    ("السعر ليس رخيصا", [R]),                  # Arabic: not cheap, the accusative ending
    ("الميزانية قوية", [P]),
    ("शेयर महंगा नहीं है", [P]),                  # Hindi: नहीं after the word it denies
    ("बैलेंस शीट कमजोर है", [R]),
    ("share abhi bhi mehenga hai", [R]),        # Hinglish in Latin script
    ("giá không rẻ", [R]),                     # Vietnamese: không (not) before rẻ (cheap)
    ("doanh thu chủ yếu từ xuất khẩu", []),    # "chủ yếu" (mainly) holds no "yếu" (weak) word
    ("harganya tidak murah", [R]),             # Indonesian
    ("neraca kuat", [P]),
])
def test_appraisal_words_of_the_six_languages(text: str, want: list[str]) -> None:
    assert [v for _, _, v in foreign_appraisals(text.lower(), 0, len(text), False)] == want


# -- Hebrew acts in the closing ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("closing", "final"), [
    ("בשורה התחתונה: לא קונים.", "DECLINE"),    # "we don't buy": the card's fail outcome
    ("החלטה סופית: לא להשקיע.", "DECLINE"),     # a final label and the outcome word's translation
])
def test_a_hebrew_closing_states_the_final_verdict(closing: str, final: str) -> None:
    text = "- מעגל הכשירות: עובר.\n- חפיר כלכלי: נכשל.\n\n" + closing + "\n"
    assert parse_response(text, BUFFETT, embedder=False).final_verdict == final


@pytest.mark.parametrize(("text", "want"), [
    ("संकेत मौजूद है।", [R]),                     # Hindi: the sign is there
    ("ऐसा कुछ नहीं दिखा, यह संकेत नहीं है।", [P]),   # it is no sign
    ("नीति ढीली नहीं है, यह संकेत भी नहीं है।", [P]),  # "भी" (either) between: no sign either
    ("không có tín hiệu", [P]), ("tín hiệu xuất hiện", [R]),
    ("tidak ada sinyal", [P]), ("ada sinyal", [R]),
    ("ไม่มีสัญญาณ", [P]), ("มีสัญญาณชัดเจน", [R]),
    ("אין סימן", [P]), ("הסימן קיים", [R]),
    ("لا توجد إشارة", [P]), ("الإشارة موجودة", [R]),
])
def test_a_warning_sign_present_or_absent_is_read_only_for_a_gate_that_watches_for_one(text: str, want: list[str]) -> None:
    assert [v for _, _, v in foreign_appraisals(text.lower(), 0, len(text), True)] == want
    assert foreign_appraisals(text.lower(), 0, len(text), False) == []
