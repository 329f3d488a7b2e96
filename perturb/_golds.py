"""What scoring reads from an item: its gold programs and its scenario's year (paper §6.5, §7).

Kept apart from :mod:`ipb.perturb.items` (which builds items and imports the engine's decision
graph, networkx) so that ``ipb score`` reads items without importing how they were made.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ipb.errors import ScoreError


def golds_of(item: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The gold programs of an item: ``[item["grp"]]`` for L7, each ``golds[i]["grp"]`` for L8.

    Raises
    ------
    ScoreError
        The item carries neither.
    """
    if isinstance(item.get("grp"), Mapping):
        return [item["grp"]]
    golds = item.get("golds")
    if isinstance(golds, list) and golds and all(isinstance(g, Mapping) and isinstance(g.get("grp"), Mapping) for g in golds):
        return [g["grp"] for g in golds]
    raise ScoreError(f"item {item.get('id')!r} has no gold program ('grp' or 'golds')", rule="item",
                     name=str(item.get("id")))


def scenario_year_of(item: Mapping[str, Any]) -> int | None:
    """The year of the item's scenario date (``scenario.as_of``, else ``manifest.context.as_of``), or None."""
    scenario = item.get("scenario")
    if isinstance(scenario, Mapping) and scenario.get("as_of"):
        return _year_of_date(scenario.get("as_of"))
    manifest = item.get("manifest")
    if isinstance(manifest, Mapping) and isinstance(manifest.get("context"), Mapping):
        return _year_of_date(manifest["context"].get("as_of"))
    return None


def _year_of_date(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        m = re.match(r"\s*(\d{4})", value)
        return int(m.group(1)) if m else None
    return None
