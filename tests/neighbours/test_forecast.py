"""Forecast scoring and rubric aggregation (``ipb.neighbours.forecast``, seed 003 Appendices E.2, F.2).

The interval score is checked by hand and against an independent
implementation, ``scoringrules.interval_score``; every task and aggregate
value is worked by hand in the comments.
"""

from __future__ import annotations

import json
import os
from decimal import Decimal
from functools import lru_cache
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ipb.cli import app
from ipb.errors import ErrorGroup, IpbError, ScoreError
from ipb.neighbours.forecast import (
    DIMENSIONS,
    Criterion,
    ForecastTask,
    Target,
    TaskResult,
    aggregate,
    interval_credit,
    interval_score,
    load_forecast_task,
    load_submission,
    load_task_results,
    point_credit,
    score_forecast,
    score_submission,
    task_score,
)

FIX = Path(__file__).parents[1] / "fixtures" / "issue8" / "forecast"
runner = CliRunner()
D = Decimal


@lru_cache(maxsize=1)
def output_validator() -> jsonschema.Draft202012Validator:
    text = resources.files("ipb.grammar").joinpath("neighbouring_outputs.schema.json").read_text(encoding="utf-8")
    return jsonschema.Draft202012Validator(json.loads(text))


def cli_json(*args: str) -> dict:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    output_validator().validate(payload)
    return payload


# --------------------------------------------------------------------------- interval score

INTERVAL_CASES = [
    # (lower, upper, observed, alpha, expected)
    (10, 20, 15, "0.2", "10"),  # covered: the width only
    (10, 20, 10, "0.2", "10"),  # on the lower end: still covered
    (10, 20, 20, "0.2", "10"),  # on the upper end
    (10, 20, 5, "0.2", "60"),  # 5 below: 10 + (2 / 0.2) * 5
    (10, 20, 21, "0.2", "20"),  # 1 above: 10 + 10 * 1
    (10, 20, 25, "0.5", "30"),  # alpha 0.5: 10 + 4 * 5
    ("0.0", "0.4", "0.1", "0.5", "0.4"),  # scoringrules' own docstring example
    (7, 7, 7, "0.2", "0"),  # a point interval on the value
    ("43", "48", "46.7", "0.2", "5"),  # the MSFT fixture's cloud revenue
    ("31", "33", "30", "0.2", "12"),  # its Intelligent Cloud: 2 + 10 * 1
]


@pytest.mark.parametrize("lower, upper, observed, alpha, expected", INTERVAL_CASES, ids=[str(c) for c in INTERVAL_CASES])
def test_interval_score_by_hand(lower, upper, observed, alpha, expected):
    assert interval_score(lower, upper, observed, alpha) == D(expected)


def test_interval_score_default_alpha_is_02():
    assert interval_score(10, 20, 5) == interval_score(10, 20, 5, "0.2") == 60


@pytest.mark.parametrize("lower, upper, alpha, rule", [(20, 10, "0.2", "interval"), (1, 2, "0", "alpha"),
                                                       (1, 2, "1", "alpha"), (1, 2, "1.5", "alpha")])
def test_interval_score_refuses_bad_intervals(lower, upper, alpha, rule):
    with pytest.raises(ScoreError) as info:
        interval_score(lower, upper, 5, alpha)
    assert info.value.rule == rule


finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(finite, st.floats(min_value=0, max_value=1e6), finite, st.floats(min_value=0.01, max_value=0.99))
def test_interval_score_matches_scoringrules(lower, width, observed, alpha):
    sr = pytest.importorskip("scoringrules")
    upper = lower + width
    assume(lower <= upper)
    ours = float(interval_score(lower, upper, observed, alpha))
    theirs = float(sr.interval_score(observed, lower, upper, alpha, backend="numpy"))
    assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-6)


# --------------------------------------------------------------------------- credit maps


@pytest.mark.parametrize("score, expected", [(0, "15"), (4, "9"), (5, "7.5"), (10, "0"), (24, "0")])
def test_interval_credit_is_linear_to_zero_at_the_scale(score, expected):
    assert interval_credit(score, scale=10, budget=15) == D(expected)


def test_interval_credit_refuses_bad_parameters():
    for kwargs in ({"scale": 0, "budget": 15}, {"scale": -1, "budget": 15}, {"scale": 10, "budget": -1}):
        with pytest.raises(ScoreError):
            interval_credit(4, **kwargs)


POINT_CASES = [
    # (forecast, actual, limit, error kind, expected of a 70-point budget)
    (100, 100, "10%", "relative", "70"),  # exact
    (95, 100, "10%", "relative", "35"),  # 5% off: half
    (105, 100, "10%", "relative", "35"),  # symmetric
    (90, 100, "10%", "relative", "0"),  # exactly at the zero-credit limit
    (80, 100, "10%", "relative", "0"),  # beyond it
    ("31.5", 30, 3, "absolute", "35"),  # 1.5 of 3 units
    (-99, -100, "10%", "relative", "63"),  # a negative actual: |1| / |-100| = 1%
]


@pytest.mark.parametrize("forecast, actual, limit, kind, expected", POINT_CASES, ids=[str(c) for c in POINT_CASES])
def test_point_credit(forecast, actual, limit, kind, expected):
    assert point_credit(forecast, actual, limit=limit, budget=70, error=kind) == D(expected)


def test_point_credit_relative_error_against_zero_is_refused():
    with pytest.raises(ScoreError, match="use error: absolute"):
        point_credit(1, 0, limit="10%", budget=70)


# --------------------------------------------------------------------------- a forecast task, 70 / 15 / 15


def test_msft_fixture_worked_by_hand():
    # Weights 2 : 1 share the point budget 70 as 46.67 / 23.33 and the interval budget 15 as 10 / 5.
    # cloud point: |44.365 - 46.7| / 46.7 = 5% of a 10% limit -> 23.33; interval [43, 48] covers
    # 46.7, IS 5 of scale 20 -> 7.5. Intelligent Cloud point: 1.5 of 3 -> 11.67; interval
    # [31, 33] misses 30, IS 12 > scale 10 -> 0. Analysis 10 + 2.5. Total 55.
    task = load_forecast_task(FIX / "msft_task.yaml")
    doc, data = load_submission(FIX / "msft_submission.yaml")
    result = score_submission(task, doc, data)
    earned = {c.id: float(c.earned) for c in result.criteria}
    assert earned == pytest.approx({
        "cloud_revenue.point": 70 / 3, "cloud_revenue.interval": 7.5,
        "intelligent_cloud.point": 35 / 3, "intelligent_cloud.interval": 0.0,
        "segments_additive": 10.0, "cloud_overlap_explained": 2.5,
    })
    points = {c.id: float(c.points) for c in result.criteria}
    assert points["cloud_revenue.point"] == pytest.approx(140 / 3) and sum(points.values()) == pytest.approx(100)
    assert float(task_score(result)) == pytest.approx(55)
    assert result.criteria[3].detail["interval_score"] == 12 and result.criteria[3].detail["covered"] is False


def simple_task(**alloc: int) -> ForecastTask:
    from ipb.neighbours.forecast import Allocation

    return ForecastTask("T", (Target("rev", D(100), unit="USD bn", period="Q1", zero_credit_limit=D("0.1"),
                                     interval_scale=D(20)),),
                        Allocation(*(D(alloc.get(k, d)) for k, d in (("point", 70), ("interval", 15), ("analysis", 15)))),
                        (Criterion("bridge", "calculation", D(alloc.get("analysis", 15))),))


@pytest.mark.parametrize(
    "forecast, reason",
    [
        ({}, "no point forecast"),
        ({"rev": {"point": 100, "unit": "USD m"}}, "unit 'USD m' does not match the target's 'USD bn'"),
        ({"rev": {"point": 100, "period": "Q2"}}, "period 'Q2' does not match"),
    ],
)
def test_unusable_forecasts_earn_zero_with_a_reason(forecast, reason):
    result = score_forecast(simple_task(), {"forecasts": forecast, "analysis": {"bridge": 15}})
    point = result.criteria[0]
    assert point.earned == 0 and reason in point.detail["reason"]


def test_an_inverted_interval_earns_zero_with_a_reason():
    result = score_forecast(simple_task(), {"forecasts": {"rev": {"point": 100, "lower": 110, "upper": 90}},
                                            "analysis": {"bridge": 0}})
    assert result.criteria[1].earned == 0 and "lower end is above" in result.criteria[1].detail["reason"]


def test_a_declared_allocation_replaces_70_15_15():
    # 50 / 0 / 50: no interval criterion at all.
    result = score_forecast(simple_task(point=50, interval=0, analysis=50),
                            {"forecasts": {"rev": {"point": 95}}, "analysis": {"bridge": 50}})
    assert [c.id for c in result.criteria] == ["rev.point", "bridge"]
    assert task_score(result) == D(75)


@pytest.mark.parametrize(
    "submission, rule",
    [
        ({"forecasts": {"revenue": {"point": 1}}, "analysis": {"bridge": 1}}, "target"),
        ({"analysis": {"brige": 1}}, "criterion"),
        ({"analysis": {"bridge": 16}}, "range"),
        ({"analysis": {}}, "criterion"),
    ],
    ids=["unknown target", "unknown criterion", "grade above points", "missing grade"],
)
def test_bad_submissions(submission, rule):
    with pytest.raises(ScoreError) as info:
        score_forecast(simple_task(), submission)
    assert info.value.rule == rule


def test_missing_grades_are_allowed_when_there_is_no_answer():
    result = score_forecast(simple_task(), {"submission": "omitted", "answer": False})
    assert result.criteria[-1].earned is None and task_score(result, "answer") == 0 == task_score(result, "strict")


def test_submission_errors_point_into_the_file(tmp_path):
    path = tmp_path / "sub.yaml"
    path.write_text("version: 1\nforecasts:\n  cloud_revenu: {point: 1}\n", encoding="utf-8")
    task = load_forecast_task(FIX / "msft_task.yaml")
    doc, data = load_submission(path)
    with pytest.raises(ScoreError) as info:
        score_submission(task, doc, data)
    assert (info.value.line, info.value.column) == (3, 3)
    assert "did you mean 'cloud_revenue'" in str(info.value)
    path.write_text("version: 1\ntask: AWS-O15\n", encoding="utf-8")
    with pytest.raises(IpbError, match="for task 'AWS-O15', not 'MSFT-O58'"):
        score_submission(task, *load_submission(path))


TASK_ERRORS = [
    # (YAML text, rule, fragment, line, column)
    ("version: 1\nid: T\nallocation: {point: 85, interval: 15, analysis: 0}\ntargets:\n"
     "  - {id: r, actual: 1, point: {zero_credit_limit: 1%}}\n",
     "allocation", "target 'r' needs an 'interval' block", 5, 5),
    ("version: 1\nid: T\nallocation: {point: 85, interval: 0, analysis: 15}\ntargets:\n"
     "  - {id: r, actual: 1, point: {zero_credit_limit: 1%}}\nanalysis:\n  - {id: a, dimension: evidence, points: 10}\n",
     "allocation", "the analysis criteria carry 10 points but the analysis allocation is 15", 7, 3),
    ("version: 1\nid: T\nallocation: {point: 100, interval: 0, analysis: 0}\ntargets:\n"
     "  - {id: r, actual: 0, point: {zero_credit_limit: 1%}}\n",
     "relative-zero", "a relative error is undefined", 5, 21),
    ("version: 1\nid: T\nallocation: {point: 100, interval: 0, analysis: 0}\ntargets:\n"
     "  - {id: r, actual: 1, point: {zero_credit_limit: 0%}}\n",
     "range", "zero_credit_limit must be positive", 5, 51),
    ("version: 1\nid: T\nallocation: {point: 100, interval: 0, analysis: 0}\ntargets:\n"
     "  - {id: r, actual: 1, point: {zero_credit_limit: 1%}}\n  - {id: r, actual: 2, point: {zero_credit_limit: 1%}}\n",
     "duplicate-id", "duplicate target id 'r'", 6, 10),
]


@pytest.mark.parametrize("text, rule, fragment, line, column", TASK_ERRORS, ids=[c[2][:40] for c in TASK_ERRORS])
def test_forecast_task_errors(text, rule, fragment, line, column):
    with pytest.raises(IpbError) as info:
        load_forecast_task("task.yaml", text=text)
    error = info.value
    assert (error.rule, error.line, error.column) == (rule, line, column), str(error)
    assert fragment in str(error)


# --------------------------------------------------------------------------- aggregation


def test_aggregate_fixture_worked_by_hand():
    # A (Research & Evidence, accepted): evidence 10/10, calculation 15/30 -> 25/40 = 62.5
    # B (Forecast & Model, accepted): point 35/70, interval 7.5/15, logic 15/15 -> 57.5
    # C (Evaluate & Decide, rejected, answer available): decision 20/20, evidence 0/20 -> 50; strict 0
    # D (Forecast & Model, omitted, no answer): market result 0/100 -> 0 in both modes
    results = load_task_results(FIX / "results.jsonl")
    answer = aggregate(results, "answer")
    assert answer.overall == D("42.5")  # (62.5 + 57.5 + 50 + 0) / 4
    assert answer.categories == {"Evaluate & Decide": 50, "Forecast & Model": D("28.75"), "Research & Evidence": D("62.5")}
    dims = {d: (m.mean, m.tasks) for d, m in answer.dimensions.items()}
    assert dims == {
        "evidence": (50, 2),  # A 100, C 0: only the two tasks that carry it
        "calculation": (50, 1),
        "financial_logic": (100, 1),
        "decision_consistency": (100, 1),
        "uncertainty": (50, 1),
        "result": (25, 2),  # B 50, D 0 (no answer: zero, still counted)
    }
    assert "reconciliation" not in answer.dimensions
    assert (answer.outcome.mean, answer.outcome.tasks) == (25, 2)  # B (35 + 7.5) / 85 = 50, D 0
    assert answer.zeroed == (("D", "no final answer"),)
    strict = aggregate(results, "strict")
    assert strict.overall == D("30")  # (62.5 + 57.5 + 0 + 0) / 4
    assert strict.categories["Evaluate & Decide"] == 0 and strict.dimensions["decision_consistency"].mean == 0
    assert strict.zeroed == (("C", "submission rejected"), ("D", "submission omitted"))


def test_aggregate_refuses_duplicates_and_nothing():
    a = TaskResult("A", (Criterion("a", "evidence", D(1), D(1)),))
    with pytest.raises(ScoreError, match="more than one result"):
        aggregate([a, a])
    with pytest.raises(ScoreError, match="no task results"):
        aggregate([])
    with pytest.raises(ScoreError, match="unknown evaluation mode"):
        aggregate([a], "lenient")


criteria = st.lists(
    st.tuples(st.sampled_from(DIMENSIONS), st.integers(1, 50), st.integers(0, 100), st.booleans()),
    min_size=1, max_size=5,
)
results_strategy = st.lists(
    st.tuples(criteria, st.sampled_from(["accepted", "rejected", "omitted"]), st.booleans(), st.sampled_from(["X", "Y"])),
    min_size=1, max_size=6,
)


def build(raw) -> list[TaskResult]:
    out = []
    for i, (crits, state, answer, cat) in enumerate(raw):
        answer = answer or state == "accepted"
        cs = tuple(Criterion(f"c{j}", dim, D(p), D(p) * e / 100, "point" if o else None)
                   for j, (dim, p, e, o) in enumerate(crits))
        out.append(TaskResult(f"t{i}", cs, state, answer, cat))
    return out


@settings(max_examples=100, deadline=None)
@given(results_strategy)
def test_aggregation_laws(raw):
    results = build(raw)
    answer, strict = aggregate(results, "answer"), aggregate(results, "strict")
    for r in results:
        assert 0 <= task_score(r, "strict") <= task_score(r, "answer") <= 100
    assert 0 <= strict.overall <= answer.overall <= 100
    # equal task weights: the overall score is the plain mean of the task scores
    assert answer.overall == sum((s for _, s in answer.tasks), D(0)) / len(results)
    for dim, mean in answer.dimensions.items():
        assert mean.tasks == sum(1 for r in results if any(c.dimension == dim for c in r.criteria))
        assert 0 <= mean.mean <= 100


TASK_RESULT_ERRORS = [
    ("record 1: 'evidense' is not one of", "schema:enum", 1, 54),
    ("record 2: criterion 'b1' earns 12, outside [0, 10]", "range", 2, 88),
    ("record 2: criterion 'b1' has no 'earned' credit", "earned", 2, 93),
    ("record 2: duplicate criterion id 'b1'", "duplicate-id", 2, 100),
    ("record 3: 'answer: false' contradicts 'submission: accepted'", "submission", 3, 51),
]


def test_task_results_file_errors():
    with pytest.raises(ErrorGroup) as info:
        load_task_results(FIX / "bad_results.jsonl")
    found = [(e.message.split(" (at")[0], e.rule, e.line, e.column) for e in info.value.errors]
    assert len(found) == len(TASK_RESULT_ERRORS)
    for (fragment, rule, line, column), (message, r, l, c) in zip(TASK_RESULT_ERRORS, found):
        assert message.startswith(fragment) and (r, l, c) == (rule, line, column)
    assert "did you mean 'evidence'" in str(info.value.errors[0])


# --------------------------------------------------------------------------- the command line


def test_cli_interval():
    payload = cli_json("forecast", "interval", "--lower", "31", "--upper", "33", "--observed", "30")
    assert (payload["interval_score"], payload["covered"]) == (12, False)
    payload = cli_json("forecast", "interval", "--lower", "43", "--upper", "48", "--observed", "46.7",
                       "--scale", "20", "--budget", "10")
    assert payload["credit"] == 7.5
    result = runner.invoke(app, ["forecast", "interval", "--lower", "5", "--upper", "1", "--observed", "3"])
    assert result.exit_code == 1 and "lower end 5 is above its upper end 1" in result.output


def test_cli_score_then_aggregate_round_trip(tmp_path):
    out = tmp_path / "msft.jsonl"
    result = runner.invoke(app, ["forecast", "score", str(FIX / "msft_task.yaml"), str(FIX / "msft_submission.yaml"),
                                 "-f", "jsonl", "-o", str(out)])
    assert result.exit_code == 0 and result.stdout == ""
    line = out.read_text(encoding="utf-8")
    assert line.count("\n") == 1
    record = json.loads(line)
    output_validator().validate(record)
    assert record["score"] == {"answer_based": 55, "strict": 55}
    payload = cli_json("forecast", "aggregate", str(out), str(FIX / "results.jsonl"))
    assert payload["tasks"] == 5 and payload["answer_based"]["overall"] == pytest.approx((170 + 55) / 5)


def test_cli_output_is_deterministic_and_atomic(tmp_path, monkeypatch):
    out = tmp_path / "agg.json"
    args = ["forecast", "aggregate", str(FIX / "results.jsonl"), "-o", str(out)]
    assert runner.invoke(app, args).exit_code == 0
    first = out.read_bytes()
    assert runner.invoke(app, args).exit_code == 0
    assert out.read_bytes() == first and json.loads(first)["version"] == 1

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    result = runner.invoke(app, args)
    assert result.exit_code != 0
    assert out.read_bytes() == first  # the old output is intact
    assert sorted(p.name for p in tmp_path.iterdir()) == ["agg.json"]  # no temporary file left behind


def test_cli_aggregate_errors_name_records():
    result = runner.invoke(app, ["forecast", "aggregate", str(FIX / "bad_results.jsonl")])
    assert result.exit_code == 1
    assert "bad_results.jsonl:2:88: load error: record 2: criterion 'b1' earns 12" in result.output


def test_docstring_examples_run():
    import doctest

    import ipb.neighbours.forecast as module

    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0


def test_the_documented_task_and_submission_score_55():
    import re

    doc = (Path(__file__).parents[2] / "docs" / "neighbouring-benchmarks.md").read_text(encoding="utf-8")
    section = doc.split("### A forecast task", 1)[1]
    task_text, submission_text = re.findall(r"```yaml\n(.*?)```", section, re.S)[:2]
    task = load_forecast_task("task.yaml", text=task_text)
    result = score_submission(task, *load_submission("submission.yaml", text=submission_text))
    assert float(task_score(result)) == pytest.approx(55)
