"""Throughput of the ipb engine on the Buffett acquisition checklist, beside its peers.

Run from the repository root::

    .venv/bin/python bench/engine.py [--n 20000] [--seed 0] [--json OUT] [--profile]

One run draws N random scenarios for ``buffett_acquisition_checklist`` and
times, side by side on the same scenarios:

* ipb, compiled once: ``execute`` (full traces), ``execute(...).gates`` (the
  per-gate results, which the engine builds on first access),
  ``execute(...).to_grp()`` and the batch API ``execute_many``;
* ipb re-parsing every expression for every scenario (the cost of *not*
  compiling once);
* the same six gates written for the PyPI ``rule-engine`` package;
* the same six gates as a GoRules ``zen-engine`` JDM decision graph;
* a hand-written plain-Python function (Decimal facts, the same inputs ipb
  gets; and a float variant);
* the columnar executor ``execute_columns`` (issue 21) over the same scenarios
  as one table of numpy columns (floats with NaN for unknown, categories as
  codes), built beforehand like every peer's native input.

``--peers KEY,...`` times only the named rows (e.g. the 1,000,000-scenario run
``--n 1000000 --peers ipb_batch,plain_decimal,plain_float,columnar``), and
``--all-cards`` adds a table for every bundled card: ``execute_many`` against
``execute_columns`` on the same random scenarios, with their agreement.

Before timing, every peer is checked against ipb's final verdict and gate-5
verdict on the first 2,000 scenarios; a peer that disagrees is a bug in the
peer's translation, and the run stops.

Timing: ``time.perf_counter`` around one pass over the peer's whole scenario
list, after a warm-up pass over the first 500; best of 3 passes; the garbage
collector is off during a pass (as ``timeit`` does). Each peer's inputs are
prepared beforehand in its own native form (Decimal dicts for ipb and
plain-Python, dicts with None for missing facts for rule-engine, float dicts
for zen-engine), so conversion is not timed. The process is pinned to one CPU
where the OS allows it.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import platform
import pstats
import random
import sys
import time
from collections import Counter

import numpy as np
from dataclasses import dataclass, field
from decimal import Decimal
from importlib import metadata, resources
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ipb.engine.card import Card, load_card
from ipb.engine.columnar import Encoded, execute_columns
from ipb.engine.execute import execute, execute_many
from ipb.engine.expressions import compile_expression
from ipb.engine.graph import CompiledCard, compile_card

CARD_ID = "buffett_acquisition_checklist"
RESULTS_VERSION = 1
VERIFY_N = 2000
WARMUP_N = 500
REPEATS = 3
#: Probability that a fact is left out of a scenario (unknown).
MISSING = {"management_record": 0.30, "macro_regime": 0.10}

PROCEED, REJECT, INCONCLUSIVE, NA = "PROCEED", "REJECT", "INCONCLUSIVE", "N/A"

#: (outcome, gate verdicts as strings) of one scenario.
Verdicts = tuple[str, tuple[str, ...]]


# --------------------------------------------------------------------------- scenarios


def load_buffett() -> tuple[Card, CompiledCard]:
    """The bundled Buffett card, read as package data, and its compiled form."""
    ref = resources.files("ipb.frameworks").joinpath(f"{CARD_ID}.yaml")
    with resources.as_file(ref) as path:
        card = load_card(path)
    return card, compile_card(card)


def make_scenarios(card: Card, n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` random fact dicts for ``card``.

    Each numeric input is drawn uniformly from the grid ``lo, lo+step, ..., hi``
    of its ``range``/``step``; each category uniformly from its values. A fact
    named in :data:`MISSING` is left out with that probability (unknown).
    """
    rng = random.Random(seed)
    grids: list[tuple[str, Sequence[Any]]] = []
    for name, spec in card.inputs.items():
        if spec.values is not None:
            grids.append((name, spec.values))
        elif spec.range is not None and spec.step is not None:
            lo, hi = spec.range
            count = int((hi - lo) / spec.step) + 1
            grids.append((name, [lo + spec.step * k for k in range(count)]))
        else:
            raise SystemExit(f"input {name!r} has no range/step or values to draw from")
    scenarios = []
    for _ in range(n):
        facts: dict[str, Any] = {}
        for name, grid in grids:
            value = grid[rng.randrange(len(grid))]
            if rng.random() >= MISSING.get(name, 0.0):
                facts[name] = value
        scenarios.append(facts)
    return scenarios


# --------------------------------------------------------------------------- peers


@dataclass
class Peer:
    """One row of the table.

    ``prepare`` turns the ipb fact dicts into the peer's native inputs
    (untimed); ``run`` is timed over the whole list; ``verdicts`` gives one
    scenario's (outcome, gate verdicts) for the agreement check, or None when
    the row is an ipb row checked by construction.
    """

    name: str
    run: Callable[[list[Any]], None]
    prepare: Callable[[list[dict[str, Any]]], list[Any]] = lambda xs: xs
    verdicts: Callable[[Any], Verdicts] | None = None
    max_n: int | None = None
    note: str = ""
    key: str = ""
    result: dict[str, Any] = field(default_factory=dict)


def ipb_peers(compiled: CompiledCard) -> list[Peer]:
    def full(xs: list[Any]) -> None:
        for f in xs:
            execute(compiled, f)

    def grp(xs: list[Any]) -> None:
        for f in xs:
            execute(compiled, f).to_grp()

    def materialized(xs: list[Any]) -> None:
        for f in xs:
            execute(compiled, f).gates

    def batch(xs: list[Any]) -> None:
        for _ in execute_many(compiled, xs):
            pass

    def full_verdicts(f: Mapping[str, Any]) -> Verdicts:
        t = execute(compiled, f)
        return t.outcome, tuple(t.verdicts())

    def materialized_verdicts(f: Mapping[str, Any]) -> Verdicts:
        t = execute(compiled, f)
        return t.outcome, tuple(r.verdict.value for r in t.gates)

    def grp_verdicts(f: Mapping[str, Any]) -> Verdicts:
        g = execute(compiled, f).to_grp()
        return g["investment_verdict"], tuple(e["verdict"] for e in g["gold_program"])

    return [
        Peer("ipb compiled, full traces", full, verdicts=full_verdicts, key="ipb_full"),
        Peer("ipb full traces, gate results built", materialized, verdicts=materialized_verdicts, key="ipb_full_gates",
             note="execute(...).gates"),
        Peer("ipb full traces + GRP dict", grp, verdicts=grp_verdicts, key="ipb_grp"),
        Peer("ipb batch (execute_many)", batch, key="ipb_batch"),
    ]


# -- (a) ipb, re-parsing every expression for every scenario


def reparse_peer(card: Card, max_n: int) -> Peer:
    """Parse, check and compile all the card's gate expressions anew per scenario.

    The evaluation that follows has the engine's semantics for a
    linear_sequential conjunction: computed values first, then the gate's
    verdict from its proceed/reject criteria, stop at the first REJECT.
    """
    assert card.topology_type == "linear_sequential" and card.gate_logic == "conjunction"
    symbols = card.symbols
    base = {name: value for name, (value, _) in card.constants.items()}
    base["iteration"] = Decimal(0)
    gates = [
        (
            tuple((name, e.source) for name, e in g.compute.items()),
            g.proceed.source if g.proceed is not None else None,
            g.reject.source if g.reject is not None else None,
        )
        for g in card.gates
    ]
    ok, bad = card.outcomes["pass"], card.outcomes["fail"]

    def one(facts: Mapping[str, Any]) -> Verdicts:
        compiled = [
            (
                [(name, compile_expression(src, symbols, expect="number").fn) for name, src in computes],
                compile_expression(p, symbols, expect="bool").fn if p is not None else None,
                compile_expression(r, symbols, expect="bool").fn if r is not None else None,
            )
            for computes, p, r in gates
        ]
        env = dict(base)
        env.update(facts)
        verdicts = [NA] * len(compiled)
        for i, (computes, P, R) in enumerate(compiled):
            known = True
            for name, fn in computes:
                env[name] = value = fn(env)
                known = known and value is not None
            verdicts[i] = v = _verdict(P(env) if P else None, R(env) if R else None, P is not None, R is not None, known)
            if v == REJECT:
                return bad, tuple(verdicts)
        return ok, tuple(verdicts)

    def run(xs: list[Any]) -> None:
        for f in xs:
            one(f)

    return Peer("(a) ipb re-parsing every expression", run, verdicts=one, max_n=max_n, key="ipb_reparse")


def _verdict(p: Any, r: Any, has_p: bool, has_r: bool, known: bool) -> str:
    """A gate's verdict from its criteria (the engine's rules, paper §7.3)."""
    if has_p and has_r:
        if r is True:
            return REJECT
        return PROCEED if (r is False and p is True) else INCONCLUSIVE
    if has_r:
        return REJECT if r is True else PROCEED if r is False else INCONCLUSIVE
    if has_p:
        return PROCEED if p is True else REJECT if p is False else INCONCLUSIVE
    return PROCEED if known else INCONCLUSIVE


# -- (b) PyPI rule-engine

#: The checklist in rule-engine's language: per gate (computes, proceed, reject).
#: Percent literals become fractions; ``known(x)`` becomes ``x != null``;
#: constants are passed in the context by name, as in the card.
RULE_ENGINE_GATES: list[tuple[list[tuple[str, str]], str | None, str | None]] = [
    (
        [],
        "business_model in {'subscription_software', 'consumer_brand', 'insurance', 'banking', 'railroad',"
        " 'utility', 'retail', 'industrial_manufacturing', 'airline'} and revenue_retention != null",
        "business_model in {'pre_revenue_technology', 'speculative_biotech', 'crypto_asset'}",
    ),
    ([], "revenue_retention >= 0.90 and gross_margin >= 0.60", "revenue_retention < 0.80 or gross_margin < 0.40"),
    ([], "management_record == 'candid_owner_oriented'", "management_record == 'self_serving'"),
    (
        [
            ("owner_earnings", "arr * maturity_margin"),
            ("earnings_multiple", "1 / discount_rate + growth_premium * revenue_growth"),
            ("intrinsic_value", "owner_earnings * earnings_multiple"),
        ],
        None,
        "intrinsic_value <= 0",
    ),
    (
        [("price", "arr * ev_to_arr"), ("premium", "price / intrinsic_value")],
        "price <= intrinsic_value",
        "price > intrinsic_value",
    ),
    ([], None, "net_income <= 0 and macro_regime == 'credit_crisis'"),
]


def rule_engine_peer(card: Card) -> Peer:
    """One ``rule_engine.Rule`` per criterion and per computed value, run in gate order.

    rule-engine is two-valued: a missing fact is passed as None; ``None ==
    'x'`` is simply false and an ordering comparison with None raises
    ``EvaluationError``, which is caught and read as unknown (INCONCLUSIVE).
    So ``net_income <= 0 and macro_regime == 'credit_crisis'`` with the
    regime missing is *false* here (gate 6 PROCEED) where ipb's Kleene logic
    says unknown (gate 6 INCONCLUSIVE); the final verdict is the same because
    INCONCLUSIVE does not stop the chain.
    """
    import rule_engine

    errors = (rule_engine.errors.EngineError, ArithmeticError)
    compiled = [
        (
            [(name, rule_engine.Rule(text)) for name, text in computes],
            rule_engine.Rule(p) if p else None,
            rule_engine.Rule(r) if r else None,
        )
        for computes, p, r in RULE_ENGINE_GATES
    ]
    constants = {name: value for name, (value, _) in card.constants.items()}
    names = list(card.inputs)
    ok, bad = card.outcomes["pass"], card.outcomes["fail"]

    def evaluate(rule: Any, thing: dict[str, Any]) -> Any:
        try:
            return rule.evaluate(thing)
        except errors:
            return None

    def prepare(xs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**constants, **{n: f.get(n) for n in names}} for f in xs]

    def one(facts: dict[str, Any]) -> Verdicts:
        thing = dict(facts)
        verdicts = [NA] * len(compiled)
        for i, (computes, P, R) in enumerate(compiled):
            known = True
            for name, rule in computes:
                thing[name] = value = evaluate(rule, thing)
                known = known and value is not None
            p = evaluate(P, thing) if P is not None else None
            r = evaluate(R, thing) if R is not None else None
            verdicts[i] = v = _verdict(p, r, P is not None, R is not None, known)
            if v == REJECT:
                return bad, tuple(verdicts)
        return ok, tuple(verdicts)

    def run(xs: list[Any]) -> None:
        for f in xs:
            one(f)

    return Peer(
        "(b) rule-engine (PyPI), Rule per criterion",
        run,
        prepare=prepare,
        verdicts=one,
        key="rule_engine",
        note="two-valued: None == 'x' is false",
    )


# -- (c) GoRules zen-engine


def zen_graph(card: Card) -> dict[str, Any]:
    """The checklist as a JDM decision graph: input -> one expression node per gate -> verdict -> output.

    Each gate node writes its computed values and its verdict ``gK``;
    ``passThrough`` carries everything to the next node. ZEN has no unknown
    truth value (an ordering comparison with null is a runtime error), so
    every criterion spells out its null cases to give the engine's Kleene
    verdicts. A gate after a REJECT gives N/A (the chain has stopped).
    """
    c = {name: _zen_number(value) for name, (value, _) in card.constants.items()}
    g1, g2, g3, g4, g5, g6 = (card.gates[i] for i in range(6))
    kill = _zen_list(["pre_revenue_technology", "speculative_biotech", "crypto_asset"])
    understood = _zen_list(
        ["subscription_software", "consumer_brand", "insurance", "banking", "railroad", "utility", "retail",
         "industrial_manufacturing", "airline"]
    )
    gates: list[tuple[str, list[tuple[str, str]], str]] = [
        (g1.id, [], f"business_model == null ? 'INCONCLUSIVE' : business_model in {kill} ? 'REJECT'"
                    f" : business_model in {understood} and revenue_retention != null ? 'PROCEED' : 'INCONCLUSIVE'"),
        (g2.id, [], "(revenue_retention != null and revenue_retention < 0.8) or (gross_margin != null and gross_margin < 0.4)"
                    " ? 'REJECT' : revenue_retention == null or gross_margin == null ? 'INCONCLUSIVE'"
                    " : revenue_retention >= 0.9 and gross_margin >= 0.6 ? 'PROCEED' : 'INCONCLUSIVE'"),
        (g3.id, [], "management_record == null ? 'INCONCLUSIVE' : management_record == 'self_serving' ? 'REJECT'"
                    " : management_record == 'candid_owner_oriented' ? 'PROCEED' : 'INCONCLUSIVE'"),
        (g4.id, [
            ("owner_earnings", f"arr == null ? null : arr * {c['maturity_margin']}"),
            ("earnings_multiple", f"revenue_growth == null ? null : 1 / {c['discount_rate']} + {c['growth_premium']} * revenue_growth"),
            ("intrinsic_value", "$.owner_earnings == null or $.earnings_multiple == null ? null"
                                " : $.owner_earnings * $.earnings_multiple"),
        ], "$.intrinsic_value == null ? 'INCONCLUSIVE' : $.intrinsic_value <= 0 ? 'REJECT' : 'PROCEED'"),
        (g5.id, [
            ("price", "arr == null or ev_to_arr == null ? null : arr * ev_to_arr"),
            ("premium", "$.price == null or intrinsic_value == null or intrinsic_value == 0 ? null : $.price / intrinsic_value"),
        ], "$.price == null or intrinsic_value == null ? 'INCONCLUSIVE' : $.price > intrinsic_value ? 'REJECT' : 'PROCEED'"),
        (g6.id, [], "(net_income != null and net_income > 0) or (macro_regime != null and macro_regime != 'credit_crisis')"
                    " ? 'PROCEED' : net_income == null or macro_regime == null ? 'INCONCLUSIVE' : 'REJECT'"),
    ]
    nodes: list[dict[str, Any]] = [{"id": "input", "type": "inputNode", "name": "scenario", "position": {"x": 0, "y": 0}}]
    previous = None
    for k, (gid, computes, verdict) in enumerate(gates, start=1):
        if previous is not None:
            verdict = f"{previous} == 'REJECT' or {previous} == 'N/A' ? 'N/A' : {verdict}"
        expressions = [{"id": f"g{k}_{name}", "key": name, "value": text} for name, text in computes]
        expressions.append({"id": f"g{k}_verdict", "key": f"g{k}", "value": verdict})
        nodes.append({
            "id": gid, "type": "expressionNode", "name": f"Gate {k}", "position": {"x": 200 * k, "y": 0},
            "content": {"expressions": expressions, "passThrough": True},
        })
        previous = f"g{k}"
    ok, bad = card.outcomes["pass"], card.outcomes["fail"]
    any_reject = " or ".join(f"g{k} == 'REJECT'" for k in range(1, 7))
    trigger = "'all_gates_cleared'"
    for k in range(6, 0, -1):
        trigger = f"g{k} == 'REJECT' ? 'gate_{k}_reject' : {trigger}"
    nodes.append({
        "id": "verdict", "type": "expressionNode", "name": "Final verdict", "position": {"x": 1400, "y": 0},
        "content": {"expressions": [
            {"id": "verdict", "key": "verdict", "value": f"{any_reject} ? '{bad}' : '{ok}'"},
            {"id": "trigger", "key": "trigger", "value": trigger},
        ], "passThrough": True},
    })
    nodes.append({"id": "output", "type": "outputNode", "name": "verdict", "position": {"x": 1600, "y": 0}})
    edges = [
        {"id": f"e{i}", "sourceId": a["id"], "targetId": b["id"], "type": "edge"}
        for i, (a, b) in enumerate(zip(nodes, nodes[1:]))
    ]
    return {"contentType": "application/vnd.gorules.decision", "nodes": nodes, "edges": edges}


def _zen_number(value: Any) -> str:
    from ipb.engine._exact import public

    return format(public(value).normalize(), "f")  # a constant may be an exact Fraction (2/3)


def _zen_list(values: Iterable[str]) -> str:
    return "[" + ", ".join(f"'{v}'" for v in values) + "]"


def zen_peer(card: Card, max_n: int | None) -> Peer:
    """The decision graph evaluated with ``zen.ZenEngine().create_decision(...).evaluate(ctx)``.

    The binding does not accept Decimal; facts are passed as floats, which
    ZEN reads into its own decimal type by their shortest repr (0.07 stays
    0.07), so arithmetic is exact on these grids.
    """
    import zen

    decision = zen.ZenEngine().create_decision(json.dumps(zen_graph(card)))

    def prepare(xs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: float(v) if isinstance(v, Decimal) else v for k, v in f.items()} for f in xs]

    def one(ctx: dict[str, Any]) -> Verdicts:
        result = decision.evaluate(ctx)["result"]
        return result["verdict"], tuple(result[f"g{k}"] for k in range(1, 7))

    def run(xs: list[Any]) -> None:
        evaluate = decision.evaluate
        for ctx in xs:
            evaluate(ctx)

    return Peer("(c) zen-engine (GoRules) JDM graph", run, prepare=prepare, verdicts=one, max_n=max_n, key="zen_engine")


# -- (d) plain Python

_KILL = frozenset({"pre_revenue_technology", "speculative_biotech", "crypto_asset"})
_UNDERSTOOD = frozenset({"subscription_software", "consumer_brand", "insurance", "banking", "railroad", "utility",
                         "retail", "industrial_manufacturing", "airline"})


def make_plain(ok: str, bad: str, num: Callable[[str], Any]) -> Callable[[Mapping[str, Any]], tuple[str, str, tuple[str, ...]]]:
    """The six gates by hand, with the engine's unknown-handling; ``num`` makes the literals (Decimal or float).

    The card as issue 15 left it: a moat short of 90% retention or 60% gross
    margin fails; a 25% margin of safety (price <= 0.75 x value); every gate
    but management integrity is decisive (an INCONCLUSIVE there leaves the
    final verdict INCONCLUSIVE); the intrinsic value, read by gate 5, must be
    known for gate 4 to PROCEED.
    """
    r90, r60, zero = num("0.90"), num("0.60"), num("0")
    margin, multiple0, premium, keep = num("0.25"), num("1") / num("0.10"), num("40"), num("0.75")
    decisive = (0, 1, 3, 4, 5)

    def cleared(vs: tuple[str, ...]) -> tuple[str, str, tuple[str, ...]]:
        for i in decisive:
            if vs[i] == INCONCLUSIVE:
                return "INCONCLUSIVE", f"gate_{i + 1}_inconclusive", vs
        if PROCEED not in vs:
            return "INCONCLUSIVE", "no_gate_decided", vs
        return ok, "all_gates_cleared", vs

    def buffett(f: Mapping[str, Any]) -> tuple[str, str, tuple[str, ...]]:
        get = f.get
        bm = get("business_model")
        rr = get("revenue_retention")
        # 1 circle of competence
        if bm is None:
            v1 = INCONCLUSIVE
        elif bm in _KILL:
            return bad, "gate_1_reject", (REJECT, NA, NA, NA, NA, NA)
        else:
            v1 = PROCEED if (bm in _UNDERSTOOD and rr is not None) else INCONCLUSIVE
        # 2 economic moat: proceed only; complete evidence short of either floor fails
        gm = get("gross_margin")
        if (rr is not None and rr < r90) or (gm is not None and gm < r60):
            return bad, "gate_2_reject", (v1, REJECT, NA, NA, NA, NA)
        v2 = PROCEED if (rr is not None and gm is not None) else INCONCLUSIVE
        # 3 management integrity
        mr = get("management_record")
        if mr == "self_serving":
            return bad, "gate_3_reject", (v1, v2, REJECT, NA, NA, NA)
        v3 = PROCEED if mr == "candid_owner_oriented" else INCONCLUSIVE
        # 4 intrinsic value
        arr = get("arr")
        growth = get("revenue_growth")
        value = None if arr is None or growth is None else arr * margin * (multiple0 + premium * growth)
        if value is None:
            v4 = INCONCLUSIVE
        elif value <= zero:
            return bad, "gate_4_reject", (v1, v2, v3, REJECT, NA, NA)
        else:
            v4 = PROCEED
        # 5 margin of safety: at most 75% of the value
        ev = get("ev_to_arr")
        price = None if arr is None or ev is None else arr * ev
        if price is None or value is None:
            v5 = INCONCLUSIVE
        elif price > keep * value:
            return bad, "gate_5_reject", (v1, v2, v3, v4, REJECT, NA)
        else:
            v5 = PROCEED
        # 6 holding period
        ni = get("net_income")
        regime = get("macro_regime")
        if (ni is not None and ni > zero) or (regime is not None and regime != "credit_crisis"):
            v6 = PROCEED
        elif ni is None or regime is None:
            v6 = INCONCLUSIVE
        else:
            return bad, "gate_6_reject", (v1, v2, v3, v4, v5, REJECT)
        return cleared((v1, v2, v3, v4, v5, v6))

    return buffett


def plain_peers(card: Card) -> list[Peer]:
    ok, bad = card.outcomes["pass"], card.outcomes["fail"]
    peers = []
    for label, num, key, convert in (
        ("(d) plain Python, Decimal facts", Decimal, "plain_decimal", None),
        ("(d) plain Python, float facts", float, "plain_float", float),
    ):
        fn = make_plain(ok, bad, num)

        def run(xs: list[Any], fn: Any = fn) -> None:
            for f in xs:
                fn(f)

        def verdicts(f: Mapping[str, Any], fn: Any = fn) -> Verdicts:
            outcome, _, vs = fn(f)
            return outcome, vs

        prepare: Callable[[list[dict[str, Any]]], list[Any]] = lambda xs: xs
        if convert is not None:
            prepare = lambda xs: [{k: float(v) if isinstance(v, Decimal) else v for k, v in f.items()} for f in xs]
        peers.append(Peer(label, run, prepare=prepare, verdicts=verdicts, key=key))
    return peers


# -- (e) the columnar executor


class Columns:
    """Scenarios as one table of columns; slicing gives the first rows (warm-up, agreement)."""

    def __init__(self, card: Card, scenarios: list[dict[str, Any]]) -> None:
        self.n = len(scenarios)
        self.columns: dict[str, Any] = {}
        for name, spec in card.inputs.items():
            values = [f.get(name) for f in scenarios]
            if spec.values is not None:
                index = {w: i for i, w in enumerate(spec.values)}
                codes = [-1 if v is None else index[v] for v in values]
                self.columns[name] = Encoded(np.array(codes, dtype=np.int32), list(spec.values))
            elif spec.expr_type.kind == "number":
                self.columns[name] = np.array([np.nan if v is None else float(v) for v in values])
            elif spec.expr_type.kind == "date":
                self.columns[name] = np.array([np.datetime64("NaT") if v is None else np.datetime64(v, "D")
                                               for v in values], dtype="datetime64[D]")
            else:
                self.columns[name] = np.array(values, dtype=object)

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, cut: slice) -> "Columns":
        out = Columns.__new__(Columns)
        out.columns = {k: Encoded(v.codes[cut], v.words) if isinstance(v, Encoded) else v[cut]
                       for k, v in self.columns.items()}
        out.n = len(range(self.n)[cut])
        return out


def columnar_peer(card: Card, compiled: CompiledCard) -> Peer:
    def run(xs: Any) -> None:
        execute_columns(compiled, xs.columns, xs.n)

    return Peer("(e) ipb columnar (execute_columns)", run, prepare=lambda xs: Columns(card, xs), key="columnar",
                note="one table, exact at ties")


def columnar_agreement(compiled: CompiledCard, columns: Columns, truth: list[Verdicts]) -> dict[str, Any]:
    """Agreement of ``execute_columns`` with ``execute_many`` on every row of ``columns``."""
    result = execute_columns(compiled, columns.columns, columns.n)
    final = gate5 = every = 0
    first_bad = None
    for i, (outcome, gates) in enumerate(truth):
        got_outcome, _, got_gates = result.row(i)
        a, b = got_outcome == outcome, got_gates[4] == gates[4] if len(gates) > 4 else True
        final += a
        gate5 += b
        every += got_gates == gates
        if first_bad is None and not (a and got_gates == gates):
            first_bad = i
    n = len(truth)
    return {"n": n, "final": final / n, "gate5": gate5 / n, "all_gates": every / n, "first_disagreement": first_bad,
            "fallback_rows": result.fallback}


# --------------------------------------------------------------------------- every bundled card


def draw_any(card: Card, n: int, seed: int) -> list[dict[str, Any]]:
    """Like :func:`make_scenarios` for any card: inputs without a grid get one; each fact is unknown 10% of the time."""
    rng = random.Random(seed)
    grids: list[tuple[str, Sequence[Any]]] = []
    for name, spec in card.inputs.items():
        if spec.values is not None:
            grids.append((name, spec.values))
        elif spec.expr_type.kind == "bool":
            grids.append((name, [True, False]))
        elif spec.expr_type.kind == "date":
            start = __import__("datetime").date(1990, 1, 1)
            grids.append((name, [start + __import__("datetime").timedelta(days=30 * k) for k in range(480)]))
        else:
            lo, hi = spec.range if spec.range is not None else (Decimal(-10), Decimal(100))
            step = spec.step if spec.step is not None else (hi - lo) / 200
            count = int((hi - lo) / step) + 1
            grids.append((name, [lo + step * k for k in range(count)]))
    out = []
    for _ in range(n):
        out.append({name: grid[rng.randrange(len(grid))] for name, grid in grids if rng.random() >= 0.10})
    return out


def all_cards(n: int, seed: int) -> list[dict[str, Any]]:
    """``execute_many`` vs ``execute_columns`` on ``n`` scenarios of every bundled card (best of 3 each)."""
    from ipb.engine.registry import bundled_card_paths

    rows = []
    for path in sorted(bundled_card_paths()):
        card = load_card(path)
        compiled = compile_card(card)
        scenarios = draw_any(card, n, seed)
        columns = Columns(card, scenarios)
        truth = [(r.outcome, tuple(v.value for v in r.verdicts)) for r in execute_many(compiled, scenarios)]
        agree = columnar_agreement(compiled, columns, truth)
        many = time_peer(Peer("many", lambda xs: [None for _ in execute_many(compiled, xs)]), scenarios)
        col = time_peer(Peer("col", lambda xs: execute_columns(compiled, xs.columns, xs.n)), columns)  # type: ignore[arg-type]
        rows.append({"card": card.id, "n": n, "execute_many_us": 1e6 / many["per_s"], "columnar_us": 1e6 / col["per_s"],
                     "speedup": col["per_s"] / many["per_s"], "agree_all_gates": agree["all_gates"],
                     "agree_final": agree["final"], "fallback_rows": agree["fallback_rows"]})
    return rows


def report_all_cards(rows: list[dict[str, Any]], seed: int) -> None:
    table = Table(title=f"every bundled card: execute_many vs execute_columns (N={rows[0]['n']:,} each, seed={seed}, best of {REPEATS})")
    for h in ("card", "µs/exec execute_many", "µs/exec columnar", "columnar × faster", "agree (all gates)",
              "rows decided by the scalar engine"):
        table.add_column(h, justify="left" if h == "card" else "right")
    for r in rows:
        table.add_row(r["card"], f"{r['execute_many_us']:.2f}", f"{r['columnar_us']:.3f}", f"{r['speedup']:.1f}",
                      f"{r['agree_all_gates']:.2%}", f"{r['fallback_rows']:,}")
    Console(width=220).print(table)


# --------------------------------------------------------------------------- checks and timing


def reference(compiled: CompiledCard, scenarios: list[dict[str, Any]]) -> list[Verdicts]:
    """ipb's verdicts (from ``execute_many``), the ground truth for the agreement check."""
    return [(r.outcome, tuple(v.value for v in r.verdicts)) for r in execute_many(compiled, scenarios)]


def agreement(peer: Peer, inputs: list[Any], truth: list[Verdicts]) -> dict[str, Any]:
    """Agreement of ``peer`` with ipb on final verdict, gate-5 verdict and every gate, over ``inputs``."""
    assert peer.verdicts is not None
    final = gate5 = every = 0
    first_bad: int | None = None
    for i, (x, (outcome, gates)) in enumerate(zip(inputs, truth)):
        p_outcome, p_gates = peer.verdicts(x)
        a, b = p_outcome == outcome, p_gates[4] == gates[4]
        final += a
        gate5 += b
        every += tuple(p_gates) == gates
        if first_bad is None and not (a and b):
            first_bad = i
    n = len(truth)
    return {"n": n, "final": final / n, "gate5": gate5 / n, "all_gates": every / n, "first_disagreement": first_bad}


def time_peer(peer: Peer, inputs: list[Any]) -> dict[str, Any]:
    """Best of :data:`REPEATS` timed passes over ``inputs`` (after a warm-up)."""
    peer.run(inputs[:WARMUP_N])
    best = float("inf")
    passes = []
    for _ in range(REPEATS):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            peer.run(inputs)
            elapsed = time.perf_counter() - start
        finally:
            gc.enable()
        passes.append(elapsed)
        best = min(best, elapsed)
    return {"n": len(inputs), "best_s": best, "passes_s": passes, "per_s": len(inputs) / best}


def pin_one_cpu() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity)"
    cpus = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpus[0]})
    return f"pinned to CPU {cpus[0]}"


def profile(compiled: CompiledCard, scenarios: list[dict[str, Any]], top: int = 15) -> dict[str, str]:
    """cProfile of ``execute``, ``execute(...).to_grp()`` and ``execute_many`` over ``scenarios``: top by tottime."""
    out = {}
    for label, fn in (
        ("execute", lambda: [execute(compiled, f) for f in scenarios]),
        ("execute + to_grp", lambda: [execute(compiled, f).to_grp() for f in scenarios]),
        ("execute_many", lambda: list(execute_many(compiled, scenarios))),
    ):
        prof = cProfile.Profile()
        prof.runcall(fn)
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).strip_dirs().sort_stats("tottime").print_stats(top)
        out[label] = buf.getvalue()
    return out


# --------------------------------------------------------------------------- report


TARGETS = {
    "full_traces_per_s": 100_000,
    "batch_within_x_of_plain": 5.0,
    "columnar_x_batch": 5.0,
    "columnar_x_plain": 1.5,
    "elsewhere": {"rule_engine": 37_000, "zen_engine": 7_400, "plain_python": 1_500_000},
}


def report(peers: list[Peer], meta: dict[str, Any]) -> None:
    rows = {p.key: p.result for p in peers}
    plain = rows.get("plain_decimal", {}).get("per_s")
    full = rows.get("ipb_full", {}).get("per_s")
    header = ["implementation", "N timed", "exec/s", "µs/exec", "cost × plain", "cost × ipb full", "agree final", "agree gate 5", "agree all gates"]
    body = []
    for p in peers:
        r = p.result
        agree = r.get("agreement")
        body.append([
            escape(p.name + (f"  [{p.note}]" if p.note else "")),
            f"{r['n']:,}",
            f"{r['per_s']:,.0f}",
            f"{1e6 / r['per_s']:.3f}",
            f"{plain / r['per_s']:.2f}" if plain else "-",
            f"{full / r['per_s']:.2f}" if full else "-",
            f"{agree['final']:.2%}" if agree else "reference",
            f"{agree['gate5']:.2%}" if agree else "reference",
            f"{agree['all_gates']:.2%}" if agree else "reference",
        ])
    title = (f"{meta['card']}: scenarios executed per second (N={meta['n']:,}, seed={meta['seed']}, "
             f"best of {REPEATS}, {meta['cpu']})")
    table = Table(title=title)
    for i, h in enumerate(header):
        table.add_column(h, justify="left" if i == 0 else "right")
    for row in body:
        table.add_row(*row)
    Console(width=220).print(table)
    print("cost × X = time per scenario relative to X (lower is faster); agreement is with ipb on the first "
          f"{min(meta['n'], VERIFY_N):,} scenarios (ipb batch is the reference; the ipb rows are checked too).")
    batch = rows.get("ipb_batch", {}).get("per_s")
    float_plain = rows.get("plain_float", {}).get("per_s")
    col = rows.get("columnar", {}).get("per_s")
    lines = []
    if full:
        lines.append(f"target: full traces >= {TARGETS['full_traces_per_s']:,}/s on one core: "
                     f"{full:,.0f}/s -> {'MET' if full >= TARGETS['full_traces_per_s'] else 'NOT MET'}")
    if batch and plain and float_plain:
        lines.append(f"target: batch within {TARGETS['batch_within_x_of_plain']:g}x of plain Python: "
                     f"{plain / batch:.1f}x of the Decimal function, {float_plain / batch:.1f}x of the float one -> "
                     f"{'MET' if plain / batch <= TARGETS['batch_within_x_of_plain'] else 'NOT MET'} (Decimal reference)")
    if col and batch:
        lines.append(f"target: columnar >= {TARGETS['columnar_x_batch']:g}x execute_many: {col / batch:.1f}x -> "
                     f"{'MET' if col / batch >= TARGETS['columnar_x_batch'] else 'NOT MET'}")
    if col and plain and float_plain:
        lines.append(f"target: columnar >= {TARGETS['columnar_x_plain']:g}x hand-written Python: {col / plain:.1f}x the "
                     f"Decimal function, {col / float_plain:.1f}x the float one -> "
                     f"{'MET' if min(col / plain, col / float_plain) >= TARGETS['columnar_x_plain'] else 'NOT MET'} (both)")
    if col:
        fb = rows["columnar"].get("agreement", {}).get("fallback_rows")
        lines.append(f"columnar: {fb} of the first {min(meta['n'], VERIFY_N):,} scenarios were exact ties re-decided by "
                     "the scalar engine (their cost is in the timing)")
    lines.append("measured elsewhere (not this machine): rule-engine ~37,000/s, zen-engine ~7,400/s, plain Python ~1,500,000/s")
    for line in lines:
        print(line)
    outcomes = meta["outcomes"]
    print("scenario mix (ipb, all N): final " + ", ".join(f"{k} {v:,}" for k, v in outcomes["final"].items())
          + "; triggers " + ", ".join(f"{k} {v:,}" for k, v in outcomes["triggers"].items())
          + "; gate verdicts " + ", ".join(f"{k} {v:,}" for k, v in outcomes["gates"].items()))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=20000, help="scenarios (default 20000)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--reparse-n", type=int, default=1000, help="scenarios for the re-parsing row (default 1000; it is slow)")
    parser.add_argument("--zen-n", type=int, default=None, help="scenarios for the zen-engine row (default: all N)")
    parser.add_argument("--json", type=Path, default=None, help="also write the results as JSON to this file")
    parser.add_argument("--profile", action="store_true", help="print cProfile top 15 (tottime) of execute, execute+to_grp and execute_many")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the process to one CPU")
    parser.add_argument("--peers", default=None, help="comma-separated row keys to time (default: all); e.g. ipb_batch,plain_decimal,plain_float,columnar")
    parser.add_argument("--all-cards", type=int, default=0, metavar="N", help="also compare execute_many and execute_columns on N scenarios of every bundled card")
    args = parser.parse_args(argv)
    if args.n < 1:
        parser.error("--n must be at least 1")

    cpu = "not pinned" if args.no_pin else pin_one_cpu()
    t0 = time.perf_counter()
    card, compiled = load_buffett()
    scenarios = make_scenarios(card, args.n, args.seed)
    truth = reference(compiled, scenarios[:VERIFY_N])

    wanted = set(args.peers.split(",")) if args.peers else None
    factories: list[tuple[tuple[str, ...], Callable[[], list[Peer]]]] = [
        (("ipb_full", "ipb_full_gates", "ipb_grp", "ipb_batch"), lambda: ipb_peers(compiled)),
        (("ipb_reparse",), lambda: [reparse_peer(card, args.reparse_n)]),
        (("rule_engine",), lambda: [rule_engine_peer(card)]),
        (("zen_engine",), lambda: [zen_peer(card, args.zen_n)]),
        (("plain_decimal", "plain_float"), lambda: plain_peers(card)),
        (("columnar",), lambda: [columnar_peer(card, compiled)]),
    ]
    if wanted is not None:
        known = {k for keys, _ in factories for k in keys}
        if wanted - known:
            parser.error(f"--peers: no row {', '.join(sorted(wanted - known))}; rows: {', '.join(sorted(known))}")
    peers = [p for keys, make in factories if wanted is None or wanted & set(keys) for p in make()
             if wanted is None or p.key in wanted]
    for peer in peers:
        n = args.n if peer.max_n is None else min(args.n, peer.max_n)
        inputs = peer.prepare(scenarios[:n])
        if peer.verdicts is not None:
            checked = inputs[:VERIFY_N] if len(inputs) >= VERIFY_N else peer.prepare(scenarios[:VERIFY_N])
            agree = agreement(peer, checked, truth)
            if agree["final"] < 1 or agree["gate5"] < 1:
                i = agree["first_disagreement"]
                raise SystemExit(
                    f"{peer.name} disagrees with ipb (final {agree['final']:.2%}, gate 5 {agree['gate5']:.2%}); "
                    f"first at scenario {i}: {scenarios[i]}\n  ipb: {truth[i]}\n  peer: {peer.verdicts(checked[i])}"
                )
            peer.result["agreement"] = agree
        if peer.key == "columnar":
            agree = columnar_agreement(compiled, inputs[:VERIFY_N], truth)
            if agree["all_gates"] < 1:
                raise SystemExit(f"execute_columns disagrees with ipb: {agree}")
            peer.result["agreement"] = agree
        peer.result.update(time_peer(peer, inputs))
        if peer.max_n is not None and n < args.n:
            peer.note = (peer.note + "; " if peer.note else "") + f"slow: N={n:,}"

    all_runs = list(execute_many(compiled, scenarios))
    meta = {
        "card": CARD_ID,
        "n": args.n,
        "seed": args.seed,
        "cpu": cpu,
        "outcomes": {
            "final": dict(Counter(r.outcome for r in all_runs).most_common()),
            "triggers": dict(Counter(r.trigger for r in all_runs).most_common()),
            "gates": dict(Counter(v.value for r in all_runs for v in r.verdicts).most_common()),
        },
    }
    report(peers, meta)
    cards_rows = all_cards(args.all_cards, args.seed) if args.all_cards else []
    if cards_rows:
        report_all_cards(cards_rows, args.seed)
    print(f"total wall time {time.perf_counter() - t0:.1f}s")

    profiles = profile(compiled, scenarios[: min(args.n, 5000)]) if args.profile else {}
    for label, text in profiles.items():
        print(f"\n--- cProfile of {label} over {min(args.n, 5000):,} scenarios, top 15 by tottime ---")
        print(text)

    if args.json is not None:
        versions: dict[str, str | None] = {}
        for dist in ("rule-engine", "zen-engine", "ipb"):
            try:
                versions[dist] = metadata.version(dist)
            except metadata.PackageNotFoundError:
                versions[dist] = None
        payload = {
            "version": RESULTS_VERSION,
            **meta,
            "verify_n": VERIFY_N,
            "repeats": REPEATS,
            "python": platform.python_version(),
            "platform": platform.platform(),
            "packages": versions,
            "targets": TARGETS,
            "rows": [{"key": p.key, "name": p.name, "note": p.note, **p.result} for p in peers],
            "all_cards": cards_rows,
            "profiles": profiles,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
