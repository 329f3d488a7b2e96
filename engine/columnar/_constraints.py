"""Which rows of a screened table break the card's ``constraints:`` (``ipb screen``, s54newuser finding 2).

``ipb run`` warns when the facts break a constraint (net income above operating profit); ``ipb screen`` gave such a
row its verdict with no word. Here each ``require`` rule is evaluated over whole columns with the columnar
compiler, and a row is a candidate when the rule is known false there or its float comparison is doubtful; a
``derive`` rule makes every row a candidate. Each candidate is then judged by the scalar
:meth:`ipb.engine.card.Constraint.broken` on that row's facts, so a row is reported exactly when ``ipb run`` on the
same facts would warn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from ipb.engine.card import constraint_errors
from ipb.engine.columnar._expr import Frame, compile_columns
from ipb.engine.columnar._inputs import input_columns
from ipb.engine.columnar._run import ColumnarCard
from ipb.engine.graph import CompiledCard

__all__ = ["Broken", "broken_rows", "SHOWN_ROWS"]

#: How many broken rows get their own message (the rest are counted).
SHOWN_ROWS = 10


@dataclass
class Broken:
    """The rows that break a constraint.

    ``by_row`` maps a 0-based row to the ids of the constraints it breaks (card order); ``messages`` holds, for the
    first :data:`SHOWN_ROWS` such rows, the messages ``ipb run`` gives on its facts.
    """

    by_row: dict[int, list[str]] = field(default_factory=dict)
    messages: dict[int, list[str]] = field(default_factory=dict)

    def column(self, n: int) -> list[str | None]:
        """The output column: the broken constraints' ids joined by ``, `` on each of ``n`` rows, None elsewhere."""
        return [", ".join(self.by_row[r]) if r in self.by_row else None for r in range(n)]


def broken_rows(compiled: CompiledCard, columns: Mapping[str, Any], n: int) -> Broken:
    """The rows of ``columns`` (input name -> column, as :func:`execute_columns` takes them) breaking a constraint.

    Parameters
    ----------
    compiled:
        The card; a card without constraints gives an empty :class:`Broken` at once.
    columns:
        The input columns (``n`` rows each), already scaled to the card's units.
    """
    found = Broken()
    card = compiled.card
    if not card.constraints or n == 0:
        return found
    plan = ColumnarCard(compiled)
    env, n = input_columns(card, columns, n, plan.vocab)
    frame = Frame(n, env)
    constants = {name: value for name, (value, _) in card.constants.items()}
    candidates = np.zeros(n, dtype=bool)
    with np.errstate(all="ignore"):
        for c in card.constraints:
            if c.derive is not None:
                candidates[:] = True
                break
            frame.doubt = np.zeros(n, dtype=bool)
            holds = compile_columns(c.expr.source, card.symbols, constants, plan.vocab)(frame)
            known_false = np.broadcast_to(np.asarray(holds.ok) & ~np.asarray(holds.v), (n,))
            candidates |= known_false | frame.doubt
    rows = np.flatnonzero(candidates)
    for r, facts in zip(rows.tolist(), plan.facts(env, rows)):
        broken = [c.id for c in card.constraints if c.broken(facts)]
        if broken:
            found.by_row[r] = broken
            if len(found.messages) < SHOWN_ROWS:
                found.messages[r] = [e.message for e in constraint_errors(card, facts)]
    return found
