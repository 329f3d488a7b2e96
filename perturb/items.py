"""Perturbed items: one JSON object per line, with gold obtained by executing the cards.

An item (``grammar/item.schema.json``, ``version`` 1) holds the question
text, the scenario (a valid scenario file), the gold reasoning program of
each card (paper §6.3, Appendix E) with its final verdict and trigger, and a
manifest: base id and digest, the operators and what each did, every changed
input with its old and new value, the seed and attempt number, each card's
id, investor, content hash and vintage, the publication date of each macro
fact, whether the item is an FM-6 probe, and the tool version.

Lines are ``json.dumps(item, sort_keys=True, separators=(",", ":"),
ensure_ascii=False)`` (written by orjson: :func:`ipb.engine._json.canonical_json`); numbers in facts are exact literal strings, so the
same inputs and seed give byte-identical files. Files are written atomically
(a temporary file in the same folder, then ``os.replace``).
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from importlib import metadata, resources
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import orjson as _orjson

from ipb._files import write_lines_atomic
from ipb.errors import PerturbError
from ipb.engine._json import canonical_json
from ipb.engine.execute import execute
from ipb.perturb._knowledge import knowledge_sha256
from ipb.perturb._golds import golds_of, scenario_year_of  # re-exported: items.golds_of is public
from ipb.perturb.frame import Frame, PScenario, cached_text, digest, fact_literals, scenario_key
from ipb.perturb.operators import Step
from ipb.perturb.render import render_question
from ipb.perturb.values import literal

__all__ = ["ITEM_VERSION", "KNOWLEDGE_CHANGED", "READABLE_VERSIONS", "conditions", "condition_problems", "made_by", "migrate_item", "build_item", "dumps_item", "write_lines", "item_schema", "tool_version", "item_id", "golds_of",
           "scenario_year_of"]

#: Format version of an item (``version`` in every line). Version 2 (issue 18): natural questions, the
#: ``conditions`` block, anchors in flip/isolate details. A version 1 item is read by
#: :func:`migrate_item` (its conditions computed from its question and manifest).
ITEM_VERSION = 2
#: Versions :func:`migrate_item` reads.
READABLE_VERSIONS = (1, 2)


@lru_cache(maxsize=1)
def tool_version() -> str:
    """The installed ``ipb`` version (recorded in every manifest)."""
    try:
        return metadata.version("ipb")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from an uninstalled tree
        return "0+unknown"


@lru_cache(maxsize=1)
def item_schema() -> dict[str, Any]:
    """The JSON Schema of an item, shipped as ``grammar/item.schema.json``."""
    text = resources.files("ipb.grammar").joinpath("item.schema.json").read_text(encoding="utf-8")
    return dict(json.loads(text))


def item_id(base: PScenario, key: str) -> str:
    """``BASE-ID-`` plus 16 hex digits of the SHA-256 of the scenario key: stable across runs."""
    return f"{base.id}-{digest(key)[:16]}"


def _canonical_sha256(doc: Any) -> str:
    return hashlib.sha256(canonical_json(doc).encode("utf-8")).hexdigest()


def _b_key_prefix(people: Sequence[str]) -> Any:
    """The SHA-256 state after the text of condition B's key document up to its question (see :func:`_b_key`)."""
    return hashlib.sha256(b'{"investors":' + _orjson.dumps(list(people)) + b',"query":')


def _b_key(prefix: Any, question: str) -> str:
    """``_canonical_sha256({"investors": people, "query": question})`` from :func:`_b_key_prefix` ``(people)``:
    the keys are in sorted order, so the canonical text is the prefix, the question as JSON and ``}``.

    >>> people = ["Warren Buffett"]
    >>> _b_key(_b_key_prefix(people), 'Is "it" cheap?') == _canonical_sha256({"investors": people, "query": 'Is "it" cheap?'})
    True
    """
    state = prefix.copy()
    state.update(_orjson.dumps(question))
    state.update(b"}")
    return state.hexdigest()


def conditions(question: str, investors: Sequence[str], cards: Sequence[Mapping[str, str]], *,
               making: bool = False) -> dict[str, Any]:
    """What a model run needs to reproduce conditions B and C of an item (paper §7.2), with hashes.

    Condition B retrieves knowledge cards of the named investors for the
    question text: ``B.query_sha256`` is the SHA-256 of the question (UTF-8),
    ``B.investors`` the investors whose cards are searched, ``B.key`` the
    SHA-256 of the canonical JSON ``{"investors": [...], "query": question}``
    (the retrieval key: same key, same retrieval for a given knowledge base
    and encoder), ``B.knowledge_sha256`` the knowledge version of those
    investors (:func:`ipb.perturb._knowledge.knowledge_sha256`: their registry
    entries, listed cards and the renderings' version; same version, same
    knowledge cards to retrieve from). Condition C gives the gold cards' text: ``C.cards`` each
    card's id and content hash, ``C.key`` the SHA-256 of their canonical JSON.
    ``ipb respond`` recomputes both keys from the item it reads and refuses
    or flags a mismatch (a question or card edited after the item was made).
    With ``making`` (``ipb perturb``, which makes the item from ``cards``), an
    investor's listed card among ``cards`` counts with the hash given there,
    found by id or not (s61 new user N2); without it (``ipb verify``) every
    listed card is looked up by id, which finds the items' own copies.

    >>> c = conditions("Q?", ["Warren Buffett"], [{"id": "x", "content_hash": "ab"}])
    >>> c["B"]["investors"], len(c["B"]["key"]), c["C"]["cards"][0]["id"]
    (['Warren Buffett'], 64, 'x')
    """
    people = list(dict.fromkeys(investors))
    deck = [{"id": c["id"], "content_hash": c["content_hash"]} for c in cards]
    return {
        "B": {"query_sha256": hashlib.sha256(question.encode("utf-8")).hexdigest(), "investors": people,
              "key": _canonical_sha256({"investors": people, "query": question}),
              "knowledge_sha256": knowledge_sha256(
                  people, {c["id"]: c["content_hash"] for c in cards} if making else None)},
        "C": {"cards": deck, "key": _canonical_sha256(deck)},
    }


def _item_conditions(item: Mapping[str, Any], decks: dict[Any, Any] | None = None,
                     given: Mapping[str, str] | None = None) -> dict[str, Any]:
    cards = item["manifest"]["cards"]
    investors = [c["investor"] for c in cards]
    if given:
        decks = {} if decks is None else decks
    if decks is None:
        return conditions(item["question"], investors, cards)
    deck = tuple((c["id"], c["content_hash"]) for c in cards)
    if deck not in decks:
        decks[deck] = conditions("", investors, cards)["C"]
    question = item["question"]
    people = list(dict.fromkeys(investors))
    known = ("knowledge", tuple(people), tuple(sorted((given or {}).items())))
    if known not in decks:
        decks[known] = knowledge_sha256(people, given)
    return {"B": {"query_sha256": hashlib.sha256(question.encode("utf-8")).hexdigest(), "investors": people,
                  "key": _canonical_sha256({"investors": people, "query": question}), "knowledge_sha256": decks[known]},
            "C": decks[deck]}


def made_by(manifest: Mapping[str, Any], what: str) -> str:
    """Who else could have written a part of an item that this ipb writes differently: the ipb version the
    manifest records (``tool.version``) beside this one, for messages that name both causes (an edit, or an
    upgrade of ipb).

    >>> made_by({"tool": {"name": "ipb", "version": "0.0.1"}}, "GRP wording").startswith("ipb 0.0.1, whose GRP ")
    True
    >>> made_by({}, "question wording")
    'an ipb whose question wording differs (the item does not record which ipb made it)'
    """
    tool = manifest.get("tool")
    made = tool.get("version") if isinstance(tool, Mapping) and isinstance(tool.get("version"), str) else None
    mine = tool_version()
    if made is None:
        return f"an ipb whose {what} differs (the item does not record which ipb made it)"
    if made == mine:
        return f"an ipb whose {what} differs (the item records ipb {made}, the same version as this one)"
    return f"ipb {made}, whose {what} may differ from this ipb's ({mine})"


#: How the condition problem of an edited question begins (condition B's hash of the question): ``ipb verify`` counts
#: it with the items that disagree with themselves, not as a gold mismatch (s57fixio; the break pass of stop 56).
QUESTION_EDITED = "condition B context differs from the item's question and investors: its query_sha256 is not"

#: How the condition problem of a changed knowledge base begins: not an edit of the item and not a gold mismatch.
KNOWLEDGE_CHANGED = "condition B knowledge differs from the installed knowledge base's"


def condition_problems(item: Mapping[str, Any], decks: dict[Any, Any] | None = None,
                       given: Mapping[str, str] | None = None) -> list[str]:
    """Where an item's stored ``conditions`` disagree with its question and manifest (empty: they agree).

    Each line says which part differs: condition B's hash of the question (the question was edited), its
    investors or condition C's cards (the manifest's cards were edited), or a key alone (the key was edited,
    or an ipb that computes keys differently made the item: both causes are named, with the ipb version the
    manifest records). ``decks`` remembers condition C per deck of (card id, content hash) across items.
    ``given`` (card id -> content hash) fixes the hash condition B's knowledge counts for those listed cards
    instead of the one found by id (:func:`ipb.perturb._knowledge.knowledge_sources`): ``ipb verify`` gives the
    item's own hash for a card it warns changed and the current hash for a ``--card ID=PATH`` card, so a card
    edit is judged alike through ``--card``, ``--cards`` and ``IPB_CARDS`` (s64 new user F1).
    """
    stored = item.get("conditions")
    if not isinstance(stored, Mapping):
        return ["no conditions block"]
    fresh = _item_conditions(item, decks, given)
    found = []
    have_b = stored.get("B")
    if isinstance(have_b, Mapping) and "knowledge_sha256" not in have_b:  # made before items recorded it (stop 59)
        fresh["B"] = {k: v for k, v in fresh["B"].items() if k != "knowledge_sha256"}
    elif (isinstance(have_b, Mapping) and have_b.get("knowledge_sha256") != fresh["B"]["knowledge_sha256"]
          and {**have_b, "knowledge_sha256": fresh["B"]["knowledge_sha256"]} == fresh["B"]):
        theirs = have_b.get("knowledge_sha256")
        return [f"{KNOWLEDGE_CHANGED}: conditions.B.knowledge_sha256 {_brief(theirs, 20)} is not {fresh['B']['knowledge_sha256'][:16]}..., "
                f"the SHA-256 of this installation's knowledge sources for {_brief(have_b.get('investors'))} (registry "
                "entries, the framework cards they list, the knowledge renderings' version): the registry, one of those "
                "cards or ipb's renderings changed since the item was made (or the field was edited), so condition B "
                f"may retrieve other knowledge cards; {_knowledge_advice(have_b.get('investors'))}"] + (
                    [] if stored.get("C") == fresh["C"] else
                    [f"condition C context differs from the item's cards: "
                     f"{_condition_difference('C', stored.get('C'), fresh['C'], item['manifest'])}"])
    for name in ("B", "C"):
        have, want = stored.get(name), fresh[name]
        if have != want:
            found.append(f"condition {name} context differs from the item's "
                         + ("question and investors" if name == "B" else "cards") + ": "
                         + _condition_difference(name, have, want, item["manifest"]))
    return found


def _knowledge_advice(investors: Any) -> str:
    """What to do about a condition B knowledge hash that differs: when an investor the item names is not in the
    registry loaded now, the items were most likely made with a registry file of the user's own that this run lacks
    (s62 new user N8: a reader's plain ``ipb verify items.jsonl`` was told to make the items again); else remake.

    >>> _knowledge_advice(["Warren Buffett"])
    'make the items again to record this knowledge base (or, if they were made with a registry file of your own, pass that file: --investors FILE or IPB_INVESTORS=FILE)'
    >>> _knowledge_advice(["Nobody Known"]).startswith("investor 'Nobody Known' is not in the investor registry loaded")
    True
    """
    from ipb.engine.investors import UnknownInvestorError, get_investor

    unknown = []
    for name in investors if isinstance(investors, list) else []:
        try:
            get_investor(str(name))
        except UnknownInvestorError:
            unknown.append(str(name))
    if not unknown:
        return ("make the items again to record this knowledge base (or, if they were made with a registry file of "
                "your own, pass that file: --investors FILE or IPB_INVESTORS=FILE)")
    return (f"investor {', '.join(map(repr, unknown))} is not in the investor registry loaded (the bundled one, "
            "--investors and IPB_INVESTORS): pass the registry file the items were made with (ipb verify --investors "
            "FILE, or IPB_INVESTORS=FILE) instead of making the items again")


def _condition_difference(name: str, have: Any, want: Mapping[str, Any], manifest: Mapping[str, Any]) -> str:
    """Which part of stored condition ``name`` (``have``) differs from the one this ipb computes (``want``)."""
    if not isinstance(have, Mapping):
        return f"conditions.{name} is {type(have).__name__}, not an object (edited after the item was made)"
    if name == "B" and have.get("query_sha256") != want["query_sha256"]:
        return ("its query_sha256 is not the SHA-256 of the question: the question (or conditions.B) was edited "
                "after the item was made")
    part, source = ("investors", "the manifest's cards' investors") if name == "B" else ("cards", "the manifest's cards")
    if have.get(part) != want[part]:
        return (f"its {part} {_brief(have.get(part))} differ from {source} {_brief(want[part])}: the manifest's cards "
                f"or conditions.{name} were edited after the item was made")
    if have.get("key") != want["key"]:
        return (f"its key is not the SHA-256 this ipb computes from its {'question and investors' if name == 'B' else 'cards'}"
                f": either conditions.{name}.key was edited, or it was written by {made_by(manifest, 'condition key')}"
                "; if the key changed, make the items again with this ipb's ipb perturb")
    extra = sorted(set(have) ^ set(want))
    return (f"its fields differ ({', '.join(map(str, extra))}): either conditions.{name} was edited, or it was written "
            f"by {made_by(manifest, 'conditions block')}")


def _brief(value: Any, keep: int = 120) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return text if len(text) <= keep else text[:keep] + "..."


def migrate_item(item: dict[str, Any]) -> dict[str, Any]:
    """An item of any readable version as the current version (a copy when it changes).

    Version 1 -> 2: the ``conditions`` block is computed from the question and
    the manifest's cards, without ``B.knowledge_sha256`` (which knowledge base
    the item was made with is not known); nothing else changes (a version 1 question keeps
    its old wording, and its gold is unchanged).

    Raises
    ------
    PerturbError
        Rule ``version``: a version this tool cannot read.
    """
    version = item.get("version")
    if version == ITEM_VERSION:
        return item
    if version == 1:  # without B.knowledge_sha256: the knowledge base the item was made with is not known
        made = _item_conditions(item)
        made["B"].pop("knowledge_sha256")
        return {**item, "version": ITEM_VERSION, "conditions": made}
    raise PerturbError(f"item version {version!r} cannot be read (readable: {', '.join(map(str, READABLE_VERSIONS))}); "
                       "make the items again with ipb perturb", rule="version")


def dumps_item(item: dict[str, Any]) -> str:
    """One JSONL line (no newline): sorted keys, no spaces, UTF-8 text."""
    return canonical_json(item)


def _frame_conditions(frame: Frame, question: str, cards: Sequence[Mapping[str, str]],
                      shared: bool = False) -> dict[str, Any]:
    """:func:`conditions` of an item of ``frame``; condition C (the same for every item of the frame) is hashed once
    (with ``shared``, given as the frame's own objects: see :func:`build_item`)."""
    held = frame.memo.get("conditions")
    if held is None:
        held = frame.memo["conditions"] = conditions("", [c["investor"] for c in cards], cards, making=True)
    people = held["B"]["investors"]
    prefix = frame.memo.get("conditions_b_prefix")
    if prefix is None:  # B's key text up to the question is the same for every item of the frame: hashed once
        prefix = frame.memo["conditions_b_prefix"] = _b_key_prefix(people)
    try:
        key = _b_key(prefix, question)
    except TypeError:  # a text orjson refuses (a lone surrogate): canonical_json's own fallback writes it
        key = _canonical_sha256({"investors": people, "query": question})
    return {"B": {"query_sha256": hashlib.sha256(question.encode("utf-8")).hexdigest(),
                  "investors": people if shared else list(people),
                  "key": key, "knowledge_sha256": held["B"]["knowledge_sha256"]},
            "C": held["C"] if shared else {"cards": [dict(c) for c in held["C"]["cards"]], "key": held["C"]["key"]}}


def _manifest_cards(frame: Frame) -> list[dict[str, Any]]:
    """``manifest.cards`` of every item of ``frame``: each card's id, investor, content hash, source and vintage."""
    return [
        {"id": c.card.id, "investor": c.card.investor, "content_hash": c.card.content_hash,
         "source": f"ipb-cards/{c.card.content_hash}.yaml",
         "vintage": {"start": w.start, "end": w.end, "source": w.source}}
        for c, w in zip(frame.cards, frame.windows)
    ]


def build_item(
    frame: Frame,
    base: PScenario,
    scenario: PScenario,
    steps: Sequence[Step],
    *,
    recipe: str,
    args: Sequence[str | None],
    seed: int,
    attempt: int,
    key: str | None = None,
    literals: Mapping[str, Any] | None = None,
    base_digest: str | None = None,
    shared: bool = False,
    undated: str = "",
) -> dict[str, Any]:
    """The item for a perturbed scenario: gold by execution, question text, manifest.

    Parameters
    ----------
    base, scenario:
        The base scenario and the perturbed one.
    steps:
        What each operator did, in order (``args`` gives each one's argument).
    seed, attempt:
        The run's seed and this item's attempt number within its recipe.
    shared:
        True: the parts that are the same in every item of ``frame``
        (``manifest.cards``, ``manifest.tool``, ``conditions.C``,
        ``conditions.B.investors``) are the frame's own objects, built once,
        not copies; for a caller that only serialises the item and drops it
        (:meth:`ipb.perturb.generation.Generator.attempt`). The item's value
        is the same either way.
    undated:
        Why an item of a dated base keeps no date, in words ("macro_regime moved (it describes the day)"), recorded
        as ``manifest.undated``; "" (no key) for a dated item or an undated base. s60 new user N12: a fifth to a
        quarter of a dated base's items had no date and nothing in the item said why (docs/perturbation.md, "Dates
        that fit the facts").
    """
    facts = dict(literals) if literals is not None else fact_literals(frame, scenario)
    key = key if key is not None else scenario_key(frame, scenario, facts)
    ident = item_id(base, key)
    layer = frame.layer
    scen: dict[str, Any] = {"id": ident, "layer": layer, "facts": facts}
    if layer == "L7":
        scen["card"] = frame.card_ids[0]
    if scenario.as_of is not None:
        scen["as_of"] = scenario.as_of.isoformat()
    golds = []
    for i, compiled in enumerate(frame.cards):
        grp = execute(compiled, frame.facts_for(i, scenario.facts), scenario_id=ident, layer=layer).to_grp(shared)
        golds.append({
            "card": compiled.card.id,
            "investor": compiled.card.investor,
            "grp": grp,
            "investment_verdict": grp["investment_verdict"],
            "verdict_trigger": grp["verdict_trigger"],
        })
    changes = []
    # cached_text's "literal" memo read here without a call per value (as fact_literals does); a value not yet
    # remembered (or remembered as None) goes through cached_text, so the texts are the same (s39speed)
    said = frame.memo.setdefault("literal", {})
    names = frame.inputs.keys()
    for name, old, new in zip(names, map(base.facts.get, names), map(scenario.facts.get, names)):
        if old != new:
            old_text = said.get((name, old, type(old)))
            if old_text is None:
                old_text = cached_text(frame, "literal", name, old, literal)
            new_text = said.get((name, new, type(new)))
            if new_text is None:
                new_text = cached_text(frame, "literal", name, new, literal)
            changes.append({"input": name, "old": old_text, "new": new_text})
    anachronisms = frame.anachronisms(scenario.as_of)
    if shared:
        held = frame.memo.get("manifest_constants")
        if held is None:
            held = frame.memo["manifest_constants"] = (_manifest_cards(frame), {"name": "ipb", "version": tool_version()})
        cards, tool = held
    else:
        cards, tool = _manifest_cards(frame), {"name": "ipb", "version": tool_version()}
    manifest = {
        "base": {"id": base.id, "digest": base_digest or digest(scenario_key(frame, base)),
                 "as_of": base.as_of.isoformat() if base.as_of else None},
        "recipe": recipe,
        "operators": [{"name": s.operator, "arg": a, "details": s.details} for s, a in zip(steps, args)],
        "changes": changes,
        "context": {"as_of": scenario.as_of.isoformat() if scenario.as_of else None, "sector": scenario.sector,
                    "regime": scenario.regime},
        "seed": seed,
        "attempt": attempt,
        "cards": cards,
        "fact_dates": {name: d.isoformat() for name, d in sorted(scenario.published.items())},
        "fm6_probe": bool(anachronisms),
        "anachronisms": anachronisms,
        "tool": tool,
    }
    if frame.deck_record is not None:  # the L8 base's own constraints travel with the item (perturb/deck.py)
        manifest["deck"] = frame.deck_record
    if undated:
        manifest["undated"] = undated
    question = render_question(frame, scenario)
    item: dict[str, Any] = {
        "version": ITEM_VERSION,
        "id": ident,
        "layer": layer,
        "question": question,
        "scenario": scen,
        "manifest": manifest,
        "conditions": _frame_conditions(frame, question, manifest["cards"], shared),
    }
    if layer == "L7":
        gold = golds[0]
        item.update(card=gold["card"], grp=gold["grp"], investment_verdict=gold["investment_verdict"],
                    verdict_trigger=gold["verdict_trigger"])
    else:
        item.update(cards=list(frame.card_ids), golds=golds)
    return item


def write_lines(path: str | Path, lines: Iterable[str]) -> None:
    """Write ``lines`` (each without its newline) to ``path`` atomically (:func:`ipb._files.write_lines_atomic`)."""
    write_lines_atomic(path, lines)
