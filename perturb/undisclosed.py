"""Which undisclosed inputs a question names "not disclosed" (stop 61 review F6, issue 18 bar line 2).

An undisclosed input is left out of the sentence when the stated business model or sector omits it
(``frameworks/sectors.yaml``), or when no gate needs it given the stated facts (every gate reading it is decided
under the engine's three-valued logic). :func:`needed_undisclosed`; paper section 4.3.
"""

from __future__ import annotations

from typing import Any, Mapping

from ipb.engine.execute import execute
from ipb.engine.logic import Verdict
from ipb.perturb.frame import Frame
from ipb.perturb.sector_registry import stated_omissions

__all__ = ["UNKNOWN_LIMIT", "needed_undisclosed"]

#: The question renderer and :func:`needed_undisclosed` remember at most this many entries of each memo per frame
#: (the undisclosed-inputs sentence per set of inputs; the gates and verdicts per set and stated values).
UNKNOWN_LIMIT = 1024


_UNSTATED = object()


def needed_undisclosed(frame: Frame, facts: Mapping[str, Any], missing: tuple[str, ...],
                       sector: str | None = None) -> tuple[str, ...]:
    """The inputs of ``missing`` (undisclosed, in card order) the question names "not disclosed" (issue 18 bar
    line 2, stop 61 review F6): those left out are

    * an input the stated business model or sector omits (``frameworks/sectors.yaml`` ``models:`` and
      ``sectors:`` ``omits:``, by input name or by the registry metric it stands for; ``sector`` is the
      scenario's context sector, None when none; the sector operator drops the same facts: a retailer or a bank
      reports no subscription revenue retention), and
    * an input no gate needs given the stated facts: every gate that reads it (directly or through computed
      values, :attr:`Frame.consumers`) reaches PROCEED or REJECT under the engine's three-valued (Kleene) logic
      with every undisclosed input unknown (every gate evaluated, reached or not: ``execute(diagnostic=True)``).
      Klarman's "the catalyst is not identified" decides the catalyst gate, so the time until it is not asked.

    ``facts`` maps input -> value (engine units); the answer keeps ``missing``'s order. Remembered per frame and
    per (``missing``, the values of the inputs the reading gates read), at most :data:`UNKNOWN_LIMIT` of each.
    The rule reads the card and the stated facts, never the item's gold beyond what the stated facts decide.
    Paper section 4.3 (the question states the scenario's facts; an unknown is named as such).

    >>> from ipb.perturb.frame import build_frame
    >>> frame = build_frame(["klarman_deep_value_identification"])
    >>> needed_undisclosed(frame, {"catalyst": "none"}, ("catalyst_months",))
    ()
    >>> needed_undisclosed(frame, {"catalyst": "spinoff"}, ("catalyst_months",))
    ('catalyst_months',)
    """
    omitted = stated_omissions(frame, facts, sector)
    names = tuple(n for n in missing if n not in omitted) if omitted else missing
    if not names:
        return ()
    reads = frame.memo.setdefault("undisclosed_reads", {})
    held = reads.get(names)
    if held is None:  # the gates reading ``names`` and every input those gates read: once per frame and set
        if len(reads) >= UNKNOWN_LIMIT:
            reads.clear()
        gates = frozenset(g for n in names for g in frame.consumers.get(n, ()))
        relevant = tuple(m for m, gs in frame.consumers.items() if gates.intersection(gs))
        held = reads[names] = (gates, relevant)
    gates, relevant = held
    if not gates:
        return names
    if frame.derived:
        facts = frame.complete(facts)
    needed = frame.memo.setdefault("undisclosed_needed", {})
    key = (names, tuple(facts.get(m, _UNSTATED) for m in relevant))
    found = needed.get(key)
    if found is None:
        if len(needed) >= UNKNOWN_LIMIT:
            needed.clear()
        open_: set[str] = set()
        for i, c in enumerate(frame.cards):
            if not any(g.startswith(c.card.id + "/") for g in gates):
                continue
            for r in execute(c, frame.facts_for(i, facts), diagnostic=True).gates:
                verdict = r.diagnostic_verdict if r.verdict is Verdict.NOT_REACHED else r.verdict
                if verdict not in (Verdict.PROCEED, Verdict.REJECT):
                    open_.add(f"{c.card.id}/{r.gate.id}")
        found = needed[key] = tuple(n for n in names if any(g in open_ for g in frame.consumers.get(n, ())))
    return found  # type: ignore[no-any-return]
