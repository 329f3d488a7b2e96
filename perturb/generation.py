"""Generate N distinct perturbed items from one base scenario, reproducibly.

Recipes
-------
``--ops`` is a comma-separated list of *recipes*; a recipe is one operator or
several joined by ``+`` and applied in order, each optionally with an
argument after ``:``::

    metric,sector,temporal,flip       four recipes, items shared among them
    sector:industrial_automation+metric   one recipe: relocate, then new metrics
    flip:ev_to_arr                    the nearest flip along one input

Without ``--ops`` a card gets :data:`DEFAULT_OPERATORS`, each as its own
recipe, less those that cannot apply to it (no sector input or sector
metric, no regime gate...): :func:`default_recipes` says which were skipped
and why, and the run's report repeats it. ``--mix metric=0.4,flip=0.2,...``
asks for proportions instead of even shares (:func:`parse_mix`).

Items are shared as evenly as possible among the recipes (or in the
proportions of ``--mix``, largest remainders first). A recipe whose
space of distinct scenarios runs out (a fixed base has one smallest verdict
flip; there are only so many regimes) hands its remaining share to the
others, and the report says so; when all of them together cannot make N
distinct items, :func:`generate` raises a ``shortfall`` error rather than
writing a short file (unless the caller allows a short file, and then the
report says how short it is).

Distinct
--------
Two scenarios are the same item when their card-relevant facts are the same
(:func:`ipb.perturb.frame.relevant_key`: inputs some gate, computed value or
constraint reads; the date too in an FM-6 probe frame): they get the same
gold and differ at most in labels no card reads. A candidate with the base's
relevant facts is never an item; one with a relevant key already taken is a
duplicate, dropped before its item is built; ``--min-changed`` counts
card-relevant facts (:meth:`ipb.perturb.frame.Frame.changed`).

Constraints
-----------
Every candidate scenario must satisfy the ``constraints:`` of every card
(:meth:`ipb.perturb.frame.Frame.violations`) and state no fact that could
not hold at its date (``since`` in ``frameworks/regimes.yaml``); one that
breaks either is rejected before its item is built, and the report gives
each recipe's rejections and rejection rate.

Dates
-----
A base dated on a real day is a claim about history. When an operator other
than temporal displacement changes an input that describes the market or
economy on that day (a regime input, a macro fact, or an input listed in
``market_state`` of ``frameworks/regimes.yaml``: spreads, sentiment,
valuation percentiles...), the item is undated: its scenario has no
``as_of`` and its question no decision date, and its ``manifest.undated`` says
why in words. Temporal displacement always dates an item, with the regime's facts.

Reproducibility
---------------
Attempt ``j`` of recipe ``R`` draws from ``random.Random("ipb-perturb/SEED/R/j")`` and nothing else, so the candidates
are the same in any process and the selection, made in a fixed order, does not depend on how many worker processes
computed them: the same cards, base, recipes, N and seed give the same items, byte for byte.

Balance
-------
With ``balance`` the pool is generated larger (three times each recipe's share, then more while a verdict that occurred
is short of an even share, up to ten times N) and the items are chosen so that every final verdict that occurred gets as
equal a share as the pool allows; the report gives the counts, the evenness (smallest count over largest; a verdict the
card can give that no item has counts as 0, one that no item can have is left out) and the verdicts the card can give
that never occurred.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from collections import Counter
from dataclasses import dataclass, replace
from dataclasses import replace as dc_replace
from math import ceil
from decimal import Decimal
from typing import Any, Callable, Container, Iterator, Mapping, NamedTuple, Sequence

from ipb._files import write_lines_atomic
from ipb.errors import IpbError, PerturbError
from ipb.perturb._pool import COLLECT_EVERY, _Pool, _split  # noqa: F401 (COLLECT_EVERY: re-exported)
from ipb.perturb._spool import LineSpool
from ipb.perturb.deck_moves import tied_rules
from ipb.perturb.flip_era import timed_inputs
from ipb.perturb.frame import Frame, PScenario, build_frame, digest, fact_literals, load_base, relevant_key, scenario_key
from ipb.perturb.items import build_item, dumps_item
from ipb.perturb.keyset import KeySet
from ipb.perturb.near import NearHits, near_key
from ipb.perturb.operators import Step, get_operator
from ipb.perturb.recipes import (DEFAULT_OPERATORS, Recipe, default_recipes, inapplicable_recipes, parse_mix,
                                 parse_recipes)
from ipb.perturb.runs import (NEIGHBOUR_SAMPLE, Diversity, Generation, RecipeReport, grid_spans, point as _point,
                              possible_outcomes, raw_point, stuck_card_notes, unreachable_inconclusive,
                              frozen_input_notes, one_sided_card_notes, near_mode, unregistered_investor_notes)
from ipb.perturb.partial_derived import moved_partial_source, stale_partial
from ipb.perturb.sector_registry import context_omissions
from ipb.perturb.shares import (even_shares as _shares, grow_for_balance as _grow_for_balance,
                                redistribute as _redistribute, select_balanced as _select_balanced,
                                weighted_shares as _weighted_shares)
from ipb.perturb.targeted import UNREACHED
from ipb.perturb.undisclosed import withheld_reason
from ipb.perturb.visible import KNIFE_EDGE_PREFIX, knife_edges
__all__ = ["Recipe", "parse_recipes", "parse_mix", "default_recipes", "DEFAULT_OPERATORS", "Job", "Generator",
           "Generation", "GenerationRun", "RecipeReport", "Diversity", "generate", "write_items", "possible_outcomes"]

#: A recipe counts as exhausted after this many consecutive attempts without a new
#: distinct scenario, or as many as it has found, whichever is more.
MISS_LIMIT = 32
#: Error rules that no other attempt can fix: the operator or its argument is wrong for these cards.
FATAL = frozenset({"not-applicable", "operator-arg", "range", "sector", "regime"})
#: In an item line, the key of an operator's joint move across a deck rule (:mod:`ipb.perturb.deck_moves`).
TIED = '"tied":'
#: Candidate errors that start with this are constraint rejections.
CONSTRAINT_PREFIX = "breaks constraint "
#: Candidate errors that start with this changed too few facts.
MIN_CHANGED_PREFIX = "only "
#: The error of a candidate whose card-relevant facts are the base's (only a label no card reads changed).
SAME_AS_BASE = "the perturbed scenario has the base's card-relevant facts (only a label no card reads changed)"
#: Fewer attempts than this in one round are made in this process even with workers (start-up costs more).
POOL_MIN = 512
#: Near duplicates rebuilt per call of the pool's ``lines`` in the second pass (bounds the pairs listed at once).
REPLAY_CHUNK = 4096
#: How a run without --near-duplicates (or --no-near-duplicates) or --balance treats a near duplicate (issue 18 item 4):
#: "defer" (s53dup) writes it last; "fill" (s57era) writes one only to make up N. fill was the default for part of
#: stop 58: 316.7 s of CPU for 10,000 bench items against 16.6 s (bench/perturb.py; docs/perturbation.md).
DEFAULT_NEAR = "defer"
_NEW, _NEAR = 1, 2  # GenerationRun._novel: a new scenario, visibly new or within a visible step of its recipe's
#: With balance, each recipe's pool grows to this many times its share,
BALANCE_POOL = 3


@dataclass(frozen=True)
class Job:
    """What a generation run is made from: everything a worker process needs to rebuild it.

    ``recipes`` empty means the defaults for the cards (:func:`default_recipes`);
    ``weights`` (one per recipe, adding up to 1) asks for proportions instead
    of even shares.
    """

    cards: tuple[str, ...]
    base: str
    seed: int
    recipes: tuple[Recipe, ...] = ()
    fm6_probe: bool = False
    weights: tuple[float, ...] | None = None
    #: An item must differ from the base in at least this many facts (``--min-changed``).
    min_changed: int = 1
    #: Refuse near duplicates outright (``--no-near-duplicates``): no second pass, a shortfall instead.
    strict_near: bool = False
    #: ``--near-duplicates``: "fill", "defer" or "strict" (``strict_near``), or None for :data:`DEFAULT_NEAR`.
    near: str | None = None


class Candidate(NamedTuple):
    """One attempt's result: a key of its scenario, its verdict label and its JSONL line; or an error.

    ``key`` is the first 64 bits of the SHA-256 of the scenario's relevant
    key (:func:`ipb.perturb.frame.relevant_key`: its card-relevant facts; None
    when the attempt failed); ``line`` is None for a failed attempt, for a
    duplicate detected before its item was built, and in the first pass of
    a balanced run (the chosen items are built afterwards); ``changed`` is
    how many card-relevant facts differ from the base; ``point`` is the scenario's raw point (:func:`ipb.perturb.runs.raw_point`) for
    the nearest-neighbour summary (:func:`ipb.perturb.runs.distance`).
    """

    recipe: int
    attempt: int
    key: int | None
    label: str | None
    line: str | None
    error: str | None
    changed: int = 0
    point: tuple[Any, ...] = ()
    #: The base is dated and this scenario is not: why, in words (a fact that describes the day moved, or the date
    #: rules one out; s57nufix C3: the summary counts the reasons); "" when dated.
    undated: str = ""


def key_int(key: str) -> int:
    """The first 64 bits of the SHA-256 of a scenario key (the run's duplicate detection)."""
    return int(digest(key)[:16], 16)


class Generator:
    """Makes candidate items for a job; one per worker process."""

    def __init__(self, job: Job, frame: Frame | None = None, base: PScenario | None = None) -> None:
        self.job = job
        self.frame = frame if frame is not None else build_frame(job.cards, fm6_probe=job.fm6_probe)
        self.base = base if base is not None else load_base(job.base, self.frame)
        self.base_key = scenario_key(self.frame, self.base)
        self.base_digest = digest(self.base_key)
        #: The 64-bit key of the base's card-relevant facts (:func:`ipb.perturb.frame.relevant_key`): a
        #: candidate with it differs from the base only in labels no card reads, and is never an item.
        self.base_int = key_int(relevant_key(self.frame, self.base))
        #: Relevant keys this process has already built an item for (a later attempt with one is a duplicate);
        #: 8 bytes a key (:class:`ipb.perturb.keyset.KeySet`).
        self.built = KeySet([self.base_int])
        #: the flip operator screens its anchors' moves from this scenario (ipb.perturb.targeted._dead_move)
        self.frame.memo["anchor_base"] = self.base.facts
        self.near_run: Any = None  # the run whose near keys this in-process generator reads (not to build them)

    def resolve(self) -> list[str]:
        """Fill in the default recipes when the job names none; the notes on operators skipped."""
        if self.job.recipes:
            return []
        recipes, notes = default_recipes(self.frame)
        self.job = replace(self.job, recipes=recipes, weights=None)
        return notes

    def check(self) -> None:
        """Raise ``not-applicable`` now if some operator of some recipe cannot apply to the cards, and ``cards`` if
        two cards of an L8 item would be named alike in its question (s48break: two "Test Investor: Division
        attack" cards made a question no answer could be read back to one card by)."""
        self._check_names()
        for recipe in self.job.recipes:
            for name, _ in recipe.steps:
                get_operator(name).check(self.frame)

    def _check_names(self) -> None:
        named: dict[str, str] = {}
        for c in self.frame.cards:
            shown = f"{c.card.investor}: {c.card.name}"
            if shown.casefold() in named:
                raise PerturbError(
                    f"cards {named[shown.casefold()]} and {c.card.id} are both named {shown!r}: an L8 question names "
                    "each framework by investor and name, so neither a model nor the scorer could tell them apart; "
                    "give one of them another name", rule="cards")
            named[shown.casefold()] = c.card.id

    def inapplicable(self) -> dict[int, str]:
        """Of a ``--mix`` job: the inapplicable recipes and why, reported as shortfalls (issue 18 item 3); else
        (or when no recipe of the mix applies) raises as :meth:`check`."""
        if self.job.weights is None:
            self.check()
            return {}
        self._check_names()
        out = inapplicable_recipes(self.frame, self.job.recipes)
        if len(out) == len(self.job.recipes):
            self.check()  # raises the first recipe's reason
        return out

    def scenario(self, r: int, j: int) -> tuple[PScenario, list[Step]] | str:
        """Attempt ``j`` of recipe ``r``'s scenario and steps, or why it failed (derived inputs computed)."""
        recipe = self.job.recipes[r]
        rng = random.Random(f"ipb-perturb/{self.job.seed}/{recipe.text}/{j}")
        scenario = self.base
        steps: list[Step] = []
        try:
            for name, arg in recipe.steps:
                step = get_operator(name)(self.frame, scenario, rng, arg, attempt=j)
                steps.append(step)
                scenario = step.scenario
        except IpbError as exc:
            if exc.rule in FATAL:
                raise
            return exc.message
        if self.frame.derived:
            scenario = scenario.with_facts(self.frame.complete(scenario.facts))
            if stale := stale_partial(self.frame, self.base.facts, scenario.facts):  # a source the move dropped
                scenario = scenario.with_facts({n: v for n, v in scenario.facts.items() if n not in stale})
            if moved := moved_partial_source(self.frame, self.base.facts, scenario.facts):
                return moved  # s62 new user N9: a stated source of a fact kept as stated moved
        if scenario.as_of is not None and scenario.as_of == self.base.as_of and (self._market_moved(scenario) or
                self._outgrew_the_date(scenario) or withheld_reason(self.frame, scenario.facts, scenario.sector)):
            scenario = dc_replace(scenario, as_of=None, regime=None, published={})
        return scenario, steps

    def _timed_inputs(self) -> frozenset[str]:
        """The inputs whose value can be an anachronism (:func:`ipb.perturb.flip_era.timed_inputs`)."""
        return timed_inputs(self.frame)

    def _outgrew_the_date(self, scenario: PScenario) -> bool:
        """True when a size figure (``sizes`` of the regime registry) moved above the base date's bound: no
        company was that large then, so the item keeps no date (stop 30: a $482B business in June 1995)."""
        regimes = self.frame.regimes
        if not regimes.largest or self.base.as_of is None:
            return False
        sizes = self.frame.memo.get("size_inputs")
        if sizes is None:
            sizes = self.frame.memo["size_inputs"] = tuple(
                n for n, spec in self.frame.inputs.items() if regimes.is_size(spec))
        if not sizes:
            return False
        bound = regimes.size_bound(self.base.as_of.year)
        base = self.base.facts
        return bound is not None and any(
            isinstance(v := scenario.facts.get(n), Decimal) and v > bound and v != base.get(n) for n in sizes)

    def _undated_why(self, scenario: PScenario) -> str:
        """Why an item of a dated base keeps no date, in words for the run summary (s57nufix, new user C3: 14 items
        of a 1990 base lost their date because sales passed the $80B market-value bound, and nothing said so)."""
        from ipb.engine.execute import format_value

        assert self.base.as_of is not None
        self._outgrew_the_date(scenario), self._market_moved(scenario)  # (they fill the memos read below)
        year = self.base.as_of.year
        bound = self.frame.regimes.size_bound(year) if self.frame.regimes.largest else None
        base = self.base.facts
        for name in self.frame.memo.get("size_inputs") or ():
            value = scenario.facts.get(name)
            if bound is not None and isinstance(value, Decimal) and value > bound and value != base.get(name):
                return f"{name} above {year}'s market-value bound ({format_value(bound, 'money')})"
        for name in self.frame.memo.get("dated_inputs") or ():
            if scenario.facts.get(name) != base.get(name):
                return f"{name} moved (it describes the day)"
        return withheld_reason(self.frame, scenario.facts, scenario.sector) or "the date rules out a fact"

    def _market_moved(self, scenario: PScenario) -> bool:
        """True when an input that describes the market at the date differs from the base (see ``undated``)."""
        dated = self.frame.memo.get("dated_inputs")
        if dated is None:
            dated = self.frame.memo["dated_inputs"] = tuple(
                n for n, spec in self.frame.inputs.items() if self.frame.regimes.describes_the_date(spec))
        base = self.base.facts
        return any(scenario.facts.get(n) != base.get(n) for n in dated)

    def _knife_edges(self, facts: Mapping[str, Any], steps: Sequence[Step]) -> list[str]:
        """The facts a ``metric`` or ``isolate`` step drew onto a gate's line (:func:`ipb.perturb.visible.knife_edges`).

        Only the inputs that differ from the base and that no flip placed (a flip keeps its own visible margin,
        :mod:`ipb.perturb.flip_search`) are read; an L8 deck, whose rules move inputs together, is not checked.
        """
        if self.frame.deck or not any(st.operator in ("metric", "isolate") for st in steps):
            return []
        placed = {st.details.get("input") for st in steps if st.operator == "flip"}
        derived = self.frame.derived
        names = [n for n in self._moved(facts) if n not in placed and n not in derived]
        return knife_edges(self.frame, facts, names) if names else []

    def _moved(self, facts: Mapping[str, Any]) -> list[str]:
        """The inputs whose value in ``facts`` differs from the base's (stated in one, not the other, included)."""
        base = self.base.facts
        return [n for n, v in facts.items() if base.get(n, _ABSENT) != v] + [n for n in base if n not in facts]

    def attempt(self, r: int, j: int, *, seen: Container[int] | None = None, build: bool = True,
                label: bool = True) -> Candidate:
        """Attempt ``j`` of recipe ``r``: apply its operators to the base and build the item.

        Parameters
        ----------
        seen:
            Keys already taken: a candidate with one is returned as a
            duplicate without building its item (so is one whose key this
            process built before).
        build:
            False: give the verdict label from the cards' final verdicts and
            no line (the first pass of a balanced run).
        label:
            With ``build`` False, False: no label either (a new scenario the
            run no longer needs).
        """
        made = self.scenario(r, j)
        if isinstance(made, str):
            return Candidate(r, j, None, None, None, made)
        scenario, steps = made
        facts, base = scenario.facts, self.base.facts
        late: list[str] = []
        if scenario.as_of is not None:
            timed = self._timed_inputs()
            late = [f"date {scenario.as_of.year}: {p}" for p in self.frame.dated_anachronisms(
                facts, timed, scenario.as_of)]
        if late:
            # refused whatever its key: the literals and the key (pure functions of the scenario) are not made
            # (s41speed: 65% of the bench card's flip attempts end here, 2024's price-of-growth floor)
            return Candidate(r, j, None, None, None, CONSTRAINT_PREFIX + ", ".join(
                self.frame.violations_from(base, facts, self._moved(facts)) + late))
        literals = fact_literals(self.frame, scenario)
        k = key_int(relevant_key(self.frame, scenario, literals))
        if k != self.base_int and (k in self.built or (seen is not None and k in seen)):
            # a scenario taken before has these card-relevant facts, and the constraints read only those, so
            # it passed them: a duplicate, as the checks below would find, without running them (the same
            # candidate as theirs: its changed count and point too)
            return Candidate(r, j, k, None, None, None, self.frame.changed(self.base, scenario),
                             raw_point(self.frame, scenario))
        broken = self.frame.violations_from(base, facts, self._moved(facts)) + context_omissions(self.frame, facts, scenario.sector)
        if broken:
            return Candidate(r, j, None, None, None, CONSTRAINT_PREFIX + ", ".join(broken))
        edges = self._knife_edges(facts, steps)
        if edges:
            return Candidate(r, j, None, None, None, KNIFE_EDGE_PREFIX + "; ".join(edges))
        if k == self.base_int:
            return Candidate(r, j, None, None, None, SAME_AS_BASE)
        changed = self.frame.changed(self.base, scenario)
        if changed < self.job.min_changed:
            return Candidate(r, j, None, None, None, f"{MIN_CHANGED_PREFIX}{changed} fact(s) differ from the base, "
                                                     f"fewer than --min-changed {self.job.min_changed}")
        point = raw_point(self.frame, scenario)  # placed by Diversity.add when sampled
        run = self.near_run
        if seen is not None and run is not None and run.near_mode and near_key(
                r, run.near_spans, point, run.near_relevant) in run.near:
            if run.near_mode != "defer":  # strict, or fill (s57era): a near duplicate is refused while the hunt lasts
                return Candidate(r, j, k, None, None, None, changed, point)
            # defer: built now and spooled by GenerationRun._defer, written after the visibly new items (s58speedgen)
        undated = self._undated_why(scenario) if scenario.as_of is None and self.base.as_of is not None else ""
        # (a taken key was answered above: a candidate that gets here with ``late`` or the base's key has returned)
        if not build and not label:
            return Candidate(r, j, k, None, None, None, changed, point, undated)
        self.built.add(k)
        if not build:
            outcomes = self.frame.outcomes(scenario.facts)
            verdicts = outcomes[0] if self.frame.layer == "L7" else " | ".join(
                f"{c}: {v}" for c, v in zip(self.frame.card_ids, outcomes))
            return Candidate(r, j, k, verdicts, None, None, changed, point, undated)
        recipe = self.job.recipes[r]
        key = scenario_key(self.frame, scenario, literals)  # the item id hashes the whole scenario
        item = build_item(self.frame, self.base, scenario, steps, recipe=recipe.text,
                          args=[a for _, a in recipe.steps], seed=self.job.seed, attempt=j, key=key,
                          literals=literals, base_digest=self.base_digest, shared=True, undated=undated)
        if self.frame.layer == "L7":
            verdicts = str(item["investment_verdict"])
        else:
            verdicts = " | ".join(f"{g['card']}: {g['investment_verdict']}" for g in item["golds"])
        return Candidate(r, j, k, verdicts, dumps_item(item), None, changed, point, undated)

    def line(self, r: int, j: int) -> str:
        """The item line of attempt ``j`` of recipe ``r`` (rebuilt: the same as when it was first made)."""
        made = self.scenario(r, j)
        assert not isinstance(made, str), made
        scenario, steps = made
        recipe = self.job.recipes[r]
        undated = self._undated_why(scenario) if scenario.as_of is None and self.base.as_of is not None else ""
        item = build_item(self.frame, self.base, scenario, steps, recipe=recipe.text,
                          args=[a for _, a in recipe.steps], seed=self.job.seed, attempt=j,
                          base_digest=self.base_digest, shared=True, undated=undated)
        return dumps_item(item)

    def run(self, tasks: Sequence[tuple[int, int, int]], *, seen: Container[int] | None = None,
            build: bool = True) -> Iterator[Candidate]:
        for r, start, stop in tasks:
            for j in range(start, stop):
                yield self.attempt(r, j, seen=seen, build=build)


_ABSENT = object()


def generate(
    job: Job,
    n: int,
    *,
    balance: bool = False,
    workers: int = 1,
    allow_short: bool = False,
    generator: Generator | None = None,
    runner: Any = None,
) -> Generation:
    """Make ``n`` distinct items for ``job``, held in memory (:func:`write_items` streams them to a file).

    Parameters
    ----------
    n:
        How many items (at least 1).
    balance:
        Choose items so the final verdicts are as evenly spread as the card
        and the operators allow.
    workers:
        Processes computing candidates (1: in this process). The items do not
        depend on it.
    allow_short:
        Return fewer than ``n`` items, with ``shortfall`` set, instead of
        raising.
    runner:
        Computes the candidates instead of local processes: an object with
        the interface of ``_Pool``: ``map(tasks, *, seen, wanted)`` (tasks are
        ``(recipe, first attempt, stop)``; yields their :class:`Candidate` in
        task order), ``lines(chosen)`` (the item lines of chosen ``(recipe,
        attempt)`` pairs, in order) and ``close()``, e.g. the Ray runner of
        :mod:`ipb.distributed`. The items do not depend on it.

    Raises
    ------
    PerturbError
        ``count`` (n < 1); ``not-applicable`` (an operator cannot apply to the
        cards); ``shortfall`` (fewer than n distinct items exist and
        ``allow_short`` is False): the message gives each recipe's count and
        why it stopped.
    LoadError, ErrorGroup
        An unknown card or a bad base scenario.
    """
    run = GenerationRun(job, n, balance=balance, workers=workers, allow_short=allow_short, generator=generator,
                        runner=runner)
    lines = list(run.lines())
    result = run.result
    assert result is not None
    result.lines = lines
    return result


#: The most items one run may ask for: 100x the largest run measured (100k, docs/perturbation.md "Largest run");
#: a bigger N would run for hours and hold a key per distinct scenario, so it is refused before any work.
MAX_ITEMS = 10_000_000


def count_above_cap(n: int) -> str | None:
    """Why ``n`` items is too many for one run (above :data:`MAX_ITEMS`), or None: the one message the CLI's early
    check and :class:`GenerationRun` both give."""
    if n <= MAX_ITEMS:
        return None
    return f"--n must be at most {MAX_ITEMS:,}, not {n:,} (docs/perturbation.md, \"Largest run\")"


def write_items(
    path: str | Path,
    job: Job,
    n: int,
    *,
    balance: bool = False,
    workers: int = 1,
    allow_short: bool = False,
    generator: Generator | None = None,
    runner: Any = None,
    stage: Any = None,
    progress: Any = None,
) -> Generation:
    """Make ``n`` items for ``job`` and write them to ``path`` as they are made, atomically.

    Memory stays flat in ``n`` (without ``balance``): each line is written when it is chosen and only a 64-bit key
    per distinct scenario is kept. On any error, a shortfall included, no file is left and an old one is untouched.
    The returned report has empty ``lines``. Parameters and errors as :func:`generate`, plus ``OSError`` when ``path``
    cannot be written. With ``stage`` (an :class:`ipb._files.Staging`) the file is only staged, and put in place by
    its ``commit`` with the run's other outputs (``--report``); ``progress`` (a ``RunProgress``) counts the lines.
    """
    run = GenerationRun(job, n, balance=balance, workers=workers, allow_short=allow_short, generator=generator,
                        runner=runner)
    lines = run.lines() if progress is None else progress.counted(run)
    (write_lines_atomic if stage is None else stage.lines)(path, lines)
    assert run.result is not None
    return run.result


class GenerationRun:
    """One generation run; :meth:`lines` yields the items as they are chosen, then ``result`` holds the report.

    Without balance the lines come in the order they are accepted: rounds of
    attempts, each round recipe by recipe in attempt order, so the order and
    the bytes do not depend on ``workers``. With balance a first pass draws
    the pool (labels only, no item built), the choice is made, and the
    chosen items are built in order of their rank within their recipe.
    """

    def __init__(self, job: Job, n: int, *, balance: bool = False, workers: int = 1, allow_short: bool = False,
                 generator: Generator | None = None, runner: Any = None) -> None:
        if n < 1:
            raise PerturbError(f"--n must be at least 1, not {n}", rule="count")
        too_many = count_above_cap(n)
        if too_many is not None:
            raise PerturbError(too_many, rule="count")
        if job.min_changed < 1:
            raise PerturbError(f"--min-changed must be at least 1, not {job.min_changed}", rule="count")
        self.gen = generator if generator is not None else Generator(job)
        self.notes = self.gen.resolve()
        self.job = self.gen.job
        #: --mix recipes that cannot apply to the cards, and why: reported as a shortfall, not an error
        self.inapplicable = self.gen.inapplicable()
        if self.job.weights is not None and len(self.job.weights) != len(self.job.recipes):
            raise PerturbError(f"{len(self.job.weights)} weights for {len(self.job.recipes)} recipes", rule="mix")
        self.n = n
        self.balance = balance
        self.workers = max(1, min(workers, os.cpu_count() or 1))
        self.allow_short = allow_short
        self.runner = runner
        self.result: Generation | None = None
        frame = self.gen.frame
        #: near keys (ipb.perturb.near) each recipe has taken, and the columns of a raw point they read
        self.near = KeySet()
        #: the near duplicates accepted and put off (attempts), rebuilt after the visibly new items
        self.near_hits = NearHits()
        #: the lines of the near duplicates deferred, in the order accepted (ipb.perturb._spool, s58speedgen)
        self.spool = LineSpool()
        #: the raw points of the first NEIGHBOUR_SAMPLE of them (the diversity sample takes them in file order)
        self.near_points: list[tuple[Any, ...]] = []
        #: --near-duplicates (runs.near_mode; default DEFAULT_NEAR): "defer" (s53dup), near duplicates taken as items
        #: and written last; "fill" (s57era), refused as misses while a recipe can still make visibly new items, each
        #: new one kept aside, and as many as the run is short of N written last; "strict" (--no-near-duplicates): refused, a miss, never written; None: no rule
        #: (--balance without --no-near-duplicates)
        self.near_mode = near_mode(self.job, balance, DEFAULT_NEAR)
        #: fill: the exact keys of the near duplicates kept aside (each scenario once)
        self.aside = KeySet()
        self.gen.near_run = self
        self.near_spans = grid_spans(frame)
        self.near_relevant = (*(n in frame.relevant for n in frame.inputs), frame.fm6_probe, False, False)

    def lines(self) -> Iterator[str]:
        job, gen, n = self.job, self.gen, self.n
        k = len(job.recipes)
        shares = _shares(n, k) if job.weights is None else _weighted_shares(n, job.weights)
        reports = [RecipeReport(r.text, s) for r, s in zip(job.recipes, shares)]
        for r, why in self.inapplicable.items():
            reports[r].exhausted = True
            reports[r].errors[f"not applicable: {why}"] += 1
        frame = gen.frame
        diversity = Diversity(base=_point(frame, gen.base),
                              numeric=tuple(name in frame.grids for name in frame.inputs) + (False,) * 3,
                              spans=grid_spans(frame))
        verdicts: Counter[str] = Counter()
        pool = self.runner if self.runner is not None else _Pool(job, gen, self.workers, build=not self.balance,
                                                                  pool_min=POOL_MIN)
        try:
            if self.balance:
                chosen = self._balanced_pool(reports, shares, pool)
                for rep in reports:
                    rep.items = 0
                for cand, line in zip(chosen, pool.lines([(c.recipe, c.attempt) for c in chosen])):
                    reports[cand.recipe].items += 1
                    if tied_rules(frame) and TIED in line:
                        reports[cand.recipe].tied += 1
                    if cand.undated:
                        reports[cand.recipe].undated += 1
                        reports[cand.recipe].undated_why[cand.undated] += 1
                    verdicts[cand.label or ""] += 1
                    diversity.add(cand)
                    yield line
            else:
                yield from self._stream(reports, shares, pool, verdicts, diversity)
        except BaseException:
            # stopped (SIGTERM, Ctrl-C, the consumer gone, an error): end the workers now; close() would wait for every
            # queued task, and a run of -n 1e9 stopped by kill hung with its workers' results filling memory
            getattr(pool, "terminate", pool.close)()
            self.spool.close()
            raise
        pool.close()
        written = sum(r.items for r in reports)
        result = Generation([], n, reports, dict(verdicts), self.balance, possible_outcomes(frame), notes=self.notes,
                            written=written, diversity=diversity)
        result.notes = result.notes + stuck_card_notes(frame, self.gen.base.facts, result.per_card)
        result.notes += frozen_input_notes(frame, self.gen.base.facts)  # s57nufix C1: an input no range moves
        result.notes += one_sided_card_notes(result.per_card)  # s57 new user W2: an L8 card whose verdict barely moves
        result.notes += unregistered_investor_notes(frame)  # s57 new user C4: condition B cannot be produced
        result.missing_why = unreachable_inconclusive(frame, self.gen.base.facts, result.missing)
        if written < n:
            why = "; ".join(
                f"{r.recipe}: {r.distinct} distinct" + (" (exhausted)" if r.exhausted else "")
                + (f", e.g. {r.errors.most_common(1)[0][0]}" if r.errors and r.distinct == 0 else "")
                for r in reports
            )
            near = sum(r.near for r in reports)
            result.shortfall = (f"only {written} distinct items can be made of the {n} requested ({why}); "
                                + (f"{near} near duplicate(s) dropped (within a visible step of an item of the same "
                                   "recipe: docs/perturbation.md, \"Near duplicates\"); " if near else "")
                                + "ask for fewer, draw from several bases, add recipes (e.g. metric or "
                                "sector+metric), or widen the card's ranges")
            self.result = result
            if not self.allow_short:
                raise PerturbError(result.shortfall, rule="shortfall")
        self.result = result

    # ------------------------------------------------------------------ streaming (no balance)

    def _stream(self, reports: list[RecipeReport], shares: list[int], pool: "_Pool", verdicts: Counter[str],
                diversity: Diversity) -> Iterator[str]:
        k = len(reports)
        targets = list(shares)
        taken = [0] * k
        next_attempt = [0] * k
        misses = [0] * k
        cap = max(20 * self.n, 5 * MISS_LIMIT)  # attempts per recipe, at most
        seen = KeySet([self.gen.base_int])
        deck = bool(tied_rules(self.gen.frame))

        def wanted(r: int) -> bool:
            return not reports[r].exhausted and taken[r] < targets[r]

        while True:
            _redistribute(targets, taken, reports)
            tasks = self._round(reports, targets, taken, next_attempt, cap)
            if not tasks:
                if self.near_mode == "fill":
                    need = self.n - sum(r.items for r in reports)
                    chosen = list(self._aside(seen, need)) if need > 0 else []
                    if len(chosen) < need and len(self.inapplicable) < k:
                        # too few even with the near duplicates kept aside: they become items written last, and the
                        # recipes hunt on taking near duplicates as s53dup's default did (small cards' runs stay whole)
                        self._admit_aside(chosen, reports, taken, verdicts, diversity)
                        growing = [r for r in range(k) if r not in self.inapplicable]
                        for r, rep in enumerate(reports):
                            rep.exhausted = r in self.inapplicable
                            targets[r] = taken[r]
                        for extra, r in zip(_shares(max(0, self.n - sum(taken)), len(growing)), growing):
                            targets[r] += extra
                        misses = [0] * k
                        continue
                    yield from self._fill(chosen, reports, pool, verdicts, diversity)  # kept aside, if short
                else:
                    yield from self._replay(reports, pool, diversity)  # the near duplicates put off, if any
                break
            for cand in pool.map(tasks, seen=seen, wanted=wanted):
                r = cand.recipe
                rep = reports[r]
                rep.attempts += 1
                kind = self._novel(cand, rep, seen, misses)
                if not kind or not wanted(r):
                    continue  # not new, or new but no longer needed (its round asked for a margin)
                taken[r] += 1
                if kind == _NEAR:
                    self._defer(cand, rep, verdicts, diversity)
                    continue
                line = cand.line
                if line is None:  # a worker built it before, as another recipe's near duplicate: again here
                    cand = self.gen.attempt(r, cand.attempt, build=False)
                    line = next(iter(pool.lines([(r, cand.attempt)])))
                rep.items += 1
                if deck and TIED in line:
                    rep.tied += 1
                if cand.undated:
                    rep.undated += 1
                    rep.undated_why[cand.undated] += 1
                verdicts[cand.label or ""] += 1
                diversity.add(cand)
                yield line

    def _defer(self, cand: Candidate, rep: RecipeReport, verdicts: Counter[str], diversity: Diversity) -> None:
        """Count a near duplicate as an item of its recipe and put it off: only its (recipe, attempt) is kept."""
        if cand.label is None:  # a worker built it before, as another recipe's near duplicate: label it here
            cand = self.gen.attempt(cand.recipe, cand.attempt, build=False)
        line = cand.line if cand.line is not None else self.gen.line(cand.recipe, cand.attempt)
        self.spool.add(line)  # s58speedgen: kept built (on disk), not rebuilt by a second run of its operator
        rep.tied += bool(tied_rules(self.gen.frame) and TIED in line)
        rep.items += 1
        rep.near_admitted += 1
        rep.undated += bool(cand.undated)
        if cand.undated:
            rep.undated_why[cand.undated] += 1
        verdicts[cand.label or ""] += 1
        diversity.changed[cand.changed] += 1
        if len(self.near_points) < NEIGHBOUR_SAMPLE:
            self.near_points.append(cand.point)

    def _aside(self, seen: KeySet, need: int) -> Iterator[Candidate]:
        """Up to ``need`` near duplicates kept aside, in the order met, labelled and not built; one whose scenario
        another recipe has taken since is skipped, and each given joins ``seen`` (s57era)."""
        for pairs in self.near_hits.chunks(REPLAY_CHUNK):
            for r, j in pairs:
                if need <= 0:
                    return
                cand = self.gen.attempt(r, j, build=False)
                if cand.key is None or cand.key in seen or cand.label is None:
                    continue
                seen.add(cand.key)
                need -= 1
                yield cand

    def _admit_aside(self, chosen: list[Candidate], reports: list[RecipeReport], taken: list[int],
                     verdicts: Counter[str], diversity: Diversity) -> None:
        """Count every near duplicate kept aside (``chosen``) as an item of its recipe, put off as ``defer`` puts
        one off, and turn the run to ``defer`` (s57era: the default's fallback when the visibly new items and those
        kept aside together fall short of N)."""
        self.near_mode = "defer"
        kept = NearHits()
        for cand in chosen:
            rep = reports[cand.recipe]
            kept.add(cand.recipe, cand.attempt)
            taken[cand.recipe] += 1
            rep.items += 1
            rep.near_admitted += 1
            if cand.undated:  # a reason since s57nufix C3
                rep.undated += 1
                rep.undated_why[cand.undated] += 1
            verdicts[cand.label or ""] += 1
            diversity.changed[cand.changed] += 1
            if len(self.near_points) < NEIGHBOUR_SAMPLE:
                self.near_points.append(cand.point)
        self.near_hits = kept

    def _fill(self, chosen: list[Candidate], reports: list[RecipeReport], pool: "_Pool", verdicts: Counter[str],
              diversity: Diversity) -> Iterator[str]:
        """The default's second pass (s57era): when every recipe has run out of visibly new items short of N, the near
        duplicates kept aside (``chosen`` by :meth:`_aside`: as many as the run is short of N), rebuilt from their
        (recipe, attempt) (lines from ``pool``: the bytes do not depend on ``--workers``); none when the visibly new
        items sufficed."""
        deck = bool(tied_rules(self.gen.frame))
        for start in range(0, len(chosen), REPLAY_CHUNK):
            part = chosen[start:start + REPLAY_CHUNK]
            for cand, line in zip(part, pool.lines([(c.recipe, c.attempt) for c in part])):
                rep = reports[cand.recipe]
                rep.items += 1
                rep.near_admitted += 1
                if cand.undated:
                    rep.undated += 1
                    rep.undated_why[cand.undated] += 1
                rep.tied += bool(deck and TIED in line)
                verdicts[cand.label or ""] += 1
                diversity.add(cand)
                yield line

    def _replay(self, reports: list[RecipeReport], pool: "_Pool", diversity: Diversity) -> Iterator[str]:
        """The second pass: the near duplicates put off, rebuilt from their (recipe, attempt) in the order they were
        accepted (lines from ``pool``: the bytes do not depend on ``--workers``)."""
        deck = bool(tied_rules(self.gen.frame))
        points = iter(self.near_points)
        for pairs in self.near_hits.chunks(REPLAY_CHUNK):  # those kept aside before a fill run turned to defer
            for (r, _), line in zip(pairs, pool.lines(pairs)):
                reports[r].tied += bool(deck and TIED in line)
                point = next(points, None)
                if point is not None:
                    diversity.place(point)
                yield line
        for line in self.spool.drain():  # then those deferred, as built (their tied count was taken then)
            point = next(points, None)
            if point is not None:
                diversity.place(point)
            yield line

    def _novel(self, cand: Candidate, rep: RecipeReport, seen: KeySet, misses: list[int]) -> int:
        """Count the candidate in its recipe's report; ``_NEW`` or ``_NEAR`` (within a visible step of an item of
        its recipe, ipb.perturb.near) when its scenario is new (it joins ``seen``), else 0."""
        r = cand.recipe
        if cand.key is None or cand.key in seen:
            if cand.error:
                rep.errors[cand.error] += 1
                if cand.error.startswith(CONSTRAINT_PREFIX):
                    rep.rejected += 1
                elif cand.error.startswith(MIN_CHANGED_PREFIX):
                    rep.too_close += 1
                elif cand.error.startswith(UNREACHED):
                    rep.unreached += 1
            elif cand.key is not None:
                rep.duplicates += 1
            misses[r] += 1
            if misses[r] >= max(MISS_LIMIT, rep.distinct):
                rep.exhausted = True
            return 0
        kind = _NEW
        if cand.point and self.near_mode:
            near = near_key(r, self.near_spans, cand.point, self.near_relevant)
            if near in self.near and self.near_mode != "defer":  # a miss, not an item
                rep.near += 1
                if self.near_mode == "fill" and cand.key not in self.aside:  # kept aside in case the run falls short
                    self.aside.add(cand.key)
                    self.near_hits.add(r, cand.attempt)
                misses[r] += 1
                if misses[r] >= max(MISS_LIMIT, rep.distinct):
                    rep.exhausted = True
                return 0
            kind = _NEAR if near in self.near else _NEW
            self.near.add(near)
        seen.add(cand.key)
        misses[r] = 0
        rep.distinct += 1
        return kind

    def _round(self, reports: list[RecipeReport], targets: list[int], have: list[int], next_attempt: list[int],
               cap: int) -> list[tuple[int, int, int]]:
        """The next attempt ranges: for each recipe short of its target, as many as its hit rate says it needs."""
        tasks: list[tuple[int, int, int]] = []
        for r, rep in enumerate(reports):
            need = targets[r] - have[r]
            if need <= 0 or rep.exhausted:
                continue
            if next_attempt[r] == 0:
                size = min(ceil(need * 1.1) + 8, 64)  # a first look: some recipes are tiny
            else:
                ratio = min(4.0, rep.attempts / max(1, rep.distinct))
                size = ceil(need * ratio * 1.02) + 8
            start = next_attempt[r]
            stop = min(start + size, cap)
            if stop <= start:
                rep.exhausted = True
                continue
            tasks.extend(_split(r, start, stop, self.workers))
            next_attempt[r] = stop
        return tasks

    # ------------------------------------------------------------------ balance

    def _balanced_pool(self, reports: list[RecipeReport], shares: list[int], pool: "_Pool") -> list[Candidate]:
        """Draw the pool (labels only) and choose the items; returns them in output order."""
        k = len(reports)
        pools: list[list[Candidate]] = [[] for _ in range(k)]
        targets = [s * BALANCE_POOL for s in shares]
        next_attempt = [0] * k
        misses = [0] * k
        cap = max(20 * self.n, 5 * MISS_LIMIT)
        seen = KeySet([self.gen.base_int])
        while True:
            _redistribute(targets, [len(p) for p in pools], reports)
            tasks = self._round(reports, targets, [len(p) for p in pools], next_attempt, cap)
            if not tasks:
                if _grow_for_balance(targets, pools, reports, self.n, [cap] * k):
                    continue
                break
            for cand in pool.map(tasks, seen=seen):
                rep = reports[cand.recipe]
                rep.attempts += 1
                if rep.exhausted:
                    if cand.key is not None:
                        seen.add(cand.key)
                    continue
                if self._novel(cand, rep, seen, misses):
                    pools[cand.recipe].append(cand)
        ranks = {(c.recipe, c.attempt): i for pool_ in pools for i, c in enumerate(pool_)}
        chosen = _select_balanced(pools, self.n, ranks)
        chosen.sort(key=lambda c: (ranks[(c.recipe, c.attempt)], c.recipe))
        return chosen

