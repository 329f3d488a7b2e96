"""The sector registry's types: metric definitions and sectors, as :mod:`ipb.perturb.registries` loads them.

``frameworks/sectors.yaml`` lists the industries a scenario can be relocated to, each with sector-typical
ranges of common metrics (engine values: a ratio 0.42, a multiple 3, money in USD). Split out of
:mod:`ipb.perturb.registries` (s44items) with no change; the names stay importable from there.

References
----------
Paper §6.5 (operator ii, sector substitution), Table 9 (Perturbation C).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Mapping

from ipb.engine.card import InputSpec
from ipb.errors import LoadError, did_you_mean

#: Metric unit family -> input types it can feed.
_FITS = {
    "ratio": frozenset({"ratio"}),
    "money": frozenset({"money"}),
    "multiple": frozenset({"multiple", "number"}),
    "number": frozenset({"number", "multiple"}),
}


def fits(metric_type: str, spec: InputSpec) -> bool:
    """True when a registry metric of ``metric_type`` can give a value to input ``spec``."""
    return spec.type in _FITS.get(metric_type, frozenset())


def by_id(entries: Any, wanted: str, kind: str, file: str) -> Any:
    """The entry of ``entries`` (objects with an ``id``) whose id is ``wanted``; else a :class:`LoadError` of rule
    ``kind`` ("no sector 'x' in FILE; sectors: ...", with a "did you mean"). Shared by the sector and regime registries."""
    for entry in entries:
        if entry.id == wanted:
            return entry
    ids = [entry.id for entry in entries]
    raise LoadError(f"no {kind} {wanted!r} in {file}; {kind}s: {', '.join(ids)}", rule=kind, name=wanted,
                    suggestion=did_you_mean(wanted, ids))


@dataclass(frozen=True)
class MetricDef:
    """A registry metric (or macro fact): id, unit family, the input names that mean it."""

    id: str
    type: str
    aliases: tuple[str, ...] = ()
    description: str = ""
    #: A macro flow figure's periods (``periods:``; :mod:`ipb.perturb.periods`): the first is what a regime's
    #: ``value`` covers, the others keys of a regime's entry. Empty: a level (a rate, a yield), no period.
    periods: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return (self.id, *self.aliases)


def _match(defs: Mapping[str, MetricDef], spec: InputSpec) -> MetricDef | None:
    for d in defs.values():
        if spec.name in d.names and fits(d.type, spec):
            return d
    return None


@dataclass(frozen=True)
class Sector:
    """One industry: its typical ``ranges`` (metric id -> (low, high), engine values)."""

    id: str
    name: str
    aliases: tuple[str, ...]
    ranges: dict[str, tuple[Decimal, Decimal]]
    description: str = ""
    #: Category (or yes/no) input name -> the values typical of the sector (``profile:``): sector substitution moves a
    #: card's such input to one of them, so the business model travels with the industry.
    profile: dict[str, tuple[str | bool, ...]] = field(default_factory=dict)
    #: Category input name -> values that may occur in the sector without being typical (``allows:``).
    allows: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Metric ids or input names whose facts do not describe a company of the sector (``omits:``): sector substitution
    #: drops a card's stated input that has one of these names, or that stands for one of these metrics (s36rules: a
    #: bank or insurer has no gross margin and no subscription retention).
    omits: tuple[str, ...] = ()
    #: The first calendar year the industry is a listed sector (``from:``; s57era, issue 18): a dated scenario is not
    #: moved to it before that year. None: at any date.
    since: int | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return (self.id, *self.aliases)

    def exists(self, year: int | None) -> bool:
        """True when a scenario of ``year`` (None: undated) may be moved to this sector.

        >>> Sector("enterprise_software", "enterprise software", (), {}, since=1980).exists(1979)
        False
        >>> [Sector("x", "x", (), {}, since=1980).exists(y) for y in (1980, None)]
        [True, True]
        """
        return year is None or self.since is None or year >= self.since


@dataclass(frozen=True)
class Era:
    """A span of years whose markets priced companies apart from the modern ranges (``eras:``; s57era, issue 18):
    each multiple metric of ``scale`` has its sector (or business-model) range multiplied by the factor there."""

    first: int | None
    last: int | None
    scale: dict[str, Decimal]

    def holds(self, year: int) -> bool:
        """True when ``year`` lies in the era (both ends inclusive; None: open)."""
        return (self.first is None or year >= self.first) and (self.last is None or year <= self.last)


@dataclass(frozen=True)
class SectorRegistry:
    """The sector registry: sector inputs, metric definitions and sectors (file order)."""

    inputs: tuple[str, ...]
    metrics: dict[str, MetricDef]
    sectors: tuple[Sector, ...]
    file: str = "<string>"
    #: Business model (a value of a profiled category input) -> metric id -> (low, high): the model's own range,
    #: read in place of the sector's (``models:``; s37rules, issue 18: a subscription-software vendor moved to
    #: industrial automation kept "subscription software" beside the hardware makers' 42% gross margin).
    models: dict[str, dict[str, tuple[Decimal, Decimal]]] = field(default_factory=dict)
    #: Business model -> metric ids and aliases whose facts do not describe a business of the model (a model's
    #: ``omits:``; s45rfix, s45review B4: "Existing customers pay 92% of what they paid a year earlier" for an
    #: airline): sector substitution drops them once the move has set the model, as it drops a sector's ``omits:``.
    model_omits: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Dated factors on the multiples' ranges (``eras:``, file order; s57era): the ranges are written for the markets of
    #: about 2005-2025, and a scenario dated in an era listed here reads them scaled (:meth:`dated`).
    eras: tuple[Era, ...] = ()

    def dated(self, metric_id: str, bounds: tuple[Decimal, Decimal], year: int | None) -> tuple[Decimal, Decimal]:
        """``bounds`` (a sector's or a business model's range of ``metric_id``) as they read in ``year``: both ends
        times the factor of the era holding ``year`` for that metric; unchanged when undated, or when no era holds
        the year or scales the metric (s57era, issue 18: a software multiple of 45x earnings in 1979).

        >>> reg = SectorRegistry((), {}, (), eras=(Era(1974, 1982, {"pe_ratio": Decimal("0.5")}),))
        >>> reg.dated("pe_ratio", (Decimal(20), Decimal(60)), 1979)
        (Decimal('10.0'), Decimal('30.0'))
        >>> reg.dated("pe_ratio", (Decimal(20), Decimal(60)), 1983)
        (Decimal('20'), Decimal('60'))
        """
        if year is None:
            return bounds
        for era in self.eras:
            if era.holds(year):
                factor = era.scale.get(metric_id)
                if factor is not None:
                    return bounds[0] * factor, bounds[1] * factor
                return bounds
        return bounds

    def get(self, sector_id: str) -> Sector:
        """A sector by id.

        Raises
        ------
        LoadError
            Rule ``sector``: no such sector (with a "did you mean").
        """
        return by_id(self.sectors, sector_id, "sector", self.file)

    def pair_allowed(self, name: str, value: str, sector_id: str) -> bool | None:
        """Whether category input ``name`` may take ``value`` in sector ``sector_id`` (an id or alias): True when
        the sector's ``profile`` or ``allows`` names it, False when not, None when no sector lists ``name``
        (the input is not paired with the sector) or ``sector_id`` is no sector of the file (s34, issue 18).

        >>> from ipb.perturb.registries import bundled_sectors
        >>> reg = bundled_sectors()
        >>> [reg.pair_allowed("business_model", "crypto_asset", s) for s in ("financials", "enterprise_software")]
        [True, False]
        >>> reg.pair_allowed("management_record", "mixed", "financials") is None
        True
        """
        if not any(name in s.profile or name in s.allows for s in self.sectors):
            return None
        sector = next((s for s in self.sectors if sector_id in s.names), None)
        if sector is None:
            return None
        return value in sector.profile.get(name, ()) or value in sector.allows.get(name, ())

    def metric_for(self, spec: InputSpec) -> MetricDef | None:
        """The metric a card input stands for (by name or alias, and unit family), or None."""
        return _match(self.metrics, spec)
