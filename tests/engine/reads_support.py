"""A name-reading counter the engine and perturbation tests share (how often a compiled expression reads each input)."""

from __future__ import annotations

from typing import Any


class CountingReads(dict):  # type: ignore[type-arg]
    """An environment or scenario (a dict) that counts how often each name is read; the engine reads names with
    ``get``, so ``reads`` is ``{name: number of get calls}``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reads: dict[str, int] = {}

    def get(self, key: Any, default: Any = None) -> Any:
        self.reads[key] = self.reads.get(key, 0) + 1
        return super().get(key, default)
