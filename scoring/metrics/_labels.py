"""The verdict labels of the paper (§7.3, Appendix E) and the INCONCLUSIVE credit.

Imports nothing of the other metric modules.
"""

from __future__ import annotations

import re

from ipb.errors import ScoreError


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


#: INCONCLUSIVE-credit rules (:func:`verdict_credit`): ``a2`` (Appendix A.2, default) and ``flat`` (§7.3).
INCONCLUSIVE_RULES = ("a2", "flat")

_DATA_GAP = re.compile(
    r"\b(?:no|not\s+enough|insufficient|limited|missing|lack(?:s|ing)?(?:\s+of)?|absent|unavailable|incomplete|scant|"
    r"sparse|without)\s+(?:[a-z/-]+\s+){0,2}(?:data|information|evidence|disclosures?|details?|track\s+record|figures?|filings?|records?|numbers|accounts)\b"
    r"|\b(?:data|information|evidence|disclosures?|details?|track\s+record|figures?|filings?|records?|numbers|accounts)\s+(?:(?:is|are|was|were)\s+)?(?:not\s+"
    r"(?:available|provided|given|disclosed|supplied|known)|unavailable|missing|insufficient|lacking|limited|incomplete)\b"
    r"|\b(?:cannot|can't|can\s+not|unable\s+to|impossible\s+to)\s+(?:be\s+)?(?:assess|verif|determin|confirm|evaluat|judg|tell)"
    r"|\bnot\s+(?:provided|disclosed|given)\b|\bdata\s+gap\b|\bunknowns?\b|\bunclear\b|\buncertain(?:ty)?\b"
    r"|\bdata[- ]insufficien",
    re.IGNORECASE,
)


def acknowledges_data_gap(text: str) -> bool:
    """Whether ``text`` says the evidence is missing or insufficient (Appendix A.2's "acknowledges the data gap").

    Examples
    --------
    >>> acknowledges_data_gap("Management data not provided; assuming PROCEED.")
    True
    >>> acknowledges_data_gap("With limited information on the board, I lean REJECT."), acknowledges_data_gap("Strong team: PROCEED.")
    (True, False)
    """
    return _DATA_GAP.search(text.replace("_", " ")) is not None


def verdict_credit(gold: str | None, predicted: str | None, *, rule: str = "a2", acknowledged: bool = False) -> float:
    """Credit for one verdict under the INCONCLUSIVE rule (§7.3, Appendix A.2).

    When the gold verdict is INCONCLUSIVE, a model INCONCLUSIVE earns 1.0;
    a committed PROCEED or REJECT earns

    - ``rule="a2"`` (default; Appendix A.2's scoring note): 0.5 when it
      explicitly acknowledges the data gap (``acknowledged``, see
      :func:`acknowledges_data_gap`), else 0.0;
    - ``rule="flat"`` (§7.3 as written): 0.5 ("penalising a calibrated
      PROCEED or REJECT equally mischaracterises either as a failure of
      reasoning").

    Any other gold verdict needs an exact match (1.0, else 0.0). A missing
    verdict earns 0.0.

    Parameters
    ----------
    gold, predicted : str or None
        Verdict labels (normalised with :func:`normalize_verdict`).
    rule : {"a2", "flat"}
    acknowledged : bool
        The committed verdict's text acknowledges the data gap (``a2`` only).

    Returns
    -------
    float
        0.0, 0.5 or 1.0.

    Raises
    ------
    ScoreError
        Unknown ``rule``.

    References
    ----------
    InvestPhilBench §7.3 "INCONCLUSIVE handling in OGRS scoring"; Appendix
    A.2 scoring note; §7.13 (L7).

    Examples
    --------
    >>> verdict_credit("INCONCLUSIVE", "INCONCLUSIVE"), verdict_credit("INCONCLUSIVE", "REJECT", rule="flat")
    (1.0, 0.5)
    >>> verdict_credit("INCONCLUSIVE", "REJECT", acknowledged=True), verdict_credit("INCONCLUSIVE", "REJECT")
    (0.5, 0.0)
    >>> verdict_credit("PROCEED", "REJECT"), verdict_credit("INCONCLUSIVE", None)
    (0.0, 0.0)
    """
    if rule not in INCONCLUSIVE_RULES:
        raise ScoreError(f"INCONCLUSIVE rule must be one of {', '.join(INCONCLUSIVE_RULES)}, not {rule!r}",
                         rule="inconclusive", name=str(rule))
    g, p = normalize_verdict(gold), normalize_verdict(predicted)
    if g is None or p is None:
        return 0.0
    if g == INCONCLUSIVE:
        if p == INCONCLUSIVE:
            return 1.0
        if p not in (PROCEED, REJECT):
            return 0.0
        return 0.5 if rule == "flat" or acknowledged else 0.0
    return 1.0 if g == p else 0.0
