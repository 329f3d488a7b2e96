"""The embedding fallback is on by default (``ipb parse`` / ``ipb score``): turning it on must never read worse than off.

Regression tests for the kind of bug where the default configuration was measured less well than the bench's
(embedder off): with an embedder, a numbered label whose words matched no gate ("Gate 2, once more", "Gates 1 and
2") was turned into an invented gate and lost its gate, and a question in an answer's title was taken for a gate the
answer names later, moving it first. The embedder now only ever takes a label (or a prose sentence) to a card gate
the answer does not otherwise name; what is an invented gate is decided on the same evidence with and without it.
Texts are written for these tests; readings are labelled by hand.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.scoring.parse import parse_response

BUFFETT = "buffett_acquisition_checklist"


class AxisEmbedder:
    """Every distinct text on its own axis: each label is dissimilar (cosine 0) to every gate text."""

    def __init__(self) -> None:
        self.axes: dict[str, int] = {}

    def encode(self, sentences: list[str]) -> Any:
        rows = np.zeros((len(sentences), 1024))
        for i, s in enumerate(sentences):
            rows[i, self.axes.setdefault(s, len(self.axes)) % 1024] = 1.0
        return rows


class SeededEmbedder:
    """Random unit-free vectors, a fixed function of (seed, text): any similarity pattern at all."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def encode(self, sentences: list[str]) -> Any:
        rows = []
        for s in sentences:
            digest = hashlib.sha256(f"{self.seed}:{s}".encode()).digest()
            rows.append(np.random.default_rng(int.from_bytes(digest[:8], "big")).normal(size=16))
        return np.asarray(rows)


class NearEmbedder:
    """``label`` at cosine 0.8 from the gate text ``near``; every other text on its own axis."""

    def __init__(self, label: str, near: str) -> None:
        self.label, self.near = label, near
        self.axes: dict[str, int] = {}

    def encode(self, sentences: list[str]) -> Any:
        rows = np.zeros((len(sentences), 1024))
        for i, s in enumerate(sentences):
            if s == self.label:
                rows[i, self.axes.setdefault(self.near, len(self.axes))] = 0.8
                rows[i, 1023] = 0.6
            else:
                rows[i, self.axes.setdefault(s, len(self.axes)) % 1023] = 1.0
        return rows


def _read(text: str, embedder: Any) -> tuple[list[tuple[int, str | None]], list[str], str | None]:
    parsed = parse_response(text, BUFFETT, embedder=embedder)
    return [(g.gate, g.verdict) for g in parsed.gates], parsed.invented_gates, parsed.final_verdict


GROUPED = (
    "## Gates 1 and 2\nBoth PROCEED: we know how paint is sold, and dealers rarely switch brands.\n\n"
    "## Gate 3\nManagement Integrity: PROCEED, candid letters.\n\n"
    "## Gate 2, once more\nLooking again at the dealer churn figures, the moat is thinner than I said: REJECT.\n\n"
    "Final verdict: DECLINE."
)
HAND = ([(1, "PROCEED"), (2, "REJECT"), (3, "PROCEED")], [], "DECLINE")


def test_a_numbered_label_keeps_its_gate_whatever_the_embedder_says() -> None:
    assert _read(GROUPED, False) == HAND
    assert _read(GROUPED, AxisEmbedder()) == HAND  # before: invented "and 2" and ", once more", gate 2 read PROCEED


def test_a_label_far_from_every_gate_is_invented_only_on_the_evidence_without_embedder() -> None:
    # a heading with a verdict beside the gates' headings: invented, with or without an embedder
    text = ("### Circle of Competence\nPROCEED.\n### Economic Moat\nPROCEED.\n### ESG Screening\nREJECT: coal exposure.\n\n"
            "Final verdict: DECLINE.")
    want = ([(1, "PROCEED"), (2, "PROCEED")], ["ESG Screening"], "DECLINE")
    assert _read(text, False) == want
    assert _read(text, AxisEmbedder()) == want
    # a heading with no verdict of its own: a section title, never an invented gate
    quiet = "### Circle of Competence\nPROCEED.\n### Economic Moat\nPROCEED.\n### Dealer network\nAbout 4,000 stores.\n"
    assert _read(quiet, AxisEmbedder())[1] == []


def test_an_embedding_match_takes_a_label_to_a_gate_the_answer_does_not_name() -> None:
    text = ("### Circle of Competence\nPROCEED.\n### Economic Moat\nPROCEED.\n### Stewardship\nREJECT: the CFO left twice.\n\n"
            "Final verdict: DECLINE.")
    assert _read(text, False) == ([(1, "PROCEED"), (2, "PROCEED")], ["Stewardship"], "DECLINE")
    near = NearEmbedder("Stewardship", "Management Integrity")
    assert _read(text, near) == ([(1, "PROCEED"), (2, "PROCEED"), (3, "REJECT")], [], "DECLINE")


def test_a_question_in_the_title_does_not_move_a_gate_the_answer_names() -> None:
    text = ("Should we buy the paint maker?\n\n"
            "The circle of competence test is a PROCEED: we understand paint. "
            "On management integrity it is a REJECT, given the restatement.\n\nFinal verdict: DECLINE.")
    want = ([(1, "PROCEED"), (3, "REJECT")], [], "DECLINE")
    assert _read(text, False) == want
    # the title question embeds close to gate 3, which the answer names later: before, gate 3 was read first
    assert _read(text, NearEmbedder("Should we buy the paint maker?", "Management Integrity")) == want


TEXTS = [
    GROUPED,
    "1. Circle of Competence: PASS\n2. ESG Screening: FAIL\n3. Capital allocation: PROCEED\n4. Price: FAIL\n",
    "| Test | Verdict |\n|---|---|\n| Economic Moat | PROCEED |\n| Board diversity | REJECT |\n| Cheapness | PROCEED |\n",
    "**Step 4: What is it worth?** PASS\n**Step 5, revisited:** FAIL\n**Momentum:** REJECT\n\nDECLINE.",
]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(0, len(TEXTS) - 1))
def test_the_embedder_never_adds_an_invented_gate(seed: int, k: int) -> None:
    """Laws, for any embedder: a gate read without it keeps its reading (the embedder only adds gates the answer does
    not otherwise name), and the invented gates read with it are among those read without it, except the siblings of
    labels the embedder took to a gate (the same sibling rule, with those labels recognised)."""
    off = parse_response(TEXTS[k], BUFFETT, embedder=False)
    on = parse_response(TEXTS[k], BUFFETT, embedder=SeededEmbedder(seed))
    assert {g.gate: g.verdict for g in off.gates}.items() <= {g.gate: g.verdict for g in on.gates}.items()
    if not any(g.how == "embedding" for g in on.gates):
        assert set(on.invented_gates) <= set(off.invented_gates)
