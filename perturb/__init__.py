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

from ipb.perturb.frame import Frame, PScenario, base_from_facts, build_frame, load_base
from ipb.perturb.generation import Generation, Job, Recipe, generate, parse_recipes
from ipb.perturb.items import ITEM_VERSION, build_item, dumps_item, item_schema, write_lines
from ipb.perturb.operators import Flip, Step, find_flip, get_operator, operator, operator_names
from ipb.perturb.registries import bundled_regimes, bundled_sectors, load_regimes, load_sectors
from ipb.perturb.render import render_question
from ipb.perturb.verify import Verification, verify_items

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
