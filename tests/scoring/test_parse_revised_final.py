"""Which statement wins (issue 13): a later revision of the final verdict beats an earlier "Final verdict".

Every text here was written for this file; the readings are labelled by hand. Regression kind: "Revised verdict:
DECLINE" (or "Updated recommendation", "On reflection, my verdict is ...", "Looking again, I would ...") ranked as a
plain label (level 3) below an earlier "Final verdict: INVEST" (level 4 after a final cue), so the verdict the writer
withdrew was reported and the revision became its runner-up.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

BUFFETT = "buffett_acquisition_checklist"

ANALYSIS = ("\n\n1. Circle of Competence: PASS, a cement maker is easy to follow.\n"
            "2. Durable moat: PASS, quarries near every city it serves.\n"
            "3. Management: PASS, the founders still own a third.\n"
            "4. Price: FAIL, at 31x earnings it is well above what I think it is worth.\n\n")


@pytest.mark.parametrize("revision", [
    "Revised verdict: DECLINE.",
    "**Updated recommendation:** DECLINE",
    "Corrected decision - DECLINE, I had misread the price.",
    "Final verdict (revised): DECLINE.",
    "On reflection, my verdict is DECLINE.",
    "Looking again at the multiple, I would DECLINE.",
], ids=["revised-verdict", "updated-recommendation-bold", "corrected-decision-dash", "final-revised-in-brackets",
        "on-reflection", "looking-again"])
def test_a_later_revision_beats_an_earlier_final_verdict(revision: str) -> None:
    text = "Final verdict: INVEST" + ANALYSIS + revision
    parsed = parse_response(text, BUFFETT, embedder=False)
    assert (parsed.final_verdict, parsed.final_runner_up) == ("DECLINE", "INVEST")
    assert text[slice(*parsed.final_verdict_span)] == "DECLINE"


def test_a_final_verdict_after_a_revision_is_still_the_last_word() -> None:
    text = "Updated verdict: DECLINE" + ANALYSIS + "Final verdict: INVEST."
    assert parse_response(text, BUFFETT, embedder=False).final_verdict == "INVEST"


@pytest.mark.parametrize("sentence", [
    "A revised verdict of DECLINE would follow if the price rose another 10%.",
    "Management revised guidance upward; some holders DECLINE to chase it.",
], ids=["hypothetical-revision", "revised-guidance"])
def test_a_revision_word_that_revises_no_verdict_changes_nothing(sentence: str) -> None:
    text = "Final verdict: INVEST" + ANALYSIS + sentence
    assert parse_response(text, BUFFETT, embedder=False).final_verdict == "INVEST"
