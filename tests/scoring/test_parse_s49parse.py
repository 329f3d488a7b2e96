"""Stop 49's parser work on the n46 blind batch's English answers (s49parse).

Expected readings worked by hand. Cards: munger_business_quality_price (1 Understandable Business, also "too-hard
pile"; 2 High Return on Capital; 3 Durable Competitive Advantage; 5 Fair Price), marks_risk_return_assessment (1 Price
Relative to Value, 3 Risk of Permanent Loss, 4 Second-Level Thinking), graham_defensive_portfolio_selection (5 Large,
prominent, conservatively financed) and dalio_debt_supercycle_navigation (1 Long-Term Debt Cycle Phase, 2 Phase
Positioning Test). Rules only (embedder off). Each behaviour has the corpus's or the brief's input, three phrasings of
my own, and controls that must read as before.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

from tests.scoring.parse_support import gate_reading

MUNGER = "munger_business_quality_price"
MARKS = "marks_risk_return_assessment"
GRAHAM = "graham_defensive_portfolio_selection"
DALIO = "dalio_debt_supercycle_navigation"


def _parse(text: str, card: str):
    parsed = parse_response(text, card, embedder=False)
    assert parsed.status == "ok", parsed.reason
    return parsed


# -- a verdict keyword set down alone after the reasoning ------------------------------------------------------------
# "... 25% meets the 25% "excessive" cut-off in [2]. ❌ REJECT" (n46-a-mrr04-pendulum-assumed-retrieved) read PROCEED
# 0.76: "meets", the first verdict word after the label, took a label's level and the closing REJECT only the
# runner-up's. The brief's "Too-hard pile? Nope! ... PROCEED ✅" read REJECT 0.51 the same way, and "... their separate
# test does not arise. PROCEED." (n46-a-gdp03-frontier-all-seven, gate 5) read N/A. The capitalised keyword alone in
# its sentence is the verdict stated for the gate and now wins; the earlier word stays the runner-up, so the
# confidence stays under the 0.8 bar where the two disagree.

@pytest.mark.parametrize(("text", "card", "gate", "verdict"), [
    ('- **Permanent loss:** 25% meets the 25% "excessive" cut-off in [2]. \u274c REJECT', MARKS, 3, "REJECT"),  # corpus
    ("**Too-hard pile?** Nope! Selling soap is easy to understand. PROCEED \u2705", MUNGER, 1, "PROCEED"),  # the brief
    ("5. **Large, prominent, conservatively financed** \u2014 sales of $4.26B; no utilities or rails, so their separate\n"
     "   test does not arise. PROCEED.", GRAHAM, 5, "PROCEED"),                                              # corpus
    # three phrasings of my own
    ("Fair Price: the stock clears the 10% hurdle only on last year's peak earnings. REJECT.", MUNGER, 5, "REJECT"),
    ("Durable Competitive Advantage: the moat does not apply to the new segment, which is small. **PROCEED**",
     MUNGER, 3, "PROCEED"),
    ("High Return on Capital: returns met the bar only in the boom year of 2021. \u2717 REJECT", MUNGER, 2, "REJECT"),
])
def test_a_keyword_alone_after_the_reasoning_is_the_gates_verdict(text, card, gate, verdict):
    reading = gate_reading(text, card, gate)
    assert reading is not None
    assert reading[0] == verdict
    assert reading[1] < 0.8  # an earlier word said otherwise: the reading competes


def test_a_keyword_alone_that_agrees_raises_no_doubt():
    # "Nope" is not in the way here: the label's own word and the closing keyword agree
    verdict, confidence = gate_reading("Fair Price: 12x earnings for a 20% return business is fine. PROCEED \u2705",
                                       MUNGER, 5)
    assert verdict == "PROCEED" and confidence >= 0.8


@pytest.mark.parametrize("text", [
    "Fair Price: REJECT. The price is 30x earnings.",        # the label's word, then a fact: as before
    "Fair Price: REJECT. The price is 30x earnings. Pass.",  # a lower-case sentence word is no keyword set down
])
def test_controls_the_label_word_stands(text):
    assert gate_reading(text, MUNGER, 5)[0] == "REJECT"


def test_an_answer_particle_alone_is_no_keyword():
    # "No." after a statement answers no question the reader can see: it states no verdict for Fair Price
    assert gate_reading("Fair Price: the price is 30x earnings. No.", MUNGER, 5)[0] is None


# -- labels of the answer's own apparatus: a point under a gate's label, a tally -------------------------------------
# "Gate 1 — Long-Term Debt Cycle Phase\n- Kill check: ..., not triggered." (n46-a-dsc01-refusal-then-card) reported the
# bullet "Kill check" as an invented gate; "**Tally:** 2 favourable, 1 unfavourable, 2 undetermined."
# (n46-a-mrr04-frontier-count) reported "Tally". Neither is a gate the card lacks: the first is a step of gate 1's
# working, the second counts the gates.

REFUSAL = (
    "Gate 1 \u2014 Long-Term Debt Cycle Phase\n"
    "- Kill check: foreign_currency_debt_share 20% < 50%, not triggered.\n"
    "- Verdict: PROCEED, phase = early.\n\n"
    "Gate 2 \u2014 Phase Positioning Test\n"
    "- Early phase: REJECT only if nominal_gdp_growth < long_bond_yield. Here 8% \u2265 6%.\n"
    "- Verdict: PROCEED.\n"
)

MARKS_TALLY = (
    "1. **Price relative to value \u2014 PROCEED.** $75M for $100M of value.\n"
    "2. **Risk of permanent loss \u2014 REJECT.** A 25% probability is high.\n"
    "3. **Second-level thinking \u2014 INCONCLUSIVE.** The investor's view is not disclosed.\n\n"
    "**Tally:** 1 favourable, 1 unfavourable, 1 undetermined.\n"
)


def test_a_point_under_a_gate_line_is_no_invented_gate():
    parsed = _parse(REFUSAL, DALIO)
    assert parsed.invented_gates == []
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (2, "PROCEED")]


def test_a_tally_is_no_invented_gate_and_no_gates_evidence():
    parsed = _parse(MARKS_TALLY, MARKS)
    assert parsed.invented_gates == []
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (3, "REJECT"), (4, "INCONCLUSIVE")]
    assert parsed.gates[-1].confidence >= 0.8  # "1 favourable" in the tally is not gate 4's runner-up


@pytest.mark.parametrize(("text", "gates"), [
    # three phrasings of my own: points under a gate's own line
    ("Gate 5 \u2014 Fair Price\n- Kill check: price 12x earnings, not triggered.\n- Verdict: PROCEED", [(5, "PROCEED")]),
    ("Gate 3 \u2014 Durable Competitive Advantage\n- Switching-cost test: passes, churn 3%.\n- Verdict: PROCEED",
     [(3, "PROCEED")]),
    ("### Durable Competitive Advantage\n- Brand test: passes easily\n- Verdict: PROCEED\n### Fair Price\n- Verdict: REJECT",
     [(3, "PROCEED"), (5, "REJECT")]),
    # and tallies
    ("1. **Understandable Business \u2014 PASS.** Soap.\n2. **Fair Price \u2014 FAIL.** 40x.\n\n**Tally:** 1 pass, 1 fail.",
     [(1, "PROCEED"), (5, "REJECT")]),
    ("1. **Understandable Business \u2014 PASS.** Soap.\n2. **Fair Price \u2014 FAIL.** 40x.\n\n"
     "**Scoreboard:** 1 PROCEED / 1 REJECT", [(1, "PROCEED"), (5, "REJECT")]),
])
def test_apparatus_labels_of_my_own(text, gates):
    parsed = _parse(text, MUNGER)
    assert parsed.invented_gates == []
    assert [(g.gate, g.verdict) for g in parsed.gates] == gates


def test_control_a_sibling_item_with_a_verdict_stays_invented():
    # the gates are items of this very list: a third item with a verdict is a gate the card lacks (FM-1)
    parsed = _parse("- Understandable Business: PASS\n- ESG screen: FAIL\n- Fair Price: PASS", MUNGER)
    assert parsed.invented_gates == ["ESG screen"]


def test_control_one_counted_group_is_no_tally():
    # "2 of 7 directors" counts directors, not verdicts: the label keeps its reading as before (an invented gate)
    parsed = _parse("- Understandable Business: PASS\n- Board independence: 2 of 7 directors, FAIL\n- Fair Price: PASS",
                    MUNGER)
    assert parsed.invented_gates == ["Board independence"]


# -- JSON rows that open on lines of their own ------------------------------------------------------------------------
# s48parse "Left": '[\n ["Durable Competitive Advantage", "PROCEED"],\n ["Fair Price", "PROCEED"]\n]' read only the first
# row (0.85): the quick test for a table of rows looked for "[[" with spaces removed, so a line break between the two
# brackets hid the table and the rows were read as loose lines. An array opening an array across any white space is
# now scanned as the table it is: each row's first item the gate, its second the verdict.

@pytest.mark.parametrize("text", [
    '[\n ["Durable Competitive Advantage", "PROCEED"],\n ["Fair Price", "REJECT"]\n]',                 # s48parse left
    '[\n ["Durable Competitive Advantage", "PROCEED", "brand"],\n ["Fair Price", "REJECT", "40x"]\n]',  # three items
    # three phrasings of my own
    '[\n  ["Durable Competitive Advantage", "PROCEED"],\n  ["Fair Price", "REJECT"]\n]',                 # two spaces
    '[\n["Durable Competitive Advantage", "PROCEED"],\n["Fair Price", "REJECT"]\n]',                     # no indent
    'Scores:\n[\n    ["Durable Competitive Advantage", "PROCEED", "pricing power"],\n    ["Fair Price", "REJECT", "40x"],\n]',
])
def test_json_rows_over_several_lines_read_every_row(text):
    parsed = _parse(text, MUNGER)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(3, "PROCEED"), (5, "REJECT")]
    assert min(g.confidence for g in parsed.gates) >= 0.8  # each row states its gate's verdict outright


@pytest.mark.parametrize("text", [
    # shapes another reader already took row by row before this change: they must keep reading both rows
    '[\n\t["Durable Competitive Advantage", "PROCEED"],\n\n\t["Fair Price", "REJECT"]\n]',
    '```json\n[\n  ["Durable Competitive Advantage", "PROCEED"],\n  ["Fair Price", "REJECT"],\n]\n```',
    'Gate table:\n[\n    [\n      "Durable Competitive Advantage", "PROCEED"\n    ],\n    [\n      "Fair Price", "REJECT"\n    ]\n]',
])
def test_control_row_tables_read_before_still_read(text):
    parsed = _parse(text, MUNGER)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(3, "PROCEED"), (5, "REJECT")]


def test_control_citations_on_lines_of_their_own_are_no_table():
    # "[1]" and "[2]" opening lines are references, not rows: the answer's labels are read as before
    text = "Durable Competitive Advantage: PROCEED [1]\nFair Price: REJECT [2]\n\n[1] Annual report.\n[2] Price data."
    parsed = _parse(text, MUNGER)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(3, "PROCEED"), (5, "REJECT")]
