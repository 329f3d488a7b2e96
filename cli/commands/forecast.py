"""``ipb forecast``: interval scores, forecast-task credit and rubric aggregation (seed 003).

    ipb forecast interval --lower L --upper U --observed Y [--alpha 0.2] [--scale S --budget B]
    ipb forecast score TASK SUBMISSION [--format json|jsonl] [-o OUT]
    ipb forecast aggregate RESULTS ... [-o OUT]
"""

from __future__ import annotations

from decimal import Decimal
from enum import Enum
from pathlib import Path
from typing import Any, Optional

import typer

from ipb.engine.numbers import NumberError, read_number
from ipb._files import refuse_overwriting
from ipb.cli._app import app
from ipb.cli.commands.records import OUTPUT, OUTPUT_VERSION, emit_json, fail
from ipb.errors import IpbError, ScoreError
from ipb.neighbours.forecast import (
    ALPHA,
    TaskResult,
    aggregate,
    interval_credit,
    interval_score,
    load_forecast_task,
    load_submission,
    load_task_results,
    score_submission,
)

forecast_app = typer.Typer(no_args_is_help=True, help="Forecast scoring (Investor's Last Exam): interval score, task credit, aggregation.")
app.add_typer(forecast_app, name="forecast")


class ScoreFormat(str, Enum):
    json = "json"
    jsonl = "jsonl"


def _option_number(option: str, text: str) -> Any:
    """An option's number, read strictly by the project's one number reader, as a typed value (``1,5`` is refused
    rather than guessed; ``1e999999`` is refused)."""
    try:
        return str(read_number(text, strict=True).value)
    except NumberError as exc:
        raise ScoreError(f"{option}: {exc.message}", rule="number", name=option) from None


@forecast_app.command("interval")
def interval(
    lower: str = typer.Option(..., "--lower", help="Lower end of the central interval."),
    upper: str = typer.Option(..., "--upper", help="Upper end."),
    observed: str = typer.Option(..., "--observed", help="The realized value."),
    alpha: str = typer.Option(str(ALPHA), "--alpha", help="Miss probability (0.2: central 80%)."),
    scale: Optional[str] = typer.Option(None, "--scale", help="Interval score at which credit reaches zero."),
    budget: Optional[str] = typer.Option(None, "--budget", help="Points allocated to the interval."),
) -> None:
    """The interval score of one interval, and its credit given --scale and --budget."""
    try:
        lower, upper, observed, alpha = (_option_number(name, text) for name, text in
                                         (("--lower", lower), ("--upper", upper), ("--observed", observed),
                                          ("--alpha", alpha)))
        if scale is not None:
            scale = _option_number("--scale", scale)
        if budget is not None:
            budget = _option_number("--budget", budget)
        score = interval_score(lower, upper, observed, alpha)
        payload: dict[str, Any] = {
            "version": OUTPUT_VERSION, "kind": "forecast.interval",
            "lower": Decimal(lower), "upper": Decimal(upper), "observed": Decimal(observed), "alpha": Decimal(alpha),
            "interval_score": score, "covered": Decimal(lower) <= Decimal(observed) <= Decimal(upper),
        }
        if (scale is None) != (budget is None):
            raise ScoreError("--scale and --budget go together", rule="usage")
        if scale is not None and budget is not None:
            payload.update(scale=Decimal(scale), budget=Decimal(budget),
                           credit=interval_credit(score, scale=scale, budget=budget))
    except IpbError as exc:
        raise fail(exc) from None
    emit_json(payload, None)


@forecast_app.command("score")
def score(
    task: Path = typer.Argument(..., help="The forecast task (YAML or JSON): targets, realized values, allocation."),
    submission: Path = typer.Argument(..., help="The answer: forecasts, intervals, analysis grades, submission status."),
    format: ScoreFormat = typer.Option(ScoreFormat.json, "--format", "-f", help="jsonl: one line, to append to a results file."),
    output: Optional[Path] = OUTPUT,
) -> None:
    """Grade one submission: point, interval and analysis criteria, and the task score under both modes."""
    try:
        refuse_overwriting({"--output": output}, {"task": task, "submission": submission}, command="forecast score")
        spec = load_forecast_task(task)
        doc, data = load_submission(submission)
        result = score_submission(spec, doc, data)
    except IpbError as exc:
        raise fail(exc) from None
    emit_json(result.to_dict(), output, compact=format is ScoreFormat.jsonl)


@forecast_app.command("aggregate")
def aggregate_command(
    results: list[Path] = typer.Argument(..., help="Task results: .jsonl (one task a line, as 'forecast score' writes) or YAML/JSON."),
    output: Optional[Path] = OUTPUT,
) -> None:
    """Overall, category, dimension and outcome means, answer-based and strict."""
    try:
        tasks: list[TaskResult] = []
        for path in results:
            tasks.extend(load_task_results(path))
        answer, strict = aggregate(tasks, "answer"), aggregate(tasks, "strict")
    except IpbError as exc:
        raise fail(exc) from None
    emit_json({
        "version": OUTPUT_VERSION,
        "kind": "forecast.aggregate",
        "tasks": len(tasks),
        "answer_based": answer.to_dict(),
        "strict": strict.to_dict(),
    }, output)
