"""Re-execute published items and report any whose gold no longer matches.

A card edit that silently changes published gold is the bug this catches: for
every line of an items file, :func:`verify_items` checks the line against
``grammar/item.schema.json``, executes its scenario against the *current*
card(s) and compares the result with the item's gold reasoning program(s),
final verdict and trigger, field by field. A card whose content hash differs
from the one in the manifest is reported too (an edit that kept the gold is
harmless, and is said so).
"""

from __future__ import annotations

import gc
import json
import multiprocessing
import os
from array import array
from dataclasses import dataclass, field
from hashlib import blake2b
from itertools import pairwise, starmap
from math import ceil
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

import jsonschema

from ipb.engine._json import NOT_CANONICAL, parse_canonical_line, parse_json_line
from ipb.engine.grp_view import grp_view
from ipb.engine.card import Card
from ipb.engine.graph import CompiledCard
from ipb.engine.registry import compiled_card, find_card, is_card_copy, use_cards
from ipb.engine.scenario import facts_from_mapping
from ipb.errors import IpbError, LoadError
from ipb.perturb.deck import constraints_from_record
from ipb.perturb.verify_memo import ConstraintMemo, GrpMemo, conditions_agree
from ipb.perturb.verify_self import SelfCheck, base_facts
from ipb.perturb.verify_sectors import sector_rule_problems
from ipb.perturb.verify_labels import label_round_trip
from ipb.perturb.verify_market import MarketCheck
from ipb.perturb.values import read_literal
from ipb.perturb.items import (ITEM_VERSION, KNOWLEDGE_CHANGED, QUESTION_EDITED, READABLE_VERSIONS, condition_problems, item_schema, made_by,
                               migrate_item)

#: Fewer lines than this are verified in this process even with workers.
POOL_MIN = 1000

__all__ = ["RecordCheck", "Verification", "verify_items", "verify_lines", "gold_differences", "reportable", "mark_repeated_ids"]


@dataclass
class RecordCheck:
    """The verdict on one line: ``ok``, ``mismatch`` (gold differs), ``constraint`` (the scenario breaks a
    card constraint), ``error`` (unreadable item) or ``duplicate`` (an earlier line has the same item id:
    scoring would use one of the two; or the same scenario under another base's id: the question is asked
    twice)."""

    record: int
    line: int
    id: str | None
    status: str
    problems: list[str] = field(default_factory=list)
    changed_cards: list[str] = field(default_factory=list)
    #: The card constraints the scenario breaks (also listed in ``problems``), whatever the status.
    constraints: list[str] = field(default_factory=list)
    #: The item was an older version, read through :func:`ipb.perturb.items.migrate_item`.
    migrated: bool = False
    #: The item disagrees with itself (also listed in ``problems``): its id, question, facts' ranges or dates do not
    #: fit its scenario (:mod:`ipb.perturb.verify_self`), whether or not its gold matches.
    inconsistencies: list[str] = field(default_factory=list)
    #: Some recorded gold (GRP, verdict fields or conditions) differs from the cards' execution; a ``mismatch``
    #: with only ``inconsistencies`` has a right gold.
    gold_differs: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"record": self.record, "line": self.line, "id": self.id, "status": self.status,
                "problems": self.problems, "changed_cards": self.changed_cards, "constraints": self.constraints,
                "migrated": self.migrated, "inconsistencies": self.inconsistencies}


@dataclass
class Verification:
    """Every line's check, in file order (only the problems are kept when there are many)."""

    file: str
    total: int
    checks: list[RecordCheck]
    #: Per card of the items, the card checked against and whether its hash differs from the items'
    #: (:func:`ipb.perturb.verify_cards.card_sources`; s53newuser finding 10).
    cards: list[dict[str, Any]] = field(default_factory=list)

    @property
    def mismatched(self) -> list[RecordCheck]:
        return [c for c in self.checks if c.status == "mismatch"]

    @property
    def gold_mismatched(self) -> list[RecordCheck]:
        """Items whose recorded gold differs from the cards' execution."""
        return [c for c in self.checks if c.status == "mismatch" and c.gold_differs]

    @property
    def inconsistent(self) -> list[RecordCheck]:
        """Items that disagree with themselves (id, question, ranges or dates), whether or not the gold matches."""
        return [c for c in self.checks if c.inconsistencies]

    @property
    def errors(self) -> list[RecordCheck]:
        return [c for c in self.checks if c.status == "error"]

    @property
    def duplicates(self) -> list[RecordCheck]:
        """Items whose id an earlier line already used."""
        return [c for c in self.checks if c.status == "duplicate"]

    @property
    def violations(self) -> list[RecordCheck]:
        """Items whose scenario breaks a constraint of one of their cards (whether or not the gold matches)."""
        return [c for c in self.checks if c.constraints]

    @property
    def ok(self) -> bool:
        return not self.mismatched and not self.errors and not self.violations and not self.duplicates

    @property
    def migrated(self) -> int:
        """Items of an older format version, read by migration."""
        return sum(1 for c in self.checks if c.migrated)

    @property
    def changed_cards(self) -> list[str]:
        return sorted({c for check in self.checks for c in check.changed_cards})

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": 1,
            "file": self.file,
            "total": self.total,
            "verified": self.total - len([c for c in self.checks if c.status != "ok"]),
            "mismatched": len(self.gold_mismatched),
            "inconsistent": len(self.inconsistent),
            "constraint_violations": len(self.violations),
            "errors": len(self.errors),
            "duplicates": len(self.duplicates),
            "changed_cards": self.changed_cards,
            "cards": self.cards,
            "migrated": self.migrated,
            "problems": [c.to_dict() for c in self.checks if c.status != "ok"],
        }


def gold_differences(expected: Mapping[str, Any], actual: Mapping[str, Any], where: str = "") -> list[str]:
    """Readable differences between a recorded GRP and a fresh one (empty when equal).

    >>> gold_differences({"investment_verdict": "DECLINE"}, {"investment_verdict": "INVEST"})
    ['investment_verdict: DECLINE -> INVEST']
    """
    if expected == actual:
        return []
    found: list[str] = []
    for key in sorted(set(expected) | set(actual)):
        a, b = expected.get(key), actual.get(key)
        if a == b:
            continue
        if key == "gold_program" and isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                found.append(f"{where}gold_program: {len(a)} gates -> {len(b)} gates")
                continue
            for ga, gb in zip(a, b):
                for field_ in sorted(set(ga) | set(gb)):
                    if ga.get(field_) != gb.get(field_):
                        found.append(f"{where}gate {ga.get('gate')} {ga.get('name')}: {field_} "
                                     f"{_show(ga.get(field_))} -> {_show(gb.get(field_))}")
            continue
        found.append(f"{where}{key}: {_show(a)} -> {_show(b)}")
    return found


#: Fields of a GRP gate that decide (the rest, computed value, kill criterion, name and required elements, is text
#: ipb writes from the card).
_DECISION = ("gate", "verdict", "kill_triggered")


def wording_only(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> str | None:
    """When two GRPs differ only in text ipb writes (a gate's computed value, kill criterion, name or required
    elements), those fields and gates ("computed_value of gate 3"); None when a decision differs (a gate's
    verdict or kill, the number of gates, the final verdict, the trigger or another top-level field) or nothing.

    >>> g = {"investment_verdict": "INVEST", "gold_program": [{"gate": 1, "verdict": "PROCEED", "computed_value": "5%"}]}
    >>> wording_only(g, {**g, "gold_program": [{"gate": 1, "verdict": "PROCEED", "computed_value": "5.0%"}]})
    'computed_value of gate 1'
    >>> wording_only(g, {**g, "investment_verdict": "DECLINE"}) is None
    True
    """
    if expected == actual or any(expected.get(k) != actual.get(k) for k in set(expected) | set(actual)
                                 if k != "gold_program"):
        return None
    a, b = expected.get("gold_program"), actual.get("gold_program")
    if not (isinstance(a, list) and isinstance(b, list)) or len(a) != len(b):
        return None
    fields: dict[str, list[str]] = {}
    for ga, gb in zip(a, b):
        if not (isinstance(ga, Mapping) and isinstance(gb, Mapping)):
            return None
        for key in sorted(set(ga) | set(gb)):
            if ga.get(key) != gb.get(key):
                if key in _DECISION:
                    return None
                fields.setdefault(key, []).append(str(ga.get("gate")))
    return "; ".join(f"{k} of gate{'s' if len(g) > 1 else ''} {', '.join(g)}" for k, g in fields.items()) or None


def _show(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def _short(message: str, keep: int = 160) -> str:
    """A schema message that quotes a whole item, cut to its start and its end (the reason is at the end)."""
    return message if len(message) <= 2 * keep + 5 else f"{message[:keep]} ... {message[-keep:]}"


def _fast_validator() -> Any:
    """``jsonschema_rs``'s validator for the item schema when that package is installed, else None.

    It answers valid or not some 200 times faster than :mod:`jsonschema`;
    the messages for an invalid item always come from :mod:`jsonschema`.
    """
    try:
        import jsonschema_rs  # type: ignore[import-not-found]
    except ImportError:
        return None
    return jsonschema_rs.validator_for(item_schema())


def _convert(card: Card, name: str, raw: Any) -> Any:
    """The engine value of one fact of an item (None: not stated); the loader's error when it is bad."""
    spec = card.inputs.get(name)
    fast = read_literal(spec, raw) if spec is not None and isinstance(raw, str) else None
    return fast if fast is not None else facts_from_mapping(card, {name: raw}).get(name)


class _Checker:
    """Verifies lines; caches compiled cards, converted facts and the schema validators."""

    def __init__(self, cards: Mapping[str, str] | None = None, schema: bool = True) -> None:
        self.overrides = dict(cards or {})
        self.cards: dict[str, CompiledCard | IpbError] = {}
        self.validator = jsonschema.Draft202012Validator(item_schema()) if schema else None
        self.fast = _fast_validator() if schema else None
        #: card id -> input -> literal -> engine value: a literal such as "95%" is parsed once.
        self.values: dict[str, dict[str, dict[Any, Any]]] = {}
        #: Condition C of each deck of cards (:func:`ipb.perturb.items.condition_problems`).
        self.decks: dict[Any, Any] = {}
        #: Rendered GRPs and constraint answers already seen (:mod:`ipb.perturb.verify_memo`).
        self.grps = GrpMemo()
        self.constraints = ConstraintMemo()
        #: The item against itself: id, declared ranges, question (:mod:`ipb.perturb.verify_self`).
        self.own = SelfCheck()
        #: A dated item's market-state facts that its regime does not set (:mod:`ipb.perturb.verify_market`).
        self.market = MarketCheck()
        #: card id -> input -> literal -> why the literal's value is outside the card's range (those only).
        self.outside: dict[str, dict[str, dict[Any, str]]] = {}
        #: Compiled ``manifest.deck`` rules by (content hash, cards) (:meth:`deck_rules`).
        self.deck_memo: dict[Any, Any] = {}
        #: card id -> the file :meth:`card` found for it.
        self.paths: dict[str, Any] = {}

    def deck_rules(self, deck: Mapping[str, Any], cards: list[Card]) -> tuple[Any, ...]:
        """An item's ``manifest.deck`` compiled over its cards' inputs, once per (hash, cards)."""
        key = (deck.get("content_hash"), tuple(id(c) for c in cards))
        held = self.deck_memo.get(key)
        if held is None or held[0] != deck:
            inputs: dict[str, Any] = {}
            for card in cards:
                for name, spec in card.inputs.items():
                    inputs.setdefault(name, spec)
            held = self.deck_memo[key] = (deck, constraints_from_record(deck, inputs))
        return held[1]  # type: ignore[no-any-return]

    def typed(self, card: Card, facts: Mapping[str, Any], outside: list[str] | None = None,
              literals: dict[str, Any] | None = None) -> tuple[dict[str, Any], int]:
        """Those of ``facts`` that are inputs of ``card``, typed (``facts_from_mapping``, each distinct hashable
        literal converted once; in ``facts`` order), and how many of ``facts`` those are (all of them: no fact is
        left for another card). ``literals``, when given, gets each of those facts' literal as the memo of values
        keys it (a string, or ``(type, literal)``; an unhashable literal itself), for
        :meth:`ipb.perturb.verify_memo.ConstraintMemo.broken`.

        A line per typed fact outside the range ``card`` declares for it is added to ``outside`` (in ``facts``
        order; :meth:`ipb.perturb.verify_self.SelfCheck.range_problems`): the range is checked when a literal is
        converted, so a literal met again costs one set lookup only when some literal of the card was outside.
        """
        out: dict[str, Any] = {}
        per_card = self.values.get(card.id)
        if per_card is None:
            per_card = self.values[card.id] = {}
        bad = self.outside.get(card.id)  # input -> literal key -> problem, for the literals outside the range
        inputs = card.inputs
        mine = 0
        for name, raw in facts.items():
            known = per_card.get(name)
            if known is None:
                if name not in inputs:
                    continue
                known = per_card[name] = {}
            mine += 1
            # a literal other than a string is remembered with its type: 1 and true are equal keys of a dict, but
            # a bool input refuses 1 and a number input refuses true
            key = raw if raw.__class__ is str else (raw.__class__, raw)
            if literals is not None:
                literals[name] = key
            try:
                value = known[key]
            except KeyError:
                value = known[key] = _convert(card, name, raw)
                if value is not None and (problem := self.own.range_problem(card, name, value)) is not None:
                    bad = self.outside.setdefault(card.id, {})
                    bad.setdefault(name, {})[key] = problem
            except TypeError:  # an unhashable value (a list or mapping): convert it to get the error
                value = _convert(card, name, raw)
                if value is not None and outside is not None:
                    outside += self.own.range_problems(card, {name: value})
                    out[name] = value
                    continue
            if value is not None:
                out[name] = value
                if bad is not None and outside is not None:
                    problem = bad.get(name, {}).get(key)
                    if problem is not None:
                        outside.append(problem)
        return out, mine

    def card(self, card_id: str, sha256: str | None = None) -> CompiledCard:
        """The current card ``card_id`` (``--card`` override, ``--cards``/``IPB_CARDS``, bundled), else the
        item's own copy at ``sha256`` (:func:`ipb.engine.registry.find_card` with ``current_first``)."""
        found = self.cards.get(card_id)
        if found is None:
            try:
                ref = self.overrides.get(card_id, card_id)
                path = self.paths[card_id] = find_card(ref, sha256, current_first=True)
                found = compiled_card(str(path))
            except IpbError as exc:
                found = exc
            self.cards[card_id] = found
        if isinstance(found, IpbError):
            raise found
        return found

    def knowledge_given(self, hashes: Mapping[str, str], changed: Sequence[str]) -> dict[str, str]:
        """Card id -> the content hash condition B's knowledge is recomputed with for that listed card, instead of the
        card found by id (:func:`ipb.perturb.items.condition_problems`): the item's own hash for each of its cards
        that changed (``changed``: already a warning, and a changed card is a warning, not a failure,
        docs/perturbation.md "Verifying items after a card edit"), and the hash of the card checked now for every
        other ``--card ID=PATH`` card, which the lookup by id does not see. s64 new user F1: a registered card
        edited without a gold change failed every record through ``--cards DIR`` (the lookup found the edit) and
        passed with a warning through ``--card ID=PATH`` (the lookup found the items' copy). An items' own copy
        (:func:`~ipb.engine.registry.is_card_copy`) is never given: an edited copy still fails (s61nfix, s62 new user N3)."""
        given: dict[str, str] = {}
        for card_id in self.overrides:
            if not is_card_copy(self.overrides[card_id]):
                try:
                    given[card_id] = self.card(card_id, hashes.get(card_id)).card.content_hash
                except IpbError:  # condition B lacks it too: the lookup by id gives its answer
                    continue
        given.update({card_id: hashes[card_id] for card_id in changed if not is_card_copy(self.paths.get(card_id))})
        return given

    def check(self, record: int, line_no: int, text: str | bytes) -> RecordCheck:
        """The check of one line (its text, or its UTF-8 bytes without the ``\\n``)."""
        # A line in canonical form (every line ipb perturb writes) is read faster, to the same value; any other
        # goes to the project's one JSON Lines record reader (byte-order mark, depth limit, located errors).
        item = parse_canonical_line(text)
        if item is NOT_CANONICAL:
            if isinstance(text, bytes):
                try:
                    text = text.decode("utf-8")
                except UnicodeDecodeError as exc:  # the file is refused as a whole (verify_items)
                    raise _NotUtf8 from exc
            try:
                item = parse_json_line(text.removeprefix("\ufeff").removesuffix("\r"), "", line_no)
            except LoadError as exc:
                return RecordCheck(record, line_no, None, "error", [f"{exc.message} at column {exc.column}"])
        if not isinstance(item, dict):
            return RecordCheck(record, line_no, None, "error", ["not a JSON object"])
        ident = item.get("id") if isinstance(item.get("id"), str) else None
        if self.validator is not None and not (self.fast is not None and self.fast.is_valid(item)):
            problems = [f"{'/'.join(map(str, e.absolute_path)) or 'item'}: {_short(e.message)}"
                        for e in sorted(self.validator.iter_errors(item), key=lambda e: list(map(str, e.absolute_path)))]
            if problems:
                return RecordCheck(record, line_no, ident, "error", problems[:5])
        if item.get("version") not in READABLE_VERSIONS:
            return RecordCheck(record, line_no, ident, "error", [
                f"item version {item.get('version')!r} cannot be read (readable: "
                f"{', '.join(map(str, READABLE_VERSIONS))}); make the items again with ipb perturb"])
        # a version 1 item has no conditions block (version 2 brought it): one that carries it was relabelled, and
        # verify's own checks, which an old item skips, still apply to it (s32break: "version": 1 let an edited
        # question, id or manifest through)
        relabelled = item.get("version") == 1 and "conditions" in item
        migrated = item.get("version") != ITEM_VERSION and not relabelled
        try:
            item = migrate_item(item)
            check = self._compare(record, line_no, ident, item, own=not migrated)
            check.migrated = migrated
            if relabelled:
                note = ("version: 1, but the item carries the conditions block that version 2 brought: the version "
                        "was edited (a version 1 item skips the checks of the item against itself)")
                check.problems.insert(0, note)
                check.inconsistencies.insert(0, note)
                check.status = "mismatch"
            return check
        except IpbError as exc:
            return RecordCheck(record, line_no, ident, "error", [exc.message + (f" (did you mean {exc.suggestion!r}?)"
                                                                                 if exc.suggestion else "")])
        except (KeyError, TypeError, AttributeError) as exc:
            return RecordCheck(record, line_no, ident, "error", [f"malformed item: {exc!r}"])

    def _compare(self, record: int, line_no: int, ident: str | None, item: dict[str, Any],
                 own: bool = True) -> RecordCheck:
        layer = item["layer"]
        scenario = item["scenario"]
        facts = scenario["facts"]
        if layer == "L7":
            golds = [{"card": item["card"], "grp": item["grp"], "investment_verdict": item["investment_verdict"],
                      "verdict_trigger": item["verdict_trigger"]}]
        else:
            golds = item["golds"]
        hashes = {c["id"]: c["content_hash"] for c in item["manifest"]["cards"]}
        problems: list[str] = []
        own_problems: list[str] = []  # the item against itself (ipb.perturb.verify_self)
        knowledge: list[str] = []  # condition B's knowledge version against this installation's (stop 59)
        broken: list[str] = []
        changed: list[str] = []
        cards: list[Card] = []
        decks: list[CompiledCard] = []
        stated: dict[str, Any] = {}
        claimed_all = False
        for gold in golds:
            compiled = self.card(gold["card"], hashes.get(gold["card"]))
            card = compiled.card
            cards.append(card)
            decks.append(compiled)
            literals: dict[str, Any] = {}
            typed, mine = self.typed(card, facts, own_problems, literals)  # with the facts outside the card's ranges
            stated.update(typed)
            claimed_all = claimed_all or mine == len(facts)
            for k in self.constraints.broken(card, typed, literals):
                rule = f"{k.derive} == {k.expr.source}" if k.derive else k.expr.source
                broken.append(f"breaks constraint {card.id}/{k.id}: {rule}")
            # only what the GRP shows (the engine's grp_view), rendered only when it differs from the item's
            view = grp_view(compiled, typed)
            where = f"{card.id}: " if layer != "L7" else ""
            differs = self.grps.grp_if_differs(view, gold["grp"], scenario.get("id", ident),
                                               scenario.get("layer", layer))
            if differs is not None:
                problems += gold_differences(gold["grp"], differs, where)
                wording = wording_only(gold["grp"], differs)
                if wording and hashes.get(card.id) == card.content_hash:  # same card: the GRP's text changed
                    problems.append(
                        f"{where}grp: only its wording differs ({wording}); every gate verdict, kill, the final verdict "
                        "and the trigger agree with the card: either the GRP was edited, or it was written by "
                        f"{made_by(item['manifest'], 'GRP wording')}; if the wording changed, make the items again "
                        "with this ipb's ipb perturb")
            shown = {"investment_verdict": view.outcome, "verdict_trigger": view.trigger}
            for key in ("investment_verdict", "verdict_trigger"):
                # the item's own copy of the verdict, when its GRP already agrees with the card
                if gold[key] != shown[key] and gold["grp"].get(key) == shown[key]:
                    problems.append(f"{where}{key} (item field): {gold[key]} -> {shown[key]}")
            if hashes.get(card.id) not in (None, card.content_hash):
                changed.append(card.id)
        deck = item["manifest"].get("deck")
        if deck is not None:  # the L8 base's own constraints, recorded in the manifest (perturb/deck.py)
            for k in self.deck_rules(deck, cards):
                if k.broken(stated):
                    broken.append(f"breaks constraint deck/{k.id}: {k.expr.source}")
        frame = self.own.frame(decks)  # the sector registry's rules, as a run refuses candidates for them (stop 65)
        if frame is not None:
            broken += sector_rule_problems(frame, stated, lambda: {k: v for c in cards for k, v in self.typed(
                c, base_facts(item))[0].items()}, (item["manifest"].get("context") or {}).get("sector"))
        stray = [] if claimed_all else sorted(set(facts) - {k for c in cards for k in facts if k in c.inputs})
        if stray:
            raise LoadError(f"fact {stray[0]!r} is not an input of any of the item's cards", rule="fact-name",
                            name=stray[0])
        if not conditions_agree(item, self.decks):  # an edited question's condition B hash: no gold mismatch (s57fixio)
            for found in condition_problems(item, self.decks, self.knowledge_given(hashes, changed)):
                (own_problems if found.startswith(QUESTION_EDITED) else knowledge if found.startswith(KNOWLEDGE_CHANGED)
                 else problems).append(found)
        own_problems += self.market.problems(item, decks)  # any version: older code made such items (s57fixio)
        if own:  # id and question against the scenario (ipb.perturb.verify_self)
            own_problems += self.own.problems(item, decks, stated, unchanged=not changed)
            own_problems += label_round_trip(self.own, item, decks)  # a label stating another fact (s58fixw)
        gold_differs = bool(problems)
        problems += own_problems + knowledge  # a changed knowledge base: neither the gold nor an edit of the item
        if (problems or broken) and changed:
            (problems or broken).append(
                f"card {', '.join(changed)} changed since the item was made (content hash differs; "
                f"the item's own copy is {', '.join(f'ipb-cards/{hashes[c]}.yaml' for c in changed)})")
        status = "mismatch" if problems else "constraint" if broken else "ok"
        return RecordCheck(record, line_no, ident, status, problems + broken, changed, broken,
                           inconsistencies=own_problems, gold_differs=gold_differs)

    def run(self, block: Iterable[tuple[int, int, str | bytes]]) -> Iterator[RecordCheck]:
        return starmap(self.check, block)


_CHECKER: _Checker | None = None

#: ``(record, line, item id)`` of a checked record, for :func:`mark_repeated_ids`.
IdAt = tuple[int, int, str]


def reportable(checks: Iterable[RecordCheck]) -> tuple[list[RecordCheck], list[IdAt]]:
    """The checks a :class:`Verification` keeps (problems, changed cards, migrations), and where every item id was
    seen (ok records included), so that repeated ids can be found across slices checked apart."""
    kept: list[RecordCheck] = []
    ids: list[IdAt] = []
    for check in checks:
        if check.id is not None:
            ids.append((check.record, check.line, check.id))
        if check.status != "ok" or check.changed_cards or check.migrated:
            kept.append(check)
    return kept, ids


def scenario_key(ident: str) -> str:
    """The part of an item id that names its scenario: the 16 hex digits of the scenario's SHA-256 after the base
    id (``IPB-MAR-MC-003-770c788bbd0f5fbd`` -> ``770c788bbd0f5fbd``), or the whole id when it has no such tail.

    >>> scenario_key("IPB-MAR-MC-003-770c788bbd0f5fbd"), scenario_key("q1")
    ('770c788bbd0f5fbd', 'q1')
    """
    _, dash, tail = ident.rpartition("-")
    if dash and len(tail) == 16 and all(c in "0123456789abcdef" for c in tail):
        return tail
    return ident


#: What :func:`mark_repeated_ids` says of an item whose scenario an earlier item of another id has.
REPEATED_SCENARIO = ("repeats the scenario of an earlier item under another base's id (the same 16-hex digest, "
                     "so the same facts, date and question): a benchmark would ask it twice; items of several "
                     "bases or runs concatenated keep both, so keep one")


def mark_repeated_ids(checks: Sequence[RecordCheck], ids: Iterable[IdAt]) -> list[RecordCheck]:
    """``checks`` in record order, with status ``duplicate`` on every record whose item id an earlier record used,
    or whose scenario (:func:`scenario_key`) an earlier record of another id has.

    Two items with one id cannot both be scored (``ipb score`` keeps the first, ``ipb respond`` refuses the
    file), so the second is a problem even when its gold matches. Two ids with one scenario come from runs of
    one card over several bases (or the same run twice) written into one file: both are scored, so the same
    question counts twice (s43user: 193 of 1,050 Marks items made from the card's seven bundled bases).

    >>> mark_repeated_ids([], [(1, 1, "a"), (2, 3, "a")])[0].problems
    ["item id 'a' is used again (first on line 1); ipb score keeps the first, ipb respond refuses the file"]
    >>> mark_repeated_ids([], [(1, 1, "B1-770c788bbd0f5fbd"), (2, 2, "B2-770c788bbd0f5fbd")])[0].status
    'duplicate'
    """
    by_record = {c.record: c for c in checks}
    first: dict[str, int] = {}
    first_scenario: dict[str, str] = {}
    for record, line, ident in sorted(ids):
        if ident not in first:
            first[ident] = line
            if first_scenario.setdefault(scenario_key(ident), ident) == ident:
                continue
            message = REPEATED_SCENARIO
        else:
            message = (f"item id {ident!r} is used again (first on line {first[ident]}); ipb score keeps the first, "
                       "ipb respond refuses the file")
        check = by_record.get(record)
        if check is None:
            by_record[record] = RecordCheck(record, line, ident, "duplicate", [message])
        else:
            check.problems.append(message)
            if check.status in ("ok", "constraint"):
                check.status = "duplicate"
    return sorted(by_record.values(), key=lambda c: c.record)


def _init(cards: Mapping[str, str] | None, schema: bool, dirs: Sequence[str] = (), items: str | None = None) -> None:
    global _CHECKER
    use_cards(dirs, items)
    _CHECKER = _Checker(cards, schema)


def _run_block(task: tuple[str, int, int, int, int]) -> tuple[list[RecordCheck], "_IdLog"]:
    """Verify the bytes ``[start, stop)`` of a file in a worker; only checks worth reporting (and the ids, as
    an :class:`_IdLog`) travel back.

    The worker reads its own block, so the lines never travel between processes.
    """
    assert _CHECKER is not None
    path, start, stop, first_record, first_line = task
    with open(path, "rb") as handle:
        handle.seek(start)
        data = handle.read(stop - start)
    records = [(first_record + i, first_line + j, t) for i, (j, t) in
               enumerate((j, t) for j, t in enumerate(data.split(b"\n")) if not _blank(t))]
    log = _IdLog()
    return _reportable_logged(_CHECKER.run(records), log), log


class _IdLog:
    """Where each item id was seen, in 16 bytes a record: the record number and a 64-bit BLAKE2b of the id's
    scenario part (:func:`scenario_key`: two records with one id share it, and so do two ids of one scenario).

    :func:`reportable` keeps ``(record, line, id)`` tuples, about 200 bytes a
    record (20 MB at 100,000 items); this log keeps two ``array`` columns.
    Hashes seen twice are found once, at the end, by sorting the hash column
    (a transient list of some 40 bytes a record), not looked up record by record.
    Only records with such a hash can repeat an id; their exact ids are read
    again from the file (:func:`_repeated_ids`), so two different ids that
    share a hash mark nothing.
    """

    __slots__ = ("records", "hashes")

    def __init__(self) -> None:
        self.records = array("q")
        self.hashes = array("Q")

    def add(self, record: int, ident: str) -> None:
        self.records.append(record)
        key = scenario_key(ident)
        self.hashes.append(int.from_bytes(blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).digest(),
                                          "little"))

    def extend(self, other: "_IdLog") -> None:
        """Add another log's records (a worker's block), in order."""
        self.records.extend(other.records)
        self.hashes.extend(other.hashes)

    def suspects(self) -> set[int]:
        """Record numbers whose scenario hash another record shares (a superset of those that repeat an id or a
        scenario)."""
        ordered = sorted(self.hashes)
        twice = {a for a, b in pairwise(ordered) if a == b}
        del ordered
        if not twice:
            return set()
        return {r for r, h in zip(self.records, self.hashes) if h in twice}


#: Records checked between two collections of young cyclic garbage (:func:`_reportable_logged`).
COLLECT_EVERY = 4096


def _reportable_logged(checks: Iterable[RecordCheck], log: _IdLog) -> list[RecordCheck]:
    """:func:`reportable` with the ids logged compactly in ``log`` instead of returned as tuples.

    While ``checks`` are made, the cyclic garbage collector does not run by
    itself: each line makes a few hundred containers that reference counting
    frees, and its automatic passes (a full one walks every object of the
    process) cost about a tenth of verification. Young cyclic garbage is
    collected every :data:`COLLECT_EVERY` records instead (``gc.collect(1)``),
    so memory stays flat in the number of records; the collector's state is
    restored afterwards.
    """
    kept: list[RecordCheck] = []
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for n, check in enumerate(checks, start=1):
            if check.id is not None:
                log.add(check.record, check.id)
            if check.status != "ok" or check.changed_cards or check.migrated:
                kept.append(check)
            if n % COLLECT_EVERY == 0:
                gc.collect(1)
    finally:
        if was_enabled:
            gc.enable()
    return kept


def _repeated_ids(path: Path, log: _IdLog) -> list[IdAt]:
    """``(record, line, id)`` of the records :meth:`_IdLog.suspects` names, their ids read again from ``path``
    exactly as :meth:`_Checker.check` reads them."""
    wanted = log.suspects()
    found: list[IdAt] = []
    if not wanted:
        return found
    for record, line_no, text in _file_records(path):
        if record in wanted:
            try:
                item = parse_json_line(text.removeprefix("\ufeff").removesuffix("\r"), "", line_no)
            except LoadError:
                continue
            ident = item.get("id") if isinstance(item, dict) else None
            if isinstance(ident, str):
                found.append((record, line_no, ident))
    return found


def _file_records(path: Path) -> Iterator[tuple[int, int, str]]:
    """``(record, line, text)`` of each non-blank line, read one line at a time (memory flat in the file size)."""
    record = 0
    with open(path, "r", encoding="utf-8", newline="\n") as handle:
        for index, line in enumerate(handle, start=1):
            text = line[:-1] if line.endswith("\n") else line
            if text.strip():
                record += 1
                yield record, index, text


def _blank(raw: bytes) -> bool:
    """Whether a line is blank as ``str.strip`` sees it (which strips more than ``bytes.strip``: U+00A0, U+2028...)."""
    return raw[:1] != b"{" and not raw.decode("utf-8").strip()


def _file_lines(path: Path, counted: list[int] | None = None) -> Iterator[tuple[int, int, bytes]]:
    """:func:`_file_records` with each line's bytes (without the ``\\n``) instead of its text: the same records.

    With ``counted`` (a one-element list), ``counted[0]`` becomes the number of lines that are not blank as
    ``bytes.strip`` sees them: the ``total`` of :func:`verify_items`, counted in the same pass.
    """
    record = 0
    total = 0
    with open(path, "rb") as handle:
        for index, line in enumerate(handle, start=1):
            raw = line[:-1] if line.endswith(b"\n") else line
            if raw[:1] == b"{":  # every line ipb perturb writes: not blank either way
                total += 1
                record += 1
                yield record, index, raw
                continue
            if raw.strip():
                total += 1
            try:
                blank = _blank(raw)
            except UnicodeDecodeError as exc:
                raise _NotUtf8 from exc
            if not blank:
                record += 1
                yield record, index, raw
    if counted is not None:
        counted[0] = total


def _file_blocks(path: Path, size: int) -> Iterator[tuple[str, int, int, int, int]]:
    """Byte ranges of ``size`` records each, found by reading the file once, line by line."""
    start = pos = 0
    count = 0
    first_record = first_line = 0
    record = 0
    with open(path, "rb") as handle:
        for index, raw in enumerate(handle, start=1):
            end = pos + len(raw)
            if not _blank(raw):  # as the workers and the one-process path see it (U+00A0 alone is blank)
                record += 1
                if count == 0:
                    start, first_record, first_line = pos, record, index
                count += 1
                if count == size:
                    yield str(path), start, end, first_record, first_line
                    count = 0
            pos = end
    if count:
        yield str(path), start, pos, first_record, first_line


class _NotUtf8(Exception):
    """A line of the items file is not UTF-8 (raised while lines are read or checked; :func:`verify_items` refuses
    the file, as its counting pass did before the one-pass reading). Only the line's own decoding raises it, so a
    ``UnicodeDecodeError`` from elsewhere is not taken for a bad items file."""


def _unreadable(name: str, exc: OSError) -> LoadError:
    return LoadError(f"cannot read {name}: {exc.strerror or exc}", file=name, rule="file")


def _not_utf8(name: str) -> LoadError:
    from ipb._files import compressed_note

    return LoadError(f"{name} is not valid UTF-8{compressed_note(name)}", file=name, rule="encoding")


def verify_lines(
    records: Sequence[tuple[int, int, str]],
    *,
    cards: Mapping[str, str] | None = None,
    schema: bool = True,
) -> Iterator[RecordCheck]:
    """Check ``(record number, line number, text)`` triples in this process; results in input order."""
    yield from _Checker(cards, schema).run(records)


def verify_items(
    path: str | Path,
    *,
    cards: Mapping[str, str] | None = None,
    schema: bool = True,
    workers: int = 1,
    card_dirs: Sequence[str | Path] = (),
) -> Verification:
    """Re-execute every item of a JSONL file against the current cards.

    The result's ``cards`` says, per card of the items, which card it was checked against and whether that card's
    hash differs from the one the items were made with (:func:`ipb.perturb.verify_cards.card_sources`).
    """
    from ipb.perturb.verify_cards import card_sources

    result = _verify_items(path, cards=cards, schema=schema, workers=workers, card_dirs=card_dirs)
    result.cards = card_sources(path, cards)
    return result


def _verify_items(
    path: str | Path,
    *,
    cards: Mapping[str, str] | None = None,
    schema: bool = True,
    workers: int = 1,
    card_dirs: Sequence[str | Path] = (),
) -> Verification:
    """Re-execute every item of a JSONL file against the current cards (:func:`verify_items` without ``cards``).

    Parameters
    ----------
    cards:
        Card id -> card file, for cards that are not bundled (by default each
        item's card ids are looked up among the bundled cards).
    schema:
        Check each line against ``grammar/item.schema.json`` first.
    workers:
        Processes to verify with (the result does not depend on it).
    card_dirs:
        Folders of card files (``--cards``), looked at before ``IPB_CARDS`` and
        the bundled cards; the items' own copies (``ipb-cards/`` beside the file)
        are used for cards found nowhere else. This sets the process's card
        search (:func:`ipb.engine.registry.use_cards`).

    Raises
    ------
    LoadError
        The file cannot be read, is not UTF-8, or holds no items.
    """
    from ipb._files import refuse_utf16_file

    name = str(path)
    file = Path(path)
    refuse_utf16_file(file, name, "items file")  # before any line: BOM-less UTF-16 read as "not JSON" (s63 B3)
    workers = max(1, min(workers, os.cpu_count() or 1))
    log = _IdLog()
    if workers == 1:
        # one pass: the lines are counted (and their UTF-8 checked) while they are verified
        use_cards(card_dirs, path)
        counted = [0]
        try:
            checks = _reportable_logged(_Checker(cards, schema).run(_file_lines(file, counted)), log)
        except OSError as exc:
            raise _unreadable(name, exc) from exc
        except _NotUtf8 as exc:
            raise _not_utf8(name) from exc.__cause__
        if not counted[0]:
            raise LoadError(f"{name} holds no items", file=name, rule="empty")
        return Verification(name, counted[0], mark_repeated_ids(checks, _repeated_ids(file, log)))
    try:
        total = 0
        with open(file, "rb") as handle:
            for raw in handle:
                raw.decode("utf-8")
                if raw.strip():
                    total += 1
    except OSError as exc:
        raise _unreadable(name, exc) from exc
    except UnicodeDecodeError as exc:
        raise _not_utf8(name) from exc
    use_cards(card_dirs, path)
    if not total:
        raise LoadError(f"{name} holds no items", file=name, rule="empty")
    try:  # the file was read as UTF-8 above; a line that no longer is (the file changed since) is refused the same
        if total < POOL_MIN:
            checks = _reportable_logged(_Checker(cards, schema).run(_file_lines(file)), log)
            return Verification(name, total, mark_repeated_ids(checks, _repeated_ids(file, log)))
        tasks = _file_blocks(file, max(200, ceil(total / (workers * 8))))
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        checks = []
        with ctx.Pool(workers, initializer=_init,
                      initargs=(cards, schema, tuple(map(str, card_dirs)), str(path))) as pool:
            for reported, seen in pool.imap(_run_block, tasks):
                checks.extend(reported)
                log.extend(seen)
    except _NotUtf8 as exc:
        raise _not_utf8(name) from exc.__cause__
    return Verification(name, total, mark_repeated_ids(checks, _repeated_ids(file, log)))
