"""One answer scored exactly as ``ipb score`` scores it, for tools that score sample by sample.

inspect_ai scorers and lm-evaluation-harness ``process_results`` hooks see one answer at
a time. :func:`score_answer` runs ipb's parser and metrics (:func:`ipb.scoring.run.score_responses`)
on it and returns the figures with the status, so a tool's mean counts failures the way
ipb's summary does: an answer that is not parsed (or refused, or unusable) scores 0 on
every headline metric it was owed, never "left out".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ipb.scoring.run import ScoreOptions, score_responses

__all__ = ["HEADLINE", "AnswerScore", "score_answer"]

#: The metrics the integrations report (paper §7): final-verdict accuracy, gate-level
#: reasoning accuracy and the order-and-gate reasoning score.
HEADLINE = ("verdict_acc", "gra", "ogrs")


@dataclass(frozen=True)
class AnswerScore:
    """The figures of one scored answer.

    ``status`` is ipb's record status (``scored`` or why not); ``values`` maps each
    :data:`HEADLINE` metric to a float in [0, 1], 0.0 for an answer that was not scored
    and for a metric that had no value; ``record`` is the whole ``ipb score`` record.
    """

    status: str
    reason: str | None
    values: dict[str, float]
    record: dict[str, Any] = field(repr=False)

    @property
    def final_verdict(self) -> str | None:
        targets = self.record.get("targets") or []
        parsed = targets[0].get("parsed") if targets and isinstance(targets[0], Mapping) else None
        return parsed.get("final_verdict") if isinstance(parsed, Mapping) else None


def score_answer(item: Mapping[str, Any], response: str, *, model: str = "unknown", condition: str = "A",
                 embeddings: bool = False, seed: int = 0) -> AnswerScore:
    """Score ``response`` to ``item`` (one line of an items file) with ipb's parser and metrics.

    Parameters
    ----------
    item : mapping
        The item as ``ipb perturb`` wrote it.
    response : str
        The model's answer.
    embeddings : bool
        Use the sentence encoder for paraphrase matching (as ``ipb score`` does by
        default); False reads lexically only (fast, no model load).

    Returns
    -------
    AnswerScore
        ``values`` in [0, 1]; an answer ipb could not score has 0.0 everywhere.
    """
    options = ScoreOptions(seed=seed, embeddings=embeddings)
    record = {"item_id": item.get("id"), "model": model, "condition": condition, "response": response}
    (scored,) = score_responses([item], [record], options)
    metrics = scored.get("metrics") or {}
    ok = scored.get("status") == "scored"
    values = {name: float(metrics[name]) if ok and isinstance(metrics.get(name), (int, float)) else 0.0
              for name in HEADLINE}
    return AnswerScore(str(scored.get("status")), scored.get("reason"), values, scored)
