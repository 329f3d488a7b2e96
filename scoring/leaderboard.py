"""The leaderboard ``ipb score`` prints and ``ipb report`` shows: its rows, their order and the notes under it.

Rows rank by one figure for every model (:func:`rank_metric`): the mean §7.13 layer composite, or, where no model
has one (an L6/L8 or L1-L3 run scored without a judge: GEval and FactAcc are judge scores, §7.12-§7.13), the
judge-free VerdictAcc (§7.13: binary accuracy of the final verdict). Ties go to coverage, then VerdictAcc, then
GRA (§7.15), then BASP-strict, and only then to the name, so a less correct model never ranks above a more correct
one on a tie of the figure shown (s53newuser finding 1).

References
----------
InvestPhilBench §7.13 (layer composites, VerdictAcc), §7.15 (BASP-strict, GRA), §8.7 and §11.9 (how a composite
is read).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

__all__ = [
    "LEADERBOARD_METRICS",
    "RANK_METRICS",
    "RANK_RULE",
    "KCCS_UNKNOWN_NOTE",
    "STRICT_NO_VERDICT",
    "rank_value",
    "rank_metric",
    "composite_note",
    "rank_note",
    "leaderboard",
]


def rank_value(mean: float | None, n: int, n_run_errors: int = 0, n_items_unanswered: int = 0,
               n_items: int = 0, n_failures_excluded: int = 0) -> float | None:
    """The value a model is ranked by: its mean composite with every item it failed or left unanswered counted as 0.

    ``mean`` is over ``n`` answered responses; ``n_run_errors`` responses were asked and never answered and
    ``n_failures_excluded`` refusals and parse failures were left out of the mean by ``--exclude-failures`` (both
    rank as 0 among the responses: ``mean * n / (n + n_failures_excluded + n_run_errors)``, break44 #7 and
    s54newuser finding 5, so the rank is the one failures counted at 0 give, whichever the policy); ``n_items_unanswered``
    of the items file's ``n_items`` items have no record at all (they rank as 0 among the items: times
    ``(n_items - k) / n_items``, s47user). A model whose every answer was a failure left out ranks at 0, not last
    with none. Models that all answered the same subset keep their order.

    >>> rank_value(1.0, 1, 0, 3, 4), rank_value(0.75, 4), rank_value(1.0, 1, 4), rank_value(None, 0)
    (0.25, 0.75, 0.2, None)

    s54newuser's hedger under ``--exclude-failures``: one answer at 0.27451, one refusal left out, 2 of 4 items with no
    record: 0.27451 x 1/2 x 2/4 = 0.0686..., what counting the refusal at 0 gives (not 0.27451 x 2/4 = 0.137):

    >>> round(rank_value(0.27451, 1, 0, 2, 4, n_failures_excluded=1), 4), rank_value(None, 0, 0, 2, 4, 2)
    (0.0686, 0.0)
    """
    if mean is None:
        return 0.0 if n_failures_excluded > 0 else None
    value = mean
    if n > 0 and (n_run_errors > 0 or n_failures_excluded > 0):
        value = value * n / (n + n_failures_excluded + n_run_errors)
    if n_items > 0 and 0 < n_items_unanswered <= n_items:
        value = value * (n_items - n_items_unanswered) / n_items
    return value


#: The figures a board may rank on, in order of preference (:func:`rank_metric`): the §7.13 layer composite, then
#: the judge-free VerdictAcc (final verdict accuracy), GRA and BASP-strict.
RANK_METRICS = ("layer_composite", "verdict_acc", "gra", "basp_strict")
#: After the figure ranked on and coverage, the correctness figures an equal value is broken by, before the name.
TIE_METRICS = ("verdict_acc", "gra", "basp_strict")
#: Each §7.13 component that needs more than ``ipb score`` computes on its own, and what supplies it.
NEEDS = {"geval_l8": "GEval_L8, a judge's score (ipb judge, §7.12)",
         "geval_l6": "GEval_L6, a judge's score (ipb judge, §7.12)",
         "fact_acc": "FactAcc, a judge's score (§7.13)",
         "ivp_micro": "IVP_micro, embeddings (§7.9; off under --no-embeddings)"}


def _mean(row: Mapping[str, Any], name: str) -> float:
    """The row's mean of metric ``name``, 0.0 where it has none (a tie key)."""
    stat = row.get(name) or {}
    value = stat.get("mean") if isinstance(stat, Mapping) else None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def rank_metric(rows: Sequence[Mapping[str, Any]]) -> str | None:
    """The figure every row of a board is ranked on: the first of :data:`RANK_METRICS` that some row has a mean of.

    One figure for all rows, so the values compare: the layer composite wherever any model has one; with none (an
    L8 run without a judge: the L8 composite is 0.65 GEval_L8 + 0.35 IVP_micro, §7.13, both beyond ``ipb score``
    alone) the judge-free VerdictAcc, so a wrong final verdict ranks below a right one (s53newuser finding 1).
    None when no row has any of them.

    >>> stat = lambda v: {"mean": v, "low": v, "high": v, "n": 1}
    >>> rank_metric([{"layer_composite": None, "verdict_acc": stat(1.0)}, {"layer_composite": stat(0.5)}])
    'layer_composite'
    >>> rank_metric([{"layer_composite": None, "verdict_acc": stat(0.667), "basp_strict": stat(1.0)}])
    'verdict_acc'
    >>> rank_metric([{"model": "m"}]) is None
    True
    """
    for name in RANK_METRICS:
        if any(isinstance(r.get(name), Mapping) and r[name].get("mean") is not None for r in rows):
            return name
    return None


#: Columns of :func:`leaderboard` after model, n and coverage; ranked by the first.
LEADERBOARD_METRICS = ("layer_composite", "basp_strict", "basp_conjunction", "gra", "verdict_acc", "ogrs_k", "kccs")


def leaderboard(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per model, best first: the figures ``ipb score`` prints and the report's leaderboard shows.

    Each row: ``model``, ``n`` (responses), ``n_scored``, ``n_failures``
    (refusals and parse failures), ``coverage`` (share scored), ``rank_value``
    (the value it is ranked by, :func:`rank_value`), ``n_kccs_unknown`` (scored answers whose KCCS is unknown:
    a reached kill gate none of whose elements could be told in the answer's language) and, for each
    of :data:`LEADERBOARD_METRICS`, the group's ``mean_ci`` dict (or None).
    ``rank_on`` names the figure ranked on (:func:`rank_metric`: the layer composite, or VerdictAcc where no
    model has a composite); ``n_failures_excluded`` the refusals and parse failures ``--exclude-failures`` left out
    of that figure's mean (the group's ``n_failures_excluded`` of it; a summary written before s54 has no such count,
    and under that policy every refusal and parse failure of the model is taken as owed it). Rows are ranked by it (then coverage, then VerdictAcc, GRA and BASP-strict
    (:data:`TIE_METRICS`), then name: a model that answered fewer items never wins a tie, nor does a less
    correct one); a model with no value on it ranks last. Items the run asked and
    never answered (``n_run_errors``) are out of the mean shown but rank as 0, and so do refusals and parse failures
    left out of it (``--exclude-failures``): the rank reads ``mean * n / (n + n_failures_excluded + n_run_errors)``,
    so a run that failed never outranks one that answered, and a refusal is never credited at the model's own mean
    (s54newuser finding 5). Whether failures are in the means shown is the summary's ``failures.policy``; the rank
    is the same under both.

    Examples
    --------
    >>> s = {"groups": {"model": {"a": {"n": 2, "n_scored": 1, "n_parse_failures": 0, "n_refusals": 1,
    ...      "coverage": 0.5, "metrics": {"layer_composite": {"mean": 0.5, "low": 0.0, "high": 1.0, "n": 2}}},
    ...      "b": {"n": 2, "n_scored": 2, "n_parse_failures": 0, "n_refusals": 0, "coverage": 1.0,
    ...      "metrics": {"layer_composite": {"mean": 1.0, "low": 1.0, "high": 1.0, "n": 2}}}}}}
    >>> [(r["model"], r["coverage"]) for r in leaderboard(s)]
    [('b', 1.0), ('a', 0.5)]
    """
    rows = []
    # a summary with no failures block predates issue 14, when failures were left out (as ipb score's board reads it)
    excluding = (summary.get("failures") or {}).get("policy", "exclude") == "exclude"
    for model, g in (summary.get("groups", {}).get("model") or {}).items():
        metrics = g.get("metrics") or {}
        row: dict[str, Any] = {
            "model": model,
            "n": g.get("n"),
            "n_scored": g.get("n_scored"),
            "n_failures": int(g.get("n_parse_failures") or 0) + int(g.get("n_refusals") or 0),
            "n_run_errors": int(g.get("n_run_errors") or 0),
            "n_items_unanswered": int(g.get("n_items_unanswered") or 0),
            "n_items": int(g.get("n_items") or 0),
            "coverage": g.get("coverage"),
            # answers whose KCCS is unknown (out of the KCCS mean; shown beside it as "unknown on k")
            "n_kccs_unknown": int(g.get("n_kccs_unknown") or 0),
            # under --exclude-failures, per metric, the failures left out of its mean (s54newuser finding 5)
            "_excluded": g.get("n_failures_excluded"),
        }
        for name in LEADERBOARD_METRICS:
            row[name] = metrics.get(name)
        rows.append(row)
    on = rank_metric(rows)
    for row in rows:
        stat = (row.get(on) or {}) if on else {}
        # the value the row is ranked by (shown by ipb score's board as "ranked on", with the figure it is on)
        row["rank_on"] = on
        excluded = row.pop("_excluded")
        if isinstance(excluded, Mapping):
            row["n_failures_excluded"] = int(excluded.get(on) or 0) if on else 0
        else:  # a summary written before s54: under --exclude-failures each failure is taken as owed the figure
            row["n_failures_excluded"] = row["n_failures"] if excluding else 0
        row["rank_value"] = rank_value(stat.get("mean"), stat.get("n") or 0, row["n_run_errors"],
                                       row["n_items_unanswered"], row["n_items"], row["n_failures_excluded"])

    def key(r: Mapping[str, Any]) -> tuple[Any, ...]:
        # an item the run never answered ranks as a 0 (it stays out of the mean shown): a model whose server failed
        # on 4 of 5 items, right on the fifth (1.000), ranked above one right on 4 of 5 (0.960), break44 #7; so does
        # an item of the items file the model has no record for (s47user)
        ranked = r["rank_value"]
        # on an equal value the model that answered more ranks first (under --exclude-failures a model refusing
        # half the items ties a right one and took rank 1 by its name, s34user), before any mean over the answered
        # items (s43user: a refuser right on its 13 of 20 tied a right model at 0.550 and took rank 1 by BASP-strict
        # 0.305 over its subset against 0.301); then the correctness figures, VerdictAcc, GRA, BASP-strict, and the
        # name last: with no judge an L8 board tied on BASP-strict (its W1 fallback has no verdict term) put a model
        # with Munger's final verdict wrong (VerdictAcc 0.667) first by its name (s53newuser finding 1)
        return (ranked is None, -(ranked or 0.0), -(r.get("coverage") or 0.0),
                *(-_mean(r, name) for name in TIE_METRICS), str(r["model"]))

    return sorted(rows, key=key)


#: What "unknown on k" beside a KCCS figure means (s49fair; docs/scoring.md, "What the metrics give an answer in
#: another language"); ``ipb score`` and ``ipb report`` print it with the models' k.
KCCS_UNKNOWN_NOTE = ("KCCS unknown on k answers: a kill gate was reached, but none of its elements could be told in the "
                     "answer's language (words only, not read; a figure counts when stated), so KCCS is out of that "
                     "answer's composite (renormalised) and out of the KCCS mean, neither 0 nor 1; by model")

#: How the leaderboard ranks, and what the paper asks a reader to do with it (§7.13, §11.9, Appendix D.2, §8.7).
RANK_RULE = ("rank: by the mean §7.13 layer composite, a weighted average (L7: 0.35 OGRS_k + 0.30 KCCS + 0.20 "
             "VerdictAcc + 0.15 SAP@1), as the paper ranks, with each item of the items file a model has no answer to "
             "and each run error counted 0, and each refusal or parse failure too, --exclude-failures or not (that "
             "option leaves failures out of the means shown, never out of the rank) (the 'ranked on' column; the "
             "composite itself where the model answered every item); an equal value goes to the higher coverage, then the higher VerdictAcc, then the higher GRA, "
             "then the higher BASP-strict, then the model's name, so rows with every figure equal get different numbers in name order; it asks that the composite be read beside its per-metric "
             "profile (§11.9, App. D.2) and takes GRA as the metric of record for a claim that one model reasons "
             "through the gates better (§8.7); SAP@1 judges only the attributions an answer makes (an L4-L8 answer "
             "that attributes nothing is not scored on it), so an unasked attribution lifts no answer above a "
             "faultless one")


#: Why BASP-strict and conj. cannot see a wrong final verdict on a board with no composite (s54newuser finding 8): by
#: §7.15 BASP-strict is a composite times the share of its metric gates passed, and with no layer composite it scales
#: the W1 one, whose terms (OGRS, KCCS, SAP@3, IVP, CKCA) read no verdict.
STRICT_NO_VERDICT = ("BASP-strict and conj. here scale the W1 composite (0.35 OGRS + 0.25 KCCS + 0.20 SAP@3 + 0.10 IVP "
                     "+ 0.10 CKCA, §7.13) by the share of the §7.15 gates passed (OGRS, KCCS, SAP, IVP, CKCA, GRA); "
                     "none reads a verdict, so an answer with one investor's final verdict or kill gate wrong keeps "
                     "the right answer's BASP-strict unless a gate falls under its threshold: VerdictAcc (ranked on) "
                     "and GRA (its gate verdicts) show it.")


def composite_note(summary: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]) -> str:
    """The line that says which layers have no §7.13 composite, why, and what the board ranks on instead; "" if none.

    A layer's composite is empty when a component it weighs is missing (no renormalisation can save a composite
    whose every component is missing): L8's is 0.65 GEval_L8 + 0.35 IVP_micro, a judge's score and an embedding
    distance, so ``ipb score --no-embeddings`` with no judge scores has none, and the board showed "—" for every
    model with nothing saying why (s53newuser finding 1). The layers are those of ``summary["groups"]["layer"]``
    whose ``layer_composite`` is None.

    >>> s = {"groups": {"layer": {"L8": {"metrics": {"layer_composite": None}}}}}
    >>> composite_note(s, [{"rank_on": "verdict_acc"}])[:97]
    'composite: empty for every model: no L8 item has one (L8 = 0.65 GEval_L8 + 0.35 IVP_micro, §7.13;'
    >>> composite_note({"groups": {"layer": {"L7": {"metrics": {"layer_composite": {"mean": 0.5}}}}}}, [])
    ''
    """
    from ipb.scoring.composite import LAYER_WEIGHTS

    layers = (summary.get("groups") or {}).get("layer") or {}
    empty = sorted(str(k) for k, g in layers.items()
                   if isinstance(g, Mapping) and not ((g.get("metrics") or {}).get("layer_composite")))
    if not empty:
        return ""
    parts = []
    for layer in empty:
        weights = LAYER_WEIGHTS.get(layer) or {}
        formula = " + ".join(f"{w:.2f} {_label(c)}" for c, w in weights.items())
        needs = [NEEDS[c] for c in weights if c in NEEDS]
        parts.append(f"no {layer} item has one ({layer} = {formula}, §7.13" + (f"; it needs {' and '.join(needs)}"
                                                                               if needs else "") + ")")
    on = rows[0].get("rank_on", "layer_composite") if rows else "layer_composite"
    if on == "layer_composite":
        return ("composite: " + "; ".join(parts) + ": the composite and the rank are over the other layers' items "
                "only (the 'composite over' column); VerdictAcc and GRA cover every item")
    instead = {"verdict_acc": "VerdictAcc, the accuracy of the final verdict (§7.13; judge-free)",
               "gra": "GRA (§7.15)", "basp_strict": "BASP-strict (§7.15)"}.get(str(on), str(on))
    return ("composite: empty for every model: " + "; ".join(parts) + ". So the board ranks on " + instead
            + " (its 'ranked on' column), with each item a model has no answer to, each run error and each refusal "
            "or parse failure counted 0 (--exclude-failures or not); an "
            "equal value goes to the higher coverage, then the higher VerdictAcc, then the higher GRA, then the "
            "higher BASP-strict, then the model's name. " + STRICT_NO_VERDICT)


def _label(component: str) -> str:
    """A §7.13 component as the paper writes it: ``geval_l8`` -> GEval_L8, ``sap@1`` -> SAP@1."""
    return {"geval_l8": "GEval_L8", "geval_l6": "GEval_L6", "fact_acc": "FactAcc", "ivp_micro": "IVP_micro",
            "ogrs_k": "OGRS_k", "kccs": "KCCS", "verdict_acc": "VerdictAcc",
            "contradiction_coverage": "ContradictionCoverage"}.get(component, component.upper())


def rank_note(summary: Mapping[str, Any], rows: Sequence[Mapping[str, Any]] | None = None) -> str:
    """The leaderboard's footer on its order: :data:`RANK_RULE`, and, when SAP@1 may decide rank 1, which way GRA
    reads the top two (s49user finding 4: a chatty answer crediting Graham ranked first on SAP@1 alone).

    SAP@1 may decide rank 1 when the top two rows' ranked values differ by less than SAP@1's weight (0.15) and the
    first row's mean SAP@1 is above the second's (or the second has none: it attributed nothing). "" with fewer than
    two rows. Where the board ranks on another figure than the composite (:func:`rank_metric`), or some layer has no
    composite, :func:`composite_note` says so and why (with no composite to rank on, it replaces the rule).

    >>> g = lambda comp, sap, gra: {"n": 1, "n_scored": 1, "coverage": 1.0, "metrics": {
    ...     "layer_composite": {"mean": comp, "low": comp, "high": comp, "n": 1},
    ...     "sap@1": None if sap is None else {"mean": sap, "low": sap, "high": sap, "n": 1},
    ...     "gra": {"mean": gra, "low": gra, "high": gra, "n": 1}}}
    >>> note = rank_note({"groups": {"model": {"chatty": g(0.985, 1.0, 0.97), "quiet": g(0.982, None, 0.97)}}})
    >>> note.splitlines()[1]
    'rank 1 (chatty) is 0.003 above rank 2 (quiet), less than the 0.15 SAP@1 weight, and credits the investor where quiet does not (SAP@1 1.000 against n/a): by GRA they read 0.970 and 0.970'
    >>> len(rank_note({"groups": {"model": {"a": g(0.9, 0.0, 0.9), "b": g(0.5, 0.0, 0.5)}}}).splitlines())
    1
    """
    rows = list(rows) if rows is not None else leaderboard(summary)
    empty = composite_note(summary, rows)
    if rows and rows[0].get("rank_on", "layer_composite") != "layer_composite":
        # no composite to rank on: the note says so, why, and the figure ranked on instead (s53newuser finding 1)
        return empty
    if len(rows) < 2:
        return empty
    lines = [RANK_RULE] + ([empty] if empty else [])
    groups = (summary.get("groups") or {}).get("model") or {}
    first, second = rows[0], rows[1]

    def mean(row: Mapping[str, Any], name: str) -> float | None:
        stat = ((groups.get(row["model"]) or {}).get("metrics") or {}).get(name)
        return None if not stat else stat.get("mean")

    a, b = first.get("rank_value"), second.get("rank_value")
    sap_a, sap_b = mean(first, "sap@1"), mean(second, "sap@1")
    if a is not None and b is not None and a - b < 0.15 and sap_a is not None and (sap_b is None or sap_a > sap_b):
        def fmt(v: float | None) -> str:
            return "n/a" if v is None else f"{v:.3f}"

        lines.append(f"rank 1 ({first['model']}) is {a - b:.3f} above rank 2 ({second['model']}), less than the 0.15 "
                     f"SAP@1 weight, and credits the investor where {second['model']} does not (SAP@1 {fmt(sap_a)} "
                     f"against {fmt(sap_b)}): by GRA they read {fmt(mean(first, 'gra'))} and "
                     f"{fmt(mean(second, 'gra'))}")
    return "\n".join(lines)
