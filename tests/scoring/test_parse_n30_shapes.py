"""Shapes of the n30 batch as general phenomena (issue 13): console reports with dot leaders, an agent's JSON whose
``"recommendation": "PASS"`` sits beside stages that ``"passed": true``, a long JSON string with ``\\n`` escapes beside
gate objects, numbered-company and umbrella headings, headings decorated with pictographs, "passes every test".

Short texts written for these tests (not corpus texts); the embedder is off.
"""

from __future__ import annotations

import pytest

from ipb.scoring._text import classify_line
from ipb.scoring.parse import parse_response
from tests.scoring.parse_support import gate_verdicts

MUNGER = "munger_business_quality_price"  # 1 understandable, 2 return on capital, 3 moat, 4 management, 5 fair price
SPIN = "greenblatt_spinoff_checklist"  # 1 institutional indifference, 2 insider incentives, 3 hidden value, 4 timing
G7 = "graham_seven_tests_defensive"  # 1 size, 2 financial condition, 3 earnings stability, ... 7 price to assets


def _final(text: str, card: str) -> str | None:
    return parse_response(text, card, embedder=False).final_verdict


# ---------------------------------------------------------------- dot leaders: "moat ........ wide   OK"


@pytest.mark.parametrize("line,label", [
    ("management ........... founder runs it, owns 7%   OK", "management"),
    ("moat (inferred) ..... WIDE: margins steady", "moat (inferred)"),
    ("valuation............ 31x earnings   expensive", "valuation"),
])
def test_a_dot_leader_ends_a_label(line, label):
    parsed = classify_line(line, 0, len(line))
    assert parsed.kind == "label"
    assert line[parsed.label[0] : parsed.label[1]] == label


@pytest.mark.parametrize("line", [
    "Wait.... the second quarter looked weaker than the first, and margins slipped further after it",
    "Revenue grew... then fell again in the next year, which the company blamed on weather and on freight costs",
])
def test_an_ellipsis_is_no_dot_leader(line):
    assert classify_line(line, 0, len(line)).kind == "plain"


def test_a_console_report_with_dot_leaders_reads_each_row():
    text = ("```\n"
            "REPORT FOR Harlow Tools\n"
            "moat ................. wide, twenty years of steady share      OK\n"
            "management ........... founder-led, owns 8% of the shares       OK\n"
            "valuation ............ 34x profits, priced above value           FAIL\n"
            "```\n")
    assert gate_verdicts(text, MUNGER) == {3: "PROCEED", 4: "PROCEED", 5: "REJECT"}


# ---------------------------------------------------------------- "recommendation": "PASS" on a buy decision


AGENT_JSON = """{
  "ticker": "ORMX",
  "summary": {"recommendation": "PASS", "score": 4.1},
  "stage_one": {"passed": true, "notes": "size and liquidity screens cleared"},
  "stage_two": {"insider_ownership": "1.1%", "passed": false}
}
"""


def test_an_agents_pass_recommendation_is_a_decline_not_its_stages_passed():
    # "passed": true answers for stage one only; "PASS" under "recommendation" is the action of not buying
    assert _final(AGENT_JSON.replace("ORMX", "ORMX spin-off, institutional indifference checked"), SPIN) == "DECLINE"


def test_a_stage_passed_is_never_the_final_verdict():
    text = '{\n  "insider_incentives": {"passed": true},\n  "screening": {"passed": true}\n}\n'
    assert _final(text, SPIN) is None


@pytest.mark.parametrize("closing,final", [
    ("**Recommendation: PASS.**", "DECLINE"),
    ("Recommendation: PASS", "DECLINE"),
    ("Recommendation: pass for now.", "DECLINE"),
    ("Recommendation: BUY.", "INVEST"),
])
def test_a_recommendation_of_pass_in_prose(closing, final):
    body = "Institutional indifference: index funds dumped it, PASS.\nInsider incentives: the CEO owns 6%, PASS.\n\n"
    assert _final(body + closing + "\n", SPIN) == final


def test_a_checklists_verdict_pass_in_capitals_stays_unread_as_a_decline():
    body = "Institutional indifference: index funds dumped it, PASS.\nInsider incentives: the CEO owns 6%, PASS.\n\n"
    assert _final(body + "Verdict: PASS\n", SPIN) != "DECLINE"


def test_a_long_string_beside_gate_objects_is_read_line_by_line():
    text = ('{"criteria": [{"name": "Institutional Indifference", "status": "PASS"},\n'
            '              {"name": "Insider Incentives", "status": "PASS"}],\n'
            ' "analysis": "# ORMX\\n\\nIndex funds sold it unread and insiders hold stock, yet it trades at a premium '
            'to its peers.\\n\\n**Recommendation: PASS.**"}\n')
    parsed = parse_response(text, SPIN, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates][:2] == [(1, "PROCEED"), (2, "PROCEED")]
    assert parsed.final_verdict == "DECLINE"
    assert text[slice(*parsed.final_verdict_span)] == "PASS"


# ---------------------------------------------------------------- headings that name no criterion


def test_a_numbered_company_heading_names_no_gate():
    text = "### Company 1: Fenwick Brewing\n\nThe moat is wide: the brand has held its share for thirty years.\n"
    assert gate_verdicts(text, MUNGER) == {3: "PROCEED"}


@pytest.mark.parametrize("heading", ["## Munger's Four Filters Analysis", "## Overall Assessment", "## Graham's 7 Tests"])
def test_an_umbrella_heading_is_no_invented_gate(heading):
    card = G7 if "Graham" in heading else MUNGER
    first = "Adequate size" if card == G7 else "Moat"
    second = "Earnings stability" if card == G7 else "Management"
    text = f"{heading}\n\n| Check | Status |\n|---|---|\n| {first} | PASS |\n| {second} | FAIL |\n"
    parsed = parse_response(text, card, embedder=False)
    assert parsed.invented_gates == []


@pytest.mark.parametrize("line,label", [
    ("## \U0001f3af **Investment Recommendation**", "Investment Recommendation"),
    ("### \U0001f43b Bear Case", "Bear Case"),
    ("## \U0001f6e1\ufe0f **Moat**", "Moat"),
])
def test_a_pictograph_before_a_heading_is_no_part_of_its_label(line, label):
    parsed = classify_line(line, 0, len(line))
    assert line[parsed.label[0] : parsed.label[1]] == label


def test_a_closing_heading_with_a_pictograph_opens_the_final_region():
    text = ("## \U0001f3f0 **Moat**\nWide: thirty years of steady share. PASS\n\n"
            "## \U0001f4b0 **Valuation**\nAt 34x earnings there is no discount to value. FAIL\n\n"
            "## \U0001f3af **Investment Recommendation**\n\nJudged by these filters, Fenwick falls short of what we require.\n\n"
            "### Key concerns:\n- No discount to value\n")
    assert _final(text, MUNGER) == "DECLINE"


# ---------------------------------------------------------------- "passes every test"


@pytest.mark.parametrize("closing,final", [
    ("Harlow passes every test. Added to the list.", "INVEST"),
    ("It clears all seven tests.", "INVEST"),
    ("Harlow passes every test except the price one.", None),
    ("A stock must pass every test to qualify.", None),
])
def test_passing_every_test_is_the_pass_outcome(closing, final):
    body = "Adequate size: sales $2.1B, PASS.\nEarnings stability: no loss in ten years, PASS.\n\n"
    assert _final(body + closing + "\n", G7) == final


# ---------------------------------------------------------------- a table cell with a parenthetical detail


@pytest.mark.parametrize("cell", ["P/E (3-yr avg earnings)", "P/E (average of three years)"])
def test_a_table_cell_with_a_parenthetical_detail_names_its_gate(cell):
    text = f"| Criterion | Value | Result |\n|---|---|---|\n| Current ratio | 1.41 | FAIL |\n| {cell} | 9.8 | PASS |\n"
    parsed = parse_response(text, G7, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(2, "REJECT"), (6, "PROCEED")]
    assert parsed.invented_gates == []


@pytest.mark.parametrize("title", ["Munger's Four Filters Analysis", "Overall Assessment", "Munger Checklist Review"])
def test_an_umbrella_heading_given_a_verdict_is_still_no_invented_gate(title):
    text = (f"## {title}\n\nTwo of the four filters fail. FAIL\n\n## Moat\n\nWide, thirty years of steady share. PASS\n\n"
            "## Management\n\nThe founder misled holders twice. FAIL\n")
    parsed = parse_response(text, MUNGER, embedder=False)
    assert parsed.invented_gates == []
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(3, "PROCEED"), (4, "REJECT")]


def test_a_heading_with_a_criterion_word_beside_the_investor_is_still_an_invented_gate():
    text = ("## Munger's Dividend Filter\n\nNo dividend for six years. FAIL\n\n## Moat\n\nWide, thirty years of steady "
            "share. PASS\n\n## Management\n\nThe founder misled holders twice. FAIL\n")
    assert parse_response(text, MUNGER, embedder=False).invented_gates == ["Munger's Dividend Filter"]
