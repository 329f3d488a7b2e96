"""Regression (look-alike letters hid verdicts and gates): Cyrillic or Greek letters inside a Latin word read as Latin.

Found by the s32break review: "Gate 1: \u0420ROCEED" (a Cyrillic Er for the P) and "\u041cargin of Safety: REJE\u0421T"
(Cyrillic Em and Es) read as no verdict and no gate; text pasted through a Cyrillic keyboard layout or written to spoof
a reader carries them. A word made only of Latin letters and their look-alikes is read as the Latin word; a word
holding any other Cyrillic or Greek letter is left as written. Offsets stay those of the answer as written.
"""

from __future__ import annotations

import pytest

from ipb.scoring._text import plain_spacing
from ipb.scoring.parse import parse_response

CARD = "buffett_acquisition_checklist"


def test_look_alike_letters_in_verdicts_and_gate_names_are_read():
    text = "Gate 1: \u0420ROCEED\nGate 5 (\u041cargin of Safety): REJE\u0421T\nFinal verdict: D\u0415CLINE\n"
    parsed = parse_response(text, CARD, embedder=False)
    assert [(g.gate, g.verdict, text[slice(*g.verdict_span)]) for g in parsed.gates] == [
        (1, "PROCEED", "\u0420ROCEED"), (5, "REJECT", "REJE\u0421T")]
    assert parsed.final_verdict == "DECLINE"


@pytest.mark.parametrize("text, want", [
    ("\u0420ROCEED \u041cargin", "PROCEED Margin"),
    ("\u0391\u0392 PASS", "AB PASS"),                        # Greek capitals alone: look-alikes only
    ("\u041c\u043e\u0441\u043a\u0432\u0430 PASS", "\u041c\u043e\u0441\u043a\u0432\u0430 PASS"),  # a Russian word stays
    ("\u0391\u03b8\u03ae\u03bd\u03b1", "\u0391\u03b8\u03ae\u03bd\u03b1"),  # a Greek word stays
    ("caf\u00e9 PASS", "caf\u00e9 PASS"),
])
def test_only_words_of_latin_letters_and_look_alikes_are_folded(text, want):
    assert plain_spacing(text) == want
