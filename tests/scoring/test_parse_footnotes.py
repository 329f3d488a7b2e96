"""Regression (a footnote under an answer read as a gate statement; s39, issue 13, paper §7.5).

A breaker's answers ended with notes: "¹ ...", "[2] ...", "* ...", a "Notes:" / "Sources:" block. A note naming a
gate with a verdict word overwrote that gate's verdict. Each note below, written for this test, did so before the
fix (its gate 3 read PROCEED); the body's gate 3 is REJECT. Expected values worked by hand.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._footnotes import blank_footnotes

DCF = "buffett_owner_earnings_dcf"  # gates 1 Owner Earnings, 2 Discounted Intrinsic Value, 3 Margin of Safety
BODY = ("1. Owner Earnings: $2.0bn. PROCEED\n2. Discounted Intrinsic Value: $29bn. PROCEED\n"
        "3. Margin of Safety: none at the price\u00b9. REJECT\n\nFinal verdict: DECLINE[2]*\n\n")
WANT = [(1, "PROCEED"), (2, "PROCEED"), (3, "REJECT")]

NOTES = [
    ("superscript", "\u00b9 Margin of Safety: PROCEED in the 2022 draft."),
    ("bracket-number", "[2] Gate 3: PROCEED per the 2023 draft; final INVEST then."),
    ("asterisk", "* Margin of Safety per Graham ch. 20: PROCEED above a third."),
    ("sources-block", "Sources:\n- Margin of Safety: PROCEED (Klarman, 1991)\n- Gate 4 of the checklist: REJECT"),
    ("notes-block", "Notes:\n1. Margin of Safety: PROCEED in the 2022 draft."),
    ("all-marks", "\u00b9 Gate 3 figures from the 2023 annual report.\n[2] See gate 5 above.\n"
                  "* Margin of Safety: PROCEED per Graham ch. 20"),
]


@pytest.mark.parametrize("note", [n[1] for n in NOTES], ids=[n[0] for n in NOTES])
def test_a_footnote_under_the_answer_makes_no_gate_and_no_verdict(note: str) -> None:
    result = parse_response(BODY + note, DCF, embedder=False)
    assert [(g.gate, g.verdict) for g in result.gates] == WANT
    assert result.final_verdict == "DECLINE"


def test_a_bullet_list_is_not_a_footnote() -> None:
    # "* " opens list items too: with no "*" mark in the body it is the answer itself
    text = "* Owner Earnings: PROCEED\n* Discounted Intrinsic Value: PROCEED\n* Margin of Safety: REJECT\n\nVerdict: DECLINE"
    assert blank_footnotes(text) == (text, 0)
    result = parse_response(text, DCF, embedder=False)
    assert [(g.gate, g.verdict) for g in result.gates] == WANT


def test_bold_labels_and_a_notes_block_holding_the_answer_are_kept() -> None:
    assert blank_footnotes("**Gate 3 - Margin of Safety:** REJECT\n**Verdict: DECLINE**")[1] == 0
    assert blank_footnotes("Gate 3: REJECT\n\nNotes\n- figures from the 10-K\nScore: 2 pass, 1 fail")[1] == 0


def test_a_numbered_bracket_list_without_references_is_kept() -> None:
    text = "[1] Owner Earnings: PROCEED\n[2] Discounted Intrinsic Value: PROCEED\n[3] Margin of Safety: REJECT"
    assert blank_footnotes(text)[1] == 0


def test_only_the_trailing_notes_are_blanked_with_offsets_kept() -> None:
    text = "Gate 3: REJECT\u00b9\n\u00b9 middle note\nFinal: DECLINE\n\n\u00b9 Gate 3 figures from the 2023 report."
    out, n = blank_footnotes(text)
    assert n == 1 and len(out) == len(text)
    assert out.startswith("Gate 3: REJECT\u00b9\n\u00b9 middle note\nFinal: DECLINE\n\n") and not out.strip().endswith("report.")


# s39break: an italic "*very*" in the body made its closing "*" a reference mark, so a closing "* " bullet list
# holding every gate and the final verdict was blanked as notes (no gate read: a parse failure). Hand-read values.
ITALIC_BODY = "We looked at a *very* ordinary owner of food brands at 28x earnings.\n\nSummary:\n"
ITALIC_LIST = "* Owner Earnings: PROCEED\n* Discounted Intrinsic Value: PROCEED\n* Margin of Safety: REJECT\n* Final verdict: DECLINE\n"


def test_an_italic_word_makes_no_closing_bullet_list_a_footnote() -> None:
    assert blank_footnotes(ITALIC_BODY + ITALIC_LIST) == (ITALIC_BODY + ITALIC_LIST, 0)
    result = parse_response(ITALIC_BODY + ITALIC_LIST, DCF, embedder=False)
    assert [(g.gate, g.verdict) for g in result.gates] == WANT
    assert result.final_verdict == "DECLINE"


def test_two_asterisk_lines_are_a_list_even_when_the_body_has_a_mark() -> None:
    # "35%*" is a real mark, but one mark refers to one note: two "* " lines under it are list items
    text = "Margin of Safety: 35%* below value.\n\n* Owner Earnings: PROCEED\n* Final verdict: INVEST\n"
    assert blank_footnotes(text)[1] == 0
    # one "* " line under it is still the note, and a superscript note below it is blanked with it
    note = "Margin of Safety: 35%* below value. Final verdict: INVEST\n\n* Per Graham ch. 20\n\u00b9 2023 report\n"
    assert blank_footnotes(note)[1] == 2


# s39break: a final verdict written on a marked line under the body ("* Final verdict: DECLINE" under "35%*", a
# dagger line, a Sources: block whose last item is the conclusion) was blanked as a note: no final verdict read.
MARKED_FINALS = [
    ("asterisk-final", "3. Margin of Safety: 35%* below value. PROCEED\n\n* Final verdict: DECLINE\n"),
    ("dagger-final", "3. Margin of Safety: 35% below value. PROCEED\n\n\u2020 Decision: DECLINE\n"),
    ("sources-block-final", "3. Margin of Safety: 35% below value. PROCEED\n\nSources:\n- 2023 10-K\n- Conclusion: DECLINE\n"),
]


@pytest.mark.parametrize("tail", [m[1] for m in MARKED_FINALS], ids=[m[0] for m in MARKED_FINALS])
def test_a_final_verdict_on_a_marked_line_is_the_answer(tail: str) -> None:
    head = "1. Owner Earnings: $2.0bn. PROCEED\n2. Discounted Intrinsic Value: $29bn. PROCEED\n"
    result = parse_response(head + tail, DCF, embedder=False)
    assert result.final_verdict == "DECLINE"
    assert [(g.gate, g.verdict) for g in result.gates] == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED")]
