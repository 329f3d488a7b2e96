"""Bold, italic and other mathematical letters ("𝐆𝐚𝐭𝐞 𝟑: 𝐏𝐑𝐎𝐂𝐄𝐄𝐃") are read as the letters they are drawn from
(issue 13, s63 notes: unread; paper §7.5). Offsets into the answer are kept: every span still points at the text as
written. Answers written for these tests; expected readings worked by hand against the bundled cards named."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.scoring._text import plain_spacing
from ipb.scoring.parse import parse_response
from parse_support import read_gates as _read

QUALITY = "munger_business_quality_price"  # five gates; INVEST / DECLINE
SEVEN = "graham_seven_tests_defensive"  # seven tests; INVEST / DECLINE


def test_plain_spacing_reads_mathematical_letters_and_digits_as_ascii() -> None:
    # bold, italic, bold italic, sans-serif bold, monospace, double-struck digit, script B and italic h (letterlike)
    assert plain_spacing("𝐆𝐚𝐭𝐞 𝑮𝒂𝒕𝒆 𝘎𝘢𝘵𝘦 𝗣𝗔𝗦𝗦 𝚁𝙴𝙹𝙴𝙲𝚃 𝟙 ℬℎ") == "Gate Gate Gate PASS REJECT 1 Bh"


def test_bold_gate_labels_and_verdicts_are_read_on_a_five_gate_card() -> None:
    text = ("𝐆𝐚𝐭𝐞 𝟏: 𝐏𝐑𝐎𝐂𝐄𝐄𝐃 - a plain business.\n"
            "𝐆𝐚𝐭𝐞 𝟑: 𝗥𝗘𝗝𝗘𝗖𝗧, no moat to speak of.\n\n"
            "𝐅𝐢𝐧𝐚𝐥 𝐯𝐞𝐫𝐝𝐢𝐜𝐭: 𝐃𝐄𝐂𝐋𝐈𝐍𝐄")
    assert _read(text, QUALITY) == [(1, "PROCEED"), (3, "REJECT")]
    parsed = parse_response(text, QUALITY, embedder=False)
    assert parsed.final_verdict == "DECLINE"
    assert parsed.final_verdict_span is not None
    a, b = parsed.final_verdict_span
    assert text[a:b] == "𝐃𝐄𝐂𝐋𝐈𝐍𝐄"


def test_italic_test_labels_are_read_on_the_seven_test_card() -> None:
    text = "𝑻𝒆𝒔𝒕 𝟐: 𝑭𝑨𝑰𝑳 - a current ratio of 1.1.\n𝑻𝒆𝒔𝒕 𝟓: 𝑷𝑨𝑺𝑺\n\nFinal verdict: DECLINE"
    assert _read(text, SEVEN) == [(2, "REJECT"), (5, "PROCEED")]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("Gate 3: PASS\n𝐆𝐚𝐭𝐞𝟑𝐏𝐀𝐒ℎℬ\U0001d455\U0001d7ff\u00a0Ｇ"), max_size=40))
def test_plain_spacing_keeps_every_offset(text: str) -> None:
    out = plain_spacing(text)
    assert len(out) == len(text)
    # (the spaces of a blank line move, "\n \n" -> " \n\n": only the mathematical letters are checked in place)
    assert all(o == unicodedata.normalize("NFKC", t) for o, t in zip(out, text) if t >= "\U0001d400" or t in "ℎℬ")
