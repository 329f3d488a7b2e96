"""Perturbation operators, registered by name (paper §6.5, Table 9).

Each operator is a small seedable function from a scenario to a new scenario
plus a record of what it did::

    step = get_operator("metric")(frame, scenario, random.Random(7))
    step.scenario, step.details

It never touches the cards: the gate set, order and kill criteria stay as
they are, and the gold verdict of the new scenario comes from executing it.

============  ===============================================================
``metric``    metric substitution: new values for numeric inputs some gate
              reads, drawn on each input's declared range and step
``sector``    sector substitution: relocate to another industry of
              ``frameworks/sectors.yaml``, redrawing the inputs that have a
              sector-typical range there
``temporal``  temporal displacement: date the scenario inside a macro regime
              of ``frameworks/regimes.yaml`` (regime inputs and macro facts),
              inside the framework's vintage unless the item is an FM-6 probe,
              with no fact dated after the new date
``flip``      verdict flip: the smallest change to one input that flips the
              final verdict, reporting the boundary value; the value one step
              short does not flip (Table 9, Perturbation B)
``isolate``   gate isolation: a change after which exactly one named gate
              gives a different verdict
============  ===============================================================

An operator that cannot apply to a card at all (no numeric inputs, no regime
gate...) raises :class:`ipb.errors.PerturbError` with rule
``not-applicable``; one that finds no candidate for a particular scenario
raises rule ``no-candidate``. A new operator is one function decorated with
:func:`operator`.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Mapping, Sequence

from ipb.engine.card import InputSpec
from ipb.engine.scenario import convert_fact
from ipb.errors import PerturbError, did_you_mean
from ipb.perturb.deck_moves import move_tied, move_tied_or_redraw, tied_rules, untie
from ipb.perturb.feasible import redraw_if_broken
from ipb.perturb.frame import Frame, PScenario, ordered_inputs
from ipb.perturb.periods import period_value
from ipb.perturb.registries import Regime, Sector
from ipb.perturb.sector_registry import metric_inputs  # noqa: F401 (importable from here, where it was first)
from ipb.perturb.sector_registry import model_omitted_inputs as _model_omitted_inputs
from ipb.perturb.sector_registry import omitted_inputs as _omitted_inputs
from ipb.perturb.sector_registry import sector_metric_inputs as _sector_metric_inputs
from ipb.perturb.spaces import subset_sizes, unspent
from ipb.perturb.values import Grid, is_numeric, literal
from ipb.perturb.vintage import require_cutoff

__all__ = [
    "Step",
    "OperatorInfo",
    "operator",
    "get_operator",
    "operator_names",
    "metric_inputs",
    "sector_inputs",
    "sector_context_note",
    "regime_inputs",
    "regime_fact_inputs",
    "find_flip",
    "Flip",
]


@dataclass(frozen=True)
class Step:
    """What one operator did: the new scenario and a JSON-ready ``details`` record."""

    operator: str
    scenario: PScenario
    details: dict[str, Any]


@dataclass(frozen=True)
class OperatorInfo:
    """A registered operator: its function, applicability check, argument and summary."""

    name: str
    fn: Callable[..., Step]
    check: Callable[[Frame], None]
    arg: str
    summary: str
    #: True when the operator takes ``attempt`` (the attempt number) to vary its starting point.
    varies: bool = False

    def __call__(self, frame: Frame, scenario: PScenario, rng: random.Random, arg: str | None = None,
                 **options: Any) -> Step:
        if "attempt" in options and not self.varies:
            options = {k: v for k, v in options.items() if k != "attempt"}
        return self.fn(frame, scenario, rng, arg, **options)

    def applies(self, frame: Frame) -> str | None:
        """None when the operator can apply to the frame's cards, else why not."""
        try:
            self.check(frame)
        except PerturbError as exc:
            if exc.rule != "not-applicable":
                raise
            return exc.message
        return None


_OPERATORS: dict[str, OperatorInfo] = {}


def operator(name: str, *, arg: str, check: Callable[[Frame], None],
             varies: bool = False) -> Callable[[Callable[..., Step]], Callable[..., Step]]:
    """Register a perturbation operator under ``name``.

    Parameters
    ----------
    arg:
        What the optional argument in ``--ops name:ARG`` means (for help text).
    check:
        Raises ``PerturbError`` (rule ``not-applicable``) when the operator
        cannot apply to the frame's cards at all.
    varies:
        The function takes an ``attempt`` keyword (the attempt number of a
        generation run): ``flip`` and ``isolate`` start from a different
        neighbour of the scenario when it is above 0, so one base yields many
        items; ``metric`` and ``sector`` stop drawing from a kind of change
        the attempts before it have spent (:mod:`ipb.perturb.spaces`).
    """

    def register(fn: Callable[..., Step]) -> Callable[..., Step]:
        if name in _OPERATORS:
            raise ValueError(f"operator {name!r} is registered twice")
        summary = (fn.__doc__ or "").strip().splitlines()[0] if fn.__doc__ else name
        _OPERATORS[name] = OperatorInfo(name, fn, check, arg, summary, varies)
        return fn

    return register


def get_operator(name: str) -> OperatorInfo:
    """The operator registered as ``name``.

    Raises
    ------
    PerturbError
        Rule ``operator``: no such operator (with a "did you mean").
    """
    info = _OPERATORS.get(name)
    if info is None:
        names = operator_names()
        raise PerturbError(f"unknown operator {name!r}; operators: {', '.join(names)}", rule="operator", name=name,
                           suggestion=did_you_mean(name, names))
    return info


def operator_names() -> list[str]:
    """Registered operator names, in registration order."""
    return list(_OPERATORS)


def _not_applicable(frame: Frame, what: str) -> PerturbError:
    """``what`` reads after "card X" ("has no ...", "names its ..."); several cards take the plural verb."""
    if len(frame.card_ids) == 1:
        return PerturbError(f"card {frame.card_ids[0]} {what}", rule="not-applicable")
    for one, many in (("has ", "have "), ("names its ", "name their ")):
        if what.startswith(one):
            what = many + what[len(one):]
    ids = frame.card_ids
    return PerturbError(f"cards {', '.join(ids[:-1])} and {ids[-1]} {what}", rule="not-applicable")


# --------------------------------------------------------------------------- inputs operators may move


def sector_inputs(frame: Frame) -> list[str]:
    """Category inputs that name the industry (``sector``, ``industry``...); read once per frame."""
    held = frame.memo.get("sector_inputs")
    if held is None:
        held = frame.memo["sector_inputs"] = tuple(n for n, s in frame.inputs.items()
                                                   if s.type == "category" and n in frame.sectors.inputs)
    return list(held)


def regime_inputs(frame: Frame) -> list[str]:
    """Category inputs carrying a macro-regime label that some gate reads (not one the card says
    ``describes: company``: a company's own ``cycle_position``)."""
    return [n for n, s in frame.inputs.items()
            if s.type == "category" and n in frame.regimes.inputs and n in frame.consumers and s.describes != "company"]


def regime_fact_inputs(frame: Frame) -> dict[str, str]:
    """Numeric inputs some gate reads that stand for a registry macro fact -> the fact id."""
    found: dict[str, str] = {}
    for name, spec in frame.inputs.items():
        if name in frame.consumers and is_numeric(spec) and spec.describes != "company":
            fact = frame.regimes.fact_for(spec)
            if fact is not None:
                found[name] = fact.id
    return found


def _clipped(frame: Frame, name: str, lo: Decimal, hi: Decimal) -> Grid | None:
    """``frame.grids[name].clip(lo, hi)``, remembered per frame (a sector's ranges are fixed)."""
    memo = frame.memo.setdefault("clipped", {})
    key = (name, lo, hi)
    if key not in memo:
        memo[key] = frame.grids[name].clip(lo, hi)
    return memo[key]  # type: ignore[no-any-return]


def _draw(grid: Grid, rng: random.Random, avoid: Any) -> Decimal | None:
    """A uniform grid value other than ``avoid``; None when the grid holds nothing else."""
    count = grid.count
    skip = grid.index_of(avoid) if isinstance(avoid, Decimal) else None
    choices = count - (1 if skip is not None else 0)
    if choices <= 0:
        return None
    k = rng.randrange(choices)
    if skip is not None and k >= skip:
        k += 1
    return grid.value(k)


def _subset_sizes(frame: Frame, facts: Mapping[str, Any], known: tuple[str, ...], most: int) -> list[int]:
    """How many scenarios a metric draw of 1 .. ``most`` of the inputs ``known`` reaches from ``facts`` (per frame)."""
    memo = frame.memo.setdefault("subset_sizes", {})
    current = tuple(facts.get(n) for n in known)
    key = (known, most, current)
    held = memo.get(key)
    if held is None:
        counts = []
        for name, value in zip(known, current):
            grid = frame.grids[name]
            counts.append(grid.count - (1 if isinstance(value, Decimal) and grid.index_of(value) is not None else 0))
        held = memo[key] = subset_sizes(counts, most)
    return held  # type: ignore[no-any-return]


def _spec_list(arg: str | None, frame: Frame, allowed: Sequence[str], what: str) -> list[str] | None:
    if arg is None:
        return None
    names = [a for a in arg.split("/") if a]
    for name in names:
        if name not in allowed:
            raise PerturbError(f"{name!r} is not {what} of card {' or '.join(frame.card_ids)}; choose from: "
                               f"{', '.join(allowed) or 'none'}", rule="operator-arg", name=name,
                               suggestion=did_you_mean(name, list(allowed)))
    return names


# --------------------------------------------------------------------------- metric


def _check_metric(frame: Frame) -> None:
    if not metric_inputs(frame):
        raise _not_applicable(frame, "has no numeric input with a declared range that a gate reads: "
                                     "metric substitution has nothing to change")


@operator("metric", arg="inputs to change, separated by '/'", check=_check_metric, varies=True)
def metric_substitution(frame: Frame, scenario: PScenario, rng: random.Random, arg: str | None = None, *,
                        values: Mapping[str, Any] | None = None, max_inputs: int = 3, attempt: int = 0) -> Step:
    """Metric substitution: new values for numeric inputs a gate reads, on their declared range and step.

    Parameters
    ----------
    arg:
        Input names separated by ``/``: change exactly these. Default: 1 to
        ``max_inputs`` inputs chosen at random among those the scenario
        states (all candidates when it states none); in an L8 frame, plus
        one input of each card that none of those is read by, so every
        investor's outcome can change.
    values:
        Input -> value (engine value or literal such as ``"7x"``) to set
        instead of drawing; each must lie on the input's grid.
    attempt:
        The attempt number of a generation run: once the attempts before it
        have spent the changes of ``k`` inputs (:mod:`ipb.perturb.spaces`),
        a draw of ``k`` is replaced by a number of inputs whose changes are
        not spent.

    Notes
    -----
    A drawn value that breaks a card constraint reading the input (the
    other facts as they stand, inputs drawn later in the same step left to
    their own draw) is replaced by a uniform draw among the grid values that
    keep those constraints (:func:`ipb.perturb.feasible.redraw_if_broken`);
    on a dated scenario an era's bound on a quotient that reads the input
    (``multiples`` of regimes.yaml with ``of``) counts as such a constraint
    (s42anchor). A draw that keeps them uses no further random number. Given ``values``
    are never redrawn.

    Raises
    ------
    PerturbError
        ``not-applicable`` (no candidate input), ``operator-arg`` (an input
        that is not a ranged numeric input a gate reads), ``range`` (a given
        value off the declared range or step), ``no-candidate`` (every chosen
        input's grid holds only its current value).

    References
    ----------
    Paper §6.5, operator (i).
    """
    _check_metric(frame)
    candidates = metric_inputs(frame)
    facts = dict(scenario.facts)
    changed: list[str] = []
    tied: dict[str, Any] = {}
    if values is not None:
        for name, raw in values.items():
            if name not in candidates:
                _spec_list(name, frame, candidates, "a ranged numeric input that a gate reads")
            spec = frame.inputs[name]
            value = raw if isinstance(raw, Decimal) else convert_fact(spec, raw)
            grid = frame.grids[name]
            if grid.index_of(value) is None:
                raise PerturbError(f"{name} = {literal(spec, value)} is off its declared range/step "
                                   f"({literal(spec, grid.lo)} to {literal(spec, grid.hi)}, step {grid.step})",
                                   rule="range", name=name)
            facts[name] = value
            changed.append(name)
        chosen = ordered_inputs(frame, changed)
    else:
        chosen_arg = _spec_list(arg, frame, candidates, "a ranged numeric input that a gate reads")
        followers: list[str] = []  # picked inputs left to follow a tied leader (untie)
        if chosen_arg is not None:
            chosen = chosen_arg
        else:
            known = [n for n in candidates if n in facts] or candidates
            most = min(max_inputs, len(known))
            k = rng.randint(1, most)
            if attempt > 0:
                k = 1 + unspent(k - 1, _subset_sizes(frame, scenario.facts, tuple(known), most), attempt, rng)
            picked = rng.sample(known, k)
            if frame.layer == "L8":
                # every investor's card gets at least one of its own inputs changed, so every outcome can move
                for card in frame.card_ids:
                    own = [n for n in known if any(g.startswith(card + "/") for g in frame.consumers.get(n, ()))]
                    if own and not set(own) & set(picked):
                        picked.append(rng.choice(own))
            chosen = ordered_inputs(frame, picked)
            if tied_rules(frame):  # an input tied to one chosen before it follows that one (stop 31)
                untied = untie(frame, chosen)
                followers = [n for n in chosen if n not in untied]
                chosen = untied
        # the chosen inputs, then each picked input left to follow its tied leader that the leader's move did not
        # move (an inequality such as "past $10B of revenue, a profit" that still held): a follower is drawn on its
        # own, so the step changes as many inputs as were picked (stop 50: late attempts, whose one-input draws are
        # spent, made 3 of 300 one-input changes)
        for i, name in enumerate([*chosen, *followers]):
            leader = i < len(chosen)
            if not leader and name in tied:
                continue
            old = facts.get(name)
            grid = frame.grids[name]
            value = _draw(grid, rng, old)
            if value is None:
                continue
            facts[name] = value
            if leader and tied_rules(frame):
                # inputs a deck rule ties to this one move with it (stop 30), redrawn if they cannot
                jointly = move_tied_or_redraw(frame, facts, name, old, lambda: _draw(grid, rng, old), rng,
                                              fixed=chosen, pending=chosen[i + 1:])
                facts.update(jointly)
                tied.update(jointly)
            # a draw that breaks a card constraint, or an era's bound on a quotient at the scenario's date
            # (s42anchor), is redrawn among the values that keep them (issue 18); a follower's pending list is empty
            facts[name] = redraw_if_broken(frame, facts, name, rng, old, chosen[i + 1:], scenario.as_of)
            if leader or facts[name] != old:  # a follower redrawn back to its old value changed nothing
                changed.append(name)
        if not changed:
            raise PerturbError(f"the grids of {', '.join(chosen)} hold no other value", rule="no-candidate")
    details: dict[str, Any] = {"inputs": ordered_inputs(frame, changed)}
    if tied:
        details["tied"] = {n: literal(frame.inputs[n], v) for n, v in tied.items()}
    return Step("metric", scenario.with_facts(facts), details)


def _tie(frame: Frame, before: Mapping[str, Any], facts: dict[str, Any], rng: random.Random,
         details: dict[str, Any]) -> None:
    """Move the inputs a deck rule ties to the ones this step changed (:func:`move_tied`); record them."""
    moved = [n for n, v in facts.items() if before.get(n) != v]
    jointly = move_tied(frame, facts, moved, rng, fixed=moved, before=before)
    if jointly:
        facts.update(jointly)
        details["tied"] = {n: literal(frame.inputs[n], v) for n, v in jointly.items()}


# --------------------------------------------------------------------------- sector


def _check_sector(frame: Frame) -> None:
    if frame.memo.get("sector_applies"):
        return  # the check depends only on the cards and the registry: it passed once for this frame
    _check_sector_once(frame)
    frame.memo["sector_applies"] = True


def _check_sector_once(frame: Frame) -> None:
    if sector_inputs(frame):
        if not _sector_choices(frame):
            names = ", ".join(sector_inputs(frame))
            raise _not_applicable(frame, f"names its industry with {names}, but none of its values is a sector "
                                         f"of {frame.sectors.file} (by id or alias)")
        return
    if not _sector_metric_inputs(frame):
        raise _not_applicable(frame, "has no sector input and no numeric input with a sector-typical range in "
                                     f"{frame.sectors.file}: sector substitution has nothing to change")


def sector_context_note(frame: Frame) -> str | None:
    """What sector substitution can move on a card with no sector input (a note for the run), else None.

    Such a card reads no sector: the item names its new sector as context
    only, and what makes it a new item is the inputs with a sector-typical
    range in the registry, each drawn away from its current value.
    """
    if sector_inputs(frame):
        return None
    metrics = _sector_metric_inputs(frame)
    if not metrics:
        return None
    return (f"sector: card {' and '.join(frame.card_ids)} has no sector input, so the sector is context no gate "
            f"reads; sector substitution moves only {', '.join(metrics)} (sector-typical ranges of "
            f"{frame.sectors.file}), and hands its share to the other operators when those values run out")


def _sector_value(frame: Frame, name: str, sector: Sector) -> str | None:
    values = frame.inputs[name].values or ()
    for candidate in sector.names:
        if candidate in values:
            return candidate
    return None


def _sector_choices(frame: Frame) -> list[Sector]:
    cached = frame.memo.get("sector_choices")
    if cached is None:
        names = sector_inputs(frame)
        cached = [s for s in frame.sectors.sectors if all(_sector_value(frame, n, s) is not None for n in names)]
        frame.memo["sector_choices"] = cached
    return list(cached)


def _stated_sectors(frame: Frame, scenario: PScenario) -> list[Sector]:
    """On a card without a sector input, the sectors that a stated fact of an input marked ``describes: sector``
    names (its value is a sector's id or alias: a kind of business ``financial``), so the question's context
    cannot contradict it (stop 35: "Sector: healthcare." beside "The kind of business is financial."); empty when
    no such fact names one."""
    found: list[Sector] = []
    for name, spec in frame.inputs.items():
        value = scenario.facts.get(name)
        if spec.describes == "sector" and isinstance(value, str):
            found.extend(s for s in frame.sectors.sectors if value in s.names and s not in found)
    return found


def _current_sector(frame: Frame, scenario: PScenario) -> str | None:
    if scenario.sector is not None:
        return scenario.sector
    for name in sector_inputs(frame):
        value = scenario.facts.get(name)
        for s in frame.sectors.sectors:
            if value in s.names:
                return s.id
    return None


def _sector_sizes(frame: Frame, facts: Mapping[str, Any], sectors: Sequence[Sector], resample: bool,
                  year: int | None = None) -> list[int]:
    """How many scenarios a move to each of ``sectors`` reaches from ``facts``: the choices of its profile's
    category values times the grid values of its sector-typical metrics (per frame)."""
    memo = frame.memo.setdefault("sector_sizes", {})
    names = memo.get(None)
    if names is None:
        profiled = {n for s in frame.sectors.sectors for n in s.profile}
        names = memo[None] = tuple(sorted(profiled | set(_sector_metric_inputs(frame))))
    key = (tuple(s.id for s in sectors), resample, year, tuple(facts.get(n) for n in names))
    held = memo.get(key)
    if held is None:
        held = memo[key] = [_sector_size(frame, facts, s, resample, year) for s in sectors]
    return held  # type: ignore[no-any-return]


def _typical(spec: InputSpec, typical: Sequence[Any]) -> list[Any]:
    """The values of a sector ``profile`` entry that ``spec`` can take: the card's listed values of a category
    input, ``true``/``false`` of a yes/no input (s35: a materials or transport company is cyclical), else none.

    >>> from ipb.engine.expressions import RATIO
    >>> _typical(InputSpec("cyclical_industry", "bool", RATIO, ""), (True,))
    [True]
    """
    if spec.type == "category":
        return [v for v in typical if v in (spec.values or ())]
    if spec.type == "bool":
        return [v for v in typical if isinstance(v, bool)]
    return []


def _range_in(frame: Frame, facts: Mapping[str, Any], sector: Sector, metric_id: str,
              year: int | None = None) -> tuple[Decimal, Decimal] | None:
    """The range a stated metric takes in ``sector`` in ``year`` (None: undated): None when the sector omits it, else
    the stated business model's own (the registry's ``models:``, s37rules: a software vendor keeps a software gross
    margin in any industry), else the sector's, else None; a multiple's read through the registry's ``eras:``
    (s57era: a 1979 scenario is not priced at a 2020s multiple)."""
    bounds = _undated_range(frame, facts, sector, metric_id)
    return None if bounds is None else frame.sectors.dated(metric_id, bounds, year)


def _undated_range(frame: Frame, facts: Mapping[str, Any], sector: Sector,
                   metric_id: str) -> tuple[Decimal, Decimal] | None:
    if metric_id in sector.omits:
        return None
    models = frame.sectors.models
    if models:
        names = frame.memo.get("model_inputs")
        if names is None:
            names = frame.memo["model_inputs"] = tuple(dict.fromkeys(
                n for s in frame.sectors.sectors for group in (s.profile, s.allows) for n in group))
        for name in names:
            value = facts.get(name)
            if isinstance(value, str) and metric_id in models.get(value, {}):
                return models[value][metric_id]
    return sector.ranges.get(metric_id)


def _sector_size(frame: Frame, facts: Mapping[str, Any], sector: Sector, resample: bool, year: int | None) -> int:
    size = 1
    kept = dict(facts)  # a profiled value the move changes is drawn later: its model's ranges are not read here
    for name, typical in sector.profile.items():
        spec = frame.inputs.get(name)
        if spec is not None and name in facts:
            allowed = _typical(spec, typical)
            if allowed and facts[name] not in allowed:
                size *= len(allowed)
                kept[name] = None
    labelled = bool(sector_inputs(frame))
    for name, metric_id in (_sector_metric_inputs(frame).items() if resample else ()):
        omitted = name in _omitted_inputs(frame, sector)
        bounds = _range_in(frame, kept, sector, metric_id, year) if name in facts and not omitted else None
        if bounds is not None:
            grid = _clipped(frame, name, *bounds)
            if grid is not None:
                on = not labelled and isinstance(facts[name], Decimal) and grid.index_of(facts[name]) is not None
                size *= max(1, grid.count - (1 if on else 0))
    return size


@operator("sector", arg="the sector id to move to", check=_check_sector, varies=True)
def sector_substitution(frame: Frame, scenario: PScenario, rng: random.Random, arg: str | None = None, *,
                        resample: bool = True, attempt: int = 0) -> Step:
    """Sector substitution: relocate the decision to another industry, with sector-typical metrics.

    The sector input (``sector``, ``industry``...) takes the new sector's id
    or alias; a stated category input the sector's ``profile`` lists (the
    business model) moves to one of the sector's typical values unless it
    already has one; with ``resample`` every stated numeric input with a
    range in that sector is redrawn on the card's grid inside the sector
    range, so the whole profile (model, margins, multiples) moves together. A card
    without a sector input keeps the sector as context (the question names
    it). The decision structure is unchanged.

    Raises
    ------
    PerturbError
        ``not-applicable`` (no sector input and no sector metric),
        ``operator-arg`` (an unknown or unusable sector), ``no-candidate``
        (no other sector).

    References
    ----------
    Paper §6.5, operator (ii); Table 9, Perturbation A.
    """
    _check_sector(frame)
    named = sector_inputs(frame)
    choices = _sector_choices(frame) if named else _stated_sectors(frame, scenario) or list(frame.sectors.sectors)
    current = _current_sector(frame, scenario)
    year = scenario.as_of.year if scenario.as_of is not None else None
    record = frame.sectors.record_years(scenario.facts)  # s65review: a decade's P/E record needs a decade's listing
    if arg is not None:
        frame.sectors.get(arg)  # unknown id: LoadError with did-you-mean
        if arg not in [s.id for s in choices]:
            raise PerturbError(f"sector {arg!r} has no value in the card's sector input", rule="operator-arg", name=arg)
        sector = frame.sectors.get(arg)
        if not sector.exists(year, record):  # s57era: a sector listed only from a year is not offered before it
            raise PerturbError(f"sector {arg!r} is listed only from {sector.since}; the scenario is dated {year}"
                               + (f" and states {record} years of the company's market record" if record else ""),
                               rule="operator-arg", name=arg)
    else:
        others = [s for s in choices if s.id != current and s.exists(year, record)]
        if not others:
            raise PerturbError("no other sector to move to" + (f" in {year}" if year is not None else ""),
                               rule="no-candidate")
        sector = rng.choice(others)
        if attempt > 0:
            sizes = _sector_sizes(frame, scenario.facts, others, resample, year)
            sector = others[unspent(others.index(sector), sizes, attempt, rng)]
    facts = dict(scenario.facts)
    for name in named:
        value = _sector_value(frame, name, sector)
        if value is not None:
            facts[name] = value
    profile: dict[str, str] = {}
    for name, typical in sector.profile.items():
        spec = frame.inputs.get(name)
        if spec is None or name not in facts:
            continue
        allowed = _typical(spec, typical)
        if allowed and facts[name] not in allowed:
            facts[name] = rng.choice(allowed)
            profile[name] = facts[name]
    omitted = [n for n in _omitted_inputs(frame, sector) if n in facts]
    omitted += [n for n in _model_omitted_inputs(frame, facts) if n in facts and n not in omitted]
    for name in omitted:
        del facts[name]
    resampled: list[str] = []
    kept: list[str] = []
    # Without a sector input the sector is a label no gate reads: the move is only what it does to the
    # sector-typical metrics, so each is drawn away from its current value where the sector range allows.
    labelled = bool(named)
    if resample:
        ranged = _sector_metric_inputs(frame)
        for i, (name, metric_id) in enumerate(ranged.items()):
            bounds = _range_in(frame, facts, sector, metric_id, year) if name in facts else None
            if bounds is None:
                continue
            grid = _clipped(frame, name, *bounds)
            if grid is None:
                kept.append(name)
                continue
            if labelled:
                old = facts[name]
                facts[name] = grid.value(rng.randrange(grid.count))
                # s43items (BA1): a draw that breaks a card rule with a fact the move keeps (an insurer earning the
                # software base's $0 priced at 4x its premiums) is drawn again among the values that keep the rules;
                # no random number is taken when it breaks none, so such moves are the same as before
                facts[name] = redraw_if_broken(frame, facts, name, rng, old, [n for n in list(ranged)[i + 1:]
                                                                              if n in facts], within=grid)
            else:
                drawn = _draw(grid, rng, facts[name])
                if drawn is None:
                    continue
                facts[name] = drawn
            resampled.append(name)
    if not labelled and not resampled and not profile and not omitted:
        raise PerturbError(f"sector {sector.id} changes no fact the card reads (it has no sector input, and its "
                           "sector-typical ranges hold only the scenario's values)", rule="no-candidate")
    details: dict[str, Any] = {"sector": sector.id, "sector_name": sector.name, "from": current,
                               "resampled": resampled, "profile": profile, "outside_card_range": kept}
    if omitted:
        details["omitted"] = omitted
    if tied_rules(frame):
        _tie(frame, scenario.facts, facts, rng, details)
    return Step("sector", scenario.with_facts(facts, sector=sector.id), details)


# --------------------------------------------------------------------------- temporal


def _check_temporal(frame: Frame) -> None:
    if not regime_inputs(frame) and not regime_fact_inputs(frame):
        own = [n for n, s in frame.inputs.items() if s.describes == "company" and n in frame.regimes.inputs]
        raise _not_applicable(frame, "has no regime gate: no gate reads a macro-regime input "
                                     f"({', '.join(frame.regimes.inputs)}) or a macro fact of {frame.regimes.file}"
                              + (f" ({', '.join(own)}: the card's own fact, describes: company)" if own else ""))


def _regime_effect(frame: Frame, regime: Regime) -> tuple[dict[str, Any], dict[str, dt.date], list[str]]:
    """The facts a regime sets in this frame, their publication dates, and facts skipped as out of range."""
    facts: dict[str, Any] = {}
    published: dict[str, dt.date] = {}
    skipped: list[str] = []
    for name in regime_inputs(frame):
        values = frame.inputs[name].values or ()
        label = next((lab for lab in regime.labels if lab in values), None)
        if label is not None:
            facts[name] = label
    for name, fact_id in regime_fact_inputs(frame).items():
        fact = regime.facts.get(fact_id)
        if fact is None:
            continue
        # s38fix: the figure of the period the input's words name, or none (undisclosed): perturb/periods.py
        written = period_value(frame.inputs[name], frame.regimes.facts[fact_id], fact)
        if written is None:
            continue
        value = convert_fact(frame.inputs[name], written)
        grid = frame.grids.get(name)
        if grid is not None and not grid.contains(value):
            skipped.append(name)
            continue
        facts[name] = value
        published[name] = fact.available
    return facts, published, skipped


def temporal_choices(frame: Frame) -> tuple[list[Regime], list[Regime]]:
    """Regimes that change something in this frame: (inside every card's vintage, outside some card's)."""
    cached = frame.memo.get("temporal_choices")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    inside: list[Regime] = []
    outside: list[Regime] = []
    for regime in frame.regimes.regimes:
        facts, _, _ = _regime_effect(frame, regime)
        if not facts:
            continue
        (outside if frame.anachronisms(regime.as_of) else inside).append(regime)
    frame.memo["temporal_choices"] = (inside, outside)
    return inside, outside


@operator("temporal", arg="the regime id to move to", check=_check_temporal)
def temporal_displacement(frame: Frame, scenario: PScenario, rng: random.Random, arg: str | None = None) -> Step:
    """Temporal displacement: date the scenario inside a historical macro regime.

    The scenario takes the regime's decision date; each regime input takes
    the first of the regime's labels it allows, and each macro-fact input the
    regime's published value (when the card's range admits it), stamped with
    its publication date; a macro-fact input the scenario states and the
    regime does not set is dropped (the item does not state it: s36review).
    Date-valued facts move with the scenario date
    (a date ``d`` days before the old date stays ``d`` days before the new
    one; calendar years likewise), so no fact is dated after the new date;
    the operator checks that cutoff and refuses otherwise.

    Only regimes inside every card's vintage are used, unless the frame makes
    FM-6 probes: then only regimes outside some card's vintage, and the item
    says so. A regime dated before a stated fact could hold (a category value
    that did not exist yet, a negative rate before such rates were seen:
    ``since`` in ``frameworks/regimes.yaml``) is never chosen.

    Raises
    ------
    PerturbError
        ``not-applicable`` (no regime gate), ``operator-arg`` (a regime that
        changes nothing or is not allowed in this mode), ``no-candidate``
        (no admissible regime), ``look-ahead`` (a fact would be dated after
        the new date).

    References
    ----------
    Paper §6.5, operator (iii); Table 9, Perturbation C; §9 FM-6; §11.6;
    Investor's Last Exam, Appendix B.2.
    """
    _check_temporal(frame)
    inside, outside = temporal_choices(frame)
    allowed = outside if frame.fm6_probe else inside
    if arg is not None:
        regime = frame.regimes.get(arg)
        if regime not in allowed:
            if regime in inside or regime in outside:
                mode = ("an FM-6 probe needs a regime outside the vintage" if frame.fm6_probe
                        else "it is outside the framework vintage (" + "; ".join(frame.anachronisms(regime.as_of))
                        + "); make FM-6 probes to use it")
                raise PerturbError(f"regime {arg!r} cannot be used: {mode}", rule="operator-arg", name=arg)
            raise PerturbError(f"regime {arg!r} sets no input of card {' or '.join(frame.card_ids)}",
                               rule="operator-arg", name=arg)
    else:
        others = [r for r in allowed if r.id != scenario.regime]
        if not others:
            what = "outside" if frame.fm6_probe else "inside"
            raise PerturbError(f"no regime of {frame.regimes.file} is {what} the vintage of card "
                               f"{' and '.join(frame.card_ids)} and sets one of its inputs", rule="no-candidate")
        fitting = [r for r in others if not _era_problems(frame, scenario, r)]
        if not fitting:
            raise PerturbError("no regime fits the scenario's facts: " + "; ".join(
                f"{r.id}: {', '.join(_era_problems(frame, scenario, r))}" for r in others[:3]), rule="no-candidate")
        regime = rng.choice(fitting)
    problems = _era_problems(frame, scenario, regime)
    if problems:
        raise PerturbError(f"regime {regime.id} ({regime.as_of.year}) is too early for the scenario's facts: "
                           + ", ".join(problems), rule="no-candidate", name=regime.id)
    set_facts, published, skipped = _regime_effect(frame, regime)
    facts = dict(scenario.facts)
    facts.update(set_facts)
    dropped = _uncovered(frame, facts, set_facts)
    for name in dropped:
        del facts[name]
    tied: dict[str, Any] = {}
    if tied_rules(frame):
        _tie(frame, scenario.facts, facts, rng, tied)
    shifted: dict[str, list[Any]] = {}
    if scenario.as_of is not None:
        days = regime.as_of - scenario.as_of
        years = regime.as_of.year - scenario.as_of.year
        for name, spec in frame.inputs.items():
            value = facts.get(name)
            if value is None:
                continue
            if spec.type == "date":
                new = value + days
            elif spec.type == "year":
                new = value + years
            else:
                continue
            if new != value:
                shifted[name] = [literal(spec, value), literal(spec, new)]
                facts[name] = new
    new = scenario.with_facts(facts, as_of=regime.as_of, regime=regime.id, published=published)
    require_cutoff(new.as_of, _dated_values(frame, new), dict(new.published))
    details = {
        "regime": regime.id,
        "regime_name": regime.name,
        "as_of": [scenario.as_of.isoformat() if scenario.as_of else None, regime.as_of.isoformat()],
        "set": {n: literal(frame.inputs[n], v) for n, v in set_facts.items()},
        "published": {n: d.isoformat() for n, d in sorted(published.items())},
        "shifted": shifted,
        "outside_card_range": skipped,
        **({"dropped": dropped} if dropped else {}),
        "fm6": frame.anachronisms(regime.as_of),
        **tied,
    }
    return Step("temporal", new, details)


def _uncovered(frame: Frame, facts: Mapping[str, Any], set_facts: Mapping[str, Any]) -> list[str]:
    """Macro-fact inputs the scenario states that the regime does not set (none published, or outside the card's range).

    A named regime is a claim about the economy at its date: a figure it does not give is left at the base's value
    only by accident of the registry, and may contradict the regime's own description (s36review, seed 7878, Dalio
    #51: "inflation above 8%" in October 2022 beside a kept nominal GDP growth of 4.5% on real 2%, i.e. 2.5%
    inflation). Such inputs are dropped from the item (a derived input reading one is then left out too).

    A market-state input (``market_state`` of ``frameworks/regimes.yaml``, a mood word, ``describes: market``) is
    history at the base's date just as a macro fact is, and no regime gives a figure for it, so it goes too
    (s56fixdsc, issue 18: Dalio's debt-supercycle items moved to 23 March 2020 kept the base's 65% of debt in
    dollars, five of seven bubble signals and its debt-growth gap beside the pandemic regime's figures). A derived
    input (``derive:`` of a card rule, the curve's slope) is not dropped for being market state: it is recomputed
    from its sources, and left out when one of them is.
    """
    macro = regime_fact_inputs(frame)
    return [n for n, spec in frame.inputs.items() if n in facts and n not in set_facts
            and (n in macro or (n not in frame.derived and frame.regimes.is_market_state(spec)))]


def _era_problems(frame: Frame, scenario: PScenario, regime: Regime) -> list[str]:
    """Facts of ``scenario`` (after ``regime`` sets its own) that could not hold in the regime's year."""
    set_facts, _, _ = _regime_effect(frame, regime)
    return frame.regimes.anachronisms(frame.inputs, {**scenario.facts, **set_facts}, regime.as_of)


def _dated_values(frame: Frame, scenario: PScenario) -> dict[str, Any]:
    return {n: v for n, v in scenario.facts.items() if frame.inputs[n].type in ("date", "year")}


# The verdict-aimed operators (flip, isolate) register themselves on import.
from ipb.perturb.targeted import Flip, find_flip, gate_isolation, verdict_flip  # noqa: E402,F401
