"""Gate verdicts the stated final verdict entails: a gate discussed without a verdict in an answer that clears the card (issue 13).

A persona bot's ``{"signal": "bullish", "reasoning": "Orphan shares: ... Skin
in the game: ... Cheap relative to peers ..."}`` names three gates, states
facts for each and never writes PROCEED, yet it recommends the card's pass
outcome. Under the card's gate logic (the engine's
:mod:`ipb.engine.execute`) that outcome is reachable only when no gate it
runs REJECTs, so a careful reader takes each gate the writer discussed as
passed. This module fills in exactly those readings:

=====================================  ==================================================
card's gate logic                      final verdict that entails PROCEED
=====================================  ==================================================
conjunction, disjunction               the card's pass outcome: every gate discussed
                                       without a verdict
regime_dependent                       the card's pass outcome, or a branch's pass
                                       outcome: the gates before the classifier, the
                                       classifier, and the gates of that branch
weighted_threshold_N_of_M              nothing (a pass needs only some gates)
=====================================  ==================================================

A stated verdict is never overwritten, and a gate the writer names by its
number in an answer that states other gates' verdicts is left alone: "Gate 3
INCONCLUSIVE; Gate 4 intrinsic value ~$18B; Gate 5 PROCEED" (the paper's §6.5
narrative) lists verdicts gate by gate and leaves gate 4 undecided on purpose.
A gate detected only by a JSON key stating one of its inputs (``how`` ``fact``,
:mod:`._fact_keys`) is left alone too: nothing in the answer judged it.
The reading is marked: it has no ``verdict_span`` (no verdict word states
it), its ``how`` gains ``+entailed`` and its confidence is :data:`ENTAILED_FACTOR` times the final verdict's
(as the statement gives it, before :mod:`._confidence` weighs it against the trace and its place), so
``ipb score --min-confidence`` can route it to review. A fail outcome entails
nothing about any one gate (any of them may have failed).
"""

from __future__ import annotations

from ipb.engine.card import Card
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._types import GateTrace, Span

__all__ = ["ENTAILED_FACTOR", "MIN_FINAL_CONFIDENCE", "entailed_gates"]

#: A gate verdict entailed by the final verdict has this share of the final verdict's confidence.
ENTAILED_FACTOR = 0.6
#: A final verdict read with less confidence than this entails nothing (a weak or contested reading). The lowest
#: statement level (1, 0.45: :data:`._confidence.LEVEL_CONFIDENCE`) still entails: a buy stated as the writer's act
#: ("So I bought a starter position", "I am buying") clears the gates as a BUY does, and its gates carry
#: ENTAILED_FACTOR x 0.45 = 0.27, low enough for ``--min-confidence`` to route them to review (s60groups).
MIN_FINAL_CONFIDENCE = 0.45


def _cleared_gates(card: Card, final: str) -> set[int] | None:
    """The gate numbers every one of which must PROCEED (or be INCONCLUSIVE) for ``final``; None when ``final`` entails nothing."""
    logic = card.gate_logic
    numbers = {g.id: g.number for g in card.gates}
    if logic in ("conjunction", "disjunction"):
        return set(numbers.values()) if final == card.outcomes.get("pass") else None
    if logic != "regime_dependent":
        return None
    branched = {gid for g in card.gates for b in g.branches.values() for gid in b.gates}
    classifiers = [g for g in card.gates if g.branches]
    common = {g.number for g in card.gates if g.id not in branched}  # the prefix and the classifier
    if final == card.outcomes.get("pass"):
        return common if classifiers else set(numbers.values())
    for g in classifiers:
        for b in g.branches.values():
            if b.pass_outcome == final:
                return common | {numbers[gid] for gid in b.gates if gid in numbers}
    return None


def entailed_gates(card: Card, gates: list[GateTrace], final: str | None, final_span: Span | None, final_confidence: float) -> int:
    """Give PROCEED to every gate of ``gates`` read without a verdict that the final verdict ``final`` clears.

    Returns the number of gates changed (the traces are changed in place).

    Examples
    --------
    >>> from ipb.engine.registry import compiled_card
    >>> card = compiled_card("greenblatt_spinoff_checklist").card
    >>> traces = [GateTrace(1, "Orphan", None, (0, 5), (0, 5), "alias"), GateTrace(2, "Insiders", None, (6, 9), (6, 9), "name")]
    >>> entailed_gates(card, traces, "INVEST", (20, 26), 0.85)
    2
    >>> [(t.gate, t.verdict, t.how, t.verdict_span, t.confidence) for t in traces][0]
    (1, 'PROCEED', 'alias+entailed', None, 0.51)
    >>> entailed_gates(card, [GateTrace(1, "Orphan", None, (0, 5), (0, 5), "alias")], "DECLINE", (20, 27), 0.85)
    0
    """
    if final is None or final_span is None or final_confidence < MIN_FINAL_CONFIDENCE or final == vw.INCONCLUSIVE:
        return 0
    listed = any(trace.verdict is not None for trace in gates)
    cleared = _cleared_gates(card, final)
    if not cleared:
        return 0
    changed = 0
    for trace in gates:
        if listed and trace.how == "number":
            continue  # "Gate 3 INCONCLUSIVE; Gate 4 intrinsic value ~$18B; Gate 5 PROCEED": left undecided on purpose
        if trace.how == "fact":
            continue  # '"market_cap": 1.2e9' states an input; nothing in the answer judged the gate (_fact_keys.py)
        if trace.verdict is None and trace.gate in cleared:
            trace.verdict = vw.PROCEED
            trace.verdict_span = None  # no verdict word states it; the note and ``how`` say where it comes from
            trace.how = f"{trace.how}+entailed"
            trace.confidence = round(ENTAILED_FACTOR * final_confidence, 3)
            trace.runner_up, trace.runner_up_span = None, None
            changed += 1
    return changed
