"""The verdict labels of the paper (§7.3, Appendix E) and the INCONCLUSIVE credit.

Imports nothing of the other metric modules.
"""

from __future__ import annotations

import re  # noqa: F401


PROCEED = "PROCEED"
REJECT = "REJECT"
INCONCLUSIVE = "INCONCLUSIVE"
#: A gate not reached (chain terminated, off the active branch).
NOT_APPLICABLE = "N/A"

_VERDICT_ALIASES = {
    "PROCEED": PROCEED,
    "PASS": PROCEED,
    "RANK": PROCEED,
    "REJECT": REJECT,
    "FAIL": REJECT,
    "FILTER": REJECT,
    "KILL": REJECT,
    "INCONCLUSIVE": INCONCLUSIVE,
    "N/A": NOT_APPLICABLE,
    "NA": NOT_APPLICABLE,
    "NOT_REACHED": NOT_APPLICABLE,
    "NOT REACHED": NOT_APPLICABLE,
}


def normalize_verdict(value: object) -> str | None:
    """Map a gate verdict label to PROCEED / REJECT / INCONCLUSIVE / N/A.

    Parameters
    ----------
    value : str or None
        A verdict as written in a GRP or by the parser, any case. Legacy GRP
        labels follow the paper's Appendix E schema note: PASS and RANK are
        PROCEED; FAIL, FILTER and KILL are REJECT.

    Returns
    -------
    str or None
        The canonical label, or None for None / an unknown label.

    Examples
    --------
    >>> [normalize_verdict(v) for v in ("pass", "KILL", "n/a", None, "maybe")]
    ['PROCEED', 'REJECT', 'N/A', None, None]
    """
    if value is None:
        return None
    return _VERDICT_ALIASES.get(str(value).strip().upper())


def verdict_credit(gold: str | None, predicted: str | None) -> float:
    """Credit for one gate verdict under the INCONCLUSIVE rule of §7.3.

    When the gold verdict is INCONCLUSIVE, a model INCONCLUSIVE earns 1.0 and a
    committed PROCEED or REJECT earns 0.5 ("penalising a calibrated PROCEED or
    REJECT equally mischaracterises either as a failure of reasoning"). Any
    other gold verdict needs an exact match (1.0, else 0.0). A missing
    verdict earns 0.0.

    Parameters
    ----------
    gold, predicted : str or None
        Verdict labels (normalised with :func:`normalize_verdict`).

    Returns
    -------
    float
        0.0, 0.5 or 1.0.

    References
    ----------
    InvestPhilBench §7.3 "INCONCLUSIVE handling in OGRS scoring"; §7.13 (L7).

    Examples
    --------
    >>> verdict_credit("INCONCLUSIVE", "INCONCLUSIVE"), verdict_credit("INCONCLUSIVE", "REJECT")
    (1.0, 0.5)
    >>> verdict_credit("PROCEED", "REJECT"), verdict_credit("INCONCLUSIVE", None)
    (0.0, 0.0)
    """
    g, p = normalize_verdict(gold), normalize_verdict(predicted)
    if g is None or p is None:
        return 0.0
    if g == INCONCLUSIVE:
        if p == INCONCLUSIVE:
            return 1.0
        return 0.5 if p in (PROCEED, REJECT) else 0.0
    return 1.0 if g == p else 0.0


