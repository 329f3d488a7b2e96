"""The stop-43 speed-ups of the parser read exactly as the plain code they replace (issue 13: a 1 MB answer parses
under 1 s; paper §7.5).

Each shortcut is checked against a reference written here the slow, obvious way, on texts hypothesis draws from a
few pieces (quotation marks, colons, newlines, labels naming a rival, fillers long enough to make a line "long"):

- :func:`ipb.scoring.parse._voice.still_open` jumps from quotation mark to mark instead of walking every character.
- :func:`ipb.scoring.parse._attributed._label_of_another` reads a long line's label once per line.
- :func:`ipb.scoring.parse._final_block.closing_block` tries its label pattern only at paragraph starts.

Speed itself is measured in ``bench/parse.py`` (never timed here).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from ipb.scoring.parse import _attributed, _final_block
from ipb.scoring.parse._attributed import _QUOTES, _label_names_another, _label_of_another
from ipb.scoring.parse._voice import _CJK_QUOTES, still_open


def _walk(text: str, quotes: dict[str, str], start: int = 0, stop: int | None = None) -> tuple[int, str]:
    """The loop still_open had: every character in turn."""
    opened, closers = -1, ""
    for i in range(start, len(text) if stop is None else stop):
        ch = text[i]
        if opened < 0:
            if ch in quotes:
                opened, closers = i, quotes[ch]
        elif ch in closers:
            opened, closers = -1, ""
    return opened, closers


_MARKS = 'ab "\u201c\u201d\u201e\u201a\u2018\u2019\u00ab\u00bb\u300c\u300d\u300e\u300f\uff02'


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=_MARKS, max_size=20), st.integers(0, 20), st.one_of(st.none(), st.integers(0, 20)),
       st.sampled_from([_QUOTES, _CJK_QUOTES]))
def test_still_open_reads_as_the_walk_over_every_character(text, start, stop, quotes):
    stop = None if stop is None else min(stop, len(text))  # callers stop inside the text
    assert still_open(text, quotes, start, stop) == _walk(text, quotes, start, stop)


def test_still_open_on_hand_worked_texts():
    # \u201e (0) opens a German quotation that \u201c (2) closes; "c" (6-8) is closed; the quote at 12 stays open
    assert still_open('\u201ea\u201c b "c" d "e', _QUOTES) == (12, '"')
    assert still_open('\u00bbx\u00ab y', _QUOTES) == (-1, "")
    assert still_open("\u300c\u5408\u683c", _CJK_QUOTES) == (0, "\u300d")


def _plain_label_of_another(low: str, start: int) -> bool:
    """_label_of_another before the long-line memo: back to the line's start, forward to its first colon."""
    line = low.rfind("\n", 0, start) + 1
    return _label_names_another(low, line, low.find(":", line, start))


_PIECES = ["the rival's balance sheet", "dividend record versus peers", ": ", "\n", "passes ", ". ", "x" * 2500,
           "y " * 900]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=14), st.lists(st.floats(0, 1), min_size=1, max_size=12))
def test_label_of_another_reads_as_the_plain_scan_on_long_lines(pieces, places):
    low = "".join(pieces)
    for p in places:  # several words of one text in turn: the memo of its long lines is reused between them
        start = int(p * len(low))
        assert _label_of_another(low, start) == _plain_label_of_another(low, start)


def test_a_long_line_labelled_by_a_rival_is_the_rival_s_at_every_word():
    # the label "the rival's balance sheet" opens a 30,000-character line: every verdict word on it is the rival's
    low = "intro\nthe rival's balance sheet: " + "it passes. " * 2800
    assert _label_of_another(low, len(low) - 8) and _label_of_another(low, 20_000)
    assert not _label_of_another(low, 3)  # the first line, before the label
    assert _attributed._long_lines[0] is low  # the long line was read once and kept for this text


def _plain_closing_block(text: str, last_gate_label: int) -> tuple[int, int, int] | None:
    """closing_block as it was: its multi-line label pattern tried at every line start (``finditer``)."""
    found = None
    for m in _final_block._LABEL_LINE.finditer(text, max(0, last_gate_label)):
        if m.start("label") <= last_gate_label or (m.start() > 0 and not text.endswith("\n\n", 0, m.start())):
            continue
        found = m
    if found is None:
        return None
    stop = text.find("\n\n", found.end())
    stop = len(text) if stop < 0 else stop
    if _final_block._gate_conclusion(text, last_gate_label, found, stop):
        return None
    return found.start("label"), found.end("label"), stop


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["结论：不买。", "Conclusión: no.", "1. Moat: ok", "\n", "\n\n", "  ", "Gate 2: PASS"]),
                max_size=10), st.integers(-1, 40))
def test_closing_block_finds_the_block_the_scan_of_every_line_found(pieces, last_gate_label):
    text = "".join(pieces)
    assert _final_block.closing_block(text, last_gate_label) == _plain_closing_block(text, last_gate_label)


def test_closing_block_after_a_run_of_blank_lines():
    # the label opens the paragraph after four newlines; a label inside a paragraph (after one newline) opens nothing
    text = "Gate 1: PASS\n\n\n\n结论：不买。"
    assert _final_block.closing_block(text, 0) == (16, 18, len(text))
    assert _final_block.closing_block("Gate 1: PASS\n结论：不买。", 0) is None


def test_paragraph_starts_on_a_hand_worked_text():
    # "a\nb\n\n\n\nc\n\nd": the text's start, "c" after the blank lines (7), "d" (10); blank lines are no starts
    assert _final_block._paragraph_starts("a\nb\n\n\n\nc\n\nd", 0) == [0, 7, 10]
    assert _final_block._paragraph_starts("a\nb\n\n\n\nc\n\nd", 8) == [10]
