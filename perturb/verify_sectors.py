"""``ipb verify``: an item that breaks a sector-registry rule a run refuses candidates for (stop 65, issue 18).

``ipb perturb`` refuses a scenario that states a fact its stated business model or sector omits
(``sectors/omits``), a metric outside its stated business model's range (``sectors/model_range``) and the other
rules :func:`ipb.perturb.sector_registry.omission_checks` lists, unless the base itself breaks the rule
(:func:`ipb.perturb.sector_registry.base_states`). An item edited by hand, or made by an ipb older than a rule,
can still break one: subscription software at a 35% gross margin verified clean until stop 65. This module reads
the same rules and the same exemption (:func:`ipb.perturb.sector_registry.registry_violations`), the base's facts
being the item's facts with ``manifest.changes`` undone (which ``ipb verify`` checks against the base's digest).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable, Mapping

from ipb.engine.execute import format_value
from ipb.perturb.frame import Frame
from ipb.perturb.sector_registry import (MODEL_RANGE_LABEL, OMITS_LABEL, SECTOR_RANGE_LABEL, registry_violations, sector_metric_inputs,
                                         stated_omissions)

__all__ = ["sector_rule_problems"]


def sector_rule_problems(frame: Frame, facts: Mapping[str, Any], base: Callable[[], Mapping[str, Any]],
                         sector: str | None) -> list[str]:
    """One ``breaks rule LABEL: why`` line per registry rule the item's ``facts`` break and its base does not.

    ``facts`` are the item's stated facts as engine values (every card's, by input name); ``base`` gives the base's
    facts the same way, and is called only when some rule is broken (most items break none); ``sector`` is the
    item's context sector (``manifest.context.sector``).

    >>> from decimal import Decimal
    >>> from ipb.perturb.frame import build_frame
    >>> frame = build_frame(["buffett_acquisition_checklist"])
    >>> soft = {"business_model": "subscription_software", "gross_margin": Decimal("0.35")}
    >>> sector_rule_problems(frame, soft, lambda: {**soft, "gross_margin": Decimal("0.9")}, None)
    ['breaks rule sectors/model_range: gross_margin 35% is outside the range 60% to 90% that frameworks/sectors.yaml gives business model subscription_software (a base that breaks it itself is exempt)']
    >>> sector_rule_problems(frame, soft, lambda: soft, None)
    []
    """
    labels = registry_violations(frame, facts, None, sector)
    if not labels:
        return []
    labels = registry_violations(frame, facts, base(), sector)
    return [f"breaks rule {label}: {_why(frame, label, facts, sector)} (a base that breaks it itself is exempt)"
            for label in labels]


def _why(frame: Frame, label: str, facts: Mapping[str, Any], sector: str | None) -> str:
    """What ``facts`` state that breaks registry rule ``label``, in words."""
    if label == OMITS_LABEL:
        names = [n for n in frame.inputs if n in facts and n in stated_omissions(frame, facts, sector)]
        return (f"it states {', '.join(names)}, which its business model or sector "
                f"({', '.join(str(v) for v in _labels(frame, facts, sector))}) omits in frameworks/sectors.yaml")
    if label == MODEL_RANGE_LABEL:
        dated = {m for era in frame.sectors.eras or () for m in era.scale}  # as model_range_rule leaves them out
        metrics = {n: m for n, m in sector_metric_inputs(frame).items() if m not in dated}
        for model in _labels(frame, facts, None):
            for name, metric in metrics.items():
                bounds = (frame.sectors.models or {}).get(str(model), {}).get(metric)
                value = facts.get(name)
                if bounds is not None and isinstance(value, Decimal) and not bounds[0] <= value <= bounds[1]:
                    unit = frame.inputs[name].expr_type.unit
                    shown = [format_value(v, unit) for v in (value, *bounds)]
                    return (f"{name} {shown[0]} is outside the range {shown[1]} to {shown[2]} that "
                            f"frameworks/sectors.yaml gives business model {model}")
    if label == SECTOR_RANGE_LABEL:
        dated, found = {m for era in frame.sectors.eras or () for m in era.scale}, []
        # a metric the stated business model ranges itself is the model's (sector_range_rule)
        dated |= {m for v in _labels(frame, facts, None) for m in (frame.sectors.models or {}).get(str(v), {})}
        for value_name in frame.sectors.inputs:
            stated = frame.sectors.find(facts.get(value_name))
            for name, metric in sector_metric_inputs(frame).items() if stated is not None else ():
                bounds, value = stated.ranges.get(metric), facts.get(name)
                if (bounds is not None and metric not in dated and isinstance(value, Decimal)
                        and not bounds[0] <= value <= bounds[1]):
                    unit = frame.inputs[name].expr_type.unit
                    shown = [format_value(v, unit) for v in (value, *bounds)]
                    found.append(f"{name} {shown[0]} is outside the range {shown[1]} to {shown[2]} that "
                                 f"frameworks/sectors.yaml gives sector {stated.id}")
        if found:
            return "; ".join(found)
    return "see frameworks/sectors.yaml"


def _labels(frame: Frame, facts: Mapping[str, Any], sector: str | None) -> list[Any]:
    """The stated business model and sector values of ``facts`` (and the context ``sector``), in registry order."""
    names = [*dict.fromkeys(n for s in frame.sectors.sectors for g in (s.profile, s.allows) for n in g),
             *frame.sectors.inputs]
    found = [facts[n] for n in names if isinstance(facts.get(n), str)]
    return found + ([sector] if sector is not None else [])
