"""``ipb.engine``: card -> decision graph -> trace (paper §5, §6.3, Appendix E).

Strict readers that keep positions (:mod:`~ipb.engine._yaml`, :mod:`~ipb.engine._json`),
the expression language (:mod:`~ipb.engine.expressions`), cards and their lint
(:mod:`~ipb.engine.card`), the decision graph (:mod:`~ipb.engine.graph`), the executor and
GRP (:mod:`~ipb.engine.execute`), scenarios (:mod:`~ipb.engine.scenario`), the decision-time
rule (:mod:`~ipb.engine.decision_time`), the investor registry and renderings. The first
folder of the data flow: it imports only the base (:mod:`ipb.errors`, :mod:`ipb._files`).
"""
