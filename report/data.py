"""The report's view model, and the adapter that fills it from a results folder.

:mod:`ipb.report.html` renders a :class:`ReportData`; it never reads
``summary.json`` or ``responses.jsonl`` itself. Everything that knows the
layout of those files lives in :func:`load_results` and its helpers below, so
a change of the results format changes this module only.

Every number the report shows is a :class:`Stat` that carries the JSON
pointer (RFC 6901) of the value it was read from (``src``), so the report can
name the source of each figure and a test can check each one against the
file. A number the report derives itself (a breakdown the summary does not
hold, such as model x topology GRA) carries ``src=None``, a ``derived``
recipe and a ``note``; it is computed by
:func:`ipb.scoring.summary.subgroup_stats`, the function the summary's own
groups come from, so refusals and parse failures count in it exactly as they
do in ``summary.json`` (the summary's ``failures.policy``).

Inputs (``ipb score --out DIR``)
--------------------------------
``DIR/summary.json``
    aggregates with bootstrap CIs (``grammar/summary.schema.json``);
``DIR/responses.jsonl``
    one scored record per response (``grammar/score_record.schema.json``):
    the parsed trace of each target card, with the character span of every
    extraction, metric values and failure-mode flags.

The drill-down also needs what those files only name: the response texts
(read back from the responses file that was scored, through
:func:`ipb.scoring.adapters.read_responses`, and checked against each
record's ``response_sha256``) and the gold programs (from the items file,
:func:`ipb.scoring.run.load_items`). Their paths come from the summary's
``inputs`` block, or from the caller; when a file cannot be found the
drill-down still shows the parsed traces and says what is missing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping, Sequence

from ipb._files import text_sha256
from ipb.errors import LoadError
from ipb.report._captions import (FAILURE_RULE_LINK, FLAG_RULE, FM5_RULE, UNREAD_FLAG_RULE, _extractor_notes,
                                  _option_notes,
                                  failure_rule, failure_rule_in_full)
from ipb.report._read import _check_pair, _read_json, _read_records
from ipb.report.failures import FailureCounts, failure_counts, int_or_none as _i

__all__ = [
    "Stat",
    "LeaderRow",
    "Grid",
    "ConditionRow",
    "Profile",
    "GateRow",
    "ResponseView",
    "ReportData",
    "load_results",
    "json_pointer",
    "resolve_pointer",
    "failure_rule",
    "failure_rule_in_full",
    "FAILURE_RULE_LINK",
]


def json_pointer(*parts: Any) -> str:
    """The RFC 6901 pointer of a path of keys and indices.

    >>> json_pointer("by_model", "gpt/x~1", "w1_composite", "mean")
    '/by_model/gpt~1x~01/w1_composite/mean'
    """
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def resolve_pointer(document: Any, pointer: str) -> Any:
    """The value at ``pointer`` in ``document``.

    Raises
    ------
    KeyError
        No value there.

    >>> resolve_pointer({"a": [{"b/c": 1}]}, "/a/0/b~1c")
    1
    """
    if pointer == "":
        return document
    value = document
    for raw in pointer.split("/")[1:]:
        key = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(value, list):
            value = value[int(key)]
        elif isinstance(value, Mapping):
            value = value[key]
        else:
            raise KeyError(pointer)
    return value


@dataclass(frozen=True)
class Stat:
    """One reported number: ``value`` with its bootstrap interval and sample size.

    ``src``, ``src_low`` and ``src_high`` are JSON pointers into
    ``summary.json`` (or, with ``file="responses.jsonl"``, into the record on
    line ``line``). A value the summary does not hold is ``derived`` from the
    records instead: ``derived`` says how (which records, which metric), so
    that it can be recomputed; ``src`` is then None. ``kind`` says how to
    print it: ``score`` (0.906), ``rate`` (77.1%), ``delta`` (+0.073) or
    ``count``.
    """

    value: float | None
    low: float | None = None
    high: float | None = None
    n: int | None = None
    src: str | None = None
    src_low: str | None = None
    src_high: str | None = None
    kind: str = "score"
    file: str = "summary.json"
    line: int | None = None
    note: str | None = None
    derived: Mapping[str, Any] | None = None
    total: int | None = None  # N of "n of N": the units of the group the mean is over

    @property
    def missing(self) -> bool:
        return self.value is None


@dataclass(frozen=True)
class LeaderRow:
    """One model's leaderboard row (paper §8.7; Figure 6)."""

    model: str
    basp: Stat
    strict: Stat
    gra_l4: Stat
    gra_l7: Stat
    verdict_acc: Stat
    parse_failure: Stat
    n_records: Stat
    coverage: Stat = field(default_factory=lambda: Stat(None, kind="rate"))
    rank: Stat = field(default_factory=lambda: Stat(None))  # the value it is ranked by (ipb score's "ranked on")
    failures: FailureCounts | None = None  # its refusals by kind, unreadable answers and unknowns (s51report)


@dataclass(frozen=True)
class Grid:
    """A table of Stats: ``rows`` x ``columns`` (usually models), with optional row notes and ``n``."""

    title: str
    rows: list[str]
    columns: list[str]
    cells: dict[tuple[str, str], Stat]
    row_labels: dict[str, str] = field(default_factory=dict)
    caption: str = ""

    def get(self, row: str, column: str) -> Stat:
        return self.cells.get((row, column), Stat(None))


@dataclass(frozen=True)
class ConditionRow:
    """Table 14: one model and subset across conditions A/B/C and the §7.2 deltas."""

    model: str
    subset: str
    a: Stat
    b: Stat
    c: Stat
    knowledge_gap: Stat  # C - A
    rag_minus_oracle: Stat  # B - C
    application_gap: Stat  # 1 - C


@dataclass(frozen=True)
class Profile:
    """Appendix D.2: one model's radar axes and FMDP flag-rate vector."""

    model: str
    axes: list[tuple[str, Stat]]
    flags: list[tuple[str, str, Stat]]  # (FM-k, name, rate)


@dataclass(frozen=True)
class GateRow:
    """One line of the drill-down: a gold gate and what the response said about it.

    ``gold_verdict`` is None for a gate the card lacks (an invented gate);
    ``said_verdict`` is None when the response does not address the gate.
    ``elements`` are ``(text, state)``: a gold required element ``found`` or
    ``missing`` in the response, or an element the response stated with
    other values (``extra``). ``spans`` are ``(kind, start, end)`` character
    offsets into the response text (kind ``mention``, ``verdict``,
    ``element`` or ``invented``). ``state`` is ``match``, ``partial`` (right
    verdict, elements missing; or a verdict stated for a gate the chain
    never reached) or ``mismatch`` (wrong or missing verdict, invented gate).
    """

    number: int | None
    name: str
    gold_verdict: str | None
    said_verdict: str | None
    elements: list[tuple[str, str]]
    kill: str | None
    spans: list[tuple[str, int, int]]
    state: str
    how: str | None = None
    order: int | None = None  # position at which the response addressed it (1-based)


@dataclass(frozen=True)
class ResponseView:
    """A response for the drill-down: metadata, text, and per target card the aligned trace."""

    key: str
    line: int | None
    item_id: str | None
    model: str | None
    condition: str | None
    layer: str | None
    status: str
    reason: str | None
    text: str | None
    text_note: str | None
    targets: list[dict[str, Any]]
    metrics: dict[str, Stat]
    flags: dict[str, bool | None]
    corruptions: list[str]
    outcome: str | None = None
    question: str | None = None
    messages: list[dict[str, str]] | None = None
    messages_note: str | None = None
    why: dict[str, str] = field(default_factory=dict)
    #: Where the answer was read: ``FILE:LINE`` or ``FILE:samples/ID_epoch_N.json`` (the record's ``source``).
    source: str | None = None


@dataclass
class ReportData:
    """Everything the report shows, already read and checked."""

    title: str
    source: str
    version: Any
    models: list[str]
    leaderboard: list[LeaderRow]
    layers: Grid | None
    l4: Grid | None
    fmdp: Grid | None
    investor_ivp: Grid | None
    topology_gra: Grid | None
    conditions: list[ConditionRow]
    profiles: list[Profile]
    responses: list[ResponseView]
    notes: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    generated: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    #: The summary's ``failures.policy``: ``count`` (refusals and parse failures scored 0) or ``exclude``.
    policy: str = "exclude"


# =========================================================================== the adapter


def load_results(
    results_dir: str | Path,
    *,
    items: str | Path | None = None,
    responses: str | Path | Sequence[str | Path] | None = None,
    max_responses: int | None = None,
    title: str | None = None,
    generated: str | None = None,
) -> ReportData:
    """Read ``results_dir`` (what ``ipb score --out`` wrote) into a :class:`ReportData`.

    Parameters
    ----------
    results_dir : path
        Holds ``summary.json`` and ``responses.jsonl``.
    items, responses : path, optional
        The items file and the responses file that were scored (default:
        the paths the summary records, tried as given, then relative to
        ``results_dir`` and its parent). When the run scored several
        responses files, ``responses`` is a list of them in the order scored.
    max_responses : int, optional
        Keep at most this many responses in the drill-down (the first
        ones); None keeps all.
    title, generated : str, optional
        Report title; a timestamp or label to print (nothing by default,
        so that the same results give the same report).

    Raises
    ------
    LoadError
        ``summary.json`` or ``responses.jsonl`` is missing or unreadable, or
        the summary has a format version this report does not know.
    """
    folder = Path(results_dir)
    summary = _read_json(folder / "summary.json")
    records = _read_records(folder / "responses.jsonl")
    return _build(summary, records, folder, items=items, responses=responses, max_responses=max_responses,
                  title=title, generated=generated)


#: ``summary.json`` format versions this adapter reads.
KNOWN_SUMMARY_VERSIONS = (1,)
#: The radar axes of Appendix D.2: (label, metric in the summary).
RADAR_AXES = (("OGRS_k", "ogrs_k"), ("KCCS", "kccs"), ("SAP@3", "sap@3"), ("IVP", "ivp"), ("CKCA", "ckca"))
#: Table 13 columns: (label, metric, kind); FM-3 is the model's all-layer flag rate, as in the paper.
L4_COLUMNS = (("OGRS", "ogrs"), ("OGRS_k", "ogrs_k"), ("KCCS", "kccs"), ("SAP@3", "sap@3"), ("IVP", "ivp"),
              ("CKCA", "ckca"), ("BASP", "layer_composite"), ("GRA", "gra"))
#: The composite the leaderboard, Table 11 and Table 14 report.
COMPOSITE = "layer_composite"
LAYERS = tuple(f"L{i}" for i in range(1, 9))
TOPOLOGIES = ("linear_sequential", "parallel_threshold", "conditional_branch")


class _Summary:
    """Typed reads from ``summary.json``: every Stat remembers its pointer."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        failures: Mapping[str, Any] = doc["failures"] if isinstance(doc.get("failures"), Mapping) else {}
        #: ``count``, ``exclude``, or ``exclude`` for a summary written before failures counted.
        self.policy = str(failures.get("policy") or "exclude")

    def at(self, *path: Any) -> Any:
        try:
            return resolve_pointer(self.doc, json_pointer(*path))
        except (KeyError, IndexError, ValueError, TypeError):
            return None

    def mean(self, *path: Any, kind: str = "score") -> Stat | None:
        """A ``{"mean", "low", "high", "n"}`` entry at ``path``, or None when absent or null."""
        entry = self.at(*path)
        if not isinstance(entry, Mapping) or entry.get("mean") is None:
            return None
        p = json_pointer(*path)
        n = _i(entry.get("n"))
        total = None
        if len(path) >= 2 and path[-2] == "metrics":
            total = _i(self.at(*path[:-2], "n"))
        failures = _i(entry.get("n_failures")) or 0
        note = _mean_note(n or 0, total, failures, self.policy) if total is not None else None
        return Stat(_f(entry.get("mean")), _f(entry.get("low")), _f(entry.get("high")), n,
                    p + "/mean", p + "/low", p + "/high", kind, note=note, total=total)

    def rate(self, *path: Any) -> Stat | None:
        """A flag entry ``{"rate", "low", "high", "n_applicable"}``."""
        entry = self.at(*path)
        if not isinstance(entry, Mapping) or entry.get("rate") is None:
            return None
        p = json_pointer(*path)
        return Stat(_f(entry.get("rate")), _f(entry.get("low")), _f(entry.get("high")), _i(entry.get("n_applicable")),
                    p + "/rate", p + "/low", p + "/high", "rate")

    def estimate(self, *path: Any, kind: str = "delta") -> Stat | None:
        """A delta entry ``{"estimate", "low", "high", "n"}``."""
        entry = self.at(*path)
        if not isinstance(entry, Mapping) or entry.get("estimate") is None:
            return None
        p = json_pointer(*path)
        return Stat(_f(entry.get("estimate")), _f(entry.get("low")), _f(entry.get("high")), _i(entry.get("n")),
                    p + "/estimate", p + "/low", p + "/high", kind)

    def count(self, *path: Any) -> Stat:
        value = self.at(*path)
        return Stat(_f(value) if isinstance(value, (int, float)) else None, src=json_pointer(*path), kind="count")


def _f(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


class _Derive:
    """Means (with the summary's bootstrap) of what the summary does not break down, from the records.

    ``derived`` on each Stat is the recipe: ``level`` (``response`` or
    ``target``), ``where`` (field -> value the records must have),
    ``metric`` and ``failures`` (the summary's policy). The figure is
    :func:`ipb.scoring.summary.subgroup_stats`, the function
    ``summary.json``'s own groups come from, with the summary's seed,
    resamples, confidence and failure rule: under ``count`` each refusal and
    parse failure is in the mean with the value it was owed (0; NED 1,
    tau -1), exactly as in the summary's columns beside it.
    """

    def __init__(self, records: list[tuple[int, dict[str, Any]]], options: Mapping[str, Any],
                 policy: str = "count") -> None:
        from types import SimpleNamespace

        self.records = [r for _, r in records]
        self.policy = policy
        self.options = SimpleNamespace(
            seed=int(options.get("seed", 0) or 0),
            n_resamples=int(options.get("n_resamples", 2000) or 2000),
            confidence=float(options.get("confidence", 0.95) or 0.95),
            failures=policy,
        )

    def mean(self, level: str, where: Mapping[str, Any], metric: str, kind: str = "score") -> Stat:
        from ipb.scoring.summary import subgroup_stats

        group = subgroup_stats(self.records, [metric], level=level, where=where, options=self.options)
        ci = group["metrics"].get(metric)
        recipe = {"level": level, "where": dict(where), "metric": metric, "failures": self.policy}
        if ci is None:
            return Stat(None, kind=kind, file="responses.jsonl", derived=recipe, note=_recipe_note(recipe))
        total = int(group["n"])
        note = _recipe_note(recipe) + "; " + _mean_note(int(ci["n"]), total, int(ci.get("n_failures") or 0),
                                                        self.policy)
        return Stat(float(ci["mean"]), float(ci["low"]), float(ci["high"]), int(ci["n"]), kind=kind,
                    file="responses.jsonl", derived=recipe, note=note, total=total)

    def share(self, numerator: int, denominator: int, recipe: Mapping[str, Any]) -> Stat:
        """A rate k/n with the bootstrap interval of a mean of k ones and n-k zeros."""
        from ipb.scoring.summary import mean_ci

        if denominator <= 0:
            return Stat(None, kind="rate", file="summary.json", derived=dict(recipe), note=_recipe_note(recipe))
        ci = mean_ci([1.0] * numerator + [0.0] * (denominator - numerator), n_resamples=self.options.n_resamples,
                     seed=self.options.seed, confidence=self.options.confidence)
        assert ci is not None
        return Stat(float(ci["mean"]), float(ci["low"]), float(ci["high"]), denominator, kind="rate",
                    file="summary.json", derived=dict(recipe), note=_recipe_note(recipe))


def _of_total(stat: Stat | None, total: int | None) -> Stat | None:
    """``stat`` with ``total``, the N of its "n of N" (the responses of its group), where both are known."""
    return replace(stat, total=total) if stat is not None and total is not None else stat


def _mean_note(n: int, total: int, failures: int, policy: str) -> str:
    """How a mean treats failures, said beside the figure (the project's rule: a failure must not be invisible)."""
    if policy == "count":
        return f"mean over {n} of {total} responses; {failures} of them refusals or parse failures scored 0"
    return f"mean over {n} of {total} responses; refusals and parse failures left out (--exclude-failures)"


def _recipe_note(recipe: Mapping[str, Any]) -> str:
    if "numerator" in recipe:
        return f"derived: {recipe['numerator']} / ({recipe['denominator']}), bootstrap CI as the summary's"
    where = ", ".join(f"{k} = {v}" for k, v in recipe["where"].items())
    return (f"derived from responses.jsonl as summary.json's groups are: mean {recipe['metric']} over the "
            f"{recipe['level']}s with {where}")


def _build(summary: dict[str, Any], records: list[tuple[int, dict[str, Any]]], folder: Path, *,
           items: str | Path | None, responses: str | Path | Sequence[str | Path] | None, max_responses: int | None,
           title: str | None, generated: str | None) -> ReportData:
    version = summary.get("version")
    if version not in KNOWN_SUMMARY_VERSIONS:
        raise LoadError(f"{folder / 'summary.json'} has format version {version!r}; this report reads version(s) "
                        f"{', '.join(map(str, KNOWN_SUMMARY_VERSIONS))}", file=str(folder / "summary.json"),
                        rule="version")
    _validate(summary, folder / "summary.json")
    _check_pair(summary, records, folder)
    s = _Summary(summary)
    options = _mapping(summary.get("options"))
    derive = _Derive(records, options, s.policy)
    model_groups = s.at("groups", "model") or {}
    models = sorted(str(m) for m in model_groups)

    leader = [_leader_row(s, derive, m) for m in models]
    # the order of ipb score's leaderboard (scoring.summary.leaderboard): on equal means the model that answered
    # more ranks first, before BASP-strict (a mean over the answered items too) and never by its name (a refuser
    # tied a right model under --exclude-failures: s34break by name, s43user by BASP-strict over its subset)
    # items the run never answered rank as 0 (mean * n / (n + n_run_errors)), the mean shown stays over the answered
    # ones: a run that failed never outranks one that answered (break44 #7)
    # (and so does an item of the items file the model has no record for, s47user)
    # ipb score's own rows carry the value each is ranked by (scoring.summary.leaderboard, 8990b223): the report reads
    # it from there, so the two orders cannot drift apart through a second computation of it
    from ipb.scoring.summary import leaderboard as score_leaderboard

    score_rows = score_leaderboard(summary)
    rank_values = {str(row["model"]): row.get("rank_value") for row in score_rows}
    # the figure the rows rank on: the composite, or VerdictAcc where no model has one (s53newuser finding 1)
    rank_on = str((score_rows[0].get("rank_on") if score_rows else None) or COMPOSITE)
    # rows rank by the row's rank_value and a tie keeps ipb score's order: breaking it again here took an equal
    # composite by the BASP-strict conjunction rate (r.strict) where the terminal takes BASP-strict, so three models
    # with the same verdicts and no source named (conjunction 0 each) stood chatty, good, table on the page and good,
    # table, chatty on the terminal (s50user)
    score_order = {str(row["model"]): k for k, row in enumerate(score_rows)}

    def ranked(r: LeaderRow) -> float:
        value = rank_values.get(r.model)
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0

    def rank_stat(r: LeaderRow) -> Stat:
        group = s.at("groups", "model", r.model) or {}
        pointer = json_pointer("groups", "model", r.model)
        recipe: dict[str, Any] = {"rank": "mean x n / (n + n_failures_excluded + n_run_errors) x (n_items - "
                                          "n_items_unanswered) / n_items",
                                  "mean": f"{pointer}/metrics/{rank_on}/mean", "n": f"{pointer}/metrics/{rank_on}/n"}
        recipe.update({key: f"{pointer}/{key}" for key in ("n_run_errors", "n_items_unanswered", "n_items",
                                                           "n_failures_excluded")
                       if isinstance(group, Mapping) and key in group})
        value = rank_values.get(r.model)
        figure = ("the BASP composite" if rank_on == COMPOSITE else
                  f"{rank_on} (no model has a composite: see the note on it under the leaderboard)")
        note = (f"the value this row is ranked by: {figure} with every item the model was asked and never "
                "answered (run errors) and every item of the items file it has no response to counted as 0; "
                + ("refusals and parse failures are in it at 0" if s.policy == "count" else "refusals and parse "
                   "failures are in it at 0 too, though --exclude-failures leaves them out of the means shown"))
        return Stat(float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None,
                    derived=recipe, note=note)

    leader = [replace(r, rank=rank_stat(r)) for r in leader]
    leader.sort(key=lambda r: (r.basp.value is None, -ranked(r), score_order.get(r.model, len(score_order)), r.model))
    models = [r.model for r in leader]

    by_layer = s.at("by_model_layer") or {}
    present = sorted({str(layer) for m in by_layer.values() if isinstance(m, Mapping) for layer in m},
                     key=_layer_key)
    layers = None
    if present:
        cells = {}
        for m in models:
            for layer in present:
                cells[(layer, m)] = s.mean("by_model_layer", m, layer, "metrics", COMPOSITE) or Stat(None)
            cells[("Overall", m)] = s.mean("groups", "model", m, "metrics", COMPOSITE) or Stat(None)
        layers = Grid("BASP composite by layer", present + ["Overall"], models, cells,
                      {layer: _LAYER_NAMES.get(layer, layer) for layer in present},
                      "Mean §7.13 layer composite of each model's responses per cognitive layer, with "
                      "bootstrap 95% CIs (Table 11 layout; the layer's own weights, renormalised over the "
                      "components that apply). " + failure_rule(s.policy))

    l4 = None
    if any(isinstance(by_layer.get(m), Mapping) and "L4" in by_layer[m] for m in models):
        cols = ["n (L4)"] + [label for label, _ in L4_COLUMNS] + ["FM-3 rate"]
        cells = {}
        rows = [m for m in models if isinstance(by_layer.get(m), Mapping) and "L4" in by_layer[m]]
        for m in rows:
            cells[(m, "n (L4)")] = s.count("by_model_layer", m, "L4", "n")
            for label, metric in L4_COLUMNS:
                cells[(m, label)] = (s.mean("by_model_layer", m, "L4", "metrics", metric)
                                     or derive.mean("response", {"model": m, "layer": "L4"}, metric))
            cells[(m, "FM-3 rate")] = s.rate("groups", "model", m, "flags", "FM-3") or Stat(None, kind="rate")
        l4 = Grid("L4 sub-metrics", rows, cols, cells, {},
                  "Framework reconstruction (L4) items: mean of each BASP sub-metric, the L4 composite and GRA, "
                  "with bootstrap 95% CIs. FM-3 rate is the model's rate over all layers (as in paper Table 13). "
                  + failure_rule(s.policy) + " " + FLAG_RULE)

    fm_names = _fm_names()
    unread = {m: int(s.at("groups", "model", m, "n_trace_unread") or 0) for m in models}
    # s61 new user N13: each rate also says of how many of the model's responses it is ("n 1 of 5", as the other
    # tables' means do), so a model whose failures are left out does not show a bare 0.0%
    model_n = {m: _i(s.at("groups", "model", m, "n")) for m in models}
    fmdp = Grid("FMDP", list(fm_names), models,
                {(fm, m): _of_total(s.rate("groups", "model", m, "flags", fm), model_n[m]) or Stat(
                    None, kind="rate", note=UNREAD_FLAG_RULE if unread[m] else None)
                 for fm in fm_names for m in models},
                {fm: f"{fm}: {name}" for fm, name in fm_names.items()},
                "Share of each model's scored responses the detector flagged, among those where it applies "
                "(§7.11), with bootstrap 95% CIs. " + FLAG_RULE + " " + FM5_RULE
                + (" " + UNREAD_FLAG_RULE if any(unread.values()) else "")) if models else None

    investors = sorted(str(i) for i in (s.at("groups", "investor") or {}))
    ivp_cells: dict[tuple[str, str], Stat] = {}
    for inv in investors:
        for m in models:
            ivp_cells[(inv, m)] = derive.mean("target", {"model": m, "investor": inv}, "ivp")
        ivp_cells[(inv, "all models")] = s.mean("groups", "investor", inv, "metrics", "ivp") or Stat(None)
    ivp_rows = [inv for inv in investors if any(ivp_cells[(inv, c)].value is not None for c in models + ["all models"])]
    investor_ivp = Grid("IVP", ivp_rows, models + ["all models"], ivp_cells, {},
                        "Investor voice precision (§7.9) of the responses about each investor's cards, with bootstrap "
                        "95% CIs; every cell, per model and over all models, is computed as summary.json's groups "
                        "are. " + failure_rule(s.policy)) if ivp_rows else None

    topologies = sorted((str(t) for t in (s.at("groups", "topology") or {})), key=_topology_key)
    topo_cells: dict[tuple[str, str], Stat] = {}
    for t in topologies:
        for m in models:
            topo_cells[(t, m)] = derive.mean("target", {"model": m, "topology": t}, "gra")
        topo_cells[(t, "all models")] = s.mean("groups", "topology", t, "metrics", "gra") or Stat(None)
    topology_gra = Grid("GRA by topology", topologies, models + ["all models"], topo_cells, {},
                        "Gate reconstruction accuracy (§7.15) by the framework topology of the card (Table 5), with "
                        "bootstrap 95% CIs: §10.4 predicts the largest drops on conditional_branch and "
                        "weighted-threshold frameworks. Every cell, per model and over all models, is computed as "
                        "summary.json's groups are. " + failure_rule(s.policy)) if topologies else None

    conditions = _conditions(s, derive, models)
    def axis_label(m: str, label: str, metric: str) -> str:
        # KCCS unknown on some answers (s49fair): said where the figure is shown, so its mean is read over the rest
        k = int(s.at("groups", "model", m, "n_kccs_unknown") or 0) if metric == "kccs" else 0
        return f"{label} (unknown on {k})" if k else label

    profiles = [
        Profile(m, [(axis_label(m, label, metric), s.mean("groups", "model", m, "metrics", metric) or Stat(None))
                    for label, metric in RADAR_AXES],
                [(fm, name, s.rate("groups", "model", m, "flags", fm) or Stat(None, kind="rate"))
                 for fm, name in fm_names.items()])
        for m in models
    ]

    notes: list[str] = []
    from ipb.report.drilldown import _responses

    views, drill_notes = _responses(summary, records, folder, items=items, responses=responses,
                                    max_responses=max_responses)
    notes += drill_notes
    notes += _option_notes(options, s.policy)
    notes += _extractor_notes(options, summary.get("extractor_agreement"))
    unknown = [(m, int(s.at("groups", "model", m, "n_kccs_unknown") or 0)) for m in models]
    if any(k for _, k in unknown):
        from ipb.scoring.summary import KCCS_UNKNOWN_NOTE

        notes.append(KCCS_UNKNOWN_NOTE + ": " + "; ".join(f"{m} {k}" for m, k in unknown if k)
                     + " (the profiles' KCCS axis says so too)")
    from ipb.scoring.summary import rank_note

    rank = rank_note(summary)
    if rank:
        notes.append(rank)
    counts = {}
    how = "scored 0" if s.policy == "count" else "left out of the means"
    for key, label in (("records", "responses"), ("scored", "scored"), ("refusals", f"refusals ({how})"),
                       ("parse_failures", f"parse failures ({how})"), ("invalid", "unusable records (never averaged)")):
        value = s.at("counts", key)
        if isinstance(value, int):
            counts[label] = value
    counts["models"] = len(models)
    threshold = review_threshold(s.doc)
    if threshold is not None:  # s63 new user E1: the routing score did, beside the counts it is part of
        review = s.at("counts", "review") or {}
        counts[f"readings below --min-confidence {threshold:g} routed to review (still scored)"] = \
            int(review.get("readings") or 0)
        counts["responses holding one"] = int(review.get("records") or 0)
    return ReportData(
        title=title or "ipb report",
        source=str(folder),
        version=version,
        models=models,
        leaderboard=leader,
        layers=layers,
        l4=l4,
        fmdp=fmdp,
        investor_ivp=investor_ivp,
        topology_gra=topology_gra,
        conditions=conditions,
        profiles=profiles,
        responses=views,
        notes=notes,
        counts=counts,
        generated=generated,
        options=dict(options),
        policy=s.policy,
    )


def review_threshold(summary: Mapping[str, Any]) -> float | None:
    """The run's ``--min-confidence`` (``counts.review.min_confidence``, else ``options.min_confidence``), or None
    when the run was scored without it.

    >>> review_threshold({"counts": {"review": {"min_confidence": 0.5, "readings": 3, "records": 2}}})
    0.5
    >>> review_threshold({"counts": {}, "options": {"min_confidence": None}}) is None
    True
    """
    counts = summary.get("counts")
    review = counts.get("review") if isinstance(counts, Mapping) else None
    value = review.get("min_confidence") if isinstance(review, Mapping) else None
    if value is None and isinstance(summary.get("options"), Mapping):
        value = summary["options"].get("min_confidence")
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _validate(summary: Mapping[str, Any], path: Path) -> None:
    """Check ``summary`` against ``grammar/summary.schema.json`` (when the package ships it)."""
    from importlib import resources

    import jsonschema

    try:
        text = resources.files("ipb.grammar").joinpath("summary.schema.json").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return
    validator = jsonschema.Draft202012Validator(json.loads(text))
    error = jsonschema.exceptions.best_match(validator.iter_errors(summary))
    if error is not None:
        where = json_pointer(*error.absolute_path) or "/"
        raise LoadError(f"{path} does not match the summary schema at {where}: {error.message}", file=str(path),
                        rule="schema", name=where)


_LAYER_NAMES = {
    "L1": "L1: Principle Identification",
    "L2": "L2: Source Attribution",
    "L3": "L3: Operationalization",
    "L4": "L4: Framework Reconstruction",
    "L5": "L5: Cross-Investor Comparison",
    "L6": "L6: Contradiction Recognition",
    "L7": "L7: Scenario Application",
    "L8": "L8: Novel Extrapolation",
}


def _layer_key(layer: str) -> tuple[int, str]:
    return (LAYERS.index(layer), layer) if layer in LAYERS else (len(LAYERS), layer)


def _topology_key(topology: str) -> tuple[int, str]:
    return (TOPOLOGIES.index(topology), topology) if topology in TOPOLOGIES else (len(TOPOLOGIES), topology)


def _fm_names() -> dict[str, str]:
    from ipb.scoring.fmdp import FM_NAMES

    return dict(FM_NAMES)


def _leader_row(s: _Summary, derive: _Derive, m: str) -> LeaderRow:
    group = s.at("groups", "model", m) or {}
    n = _i(group.get("n")) or 0
    invalid = _i(group.get("n_invalid")) or 0
    failures = _i(group.get("n_parse_failures")) or 0
    base = json_pointer("groups", "model", m)
    parse = s.rate("groups", "model", m, "parse_failure_rate") or derive.share(
        failures, n - invalid,
        {"numerator": base + "/n_parse_failures", "denominator": f"{base}/n - {base}/n_invalid"})
    return LeaderRow(
        model=m,
        basp=s.mean("groups", "model", m, "metrics", COMPOSITE) or Stat(None),
        strict=s.mean("groups", "model", m, "metrics", "basp_conjunction", kind="rate") or Stat(None, kind="rate"),
        gra_l4=s.mean("by_model_layer", m, "L4", "metrics", "gra") or Stat(None),
        gra_l7=s.mean("by_model_layer", m, "L7", "metrics", "gra") or Stat(None),
        verdict_acc=s.mean("groups", "model", m, "metrics", "verdict_acc") or Stat(None),
        parse_failure=parse,
        n_records=s.count("groups", "model", m, "n"),
        coverage=_coverage_stat(s, m),
        failures=failure_counts(m, s.at("groups", "model", m) or {}, s.at("unscored") or (), derive.records,
                                min_confidence=review_threshold(s.doc)),
    )


def _coverage_stat(s: _Summary, m: str) -> Stat:
    value = s.at("groups", "model", m, "coverage")
    if not isinstance(value, (int, float)):
        return Stat(None, kind="rate", note="this summary predates coverage (issue 14): rescore to see it")
    group = s.at("groups", "model", m) or {}
    failed = (_i(group.get("n_parse_failures")) or 0) + (_i(group.get("n_refusals")) or 0)
    note = f"scored {group.get('n_scored')} of {(_i(group.get('n_scored')) or 0) + failed} usable responses"
    missing, n_items = _i(group.get("n_items_unanswered")), _i(group.get("n_items"))
    if missing and n_items:
        note += f"; {missing} of the items file's {n_items} items have no response and count as not scored"
    return Stat(float(value), src=json_pointer("groups", "model", m, "coverage"), kind="rate", note=note)


def _conditions(s: _Summary, derive: _Derive, models: list[str]) -> list[ConditionRow]:
    deltas = s.at("deltas")
    if not isinstance(deltas, Mapping):
        return []
    rows: list[ConditionRow] = []
    for m in models:  # per model, as paper Table 14 (a pooled row would mix models answering one condition only)
        path: tuple[Any, ...] = ("deltas", "by_model", m)
        if not isinstance(s.at(*path), Mapping):
            continue
        per = {c: derive.mean("response", {"model": m, "condition_key": c}, COMPOSITE) for c in ("A", "B", "C")}
        if sum(1 for st in per.values() if st.value is not None) < 2:
            continue
        rows.append(ConditionRow(
            m, "all items", per["A"], per["B"], per["C"],
            s.estimate(*path, "C-A", COMPOSITE) or Stat(None, kind="delta"),
            s.estimate(*path, "B-C", COMPOSITE) or Stat(None, kind="delta"),
            s.estimate(*path, "1-C", COMPOSITE, kind="score") or Stat(None),
        ))
    return rows


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)
