"""``ipb``: rule engine and decision-graph interpreter for investment framework cards.

The package root is the base of the house: :mod:`ipb.errors` (one error family) and
:mod:`ipb._files` (atomic writes, hashing) import nothing of ours, and every other folder
may import them. The folders, in the order data flows through them: ``ipb.engine``
(card -> graph -> trace), ``ipb.perturb`` (items), ``ipb.respond`` (model runs),
``ipb.scoring`` (parsed answers -> metrics -> summary), ``ipb.report`` (HTML); beside them
``ipb.neighbours`` (the neighbouring benchmarks) and, on top, ``ipb.cli``.
"""
