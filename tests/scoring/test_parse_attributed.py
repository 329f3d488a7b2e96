"""Someone else's verdict is not the writer's (issue 13, stop 40; s39break items 4, 5 and 9).

A gate's verdict word that another speaker states ("Critics say it will fail", "'fail' says the bear"), that another
time states ("back in 2009 this cleared") or that another company earns ("Coca-Cola's clears ... This company's?
Unclear.") was read with confidence 0.95 (0.76 for the last) and, for a REJECT, implied DECLINE. It is now read at the
weak level (confidence 0.45, under the 0.7 review bar) by :mod:`ipb.scoring.parse._attributed`, from the word lists of
``grammar/languages.yaml`` (``attribution``); the writer's own later word in the section wins. An implied final verdict
carries the confidence of the weakest reading it rests on (item 5).
"""

from __future__ import annotations

import pytest

from ipb.engine.registry import compiled_card
from ipb.errors import IpbError
from ipb.scoring.parse import GateTrace, parse_response
from ipb.scoring.parse._attributed import attributed, load_attribution
from ipb.scoring.parse._implied import implied_reading

CARD = "buffett_acquisition_checklist"
#: The review bar of ``ipb score --min-confidence`` (docs/scoring.md).
BAR = 0.7


def _moat(section: str) -> tuple[str | None, float, object]:
    text = f"Circle of Competence: PROCEED.\n\nEconomic Moat: {section}\n\nManagement Integrity: PROCEED.\n"
    parsed = parse_response(text, CARD, embedder=None)
    moat = next(g for g in parsed.gates if g.name == "Economic Moat")
    return moat.verdict, moat.confidence, parsed


# The breaker's inputs (s39break items 4 and 9) and new ones: another's verdict, read weak (0.45), never past the bar.
SET_APART = [
    ("Critics say it will fail.", "REJECT"),  # s39break item 9: was REJECT 0.95, implied DECLINE
    ("'fail' says the bear.", "REJECT"),  # s39break item 9: a quoted verdict, its speaker after it
    ("back in 2009 this cleared comfortably, and we made 4x.", "PROCEED"),  # s39break item 4: history, was 0.95
    ("It fails, critics say.", "REJECT"),
    ("Many believe it passes.", "PROCEED"),
    ("The bears have long argued it fails.", "REJECT"),
    ("According to the bulls it passes.", "PROCEED"),
    ("The bull case says it passes.", "PROCEED"),
    ("It passed back in 2009.", "PROCEED"),
    ("The competitor's passes easily.", "PROCEED"),
    ("Die Analysten meinen, das Kriterium ist erfüllt.", "PROCEED"),  # German
    ("Los críticos dicen que cumple.", "PROCEED"),  # Spanish
    ("Según los bajistas, cumple.", "PROCEED"),
    ("Selon les analystes, le critère est satisfait.", "PROCEED"),  # French
    ("Os analistas dizem que atende.", "PROCEED"),  # Portuguese
]


@pytest.mark.parametrize("section,verdict", SET_APART, ids=[s for s, _ in SET_APART])
def test_another_speakers_time_or_companys_verdict_is_read_weak(section: str, verdict: str) -> None:
    read, confidence, _ = _moat(section)
    assert read in (verdict, None)
    assert confidence == pytest.approx(0.45) if read else confidence < BAR


def test_a_rejection_someone_else_states_implies_a_final_under_the_bar() -> None:
    _, _, parsed = _moat("Critics say it will fail.")
    assert (parsed.final_verdict, parsed.implied_final_verdict) == (None, "DECLINE")  # type: ignore[attr-defined]
    assert parsed.implied_final_confidence == pytest.approx(0.45)  # type: ignore[attr-defined]
    assert parsed.to_dict()["implied_final_confidence"] == pytest.approx(0.45)  # type: ignore[attr-defined]


# The writer's own verdict: a reporting verb of the writer, a voice the writer cites in agreement, a noun that only
# looks like a verb, a clause that turns to today, the writer's word after another's.
OWN = [
    # the bears' REJECT, denied by the writer's "I disagree", is the writer's PROCEED (weak, _denied.py): no contrary
    # runner-up is left (it was 0.855 = 0.95 x 0.9 while the bears' REJECT stood as the runner-up; s42left)
    ("The bears say it fails; I disagree: it passes.", "PROCEED", 0.95),
    ("Analysts' worries aside, it passes.", "PROCEED", 0.95),
    ("We say: pass.", "PROCEED", 0.95),
    ("As Buffett would say, this passes.", "PROCEED", 0.95),
    ("I'd say it passes.", "PROCEED", 0.95),
    ("It passes, I think.", "PROCEED", 0.95),
    ("As expected, it passes.", "PROCEED", 0.95),
    ("In 2023 the company met the target.", "PROCEED", 0.95),  # the latest year's figures are today's case
    ("Back in 2009 it failed; today it passes.", "PROCEED", 0.855),
    ("Many believe it passes, and they are right: it passes.", "PROCEED", 0.95),
    ("Das Kriterium ist erfüllt.", "PROCEED", 0.95),
    ("Cumple.", "PROCEED", 0.95),
]


@pytest.mark.parametrize("section,verdict,confidence", OWN, ids=[s for s, _, _ in OWN])
def test_the_writers_own_verdict_keeps_its_confidence(section: str, verdict: str, confidence: float) -> None:
    read, conf, _ = _moat(section)
    assert (read, conf) == (verdict, pytest.approx(confidence))


def test_another_companys_verdict_yields_to_the_writers_on_this_one() -> None:
    # s39break item 4: was PROCEED 0.76 from Coca-Cola's moat; the writer's own word on this company is "Unclear"
    read, confidence, _ = _moat("Coca-Cola's clears comfortably, comfortably inside our bar. This company's? Unclear.")
    assert read == "INCONCLUSIVE" and confidence >= BAR


def test_a_competitors_checklist_paragraph_sets_no_verdict_past_the_bar() -> None:
    # s39break item 4: a competitor's checklist ahead of the answer's own sections (was Economic Moat PROCEED 0.65)
    text = ("Our analysis of Coca-Cola.\n\nFor comparison, a competitor's checklist from another fund on PepsiCo read:\n"
            "Economic Moat: strong. Management Integrity: fine. Margin of Safety: ample, they bought.\n\n"
            "Circle of Competence: we understand beverages.\n\nEconomic Moat: narrowing; private label takes share.\n\n"
            "Management Integrity: the CEO sold 80% of his stake before the guidance cut.\n\nFinal verdict: AVOID\n")
    parsed = parse_response(text, CARD, embedder=None)
    read = {g.name: (g.verdict, g.confidence) for g in parsed.gates}
    assert read["Economic Moat"] == ("PROCEED", pytest.approx(0.45))
    assert all(c < BAR for v, c in read.values() if v == "PROCEED")
    assert parsed.final_verdict == "DECLINE"


@pytest.mark.parametrize("text,word,kind", [
    ("Critics say: it fails.", "fails", "speaker"),
    ("Some think it passes.", "passes", "speaker"),
    ("We think it passes.", "passes", None),
    ("It used to pass.", "pass", "time"),
    ("Back then it passed, but today it fails.", "fails", None),
    ("In 2009 it passed; the 2024 figures are another story.", "passed", "time"),
    ("In 2023 it passed.", "passed", None),
    ("Coca-Cola's passes. This company's? Unclear.", "passes", "company"),
    ("Coca-Cola's moat passes.", "passes", None),  # no contrast with this company: the answer's own subject
    # shapes the first version misread on the corpus's tuned split (rewritten here in other words)
    ("Lens 2: PROCEED (expected gain 9%).", "PROCEED", None),  # a participle, no speaker after the word
    ("At 2x leverage the expected gain falls to 4%, which misses our bar.", "misses", None),  # an adjective after 'the'
    ("+40% x 0.5 = +20% expected, so it passes", "passes", None),  # no subject, no 'that' after the verb
    ("Whatever the press office claimed, the plan fails the test.", "fails", None),  # the writer sets the voice aside
    ("The prompt says the trend is unclear.", "unclear", None),  # the case's own facts
    ("After 30 months the checklist says the window has passed.", "passed", None),  # the framework the writer applies
    ("Analysten erwarten 7 %, erreicht wurden 4 %.", "erreicht", None),  # the verb's own object, then another clause
    ("Los analistas dicen que cumple.", "cumple", "speaker"),
    ("Dicen que cumple.", "cumple", "speaker"),  # a subject-less verb before 'que' (Spanish drops the subject)
    ("Creo que cumple.", "cumple", None),
])
def test_attributed_kinds(text: str, word: str, kind: str | None) -> None:
    start = text.index(word)
    assert attributed(text, 0, start, start + len(word)) == kind


def test_implied_final_rests_on_its_weakest_reading() -> None:
    card = compiled_card("graham_net_net_screen").card  # a conjunction: the first REJECT decides
    stance = GateTrace(2, "Losses", "REJECT", (2, 3), (2, 3), "name+stance", (2, 3), confidence=0.48)
    assert implied_reading(card, [GateTrace(1, "Two-thirds", "PROCEED", (0, 1), (0, 1), "number", confidence=0.95), stance]) \
        == ("DECLINE", 2, (2, 3), 0.48)
    assert implied_reading(card, [GateTrace(1, "Two-thirds", "PROCEED", (0, 1), (0, 1), "number")]) == (None, None, None, 0.0)


def test_attribution_words_are_checked_against_the_schema() -> None:
    with pytest.raises(IpbError) as err:
        load_attribution("version: 1\nlanguages: {de: {name: German}}\nattribution:\n  de:\n    speakers: [Kritiker]\n")
    assert "5" in str(err.value) and "speakers" in str(err.value)
