"""The implied final verdict: what a trace that ends in a kill decides when the text states no final verdict (issue 13).

A careful reader of "Gate 2: REJECT, the price is far above value." with no
conclusion knows what the card decides, but the writer did not say it. The
parser keeps the two apart: ``final_verdict`` stays None (scoring credits
only what was said) and ``implied_final_verdict`` reports the outcome the
parsed gate verdicts force under the card's gate logic (paper §3.2, the
engine's :mod:`ipb.engine.execute`):

=====================================  ==================================================
card's gate logic                      a kill, and the outcome it implies
=====================================  ==================================================
conjunction, regime_dependent          any REJECT: the fail outcome (a gate inside a
                                       branch: that branch's fail outcome, when every
                                       branch holding the gate agrees on it)
disjunction                            any REJECT (a trigger fired): the fail outcome
weighted_threshold_N_of_M counting     REJECT weight >= the threshold: the fail outcome
REJECT
weighted_threshold_N_of_M counting     the weight of gates not REJECTed falls below the
PROCEED                                threshold: the fail outcome
=====================================  ==================================================

Only kills are implied: a trace of PROCEEDs implies nothing, since an
unstated gate could still fail. Gates the text does not address count as
unknown, never as PROCEED.
"""

from __future__ import annotations

from fractions import Fraction

from ipb.engine._exact import as_fraction
from ipb.engine.card import Card
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._types import GateTrace, Span

__all__ = ["implied_final", "implied_reading"]


def _branch_fail(card: Card, gate_id: str) -> str | None:
    """The fail outcome of the branches that hold ``gate_id`` (None when they disagree); the card's when none does."""
    outcomes = {b.fail_outcome for g in card.gates for b in g.branches.values() if gate_id in b.gates}
    if not outcomes:
        return card.outcomes["fail"]
    return outcomes.pop() if len(outcomes) == 1 else None


def implied_final(card: Card, gates: list[GateTrace]) -> tuple[str | None, int | None, Span | None]:
    """(implied outcome, the gate whose REJECT decides it, that verdict's span), or (None, None, None).

    Examples
    --------
    >>> from ipb.engine.registry import compiled_card
    >>> card = compiled_card("graham_net_net_screen").card
    >>> implied_final(card, [GateTrace(1, "Two-thirds", "PROCEED", (0, 1), (0, 1), "number"),
    ...                      GateTrace(2, "Losses", "REJECT", (2, 3), (2, 3), "number", (2, 3))])
    ('DECLINE', 2, (2, 3))
    >>> implied_final(card, [GateTrace(1, "Two-thirds", "PROCEED", (0, 1), (0, 1), "number")])
    (None, None, None)
    """
    return implied_reading(card, gates)[:3]  # type: ignore[return-value]


def implied_reading(card: Card, gates: list[GateTrace]) -> tuple[str | None, int | None, Span | None, float]:
    """:func:`implied_final` and its confidence: that of the weakest gate reading the implied outcome rests on (the
    deciding REJECT under a conjunction or disjunction; every REJECT counted up to the threshold, or every REJECT that
    closes the open weight, under a weighted threshold). 0.0 when nothing is implied. A kill read by the learned stance
    reader (confidence under 0.5) so implies an outcome under the 0.7 review bar (s39break item 5).

    >>> from ipb.engine.registry import compiled_card
    >>> card = compiled_card("graham_net_net_screen").card
    >>> implied_reading(card, [GateTrace(1, "Two-thirds", "REJECT", (0, 1), (0, 1), "number", (0, 1), confidence=0.9),
    ...                        GateTrace(2, "Losses", "REJECT", (2, 3), (2, 3), "number", (2, 3), confidence=0.4)])
    ('DECLINE', 1, (0, 1), 0.9)
    """
    rejected = [g for g in gates if g.verdict == vw.REJECT and g.gate in {c.number for c in card.gates}]
    if not rejected:
        return None, None, None, 0.0
    logic = card.gate_logic
    by_number = {g.number: g for g in card.gates}
    if logic.startswith("weighted_threshold_"):
        threshold = card.threshold
        if threshold is None:
            return None, None, None, 0.0
        weight = {g.number: as_fraction(g.weight) for g in card.gates}  # exact sums (issue 16)
        need = as_fraction(threshold.min_weight)
        if threshold.count == vw.REJECT:
            total = Fraction(0)
            counted: list[GateTrace] = []
            for g in sorted(rejected, key=lambda t: t.gate):
                total += weight[g.gate]
                counted.append(g)
                if total >= need:
                    return card.outcomes["fail"], g.gate, g.verdict_span, min(t.confidence for t in counted)
            return None, None, None, 0.0
        open_weight = sum(weight.values(), Fraction(0)) - sum((weight[g.gate] for g in rejected), Fraction(0))
        if open_weight < need:
            last = max(rejected, key=lambda t: t.gate)
            return card.outcomes["fail"], last.gate, last.verdict_span, min(t.confidence for t in rejected)
        return None, None, None, 0.0
    first = min(rejected, key=lambda t: t.gate)
    outcome = _branch_fail(card, by_number[first.gate].id)
    if outcome is None:
        return None, None, None, 0.0
    return outcome, first.gate, first.verdict_span, first.confidence
