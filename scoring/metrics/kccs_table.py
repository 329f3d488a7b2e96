"""Precision and recall of element matchers on the labelled KCCS pair table (issue 14 item 3).

``tests/scoring/data/kccs_pairs.json`` holds hand-labelled (gold element,
detected element, match) pairs; the ``comparison`` and ``swap`` kinds (and the
older ``direction`` kind) are the comparison table: who exceeds whom, phrased
as "discount to", "under", "short of", "premium to", "above" and their like,
with subject and object exchanged in the swaps. :func:`pair_scores` scores
the :class:`~ipb.scoring.metrics.ElementMatcher` (structured reading, guards,
numbers, cosine) beside a cosine-only matcher (cosine >= threshold, nothing
else) on any subset.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ipb.scoring.embeddings import Encoder, default_encoder, embed
from ipb.scoring.metrics._matching import DEFAULT_CONCEPT_THRESHOLD, ElementMatcher, _human

__all__ = ["COMPARISON_KINDS", "PairScore", "pair_scores"]

#: Kinds of the comparison table.
COMPARISON_KINDS = ("comparison", "swap", "direction")


@dataclass(frozen=True)
class PairScore:
    """Confusion counts of one matcher on a set of labelled pairs."""

    matcher: str
    n: int
    tp: int
    fp: int
    fn: int
    tn: int

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


def _counts(name: str, predicted: Sequence[bool], labels: Sequence[bool]) -> PairScore:
    p, y = np.asarray(predicted, dtype=bool), np.asarray(labels, dtype=bool)
    return PairScore(name, len(y), int(np.sum(p & y)), int(np.sum(p & ~y)), int(np.sum(~p & y)), int(np.sum(~p & ~y)))


def pair_scores(pairs: Sequence[tuple[str, str, bool]], encoder: Encoder | None = None,
                threshold: float = DEFAULT_CONCEPT_THRESHOLD) -> tuple[PairScore, PairScore]:
    """``(matcher, cosine_only)`` confusion counts on ``pairs``.

    Parameters
    ----------
    pairs : sequence of (gold, detected, label)
    encoder : Encoder, optional
        Default: the offline MiniLM.
    threshold : float
        The cosine threshold both use.
    """
    encoder = encoder if encoder is not None else default_encoder()
    labels = [bool(lab) for _, _, lab in pairs]
    matcher = ElementMatcher(encoder, threshold)
    ours = [bool(matcher.match_matrix([g], [d])[0, 0]) for g, d, _ in pairs]
    texts = list(dict.fromkeys(_human(t) for g, d, _ in pairs for t in (g, d)))
    vectors = embed(encoder, texts)
    index = {t: k for k, t in enumerate(texts)}
    cosine = [float(vectors[index[_human(g)]] @ vectors[index[_human(d)]]) >= threshold for g, d, _ in pairs]
    return _counts("structured matcher", ours, labels), _counts("cosine only", cosine, labels)
