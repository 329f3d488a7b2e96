"""One decision-cue word list (``scoring/parse/_closing.CUE_LABEL``; s34read item 11).

The act reader's label (``_decided._ACT_LABEL``: "5/ Verdict: buying") was a third copy of the cue words with fewer
of them; it now builds on the list ``_CUE_BEFORE`` uses, so every cue that labels an outcome word also labels an act.
Answers written for this test; readings worked by hand on the bundled Graham card.
"""

from __future__ import annotations

import re

import pytest

from ipb.scoring.parse._closing import _CUE_BEFORE, CUE_LABEL
from ipb.scoring.parse._decided import _ACT_LABEL
from parse_support import GRAHAM_BODY, final_of

GRAHAM = "graham_seven_tests_defensive"


@pytest.mark.parametrize("closing, want", [
    ("TL;DR: buying a small starter position.", "INVEST"),  # None before: "TL;DR" was not in the act label's copy
    ("Outcome: buying, 2% weight.", "INVEST"),  # None before, likewise "outcome"
    ("2) Bottom line: passing.", "DECLINE"),
])
def test_every_cue_word_labels_an_act(closing: str, want: str) -> None:
    assert final_of(GRAHAM_BODY, closing, GRAHAM) == want


@pytest.mark.parametrize("closing", ["Insider action: buying heavily in the last quarter.", "Analyst rating: buying."])
def test_a_label_naming_someone_else_still_labels_no_decision(closing: str) -> None:
    assert final_of(GRAHAM_BODY, closing, GRAHAM) is None


def test_both_readers_share_the_list() -> None:
    assert _CUE_BEFORE.pattern.endswith(CUE_LABEL) and _ACT_LABEL.pattern.endswith(CUE_LABEL)
    for cue in ("Decision: ", "my final verdict - ", "TL;DR: ", "**Rating:** "):
        assert _CUE_BEFORE.search(cue) and _ACT_LABEL.search(cue), cue
    assert _ACT_LABEL.search("5/ Verdict: ") and not _CUE_BEFORE.search("5/ Verdict: ")  # the list number: line form only
    assert not re.search(CUE_LABEL, "Insider buying: ")


@pytest.mark.parametrize("line", [
    "Outcome: buying back shares did not help.",  # a buyback, and an act with its own verb: an event, not the decision
    "Rating: buying momentum strong per analysts.",  # "buying momentum" is a noun: the market's, not the writer's act
    "Answer: buying pressure faded.",
    "- Outcome: buying the rumour worked for others.",
])
def test_a_cue_line_about_something_else_does_not_overturn_the_verdict(line: str) -> None:
    # s35break: the cue words the act label gained (outcome, rating, answer) also open lines that report what happened;
    # the act there is a subject or a noun ("did not help", "momentum"), so the verdict stays the labelled DECLINE
    assert final_of(GRAHAM_BODY, f"Verdict: DECLINE.\n{line}\n", GRAHAM) == "DECLINE"


def test_buying_back_as_buying_again_is_still_an_act() -> None:
    # only a buyback of shares or stock is excluded: "not buying back until orders bottom" is the writer's act, refused
    assert final_of(GRAHAM_BODY, "Decision: not buying back until orders bottom.", GRAHAM) == "DECLINE"
