"""Perturbed L7/L8 items whose gold comes from executing the cards (paper §6.5).

The framework stays fixed while the scenario changes, so a model must apply
the framework rather than recall a label. Operators (registered by name in
:mod:`ipb.perturb.operators`): ``metric``, ``sector``, ``temporal``, ``flip``,
``isolate``. :func:`generate` makes N distinct items reproducibly;
:func:`verify_items` re-executes published items against the current cards.
The second folder of the data flow: it imports the base and :mod:`ipb.engine` only.

>>> import random
>>> from ipb.perturb import build_frame, base_from_facts, get_operator
>>> from decimal import Decimal
>>> frame = build_frame(["buffett_acquisition_checklist"])
>>> base = base_from_facts(frame, {"arr": Decimal("5e9"), "ev_to_arr": Decimal(10), "revenue_growth": Decimal("0.25")})
>>> step = get_operator("flip")(frame, base, random.Random(0), "ev_to_arr")
>>> step.details["boundary"], step.details["one_step_short"]
('3.5x', '4x')
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ipb.perturb.frame import Frame, PScenario, base_from_facts, build_frame, load_base
    from ipb.perturb.generation import Generation, Job, Recipe, generate, parse_recipes
    from ipb.perturb.items import ITEM_VERSION, build_item, dumps_item, item_schema, write_lines
    from ipb.perturb.operators import Flip, Step, find_flip, get_operator, operator, operator_names
    from ipb.perturb.registries import bundled_regimes, bundled_sectors, load_regimes, load_sectors
    from ipb.perturb.render import render_question
    from ipb.perturb.verify import Verification, verify_items

#: Public name -> the submodule that defines it. The names are imported on first use (PEP 562), so
#: ``import ipb.perturb._golds`` (what ``ipb score`` reads from an item) does not import the decision
#: graph and networkx (about 0.3 s of every ``ipb score``; issue 16).
_LAZY = {
    **dict.fromkeys(("Frame", "PScenario", "base_from_facts", "build_frame", "load_base"), "frame"),
    **dict.fromkeys(("Generation", "Job", "Recipe", "generate", "parse_recipes"), "generation"),
    **dict.fromkeys(("ITEM_VERSION", "build_item", "dumps_item", "item_schema", "write_lines"), "items"),
    **dict.fromkeys(("Flip", "Step", "find_flip", "get_operator", "operator", "operator_names"), "operators"),
    **dict.fromkeys(("bundled_regimes", "bundled_sectors", "load_regimes", "load_sectors"), "registries"),
    "render_question": "render",
    **dict.fromkeys(("Verification", "verify_items"), "verify"),
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ipb.perturb' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"ipb.perturb.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [
    "Frame",
    "PScenario",
    "build_frame",
    "load_base",
    "base_from_facts",
    "Step",
    "Flip",
    "operator",
    "get_operator",
    "operator_names",
    "find_flip",
    "Recipe",
    "Job",
    "Generation",
    "parse_recipes",
    "generate",
    "ITEM_VERSION",
    "build_item",
    "dumps_item",
    "item_schema",
    "write_lines",
    "render_question",
    "load_sectors",
    "load_regimes",
    "bundled_sectors",
    "bundled_regimes",
    "Verification",
    "verify_items",
]
