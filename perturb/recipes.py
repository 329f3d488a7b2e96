"""Recipes: what ``--ops`` and ``--mix`` ask :mod:`ipb.perturb.generation` to make, and the default set.

A recipe is a sequence of perturbation operators (paper §5.3, layers L7/L8)
applied in order to make one item: ``metric``, ``sector:energy+temporal``.
``--ops`` names recipes that share the items evenly; ``--mix RECIPE=WEIGHT,...``
gives them weights (normalised to sum to 1); with neither, a card gets
:data:`DEFAULT_OPERATORS` that apply to it, each as its own recipe, and a note
for each skipped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from ipb.errors import PerturbError
from ipb.perturb.frame import Frame
from ipb.perturb._sector_notes import renaming_only_note
from ipb.perturb.operators import get_operator, sector_context_note

__all__ = ["DEFAULT_OPERATORS", "Recipe", "parse_recipes", "parse_mix", "default_recipes", "inapplicable_recipes"]

#: The operators a card gets when no ``--ops`` is given (each its own recipe), in this order.
DEFAULT_OPERATORS = ("metric", "sector", "temporal", "flip", "isolate")


@dataclass(frozen=True)
class Recipe:
    """A sequence of (operator, argument) applied in order to make one item."""

    text: str
    steps: tuple[tuple[str, str | None], ...]


def parse_recipes(spec: str | Sequence[str]) -> tuple[Recipe, ...]:
    """Parse ``--ops``: recipes separated by commas, operators in a recipe by ``+``.

    >>> [r.steps for r in parse_recipes("metric,sector:energy+temporal")]
    [(('metric', None),), (('sector', 'energy'), ('temporal', None))]

    Raises
    ------
    PerturbError
        Rule ``operator``: an empty recipe or an unknown operator (with a
        "did you mean"); rule ``ops``: a recipe named twice (items are shared
        evenly among recipes, so a repeat would silently double its share;
        ``--mix`` weights recipes).
    """
    parts = [spec] if isinstance(spec, str) else list(spec)
    recipes: list[Recipe] = []
    for part in parts:
        for text in part.split(","):
            text = text.strip()
            if not text:
                raise PerturbError(f"empty recipe in --ops {','.join(parts)!r}", rule="operator")
            steps: list[tuple[str, str | None]] = []
            for token in text.split("+"):
                name, sep, arg = token.strip().partition(":")
                get_operator(name)
                steps.append((name, arg if sep else None))
            canonical = "+".join(n if a is None else f"{n}:{a}" for n, a in steps)
            if canonical in [r.text for r in recipes]:
                raise PerturbError(f"--ops names recipe {canonical!r} twice; items are shared evenly among recipes "
                                   "(--mix RECIPE=WEIGHT,... gives one a larger share)", rule="ops", name=canonical)
            recipes.append(Recipe(canonical, tuple(steps)))
    if not recipes:
        raise PerturbError("no operators given", rule="operator")
    return tuple(recipes)


def parse_mix(spec: str) -> tuple[tuple[Recipe, ...], tuple[float, ...]]:
    """Parse ``--mix``: ``RECIPE=WEIGHT`` pairs separated by commas; weights are normalised.

    >>> recipes, weights = parse_mix("metric=0.4,flip=0.2,sector+metric=0.4")
    >>> [r.text for r in recipes], weights
    (['metric', 'flip', 'sector+metric'], (0.4, 0.2, 0.4))

    Raises
    ------
    PerturbError
        Rule ``mix``: a pair without ``=``, a weight that is not a
        non-negative number, all weights zero, or a recipe named twice; rule
        ``operator``: an unknown operator.
    """
    recipes: list[Recipe] = []
    weights: list[float] = []
    for part in spec.split(","):
        text, sep, raw = part.strip().rpartition("=")
        if not sep or not text.strip():
            raise PerturbError(f"--mix expects RECIPE=WEIGHT pairs separated by commas, got {part.strip()!r}",
                               rule="mix", name=part.strip())
        try:
            weight = float(raw)
        except ValueError:
            weight = -1.0
        if not weight >= 0 or weight == float("inf"):
            raise PerturbError(f"--mix weight of {text.strip()!r} must be a non-negative number, not {raw!r}",
                               rule="mix", name=text.strip())
        (recipe,) = parse_recipes(text.strip())
        if recipe.text in [r.text for r in recipes]:
            raise PerturbError(f"--mix names recipe {recipe.text!r} twice", rule="mix", name=recipe.text)
        recipes.append(recipe)
        weights.append(weight)
    top = max(weights)
    if top <= 0:
        raise PerturbError("--mix weights add up to 0", rule="mix")
    # scaled by the largest first: "metric=1e308,flip=1e308" added up to inf and every share became 0 (s32break)
    scaled = [w / top for w in weights]
    total = math.fsum(scaled)
    return tuple(recipes), tuple(round(w / total, 12) for w in scaled)


def default_recipes(frame: Frame) -> tuple[tuple[Recipe, ...], list[str]]:
    """The default recipes for the frame's cards and a note for each operator skipped.

    Each of :data:`DEFAULT_OPERATORS` that can apply to the cards is one
    recipe; each that cannot is left out with a note saying why.

    Raises
    ------
    PerturbError
        Rule ``not-applicable``: no default operator applies at all.
    """
    recipes: list[Recipe] = []
    notes: list[str] = []
    for name in DEFAULT_OPERATORS:
        why = get_operator(name).applies(frame)
        if why is None:
            recipes.append(Recipe(name, ((name, None),)))
            note = (sector_context_note(frame) or renaming_only_note(frame)) if name == "sector" else None
            if note is not None:
                notes.append(note)
        else:
            notes.append(f"skipped {name}: {why}")
    if not recipes:
        raise PerturbError("no perturbation operator applies to card " + " and ".join(frame.card_ids) + ": "
                           + "; ".join(notes), rule="not-applicable")
    return tuple(recipes), notes


def inapplicable_recipes(frame: Frame, recipes: Sequence[Recipe]) -> dict[int, str]:
    """The recipes (by index) an operator of which cannot apply to the frame's cards (rule ``not-applicable``), with
    the operator's reason; any other error of an operator's check is raised."""
    out: dict[int, str] = {}
    for r, recipe in enumerate(recipes):
        try:
            for name, _ in recipe.steps:
                get_operator(name).check(frame)
        except PerturbError as exc:
            if exc.rule != "not-applicable":
                raise
            out[r] = exc.message
    return out
