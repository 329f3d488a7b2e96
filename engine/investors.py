"""The investor registry: who the investors are, their schools, phrases and career boundaries.

``frameworks/investors.yaml`` (shipped as ``ipb.frameworks``) lists the nine
practitioners of paper Table 5 and the three institutions of paper §5.3. The
registry feeds the failure-mode detectors and temporal perturbation:

* ``school`` groups investors into the surface-similar clusters of FM-5
  (paper §9: {Buffett, Graham, Klarman} deep value, {Dalio, Soros} macro);
  :func:`cluster_of` returns one;
* ``distinctive_phrases`` are paper Table 8's voice markers (FM-4);
* ``active`` and ``career_boundaries`` are the dates of paper §11.6 (FM-2,
  FM-6, temporal perturbation); :func:`active_on` asks whether a date falls
  in the investor's active period;
* ``cards`` are the ids of the investor's framework cards;
  :func:`investor_for_card` goes the other way.

The file is read as strict YAML (:mod:`ipb.engine._yaml`), validated against
``grammar/investors.schema.json`` and then checked for meaning (schools that
exist, real calendar dates in order, names and aliases that identify one
investor, card ids listed once). Every problem is collected and reported as a
:class:`ipb.errors.LoadError` with file, 1-based line and column.

Dates may be a year (``1956``), a month (``"2022-10"``) or a day
(``"2023-11-28"``); a period includes the whole of its first and last year,
month or day.
"""

from __future__ import annotations

import calendar
import datetime as dt
import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Mapping, Protocol, Union

from ipb.engine._yaml import YamlDoc, load_yaml, load_yaml_file
from ipb.engine.registry import data_file_validator
from ipb.errors import ErrorGroup, IpbError, LoadError, did_you_mean

__all__ = [
    "PartialDate",
    "CareerBoundary",
    "School",
    "Investor",
    "UnknownInvestorError",
    "investors_schema",
    "load_investors",
    "load_user_investors",
    "load_investors_text",
    "schools",
    "get_investor",
    "find_investor",
    "fold_name",
    "investor_for_card",
    "cluster_of",
    "surface_similar",
    "active_on",
    "check_cards",
    "unknown_card_warnings",
    "validate_registry_file",
    "use_investors",
    "INVESTORS_ENV",
]

#: What a date argument may be: a date, an ISO text ("2022-10", "2023-11-28") or a year.
DateLike = Union[dt.date, str, int]

_DATE_TEXT = re.compile(r"^([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2}))?)?$")


@lru_cache(maxsize=None)
def investors_schema() -> dict[str, Any]:
    """The JSON Schema for the registry, shipped as ``grammar/investors.schema.json``."""
    text = resources.files("ipb.grammar").joinpath("investors.schema.json").read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- values


@dataclass(frozen=True, order=True)
class PartialDate:
    """A date known to the year, the month or the day.

    >>> d = PartialDate.parse("2022-10")
    >>> d.first_day(), d.last_day()
    (datetime.date(2022, 10, 1), datetime.date(2022, 10, 31))
    >>> str(PartialDate.parse(1956))
    '1956'
    """

    year: int
    month: int | None = None
    day: int | None = None

    @classmethod
    def parse(cls, value: DateLike) -> "PartialDate":
        """Read a year (int), an ISO text of 4, 7 or 10 characters, or a ``datetime.date``.

        Raises
        ------
        ValueError
            The text is not of that form or names no real day (``2023-02-30``).
        """
        if isinstance(value, dt.datetime):
            value = value.date()
        if isinstance(value, dt.date):
            return cls(value.year, value.month, value.day)
        if isinstance(value, bool):
            raise ValueError(f"not a date: {value!r}")
        if isinstance(value, int):
            return cls(value)
        match = _DATE_TEXT.match(str(value))
        if match is None:
            raise ValueError(f"not a date: {value!r}; write a year (1956), a month (\"2022-10\") or a day (\"2023-11-28\")")
        year, month, day = (int(g) if g is not None else None for g in match.groups())
        assert year is not None
        if month is not None and not 1 <= month <= 12:
            raise ValueError(f"{value!r} has no month {month}")
        if month is not None and day is not None:
            last = calendar.monthrange(year, month)[1]
            if not 1 <= day <= last:
                raise ValueError(f"{value!r} is not a real day ({year}-{month:02d} has {last} days)")
        return cls(year, month, day)

    def first_day(self) -> dt.date:
        """The earliest day the value may mean."""
        return dt.date(self.year, self.month or 1, self.day or 1)

    def last_day(self) -> dt.date:
        """The latest day the value may mean."""
        month = self.month or 12
        return dt.date(self.year, month, self.day or calendar.monthrange(self.year, month)[1])

    def __str__(self) -> str:
        text = f"{self.year:04d}"
        if self.month is not None:
            text += f"-{self.month:02d}"
            if self.day is not None:
                text += f"-{self.day:02d}"
        return text


@dataclass(frozen=True)
class CareerBoundary:
    """A dated event in an investor's career (paper §11.6).

    ``corpus_filter`` says how material dated after the event is treated:
    ``hard_exclude``, ``soft_filter`` or ``none`` (a milestone only).
    """

    date: PartialDate
    event: str
    description: str
    corpus_filter: str
    note: str | None = None


@dataclass(frozen=True)
class School:
    """An investment school; its investors form one FM-5 surface-similar cluster.

    ``source`` is ``paper`` when paper §9 names the cluster, ``author`` otherwise.
    """

    id: str
    description: str
    source: str


@dataclass(frozen=True)
class Investor:
    """One investor or institution of the registry.

    ``name`` equals the ``investor`` field of its cards. ``active_end`` is
    None while the active period continues. ``line`` is where the entry starts
    in the registry file.
    """

    id: str
    name: str
    kind: str
    school: str
    distinctive_phrases: tuple[str, ...]
    phrases_source: str
    active_start: PartialDate
    active_end: PartialDate | None
    career_boundaries: tuple[CareerBoundary, ...]
    cards: tuple[str, ...]
    aliases: tuple[str, ...] = ()
    organisation: str | None = None
    file: str = "<string>"
    line: int = 0

    def active_on(self, on: DateLike) -> bool:
        """Whether ``on`` lies in the active period (both ends inclusive).

        A partial date counts as active when any day of it is.
        """
        when = PartialDate.parse(on)
        if when.last_day() < self.active_start.first_day():
            return False
        return self.active_end is None or when.first_day() <= self.active_end.last_day()

    def boundaries_before(self, on: DateLike) -> tuple[CareerBoundary, ...]:
        """The career boundaries that had certainly happened by ``on``."""
        when = PartialDate.parse(on).first_day()
        return tuple(b for b in self.career_boundaries if b.date.last_day() <= when)

    def names(self) -> tuple[str, ...]:
        """The name and every alias."""
        return (self.name, *self.aliases)


class UnknownInvestorError(LoadError, KeyError):
    """An investor id, name or card investor that is not in the registry."""

    def __str__(self) -> str:  # KeyError would quote the message
        return IpbError.__str__(self)


# --------------------------------------------------------------------------- loading


class _Registry:
    def __init__(self, investors: dict[str, Investor], schools: dict[str, School], doc: YamlDoc,
                 docs: Mapping[str, YamlDoc] | None = None) -> None:
        self.investors = investors
        self.schools = schools
        self.doc = doc
        #: file -> document of every registry file merged (the bundled one and the user's): an error about an
        #: investor is located in the file that lists it (``Investor.file``), never in the bundled one (s62 N5)
        self.docs: dict[str, YamlDoc] = {doc.file: doc, **(docs or {})}

    def doc_of(self, investor: Investor) -> YamlDoc:
        """The document of the registry file that lists ``investor``."""
        return self.docs.get(investor.file, self.doc)


def _bundled_path() -> Path:
    return Path(str(resources.files("ipb.frameworks").joinpath("investors.yaml")))


#: The user's registry files (``ipb check/score/respond --investors FILE``, :func:`use_investors`, or the
#: ``IPB_INVESTORS`` environment variable, paths joined by the OS path separator): their investors are added to the
#: bundled ones wherever the registry is read with no ``path`` (FM-4, attribution, condition B, ``ipb check``).
_EXTRA: tuple[str, ...] = ()
INVESTORS_ENV = "IPB_INVESTORS"


def _mtime(file: Path) -> float:
    try:
        return file.stat().st_mtime
    except OSError:
        return -1.0  # the loader reports the missing file


def _extra_paths() -> tuple[str, ...]:
    """The user's registry files, ``IPB_INVESTORS`` first, each file once: one named both in ``IPB_INVESTORS`` and
    by ``--investors`` (a relative path beside an absolute one, a link) is read once under the first spelling, not
    refused as redefining its own investors (s39user)."""
    env = tuple(p for p in os.environ.get(INVESTORS_ENV, "").split(os.pathsep) if p.strip())
    first: dict[str, str] = {}
    for p in (*env, *_EXTRA):
        first.setdefault(os.path.realpath(p), p)
    return tuple(first.values())


def _registry(path: str | None) -> _Registry:
    """The registry at ``path`` (bundled, plus the user's files, if None), cached while the files are unchanged."""
    if path is not None:
        return _registry_at(str(Path(path)), _mtime(Path(path)))
    bundled = _bundled_path()
    extra = tuple((p, _mtime(Path(p))) for p in _extra_paths())
    if not extra:
        return _registry_at(str(bundled), _mtime(bundled))
    return _merged(str(bundled), _mtime(bundled), extra)


@lru_cache(maxsize=8)
def _registry_at(path: str, mtime: float) -> _Registry:
    return _from_doc(load_yaml_file(path, collect=True))


@lru_cache(maxsize=8)
def _user_registry(path: str, mtime: float, bundled: str, bundled_mtime: float) -> _Registry:
    return _from_doc(load_yaml_file(path, collect=True), _registry_at(bundled, bundled_mtime).schools)


@lru_cache(maxsize=8)
def _merged(bundled: str, bundled_mtime: float, extra: tuple[tuple[str, float], ...]) -> _Registry:
    """The bundled registry with the investors (and schools) of each user file added; an id, a name or alias, or a
    card id that another file already holds is an error located in the user's file."""
    base = _registry_at(bundled, bundled_mtime)
    investors, schools = dict(base.investors), dict(base.schools)
    errors: list[IpbError] = []
    docs: dict[str, YamlDoc] = {}
    for path, mtime in extra:
        user = _user_registry(path, mtime, bundled, bundled_mtime)
        docs[user.doc.file] = user.doc
        names = {" ".join(n.casefold().split()): i.id for i in investors.values() for n in i.names()}
        cards = {c: i.id for i in investors.values() for c in i.cards}
        for iid, investor in user.investors.items():
            where: tuple[Any, ...] = ("investors", iid)
            clash = [f"id {iid!r} is already an investor of {investors[iid].file}"] if iid in investors else []
            clash += [f"{n!r} already names investor {names[k]!r}" for n in investor.names()
                      if (k := " ".join(n.casefold().split())) in names]
            clash += [f"card {c!r} is already listed for investor {cards[c]!r}" for c in investor.cards if c in cards]
            if clash:
                errors.append(user.doc.error("; ".join(clash) + " (a registry file adds investors; it cannot redefine one)",
                                             where, key=True, rule="duplicate-investor", name=iid))
                continue
            investors[iid] = investor
        schools.update(user.schools)
    if errors:
        raise ErrorGroup(errors)
    return _Registry(investors, schools, base.doc, docs)


def use_investors(*paths: str | Path) -> dict[str, Investor]:
    """Add the investors of the user's registry files (same schema as ``frameworks/investors.yaml``) to the bundled
    ones, for this process; ``use_investors()`` with no path removes them again.

    A card outside the package names its investor in its ``investor`` field; with that investor in a file given here,
    FM-4, the investor's phrases in attribution and condition B's knowledge cards apply to its answers. Each file may
    declare its own schools or use the bundled ones.

    Returns
    -------
    dict
        Every investor now known (bundled first), by id.

    Raises
    ------
    LoadError
        A file is missing or is not strict YAML.
    ErrorGroup
        Every schema, meaning and clash error (an id, name, alias or card id already registered), each with
        file:line:col. On error the previous files stay in use.
    """
    global _EXTRA
    previous = _EXTRA
    _EXTRA = tuple(dict.fromkeys(str(Path(p)) for p in paths))
    try:
        return load_investors()
    except IpbError:
        _EXTRA = previous
        raise
    finally:
        _registry_changed()


def _registry_changed() -> None:
    """Forget what was computed from the registry (the parser's investor names, condition B's knowledge base)."""
    import sys

    for module, name in (("ipb.scoring.parse._card", "_registry_names"), ("ipb.respond.knowledge", "_bundled_kb")):
        cached = getattr(sys.modules.get(module), name, None)
        if cached is not None and hasattr(cached, "cache_clear"):
            cached.cache_clear()


def load_investors(path: str | Path | None = None) -> dict[str, Investor]:
    """Load the investor registry (the bundled ``frameworks/investors.yaml`` by default).

    Parameters
    ----------
    path:
        Another registry file; None reads the bundled one through
        ``importlib.resources``. Results are cached per path.

    Returns
    -------
    dict
        Investor id -> :class:`Investor`, in file order.

    Raises
    ------
    LoadError
        The file is missing or is not strict YAML.
    ErrorGroup
        Every schema and semantic error, each with file:line:col.

    Examples
    --------
    >>> investors = load_investors()
    >>> investors["dalio"].name, str(investors["dalio"].active_end)
    ('Ray Dalio', '2022-10')
    """
    return dict(_registry(None if path is None else str(path)).investors)


def load_user_investors(path: str | Path) -> dict[str, Investor]:
    """The investors of one user's registry file alone (as ``--investors`` reads it: the bundled schools may be
    named), without merging it; for looking into a file before using it.

    Raises
    ------
    LoadError, ErrorGroup
        As :func:`load_investors` for that file.
    """
    return dict(_user_registry(str(Path(path)), _mtime(Path(path)), str(_bundled_path()), _mtime(_bundled_path()))
                .investors)


def load_investors_text(text: str, file: str = "<string>") -> dict[str, Investor]:
    """Like :func:`load_investors`, from text (``file`` names it in errors)."""
    return dict(_from_doc(load_yaml(text, file, collect=True)).investors)


def schools(path: str | Path | None = None) -> dict[str, School]:
    """The registry's schools by id."""
    return dict(_registry(None if path is None else str(path)).schools)


def _from_doc(doc: YamlDoc, known_schools: Mapping[str, School] | None = None) -> _Registry:
    """Read a registry document; ``known_schools`` (the bundled registry's, for a user's file) may be named by its
    investors without being declared again under ``schools``."""
    from ipb.engine.card import _schema_errors  # one schema-error formatter for every file kind

    errors = _schema_errors(doc, investors_schema(), "the investor registry")
    if errors:
        raise ErrorGroup(errors)
    collected: list[IpbError] = []

    def add(message: str, path: tuple[Any, ...], rule: str, *, name: str | None = None,
            suggestion: str | None = None, key: bool = False) -> None:
        collected.append(doc.error(message, path, key=key, rule=rule, name=name, suggestion=suggestion))

    def date(value: Any, path: tuple[Any, ...]) -> PartialDate | None:
        try:
            return PartialDate.parse(value)
        except ValueError as exc:
            add(str(exc), path, "date")
            return None

    data = doc.data
    school_table = dict(known_schools or {})
    school_table.update({sid: School(sid, s["description"], s["source"]) for sid, s in data.get("schools", {}).items()})
    investors: dict[str, Investor] = {}
    owner_of_name: dict[str, str] = {}
    owner_of_card: dict[str, str] = {}
    for iid, raw in data["investors"].items():
        base: tuple[Any, ...] = ("investors", iid)
        if raw["school"] not in school_table:
            add(f"school {raw['school']!r} of {iid!r} is not declared under 'schools'", base + ("school",), "school",
                name=raw["school"], suggestion=did_you_mean(raw["school"], list(school_table)))
        names = [raw["name"], *raw.get("aliases", [])]
        for k, text in enumerate(names):
            folded = " ".join(text.casefold().split())
            owner = owner_of_name.get(folded)
            path = base + (("name",) if k == 0 else ("aliases", k - 1))
            if owner is not None and owner != iid:
                add(f"{text!r} already names investor {owner!r}; a name or alias must identify one investor",
                    path, "duplicate-name", name=text)
            owner_of_name.setdefault(folded, iid)
        for k, card_id in enumerate(raw["cards"]):
            owner = owner_of_card.get(card_id)
            if owner is not None and owner != iid:
                add(f"card {card_id!r} is already listed for investor {owner!r}", base + ("cards", k),
                    "duplicate-card", name=card_id)
            owner_of_card.setdefault(card_id, iid)

        start = date(raw["active"]["start"], base + ("active", "start"))
        end = date(raw["active"]["end"], base + ("active", "end")) if raw["active"]["end"] is not None else None
        if start is not None and end is not None and end.last_day() < start.first_day():
            add(f"active period of {iid!r} ends ({end}) before it starts ({start})", base + ("active", "end"), "period")

        boundaries: list[CareerBoundary] = []
        previous: PartialDate | None = None
        for k, b in enumerate(raw["career_boundaries"]):
            when = date(b["date"], base + ("career_boundaries", k, "date"))
            if when is None:
                continue
            if previous is not None and when.last_day() < previous.first_day():
                add(f"career boundary {b['event']!r} ({when}) comes before the one listed above it ({previous}); "
                    "list boundaries in date order", base + ("career_boundaries", k, "date"), "boundary-order")
            previous = when
            boundaries.append(CareerBoundary(when, b["event"], b["description"], b["corpus_filter"], b.get("note")))

        if start is None:
            continue
        line, _ = doc.locate_key(base)
        investors[iid] = Investor(
            id=iid,
            name=raw["name"],
            kind=raw["kind"],
            school=raw["school"],
            distinctive_phrases=tuple(raw["distinctive_phrases"]),
            phrases_source=raw["phrases_source"],
            active_start=start,
            active_end=end,
            career_boundaries=tuple(boundaries),
            cards=tuple(raw["cards"]),
            aliases=tuple(raw.get("aliases", ())),
            organisation=raw.get("organisation"),
            file=doc.file,
            line=line,
        )
    if collected:
        raise ErrorGroup(collected)
    return _Registry(investors, school_table, doc)


# --------------------------------------------------------------------------- lookups


def fold_name(name: str) -> str:
    """An investor name as lookups compare it: case folded, each run of whitespace one space.

    >>> fold_name("  Warren   BUFFETT ")
    'warren buffett'
    """
    return " ".join(name.casefold().split())


def find_investor(key: str, investors: Mapping[str, Investor]) -> Investor | None:
    """The investor of ``investors`` (id -> entry) whose id is ``key``, else the first whose name or an alias is
    ``key`` (:func:`fold_name` on both), else None: the one lookup of :func:`get_investor` and of condition B's
    knowledge base (:meth:`ipb.respond.knowledge.KnowledgeBase.canonical`)."""
    if key in investors:
        return investors[key]
    folded = fold_name(key)
    for investor in investors.values():
        if any(fold_name(n) == folded for n in investor.names()):
            return investor
    return None


def get_investor(key: str, path: str | Path | None = None) -> Investor:
    """An investor by id, name or alias (case-insensitive for names).

    Raises
    ------
    UnknownInvestorError
        No investor has that id, name or alias (with a "did you mean").
    """
    investors = load_investors(path)
    found = find_investor(key, investors)
    if found is not None:
        return found
    choices = list(investors) + [n for i in investors.values() for n in i.names()]
    raise UnknownInvestorError(f"no investor {key!r} in the registry", rule="investor", name=key,
                               suggestion=did_you_mean(key, choices))


class _HasInvestor(Protocol):
    investor: str


def investor_for_card(card: _HasInvestor | str, path: str | Path | None = None) -> Investor:
    """The registry entry of a card (anything with an ``investor`` field, or that name itself).

    >>> investor_for_card("Warren Buffett").id
    'buffett'

    Raises
    ------
    UnknownInvestorError
        The card's investor is not in the registry.
    """
    name = card if isinstance(card, str) else card.investor
    try:
        return get_investor(name, path)
    except UnknownInvestorError as exc:
        if not isinstance(card, str):
            exc.file = getattr(card, "file", None)
            exc.message = f"card {getattr(card, 'id', '?')!r} names investor {name!r}, who is not in the registry"
        raise


def cluster_of(investor_id: str, path: str | Path | None = None) -> frozenset[str]:
    """The ids of every investor of ``investor_id``'s school, itself included (FM-5 clusters).

    >>> sorted(cluster_of("buffett"))
    ['buffett', 'graham', 'klarman']
    >>> sorted(cluster_of("soros"))
    ['dalio', 'soros']
    """
    school = get_investor(investor_id, path).school
    return frozenset(i.id for i in load_investors(path).values() if i.school == school)


def surface_similar(investor_id: str, path: str | Path | None = None) -> frozenset[str]:
    """The other investors of the same school: the surface-similar investors of FM-5."""
    own = get_investor(investor_id, path).id
    return cluster_of(own, path) - {own}


def active_on(investor_id: str, on: DateLike, path: str | Path | None = None) -> bool:
    """Whether ``on`` falls in the investor's active period (both ends inclusive).

    >>> active_on("munger", "2023-11-28"), active_on("munger", "2023-11-29")
    (True, False)
    >>> active_on("dalio", "2022-10"), active_on("dalio", 2023)
    (True, False)

    Raises
    ------
    UnknownInvestorError
        No such investor.
    ValueError
        ``on`` is not a date, a year or an ISO text.
    """
    return get_investor(investor_id, path).active_on(on)


def check_cards(
    cards: Mapping[str, Any] | None = None, path: str | Path | None = None
) -> list[LoadError]:
    """Cross-check the registry with the framework cards.

    Parameters
    ----------
    cards:
        Card id -> object with ``investor`` (and ``file``) fields; by default
        every bundled card, loaded here (this is the lazy existence check).
    path:
        The registry file (default: bundled).

    Returns
    -------
    list of LoadError
        One per problem, located in the registry (a listed card that does not
        exist, or whose investor is someone else; an investor's card missing
        from its list) or in the card (an investor the registry lacks).
    """
    registry = _registry(None if path is None else str(path))
    given = cards is not None
    if cards is None:
        from ipb.engine.registry import bundled_card_paths, compiled_card

        loaded: dict[str, Any] = {}
        for card_path in bundled_card_paths():
            try:
                loaded[card_path.stem] = compiled_card(str(card_path)).card
            except IpbError:
                # A broken card reports its own errors; it still exists, so the
                # registry may list it, but its investor cannot be checked.
                loaded[card_path.stem] = None
        # s62 N5: a user's file lists cards of its own, found as any card id is (--cards DIR, IPB_CARDS)
        bundled_file = str(_bundled_path())
        for investor in registry.investors.values():
            if investor.file == bundled_file:
                continue
            for card_id in investor.cards:
                if card_id not in loaded:
                    found = _find_listed_card(card_id)
                    if found is not _MISSING:
                        loaded[card_id] = found
        cards = loaded
    problems: list[LoadError] = []
    for investor in registry.investors.values():
        doc = registry.doc_of(investor)
        for k, card_id in enumerate(investor.cards):
            where = ("investors", investor.id, "cards", k)
            if card_id in cards and cards[card_id] is None:
                continue
            card = cards.get(card_id)
            if card is None:
                own = doc is not registry.doc and not given  # a user's file: its cards were looked for by id
                searched = ("in the bundled cards, the --cards folders or IPB_CARDS; pass the folder of your cards with "
                            "--cards DIR (or IPB_CARDS)") if own else "a card checked here" if given else "a bundled card"
                problems.append(doc.error(f"card {card_id!r} listed for {investor.id!r} is not {searched}",
                                          where, rule="card", name=card_id,
                                          suggestion=did_you_mean(card_id, _card_choices(cards))))
            elif card.investor not in investor.names():
                problems.append(doc.error(f"card {card_id!r} belongs to {card.investor!r}, not {investor.name!r}",
                                          where, rule="card-investor", name=card_id))
    for card_id, card in cards.items():
        if card is None:
            continue
        try:
            investor = investor_for_card(card.investor, path)
        except UnknownInvestorError as exc:
            exc.message = f"card {card_id!r} names investor {card.investor!r}, who is not in the registry"
            exc.file = getattr(card, "file", None) or card_id
            card_doc = getattr(card, "doc", None)
            if isinstance(card_doc, YamlDoc):
                line, column = card_doc.locate(("investor",))
                exc.line, exc.column, exc.source_line = line, column, card_doc.source_line(line)
            problems.append(exc)
            continue
        if card_id not in investor.cards:
            problems.append(registry.doc_of(investor).error(
                f"card {card_id!r} of {investor.name!r} is missing from its 'cards' list",
                ("investors", investor.id, "cards"), rule="card-missing", name=card_id))
    return problems


def _card_choices(cards: Mapping[str, Any]) -> list[str]:
    """The ids a mistyped listed card id may have meant: ``cards`` and every id a card search finds now."""
    from ipb.engine.registry import known_card_ids

    return sorted(set(cards) | set(known_card_ids()))


def _find_listed_card(card_id: str) -> Any:
    """The card (``compiled_card(...).card``) a registry lists by id, found as any card id is (``--cards``,
    ``IPB_CARDS``, the bundled cards); None for a card found that does not load (it reports its own errors where it
    is checked, and still exists); ``_MISSING`` when no card has that id."""
    from ipb.engine.registry import compiled_card, find_card

    try:
        found = find_card(card_id)
    except LoadError as exc:
        if exc.rule in ("card", "file"):
            return _MISSING
        raise
    try:
        return compiled_card(str(found)).card
    except IpbError:
        return None


_MISSING = object()


@data_file_validator("investors.yaml")
def validate_registry_file(path: Path) -> list[IpbError]:
    """What ``ipb check`` reports for a registry file: its own errors, then (for the
    bundled registry) every disagreement with the bundled cards.

    A user's file is judged as ``--investors FILE`` loads it, by the one loader (:func:`_merged`): added after the
    bundled registry and the other user files in use (``--investors``, ``IPB_INVESTORS``), an id, name, alias or card
    id already held is an error at file:line:col (s62 new user N4: it was read alone and passed). A card it lists that
    no card search finds (``--cards``, ``IPB_CARDS``, the bundled cards) is a ``LintWarning`` (rule ``unknown-card``):
    the card may still come from ``ipb-cards/`` beside the items at score time.
    """
    bundled = Path(path).resolve() == _bundled_path().resolve()
    try:
        if bundled:
            _registry(str(path))
        else:  # a user's file (--investors) may name the bundled schools; one added, as it is added for use
            own = os.path.realpath(path)
            others = tuple((p, _mtime(Path(p))) for p in _extra_paths() if os.path.realpath(p) != own)
            registry = _merged(str(_bundled_path()), _mtime(_bundled_path()), (*others, (str(path), _mtime(Path(path)))))
    except ErrorGroup as group:
        return list(group.errors)
    except IpbError as error:
        return [error]
    if not bundled:
        return list(_unknown_card_warnings(registry, str(path)))
    return list(check_cards(path=path))


def unknown_card_warnings() -> list[IpbError]:
    """The ``unknown-card`` ``LintWarning`` of :func:`validate_registry_file`, at each card id that a user's registry
    file in use (``--investors``, ``IPB_INVESTORS``) lists and no card search finds (``--cards``, ``IPB_CARDS``, the
    bundled cards); ``[]`` when no user file is in use. ``ipb investors`` without ``--check`` prints them, so the
    listing is never silent about a card ``ipb check`` warns about (s64: only ``--check`` said so).

    Raises
    ------
    IpbError
        A user's file does not load (as :func:`load_investors`).
    """
    extra = _extra_paths()
    if not extra:
        return []
    registry = _registry(None)
    return [warning for path in extra for warning in _unknown_card_warnings(registry, path)]


def _unknown_card_warnings(registry: _Registry, file: str) -> list[IpbError]:
    """A ``LintWarning`` at each card id that ``file``'s investors list and no card search finds."""
    from ipb.engine.registry import known_card_ids
    from ipb.errors import LintWarning

    found: list[IpbError] = []
    for investor in registry.investors.values():
        if investor.file != file:
            continue
        doc = registry.doc_of(investor)
        for k, card_id in enumerate(investor.cards):
            if _find_listed_card(card_id) is not _MISSING:
                continue
            line, column = doc.locate(("investors", investor.id, "cards", k))

            warning = LintWarning(
                f"card {card_id!r} listed for {investor.id!r} is not a bundled card nor in the --cards folders or "
                "IPB_CARDS; pass the folder of your cards with --cards DIR (ipb score and ipb respond also "
                "find it in ipb-cards/ beside the items)", rule="unknown-card", name=card_id,
                suggestion=did_you_mean(card_id, known_card_ids()))
            found.append(warning.with_location(doc.file, line, column, doc.source_line(line)))
    return found
