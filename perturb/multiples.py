"""Valuation multiples bounded by era: the ``multiples`` of ``frameworks/regimes.yaml`` (s38rules, s39rules).

A multiple describes the market of its day as a company's size does: a P/E of 40 in September 1979, when the
market traded near 7x, or of 3.2 times a large company's three-year average earnings in 1973, when the market
stood near 12-18x, is a fact no company of that date had. Each bound names the multiple in words (``what``) and
either the inputs that state it (``inputs``: a card's ``pe_ratio``, of type multiple) or the two money inputs it
is the quotient of (``of``: price per share and earnings per share, for a card that states no multiple); its
``most`` rows give the highest multiple from each first year, its ``least`` rows the lowest. Before a table's
first row the multiple is not bounded on that side. A quotient bound may hold only for some businesses
(s40buff): ``when`` names category inputs and the values it holds for, ``at_least`` numeric inputs and the
least value from which it holds (subscription software growing 15% or more at a 70% gross margin), ``at_most``
numeric inputs and the most from which it holds (s43rfix: owner earnings growing 5% a year or less), ``ratios``
the quotient of two inputs and the least (or most) quotient from which it holds (s49rfix: three-year EPS at least
2.5 times its level ten years before); a scenario that does not state one of them, or states a denominator of zero
or less, is not bounded. A row may begin on a day instead of a year (s41gb3: ``"2008-09-15"``):
a market can reprice within weeks (large consumer staples near 7x EBIT at the end of September 2008, near 5x in
November), so such a row is read only against a scenario's full date; asked by year, a dated row begins after it.

References
----------
Paper §6.5 (operator iii, temporal displacement keeps only facts that hold at the date); issue 18 bar line 2.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Iterator, Mapping, Union

__all__ = ["MultipleBound", "RatioCondition", "When", "ratio_anachronisms", "ratio_outside", "read_conditions",
           "read_ratios", "row_start"]

#: A row's first day or year, or the day or year a scenario is dated (s41gb3).
When = Union[int, dt.date]


def row_start(when: When) -> dt.date:
    """The first day of ``when``: the day itself, or the 1st of January of a year (s41gb3).

    >>> row_start(2008), row_start(dt.date(2008, 9, 15))
    (datetime.date(2008, 1, 1), datetime.date(2008, 9, 15))
    """
    return when if isinstance(when, dt.date) else dt.date(when, 1, 1)


def _year(when: When) -> int:
    return when.year if isinstance(when, dt.date) else when


@dataclass(frozen=True)
class RatioCondition:
    """s49rfix: a condition on the quotient of two inputs (``numerator / denominator``), met when both are stated as
    numbers, the denominator is above zero and the quotient is at least ``least`` and at most ``most`` (either may be
    None: that side is open).

    >>> grew = RatioCondition("eps", "eps_ten_years_ago", Decimal("2.5"))
    >>> [grew.met({"eps": Decimal(e), "eps_ten_years_ago": Decimal(1)}) for e in ("2.5", "2.49", "16")]
    [True, False, True]
    >>> grew.met({"eps": Decimal(3)}), grew.met({"eps": Decimal(3), "eps_ten_years_ago": Decimal(0)})
    (False, False)
    >>> RatioCondition("a", "b", None, Decimal(2)).met({"a": Decimal(-4), "b": Decimal(1)})
    True
    """

    numerator: str
    denominator: str
    least: Decimal | None = None
    most: Decimal | None = None

    def met(self, facts: Mapping[str, Any]) -> bool:
        top, bottom = facts.get(self.numerator), facts.get(self.denominator)
        if not (isinstance(top, Decimal) and isinstance(bottom, Decimal)) or isinstance(top, bool) or bottom <= 0:
            return False
        quotient = top / bottom
        return (self.least is None or quotient >= self.least) and (self.most is None or quotient <= self.most)


@dataclass(frozen=True)
class MultipleBound:
    """How high (``most``) and how low (``least``) a valuation multiple stood in an era; each table holds
    (first year or first day, the bound from then), ascending, and may be empty (that side unbounded).

    >>> m = MultipleBound("pe", "price / earnings", ("pe_ratio",), ((1974, Decimal(30)), (1983, Decimal(1000))))
    >>> m.bound(1979), m.bound(1990), m.bound(1972), m.floor(1979)
    (Decimal('30'), Decimal('1000'), None, None)
    >>> g = MultipleBound("pe3", "price / three-year EPS", (), (), ((1973, Decimal(4)), (1974, Decimal(3))),
    ...                   ("price_per_share", "eps_3yr_avg"))
    >>> g.floor(1973), g.floor(1975), g.floor(1972), g.bound(1973)
    (Decimal('4'), Decimal('3'), None, None)
    >>> d = MultipleBound("ev", "EV / EBIT", (), (), ((dt.date(2008, 9, 15), Decimal(6)),
    ...                   (dt.date(2008, 10, 6), Decimal(5))), ("enterprise_value", "ebit"))
    >>> d.floor(dt.date(2008, 9, 30)), d.floor(dt.date(2008, 11, 20)), d.floor(dt.date(2008, 9, 1)), d.floor(2008)
    (Decimal('6'), Decimal('5'), None, None)
    """

    id: str
    what: str
    inputs: tuple[str, ...]
    most: tuple[tuple[When, Decimal], ...]
    least: tuple[tuple[When, Decimal], ...] = ()
    #: (numerator, denominator): the two inputs the multiple is the quotient of, or () (s39rules).
    of: tuple[str, ...] = ()
    #: s40buff: (category input, the values the bound holds for), each of which must hold (``when``); a yes/no input's
    #: values are "true" and "false" (s44items).
    when: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: s40buff: (numeric input, the least value from which the bound holds), each of which must hold (``at_least``).
    at_least: tuple[tuple[str, Decimal], ...] = ()
    #: s43rfix: (numeric input, the most value up to which the bound holds), each of which must hold (``at_most``).
    at_most: tuple[tuple[str, Decimal], ...] = ()
    #: s49rfix: conditions on the quotient of two inputs (``ratios``), each of which must hold.
    ratios: tuple[RatioCondition, ...] = ()

    @property
    def reads(self) -> tuple[str, ...]:
        """Every input the bound reads: the quotient's two and those of its conditions."""
        return (*self.of, *(n for n, _ in self.when), *(n for n, _ in self.at_least), *(n for n, _ in self.at_most),
                *(n for r in self.ratios for n in (r.numerator, r.denominator)))

    def holds_for(self, facts: Mapping[str, Any]) -> bool:
        """True when ``facts`` state every condition's input and meet it (always, for a bound with none).

        >>> m = MultipleBound("g", "price / growth", (), (), ((2024, Decimal(15)),), ("ev", "growth"),
        ...                   (("model", ("saas",)),), (("growth", Decimal("0.15")),))
        >>> [m.holds_for(f) for f in ({"model": "saas", "growth": Decimal("0.2")}, {"model": "bank",
        ...  "growth": Decimal("0.2")}, {"model": "saas", "growth": Decimal("0.1")}, {"growth": Decimal("0.2")})]
        [True, False, False, False]
        >>> b = MultipleBound("d", "debt / value", (), ((1977, Decimal(1)),), (), ("debt", "cap"), (("battered", ("false",)),))
        >>> [b.holds_for({"battered": v}) for v in (False, True, "false")]
        [True, False, True]
        >>> s = MultipleBound("p", "price / owner earnings", (), ((2003, Decimal(35)),), (), ("mv", "oe"),
        ...                   at_most=(("growth", Decimal("0.05")),))
        >>> [s.holds_for({"growth": Decimal(g)}) for g in ("0.05", "0.055", "-0.02")], s.holds_for({})
        ([True, False, True], False)
        >>> r = MultipleBound("r", "price / EPS", (), (), ((1973, Decimal(8)),), ("p", "e"),
        ...                   ratios=(RatioCondition("e", "e10", Decimal("2.5")),))
        >>> [r.holds_for({"e": Decimal(e), "e10": Decimal(1)}) for e in ("2.5", "2")], r.holds_for({"e": Decimal(3)})
        ([True, False], False)
        >>> r.reads
        ('p', 'e', 'e', 'e10')
        """
        for name, values in self.when:
            value = facts.get(name)
            if isinstance(value, bool):  # s44items: a yes/no input is listed as "true" or "false"
                value = "true" if value else "false"
            if value not in values:
                return False
        for name, least in self.at_least:
            value = facts.get(name)
            if not isinstance(value, Decimal) or value < least:
                return False
        for name, most in self.at_most:
            value = facts.get(name)
            if not isinstance(value, Decimal) or value > most:
                return False
        return all(r.met(facts) for r in self.ratios)

    def bound(self, year: When) -> Decimal | None:
        """The highest multiple a scenario dated in ``year`` (a year, or a day) may state (the last row at or
        before it), or None."""
        at = row_start(year)
        rows = [m for y, m in self.most if row_start(y) <= at]
        return rows[-1] if rows else None

    def floor(self, year: When) -> Decimal | None:
        """The lowest multiple a scenario dated in ``year`` (a year, or a day) may state (the last ``least`` row
        at or before it), or None."""
        at = row_start(year)
        rows = [m for y, m in self.least if row_start(y) <= at]
        return rows[-1] if rows else None

    def outside(self, label: str, value: Decimal, when: When) -> str | None:
        """Why ``value`` (the multiple, read as ``label``) could not be stated on ``when`` (a day or a year),
        or None; the message names the year."""
        (most, least), year = _bounds_at(self, when), _year(when)
        if most is not None and value > most:
            return (f"{label} {value.quantize(Decimal('0.01')).normalize():f}x (above the highest {self.what} of its "
                    f"era about {year}, {most.normalize():f}x)")
        if least is not None and value < least:
            return (f"{label} {value.quantize(Decimal('0.01')).normalize():f}x (below the lowest {self.what} of its "
                    f"era about {year}, {least.normalize():f}x)")
        return None


#: (id of a bound, year or day) -> (the bound, :meth:`MultipleBound.bound`, :meth:`MultipleBound.floor`) then: every
#: candidate and item of a run is checked against the same few dates (s41speed; held with the bound, so an id is not
#: reused while remembered; cleared at ``YEAR_MEMO_LIMIT`` entries).
_YEAR_BOUNDS: dict[tuple[int, When], tuple[MultipleBound, Decimal | None, Decimal | None]] = {}
YEAR_MEMO_LIMIT = 4096


def _bounds_at(m: MultipleBound, when: When) -> tuple[Decimal | None, Decimal | None]:
    """``(m.bound(when), m.floor(when))``, remembered per bound and year or day."""
    held = _YEAR_BOUNDS.get((id(m), when))
    if held is None or held[0] is not m:
        if len(_YEAR_BOUNDS) >= YEAR_MEMO_LIMIT:
            _YEAR_BOUNDS.clear()
        held = _YEAR_BOUNDS[(id(m), when)] = (m, m.bound(when), m.floor(when))
    return held[1], held[2]


def ratio_anachronisms(multiples: tuple[MultipleBound, ...], facts: Mapping[str, Any], year: When,
                       memo: bool = True) -> list[str]:
    """The quotient bounds (``of``) that ``facts`` break in ``year`` (a year, or the scenario's day): each needs both
    inputs stated as numbers and a denominator above zero (a loss has no P/E), so an undisclosed price or earnings figure breaks nothing.

    s58speedver: the bounds with no limit on ``year`` are set aside once per tuple and date (:func:`_dated`, as
    :func:`ratio_outside` does), a bound whose two inputs are not both stated is passed before its conditions are
    read, and the message of a quotient is remembered by its bound, the date and the two values
    (:func:`_quotient_outside`; ``memo=False`` writes it afresh).

    >>> g = MultipleBound("pe3", "price / three-year average earnings", (), (), ((1973, Decimal(4)),),
    ...                   ("price_per_share", "eps_3yr_avg"))
    >>> ratio_anachronisms((g,), {"price_per_share": Decimal("9.75"), "eps_3yr_avg": Decimal(3)}, 1973)
    ['price_per_share / eps_3yr_avg 3.25x (below the lowest price / three-year average earnings of its era about 1973, 4x)']
    >>> ratio_anachronisms((g,), {"price_per_share": Decimal(12), "eps_3yr_avg": Decimal(3)}, 1973)
    []
    """
    found: list[tuple[int, str]] = []
    for i, m, _, _, top, bottom in _stated_quotients(multiples, facts, year):
        why = _quotient_outside(m, top, bottom, year) if memo else m.outside(f"{m.of[0]} / {m.of[1]}",
                                                                                 top / bottom, year)
        if why is not None:
            found.append((i, why))
    if len(found) > 1:
        found.sort()  # in the order of ``multiples`` (the groups by numerator interleave)
    return [why for _, why in found]


#: (id of a bound, year or day, numerator, denominator) -> (the bound, the message of :meth:`MultipleBound.outside`
#: or None) (s58speedver; held with the bound, so an id is not reused while remembered; emptied at
#: ``QUOTIENT_MEMO_LIMIT`` entries).
_QUOTIENTS: dict[tuple[int, When, Decimal, Decimal], tuple[MultipleBound, str | None]] = {}
QUOTIENT_MEMO_LIMIT = 1 << 13


def _quotient_outside(m: MultipleBound, top: Decimal, bottom: Decimal, year: When) -> str | None:
    """``m.outside("numerator / denominator", top / bottom, year)``, remembered by the bound, the date and the two
    values (equal values give the same message: it shows the quotient rounded to 0.01 and normalised).

    >>> g = MultipleBound("pe3", "price / EPS", (), (), ((1973, Decimal(4)),), ("p", "e"))
    >>> _quotient_outside(g, Decimal("9.75"), Decimal(3), 1973), _quotient_outside(g, Decimal("9.750"), Decimal("3.0"), 1973)
    ('p / e 3.25x (below the lowest price / EPS of its era about 1973, 4x)', 'p / e 3.25x (below the lowest price / EPS of its era about 1973, 4x)')
    """
    key = (id(m), year, top, bottom)
    held = _QUOTIENTS.get(key)
    if held is None or held[0] is not m:
        if len(_QUOTIENTS) >= QUOTIENT_MEMO_LIMIT:
            _QUOTIENTS.clear()
        held = _QUOTIENTS[key] = (m, m.outside(f"{m.of[0]} / {m.of[1]}", top / bottom, year))
    return held[1]


#: (id of a tuple of bounds, year or day) -> (the tuple, its bounds with a quotient and a limit then: each with
#: :meth:`MultipleBound.bound` and :meth:`MultipleBound.floor` of that date) (s57speedgen; cleared as ``_YEAR_BOUNDS``).
_DATED: dict[tuple[int, When], tuple[tuple[MultipleBound, ...], tuple[tuple[str, tuple[tuple[
    int, MultipleBound, Decimal | None, Decimal | None], ...]], ...]]] = {}


def ratio_outside(multiples: tuple[MultipleBound, ...], facts: Mapping[str, Any], year: When) -> bool:
    """``bool(ratio_anachronisms(multiples, facts, year))``, without writing the messages: True when ``facts`` state
    some quotient of ``multiples`` outside its bounds on ``year`` (s57speedgen: the flip's anchor draw and the
    feasible-set probes ask this yes/no question tens of thousands of times a run). The bounds with no limit on
    ``year`` are set aside once per tuple and date.

    >>> g = MultipleBound("pe3", "price / three-year average earnings", (), (), ((1973, Decimal(4)),),
    ...                   ("price_per_share", "eps_3yr_avg"))
    >>> [ratio_outside((g,), {"price_per_share": Decimal(p), "eps_3yr_avg": Decimal(3)}, y)
    ...  for p, y in (("9.75", 1973), ("12", 1973), ("9.75", 1972))]
    [True, False, False]
    >>> ratio_outside((g,), {"price_per_share": Decimal(1), "eps_3yr_avg": Decimal(0)}, 1973)  # no quotient of a loss
    False
    """
    for _, _, most, least, top, bottom in _stated_quotients(multiples, facts, year):
        value = top / bottom
        if (most is not None and value > most) or (least is not None and value < least):
            return True
    return False


def _stated_quotients(multiples: tuple[MultipleBound, ...], facts: Mapping[str, Any], year: When
                      ) -> Iterator[tuple[int, MultipleBound, Decimal | None, Decimal | None, Decimal, Decimal]]:
    """The quotient bounds of ``multiples`` with a limit on ``year`` that ``facts`` can be held to: each as (its place
    in ``multiples``, the bound, its highest and lowest multiple then, the stated numerator, the stated denominator),
    in the order of :func:`_dated`. A bound counts when both its inputs are stated as numbers, its denominator is
    above zero (a loss has no P/E) and its conditions hold; both inputs are read before the conditions (s58speedver),
    and a numerator that is not stated passes all of its bounds at once. The one walk that :func:`ratio_anachronisms`
    and :func:`ratio_outside` share.

    >>> pe = MultipleBound("a", "p/e", (), (), ((1973, Decimal(4)),), ("p", "e"))
    >>> pb = MultipleBound("b", "p/b", (), ((1974, Decimal(2)),), (), ("p", "b"))
    >>> [(i, m.id, top, bottom) for i, m, _, _, top, bottom in
    ...  _stated_quotients((pe, pb), {"p": Decimal(9), "e": Decimal(-1), "b": Decimal(3)}, 1975)]
    [(1, 'b', Decimal('9'), Decimal('3'))]
    """
    get = facts.get
    for numerator, rows in _dated(multiples, year):
        top = get(numerator)
        if not isinstance(top, Decimal):
            continue
        for i, m, most, least in rows:
            bottom = get(m.of[1])
            if isinstance(bottom, Decimal) and bottom > 0 and m.holds_for(facts):
                yield i, m, most, least, top, bottom


def _dated(multiples: tuple[MultipleBound, ...], year: When
           ) -> tuple[tuple[str, tuple[tuple[int, MultipleBound, Decimal | None, Decimal | None], ...]], ...]:
    """The quotient bounds (``of``) of ``multiples`` with a limit on ``year``, grouped by their numerator (groups in
    the order of their first bound): each as (its place in ``multiples``, the bound, its highest and lowest
    multiple then), in order. Worked out once per tuple and date (s57speedgen; grouped in s58speedver, so a
    scenario that states no price reads one fact for all the bounds of a price).

    >>> pe = MultipleBound("a", "p/e", (), (), ((1973, Decimal(4)),), ("p", "e"))
    >>> pb = MultipleBound("b", "p/b", (), ((1974, Decimal(2)),), (), ("p", "b"))
    >>> ev = MultipleBound("c", "ev/ebit", (), (), ((1980, Decimal(3)),), ("ev", "ebit"))
    >>> [(n, [(i, m.id, hi, lo) for i, m, hi, lo in rows]) for n, rows in _dated((pe, ev, pb), 1975)]
    [('p', [(0, 'a', None, Decimal('4')), (2, 'b', Decimal('2'), None)])]
    """
    held = _DATED.get((id(multiples), year))
    if held is None or held[0] is not multiples:
        if len(_DATED) >= YEAR_MEMO_LIMIT:
            _DATED.clear()
        groups: dict[str, list[tuple[int, MultipleBound, Decimal | None, Decimal | None]]] = {}
        for i, m in enumerate(multiples):
            if len(m.of) == 2:
                most, least = _bounds_at(m, year)
                if (most, least) != (None, None):
                    groups.setdefault(m.of[0], []).append((i, m, most, least))
        held = _DATED[(id(multiples), year)] = (multiples, tuple((n, tuple(rows)) for n, rows in groups.items()))
    return held[1]


def read_conditions(raw: Mapping[str, Any], add_error: Callable[[str, tuple[Any, ...]], None],
                    key: str = "at_least"
                    ) -> tuple[tuple[tuple[str, tuple[str, ...]], ...], tuple[tuple[str, Decimal], ...]]:
    """A ``multiples`` entry's ``when`` and ``at_least`` (s40buff) or, with ``key="at_most"``, ``at_most``
    (s43rfix), as :class:`MultipleBound` holds them; ``add_error(message, path)`` gets each value under ``key``
    that is not a number ("70%", "$2B", 0.15).

    >>> read_conditions({"when": {"model": ["saas"]}, "at_least": {"margin": "70%", "revenue": "$2B"}}, print)
    ((('model', ('saas',)),), (('margin', Decimal('0.70')), ('revenue', Decimal('2000000000'))))
    >>> read_conditions({"at_most": {"growth": "5%"}, "at_least": {"revenue": "$2B"}}, print, "at_most")
    ((), (('growth', Decimal('0.05')),))
    >>> _ = read_conditions({"at_most": {"growth": "fast"}}, lambda m, at: print(m, at), "at_most")
    at_most: growth 'fast' is not a number (a ratio, an amount or a multiple) ('at_most', 'growth')
    """
    from ipb.engine.expressions import parse_literal
    from ipb.errors import IpbError

    when = tuple((str(name), tuple(str(v) for v in values)) for name, values in (raw.get("when") or {}).items())
    at_least: list[tuple[str, Decimal]] = []
    for name, text in (raw.get(key) or {}).items():
        try:
            value = parse_literal(str(text))[0]
        except IpbError as exc:
            value = exc
        if isinstance(value, Decimal):
            at_least.append((str(name), value))
        else:
            add_error(f"{key}: {name} {text!r} is not a number (a ratio, an amount or a multiple)",
                      (key, name))
    return when, tuple(at_least)


def read_ratios(raw: Mapping[str, Any], add_error: Callable[[str, tuple[Any, ...]], None]) -> tuple[RatioCondition, ...]:
    """A ``multiples`` entry's ``ratios`` (s49rfix) as :class:`RatioCondition` values; ``add_error(message, path)``
    gets each bound that is not a number above zero ("2.5", "250%", 2.5), a condition with neither ``at_least`` nor
    ``at_most``, and one whose ``at_least`` is above its ``at_most`` (a condition no quotient meets).

    >>> read_ratios({"ratios": [{"of": ["eps", "eps_ten_years_ago"], "at_least": 2.5}]}, print)
    (RatioCondition(numerator='eps', denominator='eps_ten_years_ago', least=Decimal('2.5'), most=None),)
    >>> _ = read_ratios({"ratios": [{"of": ["a", "b"], "at_least": "fast"}]}, lambda m, at: print(m, at))
    ratios: a / b at_least 'fast' is not a number above zero (a ratio or a multiple: 2.5, 250%) ('ratios', 0, 'at_least')
    >>> _ = read_ratios({"ratios": [{"of": ["a", "b"], "at_least": 3, "at_most": 2}]}, lambda m, at: print(m, at))
    ratios: a / b holds from 3 up to 2, which no quotient meets (at_least must be at most at_most) ('ratios', 0)
    >>> _ = read_ratios({"ratios": [{"of": ["a", "b"]}]}, lambda m, at: print(m, at))
    ratios: a / b gives neither at_least nor at_most (a condition that always holds) ('ratios', 0)
    """
    from ipb.engine.expressions import parse_literal
    from ipb.errors import IpbError

    found: list[RatioCondition] = []
    for i, entry in enumerate(raw.get("ratios") or ()):
        numerator, denominator = (str(n) for n in entry["of"])
        sides: dict[str, Decimal | None] = {}
        for side in ("at_least", "at_most"):
            text = entry.get(side)
            if text is None:
                sides[side] = None
                continue
            try:
                value = parse_literal(str(text))[0]
            except IpbError as exc:
                value = exc
            if isinstance(value, Decimal) and value > 0:
                sides[side] = value
            else:
                add_error(f"ratios: {numerator} / {denominator} {side} {text!r} is not a number above zero (a ratio "
                          "or a multiple: 2.5, 250%)", ("ratios", i, side))
                sides[side] = None
        least, most = sides["at_least"], sides["at_most"]
        if "at_least" not in entry and "at_most" not in entry:
            add_error(f"ratios: {numerator} / {denominator} gives neither at_least nor at_most (a condition that "
                      "always holds)", ("ratios", i))
            continue
        if least is not None and most is not None and least > most:
            add_error(f"ratios: {numerator} / {denominator} holds from {entry['at_least']} up to {entry['at_most']}, "
                      "which no quotient meets (at_least must be at most at_most)", ("ratios", i))
            continue
        found.append(RatioCondition(numerator, denominator, least, most))
    return tuple(found)
