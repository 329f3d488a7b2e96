"""The sector and macro-regime registries that perturbation draws from.

``frameworks/sectors.yaml`` (schema ``grammar/sectors.schema.json``) lists the
industries a scenario can be relocated to, each with sector-typical ranges of
common metrics; ``frameworks/regimes.yaml`` (schema
``grammar/regimes.schema.json``) lists dated macro regimes with the facts
published before each regime's decision date. Both ship as package data and
are read through :mod:`importlib.resources`; both are strict YAML (see
:mod:`ipb.engine._yaml`), checked against their schema and then for meaning,
and every problem is reported with file:line:col.

References
----------
Paper §6.5 (operators ii and iii), Table 9 (Perturbation C); Investor's Last
Exam, Appendix B.2 (availability before the cutoff).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import jsonschema
from rapidfuzz.distance import Levenshtein

from ipb.engine._yaml import YamlDoc, load_yaml, load_yaml_file
from ipb.engine.card import InputSpec
from ipb.engine.expressions import parse_literal
from ipb.errors import CompileError, ErrorGroup, IpbError, LoadError, did_you_mean
from ipb.perturb.multiples import MultipleBound, ratio_anachronisms, read_conditions, row_start

__all__ = [
    "MetricDef",
    "Sector",
    "SectorRegistry",
    "RegimeFact",
    "Regime",
    "RegimeRegistry",
    "load_sectors",
    "load_regimes",
    "bundled_sectors",
    "bundled_regimes",
    "fits",
]

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

    @property
    def names(self) -> tuple[str, ...]:
        return (self.id, *self.aliases)


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

    def get(self, sector_id: str) -> Sector:
        """A sector by id.

        Raises
        ------
        LoadError
            Rule ``sector``: no such sector (with a "did you mean").
        """
        for s in self.sectors:
            if s.id == sector_id:
                return s
        ids = [s.id for s in self.sectors]
        raise LoadError(f"no sector {sector_id!r} in {self.file}; sectors: {', '.join(ids)}", rule="sector",
                        name=sector_id, suggestion=did_you_mean(sector_id, ids))

    def pair_allowed(self, name: str, value: str, sector_id: str) -> bool | None:
        """Whether category input ``name`` may take ``value`` in sector ``sector_id`` (an id or alias): True when
        the sector's ``profile`` or ``allows`` names it, False when not, None when no sector lists ``name``
        (the input is not paired with the sector) or ``sector_id`` is no sector of the file (s34, issue 18).

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


@dataclass(frozen=True)
class RegimeFact:
    """A macro fact of a regime: its value as written, and the date it was published."""

    value: Any
    available: dt.date
    source: str = ""
    #: The same release's figure over another period (``year: -0.8%``), by period name (:mod:`ipb.perturb.periods`).
    by_period: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Regime:
    """A dated macro regime."""

    id: str
    name: str
    labels: tuple[str, ...]
    known_from: dt.date
    as_of: dt.date
    description: str = ""
    facts: dict[str, RegimeFact] = field(default_factory=dict)


@dataclass(frozen=True)
class MoneyFigure:
    """A company figure other than its market value, bounded by year (``sizes.figures`` of the regime registry):
    annual revenue, total assets, annual earnings.

    ``largest`` holds (year, the largest US company's figure that year, rounded up), ascending.
    """

    id: str
    what: str
    inputs: tuple[str, ...]
    phrases: tuple[str, ...]
    largest: tuple[tuple[int, Decimal], ...]
    #: s37review (seed 9090, Greenblatt C #80): (first year, multiple), ascending (``priced``): from that year a
    #: company stating this figure above a third of its year's bound is valued (every market size it states) at
    #: least the multiple times the figure. Empty: not checked.
    priced: tuple[tuple[int, Decimal], ...] = ()
    #: BA5: category inputs and the values this bound is for (``when``), beside the figure without one.
    when: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def bound(self, year: int) -> Decimal:
        """The largest value of this figure a scenario dated in ``year`` may state (:func:`_bound_at`)."""
        return _bound_at(self.largest, year)

    def price_floor(self, year: int) -> Decimal | None:
        """The least market size / figure multiple of a top earner in ``year`` (the last ``priced`` row at or
        before it), or None before the first row.

        >>> MoneyFigure("e", "e", (), (), ((1990, Decimal(9)),), ((1974, Decimal(3)), (1999, Decimal(6)))).price_floor(1995)
        Decimal('3')
        """
        rows = [m for y, m in self.priced if y <= year]
        return rows[-1] if rows else None

    def matches(self, spec: InputSpec) -> bool:
        """True when ``spec`` (a money input) is this figure: named in ``inputs``, or its label, else its
        description, starts with one of ``phrases`` (:func:`_phrase_pattern`)."""
        if spec.name in self.inputs:
            return True
        return bool(_phrase_pattern(self.phrases).match(spec.label.strip() or spec.description.strip()))


def _underpriced_tops(tops: list[tuple[str, Decimal, "MoneyFigure"]], markets: list[tuple[str, Decimal]],
                      year: int) -> list[str]:
    """s37review (seed 9090, Greenblatt C #80: $36.8B of EBIT at a $99B market value in March 2006): a figure above
    a third of its year's bound (a top earner of the era) beside a market size under the era's least multiple of it
    (``MoneyFigure.priced``) is a company no market of that year priced so."""
    found = []
    for name, value, figure in tops:
        floor = figure.price_floor(year)
        if floor is None:
            continue
        for market, size in markets:
            if size < floor * value:
                found.append(f"{market} {_money(size)} under {floor.normalize():f}x {name} {_money(value)} (a company "
                             f"earning near the top of {year} was valued at least {floor.normalize():f}x its "
                             f"{figure.what})")
    return found


def _bound_at(table: tuple[tuple[int, Decimal], ...], year: int) -> Decimal:
    """The larger of the bounds of the listed years around ``year`` (the first before the first listed year,
    the last after the last); ``table`` is ascending and not empty.

    >>> _bound_at(((1990, Decimal(80)), (1995, Decimal(130))), 1992)
    Decimal('130')
    """
    before = [v for y, v in table if y <= year]
    after = [v for y, v in table if y >= year]
    return max(([before[-1]] if before else []) + ([after[0]] if after else []))


@lru_cache(maxsize=64)
def _phrase_pattern(phrases: tuple[str, ...]) -> re.Pattern[str]:
    """A label or description that is one of ``phrases``: after qualifiers ("latest", "annual", "total",
    "reported", "trailing-twelve-month", "the", "its"), the phrase, then the end, punctuation, a unit, or
    "of/at/for the latest ..." ("Net income of the latest fiscal year", "Total assets at the latest balance
    sheet"); a phrase that goes on ("Sales of the smallest company held", "Cash the business must keep") is
    not the company's figure (an author names such an input in ``inputs``).

    >>> p = _phrase_pattern(("net income", "total assets"))
    >>> [bool(p.match(t)) for t in ("Latest annual net income, USD.", "Total assets at the latest balance sheet",
    ...                             "Net income of the stake's owner", "net income")]
    [True, True, False, True]
    """
    words = "|".join(r"\s+".join(map(re.escape, p.split())) for p in sorted(phrases, key=len, reverse=True))
    return re.compile(
        r"(?:(?:the|its|latest|last|annual|yearly|total|reported|trailing[- ]twelve[- ]month|ttm|normal)\s+)*"
        rf"(?:{words})(?:\s*$|\s*[,.;:(]|\s+(?:usd|in usd|\$)|\s+(?:of|at|for|in) the (?:latest|last|most recent|"
        r"current|company|firm|business)\b)", re.I)


@dataclass(frozen=True)
class RegimeRegistry:
    """The regime registry: regime inputs, macro fact definitions and regimes (file order)."""

    inputs: tuple[str, ...]
    facts: dict[str, MetricDef]
    regimes: tuple[Regime, ...]
    file: str = "<string>"
    #: Category value -> the first calendar year it can be a fact (``since.values``).
    value_since: dict[str, int] = field(default_factory=dict)
    #: Macro fact id -> the first calendar year a negative value was seen (``since.negative``).
    negative_since: dict[str, int] = field(default_factory=dict)
    #: Inputs describing the market or economy at the decision date (``market_state``).
    market_state: tuple[str, ...] = ()
    #: Money inputs that state a company's size (``sizes.inputs``), bounded by the year's largest company.
    size_inputs: tuple[str, ...] = ()
    #: (year, the largest company's market value that year, rounded up), ascending (``sizes.largest``).
    largest: tuple[tuple[int, Decimal], ...] = ()
    #: Other company figures bounded by year: revenue, total assets, earnings (``sizes.figures``, stop 31).
    figures: tuple[MoneyFigure, ...] = ()
    #: Inputs counting consecutive years of a company's record (``streaks.inputs``, s34).
    streak_inputs: tuple[str, ...] = ()
    #: A streak stated in year Y is at most Y - ``streak_began`` years (``streaks.began``), or None (unbounded).
    streak_began: int | None = None
    #: s38rules: valuation multiples bounded by era (``multiples``): the twin of ``largest`` for a multiple.
    multiples: tuple[MultipleBound, ...] = ()
    #: spec key -> "market" (a market size), its figure, or None (unbounded); filled as inputs are met.
    _bound_memo: dict[tuple[str, str, str, str], MoneyFigure | str | None] = field(
        default_factory=dict, init=False, compare=False, hash=False, repr=False)
    #: ("market" or a figure id, year) -> that year's bound; filled as years are met.
    _year_memo: dict[tuple[str, int], Decimal | None] = field(
        default_factory=dict, init=False, compare=False, hash=False, repr=False)

    def multiple_bound(self, name: str) -> MultipleBound | None:
        """The era bound (``multiples``) of the input named ``name``, or None (the first that lists it)."""
        return next((m for m in self.multiples if name in m.inputs), None)

    def era_multiple(self, spec: InputSpec) -> bool:
        """True for an input an era bound of ``multiples`` reads: a multiple input it lists, either input of a
        quotient it bounds (``of``: price and earnings per share, s39rules), or an input of its conditions."""
        return any((spec.type == "multiple" and spec.name in m.inputs) or spec.name in m.reads for m in self.multiples)

    def size_bound(self, year: int) -> Decimal | None:
        """The largest size figure a scenario dated in ``year`` may state (``sizes.largest``), or None.

        The larger of the bounds of the listed years around ``year`` (the first before the first
        listed year, the last after the last).

        >>> reg = RegimeRegistry((), {}, (), largest=((1990, Decimal(80)), (1995, Decimal(130))))
        >>> reg.size_bound(1995), reg.size_bound(1992), reg.size_bound(1960), reg.size_bound(2020)
        (Decimal('130'), Decimal('130'), Decimal('80'), Decimal('130'))
        """
        if not self.largest:
            return None
        return _bound_at(self.largest, year)

    def is_market_size(self, spec: InputSpec) -> bool:
        """True for a money input that states a company's market size: named in ``sizes.inputs``, or whose
        ``label``, or else description, is the size figure's own noun phrase ("enterprise value",
        "Market capitalisation of the company.", "Enterprise value (market cap plus net debt), USD."),
        so an author's ``ev`` or ``firm_value`` is bounded by its year too. A phrase that goes on
        ("Enterprise value in the bad case", "Market value of the stake") is not the company's size.
        """
        if spec.type != "money":
            return False
        if spec.name in self.size_inputs:
            return True
        return bool(_SIZE_PHRASE.match(spec.label.strip() or spec.description.strip()))

    def money_figure(self, spec: InputSpec) -> MoneyFigure | None:
        """The company figure of ``sizes.figures`` (revenue, total assets, earnings) a money input states, or
        None (not money, a market size of :meth:`is_market_size`, or no listed figure); the first that matches."""
        found = self._bounded(spec)
        return found if isinstance(found, MoneyFigure) else None

    def _bounded(self, spec: InputSpec) -> MoneyFigure | str | None:
        """``"market"`` for a market size, the figure of another bounded company figure, else None (remembered
        per input: :meth:`anachronisms` asks for every timed fact of every candidate)."""
        key = (spec.name, spec.type, spec.label, spec.description)
        try:
            return self._bound_memo[key]
        except KeyError:
            found: MoneyFigure | str | None = None
            if spec.type == "money":
                found = "market" if self.is_market_size(spec) else next(
                    (f for f in self.figures if not f.when and f.matches(spec)), None)
            self._bound_memo[key] = found
            return found

    def is_size(self, spec: InputSpec) -> bool:
        """True for a money input bounded by its year: a market size (:meth:`is_market_size`, bounded by
        ``sizes.largest``) or another company figure (:meth:`money_figure`, bounded by its own table).

        (Stop 31: ``perturb/generation.py`` compares every such input with :meth:`size_bound`, the market
        value bound, to decide that a draw outgrew its date; a revenue or earnings figure above its own bound
        but below that one is refused there by :meth:`anachronisms` instead of made undated.)
        """
        return self._bounded(spec) is not None

    def describes_the_date(self, spec: InputSpec) -> bool:
        """True for a regime input, a macro fact or a market-state input (:meth:`is_market_state`): its value
        is history at a date."""
        if spec.describes:
            return spec.describes == "market"
        return spec.name in self.inputs or self.is_market_state(spec) or self.fact_for(spec) is not None

    def is_market_state(self, spec: InputSpec) -> bool:
        """True for an input listed in ``market_state``, or one that states the crowd's mood: a word of its
        name is ``sentiment``, ``psychology`` or ``mood``, or its ``label``, else description, opens with
        such a noun phrase ("Prevailing investor mood toward the stock ...", "Market sentiment"), so a new
        author's ``market_sentiment`` is history at the date as the bundled ``investor_psychology`` is
        (stop 33: a Templeton card dated 1 October 1974 made items calling the crowd euphoric that day).

        >>> reg = RegimeRegistry((), {}, (), market_state=("investor_psychology",))
        >>> from ipb.engine.expressions import RATIO
        >>> [reg.is_market_state(InputSpec(n, "ratio", RATIO, d)) for n, d in (("investor_psychology", ""),
        ...  ("crowd_sentiment", ""), ("mood_index", ""), ("fear", "Prevailing investor mood."),
        ...  ("growth", "Sales growth."), ("moody_rating", "Moody's rating of the bonds."))]
        [True, True, True, True, False, False]
        """
        if spec.describes:  # the card says (``describes: market | company``, stop 35)
            return spec.describes == "market"
        if spec.name in self.market_state or not _MOOD_WORDS.isdisjoint(spec.name.lower().split("_")):
            return True
        return bool(_MOOD_PHRASE.match(spec.label.strip() or spec.description.strip()))

    def anachronisms(self, inputs: Mapping[str, InputSpec], facts: Mapping[str, Any], year: int | dt.date
                     ) -> list[str]:
        """Facts that could not hold in ``year``: a category value that did not exist yet, a negative
        figure before such figures were seen (e.g. a negative policy rate before 2012), a company larger
        than the year's largest (``sizes``: a $482B business in 1995), a revenue, balance sheet or earnings
        figure above the year's largest company's (``sizes.figures``: $600B of sales in 1950), a streak longer
        than the years since ``streaks.began`` (50 years of dividend raises in 1982), a multiple outside its era's
        bounds (``multiples``: 40x earnings in 1979; 3.2x a three-year average EPS in 1973). ``year`` may be the
        scenario's day, which a multiple's dated rows read (s41gb3); every other bound reads its year."""
        when, year = year, (year.year if isinstance(year, dt.date) else year)
        found: list[str] = []
        tops: list[tuple[str, Decimal, MoneyFigure]] = []  # s37review: figures above a third of their bound
        markets: list[tuple[str, Decimal]] = []
        for name, value in facts.items():
            spec = inputs.get(name)
            if spec is None:
                continue
            if isinstance(value, str) and spec.type == "category":
                first = self.value_since.get(value)
                if first is not None and year < first:
                    found.append(f"{name} {value.replace('_', ' ')} (exists from {first})")
            elif self.negative_since and isinstance(value, Decimal) and value < 0:
                fact = self.fact_for(spec)
                first = self.negative_since.get(fact.id) if fact is not None else None
                if first is not None and year < first:
                    found.append(f"negative {name} (first seen in {first})")
            # before ``began`` the bound is 0 years, never negative: a streak of 0 (no raise yet) holds in any year
            if (self.streak_began is not None and name in self.streak_inputs and isinstance(value, (int, Decimal))
                    and not isinstance(value, bool) and value > max(0, year - self.streak_began)):
                found.append(f"{name} {value} (longer than any such streak about {year}: at most "
                             f"{max(0, year - self.streak_began)} years, counted from {self.streak_began})")
            if self.multiples and isinstance(value, Decimal) and spec.type == "multiple":
                multiple = self.multiple_bound(name)
                why = multiple.outside(name, value, when) if multiple is not None else None
                if why is not None:
                    found.append(why)
            if isinstance(value, Decimal) and spec.type == "money":
                for kind in self.figures:  # BA5: a business model's own record (subscription software by year)
                    if kind.when and all(facts.get(n) in vs for n, vs in kind.when) and kind.matches(spec) and \
                            value > kind.bound(year):
                        found.append(f"{name} {_money(value)} (above the largest {kind.what} about {year}, "
                                     f"{_money(kind.bound(year))})")
                figure = self._bounded(spec)
                if figure is None:
                    continue
                key = (figure if isinstance(figure, str) else figure.id, year)
                try:
                    limit = self._year_memo[key]
                except KeyError:
                    limit = self._year_memo[key] = (self.size_bound(year) if isinstance(figure, str)
                                                    else figure.bound(year))
                if isinstance(figure, str):
                    markets.append((name, value))
                elif figure.priced and limit is not None and value > 0 and 3 * value > limit:
                    tops.append((name, value, figure))
                if limit is None or not value > limit:
                    continue
                if isinstance(figure, str):
                    found.append(f"{name} {_money(value)} (above the largest company's market value about "
                                 f"{year}, {_money(limit)})")
                else:
                    found.append(f"{name} {_money(value)} (above the largest US company's {figure.what} about "
                                 f"{year}, {_money(limit)})")
        if tops and markets:
            found.extend(_underpriced_tops(tops, markets, year))
        if self.multiples:  # s39rules: a P/E a card states as price and earnings per share (``of``)
            found.extend(ratio_anachronisms(self.multiples, facts, when))
        return found

    def get(self, regime_id: str) -> Regime:
        """A regime by id.

        Raises
        ------
        LoadError
            Rule ``regime``: no such regime (with a "did you mean").
        """
        for r in self.regimes:
            if r.id == regime_id:
                return r
        ids = [r.id for r in self.regimes]
        raise LoadError(f"no regime {regime_id!r} in {self.file}; regimes: {', '.join(ids)}", rule="regime",
                        name=regime_id, suggestion=did_you_mean(regime_id, ids))

    def fact_for(self, spec: InputSpec) -> MetricDef | None:
        """The macro fact a card input stands for (by name or alias, and unit family), or None."""
        return _match(self.facts, spec)


#: A size figure's own noun phrase at the start of a label or description, followed by nothing, a
#: unit or a parenthesis (see :meth:`RegimeRegistry.is_size`).
#: Words of an input's name that make it the crowd's mood at the date (:meth:`RegimeRegistry.is_market_state`).
_MOOD_WORDS = frozenset({"sentiment", "psychology", "mood"})
_MOOD_PHRASE = re.compile(
    r"(?:the |prevailing |current |overall |general |broad )*(?:(?:investor|investors'|market|crowd|public)\s+)?"
    r"(?:mood|sentiment|psychology)\b", re.I)
_SIZE_PHRASE = re.compile(
    r"(?:the |its |current |the company's |the firm's )?(?:enterprise value|ev|market cap|market capitali[sz]ation|"
    r"equity market value|market value of (?:all )?(?:the )?(?:common )?(?:equity|shares|company|firm|"
    r"whole business|business))(?: of the (?:company|firm|business))?\s*(?:$|[,.;:(])", re.I)


# --------------------------------------------------------------------------- loading


@lru_cache(maxsize=None)
def _schema(name: str) -> dict[str, Any]:
    text = resources.files("ipb.grammar").joinpath(name).read_text(encoding="utf-8")
    return dict(json.loads(text))


class _Errors:
    def __init__(self, doc: YamlDoc) -> None:
        self.doc = doc
        self.items: list[IpbError] = []

    def add(self, message: str, path: tuple[Any, ...], rule: str, *, key: bool = False, **fields: Any) -> None:
        line, column = self.doc.locate_key(path) if key else self.doc.locate(path)
        self.items.append(LoadError(message, rule=rule, **fields).with_location(
            self.doc.file, line, column, self.doc.source_line(line)))

    def raise_if_any(self) -> None:
        if self.items:
            raise ErrorGroup(self.items)


def _validate(doc: YamlDoc, schema_name: str) -> None:
    errors = _Errors(doc)
    validator = jsonschema.Draft202012Validator(_schema(schema_name))
    for err in sorted(validator.iter_errors(doc.data), key=lambda e: [str(p) for p in e.absolute_path]):
        path = tuple(err.absolute_path)
        if err.validator == "additionalProperties":
            allowed = list(err.schema.get("properties", {}))
            instance = err.instance if isinstance(err.instance, dict) else {}
            for extra in (k for k in instance if k not in allowed):
                errors.add(f"unknown field {extra!r}; expected one of: {', '.join(allowed)}", path + (extra,),
                           "schema:additionalProperties", key=True, name=extra, suggestion=did_you_mean(extra, allowed))
            continue
        where = "/".join(map(str, path)) or "the top level"
        errors.add(f"{err.message} (at {where})", path, f"schema:{err.validator}")
    errors.raise_if_any()


def _metrics(data: Mapping[str, Any]) -> dict[str, MetricDef]:
    return {
        mid: MetricDef(mid, spec["type"], tuple(spec.get("aliases") or ()), spec.get("description", ""),
                       tuple(spec.get("periods") or ()))
        for mid, spec in data.items()
    }


def _check_aliases(errors: _Errors, metrics: Mapping[str, MetricDef], key: str) -> None:
    owner: dict[str, str] = {}
    for m in metrics.values():
        for k, name in enumerate(m.names):
            if name in owner and owner[name] != m.id:
                path = (key, m.id) if k == 0 else (key, m.id, "aliases", k - 1)
                errors.add(f"{name!r} already names {key[:-1] if key.endswith('s') else key} {owner[name]!r}; "
                           "a name may mean one thing only", path, "alias-clash", name=name)
            owner.setdefault(name, m.id)


def _value(text: Any, metric: MetricDef, errors: _Errors, path: tuple[Any, ...]) -> Decimal | None:
    if isinstance(text, bool):
        errors.add(f"{text!r} is not a number", path, "literal")
        return None
    if isinstance(text, (int, Decimal)):
        return Decimal(text)
    try:
        value, type_ = parse_literal(str(text))
    except CompileError as exc:
        errors.add(f"{text!r} is not a number ({exc.message})", path, "literal")
        return None
    unit = type_.unit
    expected = {"ratio": "ratio", "money": "money", "multiple": "multiple", "number": None}[metric.type]
    if type_.kind != "number" or (unit is not None and unit != expected and {unit, expected} != {"multiple", None}):
        errors.add(f"{text!r} does not fit metric {metric.id!r}, which is a {metric.type}", path, "unit",
                   name=metric.id)
        return None
    return Decimal(value)


def _omits(errors: _Errors, raw: Mapping[str, Any], i: int, metrics: Mapping[str, MetricDef],
           ranges: Mapping[str, Any], inputs: tuple[str, ...]) -> tuple[str, ...]:
    """A sector's ``omits:`` checked (s36break): each entry is a metric id, a metric alias (the metric's id is added,
    so a card input named by the id or any alias is dropped) or a card input name; never the sector input itself, a
    metric the sector gives a range, a name its ``profile:``/``allows:`` lists values for, or a name one or two
    letters off a metric name (a typo would silently drop nothing)."""
    sid = raw["id"]
    owner = {name: m.id for m in metrics.values() for name in m.names}
    listed = set(raw.get("profile") or ()) | set(raw.get("allows") or ())
    out: list[str] = []
    for k, name in enumerate(raw.get("omits") or ()):
        path = ("sectors", i, "omits", k)
        mid = owner.get(name)
        if name in inputs:
            errors.add(f"sector {sid!r} omits {name!r}, a sector input: a move to the sector would drop the fact "
                       "that names it", path, "omits", name=name)
        elif name in listed:
            errors.add(f"sector {sid!r} omits {name!r} and lists values for it (profile/allows): a move would set "
                       "it, then drop it", path, "omits", name=name)
        elif mid is not None and mid in ranges:
            what = repr(name) if mid == name else f"{name!r} (metric {mid!r})"
            errors.add(f"sector {sid!r} both omits {what} and gives it a range", path, "omits", name=name)
        elif mid is None:
            near = [n for n in owner if 0 < Levenshtein.distance(name, n) <= 2 and len(n) >= 6]
            if near:
                errors.add(f"sector {sid!r} omits {name!r}, which is no metric; did you mean {near[0]!r}? (an input "
                           "name that close to a metric's would be dropped only from cards that use it)", path,
                           "omits", name=name, suggestion=near[0])
        for n in (name, mid):
            if n is not None and n not in out:
                out.append(n)
    return tuple(out)


def load_sectors(path: str | Path | None = None, *, text: str | None = None) -> SectorRegistry:
    """Read a sector registry (the bundled ``frameworks/sectors.yaml`` when ``path`` is None).

    Raises
    ------
    LoadError, ErrorGroup
        Bad YAML, a schema violation, an unknown metric id in a range, a range
        whose low end is above its high end or whose values do not fit the
        metric's unit, a duplicate sector id, or a name used twice.
    """
    doc = _read(path, text, "sectors.yaml")
    _validate(doc, "sectors.schema.json")
    data = doc.data
    errors = _Errors(doc)
    metrics = _metrics(data["metrics"])
    _check_aliases(errors, metrics, "metrics")
    sectors: list[Sector] = []
    owner: dict[str, str] = {}
    for i, raw in enumerate(data["sectors"]):
        sid = raw["id"]
        for k, name in enumerate((sid, *(raw.get("aliases") or ()))):
            if name in owner:
                path_ = ("sectors", i, "id") if k == 0 else ("sectors", i, "aliases", k - 1)
                errors.add(f"{name!r} already names sector {owner[name]!r}", path_, "duplicate-sector", name=name)
            owner.setdefault(name, sid)
        ranges = _ranges(errors, raw["ranges"], metrics, ("sectors", i, "ranges"), f"sector {sid!r}")
        profile = {name: tuple(values) for name, values in (raw.get("profile") or {}).items()}
        allows = {name: tuple(values) for name, values in (raw.get("allows") or {}).items()}
        omits = _omits(errors, raw, i, metrics, ranges, tuple(data["inputs"]))
        sectors.append(Sector(sid, raw["name"], tuple(raw.get("aliases") or ()), ranges, raw.get("description", ""),
                              profile, allows, omits))
    models = _models(errors, data.get("models") or {}, metrics, sectors)
    errors.raise_if_any()
    return SectorRegistry(tuple(data["inputs"]), metrics, tuple(sectors), doc.file, models)


def _ranges(errors: _Errors, raw: Mapping[str, Any], metrics: Mapping[str, MetricDef], path: tuple[Any, ...],
            owner: str) -> dict[str, tuple[Decimal, Decimal]]:
    """Metric id -> (low, high) of a sector's ``ranges:`` or a model's entry; each error located and collected."""
    ranges: dict[str, tuple[Decimal, Decimal]] = {}
    for mid, (lo_text, hi_text) in raw.items():
        rpath = path + (mid,)
        metric = metrics.get(mid)
        if metric is None:
            errors.add(f"{owner} gives a range for unknown metric {mid!r}", rpath, "metric", key=True,
                       name=mid, suggestion=did_you_mean(mid, list(metrics)))
            continue
        lo = _value(lo_text, metric, errors, rpath + (0,))
        hi = _value(hi_text, metric, errors, rpath + (1,))
        if lo is None or hi is None:
            continue
        if lo > hi:
            errors.add(f"range of {mid!r} in {owner} is empty: {lo_text} > {hi_text}", rpath, "range")
            continue
        ranges[mid] = (lo, hi)
    return ranges


def _models(errors: _Errors, raw: Mapping[str, Any], metrics: Mapping[str, MetricDef],
            sectors: Sequence[Sector]) -> dict[str, dict[str, tuple[Decimal, Decimal]]]:
    """The ``models:`` block (s37rules): each key a value some sector's ``profile``/``allows`` lists (else a located
    error with a did-you-mean: a model no sector names would never be read), each range as a sector's."""
    known = sorted({str(v) for s in sectors for group in (s.profile, s.allows) for vs in group.values() for v in vs})
    models: dict[str, dict[str, tuple[Decimal, Decimal]]] = {}
    for model, ranges in raw.items():
        if model not in known:
            near = did_you_mean(model, known)
            errors.add(f"model {model!r} is no value of a sector's profile or allows"
                       + (f"; did you mean {near!r}?" if near else ""), ("models", model), "model",
                       key=True, name=model, suggestion=near)
            continue
        models[model] = _ranges(errors, ranges, metrics, ("models", model), f"model {model!r}")
    return models


def load_regimes(path: str | Path | None = None, *, text: str | None = None) -> RegimeRegistry:
    """Read a regime registry (the bundled ``frameworks/regimes.yaml`` when ``path`` is None).

    Raises
    ------
    LoadError, ErrorGroup
        Bad YAML, a schema violation, an impossible date, ``known_from`` after
        ``as_of``, a fact published on or after the regime's ``as_of`` (it
        could not be known at the decision: a date-only stamp counts from the
        end of its day), an unknown fact id, a value that does not fit its
        fact's unit, or a duplicate regime id.
    """
    doc = _read(path, text, "regimes.yaml")
    _validate(doc, "regimes.schema.json")
    data = doc.data
    errors = _Errors(doc)
    facts = _metrics(data["facts"])
    _check_aliases(errors, facts, "facts")
    _check_periods(errors, facts)
    regimes: list[Regime] = []
    seen: set[str] = set()
    for i, raw in enumerate(data["regimes"]):
        rid = raw["id"]
        if rid in seen:
            errors.add(f"duplicate regime id {rid!r}", ("regimes", i, "id"), "duplicate-regime", name=rid)
        seen.add(rid)
        known_from = _date(raw["known_from"], errors, ("regimes", i, "known_from"))
        as_of = _date(raw["as_of"], errors, ("regimes", i, "as_of"))
        if known_from and as_of and known_from > as_of:
            errors.add(f"regime {rid!r} is known from {known_from} but dated {as_of}: known_from must not be later",
                       ("regimes", i, "known_from"), "date-order")
        regime_facts: dict[str, RegimeFact] = {}
        for fid, spec in (raw.get("facts") or {}).items():
            fpath = ("regimes", i, "facts", fid)
            metric = facts.get(fid)
            if metric is None:
                errors.add(f"regime {rid!r} gives unknown fact {fid!r}", fpath, "fact", key=True, name=fid,
                           suggestion=did_you_mean(fid, list(facts)))
                continue
            value = _value(spec["value"], metric, errors, fpath + ("value",))
            available = _date(spec["available"], errors, fpath + ("available",))
            if available and as_of and not available < as_of:
                errors.add(f"fact {fid!r} of regime {rid!r} was published {available}, not before the regime's "
                           f"decision date {as_of}: it could not be known then", fpath + ("available",), "look-ahead",
                           name=fid)
                continue
            by_period = _period_entries(errors, spec, metric, rid, fpath)
            if value is not None and available is not None:
                regime_facts[fid] = RegimeFact(spec["value"], available, spec.get("source", ""), by_period)
        if known_from and as_of:
            regimes.append(Regime(rid, raw["name"], tuple(raw["labels"]), known_from, as_of,
                                  raw.get("description", ""), regime_facts))
    errors.raise_if_any()
    since = data.get("since") or {}
    negative = dict(since.get("negative") or {})
    for fid in negative:
        if fid not in facts:
            errors.add(f"since.negative names {fid!r}, which is not a fact of this file", ("since", "negative", fid),
                       "regime", key=True, name=fid, suggestion=did_you_mean(fid, list(facts)))
    sizes = data.get("sizes") or {}
    largest = _bound_table(sizes.get("largest") or (), ("sizes", "largest"), "a company's market value", errors)
    figures = []
    for i, raw in enumerate(sizes.get("figures") or ()):
        table = _bound_table(raw["largest"], ("sizes", "figures", i, "largest"), f"a company's {raw['what']}", errors)
        priced = _priced_table(raw.get("priced") or (), ("sizes", "figures", i, "priced"), errors)
        when, _ = read_conditions(raw, lambda message, at: errors.add(message, ("sizes", "figures", i, *at), "regime"))
        figures.append(MoneyFigure(raw["id"], raw["what"], tuple(raw["inputs"]), tuple(raw["phrases"]), table,
                                   priced, when))
    multiples = []
    for i, raw in enumerate(data.get("multiples") or ()):
        most = _year_table(raw.get("most") or (), ("multiples", i, "most"), errors, lambda text, at: Decimal(str(text)),
                           lambda year, text, value: None if value > 0 else (
                               f"the highest multiple for {year} is {text}; a multiple is above 0"), dated=True)
        least = _year_table(raw.get("least") or (), ("multiples", i, "least"), errors,
                            lambda text, at: Decimal(str(text)), lambda year, text, value: None if value > 0 else (
                                f"the lowest multiple for {year} is {text}; a multiple is above 0"), dated=True)
        when, at_least = read_conditions(raw, lambda message, at: errors.add(message, ("multiples", i, *at),
                                                                             "multiples"))
        _, at_most = read_conditions(raw, lambda m, at: errors.add(m, ("multiples", i, *at), "multiples"), "at_most")
        multiples.append(MultipleBound(raw["id"], raw["what"], tuple(raw.get("inputs") or ()), most, least,
                                       tuple(raw.get("of") or ()), when, at_least, at_most))
    errors.raise_if_any()
    return RegimeRegistry(tuple(data["inputs"]), facts, tuple(regimes), doc.file,
                          {str(k): int(v) for k, v in (since.get("values") or {}).items()},
                          {str(k): int(v) for k, v in negative.items()}, tuple(data.get("market_state") or ()),
                          tuple(sizes.get("inputs") or ()), largest, tuple(figures),
                          tuple((data.get("streaks") or {}).get("inputs") or ()), (data.get("streaks") or {}).get("began"),
                          tuple(multiples))


def _check_periods(errors: "_Errors", facts: Mapping[str, MetricDef]) -> None:
    """s38fix: a fact's description must not name another period than its ``value`` covers (the first of its
    ``periods``): regimes.yaml once called annualised-quarter GDP what cards read as the year's change."""
    from ipb.perturb.periods import fact_period_errors

    for metric in facts.values():
        for message in fact_period_errors(metric):
            errors.add(message, ("facts", metric.id, "periods"), "period", name=metric.id)


def _period_entries(errors: "_Errors", spec: Mapping[str, Any], metric: MetricDef, rid: str,
                    fpath: tuple[Any, ...]) -> dict[str, Any]:
    """s38fix: a regime entry's figures over other periods (``year: -0.8%``), each a period its fact declares
    after the first (the first is ``value``) and a number of the fact's unit."""
    from ipb.perturb.periods import PERIODS

    found: dict[str, Any] = {}
    for period in PERIODS:
        if period not in spec:
            continue
        if period not in metric.periods[1:]:
            errors.add(f"regime {rid!r} gives {metric.id!r} over {period!r}, a period the fact does not declare "
                       f"after its value's (periods: {list(metric.periods)})", fpath + (period,), "period",
                       key=True, name=metric.id)
            continue
        if _value(spec[period], metric, errors, fpath + (period,)) is not None:
            found[period] = spec[period]
    return found


def _year_table(rows: Any, path: tuple[Any, ...], errors: "_Errors",
                read_value: Callable[[Any, tuple[Any, ...]], Decimal | None],
                check_value: Callable[[int, Any, Decimal], str | None], dated: bool = False
                ) -> tuple[tuple[Any, Decimal], ...]:
    """An ascending ``[[year, value], ...]`` table of ``sizes``, its errors added; with ``dated`` (``multiples``,
    s41gb3) a row may begin on a day, ``"2008-09-15"``.

    ``read_value(text, path)`` turns a row's value into a Decimal (None: already reported);
    ``check_value(year, text, value)`` gives the message for a value out of its range (None: kept).
    A row out of year order or out of range is reported at its own position and left out.
    """
    table: list[tuple[Any, Decimal]] = []
    where = ".".join(str(p) for p in path)
    for k, (year, text) in enumerate(rows):
        value = read_value(text, path + (k, 1))
        if dated and isinstance(year, str) and (year := _date(year, errors, path + (k, 0))) is None:
            continue
        if table and row_start(year) <= row_start(table[-1][0]):
            errors.add(f"{where}: year {year} does not follow {table[-1][0]} (list the years in ascending "
                       "order, once each)", path + (k, 0), "sizes")
        elif value is not None and (problem := check_value(year, text, value)) is not None:
            errors.add(f"{where}: {problem}", path + (k, 1), "sizes")
        elif value is not None:
            table.append((year if isinstance(year, dt.date) else int(year), value))
    return tuple(table)


def _bound_table(rows: Any, path: tuple[Any, ...], what: str, errors: "_Errors") -> tuple[tuple[int, Decimal], ...]:
    """A ``[[year, money], ...]`` table of ``sizes`` (ascending years, bounds above $0), its errors added."""
    money = MetricDef("largest", "money", (), "")
    return _year_table(rows, path, errors, lambda text, at: _value(text, money, errors, at),
                       lambda year, text, value: None if value > 0 else (
                           f"the bound for {year} is {text}; {what} is above $0 (a bound at or below it would "
                           "make every such figure an anachronism)"))


def _priced_table(rows: Any, path: tuple[Any, ...], errors: "_Errors") -> tuple[tuple[int, Decimal], ...]:
    """s37review: a ``[[year, multiple], ...]`` table (ascending years, multiples above 0), its errors added."""
    return _year_table(rows, path, errors, lambda text, at: Decimal(str(text)),
                       lambda year, text, value: None if value > 0 else (
                           f"the multiple for {year} is {text}; a least market value / figure multiple is above 0"))


def _money(value: Decimal) -> str:
    """``$482B``-style text of an amount (for messages)."""
    for suffix, scale in (("T", Decimal(10) ** 12), ("B", Decimal(10) ** 9), ("M", Decimal(10) ** 6)):
        if abs(value) >= scale:
            return f"${(value / scale).normalize():f}{suffix}"
    return f"${value.normalize():f}"


def _date(text: str, errors: _Errors, path: tuple[Any, ...]) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        errors.add(f"{text!r} is not a real date", path, "date")
        return None


def _read(path: str | Path | None, text: str | None, bundled: str) -> YamlDoc:
    if text is not None:
        return load_yaml(text, str(path or f"<{bundled}>"), collect=True)
    if path is None:
        path = Path(str(resources.files("ipb.frameworks").joinpath(bundled)))
    return load_yaml_file(path, collect=True)


@lru_cache(maxsize=1)
def bundled_sectors() -> SectorRegistry:
    """The bundled sector registry (read once)."""
    return load_sectors()


@lru_cache(maxsize=1)
def bundled_regimes() -> RegimeRegistry:
    """The bundled regime registry (read once)."""
    return load_regimes()
