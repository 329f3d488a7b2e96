"""Coverage and invented gates in LLM report layouts (issue 13, stop 32; paper §7.5, §7.11).

Short texts written for these tests, embedder off:

* a record per check whose field label ("Requirement:") is a word of one gate's alias is a field, not that gate, so
  the record's heading keeps its body and verdict (the coverage rule no longer sees an empty heading);
* a scorecard of another scheme in a list of its own, beside the card's gates labelled in another form, holds no
  invented gate; the same check among the card's gates (a sibling) is still one;
* a table keyed by its subjects ("| Ticker |", "| Model |") has rows that are neither gates nor invented gates;
* a "Strengths" heading with a mark is no invented gate.
"""

from __future__ import annotations

from ipb.scoring.parse import parse_response

GRAHAM = "graham_seven_tests_defensive"  # 1 size, 2 financial condition, 3 stability, 4 dividends, 5 growth, 6 P/E, 7 P/B
BUFFETT = "buffett_acquisition_checklist"  # 1 competence, 2 moat, 3 management, 4 value, 5 margin, 6 holding period


def _read(text: str, card: str):
    parsed = parse_response(text, card, embedder=False)
    return [(g.gate, g.verdict) for g in parsed.gates], parsed


RECORDS = """# Halvard Tools - screening output

## Graham defensive checks

### A. Sales size
Requirement: annual sales of at least $500M
Actual: $2.9B
Passed

### B. Earnings Stability
Requirement: no loss in any of the last ten years
Actual: one loss, in 2019
Failed

### C. Dividend Record
Requirement: dividends paid every year for twenty years
Actual: 31 years without a gap
Passed

### D. Earnings Growth
Requirement: ten-year EPS growth of a third or more
Actual: +41%
Passed
"""


def test_a_field_label_repeated_in_every_record_is_no_gate():
    gates, parsed = _read(RECORDS, GRAHAM)
    assert gates == [(1, "PROCEED"), (3, "REJECT"), (4, "PROCEED"), (5, "PROCEED")]
    assert any("field names of a record" in n and "'requirement'" in n for n in parsed.notes)
    assert not any("nothing of their own" in n for n in parsed.notes)  # no heading left empty for the coverage rule


def test_a_part_of_a_gate_name_repeated_under_subjects_still_names_its_gate():
    text = ("## Orrin Mills\nMoat: a regional monopoly on bulk flour; PASS\n\n"
            "## Pelton Glass\nMoat: none, prices set by importers; FAIL\n\n"
            "## Quarry Lane Foods\nMoat: private labels copy it within a year; FAIL\n")
    gates, parsed = _read(text, BUFFETT)
    assert [g for g, _ in gates] == [2]  # the headings are companies, not gates: "Moat" keeps naming gate 2
    assert not any("field names of a record" in n for n in parsed.notes)


SCORECARD = """# Note on Tarrow Ferries

## Balance sheet scorecard
- Cash covers next year's debt maturities: \u2705
- Net debt below two years of EBITDA: \u2705 (1.1x)
- Pension deficit under 5% of equity: \u2705

## Buffett checklist
**Circle of competence.** Two ferry routes and a port lease: simple to follow. \u2705
**Economic moat.** It holds the only berth licences on both crossings. \u2705
**Management integrity.** The founder's family owns 40% and reports losses plainly. \u2705
**Margin of safety.** Shares at $12 against a value near $19. \u2705

Verdict: INVEST.
"""


def test_a_scorecard_of_its_own_beside_the_card_gates_invents_no_gate():
    gates, parsed = _read(SCORECARD, BUFFETT)
    assert gates == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED"), (5, "PROCEED")]
    assert parsed.invented_gates == []


def test_a_check_among_the_card_gates_is_still_an_invented_gate():
    text = ("- Circle of competence: \u2705 two ferry routes, simple to follow\n"
            "- Economic moat: \u2705 the only berth licences on both crossings\n"
            "- Net debt below two years of EBITDA: \u2705 (1.1x)\n"
            "- Margin of safety: \u2705 $12 against a value near $19\n")
    gates, parsed = _read(text, BUFFETT)
    assert gates == [(1, "PROCEED"), (2, "PROCEED"), (5, "PROCEED")]
    assert parsed.invented_gates == ["Net debt below two years of EBITDA"]


def test_a_table_keyed_by_its_subjects_has_no_gate_rows():
    text = ("| Ticker | Checks done | Call |\n|---|---|---|\n| OSPR | 6/6 \u2705 | BUY |\n| KELV | 5/6 \u26a0\ufe0f | HOLD |\n\n"
            "## OSPR\n**Economic moat.** Sole licence holder on its network. \u2705\n"
            "**Margin of safety.** 30% below our value. \u2705\n")
    gates, parsed = _read(text, BUFFETT)
    assert gates == [(2, "PROCEED"), (5, "PROCEED")]
    assert parsed.invented_gates == []


def test_a_row_in_a_checklist_table_is_still_an_invented_gate():
    text = ("| Check | Result |\n|---|---|\n| Economic moat | \u2705 sole licence holder |\n"
            "| Dividend yield above 3% | \u2705 3.8% |\n| Margin of safety | \u2705 30% below value |\n")
    gates, parsed = _read(text, BUFFETT)
    assert gates == [(2, "PROCEED"), (5, "PROCEED")]
    assert parsed.invented_gates == ["Dividend yield above 3%"]


def test_a_strengths_heading_with_a_mark_is_no_invented_gate():
    text = ("### Economic moat\nSole licence holder on its network: PASS\n\n"
            "### Margin of safety\nThe price is 30% below value: PASS\n\n"
            "### \u2705 Strengths (4 of 5)\n- cites a figure for every gate\n")
    gates, parsed = _read(text, BUFFETT)
    assert gates == [(2, "PROCEED"), (5, "PROCEED")]
    assert parsed.invented_gates == []


def test_an_outcome_in_one_subjects_row_is_not_the_answers_final_verdict():
    text = ("**Economic moat.** Sole licence holder on its network. \u2705\n"
            "**Margin of safety.** The price is 5% below value, far short of the cushion asked. \u274c\n\n"
            "We put the same case to two models; our own call is to decline.\n\n"
            "| Model | Call | Right |\n|---|---|---|\n| model-a | decline | \u2705 |\n| model-b | invest | \u274c |\n")
    parsed = parse_response(text, BUFFETT, embedder=False)
    assert parsed.final_verdict == "DECLINE"


def _rows(text: str):
    from types import SimpleNamespace

    from ipb.scoring._text import split_lines

    lines = split_lines(text)
    units = [SimpleNamespace(line=k) for k in range(len(lines))]  # one unit per line
    return SimpleNamespace(masked=text, lines=lines, units=units)


def test_a_row_among_two_subjects_is_one_subjects_decision():
    from ipb.scoring.parse._subject_tables import among_subjects, keyed_by_subject

    two = _rows("| Model | Call |\n|---|---|\n| model-a | TILT |\n| model-b | hold the mix |\n")
    assert keyed_by_subject(two.masked, two.lines, 2)
    assert [among_subjects(two, u) for u in range(4)] == [False, False, True, True]  # the header and rule are no rows
    one = _rows("| Ticker | Call |\n|---|---|\n| OSPR | BUY |\n")
    assert keyed_by_subject(one.masked, one.lines, 2) and not among_subjects(one, 2)  # one subject: the answer's own call
    checks = _rows("| Check | Result |\n|---|---|\n| Moat | pass |\n| Margin | fail |\n")
    assert not keyed_by_subject(checks.masked, checks.lines, 2) and not among_subjects(checks, 2)


def test_checks_of_another_form_without_a_section_of_their_own_stay_invented():
    text = ("**Circle of competence.** Two ferry routes: simple to follow. \u2705\n"
            "**Margin of safety.** $12 against a value near $19. \u2705\n\n"
            "- Net debt below two years of EBITDA: \u2705 (1.1x)\n- Pension deficit under 5% of equity: \u2705\n")
    gates, parsed = _read(text, BUFFETT)
    assert gates == [(1, "PROCEED"), (5, "PROCEED")]
    assert parsed.invented_gates == ["Net debt below two years of EBITDA", "Pension deficit under 5% of equity"]
