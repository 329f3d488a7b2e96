"""The regime registry's types: dated macro regimes and the era bounds on company figures, as
:mod:`ipb.perturb.registries` loads them.

``frameworks/regimes.yaml`` lists dated macro regimes with the facts published before each regime's decision
date, and the bounds by year a scenario's facts must keep (the largest company's market value, revenue, assets and
earnings; streaks; multiples by era). Split out of :mod:`ipb.perturb.registries` (s44items) with no change; the
names stay importable from there.

References
----------
Paper §6.5 (operator iii, era shift), Table 9 (Perturbation C); Investor's Last Exam, Appendix B.2
(availability before the cutoff).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from typing import Any, Mapping

from ipb.engine.card import InputSpec
from ipb.perturb.multiples import MultipleBound, ratio_anachronisms
from ipb.perturb.sector_registry import MetricDef, _match, by_id


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


@dataclass(frozen=True)
class SectorShare:
    """s45items (issue 18): how large a sector's largest company stood beside the largest US company, by year
    (``sizes.sectors.shares`` of the regime registry). One table for every bounded money figure: a company stating
    one of ``values`` in a sector input (``sizes.sectors.inputs``) states each size figure (market value, revenue,
    cash, assets, earnings, debt) at most ``share`` times that figure's bound for its year.

    ``rows`` holds (first year, share), ascending; a share is above 0 and at most 1. The share of a year is the
    larger of the rows around it (:func:`_bound_at`, as a size bound), so a table speaks for the years it lists.

    >>> t = SectorShare("transport company", ("transport",), ((1929, Decimal(1)), (1955, Decimal("0.25"))))
    >>> t.share(1929), t.share(1940), t.share(1987)
    (Decimal('1'), Decimal('1'), Decimal('0.25'))
    """

    what: str
    values: tuple[str, ...]
    rows: tuple[tuple[int, Decimal], ...]

    def share(self, year: int) -> Decimal:
        """The share of the largest US company's figure this sector's largest company reached in ``year``."""
        return _bound_at(self.rows, year)


#: How :meth:`RegimeRegistry.anachronisms` answers for an input (:meth:`RegimeRegistry._fact_plan`): no bound
#: reads it, its answer is remembered, or it is worked out every time.
_SILENT, _KEYED, _AFRESH = 0, 1, 2
#: :meth:`RegimeRegistry.anachronisms` remembers at most this many facts' answers (then starts again).
FACT_MEMO_LIMIT = 1 << 14


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
    #: s45items: category inputs naming a company's sector (``sizes.sectors.inputs``) and the tables of
    #: :class:`SectorShare` (``sizes.sectors.shares``) that scale every size bound for a sector value they list.
    sector_inputs: tuple[str, ...] = ()
    sector_shares: tuple[SectorShare, ...] = ()
    #: spec key -> "market" (a market size), its figure, or None (unbounded); filled as inputs are met.
    _bound_memo: dict[tuple[str, str, str, str], MoneyFigure | str | None] = field(
        default_factory=dict, init=False, compare=False, hash=False, repr=False)
    #: ("market" or a figure id, year) -> that year's bound; filled as years are met.
    _year_memo: dict[tuple[str, int], Decimal | None] = field(
        default_factory=dict, init=False, compare=False, hash=False, repr=False)
    #: s58speedver: input name -> its plan in :meth:`anachronisms` (:meth:`_fact_plan`), and every plan made, by
    #: (name, id of its spec); a plan holds its spec, so an id is not reused while its plan is remembered.
    _plans: dict[str, tuple[Any, ...]] = field(default_factory=dict, init=False, compare=False, hash=False, repr=False)
    _all_plans: dict[tuple[str, int], tuple[Any, ...]] = field(
        default_factory=dict, init=False, compare=False, hash=False, repr=False)
    #: s58speedver: (date, plan token, type, value, conditions met, BA5 figures met, sector) -> one fact's share of
    #: :meth:`anachronisms` (:meth:`_fact_problems`); emptied at ``FACT_MEMO_LIMIT`` entries.
    _fact_memo: dict[tuple[Any, ...], tuple[tuple[str, ...], "MoneyFigure | None", bool]] = field(
        default_factory=dict, init=False, compare=False, hash=False, repr=False)
    #: s58speedver: a sector input's value -> its :class:`SectorShare` (or None), for :meth:`sector_share`.
    _share_memo: dict[str, "SectorShare | None"] = field(
        default_factory=dict, init=False, compare=False, hash=False, repr=False)

    def sector_share(self, facts: Mapping[str, Any]) -> SectorShare | None:
        """s45items: the :class:`SectorShare` table for the sector ``facts`` state (the first sector input of
        ``sector_inputs`` they state whose value a table lists), or None (no sector stated, or one whose largest
        company was the largest of its era's in some figure, which ``sizes.largest`` and ``sizes.figures`` bound)."""
        for name in self.sector_inputs:
            value = facts.get(name)
            if isinstance(value, str):
                try:
                    return self._share_memo[value]
                except KeyError:
                    found = self._share_memo[value] = next((t for t in self.sector_shares if value in t.values), None)
                    return found
        return None

    def multiple_bound(self, name: str) -> MultipleBound | None:
        """The era bound (``multiples``) of the input named ``name``, or None (the first that lists it)."""
        return next((m for m in self.multiples if name in m.inputs), None)

    def multiple_bounds(self, name: str, facts: Mapping[str, Any]) -> tuple[MultipleBound, ...]:
        """Every era bound (``multiples``) that lists the input named ``name`` and whose conditions (``when``,
        ``at_least``, ``at_most``) ``facts`` meet; a bound without conditions always does. s48rfix2: a multiple's
        bound may hold only for some companies, as a quotient's does (a slow grower's P/E in 1980-84)."""
        return tuple(m for m in self.multiples if name in m.inputs and m.holds_for(facts))

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
        "Market capitalisation of the company.", "Enterprise value (market cap plus net debt), USD.",
        "market value of the common and preferred equity"), or whose name is the figure (``market_equity``),
        so an author's ``ev`` or ``firm_value`` is bounded by its year too. A phrase that goes on
        ("Enterprise value in the bad case", "Market value of the stake") is not the company's size.
        """
        if spec.type != "money":
            return False
        if spec.name in self.size_inputs or _SIZE_NAME.fullmatch(spec.name):
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

    def anachronisms(self, inputs: Mapping[str, InputSpec], facts: Mapping[str, Any], year: int | dt.date,
                     memo: bool = True) -> list[str]:
        """Facts that could not hold in ``year``: a category value that did not exist yet, a negative
        figure before such figures were seen (e.g. a negative policy rate before 2012), a company larger
        than the year's largest (``sizes``: a $482B business in 1995), a revenue, balance sheet or earnings
        figure above the year's largest company's (``sizes.figures``: $600B of sales in 1950), a streak longer
        than the years since ``streaks.began`` (50 years of dividend raises in 1982), a multiple outside its era's
        bounds (``multiples``: 40x earnings in 1979; 3.2x a three-year average EPS in 1973). ``year`` may be the
        scenario's day, which a multiple's dated rows read (s41gb3); every other bound reads its year.

        s58speedver: the answer is put together fact by fact (:meth:`_fact_problems`, in ``facts`` order, then the
        under-priced top earners and the quotient bounds of :func:`ipb.perturb.multiples.ratio_anachronisms`), and
        each fact's share is remembered by the date, the input, the value and the few other facts its bounds read
        (:meth:`_fact_plan`): a run states the same values again and again, but rarely all of them together, so a
        memo keyed by every stated fact (:meth:`ipb.perturb.frame.Frame.dated_anachronisms`) missed on nearly
        every verified item. ``memo=False`` works every fact out afresh (the same messages, in the same order).
        """
        when, year = year, (year.year if isinstance(year, dt.date) else year)
        found: list[str] = []
        tops: list[tuple[str, Decimal, MoneyFigure]] = []  # s37review: figures above a third of their bound
        markets: list[tuple[str, Decimal]] = []
        sector = self.sector_share(facts) if self.sector_shares else None
        plans, known = self._plans, self._fact_memo
        for name, value in facts.items():
            spec = inputs.get(name)
            if spec is None:
                continue
            plan = plans.get(name)
            if plan is None or plan[0] is not spec:
                plan = self._fact_plan(name, spec)
            mode = plan[2]
            if mode == _SILENT:
                continue
            said: tuple[tuple[str, ...], MoneyFigure | None, bool] | None
            key: tuple[Any, ...]
            if mode == _AFRESH or not memo:
                said = self._fact_problems(spec, name, value, facts, year, when, sector)
            else:
                reads = plan[3]
                if reads:  # the other facts the bounds' conditions read, each with its type (1 == True)
                    read = tuple(map(facts.get, reads))
                    key = (when, plan[1], value.__class__, value, read, tuple(map(type, read)),
                           id(sector) if plan[4] and sector is not None else None)
                else:
                    key = (when, plan[1], value.__class__, value, id(sector) if plan[4] and sector is not None else None)
                try:
                    said = known.get(key)
                except TypeError:  # a value that cannot be a key
                    said = self._fact_problems(spec, name, value, facts, year, when, sector)
                else:
                    if said is None:
                        if len(known) >= FACT_MEMO_LIMIT:
                            known.clear()
                        said = known[key] = self._fact_problems(spec, name, value, facts, year, when, sector)
            assert said is not None
            if said[0]:
                found.extend(said[0])
            if said[1] is not None:
                tops.append((name, value, said[1]))
            elif said[2]:
                markets.append((name, value))
        if tops and markets:
            found.extend(_underpriced_tops(tops, markets, year))
        if self.multiples:  # s39rules: a P/E a card states as price and earnings per share (``of``)
            found.extend(ratio_anachronisms(self.multiples, facts, when, memo))
        return found

    def _fact_plan(self, name: str, spec: InputSpec) -> tuple[Any, ...]:
        """How :meth:`anachronisms` answers for the fact ``name`` stated as ``spec`` (s58speedver), remembered per
        input: ``(spec, token, mode, reads, sized)``. ``mode`` is ``_SILENT`` for an input no bound reads
        (whatever its value), ``_AFRESH`` for a streak (its message shows the value as written, so equal values
        written apart, ``5`` and ``5.0``, are not one answer), else ``_KEYED``; ``reads`` names the other inputs
        that decide which bounds apply to it (the conditions, ``when``, ``at_least`` ..., of a multiple input's era
        bounds; the ``when`` of the figures kept for some businesses, ``sizes.figures``, that a money input
        states), ``sized`` says whether a sector's share can scale its bound. The memo key of a fact is the date, ``token`` (one per input
        met, never reused), the value with its type and, for these, the values and types of the facts those
        conditions read (``reads``) and which sector is stated.
        """
        held = self._all_plans.get((name, id(spec)))
        if held is None or held[0] is not spec:
            money, multiple = spec.type == "money", spec.type == "multiple"
            fact = self.fact_for(spec) if self.negative_since else None
            negative = fact is not None and self.negative_since.get(fact.id) is not None
            if self.streak_began is not None and name in self.streak_inputs:
                mode = _AFRESH
            elif money or (multiple and self.multiples) or negative or (spec.type == "category" and self.value_since):
                mode = _KEYED
            else:
                mode = _SILENT
            reads: dict[str, None] = {}
            if multiple:  # the conditions of the era bounds of this multiple (``multiple_bounds``)
                for m in self.multiples:
                    if name in m.inputs:
                        reads.update(dict.fromkeys(m.reads))
            if money:  # the conditions of the figures kept for some businesses (BA5)
                for k in self.figures:
                    if k.when and k.matches(spec):
                        reads.update(dict.fromkeys(n for n, _ in k.when))
            sized = money and self._bounded(spec) is not None and bool(self.sector_shares)
            held = self._all_plans[(name, id(spec))] = (spec, len(self._all_plans), mode, tuple(reads), sized)
        self._plans[name] = held
        return held

    def _fact_problems(self, spec: InputSpec, name: str, value: Any, facts: Mapping[str, Any], year: int,
                       when: int | dt.date, sector: SectorShare | None
                       ) -> tuple[tuple[str, ...], MoneyFigure | None, bool]:
        """One fact's share of :meth:`anachronisms`: its messages (in the order they are written), the figure it
        states near the top of its year (a top earner, or None) and whether it states a market size."""
        found: list[str] = []
        top: MoneyFigure | None = None
        market = False
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
            for multiple in self.multiple_bounds(name, facts):
                why = multiple.outside(name, value, when)
                if why is not None:
                    found.append(why)
        if isinstance(value, Decimal) and spec.type == "money":
            for kind in self.figures:  # BA5: a business model's own record (subscription software by year)
                if kind.when and all(_when_text(facts.get(n)) in vs for n, vs in kind.when) and kind.matches(spec) and \
                        value > kind.bound(year):
                    found.append(f"{name} {_money(value)} (above the largest {kind.what} about {year}, "
                                 f"{_money(kind.bound(year))})")
            figure = self._bounded(spec)
            if figure is None:
                return tuple(found), top, market
            key = (figure if isinstance(figure, str) else figure.id, year)
            try:
                limit = self._year_memo[key]
            except KeyError:
                limit = self._year_memo[key] = (self.size_bound(year) if isinstance(figure, str)
                                                else figure.bound(year))
            if isinstance(figure, str):
                market = True
            elif figure.priced and limit is not None and value > 0 and 3 * value > limit:
                top = figure
            if limit is None:
                return tuple(found), top, market
            if not value > limit:
                share = sector.share(year) if sector is not None else None
                if sector is not None and share is not None and value > limit * share:  # s45items
                    noun = "market value" if isinstance(figure, str) else figure.what
                    found.append(f"{name} {_money(value)} (above the largest {sector.what}'s {noun} about "
                                 f"{year}, {_money(limit * share)}: {_percent(share)} of the largest US "
                                 "company's)")
                return tuple(found), top, market
            if isinstance(figure, str):
                found.append(f"{name} {_money(value)} (above the largest company's market value about "
                             f"{year}, {_money(limit)})")
            else:
                found.append(f"{name} {_money(value)} (above the largest US company's {figure.what} about "
                             f"{year}, {_money(limit)})")
        return tuple(found), top, market

    def get(self, regime_id: str) -> Regime:
        """A regime by id.

        Raises
        ------
        LoadError
            Rule ``regime``: no such regime (with a "did you mean").
        """
        return by_id(self.regimes, regime_id, "regime", self.file)

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
#: s57nufix (W1): the kinds of a company's shares may be named ("market value of the common and preferred
#: equity", "... of the ordinary shares"), and "market equity" is the figure too.
_SIZE_PHRASE = re.compile(
    r"(?:the |its |current |the company's |the firm's )?(?:enterprise value|ev|market cap|market capitali[sz]ation|"
    r"equity market value|market equity|market value of (?:all )?(?:the )?(?:company's |firm's )?"
    r"(?:(?:common|ordinary|preferred)(?: and (?:common|ordinary|preferred))? )?(?:equity|shares|stock|company|firm|"
    r"whole business|business))(?: of the (?:company|firm|business))?\s*(?:$|[,.;:(])", re.I)
#: s57nufix (W1): an input name that is the figure itself: ``market_equity``, ``mkt_value``,
#: ``equity_market_value``, ``market_capitalization_usd``; ``market_value_of_stake`` is not.
_SIZE_NAME = re.compile(
    r"(?:equity_)?(?:mkt|market)_(?:cap|capitali[sz]ation|value|equity)(?:_value)?(?:_(?:usd|musd|bn|m))?", re.I)


def _when_text(value: Any) -> Any:
    """A fact as a ``when`` condition holds its values (strings): a yes/no fact as ``"true"``/``"false"``
    (s44rfix: ``when: {distressed: ["true"]}``), any other value as it is.

    >>> _when_text(True), _when_text(False), _when_text("transport")
    ('true', 'false', 'transport')
    """
    return ("true" if value else "false") if isinstance(value, bool) else value


def _money(value: Decimal) -> str:
    """``$482B``-style text of an amount (for messages)."""
    for suffix, scale in (("T", Decimal(10) ** 12), ("B", Decimal(10) ** 9), ("M", Decimal(10) ** 6)):
        if abs(value) >= scale:
            return f"${(value / scale).normalize():f}{suffix}"
    return f"${value.normalize():f}"


def _percent(share: Decimal) -> str:
    """``25%``-style text of a share (for messages).

    >>> _percent(Decimal("0.25")), _percent(Decimal("0.6"))
    ('25%', '60%')
    """
    return f"{(share * 100).normalize():f}%"
