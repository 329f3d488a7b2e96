"""The no-gate fallback: an answer in which no reader found a gate is read clause by clause against the card's own
words for each gate (issue 13, gate references).

News rewrites and essays may never name a criterion: "the project sits in the fund's giga-projects portfolio, where its
policy allows developments of this kind", "the projected return of 4.1% against the 8% hurdle". Before such an answer
is a parse failure ("no gate of card ... recognised"), each clause is weighed against every gate's prose vocabulary
(:func:`._prose.prose_vocabulary`: the stems only one gate's name and aliases, required elements and input names, and
descriptions and input descriptions hold, weighted 3, 2 and 1): a clause whose words weigh at least
:data:`MIN_DESCRIBED` for one gate, and strictly more than for any other, discusses that gate. Never invented:

- a clause whose words weigh :data:`MIN_DESCRIBED` for another gate too (a word of its name or aliases, or several of
  its other texts) is neither's, so a clause that names another gate's criterion is never taken for this one;
- a final-verdict sentence and a question are not read;
- each gate is taken once, at its first clause, with no verdict (``how`` ``described``), and only when at least
  :data:`MIN_DESCRIBED_GATES` gates are found (one clause alone is too weak a reading of a whole answer);
- a gate's verdict is read only from its clauses that compare its figure with a stated bar ("an 11 percent return,
  above the 9 percent it asks of mature industrials", "4.1% against the 8% hurdle"), when all of them agree
  (``how`` ``described+stated-bar``): a fact alone stays without a verdict.

References
----------
Paper §7.5 (SRP, paraphrase matching); issue 13 item 2 (gate references).
"""

from __future__ import annotations

from ipb.scoring.parse._prose import MAX_UNITS, MIN_SCORE, _CONDITIONAL, _clauses, _direction, clause_weights
from ipb.scoring.parse._past import past_time
from ipb.scoring.parse._stated_bars import _compared, _higher
from ipb.scoring.parse._thresholds import gate_bars
from ipb.scoring.parse._state import _ParserState
from ipb.scoring.parse._types import GateTrace

__all__ = ["DESCRIBED_HOW", "MIN_DESCRIBED", "MIN_DESCRIBED_GATES"]

#: ``how`` of a gate the fallback found.
DESCRIBED_HOW = "described"
#: The weight of one gate's words a clause needs (a name or alias word alone weighs 3; two description words weigh 2).
MIN_DESCRIBED = 3
#: The fallback reports gates only when it finds at least this many.
MIN_DESCRIBED_GATES = 2


class _DescribedGatesMixin(_ParserState):
    """The no-gate fallback (:meth:`_described_gates`)."""

    def _described_gates(self) -> list[GateTrace]:
        """Gates discussed by the card's words for them, clause by clause, in the order first met (see the module
        docstring); empty when fewer than :data:`MIN_DESCRIBED_GATES` are."""
        found: dict[int, GateTrace] = {}
        said: dict[int, set[str]] = {}  # per gate, the verdicts its clauses state against a bar
        for u, unit in enumerate(self.units[:MAX_UNITS]):
            if u in self.final_units or self.masked[unit.start : unit.end].rstrip().endswith("?"):
                continue
            for a, b in _clauses(self.low, unit.start, unit.end):
                weights = clause_weights(self.card, self.low[a:b])  # one weighing per clause (gate_of_clause's too)
                if not weights:
                    continue
                gate = max(weights, key=lambda g: (weights[g], g))
                if weights[gate] < max(MIN_SCORE, MIN_DESCRIBED):
                    continue
                if any(w >= MIN_DESCRIBED for g, w in weights.items() if g != gate):
                    continue  # another gate's criterion named beside them (this also refuses a tie for the best)
                verdict = self._described_bar(gate, a, b)
                if verdict is not None:
                    said.setdefault(gate, set()).add(verdict)
                if gate in found:
                    continue
                card_gate = self.ix.gates.get(gate)
                if card_gate is None:
                    continue
                found[gate] = GateTrace(gate=gate, name=card_gate.name, verdict=None, span=(unit.start, unit.end),
                                        mention=(a, b), how=DESCRIBED_HOW, confidence=0.3)
        if len(found) < MIN_DESCRIBED_GATES:
            return []
        for gate, verdicts in said.items():
            if len(verdicts) == 1 and gate in found:  # every clause of the gate that states its figure against a bar agrees
                trace = found[gate]
                trace.verdict, trace.how = next(iter(verdicts)), f"{DESCRIBED_HOW}+stated-bar"
                self.notes.append(f"gate {gate} read as {trace.verdict} from a comparison of its figure with a stated bar "
                                  f"(how '{trace.how}')")
        self.notes.append(f"no gate was named: {len(found)} gate(s) read from clauses in the card's words for them, with no "
                          f"verdict (how '{DESCRIBED_HOW}'): {', '.join(str(g) for g in found)}")
        return list(found.values())

    def _described_bar(self, gate: int, a: int, b: int) -> str | None:
        """The verdict clause ``[a, b)`` states by comparing the gate's figure with a bar it names ("an 11 percent return,
        above the 9 percent it asks", "4.1% against the 8% hurdle"; :func:`._stated_bars.compared_verdict`), else None;
        none in a condition or in a dated past."""
        text = self.low[a:b]
        if _CONDITIONAL.search(text) or past_time(text, 0, len(text), "comparison"):
            return None
        bars = gate_bars(self.card).get(gate)
        verdict, _ = _compared(text, _higher(bars, _direction(self.card, gate)))
        return verdict
