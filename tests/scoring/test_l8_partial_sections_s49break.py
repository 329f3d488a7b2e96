"""An L8 answer laid out per card that leaves a card out scores nothing on that card (s49break).

Found by s49break: two cards (Warren Tester: Division attack, gates Yield and Moat; Ben Grahamson: Value check,
gates Valuation and Franchise). The answer "## Warren Tester: Division attack / Gate 1 (Yield): PROCEED ... /
Final verdict: INVEST" never names Ben Grahamson or his gates, yet it was parsed whole for his card too: GRA 1.0
and VerdictAcc 1.0 there, a higher GRA than the answer that covered both cards. A card with no heading in an
answer laid out under marked headings now gets only the text under no heading (here none).
"""

from __future__ import annotations

from types import SimpleNamespace

from ipb.scoring._sections import _target_sections


def _target(card_id: str, name: str, investor: str) -> SimpleNamespace:
    return SimpleNamespace(card_id=card_id, investor=investor,
                           compiled=SimpleNamespace(card=SimpleNamespace(name=name, gates=())))


TARGETS = [_target("s49_div", "Division attack", "Warren Tester"), _target("s49_val", "Value check", "Ben Grahamson")]

WARREN = ("## Warren Tester: Division attack\nGate 1 (Yield): PROCEED, earnings yield above 5%.\n"
          "Gate 2 (Moat): PROCEED, a moat.\nFinal verdict: INVEST\n")
BEN = "## Ben Grahamson: Value check\nGate 1 (Valuation): PROCEED.\nGate 2 (Franchise): PROCEED.\nFinal verdict: INVEST\n"


def test_a_card_left_out_of_a_laid_out_answer_gets_no_text():
    sections = _target_sections(WARREN, TARGETS)
    assert sections == [[(0, len(WARREN))], []]


def test_a_card_left_out_gets_the_text_under_no_heading():
    preface = "Both frameworks read the same facts.\n"   # 37 characters, names no card
    text = preface + WARREN
    assert len(preface) == 37
    assert _target_sections(text, TARGETS) == [[(37, len(text))], [(0, 37)]]


def test_both_cards_laid_out_keep_their_own_sections():
    text = WARREN + BEN
    assert _target_sections(text, TARGETS) == [[(0, len(WARREN))], [(len(WARREN), len(text))]]


def test_prose_naming_one_investor_is_still_read_whole():
    # no marked heading: a short prose line naming one investor does not lay the answer out per card
    text = "Warren Tester would buy it.\nGate 1: PROCEED. Gate 2: PROCEED.\nFinal verdict: INVEST\n"
    assert _target_sections(text, TARGETS) is None
