"""Criteria in the writer's own words answered Yes / No (issue 13, stop 38; scoring/parse/_paraphrase.py
``_answered_yes_no``, _label_answers.py ``_answer_embedded_label``).

A wild checklist often lists the card's tests in words of its own, each answered with a bare Yes or No
("- a business we can follow: yes, ..."). No name or alias is on the line, so only the embedding fallback can
read the label; before this rule such a label was never shown to the embedder, since "yes" is no verdict word
until a gate is named. Answers written for these tests (never corpus copies), read against the bundled card
``buffett_acquisition_checklist`` (1 circle of competence, 2 moat, 3 management, 4 intrinsic value, 5 margin of
safety, 6 holding period) with a deterministic concept embedder: each word of a concept adds 1 to that concept's
axis, every other word 0.2 to one of 64 hashed axes.
"""

from __future__ import annotations

import re
import zlib
from typing import Any

import numpy as np

from ipb.scoring.parse import parse_response

BUFFETT = "buffett_acquisition_checklist"


class _Concepts:
    """Bag-of-concepts sentence vectors (no model): shapes (n, 6 + 64)."""

    CONCEPTS = {
        "competence": ("understand", "understandable", "competence", "circle", "comprehensible"),
        "moat": ("moat", "advantage", "durable", "competitive", "franchise", "switching"),
        "management": ("management", "honest", "people", "integrity", "managers", "trustworthy", "candid"),
        "value": ("value", "valuation", "intrinsic", "dcf", "estimation", "estimate"),
        "price": ("price", "attractive", "safety", "cheap", "margin", "sensible", "discipline"),
        "hold": ("hold", "forever", "holding", "ownership", "permanent", "period"),
    }

    def __init__(self) -> None:
        self.lookup = {w: i for i, words in enumerate(self.CONCEPTS.values()) for w in words}

    def encode(self, sentences: list[str]) -> Any:
        n = len(self.CONCEPTS)
        rows = np.zeros((len(sentences), n + 64))
        for r, sentence in enumerate(sentences):
            for word in re.findall(r"[a-z]+", sentence.lower()):
                i = self.lookup.get(word)
                if i is None:
                    rows[r, n + zlib.crc32(word.encode()) % 64] += 0.2
                else:
                    rows[r, i] += 1.0
        return rows


_ANSWERED = ("Hollin Tools against my own list\n\n"
             "- a trade I can understand: yes, it makes spanners and sells them to garages.\n"
             "- run by honest people: no. The founder sold half his stock a month before the restatement.\n"
             "- bought at an attractive price: no, 31 times earnings.\n")


def _gates(text: str, embedder: Any) -> list[tuple[int, str | None, str]]:
    return [(g.gate, g.verdict, g.how) for g in parse_response(text, BUFFETT, embedder=embedder).gates]


def test_criteria_in_own_words_answered_yes_or_no_are_the_cards_gates() -> None:
    # "a trade I can understand" is gate 1 by the card's vocabulary, "run by honest people" gate 3 by the embedder
    # (concept 'management' 2.0 of the label's norm: far above the cut-off and the margin), "attractive price" gate 5 by
    # its alias; yes passes a gate named by its pass condition, no fails it. Before the rule gates 1 and 3 had no verdict
    # (3 was found only as an undecided paraphrase: "no" is no verdict word until a gate is named)
    parsed = parse_response(_ANSWERED, BUFFETT, embedder=_Concepts())
    assert [(g.gate, g.verdict, g.how) for g in parsed.gates] == [
        (1, "PROCEED", "vocabulary"), (3, "REJECT", "embedding"), (5, "REJECT", "alias")]
    assert [_ANSWERED[g.verdict_span[0]:g.verdict_span[1]] for g in parsed.gates if g.verdict_span] == ["yes", "no", "no"]
    assert parsed.invented_gates == []


def test_without_an_embedder_the_same_labels_stay_unread() -> None:
    # the rule reads answers where the embedding fallback runs: a rules-only reading is unchanged (gate 1 found by
    # the vocabulary, its "yes" unread; gate 3 not found; gate 5's "no" read by its alias, as before)
    assert _gates(_ANSWERED, False) == [(1, None, "vocabulary"), (5, "REJECT", "alias")]
    assert parse_response(_ANSWERED, BUFFETT, embedder=False).invented_gates == []


def test_a_no_that_opens_a_fact_is_no_answer() -> None:
    # "no outside shareholders" states a fact ("no" a determiner): the label is not answered, so gate 3 gets no
    # verdict from it (the paragraph is still found as gate 3's paraphrase by _paraphrased_gates.py, undecided)
    text = _ANSWERED.replace("run by honest people: no. The founder", "run by honest people: no outside shareholders. The founder")
    assert _gates(text, _Concepts()) == [(1, "PROCEED", "vocabulary"), (3, None, "paraphrase"), (5, "REJECT", "alias")]


def test_an_answered_label_far_from_every_gate_is_neither_a_gate_nor_invented() -> None:
    # "dealers seem friendly: yes" is near no gate (hashed words only): the embedder leaves it, and the answer invents nothing
    text = _ANSWERED + "- dealers seem friendly: yes, every one.\n"
    parsed = parse_response(text, BUFFETT, embedder=_Concepts())
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(1, "PROCEED"), (3, "REJECT"), (5, "REJECT")]
    assert parsed.invented_gates == []


def test_a_negated_label_leaves_its_answer_unread() -> None:
    # "no honest people: yes" turns the answer round; the label may still be the gate's, but "yes" is not its verdict
    text = _ANSWERED.replace("- run by honest people: no.", "- no honest people: yes.")
    assert (3, "PROCEED", "embedding") not in _gates(text, _Concepts())
