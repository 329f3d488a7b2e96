"""A Russian verdict in capitals keeps its negation (s48lang's find, stop 48).

The look-alike fold (``scoring._text._unspoof_words``, s32break: "\u0420ROCEED" with a Cyrillic Er was no verdict) made
every word of look-alike letters alone Latin, wherever it stood: "НЕ ПРОЙДЕН" ("not passed") became "HE ПРОЙДЕН", the
negation was gone, and the gate read PROCEED; so did "Не пройден" ("He"), while the lower-case "не пройден" read REJECT.
A word of look-alikes alone now stays as written on a line that holds a letter only Cyrillic or Greek has; a word mixing
look-alikes with Latin letters is still made Latin on any line.
"""

from __future__ import annotations

import pytest

from ipb.scoring._text import plain_spacing
from ipb.scoring.parse import parse_response

GRAHAM = "graham_seven_tests_defensive"  # gate 6: moderate P/E ratio


@pytest.mark.parametrize("verdict", ["НЕ ПРОЙДЕН", "Не пройден", "не пройден", "НЕ ВЫПОЛНЕНО", "Не выполнено"])
def test_a_negated_russian_verdict_in_any_case_reads_reject(verdict):
    text = f"6. Moderate P/E ratio — {verdict}\nThe multiple is 34,3x, limit 15x.\n"
    # by hand: "не пройден" / "не выполнено" are the REJECT phrases of grammar/languages.yaml's Russian list
    assert [(g.gate, g.verdict) for g in parse_response(text, GRAHAM, embedder=False).gates] == [(6, "REJECT")]


@pytest.mark.parametrize("verdict", ["ПРОЙДЕН", "Пройден", "ВЫПОЛНЕНО"])
def test_the_plain_russian_verdict_in_capitals_still_reads_proceed(verdict):
    text = f"6. Moderate P/E ratio — {verdict}\nThe multiple is 12x, limit 15x.\n"
    assert [(g.gate, g.verdict) for g in parse_response(text, GRAHAM, embedder=False).gates] == [(6, "PROCEED")]


def test_the_fold_keeps_russian_words_and_still_unspoofs_latin_ones():
    # a Russian line: "НЕ", "с", "а", "о" stay Cyrillic (each is a look-alike word on a line with П, Й, Д, б, л)
    line = "НЕ ПРОЙДЕН: с ценой а не о прибыли"
    assert plain_spacing(line) == line
    # a word mixing a look-alike with Latin letters is made Latin even there, and on an English line a word of
    # look-alikes alone is too ("РЕЕК" with Cyrillic Er and Ie: PEEK)
    assert plain_spacing("РROCEED; НЕ ПРОЙДЕН") == "PROCEED; НЕ ПРОЙДЕН"
    assert plain_spacing("Gate 1: РЕЕК at the price") == "Gate 1: PEEK at the price"
    # Greek too: "ΟΧΙ" (no) beside "ΠΕΡΝΑΕΙ" (passes) stays Greek
    assert plain_spacing("ΟΧΙ, ΔΕΝ ΠΕΡΝΑΕΙ") == "ΟΧΙ, ΔΕΝ ΠΕΡΝΑΕΙ"
