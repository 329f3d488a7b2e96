"""One semantics: the columnar executor agrees with the scalar engine (issue 21).

The property test draws random scenarios of every bundled card and of every
test card (unknown facts included, values on the cards' perturbation grids, at
their edges and between), runs them through :func:`ipb.engine.execute.execute`
one at a time and through :func:`ipb.engine.columnar.execute_columns` as one
table, and requires the same gate verdicts, final verdict, trigger and regime on
every row. The worked examples are hand-computed (Graham's net-net boundary,
paper §7.3 chain termination).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipb.engine.card import Card, InputSpec, load_card, load_card_text
from ipb.engine.columnar import BadColumn, Encoded, execute_columns
from ipb.engine.execute import execute
from ipb.engine.graph import CompiledCard, compile_card
from ipb.engine.registry import bundled_card_paths

GOOD = Path(__file__).parent / "cards" / "good"
CARDS = sorted(bundled_card_paths()) + sorted(GOOD.glob("*.yaml"))


@lru_cache(maxsize=None)
def compiled(path: Path) -> CompiledCard:
    return compile_card(load_card(path))


def _number(spec: InputSpec) -> st.SearchStrategy[Decimal]:
    if spec.range is not None:
        lo, hi = spec.range
        span = hi - lo
        places = 0 if max(abs(lo), abs(hi)) >= 10 ** 11 else 3
        edges = st.sampled_from([lo, hi, Decimal(0), (lo + hi) / 2])
        between = st.decimals(min_value=lo - span / 2, max_value=hi + span / 2, places=places,
                              allow_nan=False, allow_infinity=False)
        if spec.step is not None:
            count = int(span / spec.step)
            grid = st.integers(0, count).map(lambda k: lo + spec.step * k)  # type: ignore[operator]
            return st.one_of(grid, grid, edges, between)
        return st.one_of(edges, between)
    return st.one_of(st.integers(-3, 30).map(Decimal),
                     st.decimals(min_value=-1000, max_value=1000, places=3, allow_nan=False, allow_infinity=False))


def _value(spec: InputSpec) -> st.SearchStrategy[Any]:
    if spec.values is not None:
        return st.sampled_from(spec.values)
    kind = spec.expr_type.kind
    if kind == "bool":
        return st.booleans()
    if kind == "date":
        return st.dates(dt.date(1990, 1, 1), dt.date(2030, 12, 31))
    return _number(spec)


def scenarios(card: Card) -> st.SearchStrategy[list[dict[str, Any]]]:
    """Lists of fact dicts; each fact is left out (unknown) about one time in five."""
    fields = {name: st.one_of(st.none(), _value(spec), _value(spec), _value(spec), _value(spec))
              for name, spec in card.inputs.items()}
    row = st.fixed_dictionaries(fields).map(lambda d: {k: v for k, v in d.items() if v is not None})
    return st.lists(row, min_size=1, max_size=25)


def to_columns(card: Card, rows: list[dict[str, Any]], encode: bool) -> dict[str, Any]:
    """Fact dicts -> one column per input: floats (NaN unknown), strings or codes, dates, bools."""
    cols: dict[str, Any] = {}
    for name, spec in card.inputs.items():
        values = [r.get(name) for r in rows]
        kind = spec.expr_type.kind
        if kind == "number":
            cols[name] = np.array([np.nan if v is None else float(v) for v in values])
        elif kind == "date":
            cols[name] = np.array([np.datetime64("NaT") if v is None else np.datetime64(v, "D") for v in values],
                                  dtype="datetime64[D]")
        elif spec.values is not None and encode:
            words = sorted(spec.values, reverse=True)
            cols[name] = Encoded(np.array([-1 if v is None else words.index(v) for v in values]), words)
        else:
            cols[name] = np.array(values, dtype=object)
    return cols


@pytest.mark.parametrize("path", CARDS, ids=lambda p: p.stem)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_columnar_agrees_with_scalar_engine(path: Path, data: st.DataObject) -> None:
    card = compiled(path)
    rows = data.draw(scenarios(card.card), label="scenarios")
    encode = data.draw(st.booleans(), label="encoded categories")
    chunk = data.draw(st.sampled_from([1, 7, 32768]), label="chunk")
    result = execute_columns(card, to_columns(card.card, rows, encode), chunk=chunk)
    assert result.n == len(rows)
    for i, facts in enumerate(rows):
        trace = execute(card, facts)
        want = (trace.outcome, trace.trigger, tuple(trace.verdicts()))
        # float64 columns: a sum whose terms cancel ($20M + $0.001 - $20M) keeps only what the largest term's ulp
        # allows, so the absolute tolerance grows with the row's largest figure (2.2e-16 of it, a margin of 45 ulps)
        scale = max((abs(float(v)) for v in facts.values() if isinstance(v, (int, float, Decimal))
                     and not isinstance(v, bool)), default=0.0)
        assert result.row(i) == want, f"row {i}: {facts}"
        if result.regime is not None:
            got = None if result.regime[i] < 0 else result.regimes[result.regime[i]]
            assert got == trace.regime
        for gate in trace.gates:
            for name, value in gate.computed.items():
                if name not in result.computed:
                    continue
                values, ok = result.computed[name]
                assert bool(ok[i]) == (value is not None), (name, facts)
                if value is not None:
                    assert values[i] == pytest.approx(float(value), rel=1e-9, abs=1e-9 + 1e-14 * scale), (name, facts)


# --------------------------------------------------------------------------- worked examples

NET_NET = """
id: net_net_boundary
version: 1
investor: Benjamin Graham
name: Net-net boundary
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: One test, then a second that a failed first test must never reach.
vintage: {start: 1934, end: 1976}
sources: [{tier: 1, document: Security Analysis, year: 1934}]
inputs:
  price: {type: money}
  ncav: {type: money}
  sector: {type: category, values: [industrial, financial]}
gates:
  - id: cheap
    name: Price at most two thirds of net current asset value
    proceed: price <= 2/3 * ncav
    kill_criterion: not_a_net_net
    required_elements: [price]
    source: {tier: 1, document: Security Analysis, year: 1934}
  - id: not_financial
    name: Not a financial
    reject: sector == "financial"
    kill_criterion: financial
    required_elements: [sector]
    source: {tier: 1, document: Security Analysis, year: 1934}
"""


def test_two_thirds_boundary_is_exact_at_200_and_300() -> None:
    card = compile_card(load_card_text(NET_NET))
    cols = {
        "price": np.array([200.0, 200.01, 199.99, 200.0, np.nan, 2.0e11, 2.0e11 + 1]),
        "ncav": np.array([300.0, 300.0, 300.0, np.nan, 300.0, 3.0e11, 3.0e11]),
        "sector": np.array(["industrial"] * 7, dtype=object),
    }
    result = execute_columns(card, cols)
    assert [result.row(i)[2][0] for i in range(7)] == [
        "PROCEED", "REJECT", "PROCEED", "INCONCLUSIVE", "INCONCLUSIVE", "PROCEED", "REJECT"]
    # A REJECT at gate 1 ends the chain: gate 2 is N/A (paper §7.3).
    assert result.row(1) == ("DECLINE", "gate_1_reject", ("REJECT", "N/A"))
    assert result.row(0) == ("INVEST", "all_gates_cleared", ("PROCEED", "PROCEED"))
    # Only the two exact ties needed the scalar engine.
    assert result.fallback == 2


def test_float_verdicts_without_the_exact_pass_can_differ_at_the_boundary() -> None:
    """Why the exact pass exists: 2/3 * 300 is 200.00000000000003 in floats, or 199.99999999999997."""
    card = compile_card(load_card_text(NET_NET))
    cols = {"price": np.array([200.0]), "ncav": np.array([300.0])}
    assert execute_columns(card, cols).row(0)[2][0] == "PROCEED"
    assert execute_columns(card, cols, exact=False).fallback == 0


@pytest.mark.parametrize(
    "cols, message",
    [
        ({"price": np.array([1.0, 2.0]), "ncav": np.array([1.0])}, "column for input 'ncav' has 1 rows, expected 2"),
        ({"price": np.array([1.0, np.inf])}, "input 'price', row 1: inf is not a finite number"),
        ({"price": np.array([1.0, "abc"], dtype=object)}, "input 'price', row 1: 'abc' is not a number"),
        ({"sector": np.array(["industrial", "finacial"], dtype=object)}, "input 'sector', row 1: 'finacial' is not a value of sector"),
    ],
    ids=["length", "infinite", "not-a-number", "category"],
)
def test_bad_columns_are_located(cols: dict[str, Any], message: str) -> None:
    card = compile_card(load_card_text(NET_NET))
    with pytest.raises(BadColumn) as info:
        execute_columns(card, cols)
    assert message in info.value.message


def test_bad_category_suggests_and_counts_rows_across_batches() -> None:
    card = compile_card(load_card_text(NET_NET))
    sector = np.array(["industrial"] * 10 + ["finacial"], dtype=object)
    with pytest.raises(BadColumn) as info:
        execute_columns(card, {"sector": sector}, chunk=4)
    assert info.value.row == 10 and "row 10:" in info.value.message
    assert info.value.suggestion == "financial"


def test_missing_column_is_unknown_on_every_row() -> None:
    card = compile_card(load_card_text(NET_NET))
    result = execute_columns(card, {"price": np.array([1.0, 2.0])})
    assert list(result.rows()) == [("INCONCLUSIVE", "no_gate_decided", ("INCONCLUSIVE", "INCONCLUSIVE"))] * 2


def test_progress_reports_every_row_once_and_batches_do_not_change_the_result() -> None:
    card = compile_card(load_card_text(NET_NET))
    price = np.arange(1000, dtype=np.float64)
    cols = {"price": price, "ncav": np.full(1000, 300.0), "sector": np.array(["industrial", "financial"] * 500, dtype=object)}
    seen: list[int] = []
    small = execute_columns(card, cols, chunk=64, progress=seen.append)
    assert sum(seen) == 1000 and len(seen) == 16
    whole = execute_columns(card, cols)
    assert list(small.rows()) == list(whole.rows())
    assert small.row(201) == ("DECLINE", "gate_1_reject", ("REJECT", "N/A"))
    assert small.row(1) == ("DECLINE", "gate_2_reject", ("PROCEED", "REJECT"))


def test_a_cancelling_sum_agrees_within_the_ulp_of_its_largest_term() -> None:
    """Hypothesis found (stop 29): $0.001 + $20M - $0 - $20M of owner earnings is 0.000999998 in float64 columns
    against the scalar engine's exact 0.001; the verdicts agree, and the gap is under 1e-14 of the $20M terms."""
    card = compiled(next(p for p in CARDS if p.stem == "buffett_owner_earnings_dcf"))
    facts = {"net_income": Decimal("0.001"), "depreciation_amortization": Decimal("20000000"),
             "maintenance_capex": Decimal("0"), "working_capital_needs": Decimal("20000000")}
    result = execute_columns(card, to_columns(card.card, [facts], False))
    trace = execute(card, facts)
    assert result.row(0) == (trace.outcome, trace.trigger, tuple(trace.verdicts()))
    values, ok = result.computed["owner_earnings_value"]
    assert bool(ok[0]) and values[0] != 0.001
    assert abs(values[0] - 0.001) < 1e-14 * 20_000_000
