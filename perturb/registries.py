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
from dataclasses import replace
from decimal import Decimal
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import jsonschema
from rapidfuzz.distance import Levenshtein

from ipb.engine._yaml import YamlDoc, load_yaml, load_yaml_file
from ipb.engine.registry import data_file_validator
from ipb.engine.expressions import parse_literal
from ipb.errors import CompileError, ErrorGroup, IpbError, LoadError, did_you_mean
from ipb.perturb.multiples import MultipleBound, read_conditions, read_ratios, row_start
# the registries' types live in their own modules (s44items split); their names stay importable from here
from ipb.perturb.regime_registry import MoneyFigure, Regime, RegimeFact, RegimeRegistry, SectorShare
from ipb.perturb.sector_registry import Era, MetricDef, Sector, SectorRegistry, fits

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

    Examples
    --------
    >>> reg = load_sectors()
    >>> "financials" in {s.id for s in reg.sectors}
    True

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
                              profile, allows, omits, raw.get("from")))
    models, model_omits = _models(errors, data.get("models") or {}, metrics, sectors)
    eras = _eras(errors, data.get("eras") or (), metrics)
    errors.raise_if_any()
    return SectorRegistry(tuple(data["inputs"]), metrics, tuple(sectors), doc.file, models, model_omits, eras,
                          {str(k): int(v) for k, v in (data.get("history") or {}).items()})


def _eras(errors: _Errors, raw: Sequence[Mapping[str, Any]], metrics: Mapping[str, MetricDef]) -> tuple[Era, ...]:
    """The ``eras:`` block (s57era): each era's ``from``/``until`` years (inclusive, either open) and its ``scale``,
    metric id -> a positive factor on that metric's ranges; a factor may apply to a multiple only (a margin or a
    growth rate is not scaled), the years must not run backwards and two eras must not share a year (each a located
    error)."""
    eras: list[Era] = []
    for i, entry in enumerate(raw):
        first, last = entry.get("from"), entry.get("until")
        if first is not None and last is not None and first > last:
            errors.add(f"era {i + 1} runs backwards: from {first} until {last}", ("eras", i), "era")
            continue
        scale: dict[str, Decimal] = {}
        for mid, factor in entry["scale"].items():
            metric = metrics.get(mid)
            if metric is None:
                errors.add(f"era {i + 1} scales unknown metric {mid!r}", ("eras", i, "scale", mid), "metric", key=True,
                           name=mid, suggestion=did_you_mean(mid, list(metrics)))
            elif metric.type not in ("multiple", "number"):
                errors.add(f"era {i + 1} scales {mid!r}, a {metric.type}: only a multiple's range is scaled by era",
                           ("eras", i, "scale", mid), "era", key=True, name=mid)
            else:
                scale[mid] = Decimal(str(factor))
        era = Era(first, last, scale)
        for k, other in enumerate(eras):
            if (era.first is None or other.last is None or era.first <= other.last) and \
                    (era.last is None or other.first is None or other.first <= era.last):
                errors.add(f"era {i + 1} overlaps era {k + 1}: a year belongs to one era", ("eras", i), "era")
                break
        else:
            eras.append(era)
    return tuple(eras)


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
            sectors: Sequence[Sector]) -> tuple[dict[str, dict[str, tuple[Decimal, Decimal]]],
                                                dict[str, tuple[str, ...]]]:
    """The ``models:`` block (s37rules): each key a value some sector's ``profile``/``allows`` lists (else a located
    error with a did-you-mean: a model no sector names would never be read), each range as a sector's. A model's
    ``omits:`` (s45rfix) lists metric ids or aliases whose facts do not describe a business of the model (an airline
    has no subscription retention): each must name a metric (else a located error) that the model gives no range;
    the metric's id is added beside an alias, as for a sector's ``omits:``. Returns (ranges, omits) by model."""
    known = sorted({str(v) for s in sectors for group in (s.profile, s.allows) for vs in group.values() for v in vs})
    owner = {name: m.id for m in metrics.values() for name in m.names}
    models: dict[str, dict[str, tuple[Decimal, Decimal]]] = {}
    omitted: dict[str, tuple[str, ...]] = {}
    for model, entry in raw.items():
        if model not in known:
            near = did_you_mean(model, known)
            errors.add(f"model {model!r} is no value of a sector's profile or allows"
                       + (f"; did you mean {near!r}?" if near else ""), ("models", model), "model",
                       key=True, name=model, suggestion=near)
            continue
        ranges = {k: v for k, v in entry.items() if k != "omits"}
        models[model] = _ranges(errors, ranges, metrics, ("models", model), f"model {model!r}")
        out: list[str] = []
        for k, name in enumerate(entry.get("omits") or ()):
            path = ("models", model, "omits", k)
            mid = owner.get(name)
            if mid is None:
                near = did_you_mean(name, list(owner))
                errors.add(f"model {model!r} omits {name!r}, which is no metric"
                           + (f"; did you mean {near!r}?" if near else ""), path, "omits", name=name, suggestion=near)
                continue
            if mid in models[model]:
                errors.add(f"model {model!r} both omits {name!r} and gives it a range", path, "omits", name=name)
            for n in (name, mid):
                if n not in out:
                    out.append(n)
        if out:
            omitted[model] = tuple(out)
    return models, omitted


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
    sectors = sizes.get("sectors") or {}
    shares = []
    for i, raw in enumerate(sectors.get("shares") or ()):  # s45items: one table scales every size bound by sector
        rows = _year_table(raw["share"], ("sizes", "sectors", "shares", i, "share"), errors,
                           lambda text, at: Decimal(str(text)),
                           lambda year, text, value: None if 0 < value <= 1 else (
                               f"the share for {year} is {text}; a sector's share of the largest company's figure "
                               "is above 0 and at most 1"))
        if not rows:
            errors.add(f"sizes.sectors.shares: {raw['what']!r} has no share row left",
                       ("sizes", "sectors", "shares", i), "sizes")
        shares.append(SectorShare(raw["what"], tuple(str(v) for v in raw["values"]), rows))
    listed: dict[str, str] = {}
    for i, table in enumerate(shares):
        for value in table.values:
            if value in listed:
                errors.add(f"sizes.sectors.shares: {value!r} is listed for both {listed[value]!r} and "
                           f"{table.what!r} (list a sector value once)", ("sizes", "sectors", "shares", i, "values"),
                           "sizes")
            listed.setdefault(value, table.what)
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
        ratios = read_ratios(raw, lambda m, at: errors.add(m, ("multiples", i, *at), "multiples"))
        multiples.append(MultipleBound(raw["id"], raw["what"], tuple(raw.get("inputs") or ()), most, least,
                                       tuple(raw.get("of") or ()), when, at_least, at_most, ratios))
    errors.raise_if_any()
    return RegimeRegistry(tuple(data["inputs"]), facts, tuple(regimes), doc.file,
                          {str(k): int(v) for k, v in (since.get("values") or {}).items()},
                          {str(k): int(v) for k, v in negative.items()}, tuple(data.get("market_state") or ()),
                          tuple(sizes.get("inputs") or ()), largest, tuple(figures),
                          tuple((data.get("streaks") or {}).get("inputs") or ()), (data.get("streaks") or {}).get("began"),
                          tuple(multiples), tuple(sectors.get("inputs") or ()), tuple(shares))


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
    """The bundled sector registry (read once), named ``frameworks/sectors.yaml`` in messages and reports, not by
    the install path (s59 new user F-C12: a run's ``--report`` carried "/work/.../frameworks/sectors.yaml")."""
    return replace(load_sectors(), file="frameworks/sectors.yaml")


@data_file_validator("regimes.yaml")
def validate_regimes_file(path: Path) -> list[IpbError]:
    """What ``ipb check`` reports for a regime registry file (s49rfix): every error :func:`load_regimes` finds, each
    at its file, line and column (before, ``ipb check`` passed the file over unread: a ``multiples`` condition that
    no quotient meets was accepted silently)."""
    try:
        load_regimes(path)
    except ErrorGroup as group:
        return list(group.errors)
    except IpbError as error:
        return [error]
    return []


@lru_cache(maxsize=1)
def bundled_regimes() -> RegimeRegistry:
    """The bundled regime registry (read once), named ``frameworks/regimes.yaml`` as :func:`bundled_sectors`."""
    return replace(load_regimes(), file="frameworks/regimes.yaml")
