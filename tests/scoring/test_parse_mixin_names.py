"""The parser's mixins never shadow each other's helpers by accident (a crash found by the n46 blind batch, stop 48).

``_Parser`` is built from some forty mixins. ``_SectionReadingMixin._names_gate(gate, a, b)`` (does a mention of
``gate`` lie inside ``[a, b)``?) was shadowed by ``_JsonAnswerMixin._names_gate(span)``, which comes first in the
method resolution order, so the one call of the former raised ``TypeError`` whenever a gate's own section held a clause
that said other gates were not reached ("we never got to the price or the management question" under a moat heading).
``ipb score`` turns such a crash into an unscored record; ``ipb parse`` and the library call raised. The helper is now
``_mentions_gate_in``; a method defined by two mixins must be a cooperative override (it calls ``super()``).
"""

from __future__ import annotations

import inspect

from ipb.scoring.parse import parse_response
from ipb.scoring.parse._parser import _Parser

MUNGER = "munger_business_quality_price"  # gate 3 durable_advantage, gate 4 management, gate 5 fair price


def test_a_method_two_mixins_define_is_a_cooperative_override():
    defined: dict[str, list[type]] = {}
    for base in _Parser.__mro__[1:-1]:
        for name, value in vars(base).items():
            if not name.startswith("__") and callable(value):
                defined.setdefault(name, []).append(base)
    shadowing = [f"{base.__name__}.{name} hides {bases[-1].__name__}.{name}"
                 for name, bases in defined.items() for base in bases[:-1]
                 if "super()" not in inspect.getsource(getattr(base, name))]
    assert shadowing == []


def test_a_clause_naming_other_gates_as_not_reached_under_a_gate_heading_reads_without_error():
    text = ("Durable competitive advantage\nThere is no point; we never got to the price or the management question.\n\n"
            "Final: DECLINE")
    parsed = parse_response(text, MUNGER)  # raised TypeError before
    # by hand: the heading names gate 3; its one clause says gates 5 and 4 were not reached and says nothing of gate 3
    assert [(g.gate, g.verdict) for g in parsed.gates] == [(3, None)]
    assert parsed.final_verdict == "DECLINE"


def test_the_same_clause_naming_the_heading_gate_too_reads_it_as_not_reached():
    text = ("Durable competitive advantage\nThere is no point; we never got to the price, the management question or "
            "the moat.\n\nFinal: DECLINE")
    # by hand: "never got to ... the moat" puts gate 3 itself among the gates not reached
    assert [(g.gate, g.verdict) for g in parse_response(text, MUNGER).gates] == [(3, "N/A")]
