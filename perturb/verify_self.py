"""What ``ipb verify`` checks of an item against itself, beside its gold.

The gold of an item is checked by executing its scenario; condition B by
hashing its question. Neither says that the question (what a model reads)
states the scenario (what the gold was computed from), nor that the id is
the one the scenario hashes to. Found by the s29break18 review (issue 18): an
item whose scenario fact was edited to a value that keeps its gold, its
question still stating the old value, passed ``ipb verify``; so did an edited
id and a fact outside the card's declared range. For a current-version item:

* an L8 item's ``cards``, its manifest's cards and its golds name the same
  cards in the same order, an L7 scenario names the item's card, and every
  entry of ``manifest.changes`` gives the scenario's value as its ``new``;
* undoing ``manifest.changes`` on the facts gives the base scenario whose
  digest ``manifest.base.digest`` records (:func:`base_digest`; stop 31: an
  emptied, added, removed or edited change passed before), each change differs
  from its ``old`` and names its input once;
* the id is the base id plus 16 hex digits of the SHA-256 of the scenario key
  (:func:`ipb.perturb.frame.scenario_key`: cards, facts, date, sector, regime),
  and the scenario's id is the item's;
* every stated number lies inside the range each card declares for it
  (``ipb perturb`` refuses such a base and draws only inside the ranges);
* the question is the one :func:`ipb.perturb.render.render_question` writes for
  the scenario with the manifest's context, the manifest's FM-6 marks
  (``fm6_probe``, ``anachronisms``) are those of the scenario date, and no
  macro figure of ``fact_dates`` (nor a date-valued fact) is dated on or after
  it (the decision-time cutoff); these are checked only while every card is
  the one the item was made with (a card edit that rewords a phrase or moves
  a vintage is reported as a changed card, not as a tampered item);
* a flip item's moved fact is visibly past its gate's line: one display step
  back towards the base (less one grid step) it gives the same verdicts (:func:`margin_problems`,
  review finding SR13, :mod:`ipb.perturb.visible`).

A version 1 item (older question wording) gets the range check only.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from decimal import Decimal
from typing import Any, Mapping, Sequence

from ipb.engine._json import canonical_json
from ipb.engine.card import Card
from ipb.engine.graph import CompiledCard
from ipb.engine.lint import out_of_range
from ipb.errors import IpbError
from ipb.perturb.deck_moves import follow
from ipb.perturb.frame import Frame, PScenario, build_frame
from ipb.perturb.render import fact_sentence_errors, render_question
from ipb.perturb.vintage import cutoff_problems
from ipb.perturb.visible import back_value, visible_problem

__all__ = ["SelfCheck", "base_digest", "base_facts", "change_problems", "expected_id", "manifest_problems", "margin_problems",
           "period_problems", "question_problem"]

#: ``isinstance(x, _MAPPING)`` is ``isinstance(x, Mapping)``, answered without the ABC's check for a dict (what an item
#: read from JSON holds): some 0.5 us a call less, three calls an item.
_MAPPING = (dict, Mapping)

#: Facts whose range was already checked (card id, input, engine value) -> problem or None; bounded.
RANGE_LIMIT = 1 << 16


def expected_id(item: Mapping[str, Any], card_ids: Sequence[str]) -> str:
    """The id ``ipb perturb`` gives an item with this scenario and context (:func:`ipb.perturb.items.item_id`).

    >>> item = {"manifest": {"base": {"id": "B"}, "context": {"sector": None, "regime": None}},
    ...         "scenario": {"facts": {"x": "1"}}}
    >>> expected_id(item, ["c"])  # SHA-256 of {"as_of":null,"cards":["c"],"facts":{"x":"1"},"regime":null,"sector":null}
    'B-2aeb95de7f3d12af'
    """
    manifest, scenario = item["manifest"], item["scenario"]
    context = manifest.get("context") or {}
    doc = {"cards": list(card_ids), "facts": scenario["facts"], "as_of": scenario.get("as_of"),
           "sector": context.get("sector"), "regime": context.get("regime")}
    key = canonical_json(doc)
    return f"{manifest['base']['id']}-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:16]}"


def base_digest(item: Mapping[str, Any], card_ids: Sequence[str]) -> str:
    """The digest of the base scenario the item's ``manifest.changes`` lead back to (``manifest.base.digest`` when
    the changes are the ones ``ipb perturb`` recorded).

    Every recorded change ``{"input", "old", "new"}`` is reverted on the item's facts (an ``old`` of None: the
    base did not state the fact), and the SHA-256 of the base's scenario key
    (:func:`ipb.perturb.frame.scenario_key`: cards, facts, the manifest's base date, no sector nor regime, as
    :func:`ipb.perturb.frame.load_base` reads a base) is returned. Only the item's own literals are hashed, so
    the digest does not depend on this ipb's number formatting.

    >>> item = {"manifest": {"base": {"as_of": None}, "changes": [{"input": "x", "old": "1", "new": "2"}]},
    ...         "scenario": {"facts": {"x": "2"}}}
    >>> base_digest(item, ["c"])[:16]  # SHA-256 of {"as_of":null,"cards":["c"],"facts":{"x":"1"},"regime":null,"sector":null}
    '2aeb95de7f3d12af'
    """
    return _digest_of(base_facts(item), card_ids, (item["manifest"].get("base") or {}).get("as_of"))


def base_facts(item: Mapping[str, Any]) -> dict[str, Any]:
    """The item's facts with every recorded change undone (an ``old`` of None: the fact dropped)."""
    facts = dict(item["scenario"]["facts"])
    for change in item["manifest"].get("changes") or ():
        name, old = change.get("input"), change.get("old")
        if old is None:
            facts.pop(name, None)
        else:
            facts[name] = old
    return facts


def _digest_of(facts: Mapping[str, Any], card_ids: Sequence[str], as_of: Any) -> str:
    doc = {"cards": list(card_ids), "facts": facts, "as_of": as_of, "sector": None, "regime": None}
    return hashlib.sha256(canonical_json(doc).encode("utf-8")).hexdigest()


def change_problems(item: Mapping[str, Any], card_ids: Sequence[str],
                    bases: dict[tuple[Any, ...], dict[str, Any]] | None = None) -> list[str]:
    """Where ``manifest.changes`` disagrees with the item's facts or with the base it records (empty: agrees).

    Each change must give the scenario's value as its ``new`` and differ from its ``old``, name an input once,
    and reverting them all on the facts must give the base scenario whose digest the manifest records
    (:func:`base_digest`): an emptied, added, removed or edited change is caught, where before only a ``new``
    that differs from the scenario was. ``bases`` remembers, per (digest, cards, base date), base facts that hash to
    the digest: the items of a file share one base, so an item whose undone facts equal them is not hashed again
    (equal as values: a fact retyped, ``true`` for ``1``, is the id check's to catch, as the id hashes the facts).
    """
    out: list[str] = []
    manifest = item["manifest"]
    facts = item["scenario"]["facts"]
    changes = manifest.get("changes") or []
    seen: set[Any] = set()
    for change in changes:
        name = change.get("input")
        if facts.get(name) != change.get("new"):
            out.append(f"manifest/changes: {name} is {change.get('new')!r} in the changes but "
                       f"{facts.get(name)!r} in the scenario")
        if change.get("old") == change.get("new"):
            out.append(f"manifest/changes: {name} is recorded as changed from {change.get('old')!r} to the same "
                       "value (ipb perturb records only facts that differ from the base)")
        if name in seen:
            out.append(f"manifest/changes: {name} is recorded as changed more than once")
        seen.add(name)
    recorded = (manifest.get("base") or {}).get("digest")
    if out or not isinstance(recorded, str):
        return out
    facts_then = base_facts(item)
    as_of = (manifest.get("base") or {}).get("as_of")
    key = (recorded, tuple(card_ids), as_of)
    if bases is not None and bases.get(key) == facts_then:
        return out
    if _digest_of(facts_then, card_ids, as_of) == recorded:
        if bases is not None:
            if len(bases) >= 64:
                bases.clear()
            bases[key] = facts_then
    else:
        listed = ", ".join(str(c.get("input")) for c in changes) or "none"
        moved = [n for n in _operator_inputs(manifest) if n not in seen and n in facts]
        hint = (f"; the operators moved {', '.join(moved)}, which no change records" if moved else "")
        out.append(f"manifest/changes: undoing the {len(changes)} recorded change(s) ({listed}) on the item's facts "
                   "does not give the base scenario whose digest manifest/base/digest records: a change was removed, "
                   f"added or edited (its input or its old value), or the base's digest or date was edited{hint}")
    return out


def _operator_inputs(manifest: Mapping[str, Any]) -> list[str]:
    """The inputs the manifest's operators say they moved (``details.inputs``, ``details.tied``), in order, once."""
    names: dict[str, None] = {}
    for op in manifest.get("operators") or ():
        details = op.get("details") if isinstance(op, Mapping) else None
        if not isinstance(details, Mapping):
            continue
        for part in (details.get("inputs"), details.get("tied")):
            if isinstance(part, (list, Mapping)):
                names.update((n, None) for n in part if isinstance(n, str))
    return list(names)


class SelfCheck:
    """The self-consistency problems of items, with one frame per deck of cards (bounded memos)."""

    def __init__(self) -> None:
        #: One frame per deck of compiled cards (keyed by identity; the deck is kept to rule out a reused id).
        self.frames: dict[tuple[int, ...], tuple[tuple[CompiledCard, ...], Frame | None]] = {}
        self.ranges: dict[tuple[str, str, Any], str | None] = {}
        #: Base facts known to hash to a manifest's base digest (:func:`change_problems`); bounded.
        self.bases: dict[tuple[Any, ...], dict[str, Any]] = {}
        #: The deck and frame of the last item (most items of a file share one deck).
        self.last: tuple[tuple[CompiledCard, ...], Frame | None] | None = None

    def range_problems(self, card: Card, typed: Mapping[str, Any]) -> list[str]:
        """A line per typed fact outside the range ``card`` declares for it."""
        out: list[str] = []
        for name, value in typed.items():
            key = (card.id, name, value)
            try:
                problem = self.ranges[key]
            except (KeyError, TypeError):
                problem = self._range(card, name, value)
                if len(self.ranges) >= RANGE_LIMIT:
                    self.ranges.clear()
                try:
                    self.ranges[key] = problem
                except TypeError:  # an unhashable engine value: nothing to remember
                    pass
            if problem is not None:
                out.append(problem)
        return out

    def range_problem(self, card: Card, name: str, value: Any) -> str | None:
        """Why ``value`` of input ``name`` is outside the range ``card`` declares for it, or None."""
        return self._range(card, name, value)

    @staticmethod
    def _range(card: Card, name: str, value: Any) -> str | None:
        from ipb.engine.execute import format_value
        from ipb.engine.lint import _range_text

        spec = card.inputs[name]
        if not out_of_range(spec, value):
            return None
        return (f"fact {name} = {format_value(value, spec.expr_type.unit)} is outside the range "
                f"{_range_text(spec)} that card {card.id!r} declares for it")

    def problems(self, item: Mapping[str, Any], compiled: Sequence[CompiledCard], typed: Mapping[str, Any],
                 unchanged: bool) -> list[str]:
        """The id and question problems of a current-version ``item`` whose cards are ``compiled``.

        ``typed`` holds every stated fact as an engine value; ``unchanged`` says that every card is the one the
        item was made with (the question is checked only then).
        """
        out: list[str] = []
        ids = [c.card.id for c in compiled]
        ident, scenario = item["id"], item["scenario"]
        listed = [c.get("id") for c in item["manifest"]["cards"]]
        named = list(item.get("cards") or ids) if item.get("layer") != "L7" else ids
        if not named == listed == ids:
            out.append(f"cards: the item names {named}, its manifest {listed} and its golds {ids}; an item holds "
                       "one gold per card, in the order of its cards")
        if item.get("layer") == "L7" and scenario.get("card") != ids[0]:
            out.append(f"scenario/card: {scenario.get('card')!r} is not the item's card {ids[0]!r}")
        out += change_problems(item, ids, self.bases)
        want = expected_id(item, ids)
        if ident != want:
            out.append(f"id: {ident} is not the id of its scenario ({want}): the id or the scenario was edited")
        if scenario.get("id") != ident:
            out.append(f"scenario/id: {scenario.get('id')} differs from the item's id {ident}")
        out += manifest_problems(item["manifest"], scenario)
        if not unchanged:
            return out
        frame = self.frame(compiled)
        if frame is None:
            return out
        context = item["manifest"].get("context") or {}
        try:
            as_of = dt.date.fromisoformat(scenario["as_of"]) if scenario.get("as_of") else None
            question = render_question(frame, PScenario(facts=typed, as_of=as_of, sector=context.get("sector"),
                                                        regime=context.get("regime")))
        except (IpbError, ValueError, TypeError) as exc:
            out.append(f"question: cannot be written for the scenario ({getattr(exc, 'message', exc)})")
            return out
        if question != item["question"]:
            out.append(question_problem(item["question"], question, item["manifest"]))
        out += _alike_inputs(frame)
        out += margin_problems(frame, item["manifest"], typed)
        return (out + _vintage_problems(frame, item["manifest"]) + _date_problems(frame, item["manifest"], as_of, typed)
                + period_problems(frame, context.get("regime"), typed))

    def frame(self, compiled: Sequence[CompiledCard]) -> Frame | None:
        """The frame of ``compiled`` (remembered per deck), or None when the cards no longer make one."""
        last = self.last
        if last is not None and len(last[0]) == len(compiled) and _same(last[0], compiled):
            return last[1]  # the deck of the item before (a file is mostly one deck)
        key = tuple(map(id, compiled))
        found = self.frames.get(key)
        if found is None or any(a is not b for a, b in zip(found[0], compiled)):
            if len(self.frames) >= 64:
                self.frames.clear()
            try:
                frame: Frame | None = build_frame(list(compiled))
            except IpbError:
                frame = None  # the cards no longer make a frame: their gold is reported instead
            found = self.frames[key] = (tuple(compiled), frame)
        self.last = found
        return found[1]


def margin_problems(frame: Frame, manifest: Mapping[str, Any], typed: Mapping[str, Any]) -> list[str]:
    """A line for each flip of ``manifest`` whose moved fact is not visibly past its gate's line (SR13).

    The fact moved back towards the base by its display step less one grid step
    (:func:`ipb.perturb.visible.back_value`; with its deck partners following, :func:`ipb.perturb.deck_moves.follow`,
    when the flip moved them) must give every card the final verdict the item's facts give; a flip item made
    before the rule can fail this. Only the ``flip`` operator places a value at a line on purpose: a drawn value
    near one is left alone.
    """
    out: list[str] = []
    for op in manifest.get("operators") or ():
        details = op.get("details") if isinstance(op, _MAPPING) else None
        if op.get("name") != "flip" or not isinstance(details, _MAPPING):
            continue
        name, direction = details.get("input"), details.get("direction")
        if not isinstance(name, str):
            continue
        spec = frame.inputs.get(name)
        value = typed.get(name)
        if spec is None or direction not in ("up", "down") or not isinstance(value, Decimal):
            continue
        grid = frame.grids.get(name)
        if grid is None:
            continue
        back = back_value(value, grid.step, direction == "up")
        if back == value:
            continue  # the question shows every digit of the grid at this size: the nearest flip is visible
        moved = {**typed, name: back}
        if details.get("tied"):
            partners = follow(frame, typed, name, back, value)
            if partners is None:
                continue  # no deck scenario states that value: nothing a reader could misread it as
            moved.update(partners)
        problem = visible_problem(spec, value, grid.step, direction == "up", frame.outcomes(typed),
                                  frame.outcomes(moved))
        if problem is not None:
            out.append(f"flip: {problem}")
    return out


def manifest_problems(manifest: Mapping[str, Any], scenario: Mapping[str, Any]) -> list[str]:
    """The manifest's own records that disagree with the scenario or with each other (s32break).

    ``context.as_of`` must be the scenario's date (the id hashes the scenario's, so an edited manifest date went
    unseen), and the recipe's operators, read left to right (``sector+metric:arr`` is sector then metric), must be
    the names in ``operators``.

    >>> manifest_problems({"context": {"as_of": "1990-01-01"}, "recipe": "metric", "operators": [{"name": "metric"}]},
    ...                   {"as_of": "2024-06-30"})
    ["manifest/context/as_of: '1990-01-01' is not the scenario's date '2024-06-30'"]
    >>> manifest_problems({"context": {}, "recipe": "sector+metric:arr", "operators": [{"name": "sector"}, {"name": "flip"}]}, {})
    ["manifest/recipe: 'sector+metric:arr' names the operators ['sector', 'metric'], but manifest/operators holds ['sector', 'flip']"]
    """
    out: list[str] = []
    context = manifest.get("context") or {}
    if context.get("as_of") != scenario.get("as_of"):
        out.append(f"manifest/context/as_of: {context.get('as_of')!r} is not the scenario's date {scenario.get('as_of')!r}")
    recipe = manifest.get("recipe")
    if isinstance(recipe, str):
        named = [part.split(":", 1)[0].strip() for part in recipe.split("+")]
        ran = [op.get("name") if isinstance(op, _MAPPING) else op for op in manifest.get("operators") or ()]
        if named != ran:
            out.append(f"manifest/recipe: {recipe!r} names the operators {named}, but manifest/operators holds {ran}")
    return out


def _vintage_problems(frame: Frame, manifest: Mapping[str, Any]) -> list[str]:
    """Each manifest card whose recorded vintage years are not the ones its card gives.

    ``ipb score`` reads FM-6's framework year from the manifest first (:mod:`ipb.scoring.items`), so an edited
    vintage moved FM-6 while the item passed verify (s32break). Checked only while the cards are unchanged.
    """
    out: list[str] = []
    for entry, window in zip(manifest.get("cards") or (), frame.windows):
        have = entry.get("vintage") if isinstance(entry, _MAPPING) else None
        years = (have.get("start"), have.get("end")) if isinstance(have, _MAPPING) else None
        if years != (window.start, window.end):  # not its source: an install without the investor registry says "card"
            out.append(f"manifest/cards/{window.card_id}/vintage: {have!r}, but the card gives the years "
                       f"{window.start}-{window.end if window.end is not None else ''}")
    return out


def _same(deck: Sequence[CompiledCard], compiled: Sequence[CompiledCard]) -> bool:
    """Whether two decks of equal length hold the same compiled cards (by identity), in order."""
    for a, b in zip(deck, compiled):
        if a is not b:
            return False
    return True


def _date_problems(frame: Frame, manifest: Mapping[str, Any], as_of: dt.date | None,
                   typed: Mapping[str, Any]) -> list[str]:
    """The manifest's FM-6 marks against the cards' vintage at ``as_of``, facts the date rules out
    (:meth:`ipb.perturb.registries.RegimeRegistry.anachronisms`), and its macro figures' publication dates
    against the decision-time cutoff (:func:`ipb.perturb.vintage.cutoff_problems`)."""
    out: list[str] = []
    want = frame.anachronisms(as_of)
    if manifest.get("anachronisms") != want or manifest.get("fm6_probe") is not bool(want):
        out.append(f"manifest/anachronisms: {manifest.get('anachronisms')!r} (fm6_probe "
                   f"{manifest.get('fm6_probe')!r}), but the scenario date gives {want!r} (fm6_probe {bool(want)})")
    if as_of is not None:
        # a fact the date rules out (a size above the year's largest company, a category value before it existed,
        # a negative rate before one was seen): made before the rule, or with another regimes file (stop 30)
        regimes = frame.regimes
        timed = frame.memo.get("verify_timed_inputs")
        if timed is None:  # the inputs a date can rule out: read once per frame
            timed = frame.memo["verify_timed_inputs"] = frozenset(
                n for n, spec in frame.inputs.items()
                if (spec.type == "category" and regimes.value_since) or (regimes.largest and regimes.is_size(spec))
                or n in regimes.streak_inputs
                or regimes.era_multiple(spec)
                or (regimes.negative_since and spec.type != "category" and regimes.fact_for(spec) is not None))
        # s58speedver: asked of the registry, which remembers each fact's answer (the frame's memo, keyed by all
        # the timed facts together, missed on nearly every item); the same facts, in the same order
        stale = regimes.anachronisms(frame.inputs, {n: v for n, v in typed.items() if n in timed}, as_of) \
            if timed else []
        if stale:
            out.append(f"date: facts that could not hold on {as_of.isoformat()}: " + ", ".join(stale))
    dates = manifest.get("fact_dates") or {}
    try:
        published = {name: dt.date.fromisoformat(day) for name, day in dates.items()}
    except (TypeError, ValueError):
        return out + [f"manifest/fact_dates: {dates!r} holds a value that is not a date (YYYY-MM-DD)"]
    if published and as_of is None:
        out.append("manifest/fact_dates: an undated scenario cannot hold dated macro figures")
    elif as_of is not None:
        names = frame.memo.get("date_valued_inputs")
        if names is None:  # the date- and year-valued inputs: read once per frame
            names = frame.memo["date_valued_inputs"] = frozenset(n for n, s in frame.inputs.items()
                                                           if s.type in ("date", "year"))
        dated = {n: v for n, v in typed.items() if n in names} if names else {}
        out += [f"look-ahead: {p}" for p in cutoff_problems(as_of, dated, published)]
    return out


def _alike_inputs(frame: Frame) -> list[str]:
    """One problem per pair of the frame's inputs that a question states in the same words
    (:func:`ipb.perturb.render.fact_sentence_errors`): such an item was written faithfully and still cannot be read
    (s39user: items made before ``ipb perturb`` refused such a card). Worked out once per frame."""
    said = frame.memo.get("alike_inputs")
    if said is None:
        said = frame.memo["alike_inputs"] = [f"question: {e.message}" for c in frame.cards
                                             for e in fact_sentence_errors(c.card)]
    return list(said)


def period_problems(frame: Frame, regime_id: Any, typed: Mapping[str, Any]) -> list[str]:
    """Each regime growth figure the item states under an input whose words name another period (s39, issue 18).

    An item dated into a regime before the s38 period fix (:mod:`ipb.perturb.periods`) copied a fact's ``value``
    (GDP: the latest quarter at an annual rate) into any input standing for it, so a card input worded "over the
    past year" stated 2009's -6.2% (Q4 2008 annualised; the four-quarter change was -0.8%). Its question is the one
    this ipb writes for its facts and its gold is right for them, so no other check saw it. Reported: an input of
    the frame that stands for a regime fact with declared ``periods:``, whose stated engine value is the fact's
    ``value`` while the figure for the input's period (:func:`ipb.perturb.periods.period_value`) is another or
    none. A figure that differs from ``value`` (moved by a later operator, or the base's own) is not the regime's
    and is not judged here. Empty for an item with no regime (``manifest.context.regime``) or an unknown one.
    """
    if not isinstance(regime_id, str) or not typed:
        return []
    from ipb.engine.scenario import convert_fact
    from ipb.perturb.periods import PERIODS, input_period, period_value

    regimes = frame.regimes
    regime = next((r for r in regimes.regimes if r.id == regime_id), None)
    if regime is None:
        return []
    said = {"quarter_annualised": "the latest quarter at an annual rate", "year": "the past year", "month": "the month"}
    out: list[str] = []
    for name, value in typed.items():
        spec = frame.inputs.get(name)
        metric = regimes.fact_for(spec) if spec is not None and spec.describes != "company" else None
        fact = regime.facts.get(metric.id) if metric is not None and metric.periods else None
        if spec is None or metric is None or fact is None:
            continue
        right = period_value(spec, metric, fact)
        if right is not None and right == fact.value:
            continue
        try:
            if convert_fact(spec, fact.value) != value:
                continue
        except (IpbError, ValueError, TypeError, ArithmeticError):
            continue
        want = input_period(spec)
        assert want in PERIODS
        instead = (f"the regime's figure over {said[want]} is {right}" if right is not None else
                   f"the regime gives no figure over {said[want]}, so ipb perturb now leaves it undisclosed")
        out.append(f"fact {name} = {fact.value} is regime {regime_id}'s {metric.id} for {said[metric.periods[0]]}, "
                   f"but the input is worded over {said[want]} ({instead}): the item was made before the period fix "
                   "(s38); make it again with this ipb's ipb perturb")
    return out


def question_problem(have: str, want: str, manifest: Mapping[str, Any]) -> str:
    """The line ``ipb verify`` gives an item whose question ``have`` is not the ``want`` this ipb writes for its
    scenario: it names both causes (the question was edited, or an ipb with other question wording wrote it) and,
    when the manifest records the ipb that made the item (``tool.version``), that version beside this one.

    >>> line = question_problem("The margin is 5%.", "The margin is 6%.", {})
    >>> print(line.split(": either")[0].split("scenario ")[1])
    (at character 15: item says '5%.', expected '6%.')
    >>> "either the question was edited" in line, "does not record which ipb made it" in line
    (True, True)
    """
    from ipb.perturb.items import made_by, tool_version

    return (f"question: differs from what this ipb ({tool_version()}) writes for the scenario "
            f"({_first_difference(have, want)}): either the question was edited (a fact, the date or the context no "
            f"longer stated as in the scenario), or it was written by {made_by(manifest, 'question wording')}; if the "
            "wording changed, make the items again with this ipb's ipb perturb")


def _first_difference(have: str, want: str) -> str:
    """Where two texts first differ, as a short quote of each.

    >>> _first_difference("The margin is 5%.", "The margin is 6%.")
    "at character 15: item says '5%.', expected '6%.'"
    """
    at = next((i for i, (a, b) in enumerate(zip(have, want)) if a != b), min(len(have), len(want)))
    return f"at character {at + 1}: item says {have[at:at + 40]!r}, expected {want[at:at + 40]!r}"
