"""Gate-sequence metrics: GCF, Kendall tau, OGRS, OGRS_k, NED, NLCS (paper §7.6, §7.14).

Edit distance and LCS over gate-number sequences come from
:mod:`rapidfuzz.distance` (``Levenshtein``, ``LCSseq``).
"""

from __future__ import annotations

import math
from typing import Hashable, Sequence

from rapidfuzz.distance import LCSseq, Levenshtein

from ipb.errors import ScoreError
from ipb.scoring.metrics._case import Case
from ipb.scoring.registry import metric


def _defined_tau(concordant: float, discordant: float, pairs: float, x_ties: float, y_ties: float) -> float:
    if pairs <= 0:
        return 1.0
    if pairs - x_ties <= 0:
        return 1.0
    if pairs - y_ties <= 0:
        return 0.0
    value = (concordant - discordant) / math.sqrt((pairs - x_ties) * (pairs - y_ties))
    return max(-1.0, min(1.0, value))


def weighted_kendall_tau(x: Sequence[float], y: Sequence[float], weights: Sequence[float]) -> float:
    """Kendall's tau-b with each pair weighted by the product of its items' weights.

    .. math::

        \\tau_w = \\frac{C_w - D_w}{\\sqrt{(W - T_{x,w})(W - T_{y,w})}},\\quad
        C_w = \\sum_{i<j} w_i w_j \\mathbf{1}[\\text{concordant}],\\quad
        W = \\sum_{i<j} w_i w_j

    with :math:`D_w` the weighted discordant count and :math:`T_{x,w}`,
    :math:`T_{y,w}` the weighted counts of pairs tied in ``x`` / ``y``. With
    every weight equal this is exactly tau-b.

    Parameters
    ----------
    x : sequence of float, length n
        Gold ranks (ties allowed: gates with no prescribed order).
    y : sequence of float, length n
        Response ranks.
    weights : sequence of float, length n
        Positive item weights (OGRS_k: 2.0 for kill gates, 1.0 otherwise).

    Returns
    -------
    float
        In [-1, 1], never NaN. Where tau-b is 0/0 the value is defined:

        - fewer than 2 items, no pair to compare: **1.0** (nothing is out of
          order; a single-gate program answered with that gate is perfect);
        - ``x`` constant (the gold prescribes no order): **1.0**;
        - ``y`` constant while ``x`` is not (the response states no order): **0.0**.

    Raises
    ------
    ScoreError
        Lengths differ, or a weight is not positive.

    References
    ----------
    InvestPhilBench §7.6 (OGRS_k, weighted concordance count :math:`C_w`).

    Examples
    --------
    >>> weighted_kendall_tau([1, 2, 3], [1, 3, 2], [1, 1, 1])  # = tau-b = 1/3
    0.3333333333333333
    >>> weighted_kendall_tau([1, 2, 3], [1, 3, 2], [2, 1, 1])  # the swapped pair weighs 1 of 5
    0.6
    """
    n = len(x)
    if len(y) != n or len(weights) != n:
        raise ScoreError(f"rank sequences differ in length ({n}, {len(y)}, {len(weights)})", rule="tau")
    if any(not (w > 0) for w in weights):
        raise ScoreError("weights must be positive", rule="tau")
    conc = disc = total = xt = yt = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            w = float(weights[i]) * float(weights[j])
            total += w
            dx = x[i] - x[j]
            dy = y[i] - y[j]
            if dx == 0:
                xt += w
            if dy == 0:
                yt += w
            if dx == 0 or dy == 0:
                continue
            if (dx > 0) == (dy > 0):
                conc += w
            else:
                disc += w
    return _defined_tau(conc, disc, total, xt, yt)


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b of two rankings, defined everywhere.

    .. math:: \\tau_b = \\frac{C - D}{\\sqrt{(n_0 - n_1)(n_0 - n_2)}}

    with :math:`n_0 = \\binom{n}{2}` and :math:`n_1`, :math:`n_2` the pairs
    tied in ``x`` and ``y``. Without ties it is the §7.14 form
    :math:`(C - D)/\\binom{n}{2}`. It equals ``scipy.stats.kendalltau`` (its
    default tau-b) wherever that is not NaN; the undefined cases get the
    values documented in :func:`weighted_kendall_tau` (1.0 for fewer than two
    items or a constant gold ranking ``x``, 0.0 for a constant ``y`` only).

    Parameters
    ----------
    x : sequence of float, length n
        Gold ranks.
    y : sequence of float, length n
        Response ranks.

    Returns
    -------
    float in [-1, 1]

    References
    ----------
    InvestPhilBench §7.6 (OGRS), §7.14.

    Examples
    --------
    >>> kendall_tau_b([1, 2, 3], [1, 2, 3]), kendall_tau_b([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)
    >>> kendall_tau_b([1], [1]), kendall_tau_b([1, 1], [1, 2])
    (1.0, 1.0)
    """
    return weighted_kendall_tau(x, y, [1.0] * len(x))


def normalized_tau(tau: float) -> float:
    """Map tau from [-1, 1] to [0, 1]: :math:`\\tau_n = (\\tau + 1)/2` (§7.6).

    >>> normalized_tau(-1.0), normalized_tau(0.0), normalized_tau(1.0)
    (0.0, 0.5, 1.0)
    """
    return (tau + 1.0) / 2.0


def edit_distance(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Levenshtein distance (unit-cost insert, delete, substitute) of two sequences.

    ``rapidfuzz.distance.Levenshtein.distance`` over the items (gate numbers,
    characters).

    Examples
    --------
    >>> edit_distance([1, 2, 3, 4], [1, 3, 4, 5])
    2
    >>> edit_distance("kitten", "sitting")
    3
    """
    return int(Levenshtein.distance(a, b))


def lcs_length(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Length of the longest common subsequence (``rapidfuzz.distance.LCSseq.similarity``).

    Examples
    --------
    >>> lcs_length([1, 2, 3, 4, 5], [2, 5, 3, 4])
    3
    """
    return int(LCSseq.similarity(a, b))


def normalized_edit_distance(a: Sequence[Hashable], b: Sequence[Hashable]) -> float:
    """NED = EditDistance(S, Ŝ) / max(|S|, |Ŝ|) (§7.14); 0.0 for two empty sequences.

    Equals ``rapidfuzz.distance.Levenshtein.normalized_distance``.

    >>> normalized_edit_distance([1, 2, 3, 4, 5, 6], [1, 2, 3])
    0.5
    """
    longest = max(len(a), len(b))
    return 0.0 if longest == 0 else edit_distance(a, b) / longest


def normalized_lcs(a: Sequence[Hashable], b: Sequence[Hashable]) -> float:
    """NLCS = |LCS(S, Ŝ)| / max(|S|, |Ŝ|) (§7.14); 1.0 for two empty sequences.

    Equals ``rapidfuzz.distance.LCSseq.normalized_similarity``.

    >>> normalized_lcs([1, 2, 3, 4, 5, 6], [1, 2, 3])
    0.5
    """
    longest = max(len(a), len(b))
    return 1.0 if longest == 0 else lcs_length(a, b) / longest



# =========================================================================== gate sequence metrics


def _common_ranks(case: Case) -> tuple[list[int], list[float], list[float]]:
    order = {n: i for i, n in enumerate(case.response_order)}
    unordered = case.topology == "parallel_threshold"
    gates, gold_ranks, response_ranks = [], [], []
    for i, g in enumerate(case.sequence_gates):
        if g.number in order:
            gates.append(g.number)
            gold_ranks.append(0.0 if unordered else float(i))
            response_ranks.append(float(order[g.number]))
    return gates, gold_ranks, response_ranks


@metric("gcf", section="§7.6")
def gcf(case: Case) -> float:
    """Gate Coverage Fraction: :math:`\\mathrm{GCF} = |\\{g \\in G : g \\in \\hat S\\}| / |G|`.

    ``G`` is :attr:`Case.sequence_gates`: the gold gates the chain reached.
    Gates it did not reach (N/A after a kill, off the active branch) are
    neutral: a response that stops at the kill, as the procedure says, is not
    penalised, and one that adds "gate 6: not reached" is not either. Set
    ``Case.full_reconstruction`` for items that ask for the whole framework:
    then every gold gate counts.

    Returns
    -------
    float in [0, 1]

    Raises
    ------
    ScoreError
        Parse failure, or a gold program without gates.

    References
    ----------
    InvestPhilBench §7.6.
    """
    case.require_ok()
    gold = case.sequence_gates
    addressed = case.response_gates
    return sum(1 for g in gold if g.number in addressed) / len(gold)


@metric("kendall_tau", section="§7.6", bounds=(-1.0, 1.0))
def kendall_tau(case: Case) -> float:
    """Kendall's tau-b between gold and response order over the common gates.

    Ranks are positions in the gold program and first-mention positions in
    the response, over the gates both contain (gold gates from
    :attr:`Case.sequence_gates`). Defined values where tau-b is
    0/0 (see :func:`kendall_tau_b`): fewer than two common gates -> 1.0;
    a ``parallel_threshold`` card (no prescribed order) -> 1.0.

    Returns
    -------
    float in [-1, 1]

    References
    ----------
    InvestPhilBench §7.6, §7.14.
    """
    case.require_ok()
    _, x, y = _common_ranks(case)
    return kendall_tau_b(x, y)


@metric("tau_n", section="§7.6")
def tau_n(case: Case) -> float:
    """Normalised tau :math:`\\tau_n = (\\tau + 1)/2` of :func:`kendall_tau` (§7.6)."""
    return normalized_tau(kendall_tau(case))


@metric("ogrs", section="§7.6", layers=("W1",))
def ogrs(case: Case) -> float:
    """Ordered Gate Reconstruction Score :math:`\\mathrm{OGRS} = \\mathrm{GCF} \\times \\tau_n`.

    Jointly penalises missing gates and mis-ordering: 3 of 6 gates in perfect
    order gives GCF 0.5, tau 1, OGRS 0.5; no gate gives 0 whatever the order.

    Returns
    -------
    float in [0, 1]

    References
    ----------
    InvestPhilBench §7.6.
    """
    return gcf(case) * tau_n(case)


@metric("ogrs_k", section="§7.6", layers=("L4", "L7"))
def ogrs_k(case: Case, *, kill_weight: float = 2.0) -> float:
    """OGRS with kill gates weighted: :math:`\\mathrm{GCF} \\times (\\tau_k + 1)/2`.

    §7.6: kill-criterion gates get weight :math:`w_k = 2.0`, others 1.0; the
    weighted concordance count :math:`C_w = \\sum_{i<j} w_i w_j
    \\mathbf{1}[\\text{concordant}]` replaces the unweighted count in tau.
    Substituting :math:`C_w` into :math:`(C - D)/\\binom{n}{2}` alone would
    leave [-1, 1] (three gates in order, one a kill gate: 5/3), so tau is
    derived from :math:`C_w` consistently: discordant pairs and the pair
    total are weighted the same way (:func:`weighted_kendall_tau`), which
    without ties is :math:`2C_w/W - 1`. GCF stays unweighted ("computed
    identically to OGRS but using tau derived from C_w"). Kill gates are
    :attr:`Case.kill_gate_numbers`.

    Parameters
    ----------
    kill_weight : float
        Weight of a kill gate (paper: 2.0).

    Returns
    -------
    float in [0, 1]

    References
    ----------
    InvestPhilBench §7.6 "Kill-criterion weighting (OGRS_k)".
    """
    case.require_ok()
    gates, x, y = _common_ranks(case)
    kill = case.kill_gate_numbers
    weights = [kill_weight if n in kill else 1.0 for n in gates]
    return gcf(case) * normalized_tau(weighted_kendall_tau(x, y, weights))


#: How NED and NLCS treat a ``parallel_threshold`` card (no prescribed order): ``free`` (default) or ``sequence``.
PARALLEL_ORDER_RULES = ("free", "sequence")


def _sequences(case: Case, parallel: str = "free") -> tuple[list[int], list[int]]:
    if parallel not in PARALLEL_ORDER_RULES:
        raise ScoreError(f"parallel must be one of {', '.join(PARALLEL_ORDER_RULES)}, not {parallel!r}",
                         rule="parallel", name=str(parallel))
    gold = [g.number for g in case.sequence_gates]
    gold_set = set(gold)
    neutral = {g.number for g in case.gold_gates} - gold_set
    card = set(case.card_gates) if case.card_gates is not None else None
    response = [
        n
        for n in case.response_order
        if n not in neutral and (n in gold_set or card is None or n not in card)
    ]
    if parallel == "free" and case.topology == "parallel_threshold":
        stated = set(response)
        response = [n for n in gold if n in stated] + [n for n in response if n not in gold_set]
    return gold, response


@metric("ned", section="§7.14")
def ned(case: Case, *, parallel: str = "free") -> float:
    """Normalised edit distance :math:`\\mathrm{NED} = \\mathrm{ED}(S, \\hat S)/\\max(|S|, |\\hat S|)`.

    ``S`` is the gold gate sequence (:attr:`Case.sequence_gates`), ``Ŝ`` the
    response's gates in first-mention order. Gold gates the chain did not
    reach are neutral (left out of both), and so are real card gates that a
    partial gold program does not annotate (the §7.11 partial-item guard);
    lower is better.

    **Parallel cards.** A ``parallel_threshold`` card prescribes no order, so
    Kendall tau is 1 for any order (:func:`kendall_tau`). With
    ``parallel="free"`` (default) NED and NLCS agree with it: the response's
    card gates are compared in gold order (extras after them), so only
    missing and extra gates count (NLCS = common / max length). With
    ``parallel="sequence"`` the stated order is compared as on any card (the
    §7.14 formulas read literally).

    Returns
    -------
    float in [0, 1]

    References
    ----------
    InvestPhilBench §7.14.
    """
    case.require_ok()
    return normalized_edit_distance(*_sequences(case, parallel))


@metric("nlcs", section="§7.14")
def nlcs(case: Case, *, parallel: str = "free") -> float:
    """Normalised LCS :math:`\\mathrm{NLCS} = |\\mathrm{LCS}(S, \\hat S)|/\\max(|S|, |\\hat S|)`.

    Sequences as in :func:`ned`; higher is better.

    Returns
    -------
    float in [0, 1]

    References
    ----------
    InvestPhilBench §7.14.
    """
    case.require_ok()
    return normalized_lcs(*_sequences(case, parallel))


