"""Element metrics: KCCS (paper §7.7), and the embedding prefetch for every element comparison.

The matcher itself lives in :mod:`ipb.scoring.metrics._matching` and is
re-exported here.
"""

from __future__ import annotations

from typing import Any, Iterable

from ipb.scoring.embeddings import Encoder, default_encoder
from ipb.scoring.metrics._case import Case
from ipb.scoring.metrics._foreign_elements import element_credit
from ipb.scoring.metrics._labels import NOT_APPLICABLE
from ipb.scoring.metrics._matching import (  # noqa: F401
    DEFAULT_APPROX_REL_TOL,
    DEFAULT_CONCEPT_THRESHOLD,
    DEFAULT_REL_TOL,
    PAPER_KCCS_THRESHOLD,
    CalibrationResult,
    ElementMatcher,
    Quantity,
    _human,
    calibrate_threshold,
    comparison_direction,
    element_f1,
    extract_quantities,
    is_negated,
    split_sentences,
)
from ipb.scoring.registry import metric


def kccs_gates(case: Case, *, threshold: float = DEFAULT_CONCEPT_THRESHOLD) -> dict[int, float]:
    """Gate-level KCCS_g for each kill gate the chain reached (see :func:`kccs`).

    A gate whose every required element is unknown in the answer's language
    (an answer not in English, elements of words only the parser did not
    read; :mod:`._foreign_elements`) has no KCCS_g and is left out.
    """
    case.require_ok()
    matcher = ElementMatcher(case.encoder, threshold)
    kill = case.kill_gate_numbers
    out = {}
    for g in case.gold_gates:
        if g.number not in kill or g.verdict == NOT_APPLICABLE:
            continue
        value = element_credit(case, g, matcher).f1
        if value is not None:
            out[g.number] = value
    return out


def kccs_unknown(case: Case, value: float | None) -> bool:
    """Whether a KCCS of ``value`` (None) is *unknown* rather than not applicable: the chain reached a kill gate, but
    every reached kill gate was left out because none of its elements could be told in the answer's language
    (:func:`kccs_gates`; s49fair). Not applicable (False) when the chain reached no kill gate.

    ``ipb score`` marks such a record ``metrics["kccs_unknown"] = 1`` and the summary counts them per group
    (``n_kccs_unknown``), so the leaderboard can say "KCCS unknown on k answers" beside the KCCS figure.

    >>> gold = {"gold_program": [{"gate": 1, "verdict": "REJECT", "kill_triggered": True,
    ...                           "required_elements": ["durable moat"]}]}
    >>> kccs_unknown(Case(gold, {"gates": []}), None), kccs_unknown(Case(gold, {"gates": []}), 0.5)
    (True, False)
    >>> kccs_unknown(Case({"gold_program": [{"gate": 1, "verdict": "PROCEED"}]}, {"gates": []}), None)
    False
    """
    if value is not None:
        return False
    kill = case.kill_gate_numbers
    return any(g.number in kill and g.verdict != NOT_APPLICABLE for g in case.gold_gates)


def final_contradicts_trace(case: Case, card: Any) -> str | None:
    """The final verdict the card's gate logic gives on the answer's own gate verdicts, where it is not the answer's
    stated final verdict; else None.

    ``card`` is the compiled card (:func:`ipb.engine.graph.compile_card`). The answer's gate verdicts
    (:attr:`Case.response_gates`: PROCEED, REJECT, INCONCLUSIVE; a gate it did not state, or read N/A, is open) run
    through the card's own gate logic, the engine's execution (:func:`ipb.engine.stated.outcome_of_verdicts`: a
    linear chain stops at its first REJECT, an N-of-M threshold counts the PROCEED weight, a regime card's branch
    decides). Where every gate that can change the outcome is stated, that outcome is compared with the stated final
    verdict (case, spaces and hyphens ignored); a stated final the card cannot give at all (not one of its outcomes
    or INCONCLUSIVE) is not compared, and neither is an answer with no stated final.

    No failure mode of the paper covers this (§9: FM-3 fires on ``KCR_det = n̂_KC / n_KC < 0.50``, the kill gates
    the answer *detects*; an answer that reads the kill gate's REJECT has KCR_det 1), and the §7.13 composite gives
    such an answer OGRS_k and KCCS in full and only VerdictAcc 0 (0.76 on an L7 item with no SAP term: (0.35 + 0.30)
    / 0.85). The number is the paper's; ``ipb score`` marks the record ``metrics["final_contradicts_trace"] = 1``
    and the summary counts them per group (``n_final_contradicts_trace``), so a reader sees that a model reasoned to
    one verdict and stated another: a kill gate's REJECT and then the pass verdict (s63 new user E2), four of six
    gates PROCEED with their weight at the threshold and then the fail verdict, every gate PROCEED and then the fail
    verdict (s64 new user F4). A card whose own logic passes after a kill gate's REJECT (a weighted threshold) is
    not flagged for it.

    >>> from ipb.engine.registry import compiled_card
    >>> card = compiled_card("graham_net_net_screen")   # linear: gate 1, then gate 2; INVEST / DECLINE
    >>> gold = {"gold_program": [{"gate": 1, "verdict": "PROCEED"}, {"gate": 2, "verdict": "REJECT",
    ...                           "kill_triggered": True}], "investment_verdict": "DECLINE"}
    >>> said = {"gates": [{"gate": 1, "verdict": "PROCEED"}, {"gate": 2, "verdict": "REJECT"}]}
    >>> final_contradicts_trace(Case(gold, {**said, "final_verdict": "INVEST"}), card)
    'DECLINE'
    >>> final_contradicts_trace(Case(gold, {**said, "final_verdict": "DECLINE"}), card) is None
    True
    >>> both = {"gates": [{"gate": 1, "verdict": "PROCEED"}, {"gate": 2, "verdict": "PROCEED"}]}
    >>> final_contradicts_trace(Case(gold, {**both, "final_verdict": "DECLINE"}), card)
    'INVEST'
    """
    from ipb.engine.stated import card_outcomes, outcome_of_verdicts
    from ipb.scoring.metrics.verdict import _final_label

    said = _final_label(case.parsed.get("final_verdict"))
    if said is None or card is None or getattr(card, "card", None) is None:
        return None
    if said not in {_final_label(o) for o in card_outcomes(card)}:
        return None  # not a verdict this card gives: a wrong word, not a contradiction of its own trace
    stated = {n: g.verdict for n, g in case.response_gates.items() if g.verdict is not None}
    if not stated:
        return None
    implied = outcome_of_verdicts(card, stated)
    if implied is None or _final_label(implied) == said:
        return None
    return implied


@metric("kccs", section="§7.7", layers=("L4", "L5", "L7", "W1"))
def kccs(case: Case, *, threshold: float = DEFAULT_CONCEPT_THRESHOLD) -> float | None:
    """Kill Criterion Coverage Score: mean element F1 over the kill gates.

    .. math:: \\mathrm{KCCS}_g = \\frac{2|E_g \\cap \\hat E_g|}{|E_g| + |\\hat E_g|},\\qquad
              \\mathrm{KCCS} = \\frac{1}{|G_K|}\\sum_{g \\in G_K} \\mathrm{KCCS}_g

    ``G_K``: the card's kill gates that the gold chain reached (a gate not
    reached, N/A, has no elements to cover). ``E_g``: the gold gate's
    ``required_elements`` (for kill gates "precisely the conditions under
    which it fires", §7.7 note). ``Ê_g``: the elements the parser detected at
    that gate (none if the response skips it). Matching is
    :class:`ElementMatcher`: numbers exactly (relative tolerance 1e-3, 10%
    for gold numbers marked approximate), concepts by cosine >= ``threshold``
    behind the negation and direction guards.

    **An answer not in English** (:func:`ipb.scoring.outcome.reads_as_english`
    false; s49fair): the parser reads elements by the card's English words, so
    an element it did not read counts by its figures when it has any (the
    gate's own text states each figure: "0,9x" and "1,2x" meet "price to book
    0.9x" and "1.2x floor") and is *unknown* when it is words only: left out of
    ``E_g``, neither missed nor met. A gate with every element unknown is left
    out of the mean; with every reached kill gate so, KCCS is None (unknown),
    and the layer composite is taken over its other terms (``renormalize``, the
    default). So a Spanish or German answer stating the English answer's
    figures gets the English answer's KCCS on a card whose kill elements are
    figures, and never a 0 for writing in its own language.

    Parameters
    ----------
    threshold : float
        Concept cosine threshold; default calibrated for all-MiniLM-L6-v2
        (:data:`DEFAULT_CONCEPT_THRESHOLD`). The paper's 0.82 belongs to
        text-embedding-3-large.

    Returns
    -------
    float in [0, 1], or None when the item has no reached kill gate, or (an
    answer not in English) none whose elements can be told.

    Examples
    --------
    One kill gate, two gold elements, one matched by number, one missed (F1 2·1/(2+2)):

    >>> gold = {"gold_program": [{"gate": 1, "verdict": "REJECT", "kill_triggered": True,
    ...                           "required_elements": ["price $50B", "debt above 3x"]}]}
    >>> parsed = {"gates": [{"gate": 1, "verdict": "REJECT", "elements": ["price of $50 billion", "debt below 3x"]}]}
    >>> kccs(Case(gold, parsed))
    0.5

    References
    ----------
    InvestPhilBench §7.7.
    """
    gates = kccs_gates(case, threshold=threshold)
    if not gates:
        return None
    return sum(gates.values()) / len(gates)



def prefetch_embeddings(cases: Iterable[Case], encoder: Encoder | None = None) -> int:
    """Embed, in one batch, every text the metrics and detectors may compare.

    For each case: gold required elements and kill labels, detected
    elements (as :class:`ElementMatcher` embeds them), contradictions and the
    response's sentences, the whole response text and the voice references
    of the investor and peers. Each distinct text is sent once. This only
    saves work when the encoder caches (:class:`~ipb.scoring.embeddings.CachedEncoder`,
    as :func:`~ipb.scoring.embeddings.default_encoder` does): later metric
    calls then find every vector cached.

    Parameters
    ----------
    cases : iterable of Case
        Cases sharing ``encoder`` (or each case's own when None).
    encoder : Encoder, optional
        Default: the first case's encoder, else the default MiniLM.

    Returns
    -------
    int
        Number of distinct texts sent to the encoder.
    """
    texts: dict[str, None] = {}
    chosen = encoder
    for case in cases:
        chosen = chosen or case.encoder
        if not case.ok:
            continue
        for g in case.gold_gates:
            for e in g.required_elements:
                texts[_human(e)] = None
        for label in (case.kill_gates or {}).values():
            if label:
                texts[_human(label)] = None
        for r in case.response_gates.values():
            for e in r.elements:
                texts[_human(e)] = None
        if case.contradictions:
            texts.update(dict.fromkeys(case.contradictions))
            texts.update(dict.fromkeys(split_sentences(case.text)))
        if case.text.strip():
            texts[case.text] = None
        for profile in (case.investor, *case.peers):
            if profile is not None and profile.distinctive_phrases:
                texts[profile.reference_text] = None
    unique = list(texts)
    if unique:
        (chosen if chosen is not None else default_encoder()).encode(unique)
    return len(unique)


