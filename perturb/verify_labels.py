"""``ipb verify``'s round trip for cards whose category labels may state more than their value (s58 new user F-W1).

``ipb verify`` compares an item's question with the one this ipb writes for its scenario; a value label that
states another input ("neutral - The dividend yield is 9%") is written the same way both times, so the item passed
with its question stating the dividend yield twice. For a card with a label that ``ipb check`` warns about
(:func:`ipb.engine._label_lints.label_warnings`) or refuses (:func:`ipb.engine._card_checks.label_problem`), the
question is read back to its facts (:func:`ipb.perturb.question_facts.read_question_facts`): a fact stated twice,
or words that state no fact, is reported as the item's own problem. Other cards skip the reading (it costs a
pattern search per input and item), so their verification is unchanged.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ipb.engine._card_checks import label_problem
from ipb.engine._label_lints import label_warnings
from ipb.engine.graph import CompiledCard
from ipb.perturb.frame import Frame
from ipb.perturb.question_facts import QuestionReadError, read_question_facts

__all__ = ["label_round_trip", "suspect_labels"]


def suspect_labels(frame: Frame) -> bool:
    """True when some card of ``frame`` shows a category value with a label that may state something else."""
    held = frame.memo.get("suspect_labels")
    if held is None:
        held = frame.memo["suspect_labels"] = any(
            label_problem(text) is not None for c in frame.cards for spec in c.card.inputs.values()
            for _, text in spec.value_labels) or any(label_warnings(c.card) for c in frame.cards)
    return bool(held)


def label_round_trip(own: Any, item: Mapping[str, Any], compiled: Sequence[CompiledCard]) -> list[str]:
    """The item's question problems found by reading it back, for a frame with suspect labels (else empty).

    ``own`` is verify's :class:`ipb.perturb.verify_self.SelfCheck`, which holds the frame of ``compiled``.
    """
    frame = own.frame(compiled)
    if frame is None or not suspect_labels(frame) or not isinstance(item.get("question"), str):
        return []
    try:
        read_question_facts(frame, item["question"])
    except QuestionReadError as exc:
        return [f"question: does not read back to its facts ({exc}); a value label of the card states more than "
                "its value (ipb check warns about it: label-states-fact)"]
    return []
