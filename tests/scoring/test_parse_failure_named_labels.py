"""Labels named after the failure a gate looks for, answered Yes / No (issue 13, labels with answers).

"Story broken? No" says the story holds: the gate's PROCEED; "Broken story? Yes" its REJECT, as "Kill criterion
triggered? Yes" already was. Regression tests for the kind of misread where such an answer was left unread (the gate
came out with no verdict). Texts written for these tests; readings labelled by hand.
"""

from __future__ import annotations

import pytest

from ipb.scoring.parse import parse_response

LYNCH = "lynch_portfolio_story_review"


@pytest.mark.parametrize("text, gate1", [
    ("1. Story broken? No. Same-store sales still grow 6%.\n2. P/E vs growth: PEG 1.1. PROCEED.\n\nVerdict: HOLD.", "PROCEED"),
    ("1. Broken story? No - the franchise model is intact.\n2. P/E vs growth: PROCEED.\n\nHOLD.", "PROCEED"),
    ("1. Broken story? Not broken: growth is 11%, as at purchase.\n2. P/E vs growth: PROCEED.\n\nHOLD.", "PROCEED"),
    ("1. Story broken? Yes, the new format flopped in every test market.\n\nVerdict: SELL.", "REJECT"),
    ("1. Fundamentals deteriorated? Yes: margins halved in two years.\n\nSELL.", "REJECT"),
    ("1. Thesis broken? Unknown until the Q3 numbers.\n2. P/E vs growth: PROCEED.\n\nHOLD.", "INCONCLUSIVE"),
])
def test_a_label_named_after_the_failure_is_answered_in_its_sense(text: str, gate1: str) -> None:
    parsed = parse_response(text, LYNCH, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates][0] == (1, gate1)


def test_a_no_later_in_the_sentence_is_not_the_labels_answer() -> None:
    # "No" that does not follow the label's question mark answers nothing: the gate's own verdict word decides
    text = "1. Story broken? The story has changed, no doubt, but it is intact: PROCEED.\n2. P/E vs growth: PROCEED.\n\nHOLD."
    parsed = parse_response(text, LYNCH, embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (2, "PROCEED")]


def test_a_screens_adverse_action_asked_as_a_question() -> None:
    # an exclusion screen's gates named by the action they may take: "No" clears the gate, "Yes" is its REJECT
    text = ("1. Universe: listed equity. PROCEED.\n2. Product-based exclusion? No, it makes paint.\n"
            "3. Council on Ethics: no recommendation. PROCEED.\n4. Risk-based divestment? No.\n"
            "5. Ministry restriction? Yes, a sanctions listing.\n\nDIVEST.")
    parsed = parse_response(text, "nbim_gpfg_exclusion_screen", embedder=False)
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (2, "PROCEED"), (3, "PROCEED"), (4, "PROCEED"),
                                                           (5, "REJECT")]
