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
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._paraphrased_gates import _ParaphrasedGatesMixin

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


#: Prose and labelled answers whose named gates' sections hold sentences that name no gate, some with the verdict
#: words the named gate reads ("... so this is a clear PROCEED" after the circle of competence), beside paragraphs
#: outside every section (an opening paragraph, one after a closing heading): the sentences the paraphrased-gates
#: pass may and may not take.
LAW_TEXTS = [
    "The circle of competence test is met: we understand paint and how dealers buy it.\n\n"
    "Dealers have stuck with the brand for forty years and rivals never dented that loyalty, so this is a clear "
    "PROCEED.\n\nOn management integrity it is a REJECT, given the restatement of 2019 and the silence after it.\n\n"
    "We would hold the shares for decades and never look at the quote, which also passes.\n\nFinal verdict: DECLINE.",
    "Margin of safety: the price looks fine at first sight.\n\nRivals have tried to copy them for years and the "
    "bosses were never candid with owners, so this one fails.\n\nManagement integrity: PASS, the letters are frank.\n\n"
    "The business throws off cash in every year of the cycle, and this passes as well.\n",
    "We would own this business for decades and trust the people who run it with our savings, so it passes.\n\n"
    "### Circle of Competence\nPROCEED: paint is simple.\n### Economic Moat\nREJECT: no pricing power left.\n\n"
    "### Other points\nThe price asked is far below what the owner earnings are worth, so this one clearly passes.\n\n"
    "Final verdict: DECLINE.",
    "## Circle of Competence\nThe company sells paint through dealers in small towns. Its costs are mostly pigment "
    "and tins bought in bulk. Demand follows house moves and repainting, not fashion. Nothing here needs a chemist to "
    "follow. We can say what the business will look like in ten years, so this is a PROCEED.\n\n"
    "## Management Integrity\nThe chief executive sold shares a week before the warning. The letters to owners blame "
    "the weather every single year. Two auditors resigned within three years of each other. Pay rose while returns "
    "fell by half. We cannot trust these figures, so this is a REJECT.\n\nFinal verdict: DECLINE.",
    "Our circle of competence covers this: paint is easy to follow. Dealers order by the pallet and pay within thirty "
    "days. Input costs move with oil, but they are passed on within a quarter. The product has not changed in decades "
    "and will not. So that part is a PROCEED. As for management integrity, the founder's son runs the firm now. He "
    "paid himself a special bonus out of a loss year. The board has no member who is not family. That is a REJECT.\n\n"
    "Final verdict: DECLINE.",
]


def _readings(text: str, embedder: Any) -> tuple[dict[int, tuple[str | None, str]], list[str], str | None]:
    parsed = parse_response(text, BUFFETT, embedder=embedder)
    return {g.gate: (g.verdict, g.how) for g in parsed.gates}, parsed.invented_gates, parsed.final_verdict


@pytest.mark.parametrize("seed", [*range(20), 84065])
def test_the_paraphrased_gates_pass_only_adds_gates_whatever_the_embedder(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Law (issue 13, stop 32), for 20 fixed seeded embedders and the fresh-clone CI's failing one, over every text: each gate read without the
    paraphrased-gates pass keeps its verdict and how it was recognised with the pass, the invented gates and the final
    verdict are the same, and every gate the pass adds is read as a ``paraphrase``. Before: with SeededEmbedder(84065)
    the pass took the sentence under "## Gates 1 and 2" and gate 1's PROCEED was lost to gate 5; seeds 13, 17 and 18 took a
    heading's or a named sentence's verdict from the last two texts (gate 3 REJECT -> None, gate 1 PROCEED -> None)."""
    with_pass = [_readings(text, SeededEmbedder(seed)) for text in TEXTS + LAW_TEXTS]
    with monkeypatch.context() as m:
        m.setattr(_ParaphrasedGatesMixin, "_paraphrased_gates", lambda self: None)
        without = [_readings(text, SeededEmbedder(seed)) for text in TEXTS + LAW_TEXTS]
    for (gates_on, invented_on, final_on), (gates_off, invented_off, final_off) in zip(with_pass, without):
        assert {g: gates_on.get(g) for g in gates_off} == gates_off
        assert all(how == "paraphrase" for g, (_, how) in gates_on.items() if g not in gates_off)
        assert (invented_on, final_on) == (invented_off, final_off)


def test_the_law_texts_give_the_pass_sentences_to_take() -> None:
    """The law above is not empty: over its 20 seeds the pass adds gates (seeds 14 and 15, from the opening paragraph
    and the one after "### Other points" of the third law text), from paragraphs outside every named gate's section."""
    added = 0
    for seed in range(20):
        for text in TEXTS + LAW_TEXTS:
            added += sum(g.how == "paraphrase" for g in parse_response(text, BUFFETT, embedder=SeededEmbedder(seed)).gates)
    assert added >= 2
