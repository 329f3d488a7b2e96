"""Verdict metrics: per-gate and final VerdictAcc (§7.3, §7.13) and GRA (§7.15).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ipb.scoring.metrics._case import Case
from ipb.scoring.metrics._foreign_elements import element_credit
from ipb.scoring.metrics._labels import INCONCLUSIVE, PROCEED, REJECT, acknowledges_data_gap, verdict_credit
from ipb.scoring.metrics._matching import DEFAULT_CONCEPT_THRESHOLD, ElementMatcher
from ipb.scoring.registry import metric


@metric("verdict_acc_gates", section="§7.3")
def verdict_acc_gates(case: Case, *, inconclusive: str = "a2") -> float | None:
    """Per-gate VerdictAcc: mean :func:`verdict_credit` over the gold gates.

    .. math:: \\frac{1}{|G'|}\\sum_{g \\in G'} c(v_g, \\hat v_g),\\quad
              c = 1 \\text{ if equal};\\ c(\\text{INCONCLUSIVE}, \\text{PROCEED|REJECT}) = 0.5 \\text{ or } 0

    The INCONCLUSIVE credit follows ``inconclusive`` (see
    :func:`verdict_credit`): ``a2`` gives a committed verdict 0.5 only when
    the gate's own text (:meth:`Case.gate_text`) acknowledges the data gap,
    ``flat`` always 0.5.

    ``G'`` is the gold gates with a verdict (N/A gates, not reached, carry no
    verdict to reproduce). A gate the response does not address earns 0.

    Returns
    -------
    float in [0, 1], or None when no gold gate has a verdict.

    References
    ----------
    InvestPhilBench §7.3 (INCONCLUSIVE rule), §7.6 (OGRS verdict accuracy).
    """
    case.require_ok()
    scored = [g for g in case.gold_gates if g.verdict in (PROCEED, REJECT, INCONCLUSIVE)]
    if not scored:
        return None
    response = case.response_gates
    total = 0.0
    for g in scored:
        r = response.get(g.number)
        acknowledged = g.verdict == INCONCLUSIVE and r is not None and acknowledges_data_gap(case.gate_text(g.number))
        total += verdict_credit(g.verdict, r.verdict if r else None, rule=inconclusive, acknowledged=acknowledged)
    return total / len(scored)


def _final_label(value: object) -> str | None:
    if value is None:
        return None
    text = re.sub(r"[\s\-]+", "_", str(value).strip().upper())
    return text or None


@metric("verdict_acc", section="§7.13", layers=("L7",))
def verdict_acc(case: Case, *, inconclusive: str = "a2") -> float | None:
    """Final VerdictAcc: the INVEST/DECLINE (or card action) verdict, INCONCLUSIVE per §7.3.

    1.0 when the response's final verdict equals the gold
    ``investment_verdict`` (case and spacing ignored), else 0.0; when the gold
    is INCONCLUSIVE, a committed verdict earns 0.5 (``inconclusive="flat"``,
    §7.3) or, under ``"a2"`` (Appendix A.2, default), 0.5 only when the
    answer acknowledges the data gap and 0 otherwise. No stated final verdict
    earns 0.0.

    Returns
    -------
    float in {0, 0.5, 1}, or None when the gold program has no decision target
    (excluded, never a placeholder, as §6.3 plans).

    Examples
    --------
    >>> gold = {"gold_program": [{"gate": 1, "verdict": "REJECT"}], "investment_verdict": "DECLINE"}
    >>> verdict_acc(Case(gold, {"final_verdict": "decline"})), verdict_acc(Case(gold, {"final_verdict": "INVEST"}))
    (1.0, 0.0)

    References
    ----------
    InvestPhilBench §7.13 (L7), §7.3, §6.3 (VerdictAcc).
    """
    case.require_ok()
    gold = _final_label(case.gold.get("investment_verdict"))
    if gold is None:
        return None
    predicted = _final_label(case.parsed.get("final_verdict"))
    if predicted is None:
        return 0.0
    if gold == INCONCLUSIVE:
        if predicted == INCONCLUSIVE:
            return 1.0
        return 0.5 if inconclusive == "flat" or acknowledges_data_gap(case.text) else 0.0
    return 1.0 if predicted == gold else 0.0



# =========================================================================== GRA


@dataclass(frozen=True)
class GateScore:
    """One gold gate's GRA components (§7.15)."""

    gate: int
    name_match: int
    verdict_match: int
    elements_match: float | None
    score: float


def _verdict_class(verdict: str | None) -> str | None:
    if verdict == REJECT:
        return "rejection"
    if verdict in (PROCEED, INCONCLUSIVE):
        return "qualifying"
    return None


#: GRA's rule for an INCONCLUSIVE gate, in words: the one sentence ``ipb score``'s legend and ``ipb report``'s
#: leaderboard caption both print (:func:`_gra_verdict_match` is the rule itself).
GRA_INCONCLUSIVE_RULE = "on GRA an INCONCLUSIVE gate matches only a gold INCONCLUSIVE"


def _gra_verdict_match(gold: str, response: str | None) -> int:
    """GRA's verdict_match for one gate (§7.15): 1 or 0.

    The binary classes decide (REJECT against PROCEED, a gold INCONCLUSIVE in
    the qualifying class), except that an answer of INCONCLUSIVE matches only
    a gold INCONCLUSIVE: "I cannot tell" is not a PROCEED, and counting it as
    one would let an answer that says INCONCLUSIVE on every gate earn the
    verdict term on every gold PROCEED gate.
    """
    if response == INCONCLUSIVE:
        return int(gold == INCONCLUSIVE)
    gold_class = _verdict_class(gold)
    return int(gold_class is not None and _verdict_class(response) == gold_class)


def gra_gates(case: Case, *, threshold: float = DEFAULT_CONCEPT_THRESHOLD) -> list[GateScore]:
    """Per-gate GRA scores (see :func:`gra`), one per scored gold gate."""
    case.require_ok()
    matcher = ElementMatcher(case.encoder, threshold)
    response = case.response_gates
    out = []
    for g in case.gold_gates:
        if g.verdict not in (PROCEED, REJECT, INCONCLUSIVE):
            continue
        r = response.get(g.number)
        if r is None:
            out.append(GateScore(g.number, 0, 0, 0.0, 0.0))
            continue
        verdict_match = _gra_verdict_match(g.verdict, r.verdict)
        elements = element_credit(case, g, matcher).recall
        if elements is None:  # every element unknown in the answer's language: the two terms that can be told
            out.append(GateScore(g.number, 1, verdict_match, None, (1 + verdict_match) / 2))
        else:
            out.append(GateScore(g.number, 1, verdict_match, elements, (1 + verdict_match + elements) / 3))
    return out


@metric("gra", section="§7.15", layers=("L4", "L7"))
def gra(case: Case, *, threshold: float = DEFAULT_CONCEPT_THRESHOLD) -> float | None:
    """Gate Reconstruction Accuracy: mean gate score over the scored gold gates.

    .. math:: s_g = 0 \\text{ if name\\_match} = 0,\\ \\text{else}\\
              (\\text{name\\_match} + \\text{verdict\\_match} + \\text{elements\\_match})/3

    - name_match: the response addresses the gate (the parser matched its
      name, an alias, a number or a paraphrase);
    - verdict_match: binary rejection class (REJECT) vs qualifying class
      (PROCEED). INCONCLUSIVE is not a GRA class; a gold INCONCLUSIVE gate,
      which does not kill, is in the qualifying class, so the §7.3 partial
      credit does not apply here. An answer of INCONCLUSIVE matches only a
      gold INCONCLUSIVE (it states no verdict to put in a class; the paper
      is silent here, and reading it as PROCEED would reward "unknown" on
      every gate). No verdict: 0.
    - elements_match: fraction of ``required_elements`` matched one-to-one
      by the gate's detected elements (:class:`ElementMatcher`); 1.0 for a
      gate with none required. An answer not in English
      (:func:`ipb.scoring.outcome.reads_as_english` false; s49fair): an
      element the parser did not read counts by its figures (the gate's text
      states each of them), and one of words only is unknown, left out of the
      fraction; a gate with every element unknown scores
      (name_match + verdict_match)/2, the terms that can be told, and its
      elements_match is None. So a translation of an English answer with
      every figure stated gets the English answer's GRA on such gates, and
      a right answer is never held to 2/3 for writing in its own language.

    Scored gates are those with a gold verdict (N/A gates are not scored).
    Hand-worked: name hit, wrong verdict class, 1 of 3 elements:
    (1 + 0 + 1/3)/3 = 4/9.

    Returns
    -------
    float in [0, 1], or None when no gate is scored.

    References
    ----------
    InvestPhilBench §7.15 "Gate Reconstruction Accuracy".
    """
    scores = gra_gates(case, threshold=threshold)
    if not scores:
        return None
    return sum(s.score for s in scores) / len(scores)


