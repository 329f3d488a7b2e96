"""What a gate result reads of its trace, held apart from the trace (split from :mod:`ipb.engine.execute`).

:attr:`ipb.engine.execute.Trace.gates` hands its :class:`~ipb.engine.execute.GateResult` objects a :class:`_Scene`,
not the trace, so a trace and its gate results make no reference cycle and are freed by reference counting as soon
as they are dropped. With the cycle, every trace whose gates were built waited for a full pass of the cyclic garbage
collector, which ``ipb perturb`` and ``ipb verify`` keep off while they run (they collect only the young generations
every 4,096 items): those traces piled up in the oldest generation and ``ipb perturb``'s peak memory grew with N
(s56mem: some 1,100 traces every 3,000 items on the Buffett card).
"""

from __future__ import annotations

from typing import Any

__all__: list[str] = []


class _Scene:
    """The environments a trace's gates ran in and the card's plan (``_plan``: names, constants, units)."""

    __slots__ = ("env", "diagnostic_env", "_plan")

    def __init__(self, env: dict[str, Any], plan: Any) -> None:
        self.env = env
        #: The environment in which diagnostic mode ran the skipped gates (set by ``execute``).
        self.diagnostic_env: dict[str, Any] | None = None
        self._plan = plan
