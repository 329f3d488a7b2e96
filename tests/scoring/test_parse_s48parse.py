"""Stop 48's parser work on the n45 blind batch's English layouts and the leftovers of s47break and s47parse (s48parse).

Expected readings worked by hand against the card munger_business_quality_price (gates: 1 Understandable Business,
2 High Return on Capital, 3 Durable Competitive Advantage, 4 Trustworthy Management with Aligned Incentives, 5 Fair
Price; outcomes INVEST / DECLINE). Rules only (embedder off), as in ``parse_support``. Each behaviour has the brief's
input and three phrasings of my own, and controls that must read as before.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

from tests.scoring.parse_support import gate_reading, read_gates

MUNGER = "munger_business_quality_price"


def _final(text: str, card: str = MUNGER) -> tuple[str | None, float]:
    parsed = parse_response(text, card, embedder=False)
    assert parsed.status == "ok", parsed.reason
    return parsed.final_verdict, parsed.final_confidence


# -- s47break 7: a final verdict the writer takes back at once -----------------------------------------------------------
# "Final verdict: INVEST -- no, that's a joke." commits to no outcome: a careful reader records none. It read INVEST at
# 0.95 (0.76 after a gate line). The withdrawn word is now set aside, and nothing else states an outcome, so: None.

@pytest.mark.parametrize("closing", [
    "Final verdict: INVEST -- no, that's a joke.",           # s47break 7
    "Final verdict: INVEST \u2014 no, that's a joke.",       # s47break 7, with the em dash
    "Final verdict: INVEST (not)",                           # s47break 7's second form
    # three phrasings of my own
    "Final verdict: INVEST, I'm only joking.",
    "Final verdict: INVEST. Just kidding!",
    "Final verdict: INVEST... not really.",
])
def test_a_withdrawn_final_is_no_final(closing):
    assert _final("Fair Price: PROCEED.\n" + closing) == (None, 0.0)


def test_a_withdrawn_final_then_a_real_one_reads_the_real_one():
    # the joke, its withdrawal as a sentence of its own, then the verdict the writer stands by
    verdict, confidence = _final("Fair Price: REJECT.\nFinal verdict: INVEST. Okay, not really. Final verdict: DECLINE.")
    assert verdict == "DECLINE"
    assert confidence < 0.8  # the withdrawn INVEST stays the runner-up


@pytest.mark.parametrize("closing", [
    "Final verdict: INVEST, no joke.",                       # "no joke" vouches for the statement
    "Final verdict: INVEST. Not really a close call.",       # "not really" begins a new statement, not a withdrawal
])
def test_words_near_a_withdrawal_that_withdraw_nothing(closing):
    assert _final("Fair Price: PROCEED.\n" + closing)[0] == "INVEST"


# -- s47parse left: "INVEST... I mean DECLINE" -------------------------------------------------------------------------
# Three dots before a capital "I" ended the sentence, so "I mean DECLINE" was a sentence of its own and the repair was
# lost (INVEST 0.61). A self-repair opening after the dots now keeps one sentence; the later outcome is the repair.

@pytest.mark.parametrize(("closing", "repaired"), [
    ("Final verdict: INVEST... I mean DECLINE", "DECLINE"),  # s47parse "Left"
    # three phrasings of my own
    ("Final verdict: INVEST... I meant DECLINE!", "DECLINE"),
    ("Final verdict: INVEST... Or rather DECLINE.", "DECLINE"),
    ("Final verdict: INVEST... Make that DECLINE.", "DECLINE"),
])
def test_a_repair_after_three_dots_reads_the_repaired_outcome(closing, repaired):
    verdict, confidence = _final("Fair Price: REJECT.\n" + closing)
    assert verdict == repaired
    assert confidence < 0.8  # the answer wrote two outcomes


# -- s47parse left: one gate labelled twice in one sentence, split by a semicolon ----------------------------------------
# "Fair Price: REJECT; Fair Price: PROCEED" read REJECT 0.76: only a restated label opening a sentence counted. The
# gate's label restated after the semicolon now labels the words after it; the later label wins below the bar (0.57,
# as in the two-sentence form "Fair Price: REJECT. Fair Price: PROCEED.").

@pytest.mark.parametrize(("text", "later"), [
    ("Fair Price: REJECT; Fair Price: PROCEED", "PROCEED"),  # s47parse "Left"
    ("Fair Price: PROCEED; Fair Price: REJECT", "REJECT"),   # reversed
    # three phrasings of my own
    ("**Fair Price**: REJECT; **Fair Price**: PROCEED", "PROCEED"),
    ("Fair Price: PROCEED at 14x; Fair Price: REJECT at today's 45x", "REJECT"),
    ("Fair Price: REJECT on the old quote;   Fair Price: PROCEED on the new one.", "PROCEED"),
])
def test_a_gate_relabelled_after_a_semicolon_reads_the_later_label(text, later):
    verdict, confidence = gate_reading(text, MUNGER, 5)
    assert verdict == later
    assert confidence < 0.8


def test_the_same_verdict_relabelled_after_a_semicolon_stays_clean():
    verdict, confidence = gate_reading("Fair Price: PROCEED; Fair Price: PROCEED", MUNGER, 5)
    assert verdict == "PROCEED"
    assert confidence >= 0.8


def test_another_gates_label_after_a_semicolon_is_that_gates():
    assert read_gates("High Return on Capital: PROCEED; Fair Price: REJECT", MUNGER) == [(2, "PROCEED"), (5, "REJECT")]


# -- s47parse left: JSON rows of three items ---------------------------------------------------------------------------
# A top-level array of rows of one width, each row's first item a string, is a table: the first column names the gate,
# the second is its verdict, and the rest is a note. Only two-item rows were read; a third item left only the first
# row's gate read (at 0.51).

@pytest.mark.parametrize(("text", "expected"), [
    ('[["Gate 1", "PROCEED", "note"], ["Gate 2", "REJECT", "note two"]]', [(1, "PROCEED"), (2, "REJECT")]),  # the brief
    # three phrasings of my own
    ('[["Fair Price", "REJECT", "too rich at 40x"], ["High Return on Capital", "PROCEED", "ROC 25%"]]',
     [(5, "REJECT"), (2, "PROCEED")]),
    ('[["Understandable Business", "PROCEED", "simple", 1], ["Fair Price", "REJECT", "45x", 5]]',
     [(1, "PROCEED"), (5, "REJECT")]),
    ('[["Durable Competitive Advantage", "PROCEED", "brand"], ["Fair Price", "PROCEED", null]]',
     [(3, "PROCEED"), (5, "PROCEED")]),
])
def test_json_rows_with_a_note_column_are_read_as_pairs(text, expected):
    assert read_gates(text, MUNGER) == expected
    for gate, verdict in expected:
        assert gate_reading(text, MUNGER, gate) == (verdict, 0.95)


def test_ragged_json_rows_are_no_table():
    # rows of two widths are no table: no row is read as a (gate, verdict) pair at a pair's 0.95
    text = '[["Fair Price", "REJECT", "rich"], ["High Return on Capital", "PROCEED"]]'
    for gate in (2, 5):
        reading = gate_reading(text, MUNGER, gate)
        assert reading is None or reading[1] < 0.8


# -- n45 screener export: rows of a dotted report are rows, not one wrapped sentence ------------------------------------
# n45-b-screener-export-magic-formula's "Test Tickers" block ("Not an ADR ........ PASS") was read as one hard-wrapped
# sentence: each row is 45 characters or more and ends with no stop, so the unwrapper joined it to the next row and the
# rows' verdicts ran together. Two lines in a row that each hold a dot leader are two rows.

GREENBLATT = "greenblatt_magic_formula_screen"  # 1 market-cap floor, 2 excluded sectors, 3 the two ratios, 4 combined rank


@pytest.mark.parametrize(("text", "card", "expected"), [
    # the corpus case's rows (n45-b-screener-export-magic-formula), the sector row's leader lengthened to four dots
    ("Sector is not Financials or Utilities .... PASS  (Industrials)\n"
     "EBIT greater than 0 ..................... PASS  (earnings yield 14.1%, ROC 41%)\n"
     "Combined rank 30 or better .............. FAIL  (rank 34)", GREENBLATT, [(2, "PROCEED"), (3, "PROCEED"), (4, "REJECT")]),
    # three phrasings of my own
    ("High Return on Capital, five-year average above twenty ..... PASS\n"
     "Durable Competitive Advantage, brand and network ..... PASS\n"
     "Fair Price at forty-five times earnings ..... FAIL", MUNGER, [(2, "PROCEED"), (3, "PROCEED"), (5, "REJECT")]),
    ("Durable Competitive Advantage (two brands and a network) ...... PROCEED\n"
     "Fair Price: forty-five times earnings against our fifteen ....... REJECT", MUNGER, [(3, "PROCEED"), (5, "REJECT")]),
    ("Excluded Sectors: the company makes machine tools, no bank ........ PASS\n"
     "Combined Rank in the Top Group, the rank came out at 34 ........... FAIL", GREENBLATT, [(2, "PROCEED"), (4, "REJECT")]),
])
def test_dot_leader_rows_are_read_one_row_each(text, card, expected):
    assert read_gates(text, card) == expected


# -- n45 screener export: a pasted settings file names no gate ----------------------------------------------------------
# The export's "[Screener]" block ("Filter1=MarketCap|>|50000000", ..., "Filter5=MF_CombinedRank|<=|30", "Ranked=1") is
# the tool's configuration: "Filter1" counted as gate 1 and "Filter5" as gate 5, and "Ranked=1" was fuzzily gate 4
# (REJECT 0.48 was read from it). The block is now skipped, with a note; the writer's own lines after it are read.

@pytest.mark.parametrize("settings", [
    "[Screener]\nName=quality_screen\nFilter1=ROIC|>|0.15\nFilter2=PE|<|20\nFilter5=Moat|=|wide",
    # three phrasings of my own
    "[Export]\nVersion=7\nRanked=1\nCheck1=ROC>0.15\nCheck5=PE<20",
    "[screen.settings]\nuniverse=US\nfilter_1=roic|>|15\nfilter_5=pe|<|20\nsort=rank",
    "  [Criteria]\n  Step1=Understandable\n  Step2=ROIC|>|15\n  Step5=PE|<|15\n  Notes=rerun in January",
])
def test_a_settings_block_is_not_read_as_gates(settings):
    text = settings + "\n\nHigh Return on Capital: PROCEED (ROC 25%)\nFair Price: REJECT (45x)"
    parsed = parse_response(text, MUNGER, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(2, "PROCEED"), (5, "REJECT")]
    assert any("settings file" in note for note in parsed.notes)


def test_a_settings_block_of_verdicts_is_the_writers_answer():
    # "Gate1=PROCEED": the values are verdicts, so this is the writer's compact answer, read as before
    assert read_gates("[Gates]\nGate1=PROCEED\nGate2=PROCEED\nGate5=REJECT", MUNGER) == [(1, "PROCEED"), (2, "PROCEED"), (5, "REJECT")]
