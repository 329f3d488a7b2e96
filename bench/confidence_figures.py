"""Does the parser's confidence tell right readings from wrong ones? (issue 13 item 3; ``parse_accuracy.py --confidence``).

A *reading* here is one labelled verdict (a gate's, or the final verdict)
as a pair ``(confidence, right)``: ``confidence`` in [0, 1] is the one the
parser gave its reading, or ``None`` when it gave none (the gate was not
found, or the answer was a parse failure: a missing reading has no
confidence and is review work at every threshold); ``right`` whether the
reading equals the label.

operating point at threshold T
    coverage = share of all readings (missing ones included) with
    confidence >= T (what ``ipb score --min-confidence T`` keeps out of
    review); accuracy = share right among the covered (None when none is).
reliability
    readings with a confidence grouped in bins [lo, hi): count, mean
    confidence and accuracy per bin.
AUROC
    probability that a right reading has a higher confidence than a wrong
    one (ties count one half; Mann-Whitney U / (n_right * n_wrong)), over
    readings with a confidence; None when either class is empty. 0.5 is no
    separation, 1.0 perfect.
"""

from __future__ import annotations

from typing import Iterable, Sequence

Reading = tuple["float | None", bool]

#: Thresholds of the operating-point table.
THRESHOLDS = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
#: Bin edges of the reliability table (the last bin is closed: it holds 1.0).
BIN_EDGES = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0)


def operating_points(readings: Sequence[Reading], thresholds: Iterable[float] = THRESHOLDS) -> list[dict[str, object]]:
    """Coverage and accuracy among the covered at each threshold.

    Examples
    --------
    >>> rows = operating_points([(0.9, True), (0.6, False), (None, False), (0.95, True)], [0.0, 0.8])
    >>> [(r["threshold"], r["covered"], r["n"], r["coverage"], r["accuracy"]) for r in rows]
    [(0.0, 3, 4, 0.75, 0.6666666666666666), (0.8, 2, 4, 0.5, 1.0)]
    """
    out: list[dict[str, object]] = []
    n = len(readings)
    for t in thresholds:
        covered = [right for conf, right in readings if conf is not None and conf >= t]
        out.append({"threshold": t, "n": n, "covered": len(covered),
                    "coverage": None if n == 0 else len(covered) / n,
                    "accuracy": None if not covered else sum(covered) / len(covered)})
    return out


def reliability(readings: Sequence[Reading], edges: Sequence[float] = BIN_EDGES) -> list[dict[str, object]]:
    """Per confidence bin [lo, hi) (the last one [lo, hi]): count, mean confidence, accuracy; empty bins are kept.

    Examples
    --------
    >>> rows = reliability([(0.2, False), (0.55, True), (0.85, True), (0.85, False), (1.0, True), (None, False)],
    ...                    [0.0, 0.5, 0.8, 1.0])
    >>> [(r["lo"], r["hi"], r["n"], r["mean_confidence"], r["accuracy"]) for r in rows]
    [(0.0, 0.5, 1, 0.2, 0.0), (0.5, 0.8, 1, 0.55, 1.0), (0.8, 1.0, 3, 0.9, 0.6666666666666666)]
    """
    rows: list[dict[str, object]] = []
    for k in range(len(edges) - 1):
        lo, hi = edges[k], edges[k + 1]
        last = k == len(edges) - 2
        inside = [(c, r) for c, r in readings if c is not None and lo <= c and (c < hi or (last and c <= hi))]
        rows.append({"lo": lo, "hi": hi, "n": len(inside),
                     "mean_confidence": None if not inside else round(sum(c for c, _ in inside) / len(inside), 6),
                     "accuracy": None if not inside else sum(r for _, r in inside) / len(inside)})
    return rows


def auroc(readings: Sequence[Reading]) -> float | None:
    """P(confidence of a right reading > that of a wrong one), ties one half, over readings with a confidence.

    Examples
    --------
    >>> auroc([(0.9, True), (0.8, True), (0.5, False), (None, False)])
    1.0
    >>> auroc([(0.9, True), (0.9, False), (0.5, True), (0.95, False)])
    0.125
    >>> auroc([(0.9, True)]) is None
    True
    """
    right = sorted(c for c, r in readings if c is not None and r)
    wrong = sorted(c for c, r in readings if c is not None and not r)
    if not right or not wrong:
        return None
    # rank-sum with mid-ranks for ties: O(n log n)
    pooled = sorted([(c, 1) for c in right] + [(c, 0) for c in wrong])
    rank_sum = 0.0
    i = 0
    while i < len(pooled):
        j = i
        while j < len(pooled) and pooled[j][0] == pooled[i][0]:
            j += 1
        mid = (i + 1 + j) / 2  # mean of the 1-based ranks i+1 .. j
        rank_sum += mid * sum(1 for _, is_right in pooled[i:j] if is_right)
        i = j
    u = rank_sum - len(right) * (len(right) + 1) / 2
    return u / (len(right) * len(wrong))


def _pct(x: object) -> str:
    return "   n/a" if x is None else f"{100 * float(x):5.1f}%"  # type: ignore[arg-type]


def table(title: str, gates: Sequence[Reading], finals: Sequence[Reading]) -> list[str]:
    """The printed block of one group of answers: operating points, AUROC, reliability."""
    g_auc, f_auc = auroc(gates), auroc(finals)
    lines = [f"{title}: {len(gates)} labelled gate verdicts, {len(finals)} final verdicts; "
             f"AUROC gates {'n/a' if g_auc is None else f'{g_auc:.3f}'}, final {'n/a' if f_auc is None else f'{f_auc:.3f}'}",
             f"  {'T':>5} {'gate cov.':>9} {'gate acc.':>9} {'final cov.':>10} {'final acc.':>10}"]
    for g, f in zip(operating_points(gates), operating_points(finals)):
        lines.append(f"  {g['threshold']:5.2f} {_pct(g['coverage']):>9} {_pct(g['accuracy']):>9} "
                     f"{_pct(f['coverage']):>10} {_pct(f['accuracy']):>10}")
    lines.append(f"  {'bin':>11} {'gates n':>7} {'mean c.':>7} {'acc.':>6}   {'final n':>7} {'mean c.':>7} {'acc.':>6}")
    for g, f in zip(reliability(gates), reliability(finals)):
        def mean(x: object) -> str:
            return "    n/a" if x is None else f"{float(x):7.3f}"  # type: ignore[arg-type]
        lines.append(f"  [{g['lo']:.2f},{g['hi']:.2f}{']' if g['hi'] == BIN_EDGES[-1] else ')'} {g['n']:7d} "
                     f"{mean(g['mean_confidence'])} {_pct(g['accuracy']):>6}   {f['n']:7d} {mean(f['mean_confidence'])} "
                     f"{_pct(f['accuracy']):>6}")
    return lines


def figures(gates: Sequence[Reading], finals: Sequence[Reading]) -> dict[str, object]:
    """The same figures as JSON: operating points, reliability and AUROC, for gates and for final verdicts."""
    return {kind: {"n": len(rs), "auroc": auroc(rs), "operating_points": operating_points(rs), "reliability": reliability(rs)}
            for kind, rs in (("gates", gates), ("final", finals))}
