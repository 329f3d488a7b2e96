"""What the tests of ``bench/parse_accuracy.py`` share: the bench loaded as a module (it is a script, not a package
module), and a stub of the parser's reading so a test pins the figures' definitions, not the parser's readings."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_bench(file: str) -> ModuleType:
    """``bench/<file>`` loaded once as the module ``ipb_bench_<stem>``."""
    name = "ipb_bench_" + Path(file).stem
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / file)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


@dataclass
class G:
    """One gate reading, as the bench reads it from a parse: its number, verdict, elements and confidence."""

    gate: int
    verdict: str | None
    elements: list[str] = field(default_factory=list)
    confidence: float = 1.0


@dataclass
class R:
    """One parse, as the bench reads it."""

    status: str = "ok"
    reason: str | None = None
    gates: list[G] = field(default_factory=list)
    final_verdict: str | None = None
    final_confidence: float = 0.0
    invented_gates: list[str] = field(default_factory=list)
