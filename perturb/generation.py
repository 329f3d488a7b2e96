"""Generate N distinct perturbed items from one base scenario, reproducibly.

Recipes
-------
``--ops`` is a comma-separated list of *recipes*; a recipe is one operator or
several joined by ``+`` and applied in order, each optionally with an
argument after ``:``::

    metric,sector,temporal,flip       four recipes, items shared among them
    sector:industrial_automation+metric   one recipe: relocate, then new metrics
    flip:ev_to_arr                    the nearest flip along one input

Items are shared as evenly as possible among the recipes. A recipe whose
space of distinct scenarios runs out (a fixed base has one smallest verdict
flip; there are only so many regimes) hands its remaining share to the
others, and the report says so; when all of them together cannot make N
distinct items, :func:`generate` raises a ``shortfall`` error rather than
writing a short file (unless the caller allows a short file, and then the
report says how short it is).

Reproducibility
---------------
Attempt ``j`` of recipe ``R`` draws from ``random.Random("ipb-perturb/SEED/R/j")``
and nothing else, so the candidates are the same in any process and the
selection, made in a fixed order, does not depend on how many worker
processes computed them: the same cards, base, recipes, N and seed give the
same items, byte for byte.

Balance
-------
With ``balance`` the pool is generated larger (three times each recipe's
share, then more while a verdict that occurred is short of an even share, up
to ten times N) and the items are chosen so that every final verdict that
occurred gets as equal a share as the pool allows; the report gives the
counts, the evenness (smallest count over largest; a verdict the card can give
that no item has counts as 0) and the verdicts the card
can give that never occurred.
"""

from __future__ import annotations

import multiprocessing
import os
import random
from collections import Counter
from dataclasses import dataclass, field
from math import ceil
from typing import Any, Iterator, NamedTuple, Sequence

from ipb.errors import IpbError, PerturbError
from ipb.perturb.frame import Frame, PScenario, build_frame, card_outcomes, digest, fact_literals, load_base, scenario_key
from ipb.perturb.items import build_item, dumps_item
from ipb.perturb.operators import Step, get_operator

__all__ = ["Recipe", "parse_recipes", "Job", "Generator", "Generation", "RecipeReport", "generate",
           "possible_outcomes"]

#: A recipe counts as exhausted after this many consecutive attempts without a new
#: distinct scenario, or as many as it has found, whichever is more.
MISS_LIMIT = 32
#: Error rules that no other attempt can fix: the operator or its argument is wrong for these cards.
FATAL = frozenset({"not-applicable", "operator-arg", "range", "sector", "regime"})
#: Fewer attempts than this in one round are made in this process even with workers (start-up costs more).
POOL_MIN = 512
#: With balance, each recipe's pool grows to this many times its share,
BALANCE_POOL = 3
#: and, while a verdict is short of an even share, the whole pool up to this many times N.
BALANCE_POOL_LIMIT = 10


@dataclass(frozen=True)
class Recipe:
    """A sequence of (operator, argument) applied in order to make one item."""

    text: str
    steps: tuple[tuple[str, str | None], ...]


def parse_recipes(spec: str | Sequence[str]) -> tuple[Recipe, ...]:
    """Parse ``--ops``: recipes separated by commas, operators in a recipe by ``+``.

    >>> [r.steps for r in parse_recipes("metric,sector:energy+temporal")]
    [(('metric', None),), (('sector', 'energy'), ('temporal', None))]

    Raises
    ------
    PerturbError
        Rule ``operator``: an empty recipe or an unknown operator (with a
        "did you mean").
    """
    parts = [spec] if isinstance(spec, str) else list(spec)
    recipes: list[Recipe] = []
    for part in parts:
        for text in part.split(","):
            text = text.strip()
            if not text:
                raise PerturbError(f"empty recipe in --ops {','.join(parts)!r}", rule="operator")
            steps: list[tuple[str, str | None]] = []
            for token in text.split("+"):
                name, sep, arg = token.strip().partition(":")
                get_operator(name)
                steps.append((name, arg if sep else None))
            canonical = "+".join(n if a is None else f"{n}:{a}" for n, a in steps)
            recipes.append(Recipe(canonical, tuple(steps)))
    if not recipes:
        raise PerturbError("no operators given", rule="operator")
    return tuple(recipes)


@dataclass(frozen=True)
class Job:
    """What a generation run is made from: everything a worker process needs to rebuild it."""

    cards: tuple[str, ...]
    base: str
    seed: int
    recipes: tuple[Recipe, ...]
    fm6_probe: bool = False


class Candidate(NamedTuple):
    """One attempt's result: the digest of its scenario key, its verdict label and its JSONL line; or an error."""

    recipe: int
    attempt: int
    key: str | None
    label: str | None
    line: str | None
    error: str | None


class Generator:
    """Makes candidate items for a job; one per worker process."""

    def __init__(self, job: Job, frame: Frame | None = None, base: PScenario | None = None) -> None:
        self.job = job
        self.frame = frame if frame is not None else build_frame(job.cards, fm6_probe=job.fm6_probe)
        self.base = base if base is not None else load_base(job.base, self.frame)
        self.base_key = scenario_key(self.frame, self.base)
        self.base_digest = digest(self.base_key)

    def check(self) -> None:
        """Raise ``not-applicable`` now if some operator of some recipe cannot apply to the cards."""
        for recipe in self.job.recipes:
            for name, _ in recipe.steps:
                get_operator(name).check(self.frame)

    def attempt(self, r: int, j: int) -> Candidate:
        """Attempt ``j`` of recipe ``r``: apply its operators to the base and build the item."""
        recipe = self.job.recipes[r]
        rng = random.Random(f"ipb-perturb/{self.job.seed}/{recipe.text}/{j}")
        scenario = self.base
        steps: list[Step] = []
        try:
            for name, arg in recipe.steps:
                step = get_operator(name)(self.frame, scenario, rng, arg)
                steps.append(step)
                scenario = step.scenario
        except IpbError as exc:
            if exc.rule in FATAL:
                raise
            return Candidate(r, j, None, None, None, exc.message)
        literals = fact_literals(self.frame, scenario)
        key = scenario_key(self.frame, scenario, literals)
        if key == self.base_key:
            return Candidate(r, j, None, None, None, "the perturbed scenario equals the base")
        item = build_item(self.frame, self.base, scenario, steps, recipe=recipe.text,
                          args=[a for _, a in recipe.steps], seed=self.job.seed, attempt=j, key=key,
                          literals=literals, base_digest=self.base_digest)
        if self.frame.layer == "L7":
            label = str(item["investment_verdict"])
        else:
            label = " | ".join(f"{g['card']}: {g['investment_verdict']}" for g in item["golds"])
        return Candidate(r, j, digest(key), label, dumps_item(item), None)

    def run(self, tasks: Sequence[tuple[int, int, int]]) -> list[Candidate]:
        return [self.attempt(r, j) for r, start, stop in tasks for j in range(start, stop)]


# --------------------------------------------------------------------------- worker processes

_WORKER: Generator | None = None


def _init_worker(job: Job) -> None:
    global _WORKER
    _WORKER = Generator(job)


def _run_task(task: tuple[int, int, int]) -> list[Candidate]:
    assert _WORKER is not None
    return _WORKER.run([task])


# --------------------------------------------------------------------------- the run


@dataclass
class RecipeReport:
    """How one recipe fared: items written, attempts, distinct scenarios found, exhaustion."""

    recipe: str
    share: int
    items: int = 0
    attempts: int = 0
    distinct: int = 0
    exhausted: bool = False
    errors: Counter[str] = field(default_factory=Counter)

    def to_dict(self) -> dict[str, Any]:
        return {"recipe": self.recipe, "share": self.share, "items": self.items, "attempts": self.attempts,
                "distinct": self.distinct, "exhausted": self.exhausted,
                "errors": dict(self.errors.most_common(3))}


@dataclass
class Generation:
    """The selected items (JSONL lines, no newlines) and a report of the run."""

    lines: list[str]
    requested: int
    recipes: list[RecipeReport]
    verdicts: dict[str, int]
    balance: bool
    possible: list[str]
    shortfall: str | None = None

    @property
    def evenness(self) -> float:
        """Smallest verdict count over the largest (1.0 is even).

        A verdict the card can give that no item has counts as 0, so a set
        of items with a single verdict is not called even.
        """
        counts: list[int] = [c for c in self.verdicts.values() if c] + [0] * len(self.missing)
        top = max(counts, default=0)
        return min(counts) / top if top else 0.0

    @property
    def missing(self) -> list[str]:
        """Verdicts the card can give that no item has (L7)."""
        return [v for v in self.possible if v not in self.verdicts]

    def to_dict(self) -> dict[str, Any]:
        return {
            "requested": self.requested,
            "written": len(self.lines),
            "recipes": [r.to_dict() for r in self.recipes],
            "verdicts": dict(sorted(self.verdicts.items())),
            "evenness": round(self.evenness, 4),
            "balance": self.balance,
            "possible": self.possible,
            "missing": self.missing,
            "shortfall": self.shortfall,
        }

    def summary(self) -> str:
        """A few lines for people: counts per verdict and recipe, evenness, shortfall."""
        verdicts = ", ".join(f"{v} {c}" for v, c in sorted(self.verdicts.items()))
        text = [f"{len(self.lines)} of {self.requested} items; verdicts: {verdicts or 'none'}"
                f" (evenness {self.evenness:.2f}{', balanced' if self.balance else ''})"]
        if self.missing:
            text.append(f"never produced: {', '.join(self.missing)}")
        for r in self.recipes:
            line = f"  {r.recipe}: {r.items} items (share {r.share}; {r.distinct} distinct in {r.attempts} attempts"
            if r.exhausted:
                line += "; exhausted"
            line += ")"
            if r.items < r.share:
                line += f": {r.share - r.items} fewer than its share, made up by the other recipes" \
                    if self.shortfall is None else f": {r.share - r.items} fewer than its share"
            if r.errors and r.distinct == 0:
                line += f"; {r.errors.most_common(1)[0][0]}"
            text.append(line)
        if self.shortfall:
            text.append(f"SHORTFALL: {self.shortfall}")
        return "\n".join(text)


def possible_outcomes(frame: Frame) -> list[str]:
    """The final verdicts an L7 card can give, sorted (empty for L8)."""
    return sorted(card_outcomes(frame.cards[0].card)) if frame.layer == "L7" else []


def _shares(n: int, k: int) -> list[int]:
    return [n // k + (1 if i < n % k else 0) for i in range(k)]


def generate(
    job: Job,
    n: int,
    *,
    balance: bool = False,
    workers: int = 1,
    allow_short: bool = False,
    generator: Generator | None = None,
) -> Generation:
    """Make ``n`` distinct items for ``job``.

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
    if n < 1:
        raise PerturbError(f"--n must be at least 1, not {n}", rule="count")
    gen = generator if generator is not None else Generator(job)
    gen.check()
    k = len(job.recipes)
    shares = _shares(n, k)
    reports = [RecipeReport(r.text, s) for r, s in zip(job.recipes, shares)]
    pools: list[list[Candidate]] = [[] for _ in range(k)]
    targets = [s * BALANCE_POOL if balance else s for s in shares]
    next_attempt = [0] * k
    misses = [0] * k
    cap = [max(20 * n, 5 * MISS_LIMIT) for _ in targets]  # attempts per recipe, at most
    seen: set[str] = {digest(gen.base_key)}
    workers = max(1, min(workers, os.cpu_count() or 1))
    pool = _Pool(job, gen, workers)
    try:
        while True:
            _redistribute(targets, pools, reports, balance)
            tasks: list[tuple[int, int, int]] = []
            for r in range(k):
                need = targets[r] - len(pools[r])
                if need <= 0 or reports[r].exhausted:
                    continue
                if next_attempt[r] == 0:
                    size = min(ceil(need * 1.1) + 8, 64)  # a first look: some recipes are tiny
                else:
                    ratio = min(4.0, reports[r].attempts / max(1, reports[r].distinct))
                    size = ceil(need * ratio * 1.02) + 8
                start = next_attempt[r]
                stop = min(start + size, cap[r])
                if stop <= start:
                    reports[r].exhausted = True
                    continue
                tasks.extend(_split(r, start, stop, workers))
                next_attempt[r] = stop
            if not tasks:
                if balance and _grow_for_balance(targets, pools, reports, n, cap):
                    continue
                break
            for cand in pool.map(tasks):
                rep = reports[cand.recipe]
                rep.attempts += 1
                if rep.exhausted:
                    continue
                if cand.key is None or cand.key in seen:
                    if cand.error:
                        rep.errors[cand.error] += 1
                    misses[cand.recipe] += 1
                    if misses[cand.recipe] >= max(MISS_LIMIT, rep.distinct):
                        rep.exhausted = True
                    continue
                seen.add(cand.key)
                misses[cand.recipe] = 0
                pools[cand.recipe].append(cand)
                rep.distinct += 1
    finally:
        pool.close()
    ranks = {(c.recipe, c.attempt): i for pool_ in pools for i, c in enumerate(pool_)}
    chosen = _select_balanced(pools, n, ranks) if balance else _select(pools, targets)
    chosen.sort(key=lambda c: (ranks[(c.recipe, c.attempt)], c.recipe))
    for rep in reports:
        rep.items = 0
    verdicts: Counter[str] = Counter()
    for c in chosen:
        reports[c.recipe].items += 1
        verdicts[c.label or ""] += 1
    result = Generation([c.line or "" for c in chosen], n, reports, dict(verdicts), balance,
                        possible_outcomes(gen.frame))
    if len(chosen) < n:
        why = "; ".join(
            f"{r.recipe}: {r.distinct} distinct" + (" (exhausted)" if r.exhausted else "")
            + (f", e.g. {r.errors.most_common(1)[0][0]}" if r.errors and r.distinct == 0 else "")
            for r in reports
        )
        result.shortfall = (f"only {len(chosen)} distinct items can be made of the {n} requested ({why}); "
                            "ask for fewer, add recipes (e.g. metric or sector+metric), or widen the card's ranges")
        if not allow_short:
            raise PerturbError(result.shortfall, rule="shortfall")
    return result


def _grow_for_balance(targets: list[int], pools: list[list[Candidate]], reports: list[RecipeReport], n: int,
                      cap: list[int]) -> bool:
    """Enlarge the pools when a verdict that occurs is still short of an even share; False when done.

    The rarest verdict's share of the pool so far estimates how much more
    must be drawn; recipes stop at their attempt cap or when exhausted.
    """
    counts = Counter(c.label for pool in pools for c in pool)
    if len(counts) < 2 or sum(counts.values()) >= BALANCE_POOL_LIMIT * n:
        return False  # one verdict only, or the pool is already ten times N: as even as it gets
    quota = ceil(n / len(counts))
    rarest = min(counts.values())
    total = sum(counts.values())
    if rarest >= quota:
        return False
    growing = [r for r, rep in enumerate(reports) if not rep.exhausted and rep.attempts < cap[r]]
    if not growing:
        return False
    extra = ceil((quota - rarest) * total / max(1, rarest))
    for share, r in zip(_shares(extra, len(growing)), growing):
        targets[r] = len(pools[r]) + share
    return True


def _split(r: int, start: int, stop: int, workers: int) -> list[tuple[int, int, int]]:
    if workers == 1:
        return [(r, start, stop)]
    size = max(32, ceil((stop - start) / (workers * 4)))
    return [(r, s, min(s + size, stop)) for s in range(start, stop, size)]


def _redistribute(targets: list[int], pools: list[list[Candidate]], reports: list[RecipeReport], balance: bool) -> None:
    """Give the unmet share of exhausted recipes to the recipes that can still grow."""
    deficit = sum(max(0, t - len(p)) for t, p, rep in zip(targets, pools, reports) if rep.exhausted)
    growing = [r for r, rep in enumerate(reports) if not rep.exhausted]
    if deficit <= 0 or not growing:
        return
    for r, rep in enumerate(reports):
        if rep.exhausted:
            targets[r] = len(pools[r])
    for extra, r in zip(_shares(deficit, len(growing)), growing):
        targets[r] += extra


def _select(pools: list[list[Candidate]], targets: list[int]) -> list[Candidate]:
    return [c for pool, t in zip(pools, targets) for c in pool[:t]]


def _select_balanced(pools: list[list[Candidate]], n: int, ranks: dict[tuple[int, int], int]) -> list[Candidate]:
    """Take candidates so each verdict gets as equal a share as the pool allows."""
    merged = sorted((c for pool in pools for c in pool), key=lambda c: (ranks[(c.recipe, c.attempt)], c.recipe))
    buckets: dict[str, list[Candidate]] = {}
    for c in merged:
        buckets.setdefault(c.label or "", []).append(c)
    labels = sorted(buckets)
    if not labels:
        return []
    take = dict(zip(labels, _shares(n, len(labels))))
    take = {lab: min(q, len(buckets[lab])) for lab, q in take.items()}
    left = n - sum(take.values())
    while left > 0:
        spare = [lab for lab in labels if len(buckets[lab]) > take[lab]]
        if not spare:
            break
        for lab in spare:
            if left == 0:
                break
            take[lab] += 1
            left -= 1
    return [c for lab in labels for c in buckets[lab][: take[lab]]]


class _Pool:
    """Runs attempt ranges in this process or in worker processes, results in task order."""

    def __init__(self, job: Job, gen: Generator, workers: int) -> None:
        self.gen = gen
        self.workers = workers
        self._pool: Any = None
        self.job = job

    def map(self, tasks: list[tuple[int, int, int]]) -> Iterator[Candidate]:
        total = sum(stop - start for _, start, stop in tasks)
        if self.workers == 1 or total < POOL_MIN:
            yield from self.gen.run(tasks)
            return
        if self._pool is None:
            global _WORKER
            if "fork" in multiprocessing.get_all_start_methods():
                _WORKER = self.gen  # forked workers inherit the loaded cards and base
                self._pool = multiprocessing.get_context("fork").Pool(self.workers)
            else:
                ctx = multiprocessing.get_context("spawn")
                self._pool = ctx.Pool(self.workers, initializer=_init_worker, initargs=(self.job,))
        for chunk in self._pool.imap(_run_task, tasks):
            yield from chunk

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool.join()
            self._pool = None
