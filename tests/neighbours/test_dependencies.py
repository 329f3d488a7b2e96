"""Financial dependency graphs executed with the engine (``ipb.neighbours.dependencies``, seed 003 §2.3).

The fixture is the American Electric Power case (§4.1, Appendix H.4):
operating cash flow rose from USD 2,671M to 3,421M while investing cash use
rose from 5,347M to 6,602M, so the pre-financing shortfall widened from
2,676M to 3,181M, by 505M.
"""

from __future__ import annotations

import json
from decimal import Decimal
from functools import lru_cache
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ipb.cli import app
from ipb.neighbours.dependencies import load_facts, load_graph, load_graph_text, run_graph
from ipb.neighbours.evidence import EvidenceStore
from ipb.errors import ErrorGroup, IpbError

FIX = Path(__file__).parents[1] / "fixtures" / "issue8" / "depgraph"
GRAPH = FIX / "aep_funding.yaml"
ANSWER = FIX / "aep_answer.yaml"
runner = CliRunner()
M = Decimal(10) ** 6


@lru_cache(maxsize=1)
def output_validator() -> jsonschema.Draft202012Validator:
    text = resources.files("ipb.grammar").joinpath("neighbouring_outputs.schema.json").read_text(encoding="utf-8")
    return jsonschema.Draft202012Validator(json.loads(text))


@pytest.fixture(scope="module")
def graph():
    return load_graph(GRAPH)


@pytest.fixture(scope="module")
def answer(graph):
    return load_facts(ANSWER, graph)


def statuses(trace) -> dict[str, str]:
    return {n.id: n.status for n in trace.nodes}


def test_a_complete_answer_supports_every_criterion(graph, answer):
    trace = run_graph(graph, answer)
    assert set(statuses(trace).values()) == {"SUPPORTED"}
    computed = trace.node("shortfalls").computed
    assert (computed["shortfall_2025"], computed["shortfall_2026"], computed["widening"]) == (2676 * M, 3181 * M, 505 * M)
    totals = trace.to_dict()["criteria"]
    assert (totals["earned"], totals["available"], totals["supported"]) == (15, 15, 2)


def test_a_missing_fact_makes_its_node_missing_and_dependants_unsupported(graph, answer):
    trace = run_graph(graph, {**answer, "drawable_credit": None})
    assert statuses(trace) == {"cash_flows": "SUPPORTED", "shortfalls": "SUPPORTED", "covenant": "MISSING",
                               "shortfall_widened": "SUPPORTED", "funding_conclusion": "UNSUPPORTED"}
    covenant, conclusion = trace.node("covenant"), trace.node("funding_conclusion")
    assert covenant.truth is None and covenant.missing == ("drawable_credit",)
    assert conclusion.broken == (("covenant", "MISSING"),) and conclusion.root_causes == ("covenant",)
    assert conclusion.reason == "dependency 'covenant' is MISSING: unknown: drawable_credit"
    assert (conclusion.earned, trace.node("shortfall_widened").earned) == (0, 5)


def test_a_failed_assumption_names_itself_in_the_trace(graph, answer):
    trace = run_graph(graph, {**answer, "covenant_headroom": "0%"})
    assert trace.node("covenant").status == "FAILED" and trace.node("covenant").truth is False
    conclusion = trace.node("funding_conclusion")
    assert conclusion.status == "UNSUPPORTED" and conclusion.truth is False
    assert conclusion.reason == "dependency 'covenant' is FAILED: check 'covenant_headroom > 0%' is false"


def test_a_failure_propagates_through_a_chain_to_its_root_cause(graph, answer):
    trace = run_graph(graph, {**answer, "ocf_2026": None})
    assert statuses(trace) == {"cash_flows": "MISSING", "shortfalls": "UNSUPPORTED", "covenant": "SUPPORTED",
                               "shortfall_widened": "UNSUPPORTED", "funding_conclusion": "UNSUPPORTED"}
    widened = trace.node("shortfall_widened")
    assert widened.broken == (("shortfalls", "UNSUPPORTED"),) and widened.root_causes == ("cash_flows",)
    assert widened.reason == "dependency 'shortfalls' is UNSUPPORTED: root cause 'cash_flows'"
    assert trace.node("shortfalls").computed["shortfall_2026"] is None


def test_a_criterion_can_fail_on_its_own(graph, answer):
    trace = run_graph(graph, {**answer, "drawable_credit": "$3B"})  # below the 3,181M shortfall
    conclusion = trace.node("funding_conclusion")
    assert conclusion.status == "FAILED" and conclusion.broken == ()
    assert conclusion.values == {"drawable_credit": 3000 * M, "shortfall_2026": 3181 * M}


def test_checks_are_three_valued():
    graph = load_graph_text(
        "version: 1\nid: k\ninputs: {a: {type: number}, b: {type: number}}\nnodes:\n"
        "  - {id: either, kind: criterion, points: 1, check: a > 1 or b > 1}\n"
        "  - {id: both, kind: criterion, points: 1, check: a > 1 and b > 1}\n"
    )
    trace = run_graph(graph, {"a": 2})
    assert (trace.node("either").status, trace.node("both").status) == ("SUPPORTED", "MISSING")
    trace = run_graph(graph, {"a": 0})
    assert (trace.node("either").status, trace.node("both").status) == ("MISSING", "FAILED")


def test_sources_must_precede_the_cutoff(graph, answer):
    store = EvidenceStore()
    store.add("aep-10k-2026", "v1", "2027-02-26T21:00:00Z")
    trace = run_graph(graph, answer, evidence=store, cutoff="2027-01-31")
    cash = trace.node("cash_flows")
    assert cash.status == "FAILED"
    assert cash.reason == "source 'aep-10k-2026' version 'v1' is not available before the cutoff"
    assert {n.id for n in trace.nodes if n.status == "UNSUPPORTED"} == {"shortfalls", "shortfall_widened", "funding_conclusion"}
    assert set(statuses(run_graph(graph, answer, evidence=store, cutoff=graph.as_of)).values()) == {"SUPPORTED"}
    empty = EvidenceStore()
    assert "has no version" in run_graph(
        load_graph_text(GRAPH.read_text(encoding="utf-8").replace("version: v1, ", ""), "g.yaml"),
        answer, evidence=empty, cutoff="2027-03-31").node("cash_flows").reason


GRAPH_ERRORS = [
    # (file, rule, message fragment, line, column)
    ("bad_graph.yaml", "fact", "node 'a' lists unknown fact 'prise'; facts are declared in 'inputs' (did you mean 'price'?)", 9, 13),
    ("bad_graph.yaml", "dependency", "node 'c' depends on unknown node 'aa' (did you mean 'a'?)", 17, 18),
    ("bad_graph.yaml", "dependency", "'value' is computed by node 'b', which node 'c' does not depend on; add 'b' to its depends_on", 18, 12),
    ("bad_graph.yaml", "points", "only criteria carry points ('d' is assumption)", 21, 5),
    ("cycle_graph.yaml", "cycle", "dependency cycle: a -> b -> c -> a", 4, 41),
]


def graph_errors(name: str) -> list[IpbError]:
    with pytest.raises(IpbError) as info:
        load_graph(FIX / name)
    error = info.value
    return list(error.errors) if isinstance(error, ErrorGroup) else [error]


@pytest.mark.parametrize("name, rule, fragment, line, column", GRAPH_ERRORS, ids=[c[2][:40] for c in GRAPH_ERRORS])
def test_graph_errors(name, rule, fragment, line, column):
    found = [e for e in graph_errors(name) if e.rule == rule and fragment in str(e)]
    assert found, [str(e) for e in graph_errors(name)]
    assert (found[0].line, found[0].column) == (line, column)


INLINE_GRAPH_ERRORS = [
    ("nodes:\n  - {id: c, kind: criterion}\n", "points", "criterion 'c' needs 'points'", 5, 5),
    ("inputs: {p: {type: money}}\nnodes:\n  - {id: c, kind: criterion, points: 1, check: p}\n",
     "type", "this expression must give a bool", 6, 48),
    ("inputs: {p: {type: money}}\nnodes:\n  - {id: c, kind: criterion, points: 1, check: p > 5%}\n",
     "unit", "cannot compare money with ratio", 6, 48),
    ("nodes:\n  - {id: a, kind: evidence}\n  - {id: a, kind: criterion, points: 1}\n",
     "duplicate-node", "duplicate node id 'a' (node 1 has it too)", 6, 10),
    ("nodes:\n  - {id: a, kind: evidense}\n", "schema:enum", "(did you mean 'evidence'?)", 5, 19),
    ("inputs: {p: {type: money}}\nfacts: {p: 5%}\nnodes:\n  - {id: a, kind: evidence, facts: [p]}\n",
     "fact-unit", "p is a money, but '5%' is written as ratio", 5, 12),
]


@pytest.mark.parametrize("body, rule, fragment, line, column", INLINE_GRAPH_ERRORS, ids=[c[1] for c in INLINE_GRAPH_ERRORS])
def test_inline_graph_errors(body, rule, fragment, line, column):
    with pytest.raises(IpbError) as info:
        load_graph_text("version: 1\nid: g\n# a comment line\n" + body, "g.yaml")
    error = info.value
    assert (error.rule, error.line, error.column) == (rule, line, column), str(error)
    assert fragment in str(error)


def test_facts_file_errors_point_at_the_fact(graph, tmp_path):
    path = tmp_path / "facts.yaml"
    path.write_text("facts:\n  ocf_2025: 95%\n  ocf_2062: $1B\n", encoding="utf-8")
    with pytest.raises(ErrorGroup) as info:
        load_facts(path, graph)
    found = [(e.rule, e.line, e.column) for e in info.value.errors]
    assert found == [("fact-unit", 2, 13), ("fact-name", 3, 3)]
    assert "did you mean 'ocf_2025'" in str(info.value.errors[1])


# --------------------------------------------------------------------------- laws on random graphs

node_spec = st.tuples(st.sets(st.integers(0, 7), max_size=3), st.sampled_from(["pos", "neg", "missing"]))


@settings(max_examples=40, deadline=None)
@given(st.lists(node_spec, min_size=1, max_size=8))
def test_status_laws_on_random_graphs(specs):
    lines = ["version: 1", "id: random", "inputs:"]
    lines += [f"  x{i}: {{type: number}}" for i in range(len(specs))]
    lines.append("nodes:")
    facts: dict[str, int] = {}
    for i, (deps, value) in enumerate(specs):
        earlier = sorted(f"n{d}" for d in deps if d < i)
        lines.append(f"  - {{id: n{i}, kind: criterion, points: 1, depends_on: [{', '.join(earlier)}], check: x{i} > 0}}")
        if value != "missing":
            facts[f"x{i}"] = 1 if value == "pos" else -1
    graph = load_graph_text("\n".join(lines) + "\n", "random.yaml")
    trace = run_graph(graph, facts)
    result = {n.id: n for n in trace.nodes}
    for i, (deps, value) in enumerate(specs):
        n = result[f"n{i}"]
        parents = [result[d] for d in graph.nodes[n.id].depends_on]
        if any(p.status != "SUPPORTED" for p in parents):
            assert n.status == "UNSUPPORTED" and n.broken and n.root_causes
            for cause in n.root_causes:
                assert result[cause].status in ("FAILED", "MISSING")
        else:
            assert n.status == {"pos": "SUPPORTED", "neg": "FAILED", "missing": "MISSING"}[value]
        assert n.earned == (1 if n.status == "SUPPORTED" else 0)


# --------------------------------------------------------------------------- the command line


def test_cli_run_with_facts_and_set():
    result = runner.invoke(app, ["depgraph", "run", str(GRAPH), str(ANSWER), "--set", "drawable_credit=unknown"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    output_validator().validate(payload)
    by_id = {n["id"]: n for n in payload["nodes"]}
    assert by_id["funding_conclusion"]["broken"] == [{"id": "covenant", "status": "MISSING"}]
    assert by_id["shortfalls"]["computed"]["widening"] == 505000000
    assert payload["criteria"] == {"supported": 1, "total": 2, "earned": 5, "available": 15}


def test_cli_run_with_evidence_store(tmp_path):
    db = tmp_path / "ev.db"
    with EvidenceStore(db) as store:
        store.add("aep-10k-2026", "v1", "2027-02-26")
    result = runner.invoke(app, ["depgraph", "run", str(GRAPH), str(ANSWER), "--evidence", str(db), "--cutoff", "2027-02-26"])
    payload = json.loads(result.stdout)
    output_validator().validate(payload)
    assert payload["cutoff"] == "2027-02-26" and payload["nodes"][0]["status"] == "FAILED"
    result = runner.invoke(app, ["depgraph", "run", str(GRAPH), str(ANSWER), "--set", "ocf_2025=high"])
    assert result.exit_code == 1 and "ocf_2025: 'high' is not a number" in result.output


def test_cli_check_reports_every_error():
    result = runner.invoke(app, ["depgraph", "check", str(GRAPH), str(FIX / "bad_graph.yaml"), str(FIX / "cycle_graph.yaml")])
    assert result.exit_code == 1
    payload = json.loads(result.stdout)
    output_validator().validate(payload)
    assert [g["id"] for g in payload["graphs"]] == ["aep_funding_2026"]
    assert len(payload["errors"]) == 5
    assert "bad_graph.yaml:17:18: load error: node 'c' depends on unknown node 'aa'" in result.stderr


def test_docstring_examples_run():
    import doctest

    import ipb.neighbours.dependencies as module

    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0


def test_the_documented_graph_runs_as_documented():
    import re

    doc = (Path(__file__).parents[2] / "docs" / "neighbouring-benchmarks.md").read_text(encoding="utf-8")
    section = doc.split("## Dependency graphs", 1)[1]
    graph = load_graph_text(re.search(r"```yaml\n(.*?)```", section, re.S).group(1), "docs.yaml")
    trace = run_graph(graph, load_facts(ANSWER, graph) | {"drawable_credit": None})
    assert trace.to_dict()["criteria"] == {"supported": 1, "total": 2, "earned": 5, "available": 15}
