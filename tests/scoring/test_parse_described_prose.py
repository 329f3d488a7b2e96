"""Gates a wild analysis describes in prose with no title (issue 13, class DESC; :mod:`ipb.scoring.parse._described_prose`).

The answers are written for these tests in the shape of the class (a forum reply or blog paragraph that states a
spinoff criterion's substance with a figure and never names it). The embedder is a bag of hand-picked concepts, one
per gate of Greenblatt's spinoff card, so each test states which gate the embedder leans to; any other word adds a
little to one of 32 hashed dimensions.
"""

from __future__ import annotations

import re
import zlib
from typing import Any

import numpy as np
import pytest

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._described_prose import DESCRIBED_PROSE, describes_case

SPINOFF = "greenblatt_spinoff_checklist"


class _SpinoffConcepts:
    """Words -> one concept per spinoff gate (1 forced selling, 2 insiders, 3 bargain, 4 timing)."""

    CONCEPTS = (
        ("index", "forced", "dump", "dumped", "sell", "selling", "sold", "institutions", "unwanted", "holders"),
        ("insiders", "insider", "management", "options", "stake", "incentive", "incentives", "directors"),
        ("cheap", "peers", "peer", "multiple", "bargain", "valuation", "ebit", "hidden"),
        ("timing", "window", "weeks", "months", "early", "purchase", "period", "distributed"),
    )

    def __init__(self, leaning: tuple[str, int] | None = None) -> None:
        self.lookup = {w: i for i, words in enumerate(self.CONCEPTS) for w in words}
        self.leaning = leaning  # (word, gate index): a sentence holding the word is pulled hard toward that gate

    def encode(self, sentences: list[str]) -> Any:
        rows = np.zeros((len(sentences), len(self.CONCEPTS) + 32))
        for r, sentence in enumerate(sentences):
            for word in re.findall(r"[a-z]+", sentence.lower()):
                i = self.lookup.get(word)
                if i is None:
                    rows[r, len(self.CONCEPTS) + zlib.crc32(word.encode()) % 32] += 0.2
                else:
                    rows[r, i] += 1.0
            if self.leaning is not None and self.leaning[0] in sentence.lower():
                rows[r, self.leaning[1]] += 10.0
        return rows


#: An opening that names the insider gate and judges it: the answer is prose, one gate found by its name.
OPENING = "Kestrel Tools came out of Harbin Group this spring. Insider incentives: PASS, management holds 9% of the shares.\n\n"


def _read(text: str, embedder: Any = None) -> dict[int, tuple[str | None, str, float]]:
    parsed = parse_response(text, SPINOFF, embedder=_SpinoffConcepts() if embedder is None else embedder)
    return {g.gate: (g.verdict, g.how, g.confidence) for g in parsed.gates}


@pytest.mark.parametrize("paragraph", [
    # a spelled count and the purchase's period (gate 4's name and alias words)
    "The shares were distributed seven weeks ago, so our purchase comes early in the period.",
    # another spelled count ("5 weeks" is no figure the number reader takes, and is not read as one: a count of time
    # in digits is left for a later stop)
    "Our purchase comes six weeks into the period, with the stock still drifting.",
])
def test_an_untitled_sentence_stating_a_gates_substance_with_a_figure_finds_the_gate(paragraph: str) -> None:
    read = _read(OPENING + paragraph + "\n")
    assert read[2][0] == "PROCEED"
    assert 4 in read and read[4][1].split("+")[0] == DESCRIBED_PROSE
    assert read[4][2] < 0.7  # a lower-confidence reading: routed to review whatever verdict it carries
    assert set(read) == {2, 4}  # nothing else invented from the same text


def test_a_sentence_that_only_explains_the_criterion_finds_nothing() -> None:
    # the same gate words, but no figure, comparison or appraisal: it says nothing of the case
    read = _read(OPENING + "The purchase period is what the whole approach turns on, in my view.\n")
    assert set(read) == {2}


def test_a_condition_finds_nothing() -> None:
    read = _read(OPENING + "If the purchase comes seven weeks into the period, the stock may still be drifting.\n")
    assert set(read) == {2}


def test_the_embedder_must_lean_to_the_same_gate() -> None:
    # an embedder that reads this sentence as the bargain gate's: the two readers disagree, nothing is read
    paragraph = "The shares were distributed seven weeks ago, so our purchase comes early in the period.\n"
    assert set(_read(OPENING + paragraph, _SpinoffConcepts(leaning=("distributed", 2)))) == {2}


def test_a_sentence_leaning_to_two_gates_gives_neither() -> None:
    # the second clause is in the forced-selling gate's words (parent, holders): one sentence, two gates, none read
    paragraph = "Our purchase comes seven weeks into the period, while the parent's index holders are still selling.\n"
    read = _read(OPENING + paragraph)
    assert 4 not in read


def test_a_gate_the_answer_names_is_not_read_again() -> None:
    text = OPENING + "Post-Spinoff Timing Window: PASS.\n\nOur purchase comes 5 weeks into the period.\n"
    read = _read(text)
    assert read[4][1] == "name"


def test_with_the_embedder_off_the_pass_reads_nothing() -> None:
    paragraph = "The shares were distributed seven weeks ago, so our purchase comes early in the period.\n"
    assert set(_read(OPENING + paragraph, False)) == {2}


@pytest.mark.parametrize("clause, says", [
    ("we are five weeks in", True),
    ("it trades at 8 times ebit", True),
    ("the yield is well above the bar", False),  # a comparison word with no figure
    ("insiders own about a tenth of the company", True),  # a spelled share
    ("the insiders are aligned with us", False),
    ("management is on the same side as the buyer", False),
])
def test_what_says_something_of_the_case(clause: str, says: bool) -> None:
    figures = len(re.findall(r"\d", clause))
    assert describes_case(clause, 0, len(clause), figures) is says
