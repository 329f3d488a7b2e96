"""When a scenario may be dated: framework vintage, investor career, decision-time cutoff.

Two rules keep a perturbed scenario honest in time.

**Vintage** (paper §9 FM-6 "Anachronistic Application", §11.6 career
boundaries). A scenario is dated inside the framework's vintage, the card's
``vintage: {start, end}`` in calendar years (an open end means the framework
is still in use), and inside the investor's active period when the investor
registry (``ipb.engine.investors``: ``load_investors()`` and
``active_on(investor_id, date)``) is installed. A scenario dated outside
either is allowed only in an item marked as an FM-6 probe, whose manifest
says which cards it is anachronistic for and why.

**Decision-time cutoff** (Investor's Last Exam, §2.1 and Appendix B.2). No
fact in a scenario is dated after the scenario's own date: a date-valued fact
(an input of type ``date``) must not be later than ``as_of``, a calendar-year
fact (type ``year``) not in a later year, and a fact with a publication stamp
(the macro facts of a regime) must have been published *before* ``as_of``;
a date-only stamp counts from the end of its day, as
:func:`ipb.engine.decision_time.decision_time_violations` decides.
"""

from __future__ import annotations

import datetime as dt
import importlib
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any, Callable, Mapping

from ipb.engine.card import Card
from ipb.engine.decision_time import decision_time_violations
from ipb.errors import IpbError, PerturbError

__all__ = ["Window", "framework_window", "date_problem", "cutoff_problems", "require_cutoff"]


@dataclass(frozen=True)
class Window:
    """The dates a card may be applied at.

    ``start``/``end`` are the card's vintage years (``end`` None: open);
    ``active`` is the investor registry's verdict for a date, or None when
    the registry is not installed or does not know the card's investor.
    """

    card_id: str
    start: int
    end: int | None
    investor_id: str | None
    active: Callable[[dt.date], bool] | None
    #: The investor's active period as the registry gives it ("1977 to 1990-05"), named when a date falls outside
    career: str | None = None

    @property
    def source(self) -> str:
        """``card`` or ``card+investors``: which registries decided."""
        return "card+investors" if self.active is not None else "card"

    def describe(self) -> str:
        return f"{self.start}-{self.end if self.end is not None else 'present'}"


def _field(record: Any, name: str) -> Any:
    if isinstance(record, Mapping):
        return record.get(name)
    return getattr(record, name, None)


@lru_cache(maxsize=1)
def _registry_functions() -> tuple[Callable[[], Any], Callable[[str, dt.date], Any]] | None:
    """``(load_investors, active_on)`` from ``ipb.engine.investors``, or None when it is not installed."""
    try:
        module = importlib.import_module("ipb.engine.investors")
    except ImportError:
        return None
    load = getattr(module, "load_investors", None)
    active_on = getattr(module, "active_on", None)
    if load is None or active_on is None:
        return None
    return load, active_on


def _investor_registry() -> tuple[Any, Callable[[str, dt.date], Any]] | None:
    """``(investors, active_on)``: the registry in use now (bundled, ``--investors``, ``IPB_INVESTORS``; the loader
    caches it per file), or None when it is not installed. s63ufix: the investors were cached at the first call, so
    a registry file added later in the process (``use_investors``) went unseen by the career check."""
    functions = _registry_functions()
    if functions is None:
        return None
    load, active_on = functions
    return load(), active_on


def _investor_id(investors: Any, card: Card) -> str | None:
    records = investors.items() if isinstance(investors, Mapping) else ((_field(r, "id"), r) for r in investors)
    by_name = None
    for key, record in records:
        ident = _field(record, "id") or key
        if card.id in (_field(record, "cards") or ()):
            return str(ident)
        names = {_field(record, "name"), *(_field(record, "aliases") or ())}
        if card.investor in names and by_name is None:
            by_name = str(ident)
    return by_name


def framework_window(card: Card) -> Window:
    """The vintage window of ``card``, with the investor registry's check when it is installed.

    An investor registry that is present but does not know the card's
    investor, or whose records have an unexpected shape, leaves the decision
    to the card's own vintage.
    """
    start, end = card.vintage
    registry = _investor_registry()
    investor_id = None
    active: Callable[[dt.date], bool] | None = None
    career = None
    if registry is not None:
        investors, active_on = registry
        try:
            investor_id = _investor_id(investors, card)
        except (AttributeError, TypeError, ValueError):
            investor_id = None
        if investor_id is not None:
            active = _active_check(active_on, investor_id)
            career = _career(investors, investor_id)
    return Window(card.id, start, end, investor_id, active, career)


def _career(investors: Any, investor_id: str) -> str | None:
    """The registry's active period of ``investor_id`` in words ("1977 to 1990-05", "1978 to present"), or None
    when its record has another shape."""
    try:
        records = investors.values() if isinstance(investors, Mapping) else investors
        record = next(r for r in records if _field(r, "id") == investor_id)
        begin, end = _field(record, "active_start"), _field(record, "active_end")
    except (AttributeError, TypeError, ValueError, StopIteration):
        return None
    if begin is None:
        return None
    return f"{begin} to {end if end is not None else 'present'}"


def _active_check(active_on: Callable[[str, dt.date], Any], investor_id: str) -> Callable[[dt.date], bool]:
    def active(day: dt.date) -> bool:
        return bool(active_on(investor_id, day))

    return active


def date_problem(window: Window, day: dt.date) -> str | None:
    """Why ``day`` is outside the window (a sentence), or None when it is inside.

    >>> w = Window("graham_net_net_screen", 1934, 1976, None, None)
    >>> date_problem(w, dt.date(1974, 12, 31)) is None
    True
    >>> date_problem(w, dt.date(2009, 3, 9))
    'graham_net_net_screen: 2009-03-09 is outside the framework vintage 1934-1976'
    """
    if day.year < window.start or (window.end is not None and day.year > window.end):
        return f"{window.card_id}: {day.isoformat()} is outside the framework vintage {window.describe()}"
    if window.active is not None:
        try:
            inside = window.active(day)
        except IpbError:
            inside = True  # the registry cannot judge this date; the card's vintage has
        if not inside:
            career = f" (active {window.career})" if window.career else ""  # s57fixio: the dates, not only the name
            return f"{window.card_id}: {day.isoformat()} is outside the career of investor {window.investor_id!r}{career}"
    return None


def cutoff_problems(
    as_of: dt.date,
    dated_values: Mapping[str, dt.date | Decimal | int],
    published: Mapping[str, dt.date],
) -> list[str]:
    """Facts dated after the scenario date ``as_of``, one sentence each (empty: none).

    Parameters
    ----------
    dated_values:
        Date-valued facts (a ``datetime.date``: must be on or before
        ``as_of``) and calendar-year facts (a number: must not be a later
        year).
    published:
        Fact name -> the date its value was first published; it must precede
        ``as_of`` (a date-only stamp is available when its day ends).

    >>> cutoff_problems(dt.date(2009, 3, 9), {"decision_date": dt.date(2009, 3, 9)}, {"policy_rate": dt.date(2009, 3, 9)})
    ['policy_rate was published 2009-03-09, not before the scenario date 2009-03-09']
    """
    found: list[str] = []
    for name, value in dated_values.items():
        if isinstance(value, dt.date):
            if value > as_of:
                found.append(f"{name} is {value.isoformat()}, after the scenario date {as_of.isoformat()}")
        elif value > as_of.year:
            found.append(f"{name} is {value}, a year after the scenario date {as_of.isoformat()}")
    if published:
        for v in decision_time_violations({k: d.isoformat() for k, d in published.items()}, as_of.isoformat()):
            found.append(f"{v.name} was published {published[v.name].isoformat()}, not before the scenario date "
                         f"{as_of.isoformat()}")
    return found


def require_cutoff(
    as_of: dt.date | None,
    dated_values: Mapping[str, dt.date | Decimal | int],
    published: Mapping[str, dt.date],
) -> None:
    """Refuse a scenario with a fact dated after its date.

    Raises
    ------
    PerturbError
        Rule ``look-ahead``, naming every offending fact. A scenario without
        a date cannot hold published facts; its date-valued facts are then
        not checked.
    """
    if as_of is None:
        if published:
            raise PerturbError("look-ahead: a scenario with dated macro facts needs a date (as_of)", rule="look-ahead")
        return
    problems = cutoff_problems(as_of, dated_values, published)
    if problems:
        raise PerturbError("look-ahead: " + "; ".join(problems), rule="look-ahead")
