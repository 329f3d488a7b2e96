"""Whose verdict: the stop-40 breaker's inputs (s40break, /work/notes/break40.md items 1-4).

Regressions of the attribution reader (:mod:`ipb.scoring.parse._attributed`), each a bug kind:

* a verb of saying missing from the word lists read another speaker's verdict at full confidence ("Critics claim it
  fails": 'claimed' was listed, 'claim' not; 'allege', 'noted', 'tell', 'convinced'; not 'note', a table's column heading);
* a side's labelled view read as the writer's ("Bear case: fails. Our view: passes." gave REJECT 0.76, past the review
  bar): a ``voices`` noun (bulls, bears, critics, consensus) before a ``views`` noun (view, case, take, thesis);
* the writer's own team read as another speaker ("Our analysts think it fails" was weakened to 0.45): a subject that
  an ``own_possessive`` word opens is the writer's;
* the company the answer's title names read as another company ("# Apple: ... Apple's moat passes. This company
  earns 30%" was weakened to 0.45);
* a bare year took the sentence's first year, not the one nearest the word ("grew in 2019, and in 2023 the test
  passed" read 2019's history, and weakened today's verdict).
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._attributed import attributed

CARD = "buffett_acquisition_checklist"
#: The review bar of ``ipb score --min-confidence`` (docs/scoring.md).
BAR = 0.7


def _moat(section: str) -> tuple[str | None, float]:
    text = f"Circle of Competence: PROCEED.\n\nEconomic Moat: {section}\n\nManagement Integrity: PROCEED.\n"
    moat = next(g for g in parse_response(text, CARD, embedder=None).gates if g.name == "Economic Moat")
    return moat.verdict, moat.confidence


@pytest.mark.parametrize("text,word,kind", [
    # missing verbs of saying (read at 0.95 before)
    ("Critics claim it fails.", "fails", "speaker"),
    ("Short sellers allege it fails.", "fails", "speaker"),
    ("Critics noted it fails.", "fails", "speaker"),
    ("Test Result Note Price vs value Pass 17% below", "Pass", None),  # 'Note' a column heading (corpus n32), no verb
    ("The CEO told investors it passes.", "passes", "speaker"),
    ("Skeptics are convinced it fails.", "fails", "speaker"),
    ("We are convinced it passes.", "passes", None),
    ("The numbers tell us it passes.", "passes", None),  # the case's own facts
    ("As noted, it passes.", "passes", None),  # the writer's aside
    # a side's view, labelled or in a phrase
    ("Bear case: it fails.", "fails", "speaker"),
    ("The bulls' view: it passes.", "passes", "speaker"),
    ("In the bears' view it fails.", "fails", "speaker"),
    ("Consensus take: passes.", "passes", "speaker"),
    ("Our view: it passes.", "passes", None),
    ("Base case: it passes.", "passes", None),  # the writer's own scenario, no side named
    ("Unlike the bear case, it passes.", "passes", None),  # a view the writer sets aside
    # the writer's own team
    ("Our analysts think it fails.", "fails", None),
    ("My research team concluded it passes.", "passes", None),
    ("Unser Team meint, das Kriterium ist erfüllt.", "erfüllt", None),
    ("Their analysts think it fails.", "fails", "speaker"),
    # the company the answer's title names is its own, not another set against "this company"
    ("# Apple: Buffett checklist\n\nApple's moat passes. This company earns 30% on capital.", "passes", None),
    ("# Acme Corp review\n\nCoca-Cola's passes. This company's? Unclear.", "passes", "company"),
    # the year nearest the word
    ("Revenue grew 12% in 2019 and in 2023 the test passed.", "passed", None),
    ("In 2009 it passed; the 2024 figures are another story.", "passed", "time"),
])
def test_attributed_break40(text: str, word: str, kind: str | None) -> None:
    start = text.index(word)
    assert attributed(text, 0, start, start + len(word)) == kind


def test_a_sides_labelled_view_yields_to_the_writers_own() -> None:
    # was REJECT 0.76: the bear case's word outranked the writer's own view written after it
    assert _moat("Bear case: fails. Our view: passes.")[0] == "PROCEED"
    verdict, confidence = _moat("Bear case: fails.")
    assert verdict in ("REJECT", None) and confidence < BAR


@pytest.mark.parametrize("section", ["Critics claim it fails.", "Skeptics are convinced it fails.",
                                     "In the bears' view it fails."])
def test_another_speakers_rejection_stays_under_the_bar(section: str) -> None:
    verdict, confidence = _moat(section)
    assert verdict in ("REJECT", None) and confidence < BAR  # was REJECT 0.95


def test_the_writers_own_team_keeps_full_confidence() -> None:
    assert _moat("Our analysts think it fails.") == ("REJECT", pytest.approx(0.95))  # was 0.45


@pytest.mark.parametrize("section,verdict", [
    ("was REJECT, now PROCEED.", "PROCEED"),  # was REJECT 0.76: the label's first word outranked the revision
    ("Initially REJECT; revised to PROCEED.", "PROCEED"),
])
def test_a_first_reading_the_writer_revises_yields(section: str, verdict: str) -> None:
    assert _moat(section)[0] == verdict


@pytest.mark.parametrize("section", ["FAIL at first glance, but PASS after adjusting for the one-off.",
                                     "At first glance it fails."])
def test_a_first_look_verdict_stays_under_the_bar(section: str) -> None:
    assert _moat(section)[1] < BAR  # was REJECT 0.76 for the first


@pytest.mark.parametrize("text,word,kind", [
    ("At first glance it fails.", "fails", "time"),
    ("FAIL at first glance, but PASS after adjusting.", "FAIL", "time"),
    ("Auf den ersten Blick scheitert es.", "scheitert", "time"),
    ("was REJECT, now PROCEED.", "REJECT", "time"),
    ("The test was a PASS.", "PASS", None),  # the writer's own past tense, no revision after it
    ("It was PASS and is PASS.", "PASS", None),
    ("Firstly, it passes.", "passes", None),  # an enumeration, no first look
])
def test_first_look_kinds(text: str, word: str, kind: str | None) -> None:
    start = text.index(word)
    assert attributed(text, 0, start, start + len(word)) == kind


@pytest.mark.parametrize("header", ["| Gate | Initial | Final |", "| Gate | Bull view | Our view |"])
def test_a_row_with_two_different_verdict_cells_keeps_its_gate(header: str) -> None:
    # was a parse failure ("no gate ... recognised"): a row's FAIL and PASS cells were taken for a template's
    # "Pass / Fail" choice (parse/_template_slots.has_content), and every gate was dropped as unmentioned
    rows = "".join(f"| {g} | FAIL | PASS |\n" for g in ("Circle of Competence", "Economic Moat", "Management Integrity"))
    parsed = parse_response(f"{header}\n|---|---|---|\n{rows}", CARD, embedder=None)
    assert parsed.status == "ok"
    assert [g.name for g in parsed.gates] == ["Circle of Competence", "Economic Moat", "Management Integrity"]
    assert all(g.verdict in ("PROCEED", None) and (g.verdict == "PROCEED" or g.confidence < BAR) for g in parsed.gates)
