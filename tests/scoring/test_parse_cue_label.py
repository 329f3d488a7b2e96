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
