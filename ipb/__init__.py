"""``ipb``: rule engine and decision-graph interpreter for investment framework cards.

The package root is the base of the house: :mod:`ipb.errors` (one error family) and
:mod:`ipb._files` (atomic writes, hashing) import nothing of ours, and every other folder
may import them. The folders, in the order data flows through them: ``ipb.engine``
(card -> graph -> trace), ``ipb.perturb`` (items), ``ipb.respond`` (model runs),
``ipb.scoring`` (parsed answers -> metrics -> summary), ``ipb.report`` (HTML); beside them
``ipb.neighbours`` (the neighbouring benchmarks) and, on top, ``ipb.cli``.

The Python API (loaded on first use, so ``import ipb`` stays light)::

    >>> import ipb
    >>> trace = ipb.execute("graham_net_net_screen", {"market_value": "$20M", "current_assets": "$45M",
    ...                     "total_liabilities": "$12M", "preferred_stock": "$3M", "net_income": "$1M"})
    >>> trace.outcome
    'INVEST'

``ipb.load_card``, ``ipb.execute``, ``ipb.facts``, ``ipb.explain`` (:mod:`ipb.engine.api`),
``ipb.parse``, ``ipb.score`` (:mod:`ipb.scoring.api`).
See docs/python-api.md.
"""

from __future__ import annotations

import importlib
from typing import Any

#: Public name -> the module that defines it (imported on first access).
_API = {
    "load_card": "ipb.engine.api",
    "execute": "ipb.engine.api",
    "facts": "ipb.engine.api",
    "explain": "ipb.engine.api",
    "parse": "ipb.scoring.api",
    "score": "ipb.scoring.api",
}

__all__ = list(_API)


def __getattr__(name: str) -> Any:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'ipb' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
