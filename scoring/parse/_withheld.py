"""A gate the writer says could go both ways keeps no verdict read from its facts (s49user).

"Chance of completion: 90% against the 70% floor, but it could go either way." and "... so this gate may pass or may
fail." withhold the verdict on purpose. The readers that judge a gate's facts without a verdict word (a section's
appraisals and category values, a comparison with a stated bar, a figure against the writer's bar, the learned stance)
would each read PROCEED from the 90% (``how`` ends in one of :data:`FACT_READERS`); a verdict word said outright
("it may pass or may fail, but on balance it passes") is not touched, nor a gate the final verdict entails. A gate
left without a verdict this way is one the answer did not commit on: an answer hedging every gate commits to nothing
and is filed as a refusal (``no_commitment``), as docs/scoring.md, "An answer that commits to nothing", says.
"""

from __future__ import annotations

from ipb.scoring.parse._types import GateTrace
from ipb.scoring.parse._verdict_clauses import BOTH_WAYS


#: The ``how`` suffixes of the readers that judge a gate's facts or appraisals rather than a verdict word.
FACT_READERS = ("+section", "+stated-bar", "+figure-bar", "+threshold", "+appraisal", "+stance")


def withheld(low: str, gates: list[GateTrace], notes: list[str], only_how: str | None = None) -> None:
    """Clear the verdict of each gate in ``gates`` read from its facts (``how`` ends in one of :data:`FACT_READERS`)
    whose first section (``span`` in ``low``) says the gate could go both ways; with ``only_how``, only of gates whose
    ``how`` ends with it."""
    for g in gates:
        if g.verdict is None or not g.how.endswith(FACT_READERS) or (only_how is not None and not g.how.endswith(only_how)):
            continue
        a, b = g.span
        m = BOTH_WAYS.search(low, a, b)
        if m is None:
            continue
        notes.append(f"gate {g.gate}: no verdict read from its facts ({g.verdict} by '{g.how}'): the answer says "
                     f"{low[m.start() : m.end()]!r}, a verdict withheld")
        g.verdict, g.verdict_span = None, None
