"""Stop 58 (issue 13, s58prose): phenomena of the whole tuned split that the parser misread, and one tidy.

- The block-skipping passes (``_footnotes``, ``_source_lists``, ``_settings_block``) blank whole lines through one
  shared helper (``scoring/parse/_blank_lines.py``); its offsets and its blanking are worked by hand here.

Every expected value is worked by hand from the card's gates (given beside each card constant); the texts are written
for these tests, none is a corpus case.
"""

from __future__ import annotations

from ipb.scoring.parse._blank_lines import blank_lines, line_starts
from ipb.scoring.parse._footnotes import blank_footnotes
from ipb.scoring.parse._settings_block import blank_settings
from ipb.scoring.parse._source_lists import blank_source_lists


def test_line_starts_are_the_offsets_after_each_break() -> None:
    # "Gate 1" is 6 characters, "" 0, "x y" 3: lines start at 0, 7 and 8
    assert line_starts(["Gate 1", "", "x y"]) == [0, 7, 8]
    assert line_starts([""]) == [0]


def test_blank_lines_keeps_length_breaks_and_spacing_only_lines() -> None:
    text = "keep\n[1] a note\n\t\nlast"
    # line 1 (10 characters) turns into 10 spaces; line 2 (a tab only) is left; line 9 does not exist
    assert blank_lines(text, [1, 2, 9]) == "keep\n" + " " * 10 + "\n\t\nlast"
    assert blank_lines(text, []) is text
    assert len(blank_lines(text, range(4))) == len(text)


def test_the_three_passes_blank_through_the_helper() -> None:
    # the same blocks, blanked line for line: 3 lines ("Sources:" 8 characters, "- [1] card" 10, "- [2] report" 12),
    # 4 lines and 1 line ("¹ From the 2024 report." 23 characters)
    sources = "Sources:\n- [1] card\n- [2] report\nGate 1: PROCEED"
    assert blank_source_lists(sources) == (" " * 8 + "\n" + " " * 10 + "\n" + " " * 12 + "\nGate 1: PROCEED", 3)
    settings = "[Tool]\nA=1\nB=2\nC=3\nGate 1: PROCEED"
    assert blank_settings(settings) == ("      \n   \n   \n   \nGate 1: PROCEED", 4)
    notes = "Gate 1: PROCEED\u00b9\n\n\u00b9 From the 2024 report."
    assert blank_footnotes(notes) == ("Gate 1: PROCEED\u00b9\n\n" + " " * 23, 1)
