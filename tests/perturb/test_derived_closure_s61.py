"""Derived inputs closed over ``derive:`` constraints to a fixed point (s61 tidy; bug kind: declaration order).

One card may not derive from another derived input (the loader refuses it: ``test_perturb_constraints``), but an
L8 frame joins cards, and one card's derived input may be another card's plain input that it derives from. Here
card ``downstream`` (listed first) derives ``b`` from its plain input ``a``, and card ``upstream`` derives ``a``
from ``p``: in the frame, ``b`` follows ``p`` through ``a``, declared in the "wrong" order.
:meth:`Frame.derived_closure` is the one fixed point :func:`ipb.perturb.runs._stated` and
:func:`ipb.perturb.gate_lines._follows` use; the old ``_stated`` made a single pass in declaration order and
missed ``b``.
"""

from __future__ import annotations

from decimal import Decimal

from ipb.engine.card import load_card_text
from ipb.engine.graph import compile_card
from ipb.perturb.frame import build_frame
from ipb.perturb.gate_lines import _follows
from ipb.perturb.runs import _stated

HEAD = """\
id: {id}
investor: Howard Marks
name: Chain {id}
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: One test.
vintage: {{start: 1990}}
sources:
  - {{tier: 1, document: "Memo", year: 2000}}
"""

DOWNSTREAM = HEAD.format(id="downstream") + """\
inputs:
  a: {type: ratio, range: [0%, 100%], step: 5%}
  b: {type: ratio, range: [0%, 100%], step: 5%}
constraints:
  - {id: b_from_a, derive: b, value: '1 - a'}
gates:
  - {id: low_b, name: B is low, proceed: b < 50%, required_elements: [b]}
"""

UPSTREAM = HEAD.format(id="upstream") + """\
inputs:
  p: {type: ratio, range: [0%, 100%], step: 5%}
  a: {type: ratio, range: [0%, 100%], step: 5%}
  q: {type: ratio, range: [0%, 100%], step: 5%}
constraints:
  - {id: a_from_p, derive: a, value: 'p / 2'}
gates:
  - {id: high_q, name: Q is high, proceed: q > 10%, required_elements: [q]}
"""


def _frame():
    cards = [compile_card(load_card_text(text, f"{name}.yaml"))
             for name, text in (("downstream", DOWNSTREAM), ("upstream", UPSTREAM))]
    return build_frame(cards)


def test_stated_closes_a_derived_input_read_by_another_derive_declared_before_it():
    frame = _frame()
    assert frame.layer == "L8" and frame.derived == {"a", "b"}
    # p stated: a = p / 2 is stated, so b = 1 - a is too (the old single pass met b_from_a before a_from_p)
    assert _stated(frame, {"p": Decimal("0.4"), "q": Decimal("0.2")}) == {"p", "q", "a", "b"}
    assert _stated(frame, {"q": Decimal("0.2")}) == {"q"}  # nothing derives from q alone
    assert _stated(frame, {"a": Decimal("0.2")}) == {"a", "b"}


def test_follows_and_closure_in_both_modes():
    frame = _frame()
    assert _follows(frame, "p") == ("a", "b")
    assert _follows(frame, "a") == ("b",)
    assert _follows(frame, "q") == ()
    assert frame.derived_closure(["p"], every=False) == {"p", "a", "b"}
    assert frame.derived_closure(["p"], every=True) == {"p", "a", "b"}
    assert frame.derived_closure(["q"], every=True) == {"q"}
    assert frame.derived_closure([], every=True) == frozenset()


def test_complete_derives_in_dependency_order_not_card_order():
    """:meth:`Frame.complete` on the same frame: a = p / 2 = 0.2, then b = 1 - a = 0.8 (by hand). In card order,
    ``b_from_a`` ran first, on the stated a (0.9 gives b = 0.1) or on no a at all (b left out)."""
    frame = _frame()
    done = frame.complete({"p": Decimal("0.4"), "a": Decimal("0.9"), "q": Decimal("0.2")})
    assert done["a"] == Decimal("0.2") and done["b"] == Decimal("0.8")
    done = frame.complete({"p": Decimal("0.4"), "q": Decimal("0.2")})
    assert done["a"] == Decimal("0.2") and done["b"] == Decimal("0.8")
    # stated b is recomputed too; with no source of a stated, neither a nor b can be computed: a is left out and
    # the stated b kept as stated, never derived from an unknown source (s63join, s62 new user N9: it was dropped)
    done = frame.complete({"q": Decimal("0.2"), "b": Decimal("0.5")})
    assert "a" not in done and done["b"] == Decimal("0.5")
