"""Composite scores: the §7.13 layer composites, the W1 uniform composite, BASP-strict.

All are weighted averages of per-response metric values (and, for L1-L3, L6
and L8, of judge-scored components the caller supplies: ``fact_acc``,
``geval_l6``, ``geval_l8``). A missing component makes the composite None
(listed in ``missing``) unless the caller asks to renormalise the weights
over the components present; nothing is silently counted as zero.

References
----------
InvestPhilBench §7.13 (layer composites, W1 implementation note), §7.15
(BASP-strict, GRA sixth gate), §11.9 (weights set by expert judgment).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ipb.errors import ScoreError, did_you_mean
from ipb.scoring.fmdp import FailureFlag, detect_all
from ipb.scoring.metrics import Case
from ipb.scoring.outcome import failure_value
from ipb.scoring.registry import metrics

__all__ = [
    "LAYER_WEIGHTS",
    "W1_WEIGHTS",
    "JUDGE_COMPONENTS",
    "BASP_THRESHOLDS",
    "GRA_THRESHOLD",
    "FM_GATES",
    "CompositeResult",
    "composite_weights",
    "FINAL_VERDICT_METRICS",
    "unread_trace_values",
    "weighted_composite",
    "layer_composite",
    "w1_composite",
    "BASP_DENOMINATORS",
    "BASP_COMPOSITES",
    "StrictGate",
    "StrictResult",
    "basp_strict",
    "CaseScores",
    "score_case",
]

#: §7.13 layer-adaptive composites (component name -> weight).
LAYER_WEIGHTS: dict[str, dict[str, float]] = {
    "L1": {"fact_acc": 0.60, "sap@1": 0.40},
    "L2": {"fact_acc": 0.60, "sap@2": 0.40},
    "L3": {"fact_acc": 0.60, "sap@3": 0.40},
    "L4": {"ogrs_k": 0.40, "kccs": 0.35, "sap@2": 0.25},
    "L5": {"ivp_micro": 0.50, "kccs": 0.30, "sap@2": 0.20},
    "L6": {"geval_l6": 0.60, "contradiction_coverage": 0.40},
    "L7": {"ogrs_k": 0.35, "kccs": 0.30, "verdict_acc": 0.20, "sap@1": 0.15},
    "L8": {"geval_l8": 0.65, "ivp_micro": 0.35},
}
#: §7.13 implementation note: the deployed uniform composite of the W1 wave.
W1_WEIGHTS: dict[str, float] = {"ogrs": 0.35, "kccs": 0.25, "sap@3": 0.20, "ivp": 0.10, "ckca": 0.10}
#: Components scored by a judge (G-Eval §7.12, FactAcc §7.13), supplied by the caller.
JUDGE_COMPONENTS = ("fact_acc", "geval_l6", "geval_l8")

#: §7.15 per-metric pass thresholds of BASP-strict (``sap`` is SAP@k).
BASP_THRESHOLDS: dict[str, float] = {"ogrs": 0.70, "kccs": 0.60, "sap": 0.50, "ivp": 0.50, "ckca": 0.50}
#: §7.15: GRA >= 0.70 passes the sixth gate.
GRA_THRESHOLD = 0.70
#: §7.15: failure modes that fail a BASP-strict gate whatever its value.
FM_GATES: dict[str, str] = {"FM-1": "ogrs", "FM-3": "kccs", "FM-4": "ivp", "FM-6": "ckca"}

_ALL_WEIGHTS = {**LAYER_WEIGHTS, "W1": W1_WEIGHTS}

#: BASP-strict denominators: ``paper`` (k of the 5 gates, 6 with GRA; a gate whose
#: metric does not apply counts as passed) and ``applicable`` (k of the gates evaluated).
BASP_DENOMINATORS = ("paper", "applicable")
#: The composite BASP-strict scales: ``layer`` (the §7.13 layer composite, the paper's target
#: BASP-composite; W1 when the item's layer has none) or ``w1`` (the deployed W1 uniform composite).
BASP_COMPOSITES = ("layer", "w1")


def composite_weights(name: str) -> Mapping[str, float]:
    """The weights of composite ``name`` (``"L1"`` ... ``"L8"``, ``"W1"``).

    Raises
    ------
    ScoreError
        Unknown name (with a suggestion).

    Examples
    --------
    >>> dict(composite_weights("L4"))
    {'ogrs_k': 0.4, 'kccs': 0.35, 'sap@2': 0.25}
    """
    key = name.upper()
    if key not in _ALL_WEIGHTS:
        raise ScoreError(
            f"unknown composite {name!r}",
            name=name,
            rule="composite",
            suggestion=did_you_mean(key, list(_ALL_WEIGHTS)),
        )
    return _ALL_WEIGHTS[key]


@dataclass(frozen=True)
class CompositeResult:
    """A weighted composite and how it was formed."""

    name: str
    value: float | None
    weights: Mapping[str, float]
    components: Mapping[str, float | None]
    missing: tuple[str, ...]
    renormalized: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "value": self.value,
            "weights": dict(self.weights),
            "components": dict(self.components),
            "missing": list(self.missing),
            "renormalized": self.renormalized,
        }


def weighted_composite(
    weights: Mapping[str, float],
    values: Mapping[str, float | None],
    *,
    renormalize: bool = False,
    name: str = "composite",
) -> CompositeResult:
    """:math:`\\sum_c w_c x_c` over the components ``c`` of ``weights``.

    Parameters
    ----------
    weights : mapping component -> weight (sum 1)
    values : mapping component -> value in [0, 1] or None (not applicable)
    renormalize : bool
        False: any missing component makes the value None. True: the weights
        of the present components are rescaled to sum to 1 (None if none).

    Returns
    -------
    CompositeResult

    Raises
    ------
    ScoreError
        A present value lies outside [0, 1].

    Examples
    --------
    >>> weighted_composite({"a": 0.5, "b": 0.5}, {"a": 1.0, "b": None}).value is None
    True
    >>> weighted_composite({"a": 0.5, "b": 0.5}, {"a": 1.0, "b": None}, renormalize=True).value
    1.0
    """
    components = {c: values.get(c) for c in weights}
    for c, v in components.items():
        if v is not None and not (0.0 <= v <= 1.0):
            raise ScoreError(f"component {c} = {v} lies outside [0, 1]", name=c, rule="composite")
    missing = tuple(c for c, v in components.items() if v is None)
    present = {c: float(v) for c, v in components.items() if v is not None}
    value: float | None
    if missing and not renormalize:
        value = None
    elif not present:
        value = None
    else:
        total = sum(weights[c] for c in present)
        value = sum(weights[c] * v for c, v in present.items()) / total if total > 0 else None
        if value is not None:
            value = min(1.0, max(0.0, value))
    return CompositeResult(name, value, dict(weights), components, missing, bool(missing) and renormalize)


def layer_composite(layer: str, values: Mapping[str, float | None], *, renormalize: bool = False) -> CompositeResult:
    """The §7.13 composite of ``layer``.

    - L1-L3: :math:`0.60\\,\\mathrm{FactAcc} + 0.40\\,\\mathrm{SAP@k}` (k = 1, 2, 3)
    - L4: :math:`0.40\\,\\mathrm{OGRS}_k + 0.35\\,\\mathrm{KCCS} + 0.25\\,\\mathrm{SAP@2}`
    - L5: :math:`0.50\\,\\mathrm{IVP}_{micro} + 0.30\\,\\mathrm{KCCS} + 0.20\\,\\mathrm{SAP@2}`
    - L6: :math:`0.60\\,\\mathrm{GEval}_{L6} + 0.40\\,\\mathrm{ContradictionCoverage}`
    - L7: :math:`0.35\\,\\mathrm{OGRS}_k + 0.30\\,\\mathrm{KCCS} + 0.20\\,\\mathrm{VerdictAcc} + 0.15\\,\\mathrm{SAP@1}`
    - L8: :math:`0.65\\,\\mathrm{GEval}_{L8} + 0.35\\,\\mathrm{IVP}_{micro}`

    Component keys: ``fact_acc``, ``geval_l6``, ``geval_l8`` (judge-scored,
    supplied), ``ogrs_k``, ``kccs``, ``sap@1``..``sap@3``, ``ivp_micro``,
    ``contradiction_coverage``, ``verdict_acc``.

    Raises
    ------
    ScoreError
        Unknown layer, or a value outside [0, 1].

    References
    ----------
    InvestPhilBench §7.13.

    Examples
    --------
    >>> layer_composite("L4", {"ogrs_k": 1.0, "kccs": 0.0, "sap@2": 1.0}).value
    0.65
    """
    key = layer.upper()
    if key not in LAYER_WEIGHTS:
        raise ScoreError(
            f"unknown layer {layer!r}; layers: {', '.join(LAYER_WEIGHTS)}",
            name=layer,
            rule="composite",
            suggestion=did_you_mean(key, list(LAYER_WEIGHTS)),
        )
    return weighted_composite(LAYER_WEIGHTS[key], values, renormalize=renormalize, name=key)


def w1_composite(values: Mapping[str, float | None], *, renormalize: bool = False) -> CompositeResult:
    """W1 uniform composite :math:`0.35\\,\\mathrm{OGRS} + 0.25\\,\\mathrm{KCCS} +
    0.20\\,\\mathrm{SAP@3} + 0.10\\,\\mathrm{IVP} + 0.10\\,\\mathrm{CKCA}` (§7.13 note).

    Keys ``ogrs``, ``kccs``, ``sap@3``, ``ivp``, ``ckca``.

    >>> w1_composite({"ogrs": 1, "kccs": 1, "sap@3": 1, "ivp": 0, "ckca": 0}).value
    0.8
    """
    return weighted_composite(W1_WEIGHTS, values, renormalize=renormalize, name="W1")


@dataclass(frozen=True)
class StrictGate:
    """One BASP-strict gate: ``passed`` None means not evaluated (metric not applicable)."""

    metric: str
    value: float | None
    threshold: float
    passed: bool | None
    reason: str


@dataclass(frozen=True)
class StrictResult:
    """BASP-strict: ``value = composite × factor`` (see :func:`basp_strict` for the factor)."""

    value: float | None
    composite: float | None
    passed: int
    evaluated: int
    gates: tuple[StrictGate, ...]
    denominator: str = "paper"
    composite_name: str | None = None

    @property
    def factor(self) -> float | None:
        """k/5 (``paper``: passed plus not-applicable gates over every gate) or k/m (``applicable``)."""
        if self.denominator == "paper":
            return None if not self.gates else (self.passed + self.not_applicable) / len(self.gates)
        return None if self.evaluated == 0 else self.passed / self.evaluated

    @property
    def not_applicable(self) -> int:
        """Gates not evaluated (their metric does not apply to the item)."""
        return sum(1 for g in self.gates if g.passed is None)

    @property
    def conjunction(self) -> bool | None:
        """True when every evaluated gate passed (the §8.7 conjunction rate)."""
        return None if self.evaluated == 0 else self.passed == self.evaluated

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "composite": self.composite,
            "passed": self.passed,
            "evaluated": self.evaluated,
            "not_applicable": self.not_applicable,
            "denominator": self.denominator,
            "factor": self.factor,
            "composite_name": self.composite_name,
            "conjunction": self.conjunction,
            "gates": [g.__dict__.copy() for g in self.gates],
        }


def _fired(flags: Iterable[str] | Mapping[str, Any]) -> set[str]:
    if isinstance(flags, Mapping):
        out = set()
        for name, flag in flags.items():
            if isinstance(flag, FailureFlag):
                if flag.fired:
                    out.add(name)
            elif flag:
                out.add(name)
        return out
    return set(flags)


def basp_strict(
    composite: float | None,
    values: Mapping[str, float | None],
    flags: Iterable[str] | Mapping[str, Any] = (),
    *,
    sap_key: str = "sap@3",
    gra: float | None = None,
    missing: str = "skip",
    denominator: str = "paper",
    composite_name: str | None = None,
) -> StrictResult:
    """BASP-strict: the composite scaled by the fraction of metric gates passed.

    Gates (§7.15): OGRS >= 0.70, KCCS >= 0.60, SAP@k >= 0.50, IVP >= 0.50,
    CKCA >= 0.50. A fired FM-1 fails the OGRS gate, FM-3 the KCCS gate, FM-4
    the IVP gate and FM-6 the CKCA gate, whatever the value. With ``k`` of the
    5 gates passing, BASP-strict = composite × k/5.

    **GRA sixth gate.** When ``gra`` is given (the item has a gold program),
    GRA >= 0.70 is a sixth gate and the factor becomes k/6: the paper adds
    GRA as "a sixth gate" and reports the 6-gate conjunction rate (§8.7,
    Figure 6: 83.3% -> 63.3%), so the denominator counts it like the others.

    **Not-applicable metrics and the denominator.** A gate whose metric is
    None (CKCA on a non-institutional card, IVP without a cross-investor
    set) is not evaluated (``missing="skip"``, default; ``missing="fail"``
    counts it as failed). ``denominator`` says what the factor divides by:

    - ``"paper"`` (default): k of the 5 gates (6 with GRA), as §7.15 writes
      it, where a gate whose metric does not apply is *passed*. Our reading:
      §7.15 gives every item five gates because the deployed pipeline rated
      all five metrics on every item (CKCA, for instance, carried a
      cross-investor-contamination rating on non-institutional items, §8.4
      note); a gate that has nothing to test cannot be failed, and counting
      it as failed would cap a perfect answer at 3/5 on most items;
    - ``"applicable"``: k of the m gates evaluated (the not-applicable ones
      leave both k and the denominator).

    The two agree whenever every gate applies. A gate failed by its failure
    mode is always evaluated.

    Parameters
    ----------
    composite : float or None
        The BASP composite to scale (W1 or a layer composite); None gives a
        None value (the gate outcomes are still reported).
    values : mapping
        ``ogrs``, ``kccs``, ``sap_key``, ``ivp``, ``ckca`` -> value or None.
    flags : iterable of FM names that fired, or mapping name -> FailureFlag/bool
    sap_key : str
        Which SAP level feeds the SAP gate (W1 used SAP@3).
    gra : float, optional
    missing : {"skip", "fail"}
    denominator : {"paper", "applicable"}
    composite_name : str, optional
        Which composite ``composite`` is (recorded: ``"L7"``, ``"W1"``).

    Returns
    -------
    StrictResult

    Raises
    ------
    ScoreError
        ``missing`` is neither "skip" nor "fail", or an unknown ``denominator``.

    References
    ----------
    InvestPhilBench §7.15, §8.7, §11.12.

    Examples
    --------
    >>> r = basp_strict(0.8, {"ogrs": 0.9, "kccs": 0.7, "sap@3": 0.6, "ivp": 0.4, "ckca": 0.2})
    >>> r.passed, r.evaluated, round(r.value, 6)
    (3, 5, 0.48)

    IVP and CKCA not applicable, KCCS failed: 1 + 2 of 5 (paper) or 1 of 3 (applicable):

    >>> few = {"ogrs": 0.9, "kccs": 0.1, "sap@3": 0.4, "ivp": None, "ckca": None}
    >>> basp_strict(1.0, few).value, round(basp_strict(1.0, few, denominator="applicable").value, 6)
    (0.6, 0.333333)
    """
    if missing not in ("skip", "fail"):
        raise ScoreError(f"missing must be 'skip' or 'fail', not {missing!r}", rule="basp_strict", name="missing")
    if denominator not in BASP_DENOMINATORS:
        raise ScoreError(f"denominator must be one of {', '.join(BASP_DENOMINATORS)}, not {denominator!r}",
                         rule="basp_strict", name="denominator")
    fired = _fired(flags)
    failed_by = {gate: fm for fm, gate in FM_GATES.items() if fm in fired}
    spec = [
        ("ogrs", values.get("ogrs"), BASP_THRESHOLDS["ogrs"]),
        ("kccs", values.get("kccs"), BASP_THRESHOLDS["kccs"]),
        ("sap", values.get(sap_key), BASP_THRESHOLDS["sap"]),
        ("ivp", values.get("ivp"), BASP_THRESHOLDS["ivp"]),
        ("ckca", values.get("ckca"), BASP_THRESHOLDS["ckca"]),
    ]
    if gra is not None:
        spec.append(("gra", gra, GRA_THRESHOLD))
    gates = []
    for name, value, threshold in spec:
        if name in failed_by:
            gates.append(StrictGate(name, value, threshold, False, failed_by[name]))
        elif value is None:
            if missing == "fail":
                gates.append(StrictGate(name, None, threshold, False, "not applicable (counted as failed)"))
            else:
                gates.append(StrictGate(name, None, threshold, None, "not applicable"))
        else:
            ok = value >= threshold
            gates.append(StrictGate(name, value, threshold, ok, f"{value:.3f} {'>=' if ok else '<'} {threshold}"))
    evaluated = sum(1 for g in gates if g.passed is not None)
    passed = sum(1 for g in gates if g.passed)
    result = StrictResult(None, composite, passed, evaluated, tuple(gates), denominator, composite_name)
    factor = result.factor
    if composite is None or evaluated == 0 or factor is None:
        return result
    return StrictResult(composite * factor, composite, passed, evaluated, tuple(gates), denominator, composite_name)


@dataclass(frozen=True)
class CaseScores:
    """Every metric, flag and composite of one response, or why it is unscored."""

    status: str
    reason: str | None
    metrics: Mapping[str, float | None]
    flags: Mapping[str, FailureFlag]
    layer: CompositeResult | None
    w1: CompositeResult | None
    strict: StrictResult | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "reason": self.reason,
            "metrics": dict(self.metrics),
            "flags": {k: f.to_dict() for k, f in self.flags.items()},
            "layer_composite": self.layer.to_dict() if self.layer else None,
            "w1_composite": self.w1.to_dict() if self.w1 else None,
            "basp_strict": self.strict.to_dict() if self.strict else None,
        }


#: Metrics that read only the stated final verdict: the ones an answer whose gate trace could not be read still
#: earns a value on (:func:`unread_trace_values`).
FINAL_VERDICT_METRICS = frozenset({"verdict_acc"})


def unread_trace_values(values: Mapping[str, float | None]) -> dict[str, float | None]:
    """The metrics of an answer in which no gate of the card was recognised but a final verdict was stated.

    Its gate trace is empty and counts against it: every metric that applies
    (not None) is set to its failure value (0, NED 1, tau -1:
    :func:`~ipb.scoring.outcome.failure_value`, the value a parse failure is
    owed), except :data:`FINAL_VERDICT_METRICS`, which read the stated
    verdict. Metric by metric it is then never above the same answer with any
    readable trace, and never below an unreadable answer (a parse failure).

    Examples
    --------
    >>> unread_trace_values({"gcf": 0.0, "ned": 0.4, "kendall_tau": None, "verdict_acc": 1.0, "kccs": 0.3})
    {'gcf': 0.0, 'ned': 1.0, 'kendall_tau': None, 'verdict_acc': 1.0, 'kccs': 0.0}
    """
    return {n: v if v is None or n in FINAL_VERDICT_METRICS else failure_value(n) for n, v in values.items()}


def score_case(
    case: Case,
    *,
    judge: Mapping[str, float | None] | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    renormalize: bool = False,
    basp_denominator: str = "paper",
    basp_composite: str = "layer",
) -> CaseScores:
    """Every registered per-response metric and FM flag, and the composites, for one case.

    A parse failure is returned as ``status="parse_failure"`` with the
    parser's reason and nothing scored (never zeros). A parsed answer marked
    ``trace_unread`` (no gate of the card recognised, a final verdict
    stated) scores :func:`unread_trace_values` and no flags. Otherwise:

    - ``metrics``: every entry of :data:`~ipb.scoring.registry.metrics`
      (None where not applicable), plus ``ivp`` (``Case.ivp``) and
      ``ivp_micro`` (mean of ``Case.pairwise_sdi``, else ``Case.ivp``);
    - ``flags``: every detector;
    - ``layer``: the §7.13 composite of ``case.layer`` (judge components
      from ``judge``), None-valued when a component is missing unless
      ``renormalize``;
    - ``w1``: the W1 composite, renormalised over the components present
      (IVP and CKCA are often not applicable) and marked so;
    - ``strict``: BASP-strict (:func:`basp_strict`, ``basp_denominator``)
      of the layer composite (``basp_composite="layer"``, the paper's
      BASP-composite, §7.13/§7.15; the SAP gate then uses the layer's SAP
      level) or of the W1 composite (``"w1"``, the deployed W1 harness, SAP@3
      gate; also the fallback when the layer has no composite value), with
      the GRA sixth gate when GRA is defined.

    Parameters
    ----------
    options : mapping name -> options
        Per-metric / per-detector configuration (``{"kccs": {"threshold": 0.7}}``).
    basp_denominator : {"paper", "applicable"}
    basp_composite : {"layer", "w1"}
    """
    if basp_composite not in BASP_COMPOSITES:
        raise ScoreError(f"basp_composite must be one of {', '.join(BASP_COMPOSITES)}, not {basp_composite!r}",
                         rule="basp_strict", name="basp_composite")
    if not case.ok:
        return CaseScores("parse_failure", str(case.parsed.get("reason") or "unparsed"), {}, {}, None, None, None)
    options = options or {}
    values: dict[str, float | None] = {}
    for name in metrics.names():
        values[name] = metrics.create(name, **dict(options.get(name, {})))(case)
    values["ivp"] = case.ivp
    sdis = list(case.pairwise_sdi.values())
    values["ivp_micro"] = sum(sdis) / len(sdis) if sdis else case.ivp
    flags = detect_all(case, options)
    if case.parsed.get("trace_unread"):
        values = unread_trace_values(values)
        flags = {}  # an unread trace shows no failure mode, as a parse failure shows none
    components = {**values, **dict(judge or {})}
    layer = layer_composite(case.layer, components, renormalize=renormalize) if case.layer in LAYER_WEIGHTS else None
    w1 = w1_composite(values, renormalize=True)
    base, sap_key = w1, "sap@3"
    if basp_composite == "layer" and layer is not None and layer.value is not None:
        base = layer
        sap_key = next((k for k in layer.weights if k.startswith("sap@")), "sap@3")
    strict = basp_strict(base.value, values, flags, sap_key=sap_key, gra=values.get("gra"),
                         denominator=basp_denominator, composite_name=base.name)
    return CaseScores("ok", None, values, flags, layer, w1, strict)
