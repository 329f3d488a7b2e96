"""``ipb.scoring``: model answers -> parsed gate traces -> metrics -> summary (paper §7).

The response parser (:mod:`~ipb.scoring.parse`, §7.5), the metrics by family
(:mod:`~ipb.scoring.metrics`, §7.6-§7.15), failure-mode detection
(:mod:`~ipb.scoring.fmdp`, §7.10), composites (:mod:`~ipb.scoring.composite`), bootstrap
intervals (:mod:`~ipb.scoring.bootstrap`), the summary (:mod:`~ipb.scoring.summary`),
readers of other tools' logs (:mod:`~ipb.scoring.adapters`) and ``ipb score``
(:mod:`~ipb.scoring.run`). May import the base, ``engine`` and ``perturb`` (the item
format); never ``respond`` or ``report``.
"""
