"""What a generation run reports: per-recipe counts, the verdict balance and the diversity of the items.

:class:`Generation` is the report :func:`ipb.perturb.generation.generate` returns (and ``--report``
writes as JSON); :class:`RecipeReport` one recipe's share of it; :class:`Diversity` the facts
changed per item and the nearest-neighbour distances (paper §6.5: items must differ from each
other and from the base). Split out of :mod:`ipb.perturb.generation`, which re-exports them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Sequence

from ipb.perturb.frame import Frame, PScenario, card_outcomes
from ipb.perturb.near import nn_warning

if TYPE_CHECKING:
    from ipb.perturb.generation import Candidate

#: The share of a run's items one recipe of several may make before the summary warns (issue 18 item 4).
DOMINANT_SHARE = 0.85
#: Items whose nearest-neighbour distance the diversity summary measures.
NEIGHBOUR_SAMPLE = 500

__all__ = ["RecipeReport", "Generation", "Diversity", "possible_outcomes", "point", "distance", "stuck_card_notes",
           "one_sided_card_notes", "frozen_input_notes",
           "unreachable_inconclusive", "NO_INCONCLUSIVE", "near_mode", "unregistered_investor_notes"]




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
    #: Candidates rejected because they broke a card constraint.
    rejected: int = 0
    #: Candidates whose scenario an earlier candidate had (detected before the item was built, where possible).
    duplicates: int = 0
    #: Candidates that changed fewer facts than ``--min-changed``.
    too_close: int = 0
    #: ``isolate`` attempts dropped because every gate they could isolate is one the card's run never reaches
    #: (an earlier gate stops the chain, so the gold would show it N/A; s40user defect 3).
    unreached: int = 0
    #: Items written whose operator moved inputs tied by an L8 deck rule together (``details.tied``).
    tied: int = 0
    #: Items written without the dated base's date: a fact that describes the day moved, or a figure the date
    #: rules out (docs/perturbation.md, "Dates that fit the facts"; stop 33). Local backend only (Ray: 0).
    undated: int = 0
    #: Why those items keep no date, counted (s57nufix C3: "sales above 1990's market-value bound ($80B)").
    undated_why: Counter[str] = field(default_factory=Counter)
    #: Candidates dropped as near duplicates: within a visible step of an item the recipe took (ipb.perturb.near).
    near: int = 0
    #: Items within a visible step of an earlier item of the recipe, written after the visibly new items.
    near_admitted: int = 0

    @property
    def rejection_rate(self) -> float:
        """Constraint rejections over attempts (0.0 with no attempt)."""
        return self.rejected / self.attempts if self.attempts else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"recipe": self.recipe, "share": self.share, "items": self.items, "attempts": self.attempts,
                "distinct": self.distinct, "exhausted": self.exhausted,
                "errors": dict(self.errors.most_common(3)), "constraint_rejections": self.rejected,
                "rejection_rate": round(self.rejection_rate, 4), "duplicates": self.duplicates,
                "too_close": self.too_close, "unreached": self.unreached, "tied_moves": self.tied,
                "undated": self.undated, "undated_why": dict(self.undated_why.most_common()),
                "near_duplicates": self.near,
                "near_admitted": self.near_admitted}


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
    #: Operators left out of the default recipes, and why.
    notes: list[str] = field(default_factory=list)
    #: Items made (equals ``len(lines)`` unless the lines were streamed to a file).
    written: int = -1
    diversity: "Diversity | None" = None
    #: Why a verdict the card can give was never produced, where no item could have it (``missing_why``).
    missing_why: str | None = None

    def __post_init__(self) -> None:
        if self.written < 0:
            self.written = len(self.lines)

    @property
    def impossible(self) -> list[str]:
        """Verdicts the card can give that no item of this run can have (INCONCLUSIVE from a base stating every
        input the gates read, as :attr:`missing_why` says, :func:`unreachable_inconclusive`): :attr:`evenness`
        leaves them out (s62 new user N14)."""
        return ["INCONCLUSIVE"] if (self.missing_why or "").startswith(NO_INCONCLUSIVE) else []

    @property
    def evenness(self) -> float:
        """Smallest verdict count over the largest (1.0 is even), over the verdicts the items can have.

        A verdict the card can give that no item has counts as 0, so a set
        of items with a single verdict is not called even; one that no item
        can have (:attr:`impossible`) is left out (s62 new user N14: "BUY 147,
        DO_NOT_BUY 153 (evenness 0.00)" beside "no item can be INCONCLUSIVE";
        now 147 / 153 = 0.96).

        >>> Generation([], 300, [], {"BUY": 147, "DO_NOT_BUY": 153}, False, ["BUY", "DO_NOT_BUY", "INCONCLUSIVE"],
        ...            written=300, missing_why=NO_INCONCLUSIVE + ": the base states every input ...").evenness
        0.9607843137254902
        """
        counts: list[int] = [c for c in self.verdicts.values() if c] + [0] * len(
            [v for v in self.missing if v not in self.impossible])
        top = max(counts, default=0)
        return min(counts) / top if top else 0.0

    @property
    def per_card(self) -> dict[str, dict[str, int]]:
        """L8: each card's final verdicts over the items (empty for L7)."""
        out: dict[str, Counter[str]] = {}
        for label, count in self.verdicts.items():
            if " | " not in label and ": " not in label:
                return {}
            for part in label.split(" | "):
                card, _, verdict = part.partition(": ")
                out.setdefault(card, Counter())[verdict] += count
        return {card: dict(sorted(c.items())) for card, c in out.items()}

    @property
    def missing(self) -> list[str]:
        """Verdicts the card can give that no item has (L7)."""
        return [v for v in self.possible if v not in self.verdicts]

    def to_dict(self) -> dict[str, Any]:
        return {
            "requested": self.requested,
            "written": self.written,
            "recipes": [r.to_dict() for r in self.recipes],
            "verdicts": dict(sorted(self.verdicts.items())),
            "per_card": self.per_card,
            "evenness": round(self.evenness, 4),
            "balance": self.balance,
            "possible": self.possible,
            "missing": self.missing,
            "missing_why": self.missing_why,
            "shortfall": self.shortfall,
            "notes": self.notes,
            "constraint_rejections": sum(r.rejected for r in self.recipes),
            "attempts": sum(r.attempts for r in self.recipes),
            "duplicates": sum(r.duplicates for r in self.recipes),
            "diversity": self.diversity.to_dict() if self.diversity is not None else None,
        }

    def dominant(self) -> str | None:
        """A warning when one recipe of several made at least :data:`DOMINANT_SHARE` of the items, naming the
        recipes that ran short of their shares and by how many (they ran out of distinct, visibly new items)."""
        if len(self.recipes) < 2 or self.written < 1:
            return None
        top = max(self.recipes, key=lambda r: r.items)
        if top.items < DOMINANT_SHARE * self.written:
            return None
        short = [f"{r.recipe} {r.items} of {r.share}" + (" (exhausted)" if r.exhausted else "")
                 for r in self.recipes if r is not top and r.items < r.share]
        if not short:  # s59 new user F-C8: every share met is what was asked (--mix flip=0.9 or --n 1), no warning
            return None
        return (f"WARNING: {top.recipe} made {top.items} of {self.written} items ({top.items / self.written:.0%}); "
                f"short of their shares: {', '.join(short)}")

    def mix_shortfalls(self) -> list[RecipeReport]:
        """The recipes that made fewer items than their share: the asked proportion of N, rounded to whole items
        (:func:`ipb.perturb.shares.weighted_shares`), so a recipe that made its share met the proportion asked
        within the rounding of N."""
        return [r for r in self.recipes if r.items < r.share]

    def strict_mix_error(self) -> str | None:
        """``--strict-mix``'s message when some recipe made fewer items than its share, naming every recipe's asked
        and made counts (and why a short one stopped); None when every share was met."""
        if not self.mix_shortfalls():
            return None
        parts = []
        for r in self.recipes:
            part = f"{r.recipe} asked {r.share}, made {r.items}"
            if r.items < r.share:
                why = next((e for e in r.errors if e.startswith("not applicable")), None)
                part += " (short" + (f"; {why}" if why else "; exhausted" if r.exhausted else "") + ")"
            parts.append(part)
        return ("--strict-mix: the mix was not met (" + "; ".join(parts) + "); no items file written: --out (and "
                "--report) left as they were")

    def _too_few_for_every_verdict(self) -> bool:
        """Fewer items than verdicts the card can give: some verdict is missing by construction (--n 1)."""
        return 0 < self.written < len(self.possible) and not self.per_card

    def summary(self) -> str:
        """A few lines for people: counts per verdict and recipe, evenness, shortfall."""
        per_card = self.per_card
        if per_card:  # L8: one combination of the cards' verdicts a line, not one line of them all (new user 18)
            verdicts = f"{len(self.verdicts)} combination(s) of {len(per_card)} cards' verdicts, below"
        else:
            verdicts = ", ".join(f"{v} {c}" for v, c in sorted(self.verdicts.items()))
        small = self._too_few_for_every_verdict()
        # s59 new user F-C8: --n 1 said "evenness 0.00" and "never produced: PASS", a warning about what was asked
        even = (f"evenness not measured: {self.written} item(s) for the card's {len(self.possible)} verdicts" if small
                else f"evenness {self.evenness:.2f}")
        text = [f"{self.written} of {self.requested} items; verdicts: {verdicts or 'none'}"
                f" ({even}{', balanced' if self.balance else ''})"]
        if per_card:
            text.extend(f"  {c:>{len(str(self.written))}} x {v}" for v, c in sorted(self.verdicts.items()))
        if self.missing and not small:
            text.append(f"never produced: {', '.join(self.missing)}"
                        + (f" ({self.missing_why})" if self.missing_why else ""))
        for card, counts in per_card.items():
            text.append(f"  {card}: " + ", ".join(f"{v} {c}" for v, c in counts.items()))
        text.extend(f"  note: {note}" for note in self.notes)
        for r in self.recipes:
            line = f"  {r.recipe}: {r.items} items (share {r.share}; {r.distinct} distinct in {r.attempts} attempts"
            if r.exhausted:
                line += "; exhausted"
            if r.rejected:
                line += f"; {r.rejected} broke a constraint ({r.rejection_rate:.1%} of attempts)"
            if r.duplicates:
                line += f"; {r.duplicates} duplicate(s) dropped"
            if r.near:
                line += f"; {r.near} near duplicate(s) dropped (within a visible step of an item it made)"
            if r.near_admitted:
                line += f"; {r.near_admitted} within a visible step of an item it made (written last)"
            if r.too_close:
                line += f"; {r.too_close} too close to the base"
            if r.unreached:
                line += f"; {r.unreached} dropped: the isolated gate not reached (an earlier gate stops the chain)"
            if r.tied:
                # an L7 run has no deck: its ties are the card's own ``tie: true`` rules (s58user F-K3)
                line += f"; {r.tied} moved inputs tied by " + (
                    "a deck rule together" if per_card else "the card's 'tie: true' rule together")
            if r.undated:
                line += f"; {r.undated} undated (a fact that describes the day moved, or the date rules one out)"
                if r.undated_why:
                    line += ": " + ", ".join(f"{count} {why}" for why, count in r.undated_why.most_common(3)) + (
                        f" and {len(r.undated_why) - 3} more reasons" if len(r.undated_why) > 3 else "")
            line += ")"
            if r.items < r.share and self.balance and r.distinct >= r.share:
                # it had enough items: --balance chose others to even the verdicts (new user 18)
                line += f": {r.share - r.items} fewer than its share, --balance chose other recipes' items to " \
                        "even the verdicts"
            elif r.items < r.share:
                line += f": {r.share - r.items} fewer than its share, made up by the other recipes" \
                    if self.shortfall is None else f": {r.share - r.items} fewer than its share"
            if r.errors and r.distinct == 0:
                line += f"; {r.errors.most_common(1)[0][0]}"
            text.append(line)
        if self.diversity is not None and self.diversity.items:
            text.append("  " + self.diversity.summary())
            nn = self.diversity.to_dict()["nearest_neighbour"]
            warning = nn_warning(nn["median"] if nn else None, len(self.diversity.sample))
            if warning:
                text.append(warning)
        admitted = sum(r.near_admitted for r in self.recipes)
        if admitted:
            text.append(f"WARNING: {admitted} of {self.written} items are within a visible step of an item of the same "
                        "recipe, written after the others (docs/perturbation.md, \"Near duplicates\"); publish fewer "
                        "items, draw them from several bases, or refuse them with --no-near-duplicates")
        dominant = self.dominant()
        if dominant:
            text.append(dominant)
        if self.shortfall:
            text.append(f"SHORTFALL: {self.shortfall}")
        return "\n".join(text)


@dataclass
class Diversity:
    """How the items differ from the base and from each other (issue 18, part 4).

    ``changed`` counts items by how many card-relevant facts differ from the
    base (every item; :meth:`ipb.perturb.frame.Frame.changed`: a fact some
    gate, computed value or constraint reads; a context label such as a
    sector no gate reads does not count, and the decision date counts only in
    an FM-6 probe frame); the summary shows every count that occurs, 0
    included, so an item that only relabels the base would be visible; the distances (:func:`_distance`: 1 per category, bool or
    undisclosed fact that differs, the share of the declared range per
    numeric fact) are over the first ``NEIGHBOUR_SAMPLE`` items: each one's
    distance to its nearest other item and to the base.
    """

    changed: Counter[int] = field(default_factory=Counter)
    sample: list[tuple[Any, ...]] = field(default_factory=list)
    base: tuple[Any, ...] = ()
    numeric: tuple[bool, ...] = ()
    #: When set (:func:`grid_spans`), candidates carry raw points (:func:`raw_point`), placed only when sampled.
    spans: tuple[tuple[Decimal, Decimal] | None, ...] = ()

    @property
    def items(self) -> int:
        return sum(self.changed.values())

    def add(self, cand: Candidate) -> None:
        self.changed[cand.changed] += 1
        self.place(cand.point)

    def place(self, point: tuple[Any, ...]) -> None:
        """Sample an item's raw point while the sample has room (its ``changed`` is counted by the caller)."""
        if len(self.sample) < NEIGHBOUR_SAMPLE:
            self.sample.append(place(self.spans, point) if self.spans else point)

    def distances(self) -> tuple[list[float], list[float]]:
        """(nearest-neighbour distance of each sampled item, its distance to the base)."""
        if not self.sample:
            return [], []
        import numpy as np

        m = len(self.sample)
        nn = np.zeros((m, m))
        to_base = np.zeros(m)
        for col, numeric in enumerate(self.numeric):
            values = [p[col] for p in self.sample]
            base = self.base[col]
            if numeric:
                x = np.array([v if isinstance(v, float) else np.nan for v in values])
                b = base if isinstance(base, float) else np.nan
                d = np.minimum(1.0, np.abs(x[:, None] - x[None, :]))
                both_missing = np.isnan(x)[:, None] & np.isnan(x)[None, :]
                nn += np.where(both_missing, 0.0, np.nan_to_num(d, nan=1.0))
                db = np.minimum(1.0, np.abs(x - b))
                to_base += np.where(np.isnan(x) & np.isnan(b), 0.0, np.nan_to_num(db, nan=1.0))
            else:
                codes: dict[Any, int] = {}
                c = np.array([codes.setdefault(v, len(codes)) for v in values])
                nn += c[:, None] != c[None, :]
                to_base += np.array([v != base for v in values], dtype=float)
        if m > 1:
            np.fill_diagonal(nn, np.inf)
            near = nn.min(axis=1).tolist()
        else:
            near = []
        return [round(v, 4) for v in near], [round(v, 4) for v in to_base.tolist()]

    def to_dict(self) -> dict[str, Any]:
        near, base = self.distances()

        def stats(xs: list[float]) -> dict[str, Any] | None:
            if not xs:
                return None
            ys = sorted(xs)
            return {"min": ys[0], "median": ys[len(ys) // 2], "max": ys[-1], "mean": round(sum(ys) / len(ys), 4)}

        return {"facts_changed": {str(k): v for k, v in sorted(self.changed.items())}, "sample": len(self.sample),
                "nearest_neighbour": stats(near), "from_base": stats(base)}

    def summary(self) -> str:
        doc = self.to_dict()
        changed = ", ".join(f"{k}: {v}" for k, v in doc["facts_changed"].items())
        text = f"card-relevant facts changed from the base (facts: items): {changed}"
        if doc["nearest_neighbour"]:
            nn = doc["nearest_neighbour"]
            text += (f"; nearest-neighbour distance over the first {doc['sample']} items: min {nn['min']}, "
                     f"median {nn['median']}")
        return text


def possible_outcomes(frame: Frame) -> list[str]:
    """The final verdicts an L7 card can give, sorted (empty for L8)."""
    return sorted(card_outcomes(frame.cards[0])) if frame.layer == "L7" else []


def point(frame: Frame, scenario: PScenario) -> tuple[Any, ...]:
    """Each input's value placed for :func:`distance`: a grid input as its position in [0, 1], others as is;
    then the decision date, sector and regime context."""
    return place(grid_spans(frame), raw_point(frame, scenario))


def raw_point(frame: Frame, scenario: PScenario) -> tuple[Any, ...]:
    """Each input's engine value (None: unknown), then the decision date, sector and regime: :func:`point`
    before :func:`place` (cheap to make for every candidate; only the sampled ones are placed)."""
    facts = scenario.facts
    return (*map(facts.get, frame.inputs), scenario.as_of.isoformat() if scenario.as_of else None,
            scenario.sector, scenario.regime)


def grid_spans(frame: Frame) -> tuple[tuple[Decimal, Decimal] | None, ...]:
    """``(lo, hi)`` of each input's grid when it has a range of positive width, else None; None for the context."""
    spans = [(g.lo, g.hi) if g is not None and g.hi > g.lo else None for g in (frame.grids.get(n) for n in frame.inputs)]
    return (*spans, None, None, None)


def place(spans: Sequence[tuple[Decimal, Decimal] | None], raw: Sequence[Any]) -> tuple[Any, ...]:
    """A raw point placed for :func:`distance` (grid values as floats in [0, 1], others as text or as is)."""
    out: list[Any] = []
    for span, value in zip(spans, raw):
        if value is not None and span is not None and isinstance(value, Decimal):
            out.append(float((value - span[0]) / (span[1] - span[0])))
        else:
            out.append(value if value is None or isinstance(value, (bool, str)) else str(value))
    return tuple(out)


def distance(a: Sequence[Any], b: Sequence[Any]) -> float:
    """Distance between two scenarios: per input, 1 when a category, bool or date differs or only one states it,
    the share of the declared range between two numeric values otherwise; summed over inputs."""
    total = 0.0
    for x, y in zip(a, b):
        if x == y:
            continue
        if isinstance(x, float) and isinstance(y, float):
            total += min(1.0, abs(x - y))
        else:
            total += 1.0
    return total


def stuck_card_notes(frame: Frame, facts: Any, per_card: dict[str, dict[str, int]]) -> list[str]:
    """A note for each card of an L8 run that is INCONCLUSIVE on every item, naming the inputs its gates read that the
    base leaves unstated (no operator draws an unstated input, so they stay unknown on every item).

    A new user (stop 32) put Klarman's downside card beside a Pabrai base: Klarman was INCONCLUSIVE on 20 of 20
    items (the base stated only the downside value it shares with Pabrai), with nothing in the summary to say why.
    """
    notes = []
    for card_id, counts in per_card.items():
        if set(counts) != {"INCONCLUSIVE"}:
            continue
        unstated = [n for n, gates in frame.consumers.items()
                    if n not in facts and any(g.startswith(card_id + "/") for g in gates)]
        if unstated:
            shown = ", ".join(unstated[:5]) + (f" and {len(unstated) - 5} more" if len(unstated) > 5 else "")
            notes.append(f"card {card_id} is INCONCLUSIVE on every item: the base does not state {shown}, which "
                         "its gates read, and no operator draws an unstated input; state them in the base")
    return notes


#: Share of an L8 run's items at or above which one card's single outcome earns a note (``one_sided_card_notes``).
ONE_SIDED_SHARE = 0.95


def one_sided_card_notes(per_card: dict[str, dict[str, int]], least: int = 20) -> list[str]:
    """A note for each card of an L8 run (two cards or more) whose one outcome covers ``ONE_SIDED_SHARE`` or more of
    at least ``least`` items: the set barely varies that investor's verdict (issue 18 item 2 asks L8 items to vary
    every investor's outcome). Cards INCONCLUSIVE on every item are left to :func:`stuck_card_notes`.

    s57 new user W2: in a three-investor deck Greenblatt's card said DECLINE on 998 of 1,000 items (the base's rank
    480 lay far from the top 30) and the summary said nothing.

    >>> one_sided_card_notes({"a": {"DECLINE": 998, "INVEST": 2}, "b": {"BUY": 600, "AVOID": 400}})[0][:50]
    'card a gives DECLINE on 998 of 1,000 items (99.8%)'
    >>> one_sided_card_notes({"a": {"DECLINE": 19}, "b": {"BUY": 19}})
    []
    """
    if len(per_card) < 2:
        return []
    notes = []
    for card_id, counts in per_card.items():
        total = sum(counts.values())
        if total < least or set(counts) == {"INCONCLUSIVE"}:
            continue
        outcome, top = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
        if top >= ONE_SIDED_SHARE * total:
            notes.append(f"card {card_id} gives {outcome} on {top:,} of {total:,} items ({100 * top / total:.1f}%): "
                         "the set barely varies this investor's verdict; a base nearer that card's boundary "
                         "gives a more even set")
    return notes


def frozen_input_notes(frame: Frame, facts: Any) -> list[str]:
    """A note for each numeric input a gate reads that the base states but that declares no ``range`` and is no
    derived input: metric, flip and isolate draw only on a declared range, so the input keeps the base's value in
    every item they make.

    s57nufix (new user C1): a user removed the range of ``interest_expense``; ``ipb check`` was clean and 300 of 300
    items stated $200M with nothing in the summary to say so, while every question offered INCONCLUSIVE (a gate
    dividing by an input with no range counts as possibly undecided, docs/perturbation.md "Questions").
    """
    derived = {c.derive for compiled in frame.cards for c in compiled.card.constraints if c.derive}
    notes = []
    for name, gates in frame.consumers.items():
        spec = frame.inputs.get(name)
        if (spec is None or spec.type not in ("number", "money", "multiple", "ratio") or name not in facts
                or name in frame.grids or name in derived or not gates):
            continue
        notes.append(f"input {name!r} declares no range: metric, flip and isolate never change it, so it keeps the "
                     "base's value in every item they make (and a gate dividing by it counts as able to be "
                     "INCONCLUSIVE, so questions offer INCONCLUSIVE); declare a range and a step in the card")
    return notes


#: How :func:`unreachable_inconclusive`'s reason begins when no item can be INCONCLUSIVE.
NO_INCONCLUSIVE = "no item can be INCONCLUSIVE"


def unreachable_inconclusive(frame: Frame, facts: Any, missing: Sequence[str]) -> str | None:
    """Why an L7 run never produced INCONCLUSIVE, when it cannot: the base states every input the card's gates
    read, no operator leaves a stated input unknown, and no gate of the card can be undecided on stated values.

    A new user (s46user) perturbed a nine-signal F-score card from a base stating all eight of its facts: the
    summary said "evenness 0.00" and "never produced: INCONCLUSIVE" beside BUY 24 and AVOID 36, which reads like
    a failed run. This says why no item has it, and :attr:`Generation.evenness` then leaves it out (s63join).
    None where INCONCLUSIVE was produced, or an item could be.
    """
    from ipb.perturb.undecided import undecided_gates

    if not missing:
        return None
    if frame.layer == "L7" and "INCONCLUSIVE" in missing and not undecided_gates(frame.cards[0]) \
            and all(name in _stated(frame, facts) for name in frame.consumers):
        return (f"{NO_INCONCLUSIVE}: the base states every input the card's gates read (or they are "
                "derived from stated ones) and no gate is undecided on stated values, so the evenness leaves it "
                "out; a base that leaves a fact out gives INCONCLUSIVE items")
    # s59break B11: every verdict reported missing says why, not only an unreachable INCONCLUSIVE
    return (f"the card can give {'them' if len(missing) > 1 else 'it'}, but no item this run kept reached "
            f"{'them' if len(missing) > 1 else 'it'}: the scenarios that do lie where few draws fall; --balance draws "
            "each verdict in turn, and more items (--n) or recipes that move more inputs (metric, sector+metric) "
            "reach further")


def _stated(frame: Frame, facts: Any) -> set[str]:
    """The inputs ``facts`` states, with each input a ``derive:`` constraint computes from stated inputs only (s59break
    B11: ``holding_years`` derived from a stated ``holding_months`` is stated in every item), to a fixed point
    (:meth:`Frame.derived_closure`: one derived from another in an L8 frame, whatever the cards' order)."""
    return set(frame.derived_closure(facts, every=True))


def near_mode(job: Any, balance: bool, default: str) -> str | None:
    """How a run treats near duplicates (docs/perturbation.md, "Near duplicates"): "fill", "defer" or "strict", or
    None (``--balance`` without "strict": near duplicates stay where they fall).

    ``job.near`` is ``--near-duplicates`` (None: ``default``, the generation module's ``DEFAULT_NEAR``) and
    ``job.strict_near`` is ``--no-near-duplicates``, the same as "strict".

    Raises
    ------
    PerturbError
        ``job.near`` is not a mode, names a mode other than "strict" beside ``--no-near-duplicates``, or names
        "fill" or "defer" in a balanced run (only "strict" applies to one).

    Examples
    --------
    >>> from types import SimpleNamespace as J
    >>> near_mode(J(near=None, strict_near=False), False, "fill"), near_mode(J(near="defer", strict_near=False), False, "fill")
    ('fill', 'defer')
    >>> near_mode(J(near=None, strict_near=True), True, "fill"), near_mode(J(near=None, strict_near=False), True, "fill")
    ('strict', None)
    """
    from ipb.errors import PerturbError

    modes = ("fill", "defer", "strict")
    if job.near is not None and job.near not in modes:
        raise PerturbError(f"--near-duplicates must be one of {', '.join(modes)}, not {job.near!r}", rule="near")
    if job.strict_near and job.near not in (None, "strict"):
        raise PerturbError(f"--no-near-duplicates is --near-duplicates strict: it cannot go with --near-duplicates "
                           f"{job.near}", rule="near")
    if job.strict_near or job.near == "strict":
        return "strict"
    if balance:
        if job.near is not None:
            raise PerturbError(f"--balance keeps near duplicates where they fall: of --near-duplicates only strict "
                               f"applies with it, not {job.near}", rule="near")
        return None
    return job.near or default


def unregistered_investor_notes(frame: Frame) -> list[str]:
    """A note per card whose investor is not in the investor registry (s57 new user C4): every item records
    ``conditions.B``, but ``ipb respond --conditions B`` refuses such an item (condition B retrieves the investor's
    knowledge cards, and there are none), so the run says so when the items are made, not when a model is run.

    An investor added in a registry file (the same schema as frameworks/investors.yaml) is found there; the note
    names that way out, and says to make the items with it (``ipb perturb --investors FILE`` or ``IPB_INVESTORS``;
    ``ipb verify`` takes the same, s62 new user N8), since each item records ``conditions.B.knowledge_sha256`` from the registry the items
    were made with (s61 new user N3: the note named ``ipb respond --investors`` only, and items made without the
    registry then failed ``ipb verify`` and made respond warn on every record).
    """
    from ipb.engine.investors import UnknownInvestorError, investor_for_card

    notes: list[str] = []
    for card in {c.card.id: c.card for c in frame.cards}.values():
        try:
            investor_for_card(card)
        except UnknownInvestorError:
            notes.append(f"investor {card.investor!r} (card {card.id}) is not in the investor registry "
                         "(frameworks/investors.yaml): each item records conditions.B, but `ipb respond "
                         "--conditions B` refuses these items, as condition B has no knowledge cards for the "
                         "investor; register the investor in a registry file (docs/scoring.md, 'An investor of your own') "
                         "and make the items with it, ipb perturb --investors FILE ... (or IPB_INVESTORS=FILE), as "
                         "each item records the knowledge version condition B reads from the registry (ipb verify "
                         "--investors FILE needs it too); "
                         "then pass it to `ipb respond --investors FILE`; or run conditions A and C only")
    return notes
