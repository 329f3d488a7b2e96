"""Scenarios: the facts of one decision, typed against a card's inputs.

A scenario file is strict YAML (see ``grammar/scenario.schema.json``)::

    id: IPB-P-011
    layer: L7
    card: buffett_acquisition_checklist
    as_of: "2024-06-30"
    facts:
      arr: $5B
      revenue_retention: 95%
      business_model: subscription_software

Values are converted to the input's declared type. A fact is a literal of
that type, never an expression: numbers accept YAML numbers or number texts
read by :func:`ipb.engine.numbers.read_number` (``95%``, ``$5B``, ``($7M)``,
``10x``, ``1,234.5``); a unit that contradicts the input (``$5B`` for a ratio),
a currency other than USD, an expression (``1/0``) or a date written for a
number (``"2009-03-01"``) is an error. A fact left out, or
given as ``null``, is unknown. A fact the card does not declare is an error
with a "did you mean".
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
from typing import Any, Mapping, Sequence

from ipb.engine._yaml import YamlDoc, load_yaml, load_yaml_file
from ipb.engine.card import Card, InputSpec, _schema_errors
from ipb.engine.numbers import NumberError, check_magnitude, read_number
from ipb.errors import ErrorGroup, ExecuteError, IpbError, LoadError, did_you_mean

__all__ = ["Scenario", "load_scenario", "load_scenario_text", "scenario_from_doc", "typed_facts", "facts_from_mapping", "check_expected", "convert_fact", "parse_assignment", "scenario_schema"]


@lru_cache(maxsize=None)
def scenario_schema() -> dict[str, Any]:
    """The JSON Schema for scenarios, shipped as ``grammar/scenario.schema.json``."""
    text = resources.files("ipb.grammar").joinpath("scenario.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


@dataclass
class Scenario:
    """A scenario with facts converted to engine values (missing = unknown)."""

    facts: dict[str, Any]
    id: str | None = None
    layer: str | None = None
    card: str | None = None
    as_of: dt.date | None = None
    title: str = ""
    question: str = ""
    #: What the scenario is meant to produce: {"verdict", "trigger"?, "verdicts"?}.
    expected: dict[str, Any] | None = None
    file: str = "<string>"
    raw: dict[str, Any] = field(default_factory=dict, repr=False)


#: Most facts one scenario may hold; more is refused at ``facts`` before any other work (a card has tens of
#: inputs; an L8 frame a few cards).
MAX_FACTS = 10_000
#: Most fact errors reported for one scenario; the rest are counted in one last error ("... and N more").
MAX_FACT_ERRORS = 50

#: Number.kind -> the unit of the engine's number type.
_UNITS = {"number": None, "money": "money", "percent": "ratio", "multiple": "multiple"}


def convert_fact(spec: InputSpec, value: Any, *, strict: bool = False, written: bool = False) -> Any:
    """Convert one raw fact to the engine value for input ``spec``.

    ``strict`` is for values a person typed (scenario facts, ``--set``,
    ``ipb screen`` cells): a number text whose decimal mark would be a guess
    (``$20.000``, ``$20,5``) is an error; see
    :func:`ipb.engine.numbers.read_number`. Machine-written item literals are
    read with ``strict=False``.

    ``written`` is for a scenario file's facts and ``--set``, where a money input
    needs its currency: a bare number other than 0 (``600``, ``600M``) is refused
    with the amount written both ways, as a ratio written ``18`` is (s52newuser:
    ``--set rnd_spend=600`` ran as $600). The Python API, ``ipb screen`` (whose
    ``--unit`` gives the scale) and items read bare numbers as dollars.

    Returns
    -------
    Decimal (number, ratio in [0,1] form, money in USD, multiple, year), bool,
    str (category), ``datetime.date``, or None (unknown).

    Raises
    ------
    LoadError
        The value does not fit the input's type, unit or allowed values.

    >>> from ipb.engine.expressions import RATIO
    >>> convert_fact(InputSpec("r", "ratio", RATIO), "95%")
    Decimal('0.95')
    """
    if value is None:
        return None
    kind = spec.type
    if kind == "bool":
        if isinstance(value, bool):
            return value
        raise LoadError(f"{spec.name} is a bool; write true or false, not {value!r}", rule="fact-type", name=spec.name)
    if kind == "category":
        assert spec.values is not None
        if isinstance(value, str) and value in spec.values:
            return value
        raise LoadError(
            f"{value!r} is not an allowed value of {spec.name}; allowed: {', '.join(spec.values)}",
            rule="fact-category",
            name=spec.name,
            suggestion=did_you_mean(str(value), spec.values),
        )
    if kind == "date":
        if isinstance(value, str):
            try:
                return dt.date.fromisoformat(value)
            except ValueError:
                pass
        raise LoadError(f"{spec.name} is a date; write it quoted as \"YYYY-MM-DD\", not {value!r}", rule="fact-type", name=spec.name)
    # numbers
    if isinstance(value, bool):
        shown = "true" if value else "false"
        raise LoadError(f"{spec.name} is a {kind}; {shown} is a bool", rule="fact-type", name=spec.name)
    if isinstance(value, (int, Decimal)):
        try:
            number, unit = check_magnitude(Decimal(value), spec.name), None
        except NumberError as exc:
            raise LoadError(exc.message, rule="fact-limit", name=spec.name) from None
    elif isinstance(value, str):
        try:
            read = read_number(value, strict=strict)
        except NumberError as exc:
            bare = _unit_written(value, spec.unit)  # "25 years" for an input whose unit is years: the card states it
            raise LoadError(f"{spec.name}: {exc.message} (it is a {kind} input"
                            + (f" in {spec.unit}: write the number alone" if bare else "") + ")",
                            rule="fact-type", name=spec.name, suggestion=bare) from None
        if read.kind == "money" and read.currency != "USD":
            raise LoadError(
                f"{spec.name}: {value!r} is in {read.currency}, but card amounts are in USD; convert it first",
                rule="fact-currency", name=spec.name)
        number, unit = read.value, _UNITS[read.kind]
    else:
        raise LoadError(f"{spec.name} is a {kind}; {value!r} is not a number", rule="fact-type", name=spec.name)
    expected = spec.expr_type.unit
    if unit is not None and expected is not None and unit != expected:
        raise LoadError(
            f"{spec.name} is a {kind}, but {value!r} is written as {unit}", rule="fact-unit", name=spec.name
        )
    if unit is not None and expected is None and unit == "money":
        raise LoadError(f"{spec.name} is a plain number, but {value!r} is money", rule="fact-unit", name=spec.name)
    if written and kind == "money" and unit is None and number != 0:
        likely, literal = _as_money(value)
        raise LoadError(f"{spec.name} is money; {value!r} has no currency" + (
            f" (write {literal} if you mean {literal.strip('()-+$')} dollars)" if literal else ""),
            rule="fact-unit", name=spec.name, suggestion=likely)
    if kind == "ratio" and unit is None and abs(number) > 10:
        raise LoadError(
            f"{spec.name} is a ratio (0.95 means 95%); {value!r} looks like a percentage: write {value}% instead",
            rule="fact-unit",
            name=spec.name,
        )
    return number


def _as_money(value: Any) -> tuple[str, str | None]:
    """The bare amount ``value`` written as money: the likely reading and, for a number with no scale, the literal one.

    ``600M`` -> ``$600M``; ``600`` -> ``$600M`` (millions, the scale cards write) and ``$600`` (dollars).

    >>> _as_money("600"), _as_money("-2.5B"), _as_money("(7M)"), _as_money(Decimal("20.000"))
    (('$600M', '$600'), ('-$2.5B', None), ('($7M)', None), ('$20M', '$20'))
    """
    # a YAML number as its value reads, with no trailing zeros that would look like a thousands group ('20.000')
    text = format(value.normalize(), "f") if isinstance(value, Decimal) else str(value).strip()
    paren = text.startswith("(") and text.endswith(")")  # ($7M): an accountant's negative
    core = text[1:-1] if paren else text
    sign = core[:1] if core[:1] in ("-", "+") else ""
    rest = core[len(sign):]

    def wrap(amount: str) -> str:
        return f"({amount})" if paren else amount

    if rest[-1:].upper() in ("K", "M", "B", "T"):
        return wrap(f"{sign}${rest}"), None
    return wrap(f"{sign}${rest}M"), wrap(f"{sign}${rest}")


def parse_assignment(text: str, card: Card) -> tuple[str, Any]:
    """Parse ``NAME=VALUE`` from ``--set`` into (name, engine value).

    Raises
    ------
    LoadError
        No '=', an unknown input (with "did you mean"), an empty value
        (``NAME=``; ``NAME=unknown`` makes the fact unknown), or a bad value.
    """
    if "=" not in text:
        raise LoadError(f"--set expects NAME=VALUE, got {text!r}", file="--set", rule="set")
    name, _, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    spec = card.inputs.get(name)
    if spec is None:
        raise LoadError(
            f"{name!r} is not an input of card {card.id}", file="--set", rule="fact-name", name=name,
            suggestion=did_you_mean(name, list(card.inputs)),
        )
    if not raw:
        raise LoadError(f"--set {name}= has no value; write a value, or --set {name}=unknown to make the fact "
                        "unknown", file="--set", rule="set", name=name)
    value: Any = raw
    if raw in ("true", "false"):
        value = raw == "true"
    elif raw in ("null", "unknown"):
        value = None
    try:
        return name, convert_fact(spec, value, strict=True, written=True)
    except LoadError as exc:
        exc.file = "--set"
        raise


def load_scenario(path: str | Path, card: Card) -> Scenario:
    """Load the scenario at ``path`` and type its facts against ``card``.

    Raises
    ------
    LoadError
        Missing file or bad YAML.
    ErrorGroup
        Every schema or fact error, each with file:line:col.
    """
    return scenario_from_doc(load_yaml_file(path, collect=True), card)


def load_scenario_text(text: str, card: Card, file: str = "<string>") -> Scenario:
    """Like :func:`load_scenario`, from text."""
    return scenario_from_doc(load_yaml(text, file, collect=True), card)


def _is_a_card(data: Any) -> bool:
    """Whether a document handed over as a scenario is a framework card instead: it has ``gates`` and ``inputs`` and
    no ``facts`` (a newcomer's ``--base frameworks/CARD.yaml``, which would otherwise give one "unknown field" error per
    card field)."""
    return isinstance(data, dict) and "facts" not in data and "gates" in data and "inputs" in data


def typed_facts(
    doc: YamlDoc, inputs: Mapping[str, InputSpec], card_ids: Sequence[str]
) -> tuple[dict[str, Any], dt.date | None]:
    """Schema-check a scenario document and type its facts against ``inputs``.

    ``card_ids`` are the cards the facts are meant for (several for an L8
    frame); a ``card`` field naming another one is an error.

    Returns
    -------
    (facts, as_of)
        Engine values for the known facts (null ones left out), and the
        decision date.

    Raises
    ------
    ErrorGroup
        Every schema, card, fact and date error, each with file:line:col.
    """
    data = doc.data
    given = data.get("facts") if isinstance(data, dict) else None
    if isinstance(given, dict) and len(given) > MAX_FACTS:  # before the schema, which would visit every one
        line, column = doc.locate_key(("facts",))
        raise ErrorGroup([LoadError(
            f"facts has {len(given):,} entries; a scenario holds at most {MAX_FACTS:,} (its card has "
            f"{len(inputs)} inputs)", rule="fact-limit", file=doc.file, line=line, column=column,
            source_line=doc.source_line(line))])
    if _is_a_card(data):
        line, column = doc.locate_key(("gates",))
        raise ErrorGroup([LoadError(
            "this file is a framework card (it has gates), not a scenario: a scenario gives the facts of one decision "
            "(the bundled ones are frameworks/scenarios/<card id>/*.yaml); give the card where a card is asked for "
            "(ipb run CARD SCENARIO, ipb perturb --card CARD --base SCENARIO)", rule="card-as-scenario",
            file=doc.file, line=line, column=column, source_line=doc.source_line(line))])
    errors: list[IpbError] = _schema_errors(doc, scenario_schema(), "the scenario")
    for e in errors:
        if e.rule == "schema:required" and "'facts'" in e.message:
            e.message = ("the scenario has no 'facts' (a scenario gives the facts of one decision, "
                         "e.g. facts: {market_value: $200M}; a fact left out is unknown)")
    if errors:
        raise ErrorGroup(errors)
    more = 0

    def add(err: IpbError, path: tuple[Any, ...], key: bool = False) -> None:
        nonlocal more
        if len(errors) >= MAX_FACT_ERRORS:
            more += 1
            return
        line, column = doc.locate_key(path) if key else doc.locate(path)
        errors.append(err.with_location(doc.file, line, column, doc.source_line(line)))

    if data.get("card") is not None and data["card"] not in card_ids:
        wanted = ", ".join(repr(c) for c in card_ids)
        add(LoadError(f"this scenario is for card {data['card']!r}, not {wanted}", rule="card"), ("card",))
    facts: dict[str, Any] = {}
    for name, raw in data["facts"].items():
        spec = inputs.get(name)
        if spec is None and len(errors) >= MAX_FACT_ERRORS:
            more += 1  # no "did you mean" for errors that will not be shown
            continue
        if spec is None:
            add(
                LoadError(
                    f"{name!r} is not an input of card {' or '.join(card_ids)}",
                    rule="fact-name",
                    name=name,
                    suggestion=did_you_mean(name, list(inputs)),
                ),
                ("facts", name),
                key=True,
            )
            continue
        try:
            value = convert_fact(spec, raw, strict=True, written=True)
        except LoadError as exc:
            add(exc, ("facts", name))
            continue
        if value is not None:
            facts[name] = value
    as_of = None
    if "as_of" in data:
        try:
            as_of = dt.date.fromisoformat(data["as_of"])
        except ValueError:
            add(LoadError(f"as_of {data['as_of']!r} is not a real date", rule="date"), ("as_of",))
    if more:
        line, column = doc.locate_key(("facts",))
        errors.append(LoadError(f"... and {more:,} more error(s) in these facts (the first {MAX_FACT_ERRORS} are shown)",
                                rule="more-errors", file=doc.file, line=line, column=column,
                                source_line=doc.source_line(line)))
    if errors:
        raise ErrorGroup(errors)
    return facts, as_of


def scenario_from_doc(doc: YamlDoc, card: Card) -> Scenario:
    """Type the facts of a scenario already read by the strict YAML loader; ErrorGroup on errors."""
    facts, as_of = typed_facts(doc, card.inputs, [card.id])
    data = doc.data
    return Scenario(
        facts=facts,
        id=data.get("id"),
        layer=data.get("layer"),
        card=data.get("card"),
        as_of=as_of,
        title=data.get("title", ""),
        question=data.get("question", ""),
        expected=data.get("expected"),
        file=doc.file,
        raw=data,
    )


def check_expected(
    scenario: Scenario,
    outcome: str,
    trigger: str,
    verdicts: list[str],
    doc: YamlDoc | None = None,
    iterations: int | None = None,
) -> list[IpbError]:
    """Mismatches between a scenario's recorded ``expected`` block and an execution.

    Returns one ExecuteError per differing field (verdict, trigger, verdicts),
    located at the ``expected`` block when ``doc`` is given.
    """
    found: list[IpbError] = []
    exp = scenario.expected or {}
    actual = {"verdict": outcome, "trigger": trigger, "verdicts": verdicts, "iterations": iterations}
    for key in ("verdict", "trigger", "verdicts", "iterations"):
        if key in exp and exp[key] != actual[key]:
            err = ExecuteError(
                f"expected {key} {exp[key]!r} but the card gives {actual[key]!r}", rule="expected", name=key
            )
            if doc is not None:
                line, column = doc.locate(("expected", key))
                err.with_location(doc.file, line, column, doc.source_line(line))
            else:
                err.with_location(scenario.file)
            found.append(err)
    return found


def facts_from_mapping(card: Card, facts: Mapping[str, Any]) -> dict[str, Any]:
    """Convert a plain mapping (e.g. from JSON) to engine values; LoadError on the first bad fact."""
    out: dict[str, Any] = {}
    for name, raw in facts.items():
        spec = card.inputs.get(name)
        if spec is None:
            raise LoadError(f"{name!r} is not an input of card {card.id}", rule="fact-name", name=name,
                            suggestion=did_you_mean(name, list(card.inputs)))
        value = convert_fact(spec, raw, strict=True)
        if value is not None:
            out[name] = value
    return out


def _unit_written(value: str, unit: str | None) -> str | None:
    """The number of ``value`` when it is a number followed by the input's own ``unit`` ("25 years" for years), else
    None: a new user's fact that repeats the unit the card already states.

    >>> _unit_written("25 years", "years"), _unit_written("1 year", "years"), _unit_written("25 yrs", "years")
    ('25', '1', None)
    """
    m = _NUMBER_AND_WORD.fullmatch(value)
    if m is None or not unit:
        return None
    word, own = m.group(2).lower(), " ".join(unit.split()).lower()
    return m.group(1) if word.rstrip("s") == own.rstrip("s") else None


_NUMBER_AND_WORD = re.compile(r"\s*([-+]?\d[\d,]*(?:\.\d+)?)\s+([A-Za-z]+)\s*")
