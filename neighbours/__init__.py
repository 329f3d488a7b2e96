"""``ipb.neighbours``: the two neighbouring benchmarks the project also scores.

- InvestLogicBench (seed 001): decision records and their outcome and reasoning scores
  (:mod:`~ipb.neighbours.records`).
- Investor's Last Exam (seed 003): forecasts and interval scoring
  (:mod:`~ipb.neighbours.forecast`), the versioned evidence store with decision-time
  cutoffs (:mod:`~ipb.neighbours.evidence`) and rubric dependency graphs
  (:mod:`~ipb.neighbours.dependencies`).

A side branch of the house: it may import ``ipb.engine`` (strict readers, expressions,
the decision-time rule) and the base; nothing but the CLI imports it.
"""
