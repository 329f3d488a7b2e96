"""Institutional and tension metrics: CKCA (paper §7.10) and ContradictionCoverage (§7.11).
"""

from __future__ import annotations

import numpy as np

from ipb.scoring.embeddings import cosine_matrix, embed
from ipb.scoring.metrics._case import Case
from ipb.scoring.metrics._labels import REJECT
from ipb.scoring.metrics._matching import DEFAULT_CONCEPT_THRESHOLD, ElementMatcher, _human, _norm, is_negated, split_sentences  # noqa: F401
from ipb.scoring.registry import metric


#: Kill-gate numbers the compound-kill components sit at (§7.10).
CKCA_GATES = {"NBIM": (2, 3, 5), "CPPIB": (2,), "PIF": (2, 3)}
_CPPIB_MECHANISM = "factor-substitutable"


def _mechanism_stated(case: Case, number: int, mechanism: str, matcher: ElementMatcher) -> bool:
    gate = case.response_gates.get(number)
    if gate is None:
        return False
    if gate.elements and bool(matcher.match_matrix([_human(mechanism)], gate.elements).any()):
        return True
    key = _norm(mechanism)
    text = case.gate_text(number)
    return bool(key) and f" {key} " in f" {_norm(text)} " and not is_negated(text)


def _component(case: Case, number: int, matcher: ElementMatcher) -> bool:
    """1[K̂_g = K_g]: the response's kill at gate g equals the gold one (both none,
    or both REJECT with the gold mechanism stated)."""
    gold = next((g for g in case.gold_gates if g.number == number), None)
    r = case.response_gates.get(number)
    rejected = r is not None and r.verdict == REJECT
    if gold is None or not gold.kill_triggered:
        return not rejected
    label = (case.kill_gates or {}).get(number) or gold.kill_criterion or ""
    return rejected and _mechanism_stated(case, number, label, matcher)


@metric("ckca", section="§7.10", layers=("W1",))
def ckca(case: Case, *, threshold: float = DEFAULT_CONCEPT_THRESHOLD) -> float | None:
    """Compound Kill Criterion Accuracy for the institutional cards (§7.10).

    - NBIM: :math:`\\mathbf{1}[\\hat g^* = g^*]` over the independent kill
      gates {K2, K3, K5}; ``g*`` is the set of them whose kill the gold
      triggered, ``ĝ*`` the set the response REJECTs. The card is parallel,
      so two components can fire at once (a coal miner the Council also
      recommends excluding); with one trigger this is the paper's single-gate
      indicator, and naming an extra component or missing one scores 0.
    - CPPIB: :math:`\\mathbf{1}[\\hat K_2 = \\text{factor-substitutable}]
      \\times \\mathbf{1}[\\hat v_2 = \\mathrm{REJECT}]`: the mechanism is
      stated at gate 2 (one of its detected elements matches the mechanism,
      or its text says it, un-negated) and gate 2 is REJECTed.
    - PIF: :math:`(\\mathbf{1}[\\hat K_2 = K_2] + \\mathbf{1}[\\hat K_3 =
      K_3])/2`; ``K_g`` is the gold kill at gate g (the card's kill label
      when triggered, else none) and the response's ``K̂_g`` is its REJECT
      with the stated mechanism, else none.

    CKCA asks which component *triggered* REJECT, so it applies only when
    the gold triggered one of the institution's kill components; otherwise,
    and for non-institutional cards, it is None.

    Returns
    -------
    float in [0, 1] or None.

    References
    ----------
    InvestPhilBench §7.10, §5.3.
    """
    case.require_ok()
    institution = (case.institution or "").upper()
    if institution not in CKCA_GATES:
        return None
    components = CKCA_GATES[institution]
    gold = {g.number: g for g in case.gold_gates}
    triggered = [n for n in components if n in gold and gold[n].kill_triggered]
    if not triggered:
        return None
    matcher = ElementMatcher(case.encoder, threshold)
    response = case.response_gates
    if institution == "NBIM":
        predicted = {n for n in components if n in response and response[n].verdict == REJECT}
        return 1.0 if predicted == set(triggered) else 0.0
    if institution == "CPPIB":
        r = response.get(2)
        mechanism = (case.kill_gates or {}).get(2) or gold[2].kill_criterion or _CPPIB_MECHANISM
        stated = _mechanism_stated(case, 2, mechanism, matcher) or _mechanism_stated(case, 2, _CPPIB_MECHANISM, matcher)
        return 1.0 if (r is not None and r.verdict == REJECT and stated) else 0.0
    return sum(1.0 for n in components if _component(case, n, matcher)) / len(components)



# =========================================================================== ContradictionCoverage

@metric("contradiction_coverage", section="§7.11", layers=("L6",))
def contradiction_coverage(case: Case, *, threshold: float = DEFAULT_CONCEPT_THRESHOLD) -> float | None:
    """ContradictionCoverage :math:`= |\\{c \\in C : c \\text{ detected}\\}| / |C|` (FM-2).

    A contradiction/tension ``c`` of the PKB set ``C`` is detected when its
    normalised words occur in the response, or some response sentence has
    cosine >= ``threshold`` with it. The paper's 0.78 was set for
    text-embedding-3-large; the default here is the MiniLM threshold
    calibrated for KCCS (one calibration, one model).

    Returns
    -------
    float in [0, 1], or None when ``C`` is empty.

    Examples
    --------
    >>> gold = {"gold_program": [{"gate": 1, "verdict": "PROCEED"}]}
    >>> case = Case(gold, {"text": "Mind the margin of safety."}, contradictions=("margin of safety",))
    >>> contradiction_coverage(case)
    1.0

    References
    ----------
    InvestPhilBench §7.11 (FM-2), §7.13 (L6 composite).
    """
    case.require_ok()
    contradictions = [c for c in case.contradictions if c.strip()]
    if not contradictions:
        return None
    text_key = f" {_norm(case.text)} "
    pending = [c for c in contradictions if f" {_norm(c)} " not in text_key]
    detected = len(contradictions) - len(pending)
    sentences = split_sentences(case.text)
    if pending and sentences:
        vectors = embed(case.resolved_encoder(), [*pending, *sentences])
        sims = cosine_matrix(vectors[: len(pending)], vectors[len(pending) :])
        detected += int(np.sum(sims.max(axis=1) >= threshold))
    return detected / len(contradictions)


