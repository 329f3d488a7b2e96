"""The InvestPhilBench metrics, computed from a parsed response and its gold program.

Every metric is a pure, deterministic function of a :class:`Case` (the gold
reasoning program, the parsed response, and the item facts a metric needs)
and is registered by name in :data:`ipb.scoring.registry.metrics`. The
embedding-based ones take an injectable encoder (``Case.encoder``); with
none, :func:`ipb.scoring.embeddings.default_encoder` is used.

Inputs
------
*Gold program* (paper §6.3, Appendix E), as ``ExecutionTrace.to_grp()``
writes it::

    {"framework", "gold_program": [{"gate": 1, "name", "verdict",
      "kill_criterion", "required_elements": [...], "kill_triggered",
      "computed_value"}, ...], "investment_verdict", "verdict_trigger"}

*Parsed response* (paper §7.5), as the response parser writes it::

    {"status": "ok" | "parse_failure", "reason", "gates": [{"gate", "name",
      "verdict", "elements", "span"}, ...], "final_verdict",
      "invented_gates", "years", "attributions", "citations", "text"}

Conventions (decided here, where the paper is silent)
-----------------------------------------------------
- Gates are identified by their 1-based card number. A gate the response
  addresses more than once keeps its *first* position (order of first
  mention), its *last* stated verdict and the union of its elements.
- Gold gates the chain did not reach (N/A) are neutral: not required, not
  penalised, not scored (GCF, tau, NED, NLCS, VerdictAcc, GRA, KCCS), unless
  ``Case.full_reconstruction`` asks for the whole framework (sequence metrics).
- ``None`` means *not applicable* (no kill gates, no gold source, not an
  institutional card...) and is excluded from averages; it is never zero.
- A parse failure is never scored: every metric raises
  :class:`~ipb.errors.ScoreError` (rule ``parse_failure``) on one.
- Legacy gold verdict labels are normalised as the paper's schema note says:
  PASS/RANK -> PROCEED, FAIL/FILTER/KILL -> REJECT.

Modules
-------
One per metric family; importing this package registers every metric in the
order below (the order of ``ipb score``'s columns).

- :mod:`._labels`: verdict labels and the §7.3 credit;
  :mod:`._case`: :class:`Case` and its inputs; :mod:`._matching`: element
  matching (numbers, direction, negation, cosine);
- :mod:`.sequence`: GCF, tau, OGRS, OGRS_k, NED, NLCS (§7.6, §7.14);
- :mod:`.verdict`: VerdictAcc and GRA (§7.3, §7.13, §7.15);
- :mod:`.elements`: KCCS (§7.7) and the embedding prefetch;
- :mod:`.attribution`: SAP@k (§7.8);
- :mod:`.institutional`: CKCA and ContradictionCoverage (§7.10, §7.11);
- :mod:`.voice`: SDI and IVP (§7.9).

Imports: :mod:`ipb.errors`, :mod:`ipb.scoring.embeddings`,
:mod:`ipb.scoring.registry` and (for :meth:`Case.for_card`) :mod:`ipb.engine`.
"""

from __future__ import annotations

from ipb.scoring.metrics._labels import (
    INCONCLUSIVE_RULES,
    acknowledges_data_gap,
    PROCEED,
    REJECT,
    INCONCLUSIVE,
    NOT_APPLICABLE,
    normalize_verdict,
    verdict_credit,
)
from ipb.scoring.metrics._case import (
    GoldGate,
    ResponseGate,
    SourceRef,
    CareerBoundary,
    InvestorProfile,
    investor_profiles,
    Case,
    investor_matches,
)
from ipb.scoring.metrics._matching import (
    DEFAULT_CONCEPT_THRESHOLD,
    DEFAULT_REL_TOL,
    DEFAULT_APPROX_REL_TOL,
    PAPER_KCCS_THRESHOLD,
    Quantity,
    extract_quantities,
    comparison_direction,
    is_negated,
    ElementMatcher,
    element_f1,
    CalibrationResult,
    calibrate_threshold,
    split_sentences,
)
from ipb.scoring.metrics.sequence import (
    PARALLEL_ORDER_RULES,
    kendall_tau_b,
    weighted_kendall_tau,
    normalized_tau,
    edit_distance,
    lcs_length,
    normalized_edit_distance,
    normalized_lcs,
    gcf,
    kendall_tau,
    tau_n,
    ogrs,
    ogrs_k,
    ned,
    nlcs,
)
from ipb.scoring.metrics.verdict import (
    verdict_acc_gates,
    verdict_acc,
    GateScore,
    gra_gates,
    gra,
)
from ipb.scoring.metrics.elements import (
    prefetch_embeddings,
    kccs_gates,
    kccs,
)
from ipb.scoring.metrics.attribution import (
    sap_at_k,
    section_numbers,
    sap1,
    sap2,
    sap3,
)
from ipb.scoring.metrics.institutional import (
    CKCA_GATES,
    ckca,
    contradiction_coverage,
)
from ipb.scoring.metrics.voice import (
    sdi,
    pairwise_sdi,
    ivp_table,
    ivp,
)

__all__ = [
    # verdicts
    "PROCEED",
    "REJECT",
    "INCONCLUSIVE",
    "NOT_APPLICABLE",
    "normalize_verdict",
    "verdict_credit",
    "INCONCLUSIVE_RULES",
    "acknowledges_data_gap",
    "PARALLEL_ORDER_RULES",
    # inputs
    "GoldGate",
    "ResponseGate",
    "SourceRef",
    "CareerBoundary",
    "InvestorProfile",
    "investor_profiles",
    "Case",
    # sequence primitives
    "kendall_tau_b",
    "weighted_kendall_tau",
    "normalized_tau",
    "edit_distance",
    "lcs_length",
    "normalized_edit_distance",
    "normalized_lcs",
    # element matching
    "DEFAULT_CONCEPT_THRESHOLD",
    "DEFAULT_REL_TOL",
    "DEFAULT_APPROX_REL_TOL",
    "PAPER_KCCS_THRESHOLD",
    "Quantity",
    "extract_quantities",
    "comparison_direction",
    "is_negated",
    "ElementMatcher",
    "element_f1",
    "CalibrationResult",
    "calibrate_threshold",
    "prefetch_embeddings",
    # per-response metrics
    "gcf",
    "kendall_tau",
    "tau_n",
    "ogrs",
    "ogrs_k",
    "ned",
    "nlcs",
    "verdict_acc_gates",
    "verdict_acc",
    "GateScore",
    "gra_gates",
    "gra",
    "kccs_gates",
    "kccs",
    "sap_at_k",
    "section_numbers",
    "sap1",
    "sap2",
    "sap3",
    "CKCA_GATES",
    "ckca",
    "contradiction_coverage",
    "investor_matches",
    "split_sentences",
    # group metrics
    "sdi",
    "pairwise_sdi",
    "ivp_table",
    "ivp",
]
