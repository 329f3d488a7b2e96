"""Forecast scoring and rubric aggregation of Investor's Last Exam (seed 003).

Interval score (Appendix F.2)
-----------------------------
A central :math:`(1-\\alpha)` interval :math:`[l, u]` (central 80%: the 10th
and 90th percentiles, :math:`\\alpha = 0.2`) is scored against the realized
value :math:`y` with the interval score of Gneiting & Raftery (2007)::

    IS_alpha(l, u; y) = (u - l) + (2/alpha) (l - y) 1{y < l} + (2/alpha) (y - u) 1{y > u}

Lower is better: it rewards coverage and penalises width. The seed maps it
to task credit "using a scale and interval budget"; the map used here is
linear, reaching zero at ``scale``::

    interval credit = budget * max(0, 1 - IS / scale)

Point accuracy
--------------
A point forecast earns its budget less a linear share of its error, zero at
the target's *zero-credit limit* (Appendix G.2: "every forecast error
exceeded its zero-credit limit")::

    point credit = budget * max(0, 1 - error / limit)

with ``error = |forecast - actual|`` (absolute, in the target's unit) or
``|forecast - actual| / |actual|`` (relative, the default).

Allocation
----------
A forecast task allocates its 100 points among point accuracy, interval
quality and supporting analysis (Microsoft and AWS: 70 / 15 / 15; other
tasks declare their own). The point and interval budgets are shared among
the task's targets by weight; the analysis points are rubric criteria graded
by the judge.

Aggregation (Appendix E.2)
--------------------------
* a task's score is its earned criterion credit over its available credit,
  times 100; the overall score is the mean over tasks (equal task weights);
* a category score averages the complete task scores in that category;
* a dimension mean averages, over only the tasks that have criteria of that
  dimension, the task's credit within the dimension (earned over available in
  the dimension), computed apart from the overall score;
* the forecast-outcome mean (Appendix G.1) pools each task's outcome criteria
  (point, interval, probability, market) before averaging over the tasks that
  have any;
* answer-based evaluation scores the final available answer and gives zero
  when none is available; strict evaluation requires an accepted submission,
  an omitted or rejected one scoring zero. A zeroed task still counts in
  every mean it applies to.

>>> interval_score(44, 48, 46.7)
Decimal('4')
>>> interval_score(44, 48, 50)  # 2 above the upper bound: 4 + (2 / 0.2) * 2
Decimal('24')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Mapping, Sequence

from ipb.engine._json import AnyDoc, Item, load_document, load_items
from ipb.errors import ErrorGroup, IpbError, ScoreError, did_you_mean

__all__ = [
    "ALPHA",
    "DIMENSIONS",
    "OUTCOME_KINDS",
    "SUBMISSION_STATES",
    "interval_score",
    "interval_credit",
    "point_error",
    "point_credit",
    "Allocation",
    "Target",
    "ForecastTask",
    "Criterion",
    "TaskResult",
    "DimensionMean",
    "Aggregate",
    "score_forecast",
    "score_submission",
    "task_score",
    "aggregate",
    "load_forecast_task",
    "load_submission",
    "load_task_results",
]

#: The seed's interval level: central 80% intervals, alpha = 0.2.
ALPHA = Decimal("0.2")

#: Rubric dimensions (Appendix E.1, with Uncertainty and Result from E.2).
DIMENSIONS = ("evidence", "calculation", "reconciliation", "financial_logic", "decision_consistency", "uncertainty", "result")

#: The forecast-outcome criteria pooled by the outcome mean (Appendix G.1).
OUTCOME_KINDS = ("point", "interval", "probability", "market")

#: How a task's answer was submitted (Appendix J.3: up to three attempts).
SUBMISSION_STATES = ("accepted", "rejected", "omitted")

HUNDRED = Decimal(100)
ZERO = Decimal(0)
Number = Decimal | int | float | str


def _dec(value: Number, what: str) -> Decimal:
    if isinstance(value, bool):
        raise ScoreError(f"{what} must be a number, not {value!r}", rule="number")
    try:
        number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    except (InvalidOperation, TypeError):
        raise ScoreError(f"{what} must be a number, not {value!r}", rule="number") from None
    if not number.is_finite():
        raise ScoreError(f"{what} must be finite, not {value!r}", rule="number")
    return number


def _share(value: Number, what: str) -> Decimal:
    """A number, or a percentage written ``"10%"``."""
    if isinstance(value, str) and value.strip().endswith("%"):
        return _dec(value.strip()[:-1], what) / HUNDRED
    return _dec(value, what)


# =========================================================================== scores


def interval_score(lower: Number, upper: Number, observed: Number, alpha: Number = ALPHA) -> Decimal:
    """The interval score of the central ``(1 - alpha)`` interval ``[lower, upper]``.

    Parameters
    ----------
    lower, upper:
        The interval's ends (the ``alpha/2`` and ``1 - alpha/2`` quantiles),
        in the target's unit.
    observed:
        The realized value, same unit.
    alpha:
        Miss probability; the seed's 0.2 by default.

    Returns
    -------
    Decimal
        ``(u - l) + (2/alpha)(l - y)`` if ``y < l``; ``u - l`` if ``l <= y <= u``;
        ``(u - l) + (2/alpha)(y - u)`` if ``y > u``. Same unit as the inputs.

    Raises
    ------
    ScoreError
        ``lower > upper`` (rule ``interval``) or ``alpha`` outside (0, 1).

    References
    ----------
    Gneiting & Raftery (2007), "Strictly proper scoring rules, prediction and
    estimation", JASA 102(477), eq. (43); seed 003, Appendix F.2.

    Examples
    --------
    >>> interval_score(10, 20, 5), interval_score(10, 20, 15)
    (Decimal('60'), Decimal('10'))
    """
    l, u, y = _dec(lower, "lower"), _dec(upper, "upper"), _dec(observed, "observed")
    a = _dec(alpha, "alpha")
    if not 0 < a < 1:
        raise ScoreError(f"alpha must lie strictly between 0 and 1, not {alpha!r}", rule="alpha")
    if l > u:
        raise ScoreError(f"the interval's lower end {lower} is above its upper end {upper}", rule="interval")
    score = u - l
    if y < l:
        score += 2 / a * (l - y)
    elif y > u:
        score += 2 / a * (y - u)
    return score


def interval_credit(score: Number, *, scale: Number, budget: Number) -> Decimal:
    """Interval credit: ``budget * max(0, 1 - score / scale)``.

    ``scale`` is the interval score (in the target's unit) at which credit
    reaches zero; ``budget`` the points allocated to the interval.

    Raises
    ------
    ScoreError
        A negative score or budget, or a scale that is not positive.

    >>> interval_credit(4, scale=10, budget=15)
    Decimal('9.0')
    >>> interval_credit(24, scale=10, budget=15)
    Decimal('0')
    """
    s, k, b = _dec(score, "interval score"), _dec(scale, "scale"), _dec(budget, "budget")
    if s < 0 or b < 0:
        raise ScoreError("interval score and budget must not be negative", rule="range")
    if k <= 0:
        raise ScoreError(f"scale must be positive, not {scale!r}", rule="range")
    return b * max(ZERO, 1 - s / k)


def point_error(forecast: Number, actual: Number, *, error: str = "relative") -> Decimal:
    """``|forecast - actual|`` (``absolute``) or that over ``|actual|`` (``relative``).

    Raises
    ------
    ScoreError
        An unknown ``error`` kind, or a relative error against an actual of 0.

    >>> point_error(45.9, 46.7), point_error(45.9, 46.7, error="absolute")
    (Decimal('0.01713062098501070663811563169'), Decimal('0.8'))
    """
    f, a = _dec(forecast, "forecast"), _dec(actual, "actual")
    if error == "absolute":
        return abs(f - a)
    if error == "relative":
        if a == 0:
            raise ScoreError("a relative error is undefined when the actual value is 0; use error: absolute",
                             rule="relative-zero")
        return abs(f - a) / abs(a)
    raise ScoreError(f"unknown error kind {error!r}; use 'relative' or 'absolute'", rule="error-kind", name=error)


def point_credit(forecast: Number, actual: Number, *, limit: Number, budget: Number, error: str = "relative") -> Decimal:
    """Point credit: ``budget * max(0, 1 - error / limit)``; zero at the zero-credit limit.

    >>> point_credit(95, 100, limit="10%", budget=70)
    Decimal('35.0')
    >>> point_credit(89, 100, limit="10%", budget=70)
    Decimal('0')
    """
    lim, b = _share(limit, "zero-credit limit"), _dec(budget, "budget")
    if lim <= 0:
        raise ScoreError(f"the zero-credit limit must be positive, not {limit!r}", rule="range")
    if b < 0:
        raise ScoreError("budget must not be negative", rule="range")
    return b * max(ZERO, 1 - point_error(forecast, actual, error=error) / lim)


# =========================================================================== tasks


@dataclass(frozen=True)
class Allocation:
    """Points for point accuracy, interval quality and supporting analysis.

    >>> Allocation().total
    Decimal('100')
    """

    point: Decimal = Decimal(70)
    interval: Decimal = Decimal(15)
    analysis: Decimal = Decimal(15)

    @property
    def total(self) -> Decimal:
        return self.point + self.interval + self.analysis


@dataclass(frozen=True)
class Target:
    """One forecast target of a task: what is forecast, its realized value, how it is scored."""

    id: str
    actual: Decimal
    weight: Decimal = Decimal(1)
    metric: str | None = None
    period: str | None = None
    unit: str | None = None
    error: str = "relative"
    zero_credit_limit: Decimal | None = None
    interval_scale: Decimal | None = None


@dataclass(frozen=True)
class Criterion:
    """One rubric criterion of a task with the credit an answer earned on it.

    ``earned`` is None when there is no answer to grade. ``outcome`` is set on
    forecast-outcome criteria (point, interval, probability, market).
    """

    id: str
    dimension: str
    points: Decimal
    earned: Decimal | None = None
    outcome: str | None = None
    detail: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "dimension": self.dimension, "points": self.points, "earned": self.earned}
        if self.outcome is not None:
            data["outcome"] = self.outcome
        if self.detail:
            data["detail"] = self.detail
        return data


@dataclass(frozen=True)
class ForecastTask:
    """A forecast task: targets with realized values, the allocation, the analysis rubric."""

    id: str
    targets: tuple[Target, ...]
    allocation: Allocation = Allocation()
    analysis: tuple[Criterion, ...] = ()
    alpha: Decimal = ALPHA
    category: str | None = None


@dataclass(frozen=True)
class TaskResult:
    """The graded criteria of one task and how its answer was submitted.

    ``answer`` says whether a final answer is available (answer-based
    evaluation scores it); ``submission`` whether it was accepted (strict
    evaluation requires that).
    """

    task: str
    criteria: tuple[Criterion, ...]
    submission: str = "accepted"
    answer: bool = True
    category: str | None = None
    record: int | None = None

    def zeroed(self, mode: str) -> str | None:
        """Why the task scores zero in ``mode`` (``"answer"`` or ``"strict"``), or None."""
        if mode == "strict":
            return None if self.submission == "accepted" else f"submission {self.submission}"
        if mode == "answer":
            return None if self.answer else "no final answer"
        raise ScoreError(f"unknown evaluation mode {mode!r}; use 'answer' or 'strict'", rule="mode", name=mode)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": 1,
            "kind": "forecast.task_result",
            "task": self.task,
            "category": self.category,
            "submission": self.submission,
            "answer": self.answer,
            "score": {"answer_based": task_score(self, "answer"), "strict": task_score(self, "strict")},
            "criteria": [c.to_dict() for c in self.criteria],
        }


def score_forecast(task: ForecastTask, submission: Mapping[str, Any]) -> TaskResult:
    """Grade a submission to a forecast task, criterion by criterion.

    Parameters
    ----------
    task:
        The task and its realized values.
    submission:
        ``forecasts`` (target id -> ``point``, ``lower``, ``upper`` and,
        optionally, the ``unit`` and ``period`` the answer states),
        ``analysis`` (analysis criterion id -> points the judge awarded),
        ``submission`` (accepted | rejected | omitted, default accepted) and
        ``answer`` (whether a final answer exists, default true).

    Returns
    -------
    TaskResult
        One ``<target>.point`` criterion (dimension ``result``, outcome
        ``point``) and one ``<target>.interval`` criterion (dimension
        ``uncertainty``, outcome ``interval``) per target with a non-zero
        budget, then the analysis criteria. A forecast that is missing,
        inverted, or stated in another unit or period than the target earns
        zero, with the reason in the criterion's ``detail``.

    Raises
    ------
    ScoreError
        A forecast for an unknown target, a grade for an unknown analysis
        criterion or outside ``[0, points]``, or no grade for an analysis
        criterion of an available answer.

    Examples
    --------
    >>> task = ForecastTask("T", (Target("rev", Decimal(100), zero_credit_limit=Decimal("0.1"),
    ...                                  interval_scale=Decimal(20)),),
    ...                     analysis=(Criterion("bridge", "calculation", Decimal(15)),))
    >>> result = score_forecast(task, {"forecasts": {"rev": {"point": 95, "lower": 90, "upper": 104}},
    ...                                "analysis": {"bridge": 12}})
    >>> [(c.id, c.earned) for c in result.criteria]
    [('rev.point', Decimal('35.0')), ('rev.interval', Decimal('4.5')), ('bridge', Decimal('12'))]
    >>> task_score(result)
    Decimal('51.5')
    """
    forecasts: Mapping[str, Any] = submission.get("forecasts") or {}
    grades: Mapping[str, Any] = submission.get("analysis") or {}
    state = submission.get("submission", "accepted")
    answer = bool(submission.get("answer", True))
    known = [t.id for t in task.targets]
    for name in forecasts:
        if name not in known:
            raise ScoreError(f"forecast for unknown target {name!r}; targets: {', '.join(known)}", rule="target",
                             name=name, suggestion=did_you_mean(name, known))
    total_weight = sum((t.weight for t in task.targets), ZERO)
    criteria: list[Criterion] = []
    for target in task.targets:
        share = target.weight / total_weight
        given = forecasts.get(target.id) or {}
        mismatch = _mismatch(target, given)
        if task.allocation.point > 0:
            criteria.append(_point(target, given, task.allocation.point * share, mismatch))
        if task.allocation.interval > 0:
            criteria.append(_interval(target, given, task.allocation.interval * share, task.alpha, mismatch))
    names = [c.id for c in task.analysis]
    for name in grades:
        if name not in names:
            raise ScoreError(f"grade for unknown analysis criterion {name!r}; criteria: {', '.join(names)}",
                             rule="criterion", name=name, suggestion=did_you_mean(name, names))
    for crit in task.analysis:
        if crit.id not in grades:
            if answer:
                raise ScoreError(f"no grade for analysis criterion {crit.id!r}", rule="criterion", name=crit.id)
            criteria.append(crit)
            continue
        earned = _dec(grades[crit.id], f"grade of {crit.id!r}")
        if not 0 <= earned <= crit.points:
            raise ScoreError(f"grade {earned} of {crit.id!r} is outside [0, {crit.points}]", rule="range", name=crit.id)
        criteria.append(Criterion(crit.id, crit.dimension, crit.points, earned, crit.outcome))
    return TaskResult(task.id, tuple(criteria), state, answer, task.category)


def score_submission(task: ForecastTask, doc: AnyDoc, data: Mapping[str, Any]) -> TaskResult:
    """:func:`score_forecast` on a submission read by :func:`load_submission`,
    its errors located in the submission file.

    Raises
    ------
    LoadError
        The submission names another task (rule ``task``).
    ScoreError
        As :func:`score_forecast`, with ``file:line:col`` of the offending entry.
    """
    if data.get("task") is not None and data["task"] != task.id:
        raise doc.error(f"the submission is for task {data['task']!r}, not {task.id!r}", ("task",), rule="task")
    try:
        return score_forecast(task, data)
    except ScoreError as exc:
        section = "forecasts" if exc.rule == "target" else "analysis"
        key = exc.rule in ("target", "criterion") and exc.name in (data.get(section) or {})
        path: tuple[str | int, ...] = (section, exc.name) if exc.name is not None else ()
        line, column = doc.locate_key(path) if key else doc.locate(path)
        raise exc.with_location(doc.file, line, column, doc.source_line(line)) from None


def _mismatch(target: Target, given: Mapping[str, Any]) -> str | None:
    for key, expected in (("unit", target.unit), ("period", target.period)):
        stated = given.get(key)
        if stated is not None and expected is not None and stated != expected:
            return f"{key} {stated!r} does not match the target's {expected!r}"
    return None


def _point(target: Target, given: Mapping[str, Any], budget: Decimal, mismatch: str | None) -> Criterion:
    detail: dict[str, Any] = {"budget": budget, "actual": target.actual, "error_kind": target.error,
                              "zero_credit_limit": target.zero_credit_limit}
    earned = ZERO
    if mismatch:
        detail["reason"] = mismatch
    elif given.get("point") is None:
        detail["reason"] = "no point forecast"
    else:
        assert target.zero_credit_limit is not None
        forecast = _dec(given["point"], f"point forecast of {target.id!r}")
        detail["forecast"] = forecast
        detail["error"] = point_error(forecast, target.actual, error=target.error)
        earned = point_credit(forecast, target.actual, limit=target.zero_credit_limit, budget=budget, error=target.error)
    return Criterion(f"{target.id}.point", "result", budget, earned, "point", detail)


def _interval(target: Target, given: Mapping[str, Any], budget: Decimal, alpha: Decimal, mismatch: str | None) -> Criterion:
    detail: dict[str, Any] = {"budget": budget, "actual": target.actual, "alpha": alpha, "scale": target.interval_scale}
    earned = ZERO
    if mismatch:
        detail["reason"] = mismatch
    elif given.get("lower") is None or given.get("upper") is None:
        detail["reason"] = "no interval"
    else:
        assert target.interval_scale is not None
        lower = _dec(given["lower"], f"lower end for {target.id!r}")
        upper = _dec(given["upper"], f"upper end for {target.id!r}")
        detail.update(lower=lower, upper=upper)
        if lower > upper:
            detail["reason"] = "the lower end is above the upper end"
        else:
            score = interval_score(lower, upper, target.actual, alpha)
            detail["interval_score"] = score
            detail["covered"] = lower <= target.actual <= upper
            earned = interval_credit(score, scale=target.interval_scale, budget=budget)
    return Criterion(f"{target.id}.interval", "uncertainty", budget, earned, "interval", detail)


# =========================================================================== aggregation


def task_score(result: TaskResult, mode: str = "answer") -> Decimal:
    """A task's normalised score, 0-100: earned over available credit; 0 when zeroed in ``mode``.

    ``mode`` is ``"answer"`` (answer-based, the main results) or
    ``"strict"`` (an accepted submission required).
    """
    available = sum((c.points for c in result.criteria), ZERO)
    if result.zeroed(mode) is not None or available == 0:
        return ZERO
    return HUNDRED * sum((c.earned or ZERO for c in result.criteria), ZERO) / available


@dataclass(frozen=True)
class DimensionMean:
    """A mean over the tasks a dimension (or the outcome pool) applies to."""

    mean: Decimal
    tasks: int


@dataclass(frozen=True)
class Aggregate:
    """Scores of a set of tasks under one evaluation mode (all 0-100)."""

    mode: str
    overall: Decimal
    categories: dict[str, Decimal]
    dimensions: dict[str, DimensionMean]
    outcome: DimensionMean | None
    tasks: tuple[tuple[str, Decimal], ...]
    zeroed: tuple[tuple[str, str], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "overall": self.overall,
            "categories": dict(self.categories),
            "dimensions": {d: {"mean": m.mean, "tasks": m.tasks} for d, m in self.dimensions.items()},
            "outcome": None if self.outcome is None else {"mean": self.outcome.mean, "tasks": self.outcome.tasks},
            "tasks": [{"task": t, "score": s} for t, s in self.tasks],
            "zeroed": [{"task": t, "reason": r} for t, r in self.zeroed],
        }


def aggregate(results: Sequence[TaskResult], mode: str = "answer") -> Aggregate:
    """Task-normalised aggregation with equal task weights (Appendix E.2).

    Raises
    ------
    ScoreError
        No tasks, an unknown mode, or two results for the same task.

    Examples
    --------
    >>> a = TaskResult("A", (Criterion("a1", "evidence", Decimal(10), Decimal(10)),
    ...                      Criterion("a2", "calculation", Decimal(30), Decimal(0))), category="Research")
    >>> b = TaskResult("B", (Criterion("b1", "calculation", Decimal(50), Decimal(25)),), category="Research",
    ...                submission="rejected")
    >>> agg = aggregate([a, b])
    >>> agg.overall, agg.dimensions["calculation"].mean, agg.dimensions["evidence"].tasks
    (Decimal('37.5'), Decimal('25'), 1)
    >>> aggregate([a, b], "strict").overall
    Decimal('12.5')
    """
    if not results:
        raise ScoreError("nothing to aggregate: no task results", rule="empty")
    seen: set[str] = set()
    for r in results:
        if r.task in seen:
            raise ScoreError(f"task {r.task!r} has more than one result", rule="duplicate-task", name=r.task)
        seen.add(r.task)
    scores = [(r, task_score(r, mode)) for r in results]
    overall = sum((s for _, s in scores), ZERO) / len(scores)
    by_category: dict[str, list[Decimal]] = {}
    for r, s in scores:
        if r.category is not None:
            by_category.setdefault(r.category, []).append(s)
    dimensions: dict[str, DimensionMean] = {}
    for dim in DIMENSIONS:
        values = [_pooled(r, mode, [c for c in r.criteria if c.dimension == dim]) for r in results]
        present = [v for v in values if v is not None]
        if present:
            dimensions[dim] = DimensionMean(sum(present, ZERO) / len(present), len(present))
    outcome_values = [_pooled(r, mode, [c for c in r.criteria if c.outcome is not None]) for r in results]
    outcome_present = [v for v in outcome_values if v is not None]
    outcome = DimensionMean(sum(outcome_present, ZERO) / len(outcome_present), len(outcome_present)) if outcome_present else None
    return Aggregate(
        mode=mode,
        overall=overall,
        categories={c: sum(v, ZERO) / len(v) for c, v in sorted(by_category.items())},
        dimensions=dimensions,
        outcome=outcome,
        tasks=tuple((r.task, s) for r, s in scores),
        zeroed=tuple((r.task, why) for r in results if (why := r.zeroed(mode)) is not None),
    )


def _pooled(result: TaskResult, mode: str, criteria: Sequence[Criterion]) -> Decimal | None:
    """Earned over available credit of ``criteria`` in one task, 0-100; None if it has none."""
    available = sum((c.points for c in criteria), ZERO)
    if not criteria or available == 0:
        return None
    if result.zeroed(mode) is not None:
        return ZERO
    return HUNDRED * sum((c.earned or ZERO for c in criteria), ZERO) / available


# =========================================================================== files


def load_forecast_task(path: str | Path, *, text: str | None = None) -> ForecastTask:
    """Read a forecast task (``grammar/forecast_task.schema.json``).

    Raises
    ------
    LoadError or ErrorGroup
        Schema errors, and: an allocation whose parts are not all
        non-negative; a target without the ``point`` block (or ``interval``
        block) its non-zero budget needs; analysis criteria whose points do
        not add up to the analysis allocation; duplicate ids. Each at
        ``file:line:col``.
    """
    doc = load_document(path, schema="forecast_task.schema.json", what="the forecast task", text=text)
    data = doc.data
    errors: list[IpbError] = []

    def num(value: Any, where: tuple[str | int, ...], what: str, *, share: bool = False) -> Decimal:
        try:
            return _share(value, what) if share else _dec(value, what)
        except ScoreError as exc:
            errors.append(doc.error(exc.message, where, rule="number"))
            return ZERO

    raw_alloc = data.get("allocation") or {}
    allocation = Allocation(*(num(raw_alloc.get(k, d), ("allocation", k), f"allocation {k}")
                              for k, d in (("point", 70), ("interval", 15), ("analysis", 15))))
    for k in ("point", "interval", "analysis"):
        if getattr(allocation, k) < 0:
            errors.append(doc.error(f"allocation {k} must not be negative", ("allocation", k), rule="allocation"))
    targets: list[Target] = []
    seen: set[str] = set()
    for i, t in enumerate(data["targets"]):
        where: tuple[str | int, ...] = ("targets", i)
        if t["id"] in seen:
            errors.append(doc.error(f"duplicate target id {t['id']!r}", where + ("id",), rule="duplicate-id", name=t["id"]))
        seen.add(t["id"])
        point, interval = t.get("point"), t.get("interval")
        if allocation.point > 0 and point is None:
            errors.append(doc.error(f"target {t['id']!r} needs a 'point' block (zero_credit_limit): the point allocation is "
                                    f"{allocation.point}", where, rule="allocation"))
        if allocation.interval > 0 and interval is None:
            errors.append(doc.error(f"target {t['id']!r} needs an 'interval' block (scale): the interval allocation is "
                                    f"{allocation.interval}", where, rule="allocation"))
        limit = scale = None
        error_kind = "relative"
        if point is not None:
            error_kind = point.get("error", "relative")
            limit = num(point["zero_credit_limit"], where + ("point", "zero_credit_limit"), "zero_credit_limit", share=True)
            if limit <= 0:
                errors.append(doc.error("zero_credit_limit must be positive", where + ("point", "zero_credit_limit"), rule="range"))
        if interval is not None:
            scale = num(interval["scale"], where + ("interval", "scale"), "scale")
            if scale <= 0:
                errors.append(doc.error("scale must be positive", where + ("interval", "scale"), rule="range"))
        actual = num(t["actual"], where + ("actual",), "actual")
        if error_kind == "relative" and actual == 0 and point is not None:
            errors.append(doc.error("a relative error is undefined for an actual value of 0; use error: absolute",
                                    where + ("actual",), rule="relative-zero"))
        weight = num(t.get("weight", 1), where + ("weight",), "weight")
        if weight <= 0:
            errors.append(doc.error("weight must be positive", where + ("weight",), rule="range"))
        targets.append(Target(t["id"], actual, weight, t.get("metric"), t.get("period"), t.get("unit"),
                              error_kind, limit, scale))
    analysis: list[Criterion] = []
    for i, c in enumerate(data.get("analysis") or []):
        if c["id"] in seen:
            errors.append(doc.error(f"duplicate id {c['id']!r}", ("analysis", i, "id"), rule="duplicate-id", name=c["id"]))
        seen.add(c["id"])
        analysis.append(Criterion(c["id"], c["dimension"], num(c["points"], ("analysis", i, "points"), "points")))
    total = sum((c.points for c in analysis), ZERO)
    if total != allocation.analysis:
        where = ("analysis",) if data.get("analysis") else ("allocation",)
        errors.append(doc.error(f"the analysis criteria carry {total} points but the analysis allocation is "
                                f"{allocation.analysis}", where, rule="allocation"))
    if errors:
        raise errors[0] if len(errors) == 1 else ErrorGroup(errors)
    return ForecastTask(data["id"], tuple(targets), allocation, tuple(analysis),
                        num(data.get("alpha", ALPHA), ("alpha",), "alpha"), data.get("category"))


def load_submission(path: str | Path, *, text: str | None = None) -> tuple[AnyDoc, dict[str, Any]]:
    """Read a forecast submission (``grammar/forecast_submission.schema.json``).

    Returns the document (for positions) and its data.

    Raises
    ------
    LoadError or ErrorGroup
        Schema errors; an ``accepted`` submission that says no answer is
        available.
    """
    doc = load_document(path, schema="forecast_submission.schema.json", what="the submission", text=text)
    data = doc.data
    if data.get("submission", "accepted") == "accepted" and data.get("answer") is False:
        raise doc.error("an accepted submission is an answer: 'answer: false' contradicts 'submission: accepted'",
                        ("answer",), rule="submission")
    return doc, data


def load_task_results(path: str | Path, *, text: str | None = None) -> list[TaskResult]:
    """Read task results: JSON Lines (one ``task_result`` a line, as ``ipb forecast score`` writes)
    or a YAML/JSON document with ``tasks:``.

    Raises
    ------
    LoadError or ErrorGroup
        Every problem, each naming the record number: schema errors, a
        criterion earning more than its points, a missing ``earned`` in a task
        whose answer is available, duplicate criterion ids.
    """
    loaded = load_items(path, schema="task_result.schema.json", item_def="task_result", list_key="tasks",
                        what="a task result", text=text)
    errors: list[IpbError] = []
    results: list[TaskResult] = []
    for item in loaded.items:
        result = _task_result(item, errors)
        if result is not None:
            results.append(result)
    loaded.raise_errors(errors)
    return results


def _task_result(item: Item, errors: list[IpbError]) -> TaskResult | None:
    d = item.data
    before = len(errors)
    answer = bool(d.get("answer", True))
    state = d.get("submission", "accepted")
    if state == "accepted" and not answer:
        errors.append(item.error("'answer: false' contradicts 'submission: accepted'", ("answer",), rule="submission"))
    criteria: list[Criterion] = []
    seen: set[str] = set()
    for i, c in enumerate(d["criteria"]):
        where: tuple[str | int, ...] = ("criteria", i)
        if c["id"] in seen:
            errors.append(item.error(f"duplicate criterion id {c['id']!r}", where + ("id",), rule="duplicate-id", name=c["id"]))
        seen.add(c["id"])
        points = Decimal(c["points"])
        earned = None if c.get("earned") is None else Decimal(c["earned"])
        if earned is None and answer:
            errors.append(item.error(f"criterion {c['id']!r} has no 'earned' credit, but the task's answer is available",
                                     where, rule="earned"))
        if earned is not None and not 0 <= earned <= points:
            errors.append(item.error(f"criterion {c['id']!r} earns {earned}, outside [0, {points}]",
                                     where + ("earned",), rule="range"))
        criteria.append(Criterion(c["id"], c["dimension"], points, earned, c.get("outcome"), dict(c.get("detail") or {})))
    if len(errors) > before:
        return None
    return TaskResult(d["task"], tuple(criteria), state, answer, d.get("category"), item.record)
