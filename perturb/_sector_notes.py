"""The run note for a card on which a sector move can only rename the industry (s58user F-C13).

Split from :mod:`ipb.perturb.operators` (module size limit); :func:`ipb.perturb.recipes.default_recipes` adds the
note beside :func:`ipb.perturb.operators.sector_context_note` (the card with no sector input).
"""

from __future__ import annotations

from ipb.perturb.frame import Frame
from ipb.perturb.operators import _sector_choices, _sector_metric_inputs, sector_inputs

__all__ = ["renaming_only_note"]


def renaming_only_note(frame: Frame) -> str | None:
    """What a sector move can change on a card whose only sector-related inputs name the industry, else None.

    A move sets the inputs that name the sector and the inputs a sector's profile (or its typical ranges) covers;
    when the card has none of the latter, each sector item is its base with another industry name, and a base
    gives at most one item per other sector (s58user F-C13: on ``marks_distressed_debt`` sector made 6 of its 250
    items, the rest handed to the other operators, and the run said only "exhausted").
    """
    named = sector_inputs(frame)
    if not named:
        return None
    profiled = {n for s in frame.sectors.sectors for group in (s.profile, s.allows) for n in group}
    if any(n in frame.inputs and n not in named for n in profiled | set(_sector_metric_inputs(frame))):
        return None
    return (f"sector: card {' and '.join(frame.card_ids)} has no input with a sector profile or a sector-typical "
            f"range in {frame.sectors.file}, so a sector move changes only {', '.join(named)} (the industry's "
            f"name) and a base gives at most {len(_sector_choices(frame))} sector items, each one fact "
            "from the base; the other operators take the rest of its share")
