"""Decision time: when a dated fact became available, and whether a scenario may use it.

Investor's Last Exam (seed 003, §2.1 and Appendix B.2) releases only what was available
**before the earlier of a task's cutoff and its access limit**; a record stamped with a
date only becomes available when that date *ends*. The same rule serves perturbation: an
operator that moves a scenario in time (temporal displacement, FM-6) asks
:func:`decision_time_violations` or :func:`require_decision_time` whether a fact could have
been known at the scenario's date. The evidence store (:mod:`ipb.neighbours.evidence`)
applies it to document versions.

Timestamps
----------
``"2026-03-31"`` is date-only. ``"2026-03-31T16:00:00-04:00"`` and
``"2026-03-31T20:00:00Z"`` are instants; a time without a zone is refused
(two readers could place it differently). A *cutoff* or *access limit* given as a
date means the end of that date.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Mapping
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


from ipb.errors import LoadError, PerturbError

__all__ = [
    "DateLike",
    "Stamp",
    "TemporalViolation",
    "parse_stamp",
    "eligible_before",
    "is_available",
    "decision_time_violations",
    "require_decision_time",
]

DateLike = str | dt.date | dt.datetime

# =========================================================================== time stamps

_DATE_ONLY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_UTC = dt.timezone.utc


def _zone(name: str) -> dt.tzinfo:
    if name.upper() == "UTC":
        return _UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise LoadError(f"unknown time zone {name!r}; use an IANA name such as 'America/New_York' or 'UTC'",
                        rule="timezone", name=name) from exc


@dataclass(frozen=True, order=True)
class Stamp:
    """A moment of availability: ``instant`` (aware, UTC) and how it was written.

    ``precision`` is ``"date"`` for a date-only value (the instant is then
    the end of that date in the store's time zone) and ``"datetime"``
    otherwise; ``text`` is the value as given.
    """

    instant: dt.datetime
    precision: str = field(compare=False)
    text: str = field(compare=False)

    @property
    def key(self) -> str:
        """Fixed-width UTC text that sorts as the instant does (SQLite compares it)."""
        return self.instant.astimezone(_UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_stamp(value: DateLike, *, date_timezone: str = "UTC") -> Stamp:
    """When a record stamped ``value`` becomes available (or when a cutoff falls).

    Parameters
    ----------
    value:
        ``"YYYY-MM-DD"`` or a :class:`datetime.date`: the end of that date
        (midnight starting the next day) in ``date_timezone``. An ISO
        date-time with a zone (``Z`` or ``+HH:MM``) or an aware
        :class:`datetime.datetime`: that instant.
    date_timezone:
        IANA zone in which a date ends.

    Raises
    ------
    LoadError
        Rule ``timestamp``: not ISO 8601, or a date-time without a zone.

    >>> parse_stamp("2026-03-31").key
    '2026-04-01T00:00:00.000000Z'
    >>> parse_stamp("2026-03-31", date_timezone="America/New_York").key
    '2026-04-01T04:00:00.000000Z'
    >>> parse_stamp("2026-03-31T16:00:00-04:00").key
    '2026-03-31T20:00:00.000000Z'
    """
    if isinstance(value, dt.datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise LoadError(f"time stamp {value.isoformat()!r} has no time zone; add one (Z or an offset such as -04:00)",
                            rule="timestamp")
        return Stamp(value.astimezone(_UTC), "datetime", value.isoformat())
    if isinstance(value, dt.date):
        return _end_of(value, date_timezone, value.isoformat())
    if not isinstance(value, str):
        raise LoadError(f"time stamp {value!r} must be an ISO date or date-time string", rule="timestamp")
    text = value.strip()
    if _DATE_ONLY.fullmatch(text):
        try:
            day = dt.date.fromisoformat(text)
        except ValueError:
            raise LoadError(f"{value!r} is not a calendar date (YYYY-MM-DD)", rule="timestamp") from None
        return _end_of(day, date_timezone, value)
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        raise LoadError(
            f"{value!r} is not an ISO date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SS+HH:MM)", rule="timestamp"
        ) from None
    if moment.tzinfo is None:
        raise LoadError(
            f"time stamp {value!r} has no time zone; add one (Z or an offset such as -04:00) "
            "so that it names one instant", rule="timestamp",
        )
    return Stamp(moment.astimezone(_UTC), "datetime", value)


def _end_of(day: dt.date, zone_name: str, text: str) -> Stamp:
    zone = _zone(zone_name)
    midnight = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0), tzinfo=zone)
    return Stamp(midnight.astimezone(_UTC), "date", text)


def eligible_before(cutoff: DateLike, access_limit: DateLike | None = None, *, date_timezone: str = "UTC") -> Stamp:
    """The bound a version's availability must precede: ``min(cutoff, access_limit)``.

    >>> eligible_before("2026-03-31T16:00:00-04:00", "2026-03-01").text
    '2026-03-01'
    """
    bound = parse_stamp(cutoff, date_timezone=date_timezone)
    if access_limit is not None:
        limit = parse_stamp(access_limit, date_timezone=date_timezone)
        if limit.instant < bound.instant:
            bound = limit
    return bound


def is_available(
    stamp: DateLike, cutoff: DateLike, access_limit: DateLike | None = None, *, date_timezone: str = "UTC"
) -> bool:
    """Whether a record stamped ``stamp`` is eligible at ``cutoff`` (ILE Appendix B.2).

    True when its availability strictly precedes ``min(cutoff, access_limit)``.

    >>> is_available("2024-06-29", "2024-06-30"), is_available("2024-06-30", "2024-06-30")
    (True, False)
    >>> is_available("2024-06-30T10:00:00Z", "2024-06-30")
    True
    """
    when = parse_stamp(stamp, date_timezone=date_timezone)
    return when.instant < eligible_before(cutoff, access_limit, date_timezone=date_timezone).instant


@dataclass(frozen=True)
class TemporalViolation:
    """A fact that could not have been known at the decision time."""

    name: str
    stamp: Stamp
    bound: Stamp

    @property
    def message(self) -> str:
        return (
            f"fact {self.name!r} dated {self.stamp.text} is available from {self.stamp.key}, "
            f"not before the decision-time bound {self.bound.text} ({self.bound.key})"
        )


def decision_time_violations(
    dated_facts: Mapping[str, DateLike],
    as_of: DateLike,
    *,
    access_limit: DateLike | None = None,
    date_timezone: str = "UTC",
) -> list[TemporalViolation]:
    """The facts of a scenario that were not yet available at its date.

    For a perturbation operator (temporal displacement, FM-6): ``dated_facts``
    maps each fact name to the date or time its value was published;
    ``as_of`` is the scenario's decision time. A fact violates the boundary
    when its availability does not precede ``min(as_of, access_limit)``; a
    date-only fact dated on the scenario's own (date-only) day is a violation
    too, since it only became available when that day ended.

    Returns
    -------
    list of TemporalViolation
        In the order of ``dated_facts``; empty when every fact is admissible.

    >>> [v.name for v in decision_time_violations({"q2_revenue": "2024-07-25", "q1_revenue": "2024-04-23"}, "2024-06-30")]
    ['q2_revenue']
    """
    bound = eligible_before(as_of, access_limit, date_timezone=date_timezone)
    found: list[TemporalViolation] = []
    for name, value in dated_facts.items():
        stamp = parse_stamp(value, date_timezone=date_timezone)
        if not stamp.instant < bound.instant:
            found.append(TemporalViolation(name, stamp, bound))
    return found


def require_decision_time(
    dated_facts: Mapping[str, DateLike],
    as_of: DateLike,
    *,
    access_limit: DateLike | None = None,
    date_timezone: str = "UTC",
) -> None:
    """Refuse a scenario that uses facts from after its decision time.

    Raises
    ------
    PerturbError
        Rule ``look-ahead``, naming every offending fact (``name`` is the
        first); nothing is raised when all facts are admissible.

    >>> require_decision_time({"deliveries": "2024-07-02"}, "2024-06-30")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ipb.errors.PerturbError: perturb error: look-ahead: fact 'deliveries' dated 2024-07-02 ...
    """
    found = decision_time_violations(dated_facts, as_of, access_limit=access_limit, date_timezone=date_timezone)
    if found:
        raise PerturbError("look-ahead: " + "; ".join(v.message for v in found), rule="look-ahead", name=found[0].name)
