"""Aggregate scored responses: means with seeded bootstrap CIs by group, and the §7.2 deltas.

:func:`summarize` turns the records :func:`ipb.scoring.run.score_records`
writes into ``summary.json`` (``grammar/summary.schema.json``):

- ``counts``: records, scored, unscored, parse failures and input errors,
  by reason;
- ``groups``: for each dimension (``overall``, ``model``, ``condition``,
  ``layer``, ``investor``, ``topology``, ``card``, and ``corruption`` when
  records carry corruptions) and each of its values, the number of units,
  how many were scored or left out and why, the mean of every metric with
  a percentile-bootstrap CI over the scored units where it applies (the
  count where it does not is ``n_not_applicable``), and every failure
  mode's firing rate among the units where it applies. Units are
  responses, except for ``investor``, ``topology`` and ``card``, whose units
  are the response's targets (one per gold card; L8 items have several);
- ``by_model_layer``: the headline numbers (layer composite, BASP-strict,
  its conjunction rate, GRA, VerdictAcc) for every model and layer;
- ``deltas``: when two or more of the paper's conditions A (closed book),
  B (PKB-augmented) and C (oracle) are present, the knowledge gap C - A,
  retrieval vs oracle B - C and application gap 1 - C, for each model and
  over all models, each with a paired bootstrap CI over items.

Failures count (``options.failures``, :mod:`ipb.scoring.outcome`). By
default (``count``) a refusal or parse failure is in every mean, CI, delta and
rank with the worst value on every metric it was owed (the record's
``owed``: 0, NED 1, tau -1); each group says how many such units it holds
(``n_failures`` beside each metric, ``n_refusals``, ``n_parse_failures``) and
its ``coverage``, the share of its units asked that were scored: usable units
and run errors (``n_run_errors``: items the run asked and got no answer to,
never averaged in but never left out of coverage). With
``exclude`` (``ipb score --exclude-failures``) they are left out of the
means and only counted, as §7.5 prescribes for the paper's judge
placeholders; the summary's ``failures`` block says which was done, and the
report repeats it beside every figure. Unusable records (the input's fault)
are never averaged in. Failure-mode flags are rates among scored units.

Every interval uses ``numpy.random.default_rng(seed)``, so the same records
and seed give the same file. For the mean of a metric with few distinct
values (flags, verdicts, SAP) the resample is drawn as multinomial counts
over the distinct values, which has exactly the distribution of the index
resample and costs O(distinct values) per resample; otherwise indices are
resampled (:func:`ipb.scoring.bootstrap.bootstrap_ci`).

References
----------
InvestPhilBench §7.2 (conditions and deltas), §7.5 (unscored placeholders
excluded from means), §8 and Table 11 (bootstrap 95% CIs), §7.13, §7.15.
"""

from __future__ import annotations

import copy
from collections import Counter, defaultdict
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from ipb.scoring.bootstrap import bootstrap_ci, bootstrap_delta_ci
from ipb.scoring.fmdp import FM_NAMES
from ipb.scoring.leaderboard import (KCCS_UNKNOWN_NOTE, LEADERBOARD_METRICS, RANK_RULE, leaderboard, rank_note,
                                     rank_value)
from ipb.scoring.outcome import outcome_of

__all__ = [
    "DIMENSIONS",
    "TARGET_DIMENSIONS",
    "HEADLINE_METRICS",
    "DELTA_METRICS",
    "DELTAS",
    "mean_ci",
    "summarize",
    "summary_view",
    "subgroup_stats",
    "LEADERBOARD_METRICS",
    "RANK_RULE",
    "KCCS_UNKNOWN_NOTE",
    "rank_note",
    "rank_value",
    "leaderboard",
    "basp_gate_failures",
]

#: Dimensions whose units are responses.
RESPONSE_DIMENSIONS = ("overall", "model", "condition", "layer", "corruption")
#: Dimensions whose units are targets (a response's gold cards).
TARGET_DIMENSIONS = ("investor", "topology", "card")
DIMENSIONS = ("overall", "model", "condition", "layer", "investor", "topology", "card", "corruption")
#: Metrics of the ``by_model_layer`` table.
HEADLINE_METRICS = ("layer_composite", "basp_strict", "basp_conjunction", "gra", "verdict_acc")
#: Metrics the condition deltas are computed for.
DELTA_METRICS = ("layer_composite", "w1_composite", "basp_strict", "gra", "verdict_acc", "verdict_acc_gates",
                 "ogrs_k", "kccs", "gcf")
#: The §7.2 diagnostic quantities: name -> (minuend condition, subtrahend condition).
DELTAS = {"C-A": ("C", "A"), "B-C": ("B", "C")}
#: What the summary's ``failures.note`` says under each policy (the report repeats it).
#: What coverage is, in both notes: since stop 48 it counts the items of the items file a model has no answer to, and
#: "the share scored" read as 100% to s50user, whose model with every answer scored showed 15.0% (6 of 40 items).
COVERAGE_NOTE = ("coverage is the share of what was owed that was scored (a refusal, a parse failure, a run error and "
                 "an item of the items file with no answer each count against it)")
FAILURES_COUNTED = ("refusals and parse failures are in every mean, CI and rank, scored 0 on every metric they were "
                    "owed (NED 1, tau -1); " + COVERAGE_NOTE)
FAILURES_EXCLUDED = ("refusals and parse failures are left out of every mean and CI (--exclude-failures): the means "
                     "are over scored responses only; the leaderboard's rank ('ranked on') still counts each as 0, "
                     "as an unanswered item is, so a refusal is never credited at the model's own mean; "
                     + COVERAGE_NOTE)
#: Added to either note: the answers scored although no gate was read (docs/scoring.md "An answer with no gate read").
TRACE_UNREAD_NOTE = ("; an answer with no gate read but a stated final verdict is scored and in coverage (n_trace_unread "
                     "counts them): VerdictAcc reads its verdict, every other metric is at its failure value")
#: Distinct values up to which the multinomial resample is used.
_MULTINOMIAL_MAX = 64
_DIGITS = 6


def _r(x: float) -> float:
    return round(float(x), _DIGITS)


def mean_ci(
    values: Sequence[float], *, n_resamples: int = 2000, seed: int = 0, confidence: float = 0.95
) -> dict[str, float | int] | None:
    """Mean of ``values`` with a percentile-bootstrap interval, or None when empty.

    Parameters
    ----------
    values : sequence of float
        Already cleaned (no None).
    n_resamples, seed, confidence
        As :func:`ipb.scoring.bootstrap.bootstrap_ci`.

    Returns
    -------
    dict
        ``{"mean", "low", "high", "n"}`` rounded to 6 decimals.

    Examples
    --------
    >>> mean_ci([1.0, 1.0, 0.0, 1.0], n_resamples=1000)["mean"]
    0.75
    >>> mean_ci([0.5, 0.5])
    {'mean': 0.5, 'low': 0.5, 'high': 0.5, 'n': 2}
    >>> mean_ci([]) is None
    True
    """
    if len(values) == 0:
        return None
    data = np.asarray(values, dtype=np.float64)
    n = int(data.size)
    mean = float(np.mean(data))
    uniq, counts = np.unique(data, return_counts=True)
    if uniq.size == 1:
        return {"mean": _r(mean), "low": _r(mean), "high": _r(mean), "n": n}
    if uniq.size <= _MULTINOMIAL_MAX:
        rng = np.random.default_rng(seed)
        draws = rng.multinomial(n, counts / n, size=n_resamples)
        stats = draws @ uniq / n
        alpha = 1.0 - confidence
        low, high = np.percentile(stats, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    else:
        ci = bootstrap_ci(data.tolist(), n_resamples=n_resamples, seed=seed, confidence=confidence)
        assert ci is not None
        low, high = ci.low, ci.high
    return {"mean": _r(mean), "low": _r(min(low, mean)), "high": _r(max(high, mean)), "n": n}


# --------------------------------------------------------------------------- units


def _flag_values(flags: Mapping[str, Any]) -> dict[str, bool | None]:
    """Target flags (FailureFlag dicts) or response flags (bool/None) -> fired / None when not applicable."""
    out: dict[str, bool | None] = {}
    for fm in FM_NAMES:
        f = flags.get(fm)
        if f is None or isinstance(f, bool):  # a response's flag, or a view's (summary_view)
            out[fm] = f
        elif isinstance(f, Mapping):
            out[fm] = bool(f.get("fired")) if f.get("applicable") else None
        else:
            out[fm] = None
    return out


class _Unit:
    """One response or target as the summary reads it.

    ``values`` is what enters the means: the scored metrics, the owed
    failure values of a refusal / parse failure when failures count, else
    nothing. ``excluded`` is what a failure left out of the means was owed
    (``--exclude-failures``): the leaderboard ranks it as 0 on those
    (:func:`ipb.scoring.leaderboard.rank_value`, s54newuser finding 5).
    """

    __slots__ = ("status", "reason_code", "outcome", "metrics", "flags", "key", "values", "_row", "unread", "review",
                 "excluded")

    def __init__(self, status: str, reason_code: str | None, metrics: Mapping[str, Any], flags: Mapping[str, Any],
                 key: tuple[Any, ...], owed: Any = None, count_failures: bool = True) -> None:
        self.status = status
        self.reason_code = reason_code
        self.outcome = outcome_of(status, reason_code)
        self.metrics = metrics
        self.flags = _flag_values(flags)
        self.key = key
        self.unread = False  # scored with no gate read (:func:`_trace_unread`)
        self.review: int | None = None  # readings --min-confidence routed to review (None: not asked)
        if status == "scored":
            self.values: Mapping[str, Any] = metrics
        elif self.failed and count_failures and isinstance(owed, Mapping):
            self.values = owed
        else:
            self.values = {}
        self.excluded: Mapping[str, Any] = owed if (self.failed and not count_failures
                                                    and isinstance(owed, Mapping)) else {}

    def row(self, names: Sequence[str]) -> tuple[float | None, ...]:
        """``values`` of ``names`` as floats, None where missing or None (kept for the last ``names`` asked)."""
        cached = getattr(self, "_row", None)
        if cached is None or cached[0] is not names:
            values = self.values
            cached = self._row = (names, tuple(None if (v := values.get(n)) is None else float(v) for n in names))
        return cached[1]

    @property
    def failed(self) -> bool:
        """A refusal or a parse failure: the model's failure, not the input's."""
        return self.outcome in ("refusal", "parse_failure")

    @property
    def run_error(self) -> bool:
        """An item asked but never answered: the run recorded an error (``sample_error``: an ``ipb respond`` record
        with ``status: error``, an inspect or lm-eval sample that errored). Out of the means, in coverage."""
        return self.reason_code == "sample_error"


def _corruption_label(record: Mapping[str, Any]) -> str | None:
    value = record.get("corruptions")
    if not isinstance(value, list):
        return None
    names = [c.get("name") if isinstance(c, Mapping) else c for c in value]
    return "+".join(str(n) for n in names) if names else "none"


def _coverage(n_scored: int, n_failed: int) -> float | None:
    """Scored over asked: ``n_failed`` holds refusals, parse failures and run errors (items with no answer).

    A run error is no wrong answer and stays out of the means, but an item never answered is an item not covered
    (s44user: a model whose server failed on 7 of its 10 items showed coverage 100% and ranked first).

    >>> _coverage(3, 7), _coverage(0, 0)
    (0.3, None)
    """
    return None if n_scored + n_failed == 0 else _r(n_scored / (n_scored + n_failed))


def _group_stats(units: Sequence[_Unit], names: Sequence[str], options: Any, with_flags: bool = True) -> dict[str, Any]:
    scored = [u for u in units if u.status == "scored"]
    failed = [u for u in units if u.failed]
    counted = scored + [u for u in failed if u.values]
    stats: dict[str, Any] = {
        "n": len(units),
        "n_scored": len(scored),
        "n_trace_unread": sum(1 for u in scored if u.unread),
        "n_unscored": len(units) - len(scored),
        "n_parse_failures": sum(1 for u in failed if u.outcome == "parse_failure"),
        "n_refusals": sum(1 for u in failed if u.outcome == "refusal"),
        "n_invalid": sum(1 for u in units if u.outcome == "unusable"),
        "n_run_errors": (n_run_errors := sum(1 for u in units if u.run_error)),
        # scored answers whose KCCS is unknown (a reached kill gate, no element that could be told in the answer's
        # language: s49fair), not "not applicable"; out of the KCCS mean like those, shown as "unknown on k"
        "n_kccs_unknown": sum(1 for u in scored if (u.metrics or {}).get("kccs_unknown")),
        # scored answers whose stated final verdict passes a kill gate their own trace read REJECT (s63 new user E2)
        "n_final_contradicts_trace": sum(1 for u in scored if (u.metrics or {}).get("final_contradicts_trace")),
        "coverage": _coverage(len(scored), len(failed) + n_run_errors),
        "metrics": {},
        "flags": {},
    }
    reviewed = [u.review for u in units if u.review is not None]
    if reviewed:  # only under --min-confidence: the readings routed to review, and the responses holding them
        stats["n_review"] = sum(reviewed)
        stats["n_review_records"] = sum(1 for n in reviewed if n)
    # each unit's values in ``names`` order are read once (_Unit.row) and the columns are their transpose; the
    # scored units come first in ``counted``, then the failures that carry owed values
    rows = [u.row(names) for u in counted]
    columns = list(zip(*rows)) if rows else [() for _ in names]
    for name, column in zip(names, columns):
        vals = [v for v in column if v is not None]
        ci = mean_ci(vals, n_resamples=options.n_resamples, seed=options.seed, confidence=options.confidence)
        if ci is not None:
            n_failures = sum(1 for v in column[len(scored):] if v is not None)
            ci["n_not_applicable"] = len(scored) - (len(vals) - n_failures)
            ci["n_failures"] = n_failures
        stats["metrics"][name] = ci
    # under --exclude-failures: per metric, the failures left out of its mean that were owed it; the leaderboard
    # ranks each as 0 (a refusal is not credited at the model's own mean, s54newuser finding 5)
    if failed and getattr(options, "failures", "count") != "count":
        stats["n_failures_excluded"] = {name: k for name in names
                                        if (k := sum(1 for u in failed if u.excluded.get(name) is not None))}
    if not with_flags:
        return stats
    for fm in FM_NAMES:
        fired = [u.flags[fm] for u in scored if u.flags.get(fm) is not None]
        ci = mean_ci([1.0 if f else 0.0 for f in fired], n_resamples=options.n_resamples, seed=options.seed,
                     confidence=options.confidence)
        stats["flags"][fm] = None if ci is None else {
            "rate": ci["mean"], "low": ci["low"], "high": ci["high"], "n_fired": sum(1 for f in fired if f),
            "n_applicable": len(fired),
        }
    return stats


# --------------------------------------------------------------------------- deltas


def _per_item(units: Iterable[_Unit], metric: str) -> dict[tuple[Any, ...], dict[str, float]]:
    """(model, item) -> condition letter -> mean value over that cell's scored units (epochs, corruptions)."""
    sums: dict[tuple[Any, ...], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for u in units:
        model, condition, item = u.key
        if condition not in ("A", "B", "C") or u.values.get(metric) is None:
            continue
        sums[(model, item)][condition].append(float(u.values[metric]))
    return {k: {c: sum(v) / len(v) for c, v in cells.items()} for k, cells in sums.items()}


def _ci_dict(ci: Any) -> dict[str, Any] | None:
    if ci is None:
        return None
    return {"estimate": _r(ci.estimate), "low": _r(ci.low), "high": _r(ci.high), "n": int(ci.n)}


def _deltas_for(units: Sequence[_Unit], options: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, (x, y) in DELTAS.items():
        per_metric: dict[str, Any] = {}
        for metric in DELTA_METRICS:
            cells = _per_item(units, metric)
            keys = sorted((k for k, v in cells.items() if x in v and y in v), key=lambda k: (str(k[0]), str(k[1])))
            a = [cells[k][x] for k in keys]
            b = [cells[k][y] for k in keys]
            per_metric[metric] = _ci_dict(bootstrap_delta_ci(a, b, paired=True, n_resamples=options.n_resamples,
                                                             seed=options.seed, confidence=options.confidence)) if keys else None
        out[name] = per_metric
    gap: dict[str, Any] = {}
    for metric in DELTA_METRICS:
        cells = _per_item(units, metric)
        keys = sorted((k for k, v in cells.items() if "C" in v), key=lambda k: (str(k[0]), str(k[1])))
        ci = mean_ci([cells[k]["C"] for k in keys], n_resamples=options.n_resamples, seed=options.seed,
                     confidence=options.confidence)
        gap[metric] = None if ci is None else {"estimate": _r(1 - ci["mean"]), "low": _r(1 - ci["high"]),
                                                "high": _r(1 - ci["low"]), "n": ci["n"]}
    out["1-C"] = gap
    return out


# --------------------------------------------------------------------------- subgroups


#: Record fields a target-level ``where`` reads from the response record; the others come from the target.
RECORD_FIELDS = ("model", "condition_key", "condition", "layer", "item_id")


def subgroup_stats(
    records: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    *,
    level: str = "response",
    where: Mapping[str, Any] | None = None,
    options: Any = None,
) -> dict[str, Any]:
    """A group entry, exactly as :func:`summarize` computes one, for a breakdown the summary does not hold.

    The report uses this for the per-model cells of its topology and
    investor tables and its per-condition means, so that every figure on the
    page follows the summary's rule for failures (``options.failures``:
    ``count``, the default, puts each refusal and parse failure in the mean
    with the value it was owed; ``exclude`` leaves it out).

    Parameters
    ----------
    records : sequence of dict
        Score records (``responses.jsonl``).
    names : sequence of str
        Metrics to average.
    level : {"response", "target"}
        The units: responses, or the targets (gold cards) of responses.
    where : mapping, optional
        Field -> value a unit must have. At target level, the keys in
        :data:`RECORD_FIELDS` are read from the response record, the others
        from the target.
    options : object, optional
        ``n_resamples``, ``seed``, ``confidence`` and ``failures`` (as
        :class:`ipb.scoring.run.ScoreOptions`).

    Returns
    -------
    dict
        ``n`` (units in the subgroup), ``n_scored``, ``n_refusals``,
        ``n_parse_failures``, ``n_invalid``, ``coverage`` and ``metrics``
        (name -> ``{"mean", "low", "high", "n", "n_not_applicable",
        "n_failures"}`` or None), as in ``summary.json``'s ``groups``
        (without flags).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> recs = [{"model": "a", "status": "scored", "metrics": {"gra": 1.0}},
    ...         {"model": "a", "status": "unscored", "reason_code": "refusal", "owed": {"gra": 0.0}}]
    >>> opts = SimpleNamespace(n_resamples=100, seed=0, confidence=0.95, failures="count")
    >>> g = subgroup_stats(recs, ["gra"], where={"model": "a"}, options=opts)
    >>> g["metrics"]["gra"]["mean"], g["metrics"]["gra"]["n"], g["metrics"]["gra"]["n_failures"], g["n_refusals"]
    (0.5, 2, 1, 1)
    >>> opts.failures = "exclude"
    >>> subgroup_stats(recs, ["gra"], where={"model": "a"}, options=opts)["metrics"]["gra"]["mean"]
    1.0
    """
    if level not in ("response", "target"):
        raise ValueError(f"level must be 'response' or 'target', not {level!r}")
    if options is None:
        from ipb.scoring.run import ScoreOptions

        options = ScoreOptions()
    count = getattr(options, "failures", "count") == "count"
    where = dict(where or {})
    on_record = {k: v for k, v in where.items() if level == "response" or k in RECORD_FIELDS}
    on_target = {k: v for k, v in where.items() if k not in on_record}
    units: list[_Unit] = []
    for r in records:
        if not all(r.get(k) == v for k, v in on_record.items()):
            continue
        if level == "response":
            units.append(_response_unit(r, count))
            continue
        for t in r.get("targets") or ():
            if isinstance(t, Mapping) and all(t.get(k) == v for k, v in on_target.items()):
                units.append(_target_unit(r, t, count))
    return _group_stats(units, names, options, with_flags=False)


def _key(r: Mapping[str, Any]) -> tuple[Any, ...]:
    return (r.get("model"), r.get("condition_key"), r.get("item_id"))


def _trace_unread(t: Mapping[str, Any]) -> bool:
    """Whether target ``t`` was scored although no gate of its card was read (only its stated final verdict)."""
    parsed = t.get("parsed")
    return t.get("status") == "scored" and isinstance(parsed, Mapping) and parsed.get("status") not in (None, "ok")


def _response_unit(r: Mapping[str, Any], count: bool) -> _Unit:
    unit = _Unit(r.get("status", "unscored"), r.get("reason_code"), r.get("metrics") or {}, r.get("flags") or {},
                 _key(r), r.get("owed"), count)
    targets = [t for t in r.get("targets") or () if t.get("status") == "scored"]
    unit.unread = unit.status == "scored" and bool(targets) and all(_trace_unread(t) for t in targets)
    every = [t for t in r.get("targets") or () if isinstance(t, Mapping) and ("review" in t or "n_review" in t)]
    if every:
        unit.review = sum(_n_review(t) for t in every)
    return unit


def _target_unit(r: Mapping[str, Any], t: Mapping[str, Any], count: bool) -> _Unit:
    unit = _Unit(t.get("status") or "unscored", t.get("reason_code"), t.get("metrics") or {}, t.get("flags") or {},
                 _key(r), t.get("owed"), count)
    unit.unread = _trace_unread(t)
    if "review" in t or "n_review" in t:
        unit.review = _n_review(t)
    return unit


# --------------------------------------------------------------------------- summary


def summary_view(record: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a score record that :func:`summarize` reads: ``summarize(views) == summarize(records)``.

    A record of ``responses.jsonl`` is ~6 kB, mostly per-target evidence (gates, flag evidence, parsed
    answers); its view is the fields the summary groups, counts and averages (a few hundred bytes): the
    record's ``status``, ``reason_code``, ``reason``, ``record``, ``source``, ``model``, ``condition_key``,
    ``item_id``, ``layer``, ``metrics``, ``owed``, ``file`` (several responses files), its failure-mode flags
    as fired (True/False) or not applicable (None), its corruptions' names, and for each target its ``investor``, ``topology``, ``card``,
    ``status``, ``reason_code``, ``metrics``, ``owed`` and flags (the same way). The values are the record's
    own (unrounded), so the summary computed from views is the one computed from the records. The Ray
    backend builds views on the workers, so the driver never decodes whole records
    (:mod:`ipb.distributed.score`).

    >>> v = summary_view({"status": "scored", "metrics": {"gra": 0.5}, "trace": ["long"], "flags": {"FM-1": False},
    ...                   "corruptions": [{"name": "none", "details": {}}], "targets": [{"card": "c", "flags":
    ...                   {"FM-3": {"applicable": True, "fired": True, "evidence": {}}}, "gates": []}]})
    >>> v["corruptions"], v["flags"]["FM-1"], v["targets"][0]["flags"]["FM-3"], "trace" in v, "gates" in v["targets"][0]
    ([{'name': 'none'}], False, True, False, False)
    """
    out = {k: record[k] for k in _VIEW_FIELDS if k in record}
    out["flags"] = _flag_values(record.get("flags") or {})
    corruptions = record.get("corruptions")
    if isinstance(corruptions, list):
        corruptions = [{"name": c.get("name")} if isinstance(c, Mapping) else c for c in corruptions]
    out["corruptions"] = corruptions
    targets = record.get("targets")
    if targets:
        out["targets"] = [{**{k: t[k] for k in _TARGET_VIEW_FIELDS if k in t}, "flags": _flag_values(t.get("flags") or {}),
                           **({"n_review": _n_review(t)} if "review" in t or "n_review" in t else {})}
                          for t in targets]
    elif "targets" in record:
        out["targets"] = targets
    return out


def _n_review(target: Mapping[str, Any]) -> int:
    """How many of a target's readings ``--min-confidence`` routed to review (a record's list or a view's count)."""
    review = target.get("review")
    return len(review) if isinstance(review, list) else int(target.get("n_review") or 0)


def _review_counts(records: Sequence[Mapping[str, Any]], threshold: float) -> dict[str, Any]:
    """``counts.review``: the readings below ``--min-confidence`` and the records holding them (all still scored)."""
    per_record = [sum(_n_review(t) for t in (r.get("targets") or []) if isinstance(t, Mapping)) for r in records]
    return {"min_confidence": threshold, "readings": sum(per_record), "records": sum(1 for n in per_record if n)}


_VIEW_FIELDS = ("status", "reason_code", "reason", "record", "source", "model", "model_as_given", "condition_key",
                "item_id", "layer", "metrics", "owed", "file")
_TARGET_VIEW_FIELDS = ("investor", "topology", "card", "status", "reason_code", "metrics", "owed")


def _tool_version() -> str:
    from importlib import metadata

    try:
        return metadata.version("ipb")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from an uninstalled tree
        return "0+unknown"


def summarize(
    records: Sequence[Mapping[str, Any]],
    *,
    options: Any = None,
    inputs: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``summary.json`` document for a run's result records.

    Parameters
    ----------
    records : sequence of dict
        As :func:`ipb.scoring.run.score_records` returns them.
    options : ScoreOptions, optional
        Seed, resamples and confidence of the intervals (and what is
        recorded under ``options``).
    inputs : mapping, optional
        Where the items and responses came from (copied into the summary).

    Returns
    -------
    dict
        See the module docstring and ``grammar/summary.schema.json``.
    """
    from ipb.scoring.run import RESULT_VERSION, SUMMARY_KIND, ScoreOptions, summary_metric_names

    options = options or ScoreOptions()
    count = getattr(options, "failures", "count") == "count"
    names = summary_metric_names()
    response_units: dict[str, dict[str, list[_Unit]]] = {d: defaultdict(list) for d in DIMENSIONS}
    has_corruptions = any(r.get("corruptions") is not None for r in records)
    all_units: list[_Unit] = []
    for r in records:
        unit = _response_unit(r, count)
        all_units.append(unit)
        response_units["overall"]["all"].append(unit)
        response_units["model"][str(r.get("model") or "(none)")].append(unit)
        response_units["condition"][str(r.get("condition_key") or "(none)")].append(unit)
        if r.get("layer"):
            response_units["layer"][str(r["layer"])].append(unit)
        if has_corruptions:
            response_units["corruption"][_corruption_label(r) or "(none)"].append(unit)
        for t in r.get("targets") or ():
            tunit = _target_unit(r, t, count)
            for dim, field in (("investor", "investor"), ("topology", "topology"), ("card", "card")):
                if t.get(field):
                    response_units[dim][str(t[field])].append(tunit)
    groups: dict[str, Any] = {}
    known: dict[tuple[int, ...], dict[str, Any]] = {}

    def stats_of(units: list[_Unit]) -> dict[str, Any]:
        # groups of the very same units (one model: overall, model and condition; one layer: layer too) have the
        # same entry: computed once, copied for the others
        key = tuple(map(id, units))
        if key not in known:
            known[key] = _group_stats(units, names, options)
            return known[key]
        return copy.deepcopy(known[key])

    for dim in DIMENSIONS:
        if dim == "corruption" and not has_corruptions:
            continue
        groups[dim] = {k: stats_of(v) for k, v in sorted(response_units[dim].items())}
    _mark_unanswered_items(groups.get("model") or {},
                           # a run error was asked (it is owed through n_run_errors): its item is not unanswered too
                           [r for r, u in zip(records, all_units) if u.outcome != "unusable" or u.run_error],
                           (inputs or {}).get("items"))
    by_model_layer: dict[str, Any] = {}
    cells: dict[tuple[str, str], list[_Unit]] = defaultdict(list)
    for r, u in zip(records, all_units):
        if r.get("layer"):
            cells[(str(r.get("model") or "(none)"), str(r["layer"]))].append(u)
    for (model, layer), units in sorted(cells.items()):
        scored = [u for u in units if u.status == "scored"]
        failed = [u for u in units if u.failed]
        row = {}
        for metric in HEADLINE_METRICS:
            vals = [float(u.values[metric]) for u in units if u.values.get(metric) is not None]
            ci = mean_ci(vals, n_resamples=options.n_resamples, seed=options.seed, confidence=options.confidence)
            if ci is not None:
                ci["n_failures"] = sum(1 for u in failed if u.values.get(metric) is not None)
            row[metric] = ci
        n_run_errors = sum(1 for u in units if u.run_error)
        by_model_layer.setdefault(model, {})[layer] = {"n": len(units), "n_scored": len(scored),
                                                       "n_failures": len(failed),
                                                       "coverage": _coverage(len(scored), len(failed) + n_run_errors),
                                                       "metrics": row}
    conditions = sorted({u.key[1] for u in all_units if u.values and u.key[1] in ("A", "B", "C")})
    deltas: dict[str, Any] | None = None
    if len(conditions) >= 2:
        by_model: dict[str, list[_Unit]] = defaultdict(list)
        for u in all_units:
            by_model[str(u.key[0] or "(none)")].append(u)
        deltas = {
            "conditions": conditions,
            "paired_by": "item (mean over a model's epochs and corruptions of the item in each condition)",
            "metrics": list(DELTA_METRICS),
            "by_model": {m: _deltas_for(us, options) for m, us in sorted(by_model.items())},
            "all_models": _deltas_for(all_units, options),
        }
    reasons = Counter(str(r.get("reason_code")) for r in records if r.get("status") != "scored")
    outcomes = Counter(u.outcome for u in all_units)
    n_scored = sum(1 for r in records if r.get("status") == "scored")
    errors = [
        {"record": r.get("record"), "source": r.get("source"), "item_id": r.get("item_id"), "model": r.get("model"),
         "reason_code": r.get("reason_code"), "reason": r.get("reason"),
         **({"file": r["file"]} if "file" in r else {})}  # several responses files: which one (1-based)
        for r in records if r.get("status") != "scored"
    ]
    return {
        "version": RESULT_VERSION,
        "kind": SUMMARY_KIND,
        "tool": {"name": "ipb", "version": _tool_version()},
        "options": options.describe(),
        "inputs": dict(inputs or {}),
        "counts": {
            "records": len(records),
            "scored": n_scored,
            "scored_trace_unread": sum(1 for u in all_units if u.unread),
            "unscored": len(records) - n_scored,
            "parse_failures": outcomes["parse_failure"],
            "refusals": outcomes["refusal"],
            "invalid": outcomes["unusable"],
            "run_errors": (n_run_errors := sum(1 for u in all_units if u.run_error)),
            "coverage": _coverage(n_scored, outcomes["parse_failure"] + outcomes["refusal"] + n_run_errors),
            "by_reason": dict(sorted(reasons.items())),
            **({"review": _review_counts(records, options.min_confidence)} if options.min_confidence is not None else {}),
        },
        "failures": {
            "policy": "count" if count else "exclude",
            "note": (FAILURES_COUNTED if count else FAILURES_EXCLUDED) + TRACE_UNREAD_NOTE,
        },
        "metrics": names,
        "failure_modes": list(FM_NAMES),
        "groups": groups,
        "by_model_layer": by_model_layer,
        "deltas": deltas,
        "unscored": errors,
    }


def _mark_unanswered_items(model_groups: dict[str, Any], records: Sequence[Mapping[str, Any]], items: Any) -> None:
    """Add ``n_items_unanswered`` and ``n_items`` to each model group that has no record for some of the items file's items.

    An item with no record from a model is no run error (nothing says it was asked), so it stays out of that model's
    means; :func:`leaderboard` ranks it as a 0 (s47user: a model answering 8 of 40 items showed coverage 100% and
    ranked as if it had answered all). It counts against coverage too (stop 48): the group's ``coverage`` becomes the
    share of the units it owed that were scored, an unanswered item owing as many units as the model's answered items
    do on average, i.e. ``coverage_of_asked * (n_items - n_items_unanswered) / n_items``; ``coverage_of_asked`` keeps
    the share of the units it was asked. Items are counted by id over all conditions; ``records`` are the usable ones
    (a record that could not be matched to an item answers none; the caller leaves those out).

    >>> g = {"a": {"n": 1, "coverage": 1.0}, "b": {"n": 2, "coverage": 0.5}}
    >>> recs = [{"model": "a", "item_id": "x"}, {"model": "b", "item_id": "x"}, {"model": "b", "item_id": "y"}]
    >>> _mark_unanswered_items(g, recs, {"n_items": 2}); g["a"], g["b"]
    ({'n': 1, 'coverage': 0.5, 'n_items_unanswered': 1, 'n_items': 2, 'coverage_of_asked': 1.0}, {'n': 2, 'coverage': 0.5})
    """
    n_items = items.get("n_items") if isinstance(items, Mapping) else None
    if not isinstance(n_items, int) or n_items < 1:
        return
    answered: dict[str, set[str]] = defaultdict(set)
    for r in records:
        if r.get("item_id") is not None:
            answered[str(r.get("model") or "(none)")].add(str(r["item_id"]))
    for model, group in model_groups.items():
        missing = n_items - len(answered.get(model, ()))
        if missing > 0:
            group["n_items_unanswered"] = missing
            group["n_items"] = n_items
            asked = group.get("coverage")
            if isinstance(asked, (int, float)):
                group["coverage_of_asked"] = asked
                group["coverage"] = asked * (n_items - missing) / n_items


def basp_gate_failures(records: Iterable[Mapping[str, Any]] | None, top: int = 3) -> dict[str, list[tuple[str, float]]]:
    """Per model, the BASP-strict gates (paper §7.15) its scored targets fail most, as shares of those targets.

    A target is one gold card an answer is scored on (an L8 answer has several), so a share is failed targets over
    scored targets, not over answers. A new user's answers, every gate and verdict right, showed conj. 0.000 and
    BASP-strict 0.708 with nothing on the terminal saying why: none named a source, so the SAP gate failed on every
    one (s34user); ``ipb score`` prints these shares under the leaderboard.

    Parameters
    ----------
    records : the scored records (``responses.jsonl`` rows); each scored target's ``basp_strict.gates`` is read.
        Records and targets that are not dicts, targets not scored or with no gate list are skipped; a gate listed
        twice in one target fails it once; a not-applicable gate
        (``passed`` None) is not a failure.
    top : at most this many gates per model, most failed first (ties by name).

    Returns
    -------
    ``{model: [(metric, share), ...]}``, models sorted by name; a model whose targets fail no gate is left out.

    Examples
    --------
    >>> rec = {"model": "m", "targets": [{"status": "scored", "basp_strict": {"gates": [
    ...     {"metric": "sap", "passed": False}, {"metric": "gra", "passed": True}, {"metric": "ivp", "passed": None}]}}]}
    >>> basp_gate_failures([rec, {**rec, "targets": [{"status": "scored", "basp_strict": {"gates": [
    ...     {"metric": "sap", "passed": False}, {"metric": "gra", "passed": False}]}}]}])
    {'m': [('sap', 1.0), ('gra', 0.5)]}
    """
    failed: dict[str, Counter[str]] = {}
    scored: Counter[str] = Counter()
    for r in records or ():
        if not isinstance(r, Mapping):
            continue
        for t in r.get("targets") or ():
            if not isinstance(t, Mapping) or t.get("status") != "scored":
                continue
            strict = t.get("basp_strict")
            gates = strict.get("gates") if isinstance(strict, Mapping) else None
            if not isinstance(gates, list):
                continue
            model = str(r.get("model"))
            scored[model] += 1
            mine = failed.setdefault(model, Counter())
            # a gate listed twice fails its target once: a share never passes 1.0
            mine.update({str(g.get("metric")) for g in gates if isinstance(g, Mapping) and g.get("passed") is False})
    return {m: sorted(((k, n / scored[m]) for k, n in gates.items()), key=lambda kv: (-kv[1], kv[0]))[:top]
            for m, gates in sorted(failed.items()) if gates}
